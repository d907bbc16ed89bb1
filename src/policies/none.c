/* none.c - the baseline: no boosting at all.
 *
 * A reader preempted inside its critical section stays at its own priority
 * and waits for the CPU like any other task, however long the grace period
 * (and the memory behind it) has to wait.  The engine counts what the
 * others act on (boosts.h), so the baseline's numbers line up with theirs.
 */
#include "policy.h"

#include "../sim/engine/engine.h"

static void *create_none(struct sim *sim, const struct policy_params *params, GError **error)
{
        (void)params;
        (void)error;
        return sim;     /* no state of its own: any non-NULL will do */
}

static void reader_blocked_none(void *pol, struct task *t, enum rcu_block_reason why)
{
        (void)pol;
        (void)t;
        (void)why;
}

static void reader_unlock_none(void *pol, struct task *t)
{
        (void)pol;
        (void)t;
}

const struct boost_policy_ops none_policy_ops = {
        .name = "none",
        .summary = "no boosting: preempted readers keep their own priority (the baseline)",
        .keys = NULL,
        .create = create_none,
        .reader_blocked = reader_blocked_none,
        .reader_unlock = reader_unlock_none,
};
