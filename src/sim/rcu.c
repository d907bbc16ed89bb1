/* rcu.c - what the RCU flavours share, and rcupreempt (2007 -rt); see rcu.h. */
#include "rcu.h"
#include "stall.h"

#include <string.h>

#include "engine.h"
#include "tree.h"

static const struct rcu_flavour_ops rcupreempt_flavour;

static void cblist_init(struct rcu_cblist *l)
{
        l->head = NULL;
        l->tail = &l->head;
        l->count = 0;
}

static void cblist_append(struct rcu_cblist *l, struct rcu_callback *cb)
{
        cb->next = NULL;
        *l->tail = cb;
        l->tail = &cb->next;
        l->count++;
}

/* Move all of @src to the end of @dst, leaving @src empty. */
static void cblist_splice(struct rcu_cblist *dst, struct rcu_cblist *src)
{
        if (!src->head)
                return;
        *dst->tail = src->head;
        dst->tail = src->tail;
        dst->count += src->count;
        cblist_init(src);
}

static struct rcu_callback *cblist_pop(struct rcu_cblist *l)
{
        struct rcu_callback *cb = l->head;

        if (cb) {
                l->head = cb->next;
                if (!l->head)
                        l->tail = &l->head;
                l->count--;
        }
        return cb;
}

const struct rcu_flavour_ops *rcu_flavour_for(const struct scenario *sc, const struct boost_policy_ops *policy,
                                              GError **error)
{
        const char *want = rcu_flavour_name(sc, policy);

        if (policy->rcu_flavour && strcmp(want, policy->rcu_flavour) != 0) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                            "policy %s needs [rcu] flavour=%s, but the scenario says flavour=%s",
                            policy->name, policy->rcu_flavour, want);
                return NULL;
        }
        if (strcmp(want, rcu_tree_flavour.name) == 0)
                return &rcu_tree_flavour;
        return &rcupreempt_flavour;
}

const char *rcu_flavour_name(const struct scenario *sc, const struct boost_policy_ops *policy)
{
        return sc->rcu_flavour ? sc->rcu_flavour : policy->rcu_flavour ? policy->rcu_flavour : "rcupreempt";
}

static void init_rcupreempt(struct sim *sim)
{
        struct rcu *rcu = &sim->rcu;

        rcu->cpus = g_new0(struct rcu_cpu, sim->ncpus);
        for (int c = 0; c < sim->ncpus; c++) {
                struct rcu_cpu *rdp = &rcu->cpus[c];

                cblist_init(&rdp->next);
                cblist_init(&rdp->done);
                for (int i = 0; i < RCU_GP_STAGES; i++)
                        cblist_init(&rdp->wait[i]);
        }
}

void rcu_init(struct sim *sim, const struct rcu_flavour_ops *flavour)
{
        struct rcu *rcu = &sim->rcu;

        memset(rcu, 0, sizeof(*rcu));
        rcu->flavour = flavour;
        flavour->init(sim);
        rcu->oom_ns = -1;
        latency_stat_init(&rcu->flip_latency);
        latency_stat_init(&rcu->gp_latency);
        latency_stat_init(&rcu->cb_latency);
        latency_stat_init(&rcu->sync_latency);
        latency_stat_init(&rcu->cs_length);
}

static void free_list(struct rcu_callback *cb)
{
        while (cb) {
                struct rcu_callback *next = cb->next;

                g_free(cb);
                cb = next;
        }
}

static void finish_rcupreempt(struct sim *sim)
{
        struct rcu *rcu = &sim->rcu;

        for (int c = 0; rcu->cpus && c < sim->ncpus; c++) {
                struct rcu_cpu *rdp = &rcu->cpus[c];

                free_list(rdp->next.head);
                free_list(rdp->done.head);
                for (int i = 0; i < RCU_GP_STAGES; i++)
                        free_list(rdp->wait[i].head);
                g_free(rdp->inflight);
        }
        g_free(rcu->cpus);
}

void rcu_finish(struct sim *sim)
{
        struct rcu *rcu = &sim->rcu;

        if (rcu->flavour)
                rcu->flavour->finish(sim);
        free_list(rcu->pool);
        latency_stat_finish(&rcu->flip_latency);
        latency_stat_finish(&rcu->gp_latency);
        latency_stat_finish(&rcu->cb_latency);
        latency_stat_finish(&rcu->sync_latency);
        latency_stat_finish(&rcu->cs_length);
}

/* ---- read side ---- */

void rcu_reader_begin(struct sim *sim, struct task *t)
{
        sim->rcu.readers++;
        t->rcu_read_start_ns = sim->now;
        if (sim->timeline_on)
                timeline_begin(sim->timeline, sim->now, "cs", t->id, t->name);
        oracle_reader_enter(&sim->oracle, t);
        sim_charge_task(sim, t, COST_READ_LOCK, 1, COST_PATH_READ);
}

void rcu_reader_end(struct sim *sim, struct task *t)
{
        oracle_reader_exit(&sim->oracle, t);
        if (sim->timeline_on)
                timeline_end(sim->timeline, sim->now, "cs", t->id);
}

void rcu_reader_done(struct sim *sim, struct task *t)
{
        t->rcu_preempted = false;
        latency_stat_add(&sim->rcu.cs_length, sim->now - t->rcu_read_start_ns);
        sim_charge_task(sim, t, COST_READ_UNLOCK, 1, COST_PATH_READ);
        if (sim->policy->reader_unlock)
                sim->policy->reader_unlock(sim->pol, t);
}

void rcu_read_lock(struct sim *sim, struct task *t)
{
        if (t->rcu_nesting++ > 0)
                return;
        sim->rcu.flavour->read_lock(sim, t);
}

void rcu_read_unlock(struct sim *sim, struct task *t)
{
        if (--t->rcu_nesting > 0)
                return;
        sim->rcu.flavour->read_unlock(sim, t);
}

void rcu_note_switch_out(struct sim *sim, struct task *t, enum rcu_block_reason why)
{
        t->rcu_preempted = true;
        sim->rcu.reader_switch_outs++;
        sim->rcu.flavour->switch_out(sim, t, why);
        if (sim->policy->reader_blocked)
                sim->policy->reader_blocked(sim->pol, t, why);
}

void rcu_note_context_switch(struct sim *sim, int cpu)
{
        if (sim->rcu.flavour->context_switch)
                sim->rcu.flavour->context_switch(sim, cpu);
}

static void read_lock_rcupreempt(struct sim *sim, struct task *t)
{
        struct rcu *rcu = &sim->rcu;

        t->rcu_idx = (int)(rcu->completed & 1);
        rcu->cpus[t->cpu].flipctr[t->rcu_idx]++;
        rcu->flipsum[t->rcu_idx]++;
        rcu_reader_begin(sim, t);
}

static void read_unlock_rcupreempt(struct sim *sim, struct task *t)
{
        struct rcu *rcu = &sim->rcu;

        /* The CPU it runs on now, not the one it started on. */
        rcu->cpus[t->cpu].flipctr[t->rcu_idx]--;
        rcu->flipsum[t->rcu_idx]--;
        rcu_reader_end(sim, t);
        if (t->rcu_preempted)
                sim_trace(sim, t->cpu, "rcu_unlock_preempted_task", "rcu_preempt %ld %d", (long)rcu->completed,
                          task_pid(t));
        rcu_reader_done(sim, t);
}

static void switch_out_rcupreempt(struct sim *sim, struct task *t, enum rcu_block_reason why)
{
        (void)why;
        sim_trace(sim, t->cpu, "rcu_preempt_task", "rcu_preempt %ld %d", (long)sim->rcu.completed, task_pid(t));
}

/* ---- callbacks ---- */

static struct rcu_callback *cb_alloc(struct rcu *rcu)
{
        struct rcu_callback *cb = rcu->pool;

        /* The pool is freed to in bursts and taken from a call at a time,
         * a grace period later: fetch the next one's link now. */
        if (cb) {
                rcu->pool = cb->next;
                __builtin_prefetch(rcu->pool);
        } else
                cb = g_new(struct rcu_callback, 1);
        return cb;
}

static void advance_callbacks(struct rcu *rcu, struct rcu_cpu *rdp);

static void enqueue_callback(struct sim *sim, struct task *t, int64_t size, struct task *waiter)
{
        struct rcu *rcu = &sim->rcu;
        struct rcu_callback *cb = cb_alloc(rcu);

        *cb = (struct rcu_callback){
                .id = rcu->next_cb_id++, .size_bytes = size, .call_ns = sim->now,
                .stamp = oracle_stamp(&sim->oracle), .caller = t, .waiter = waiter,
        };
        rcu->flavour->enqueue(sim, t, cb);
        rcu->outstanding++;
}

/* call_rcu(): as rcupreempt.c, advance this CPU's lists first
 * (__rcu_advance_callbacks(), which also acknowledges a pending flip). */
static void enqueue_rcupreempt(struct sim *sim, struct task *t, struct rcu_callback *cb)
{
        struct rcu *rcu = &sim->rcu;

        advance_callbacks(rcu, &rcu->cpus[t->cpu]);
        cblist_append(&rcu->cpus[t->cpu].next, cb);
}

void rcu_call(struct sim *sim, struct task *t, int64_t size_bytes)
{
        struct rcu *rcu = &sim->rcu;
        int64_t total;

        /* Heavy-tailed sizes add up: stop rather than wrap to negative memory. */
        if (__builtin_add_overflow(rcu->memory_bytes, size_bytes, &total)) {
                sim_stop(sim, "error", g_error_new(SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                                                   "call_rcu by %s at %" G_GINT64_FORMAT " ns: memory waiting on "
                                                   "RCU would exceed 2^63 bytes (set [rcu] memory_limit, or "
                                                   "smaller sizes)", t->name, (gint64)sim->now));
                return;
        }
        enqueue_callback(sim, t, size_bytes, NULL);
        rcu->registered++;
        rcu->memory_bytes = total;
        if (rcu->memory_bytes > rcu->peak_memory_bytes)
                rcu->peak_memory_bytes = rcu->memory_bytes;
        if (sim->sc->memory_limit_bytes && !rcu->oom &&
            rcu->memory_bytes > sim->sc->memory_limit_bytes) {
                rcu->oom = true;
                rcu->oom_ns = sim->now;
                rcu->oom_bytes = rcu->memory_bytes;
                sim_sample_memory(sim);
                if (sim->sc->stop_on_oom)
                        sim_stop(sim, "oom", NULL);
        }
}

void rcu_synchronize(struct sim *sim, struct task *t)
{
        /* As rcupreempt: a callback that wakes the caller (wakeme_after_rcu). */
        t->sync_start_ns = sim->now;
        t->in_sync = true;
        if (sim->policy->sync_start)
                sim->policy->sync_start(sim->pol, t);
        sim->rcu.sync_waiting++;
        enqueue_callback(sim, t, 0, t);
        rcu_check_deadlock(sim);
}

/* Does reader @r hold up the grace period @waiter waits for?  Surely if its
 * critical section began before the synchronize_rcu() call, or if it is on
 * the index the flip in progress waits to drain.  (A later reader on the
 * new index may not be: it is checked again when the next flip starts,
 * when every reader then in a critical section is on the old index.) */
static bool holds_up_rcupreempt(const struct sim *sim, const struct task *r, const struct task *waiter)
{
        const struct rcu *rcu = &sim->rcu;

        return r->rcu_read_start_ns <= waiter->sync_start_ns ||
               (rcu->state != RCU_FLIP_IDLE && r->rcu_idx == !(rcu->completed & 1));
}

void rcu_check_deadlock(struct sim *sim)
{
        /* Otherwise a scan of every task, on each synchronize_rcu() and
         * each flip start: the counts make the usual case O(1). */
        if (sim->rcu.sync_waiting == 0 || sim->rcu.readers_on_mutex == 0)
                return;
        for (guint i = 0; i < sim->tasks->len; i++) {
                struct task *r = sim_task(sim, (int)i);
                struct task *o;
                int steps = 0;

                if (r->rcu_nesting == 0 || !r->blocked_on)
                        continue;
                /* Down the mutex chain (a mutex cycle is mutex.c's to report). */
                for (o = r->blocked_on->owner; o && !o->in_sync && o->blocked_on && steps < (int)sim->tasks->len;
                     o = o->blocked_on->owner, steps++)
                        ;
                if (!o || !o->in_sync || !sim->rcu.flavour->holds_up(sim, r, o))
                        continue;

                GString *s = g_string_new(NULL);

                g_string_printf(s, "deadlock: %s, in an RCU read-side critical section, waits for mutex %s",
                                r->name, r->blocked_on->name);
                for (struct task *p = r->blocked_on->owner; p; p = p->blocked_on->owner) {
                        g_string_append_printf(s, " held by %s", p->name);
                        if (p == o)
                                break;
                        g_string_append_printf(s, ", which waits for mutex %s", p->blocked_on->name);
                }
                g_string_append_printf(s, ", which waits in synchronize_rcu() for a grace period that waits "
                                       "for %s (boosting cannot help: nobody can run)", r->name);
                sim_stop(sim, "error", g_error_new_literal(SCENARIO_ERROR, SCENARIO_ERROR_INVALID, s->str));
                g_string_free(s, TRUE);
                return;
        }
}

void rcu_invoke(struct sim *sim, struct rcu_callback *cb)
{
        struct rcu *rcu = &sim->rcu;

        oracle_check(&sim->oracle, sim, cb);
        rcu->outstanding--;
        if (sim->now - cb->call_ns > sim->sc->stall_threshold_ns)
                (*(cb->waiter ? &rcu->sync_over_threshold : &rcu->cb_over_threshold))++;
        if (cb->waiter) {
                cb->waiter->in_sync = false;
                cb->waiter->sync_returning = true;
                rcu->sync_waiting--;
                latency_stat_add(&rcu->sync_latency, sim->now - cb->call_ns);
                sched_wake(sim, cb->waiter);
        } else {
                rcu->invoked++;
                rcu->memory_bytes -= cb->size_bytes;
                latency_stat_add(&rcu->cb_latency, sim->now - cb->call_ns);
        }
        cb->next = rcu->pool;
        rcu->pool = cb;
}

/* The callback thread (rcu_cb/N): invoke `done` callbacks one at a time. */
static struct step cb_thread_step(struct sim *sim, struct task *t)
{
        struct rcu_cpu *rdp = t->step_data;
        struct rcu_callback *cb;

        if (rdp->inflight) {
                rcu_invoke(sim, rdp->inflight);
                rdp->inflight = NULL;
                if (sched_need_resched(&sim->cpus[t->cpu]))
                        return (struct step){ STEP_COMPUTE, 0 };
        }
        cb = cblist_pop(&rdp->done);
        if (!cb)
                return (struct step){ STEP_WAIT, 0 };
        /* Queued a grace period ago, long out of the cache: the next one
         * is invoked at this thread's next step. */
        __builtin_prefetch(rdp->done.head);
        rdp->inflight = cb;
        sim_charge_task(sim, t, COST_CALLBACK, 1, COST_PATH_CALLBACK);
        return (struct step){ STEP_COMPUTE, 0 };
}

static void start_rcupreempt(struct sim *sim)
{
        for (int c = 0; c < sim->ncpus; c++) {
                struct cpumask only;
                g_autofree char *name = g_strdup_printf("rcu_cb/%d", c);

                cpumask_clear(&only);
                cpumask_set(&only, c);
                sim->rcu.cpus[c].cb_thread = sim_kthread_create(sim, name, &sim->sc->callback_sched,
                                                                &only, cb_thread_step,
                                                                &sim->rcu.cpus[c], false);
        }
}

void rcu_start(struct sim *sim)
{
        sim->rcu.flavour->start(sim);
}

/* ---- the grace-period state machine ---- */

static bool cpu_has_callbacks(const struct rcu_cpu *rdp)
{
        return rdp->next.head || rdp->wait[0].head || rdp->wait[1].head || rdp->done.head;
}

static void enter_state(struct sim *sim, int cpu, enum rcu_flip_state s)
{
        struct rcu *rcu = &sim->rcu;

        /* As the kernel's rcu_grace_period: flavour, number, event. */
        sim_trace(sim, cpu, "rcu_grace_period", "rcu_preempt %ld %s", (long)rcu->completed,
                  s == RCU_FLIP_IDLE ? "end" : rcu_flip_state_name(s));

        rcu->phase_ns[rcu->state] += sim->now - rcu->phase_start_ns;
        rcu->phase_start_ns = sim->now;
        rcu->state = s;
        timeline_gp(sim->timeline, sim->now, rcu_flip_state_name(s));
}

/* Start of the grace period that flip cycle @flip completes: the first of
 * the RCU_GP_STAGES consecutive flips ending with @flip ("a single flip does
 * -not- constitute a grace period", rcupreempt.c), which callbacks waited
 * through; -1 when there is none (too few flips, or nothing waited). */
static sim_time_ns gp_start_of(const struct rcu *rcu, int64_t flip)
{
        int64_t first = flip - (RCU_GP_STAGES - 1);

        if (first < 1 || !rcu->flip_began_gp[first % RCU_GP_STAGES])
                return -1;
        return rcu->flip_start_ns[first % RCU_GP_STAGES];
}

/* Did callbacks enter wait[0] at the flip that is ending?  Every CPU has
 * acknowledged it (advanced its lists) by now. */
static bool callbacks_entered_wait(const struct sim *sim)
{
        for (int c = 0; c < sim->ncpus; c++)
                if (sim->rcu.cpus[c].wait[0].head)
                        return true;
        return false;
}

void rcu_gp_ended(struct sim *sim, int64_t len)
{
        struct rcu *rcu = &sim->rcu;

        rcu->gp_completed++;
        latency_stat_add(&rcu->gp_latency, len);
        if (len > sim->sc->stall_threshold_ns)
                rcu->gp_over_threshold++;
}

/* A flip cycle ended at waitmb: it completes the grace period that began
 * RCU_GP_STAGES - 1 flips earlier. */
static void flip_ended(struct sim *sim)
{
        struct rcu *rcu = &sim->rcu;
        int64_t len = sim->now - rcu->gp_start_ns;
        sim_time_ns gp_start = gp_start_of(rcu, rcu->completed);
        int64_t gp_len = gp_start >= 0 ? sim->now - gp_start : -1;

        rcu->flip_began_gp[rcu->completed % RCU_GP_STAGES] = callbacks_entered_wait(sim);
        rcu->flips_completed++;
        latency_stat_add(&rcu->flip_latency, len);
        if (gp_len >= 0)
                rcu_gp_ended(sim, gp_len);
        if (rcu->gp_csv) {
                fprintf(rcu->gp_csv, "%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                        ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                        ",%" G_GINT64_FORMAT ",",
                        (gint64)rcu->completed, (gint64)rcu->gp_start_ns, (gint64)sim->now, (gint64)len,
                        (gint64)rcu->phase_ns[RCU_FLIP_WAITACK], (gint64)rcu->phase_ns[RCU_FLIP_WAITZERO],
                        (gint64)rcu->phase_ns[RCU_FLIP_WAITMB]);
                if (gp_len >= 0)
                        fprintf(rcu->gp_csv, "%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT, (gint64)gp_start,
                                (gint64)gp_len);
                else
                        fputs(",", rcu->gp_csv);
                fputc('\n', rcu->gp_csv);
        }
        if (sim->policy->gp_end)
                sim->policy->gp_end(sim->pol, rcu->completed);
}

/* rcu_try_flip(): advance the global machine by at most one state. */
static void try_flip(struct sim *sim, int cpu)
{
        struct rcu *rcu = &sim->rcu;

        switch (rcu->state) {
        case RCU_FLIP_IDLE:
                if (!cpu_has_callbacks(&rcu->cpus[cpu]))
                        return;
                rcu->completed++;
                for (int c = 0; c < sim->ncpus; c++)
                        rcu->cpus[c].flip_pending = true;
                rcu->acks_pending = sim->ncpus;
                rcu->gp_start_ns = sim->now;
                rcu->flip_start_ns[rcu->completed % RCU_GP_STAGES] = sim->now;
                rcu->phase_start_ns = sim->now;
                memset(rcu->phase_ns, 0, sizeof(rcu->phase_ns));
                rcu->state = RCU_FLIP_WAITACK;
                sim_trace(sim, cpu, "rcu_grace_period", "rcu_preempt %ld start", (long)rcu->completed);
                timeline_gp(sim->timeline, sim->now, rcu_flip_state_name(rcu->state));
                rcu_check_deadlock(sim);
                if (sim->policy->gp_start)
                        sim->policy->gp_start(sim->pol, rcu->completed);
                break;
        case RCU_FLIP_WAITACK:
                if (rcu->acks_pending == 0)
                        enter_state(sim, cpu, RCU_FLIP_WAITZERO);
                break;
        case RCU_FLIP_WAITZERO:
                /* Readers that started before the flip used the other index. */
                if (rcu->flipsum[!(rcu->completed & 1)] != 0 && !sim->sc->break_grace_periods)
                        return;
                for (int c = 0; c < sim->ncpus; c++)
                        rcu->cpus[c].mb_pending = true;
                rcu->mbs_pending = sim->ncpus;
                enter_state(sim, cpu, RCU_FLIP_WAITMB);
                break;
        case RCU_FLIP_WAITMB:
                if (rcu->mbs_pending == 0) {
                        enter_state(sim, cpu, RCU_FLIP_IDLE);
                        flip_ended(sim);
                }
                break;
        }
}

/* __rcu_advance_callbacks(): move lists along when `completed` moved. */
static void advance_callbacks(struct rcu *rcu, struct rcu_cpu *rdp)
{
        if (rdp->completed != rcu->completed) {
                cblist_splice(&rdp->done, &rdp->wait[RCU_GP_STAGES - 1]);
                for (int i = RCU_GP_STAGES - 2; i >= 0; i--)
                        cblist_splice(&rdp->wait[i + 1], &rdp->wait[i]);
                cblist_splice(&rdp->wait[0], &rdp->next);
                rdp->completed = rcu->completed;
        }
        if (rdp->flip_pending) {
                rdp->flip_pending = false;
                rcu->acks_pending--;
        }
}

/* rcu_check_callbacks(), from the scheduling-clock tick of @cpu. */
static void tick_rcupreempt(struct sim *sim, int cpu)
{
        struct rcu *rcu = &sim->rcu;
        struct rcu_cpu *rdp = &rcu->cpus[cpu];

        if (rdp->mb_pending) {
                rdp->mb_pending = false;
                rcu->mbs_pending--;
        }
        if (rcu->completed == rdp->completed)
                try_flip(sim, cpu);
        advance_callbacks(rcu, rdp);
        if (rdp->done.head && rdp->cb_thread->state == TASK_WAITING)
                sched_wake(sim, rdp->cb_thread);
}

void rcu_tick(struct sim *sim, int cpu)
{
        sim->rcu.flavour->tick(sim, cpu);
        /* the stall warning's look, as the kernel's from the scheduling-clock tick */
        if (cpu == 0 && !sim->stall)
                stall_check(sim);
}

void rcu_count_overdue_one(const struct sim *sim, const struct rcu_callback *cb, struct rcu_report_state *st)
{
        int64_t age = sim->now - cb->call_ns;

        if (cb->waiter) {
                st->overdue_syncs += age > sim->sc->stall_threshold_ns;
                st->oldest_sync_ns = MAX(st->oldest_sync_ns, age);
        } else {
                st->overdue_callbacks += age > sim->sc->stall_threshold_ns;
                st->oldest_callback_ns = MAX(st->oldest_callback_ns, age);
        }
}

void rcu_count_overdue(const struct sim *sim, const struct rcu_callback *cb, struct rcu_report_state *st)
{
        for (; cb; cb = cb->next)
                rcu_count_overdue_one(sim, cb, st);
}

void rcu_report(struct sim *sim, struct report *r)
{
        struct rcu *rcu = &sim->rcu;

        report_bool(r, "memory.oom", rcu->oom);
        report_int(r, "memory.oom_time_ns", rcu->oom_ns);
        report_int(r, "memory.oom_bytes", rcu->oom_bytes);
        report_int(r, "memory.limit_bytes", sim->sc->memory_limit_bytes);
        report_int(r, "memory.peak_bytes", rcu->peak_memory_bytes);
        report_int(r, "memory.final_bytes", rcu->memory_bytes);
        report_string(r, "rcu.flavour", rcu->flavour->name);
        rcu->flavour->report(sim, r);
}

static int64_t gp_in_progress_rcupreempt(const struct sim *sim)
{
        const struct rcu *rcu = &sim->rcu;
        sim_time_ns gp_start = gp_start_of(rcu, rcu->completed);

        if (rcu->state == RCU_FLIP_IDLE)
                return 0;
        return gp_start >= 0 ? sim->now - gp_start : sim->now - rcu->gp_start_ns;
}

void rcu_report_common(struct sim *sim, struct report *r, const struct rcu_report_state *st)
{
        struct rcu *rcu = &sim->rcu;

        report_int(r, "rcu.grace_periods", rcu->gp_completed);
        report_int(r, "rcu.flips", rcu->flips_completed);
        report_int(r, "rcu.callbacks_registered", rcu->registered);
        report_int(r, "rcu.callbacks_invoked", rcu->invoked);
        report_int(r, "rcu.callbacks_pending", rcu->outstanding);
        report_int(r, "rcu.read_sections", rcu->readers);
        report_int(r, "rcu.reader_switch_outs", rcu->reader_switch_outs);
        report_string(r, "rcu.final_state", rcu_state_name(sim));
        /* A stalled grace period never completes, so gp_latency cannot show
         * it: report the age of the oldest one in progress. */
        int64_t pending = rcu->flavour->gp_in_progress(sim);

        report_int(r, "rcu.flip_in_progress_ns", st->flip_age);
        report_int(r, "rcu.gp_in_progress_ns", pending);
        /* "GP max 3 ms" beside a 2.67 s stall misleads: the longest grace
         * period, counting the pending one as at least its age so far. */
        int64_t completed_max = rcu->gp_latency.count ? rcu->gp_latency.max_ns : 0;

        if (rcu->gp_latency.count || pending)
                report_int(r, "rcu.gp_max_at_least_ns", MAX(pending, completed_max));
        else
                report_null(r, "rcu.gp_max_at_least_ns");
        report_bool(r, "rcu.gp_max_is_pending", pending > completed_max);
        /* As rcutorture's boost test counts failures (rcu_torture_boost_failed():
         * a grace period that took longer than the threshold); what is still
         * waiting at the end and has waited that long counts too. */
        int64_t thr = sim->sc->stall_threshold_ns;

        report_int(r, "rcu.stall_threshold_ns", thr);
        report_int(r, "rcu.gp_over_threshold", rcu->gp_over_threshold + (pending > thr));
        report_int(r, "rcu.callbacks_over_threshold", rcu->cb_over_threshold + st->overdue_callbacks);
        report_int(r, "rcu.sync_over_threshold", rcu->sync_over_threshold + st->overdue_syncs);
        /* What is still waiting counts towards the latency maxima as at least
         * its age (report_lookup_bound()). */
        report_int(r, "rcu.oldest_callback_pending_ns", st->oldest_callback_ns);
        report_int(r, "rcu.oldest_sync_pending_ns", st->oldest_sync_ns);
}

void rcu_report_latencies(struct sim *sim, struct report *r)
{
        struct rcu *rcu = &sim->rcu;

        report_latency(r, "gp_latency", &rcu->gp_latency);
        report_latency(r, "flip_latency", &rcu->flip_latency);
        report_latency(r, "callback_latency", &rcu->cb_latency);
        report_latency(r, "sync_latency", &rcu->sync_latency);
        report_latency(r, "read_section_length", &rcu->cs_length);
}

static void report_rcupreempt(struct sim *sim, struct report *r)
{
        struct rcu *rcu = &sim->rcu;
        struct rcu_report_state st = {
                /* the age of the flip in progress; gp_in_progress is that of
                 * the oldest grace period it would complete */
                .flip_age = rcu->state == RCU_FLIP_IDLE ? 0 : sim->now - rcu->gp_start_ns,
        };

        for (int c = 0; c < sim->ncpus; c++) {
                const struct rcu_cpu *rdp = &rcu->cpus[c];
                const struct rcu_cblist *lists[] = { &rdp->next, &rdp->wait[0], &rdp->wait[1], &rdp->done };

                for (size_t l = 0; l < G_N_ELEMENTS(lists); l++)
                        rcu_count_overdue(sim, lists[l]->head, &st);
                if (rdp->inflight)
                        rcu_count_overdue_one(sim, rdp->inflight, &st);
        }
        rcu_report_common(sim, r, &st);
        rcu_report_latencies(sim, r);
}

const char *rcu_flip_state_name(enum rcu_flip_state s)
{
        static const char *const names[] = { "idle", "waitack", "waitzero", "waitmb" };

        return names[s];
}

static const char *state_name_rcupreempt(const struct sim *sim)
{
        return rcu_flip_state_name(sim->rcu.state);
}

const char *rcu_state_name(const struct sim *sim)
{
        return sim->rcu.flavour->state_name(sim);
}

static const struct rcu_flavour_ops rcupreempt_flavour = {
        .name = "rcupreempt",
        .init = init_rcupreempt,
        .start = start_rcupreempt,
        .finish = finish_rcupreempt,
        .read_lock = read_lock_rcupreempt,
        .read_unlock = read_unlock_rcupreempt,
        .switch_out = switch_out_rcupreempt,
        .enqueue = enqueue_rcupreempt,
        .tick = tick_rcupreempt,
        .holds_up = holds_up_rcupreempt,
        .report = report_rcupreempt,
        .state_name = state_name_rcupreempt,
        .gp_in_progress = gp_in_progress_rcupreempt,
};
