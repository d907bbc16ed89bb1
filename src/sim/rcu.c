/* rcu.c - preemptible RCU as in 2007 -rt kernels; see rcu.h. */
#include "rcu.h"

#include <string.h>

#include "engine.h"

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

void rcu_init(struct sim *sim)
{
        struct rcu *rcu = &sim->rcu;

        memset(rcu, 0, sizeof(*rcu));
        rcu->cpus = g_new0(struct rcu_cpu, sim->ncpus);
        for (int c = 0; c < sim->ncpus; c++) {
                struct rcu_cpu *rdp = &rcu->cpus[c];

                cblist_init(&rdp->next);
                cblist_init(&rdp->done);
                for (int i = 0; i < RCU_GP_STAGES; i++)
                        cblist_init(&rdp->wait[i]);
        }
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

void rcu_finish(struct sim *sim)
{
        struct rcu *rcu = &sim->rcu;

        for (int c = 0; c < sim->ncpus; c++) {
                struct rcu_cpu *rdp = &rcu->cpus[c];

                free_list(rdp->next.head);
                free_list(rdp->done.head);
                for (int i = 0; i < RCU_GP_STAGES; i++)
                        free_list(rdp->wait[i].head);
                g_free(rdp->inflight);
        }
        free_list(rcu->pool);
        g_free(rcu->cpus);
        latency_stat_finish(&rcu->flip_latency);
        latency_stat_finish(&rcu->gp_latency);
        latency_stat_finish(&rcu->cb_latency);
        latency_stat_finish(&rcu->sync_latency);
        latency_stat_finish(&rcu->cs_length);
}

/* ---- read side ---- */

void rcu_read_lock(struct sim *sim, struct task *t)
{
        struct rcu *rcu = &sim->rcu;

        if (t->rcu_nesting++ > 0)
                return;
        t->rcu_idx = (int)(rcu->completed & 1);
        rcu->cpus[t->cpu].flipctr[t->rcu_idx]++;
        rcu->flipsum[t->rcu_idx]++;
        rcu->readers++;
        t->rcu_read_start_ns = sim->now;
        timeline_begin(sim->timeline, sim->now, "cs", t->id, t->name);
        oracle_reader_enter(&sim->oracle, t);
        sim_charge_task(sim, t, COST_READ_LOCK, 1, COST_PATH_READ);
}

void rcu_read_unlock(struct sim *sim, struct task *t)
{
        struct rcu *rcu = &sim->rcu;

        if (--t->rcu_nesting > 0)
                return;
        /* The CPU it runs on now, not the one it started on. */
        rcu->cpus[t->cpu].flipctr[t->rcu_idx]--;
        rcu->flipsum[t->rcu_idx]--;
        oracle_reader_exit(&sim->oracle, t);
        timeline_end(sim->timeline, sim->now, "cs", t->id);
        if (t->rcu_preempted)
                sim_trace(sim, t->cpu, "rcu_unlock_preempted_task", "rcu_preempt %ld %d", (long)rcu->completed,
                          task_pid(t));
        t->rcu_preempted = false;
        latency_stat_add(&rcu->cs_length, sim->now - t->rcu_read_start_ns);
        sim_charge_task(sim, t, COST_READ_UNLOCK, 1, COST_PATH_READ);
        if (sim->policy->reader_unlock)
                sim->policy->reader_unlock(sim->pol, t);
}

void rcu_note_switch_out(struct sim *sim, struct task *t, enum rcu_block_reason why)
{
        sim_trace(sim, t->cpu, "rcu_preempt_task", "rcu_preempt %ld %d", (long)sim->rcu.completed, task_pid(t));
        t->rcu_preempted = true;
        sim->rcu.reader_switch_outs++;
        if (sim->policy->reader_blocked)
                sim->policy->reader_blocked(sim->pol, t, why);
}

/* ---- callbacks ---- */

static struct rcu_callback *cb_alloc(struct rcu *rcu)
{
        struct rcu_callback *cb = rcu->pool;

        if (cb)
                rcu->pool = cb->next;
        else
                cb = g_new(struct rcu_callback, 1);
        return cb;
}

static void advance_callbacks(struct rcu *rcu, struct rcu_cpu *rdp);

/* call_rcu(): as rcupreempt.c, advance this CPU's lists first
 * (__rcu_advance_callbacks(), which also acknowledges a pending flip). */
static void enqueue_callback(struct sim *sim, struct task *t, int64_t size, struct task *waiter)
{
        struct rcu *rcu = &sim->rcu;
        struct rcu_callback *cb = cb_alloc(rcu);

        advance_callbacks(rcu, &rcu->cpus[t->cpu]);

        *cb = (struct rcu_callback){
                .id = rcu->next_cb_id++, .size_bytes = size, .call_ns = sim->now,
                .stamp = oracle_stamp(&sim->oracle), .caller = t, .waiter = waiter,
        };
        cblist_append(&rcu->cpus[t->cpu].next, cb);
        rcu->outstanding++;
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
static bool holds_up(const struct sim *sim, const struct task *r, const struct task *waiter)
{
        const struct rcu *rcu = &sim->rcu;

        return r->rcu_read_start_ns <= waiter->sync_start_ns ||
               (rcu->state != RCU_FLIP_IDLE && r->rcu_idx == !(rcu->completed & 1));
}

void rcu_check_deadlock(struct sim *sim)
{
        if (sim->rcu.sync_waiting == 0)
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
                if (!o || !o->in_sync || !holds_up(sim, r, o))
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

static void invoke(struct sim *sim, struct rcu_callback *cb)
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
                invoke(sim, rdp->inflight);
                rdp->inflight = NULL;
                if (sched_need_resched(&sim->cpus[t->cpu]))
                        return (struct step){ STEP_COMPUTE, 0 };
        }
        cb = cblist_pop(&rdp->done);
        if (!cb)
                return (struct step){ STEP_WAIT, 0 };
        rdp->inflight = cb;
        sim_charge_task(sim, t, COST_CALLBACK, 1, COST_PATH_CALLBACK);
        return (struct step){ STEP_COMPUTE, 0 };
}

void rcu_start(struct sim *sim)
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
        if (gp_len >= 0) {
                rcu->gp_completed++;
                latency_stat_add(&rcu->gp_latency, gp_len);
                if (gp_len > sim->sc->stall_threshold_ns)
                        rcu->gp_over_threshold++;
        }
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
void rcu_tick(struct sim *sim, int cpu)
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

void rcu_report(struct sim *sim, struct report *r)
{
        struct rcu *rcu = &sim->rcu;

        report_bool(r, "memory.oom", rcu->oom);
        report_int(r, "memory.oom_time_ns", rcu->oom_ns);
        report_int(r, "memory.oom_bytes", rcu->oom_bytes);
        report_int(r, "memory.limit_bytes", sim->sc->memory_limit_bytes);
        report_int(r, "memory.peak_bytes", rcu->peak_memory_bytes);
        report_int(r, "memory.final_bytes", rcu->memory_bytes);
        report_int(r, "rcu.grace_periods", rcu->gp_completed);
        report_int(r, "rcu.flips", rcu->flips_completed);
        report_int(r, "rcu.callbacks_registered", rcu->registered);
        report_int(r, "rcu.callbacks_invoked", rcu->invoked);
        report_int(r, "rcu.callbacks_pending", rcu->outstanding);
        report_int(r, "rcu.read_sections", rcu->readers);
        report_int(r, "rcu.reader_switch_outs", rcu->reader_switch_outs);
        report_string(r, "rcu.final_state", rcu_flip_state_name(rcu->state));
        /* A stalled grace period never completes, so gp_latency cannot show
         * it: report the age of the oldest one a flip in progress would
         * complete (its first flip, or this one if it is the first). */
        int64_t flip_age = rcu->state == RCU_FLIP_IDLE ? 0 : sim->now - rcu->gp_start_ns;
        sim_time_ns gp_start = gp_start_of(rcu, rcu->completed);

        int64_t pending = rcu->state == RCU_FLIP_IDLE ? 0 : gp_start >= 0 ? sim->now - gp_start : flip_age;

        report_int(r, "rcu.flip_in_progress_ns", flip_age);
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
        int64_t thr = sim->sc->stall_threshold_ns, cbs = 0, syncs = 0;

        for (int c = 0; c < sim->ncpus; c++) {
                const struct rcu_cpu *rdp = &rcu->cpus[c];
                const struct rcu_cblist *lists[] = { &rdp->next, &rdp->wait[0], &rdp->wait[1], &rdp->done };

                for (size_t l = 0; l < G_N_ELEMENTS(lists); l++)
                        for (const struct rcu_callback *cb = lists[l]->head; cb; cb = cb->next)
                                if (sim->now - cb->call_ns > thr)
                                        (*(cb->waiter ? &syncs : &cbs))++;
                if (rdp->inflight && sim->now - rdp->inflight->call_ns > thr)
                        (*(rdp->inflight->waiter ? &syncs : &cbs))++;
        }
        report_int(r, "rcu.stall_threshold_ns", thr);
        report_int(r, "rcu.gp_over_threshold", rcu->gp_over_threshold + (pending > thr));
        report_int(r, "rcu.callbacks_over_threshold", rcu->cb_over_threshold + cbs);
        report_int(r, "rcu.sync_over_threshold", rcu->sync_over_threshold + syncs);
        report_latency(r, "gp_latency", &rcu->gp_latency);
        report_latency(r, "flip_latency", &rcu->flip_latency);
        report_latency(r, "callback_latency", &rcu->cb_latency);
        report_latency(r, "sync_latency", &rcu->sync_latency);
        report_latency(r, "read_section_length", &rcu->cs_length);
}

const char *rcu_flip_state_name(enum rcu_flip_state s)
{
        static const char *const names[] = { "idle", "waitack", "waitzero", "waitmb" };

        return names[s];
}
