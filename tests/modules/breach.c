/* breach.c - policy modules that break the engine's contract, one way each
 * (tests/test_outputs.c): the engine must stop with an error naming the
 * module and the hook, never crash.
 *
 *   (neither)            keeps the contract and does nothing: "noop"
 *   BREACH_NULL_CREATE   create() returns NULL without a GError
 *   BREACH_PRIO=N        reader_blocked() boosts the reader to priority N
 *   BREACH_BLOCK         reader_blocked() calls sched_block() on the reader
 *   BREACH_UNDECLARED    create() reads a key its table does not declare
 */
#include "policies/policy.h"
#include "sim/engine.h"
#include "sim/scenario.h"
#include "sim/sched.h"

/* A key of its own, as a researcher's policy has: set in [policy:NAME],
 * [policy] or --set like a built-in policy's. */
static const struct policy_key breach_keys[] = {
        { .name = "grace", .type = POLICY_KEY_DURATION, .default_value = "1ms",
          .doc = "how long a reader may stay preempted (read, not used)" },
#ifdef BREACH_BAD_ENUM
        { .name = "mode", .type = POLICY_KEY_ENUM, .default_value = "sometimes", .choices = "timer|kthread",
          .doc = "a default that is not one of its choices" },
#endif
        { .name = NULL },
};

static void *create_breach(struct sim *sim, const struct policy_params *params, GError **error)
{
        int64_t grace;

#ifdef BREACH_NULL_CREATE
        (void)sim;
        (void)params;
        (void)error;
        (void)grace;
        return NULL;
#else
        if (!policy_param_duration(params, "grace", &grace, error))
                return NULL;
#ifdef BREACH_UNDECLARED
        if (!policy_param_duration(params, "nosuch", &grace, error))
                return NULL;
#endif
        return sim;
#endif
}

#ifdef BREACH_TIMER_PAST
static void timer_fn(struct sim *sim, void *data, struct task *thread, int cpu)
{
        (void)sim;
        (void)data;
        (void)thread;
        (void)cpu;
}
#endif

static void reader_blocked_breach(void *pol, struct task *t, enum rcu_block_reason why)
{
        (void)why;
#ifdef BREACH_PRIO
        sched_set_boost_prio(pol, t, BREACH_PRIO, BOOST_SETPRIO);
#elif defined(BREACH_BLOCK)
        sched_block(pol, t, TASK_WAITING);
#elif defined(BROKEN_CPU0_ONLY)
        /* a plausible bug, for hunt to find: boost at once to FIFO 98 -- but
         * only readers preempted on CPU 0 */
        if (t->cpu == 0)
                sched_set_boost_prio(pol, t, 1, BOOST_SETPRIO);
#elif defined(BREACH_NEVER_UNBOOST)
        /* a boost kept past the reader's end: caught when the reader exits */
        sched_set_boost_prio(pol, t, 90, BOOST_SETPRIO);
#elif defined(BREACH_TIMER_PAST)
        {
                struct sim *sim = pol;

                policy_timer_arm(sim, policy_timer_new(sim, PTIMER_HARDIRQ, timer_fn, NULL), t->cpu,
                                 sim->now - 1);
        }
#else
        (void)pol;
        (void)t;
#endif
}

static void reader_unlock_breach(void *pol, struct task *t)
{
#ifdef BROKEN_CPU0_ONLY
        if (t->boost_prio != PRIO_NONE)
                sched_set_boost_prio(pol, t, PRIO_NONE, BOOST_SETPRIO);
#else
        (void)pol;
        (void)t;
#endif
}

static const struct boost_policy_ops breach_ops = {
        .name = BREACH_NAME,
        .summary = "a test module that breaks the engine's contract",
        .keys = breach_keys,
        .create = create_breach,
        .reader_blocked = reader_blocked_breach,
        .reader_unlock = reader_unlock_breach,
};

RCUBOOST_POLICY(breach_ops);
