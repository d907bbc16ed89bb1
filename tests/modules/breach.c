/* breach.c - policy modules that break the engine's contract, one way each
 * (tests/test_outputs.c): the engine must stop with an error naming the
 * module and the hook, never crash.
 *
 *   (neither)            keeps the contract and does nothing: "noop"
 *   BREACH_NULL_CREATE   create() returns NULL without a GError
 *   BREACH_PRIO=N        reader_blocked() boosts the reader to priority N
 */
#include "policies/policy.h"
#include "sim/engine.h"

static void *create_breach(struct sim *sim, const struct policy_params *params, GError **error)
{
        (void)params;
        (void)error;
#ifdef BREACH_NULL_CREATE
        (void)sim;
        return NULL;
#else
        return sim;
#endif
}

static void reader_blocked_breach(void *pol, struct task *t, enum rcu_block_reason why)
{
        (void)why;
#ifdef BREACH_PRIO
        sched_set_boost_prio(pol, t, BREACH_PRIO, BOOST_SETPRIO);
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
        .create = create_breach,
        .reader_blocked = reader_blocked_breach,
        .reader_unlock = reader_unlock_breach,
};

RCUBOOST_POLICY(breach_ops);
