/* boost_stats.c - what every policy counts; see boost_stats.h. */
#include "boost_stats.h"

#include "../sim/engine.h"

void boost_stats_init(struct boost_stats *s)
{
        memset(s, 0, sizeof(*s));
        latency_stat_init(&s->delay);
        latency_stat_init(&s->boosted_time);
}

void boost_stats_finish(struct boost_stats *s)
{
        latency_stat_finish(&s->delay);
        latency_stat_finish(&s->boosted_time);
}

void boost_track_init(struct boost_track *tr)
{
        tr->blocked_at = -1;
        tr->boosted_at = -1;
        tr->outside_since = -1;
}

bool boost_track_blocked(struct boost_stats *s, struct boost_track *tr, struct sim *sim,
                         enum rcu_block_reason why)
{
        if (tr->blocked_at >= 0) {
                s->switch_outs_again++;
                return false;
        }
        tr->blocked_at = sim->now;
        s->readers_blocked++;
        if (why == RCU_BLOCK_PREEMPTED)
                s->blocked_preempted++;
        else
                s->blocked_on_mutex++;
        return true;
}

void boost_track_boosted(struct boost_stats *s, struct boost_track *tr, struct sim *sim,
                         struct task *t, int old_prio)
{
        s->boosted++;
        tr->boosted_at = sim->now;
        if (tr->blocked_at >= 0)
                latency_stat_add(&s->delay, sim->now - tr->blocked_at);
        sim_log_boost(sim, t, "boost", old_prio);
}

void boost_track_cs_end(struct boost_stats *s, struct boost_track *tr, struct sim *sim)
{
        (void)s;
        tr->blocked_at = -1;
        if (tr->boosted_at >= 0)
                tr->outside_since = sim->now;
}

void boost_track_unboosted(struct boost_stats *s, struct boost_track *tr, struct sim *sim,
                           struct task *t, int old_prio)
{
        if (tr->boosted_at < 0)
                return;
        s->unboosted++;
        latency_stat_add(&s->boosted_time, sim->now - tr->boosted_at);
        if (tr->outside_since >= 0 && sim->now > tr->outside_since) {
                s->boosted_outside_cs++;
                s->boosted_outside_cs_ns += sim->now - tr->outside_since;
        }
        tr->boosted_at = -1;
        tr->outside_since = -1;
        sim_log_boost(sim, t, "unboost", old_prio);
}

void boost_stats_report(struct boost_stats *s, struct sim *sim, struct task *booster, struct report *r)
{
        report_int(r, "policy_stats.readers_blocked", s->readers_blocked);
        report_int(r, "policy_stats.blocked_preempted", s->blocked_preempted);
        report_int(r, "policy_stats.blocked_on_mutex", s->blocked_on_mutex);
        report_int(r, "policy_stats.switch_outs_again", s->switch_outs_again);
        report_int(r, "policy_stats.readers_boosted", s->boosted);
        report_int(r, "policy_stats.readers_unboosted", s->unboosted);
        /* Boosted and never unboosted: at most the readers boosted when the run ended. */
        report_int(r, "policy_stats.readers_still_boosted", s->boosted - s->unboosted);
        report_latency(r, "policy_stats.boost_delay", &s->delay);
        report_latency(r, "policy_stats.boosted_time", &s->boosted_time);
        report_int(r, "policy_stats.boosted_outside_cs", s->boosted_outside_cs);
        report_int(r, "policy_stats.boosted_outside_cs_ns", s->boosted_outside_cs_ns);
        report_int(r, "policy_stats.booster_cpu_ns", booster ? booster->sum_exec_ns : 0);
        report_int(r, "policy_stats.scheduler_path_ns", sim->path_total_ns[COST_PATH_SCHED] -
                   sim->cost_total_ns[COST_CONTEXT_SWITCH]);
        report_int(r, "policy_stats.read_side_ns", sim->path_total_ns[COST_PATH_READ] -
                   sim->cost_total_ns[COST_READ_LOCK] - sim->cost_total_ns[COST_READ_UNLOCK]);
        report_int(r, "policy_stats.atomic_ops", (int64_t)sim->cost_count[COST_ATOMIC]);
        report_int(r, "policy_stats.lock_acquisitions", (int64_t)sim->cost_count[COST_LOCK]);
        report_int(r, "policy_stats.prio_changes", (int64_t)sim->cost_count[COST_PRIO_CHANGE]);
}

void *policy_task_state(struct task *t, size_t size, void (*init)(void *state))
{
        if (!t->policy_data) {
                t->policy_data = g_malloc0(size);
                if (init)
                        init(t->policy_data);
        }
        return t->policy_data;
}
