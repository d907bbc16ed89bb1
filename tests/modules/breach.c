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
        { "grace", POLICY_KEY_DURATION, "1ms", "how long a reader may stay preempted (read, not used)" },
        { NULL, 0, NULL, NULL },
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

static void reader_blocked_breach(void *pol, struct task *t, enum rcu_block_reason why)
{
        (void)why;
#ifdef BREACH_PRIO
        sched_set_boost_prio(pol, t, BREACH_PRIO, BOOST_SETPRIO);
#elif defined(BREACH_BLOCK)
        sched_block(pol, t, TASK_WAITING);
#else
        (void)pol;
        (void)t;
#endif
}

static void reader_unlock_breach(void *pol, struct task *t)
{
        (void)pol;
        (void)t;
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
