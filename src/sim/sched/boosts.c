/* boosts.c - what the engine records of every policy's boosts; see boosts.h. */
#include "boosts.h"

#include "../engine/engine.h"

void boosts_init(struct sim *sim)
{
        memset(&sim->boosts, 0, sizeof(sim->boosts));
        latency_stat_init(&sim->boosts.delay);
        latency_stat_init(&sim->boosts.boosted_time);
}

void boosts_finish(struct sim *sim)
{
        latency_stat_finish(&sim->boosts.delay);
        latency_stat_finish(&sim->boosts.boosted_time);
}

void boost_track_init(struct boost_track *tr)
{
        tr->blocked_at = -1;
        tr->boosted_at = -1;
        tr->outside_since = -1;
        tr->first_switch_out = false;
}

void boosts_reader_blocked(struct sim *sim, struct task *t, bool preempted)
{
        struct boost_stats *s = &sim->boosts;
        struct boost_track *tr = &t->boost_tr;

        tr->first_switch_out = tr->blocked_at < 0;
        if (sim->events_on) {
                /* a boosted reader switched out is its own state, for the pairs */
                sim_count_task_event(sim, t, tr->boosted_at >= 0 ? EE_BLOCK_BOOSTED
                                     : !tr->first_switch_out ? EE_BLOCK_AGAIN
                                     : preempted ? EE_BLOCK_PREEMPTED : EE_BLOCK_ON_MUTEX);
                if (t->rcu_nesting > 1)
                        sim_count_event(sim, EE_BLOCK_NESTED);
                if (t->held.head)
                        sim_count_event(sim, EE_BLOCK_HOLDING_MUTEX);
        }
        if (!tr->first_switch_out) {
                s->switch_outs_again++;
                return;
        }
        tr->blocked_at = sim->now;
        s->readers_blocked++;
        if (preempted)
                s->blocked_preempted++;
        else
                s->blocked_on_mutex++;
}

void boosts_reader_done(struct sim *sim, struct task *t)
{
        struct boost_track *tr = &t->boost_tr;

        tr->blocked_at = -1;
        tr->first_switch_out = false;
        if (tr->boosted_at >= 0)
                tr->outside_since = sim->now;
}

/* Does the policy decide @t's priority now? */
static bool policy_decides(const struct task *t)
{
        int scenario_pi, policy_pi;

        if (t->boost_prio == PRIO_NONE && !t->held.head)
                return false;
        mutex_pi_prio_split(t, &scenario_pi, &policy_pi);
        return MIN(t->boost_prio, policy_pi) < MIN(t->normal_prio, scenario_pi);
}

/* Coverage: how a boost began (@t is now boosted, and was not). */
static void count_boost(struct sim *sim, struct task *t)
{
        int scenario_pi, policy_pi;

        /* the event first, its attributes (RT, through a lock) as counts only */
        if (t->rcu_nesting == 0)
                sim_count_task_event(sim, t, EE_BOOST_OUTSIDE);
        else if (t->state == TASK_RUNNING)     /* back on a CPU before the boost landed */
                sim_count_task_event(sim, t, EE_BOOST_RUNNING);
        else
                sim_count_task_event(sim, t, t->blocked_on ? EE_BOOST_ON_MUTEX : EE_BOOST_PREEMPTED);
        if (t->normal_prio < PRIO_MAX_RT)
                sim_count_event(sim, EE_BOOST_RT);
        mutex_pi_prio_split(t, &scenario_pi, &policy_pi);
        if (policy_pi < t->boost_prio)
                sim_count_event(sim, EE_BOOST_THROUGH_LOCK);
}

/* Coverage: @t's priority changed, and a scenario's mutex decides it --
 * inherited from a waiter, perhaps a boosted one, perhaps while @t waits
 * on a mutex itself (a chain). */
static void count_inheritance(struct sim *sim, struct task *t, int old_prio)
{
        int scenario_pi, policy_pi;

        if (t->prio >= old_prio || !t->held.head)
                return;
        mutex_pi_prio_split(t, &scenario_pi, &policy_pi);
        if (scenario_pi != t->prio || scenario_pi >= t->normal_prio)
                return;
        sim_count_task_event(sim, t, EE_PI_INHERIT);
        for (GList *l = t->held.head; l; l = l->next) {
                const struct mutex *m = l->data;
                const struct task *w = m->waiters.head ? m->waiters.head->data : NULL;

                if (m->id >= 0 && w && w->waiter_prio == scenario_pi && w->prio < w->normal_prio) {
                        sim_count_event(sim, EE_PI_FROM_BOOST);
                        break;
                }
        }
        if (t->blocked_on)
                sim_count_event(sim, EE_PI_CHAIN);
}

void boosts_prio_changed(struct sim *sim, struct task *t, int old_prio)
{
        struct boost_stats *s = &sim->boosts;
        struct boost_track *tr = &t->boost_tr;
        bool was = tr->boosted_at >= 0;
        bool now = policy_decides(t);

        sim_cover(sim, t);      /* a boost is a change of policy state too */
        if (sim->events_on)
                count_inheritance(sim, t, old_prio);

        if (was && now) {
                if (t->prio != old_prio) {
                        sim_count_task_event(sim, t, t->prio < old_prio ? EE_REBOOST_UP : EE_REBOOST_DOWN);
                        sim_log_boost(sim, t, "reboost", old_prio);
                }
        } else if (now) {
                if (sim->events_on)
                        count_boost(sim, t);
                s->boosted++;
                tr->boosted_at = sim->now;
                if (tr->blocked_at >= 0)
                        latency_stat_add(&s->delay, sim->now - tr->blocked_at);
                sim_log_boost(sim, t, "boost", old_prio);
        } else if (was) {
                /* at the unlock itself is the everyday unboost (the policy's reader_unlock) */
                sim_count_task_event(sim, t, tr->outside_since < 0 ? EE_UNBOOST_IN_SECTION
                                     : sim->now == tr->outside_since ? EE_UNBOOST_AT_UNLOCK
                                     : sim->now - tr->outside_since > sim->tick_ns ? EE_UNBOOST_LATE
                                     : EE_UNBOOST_OUTSIDE);
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
}

void boosts_reader_unlocked(struct sim *sim, struct task *t)
{
        if (t->boost_tr.boosted_at >= 0)
                sim_count_task_event(sim, t, EE_LEAVE_SECTION_BOOSTED);
}

bool boosts_is_boosted(const struct task *t)
{
        return t->boost_tr.boosted_at >= 0;
}

bool boosts_first_switch_out(const struct task *t)
{
        return t->boost_tr.first_switch_out;
}

int64_t boosts_blocked_since(const struct task *t)
{
        return t->boost_tr.blocked_at;
}

void boosts_report(struct sim *sim, struct report *r)
{
        struct boost_stats *s = &sim->boosts;
        int64_t threads_ns = 0, outside = s->boosted_outside_cs, outside_ns = s->boosted_outside_cs_ns;

        for (guint i = 0; i < sim->tasks->len; i++) {
                struct task *t = sim_task(sim, (int)i);
                const struct boost_track *tr = &t->boost_tr;

                if (t->policy_thread)
                        threads_ns += t->sum_exec_ns;
                /* a boost still held outside its section when the run ends counts to the end:
                 * the unboost that never comes is the worst case, not one to leave out */
                if (tr->boosted_at >= 0 && tr->outside_since >= 0 && sim->now > tr->outside_since) {
                        outside++;
                        outside_ns += sim->now - tr->outside_since;
                }
        }
        report_int(r, "policy_stats.readers_blocked", s->readers_blocked);
        report_int(r, "policy_stats.blocked_preempted", s->blocked_preempted);
        report_int(r, "policy_stats.blocked_on_mutex", s->blocked_on_mutex);
        report_int(r, "policy_stats.switch_outs_again", s->switch_outs_again);
        report_int(r, "policy_stats.readers_boosted", s->boosted);
        report_int(r, "policy_stats.readers_unboosted", s->unboosted);
        /* Boosted and never unboosted: at most the tasks boosted when the run ended. */
        report_int(r, "policy_stats.readers_still_boosted", s->boosted - s->unboosted);
        report_latency(r, "policy_stats.boost_delay", &s->delay);
        report_latency(r, "policy_stats.boosted_time", &s->boosted_time);
        report_int(r, "policy_stats.boosted_outside_cs", outside);
        report_int(r, "policy_stats.boosted_outside_cs_ns", outside_ns);
        report_int(r, "policy_stats.booster_cpu_ns", threads_ns);
        report_int(r, "policy_stats.scheduler_path_ns", sim->path_total_ns[COST_PATH_SCHED] -
                   sim->cost_total_ns[COST_CONTEXT_SWITCH]);
        report_int(r, "policy_stats.read_side_ns", sim->path_total_ns[COST_PATH_READ] -
                   sim->cost_total_ns[COST_READ_LOCK] - sim->cost_total_ns[COST_READ_UNLOCK]);
        report_int(r, "policy_stats.atomic_ops", (int64_t)sim->cost_count[COST_ATOMIC]);
        report_int(r, "policy_stats.lock_acquisitions", (int64_t)sim->cost_count[COST_LOCK]);
        report_int(r, "policy_stats.prio_changes", (int64_t)sim->cost_count[COST_PRIO_CHANGE]);
}

void sim_log_boost(struct sim *sim, struct task *t, const char *what, int old_prio)
{
        g_autofree char *from = NULL;
        g_autofree char *to = NULL;

        /* Not a kernel tracepoint: the kernel shows boosting only as the
         * sched_pi_setprio of its rt_mutex. */
        sim_trace(sim, t->cpu, "rcuboost_boost", "comm=%s pid=%d event=%s oldprio=%d newprio=%d", t->name,
                  task_pid(t), what, old_prio, t->prio);
        if (!strcmp(what, "boost"))
                timeline_begin(sim->timeline, sim->now, "boosted", t->id, t->name);
        else if (!strcmp(what, "unboost"))
                timeline_end(sim->timeline, sim->now, "boosted", t->id);
        if (!sim->boost_out)
                return;
        from = sched_describe_prio(old_prio);
        to = sched_describe_prio(t->prio);
        fprintf(outfile_stream(sim->boost_out), "%" G_GINT64_FORMAT ",%s,%s,%d,%s,%s\n",
                (gint64)sim->now, what, t->name, t->cpu, from, to);
}
