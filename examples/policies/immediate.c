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
#include <rcuboost/sim/engine/engine.h>

static void *create_immediate(struct sim *sim, const struct policy_params *params, GError **error)
{
        (void)params;
        (void)error;
        return sim;     /* no state of its own */
}

/* Scheduler path: the CPU is switching from @t to its preempter.  The
 * engine counts the boost (readers_boosted, boost_delay) and logs it. */
static void reader_blocked_immediate(void *pol, struct task *t, enum rcu_block_reason why)
{
        struct sim *sim = pol;
        struct task *preempter = sched_switching_in(sim, t->cpu);

        if (why != RCU_BLOCK_PREEMPTED || !preempter || !task_is_rt(preempter) ||
            preempter->prio + 1 >= t->prio)
                return;
        /* Kernel priorities: smaller is more urgent, so "just below" is +1. */
        sim_charge_cpu(sim, t->cpu, COST_PRIO_CHANGE, 1, COST_PATH_SCHED);
        sched_set_boost_prio(sim, t, preempter->prio + 1, BOOST_SETPRIO);
}

static void reader_unlock_immediate(void *pol, struct task *t)
{
        struct sim *sim = pol;

        if (t->boost_prio == PRIO_NONE)
                return;         /* never boosted in this section */
        sim_charge_task(sim, t, COST_PRIO_CHANGE, 1, COST_PATH_READ);
        sched_set_boost_prio(sim, t, PRIO_NONE, BOOST_SETPRIO);
}

static const struct boost_policy_ops immediate_policy_ops = {
        .name = "immediate",
        .summary = "out-of-tree example: boost a preempted reader at once to just below its RT preempter",
        .create = create_immediate,
        .reader_blocked = reader_blocked_immediate,
        .reader_unlock = reader_unlock_immediate,
};

RCUBOOST_POLICY(immediate_policy_ops);
