/* none.c - the baseline: no boosting at all.
 *
 * A reader preempted inside its critical section stays at its own priority
 * and waits for the CPU like any other task, however long the grace period
 * (and the memory behind it) has to wait.  The policy still counts what the
 * others act on, so the baseline's numbers line up with theirs.
 */
#include "policy.h"

#include "../sim/engine.h"

struct none_policy {
        int64_t readers_blocked;        /* first switch-out of a critical section */
        int64_t blocked_preempted;
        int64_t blocked_on_mutex;
};

static void *create_none(struct sim *sim, const struct policy_params *params, GError **error)
{
        (void)sim;
        (void)params;
        (void)error;
        return g_new0(struct none_policy, 1);
}

static void reader_blocked_none(void *pol, struct task *t, enum rcu_block_reason why)
{
        struct none_policy *p = pol;

        /* policy_data marks "already counted in this critical section". */
        if (t->policy_data)
                return;
        t->policy_data = p;
        p->readers_blocked++;
        if (why == RCU_BLOCK_PREEMPTED)
                p->blocked_preempted++;
        else
                p->blocked_on_mutex++;
}

static void reader_unlock_none(void *pol, struct task *t)
{
        (void)pol;
        t->policy_data = NULL;
}

static void report_none(void *pol, struct report *r)
{
        struct none_policy *p = pol;

        report_int(r, "policy.readers_blocked", p->readers_blocked);
        report_int(r, "policy.blocked_preempted", p->blocked_preempted);
        report_int(r, "policy.blocked_on_mutex", p->blocked_on_mutex);
        report_int(r, "policy.readers_boosted", 0);
}

static void destroy_none(void *pol)
{
        g_free(pol);
}

const struct boost_policy_ops none_policy_ops = {
        .name = "none",
        .summary = "no boosting: preempted readers keep their own priority (the baseline)",
        .keys = NULL,
        .create = create_none,
        .reader_blocked = reader_blocked_none,
        .reader_unlock = reader_unlock_none,
        .report = report_none,
        .destroy = destroy_none,
};
