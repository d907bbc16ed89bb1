/* immediate.c - an out-of-tree rcuboost policy: boost at preemption time.
 *
 * One of the roads the 2007 article did not take: when a reader is
 * preempted inside its critical section by a real-time task, raise it at
 * once to just below its preempter, so that it runs the moment the
 * preempter lets go of the CPU, and drop the boost at its outermost
 * rcu_read_unlock().  No booster thread, no aging; the cost is a priority
 * change on the scheduler path of every such preemption.  A reader
 * preempted by a fair task is left alone (there is no "just below" a nice
 * level that would make it run first).
 *
 * Build against an installed rcuboost (docs/policies.md, "Writing a policy"):
 *
 *     cc -shared -fPIC -O2 -o libimmediate.so immediate.c $(pkg-config --cflags rcuboost-policy)
 *     rcuboost compare --policies none,booster,./libimmediate.so
 */
#include <rcuboost/policies/policy.h>
#include <rcuboost/policies/boost_stats.h>
#include <rcuboost/sim/engine.h>

struct immediate {
        struct sim *sim;
        struct boost_stats stats;
};

static void track_init(void *state)
{
        boost_track_init(state);
}

static struct boost_track *track_of(struct task *t)
{
        return policy_task_state(t, sizeof(struct boost_track), track_init);
}

static void *create_immediate(struct sim *sim, const struct policy_params *params, GError **error)
{
        struct immediate *p = g_new0(struct immediate, 1);

        (void)params;
        (void)error;
        p->sim = sim;
        boost_stats_init(&p->stats);
        return p;
}

/* Scheduler path: the CPU is switching from @t to its preempter. */
static void reader_blocked_immediate(void *pol, struct task *t, enum rcu_block_reason why)
{
        struct immediate *p = pol;
        struct boost_track *tr = track_of(t);
        struct task *preempter = sched_switching_in(p->sim, t->cpu);
        int old = t->prio;

        boost_track_blocked(&p->stats, tr, p->sim, why);
        if (why != RCU_BLOCK_PREEMPTED || !preempter || !task_is_rt(preempter) ||
            preempter->prio + 1 >= t->prio)
                return;
        /* Kernel priorities: smaller is more urgent, so "just below" is +1. */
        sim_charge_cpu(p->sim, t->cpu, COST_PRIO_CHANGE, 1, COST_PATH_SCHED);
        sched_set_boost_prio(p->sim, t, preempter->prio + 1, BOOST_SETPRIO);
        if (!boost_track_is_boosted(tr))
                boost_track_boosted(&p->stats, tr, p->sim, t, old);     /* counts and logs it */
}

static void reader_unlock_immediate(void *pol, struct task *t)
{
        struct immediate *p = pol;
        struct boost_track *tr = track_of(t);
        int old = t->prio;

        boost_track_cs_end(&p->stats, tr, p->sim);
        if (!boost_track_is_boosted(tr))
                return;
        sim_charge_task(p->sim, t, COST_PRIO_CHANGE, 1, COST_PATH_READ);
        sched_set_boost_prio(p->sim, t, PRIO_NONE, BOOST_SETPRIO);
        boost_track_unboosted(&p->stats, tr, p->sim, t, old);
}

static void report_immediate(void *pol, struct report *r)
{
        struct immediate *p = pol;

        boost_stats_report(&p->stats, p->sim, NULL, r);
}

static void destroy_immediate(void *pol)
{
        struct immediate *p = pol;

        boost_stats_finish(&p->stats);
        g_free(p);
}

static const struct boost_policy_ops immediate_policy_ops = {
        .name = "immediate",
        .summary = "out-of-tree example: boost a preempted reader at once to just below its RT preempter",
        .create = create_immediate,
        .reader_blocked = reader_blocked_immediate,
        .reader_unlock = reader_unlock_immediate,
        .report = report_immediate,
        .destroy = destroy_immediate,
};

RCUBOOST_POLICY(immediate_policy_ops);
