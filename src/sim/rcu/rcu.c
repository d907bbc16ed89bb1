/* rcu.c - what the RCU flavours share; see rcu.h. */
#include "rcu.h"
#include "stall.h"

#include <string.h>

#include "../engine/engine.h"
#include "../scenario/kernel.h"
#include "rcupreempt.h"
#include "tree.h"

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
        return &rcu_rcupreempt_flavour;
}

const char *rcu_flavour_name(const struct scenario *sc, const struct boost_policy_ops *policy)
{
        if (sc->rcu_flavour)
                return sc->rcu_flavour;
        if (policy->rcu_flavour)
                return policy->rcu_flavour;
        return kernel_default_flavour(sc) ? kernel_default_flavour(sc) : "rcupreempt";
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

void rcu_free_callbacks(struct rcu_callback *cb)
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

        if (rcu->flavour)
                rcu->flavour->finish(sim);
        rcu_free_callbacks(rcu->pool);
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
        boosts_reader_done(sim, t);
        sim_cover(sim, t);
        if (sim->policy->reader_unlock)
                SIM_POLICY_CALL(sim, reader_unlock, sim->pol, t);
        sim_cover(sim, t);
        if (sim->events_on)
                boosts_reader_unlocked(sim, t);
}

void rcu_read_lock(struct sim *sim, struct task *t)
{
        if (t->rcu_nesting++ > 0)
                return;
        /* the kernel module's own tracepoint (src/kernel/rcuboost_trace.h),
         * so that both sides' traces read alike */
        sim_trace(sim, t->cpu, "rcuboost_read_section", "enter");
        sim->rcu.flavour->read_lock(sim, t);
}

void rcu_read_unlock(struct sim *sim, struct task *t)
{
        if (--t->rcu_nesting > 0)
                return;
        sim->rcu.flavour->read_unlock(sim, t);
        sim_trace(sim, t->cpu, "rcuboost_read_section", "exit");
}

void rcu_note_switch_out(struct sim *sim, struct task *t, enum rcu_block_reason why)
{
        t->rcu_preempted = true;
        sim->rcu.reader_switch_outs++;
        sim->rcu.flavour->switch_out(sim, t, why);
        boosts_reader_blocked(sim, t, why == RCU_BLOCK_PREEMPTED);
        sim_cover(sim, t);
        if (sim->policy->reader_blocked)
                SIM_POLICY_CALL(sim, reader_blocked, sim->pol, t, why);
        sim_cover(sim, t);
}

void rcu_note_context_switch(struct sim *sim, int cpu)
{
        if (sim->rcu.flavour->context_switch)
                sim->rcu.flavour->context_switch(sim, cpu);
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
        /* As the kernel's rcu:rcu_callback (flavour, rhp, func, qlen): a
         * sequence number for rhp, no function, the callbacks waiting. */
        sim_trace(sim, t->cpu, "rcu_callback", "rcu_preempt rhp=0x%" G_GINT64_MODIFIER "x func=0x0 %" G_GINT64_FORMAT,
                  (guint64)rcu->registered, (gint64)rcu->outstanding);
        rcu->memory_bytes = total;
        if (rcu->memory_bytes > rcu->peak_memory_bytes)
                rcu->peak_memory_bytes = rcu->memory_bytes;
        if (sim->sc->memory_limit_bytes && !rcu->oom &&
            rcu->memory_bytes > sim->sc->memory_limit_bytes) {
                rcu->oom = true;
                sim_count_event(sim, EE_OOM);
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
                SIM_POLICY_CALL(sim, sync_start, sim->pol, t);
        sim->rcu.sync_waiting++;
        enqueue_callback(sim, t, 0, t);
        rcu_check_deadlock(sim);
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

void rcu_start(struct sim *sim)
{
        sim->rcu.flavour->start(sim);
}

void rcu_gp_ended(struct sim *sim, int64_t len)
{
        struct rcu *rcu = &sim->rcu;

        rcu->gp_completed++;
        latency_stat_add(&rcu->gp_latency, len);
        if (len > sim->sc->stall_threshold_ns)
                rcu->gp_over_threshold++;
}

void rcu_tick(struct sim *sim, int cpu)
{
        sim->rcu.flavour->tick(sim, cpu);
        /* the stall warning's look, as the kernel's from the scheduling-clock
         * tick: CPU 0's, or any CPU's while CPU 0's tick is stopped */
        if ((cpu == 0 || sim->cpus[0].tick_stopped) && !sim->stall)
                stall_check(sim);
}

void rcu_eqs_enter(struct sim *sim, int cpu)
{
        sim->rcu.flavour->eqs_enter(sim, cpu);
}

void rcu_eqs_exit(struct sim *sim, int cpu)
{
        sim->rcu.flavour->eqs_exit(sim, cpu);
}

bool rcu_needs_cpu(const struct sim *sim, int cpu)
{
        return sim->rcu.flavour->needs_cpu(sim, cpu);
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

const char *rcu_state_name(const struct sim *sim)
{
        return sim->rcu.flavour->state_name(sim);
}
