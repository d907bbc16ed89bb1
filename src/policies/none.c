/* none.c - the baseline: no boosting at all.
 *
 * A reader preempted inside its critical section stays at its own priority
 * and waits for the CPU like any other task, however long the grace period
 * (and the memory behind it) has to wait.  The policy still counts what the
 * others act on, so the baseline's numbers line up with theirs.
 */
#include "policy.h"

#include "boost_stats.h"
#include "../sim/engine.h"

struct none_policy {
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

static void *create_none(struct sim *sim, const struct policy_params *params, GError **error)
{
        struct none_policy *p = g_new0(struct none_policy, 1);

        (void)params;
        (void)error;
        p->sim = sim;
        boost_stats_init(&p->stats);
        return p;
}

static void reader_blocked_none(void *pol, struct task *t, enum rcu_block_reason why)
{
        struct none_policy *p = pol;

        boost_track_blocked(&p->stats, track_of(t), p->sim, why);
}

static void reader_unlock_none(void *pol, struct task *t)
{
        struct none_policy *p = pol;

        boost_track_cs_end(&p->stats, track_of(t), p->sim);
}

static void report_none(void *pol, struct report *r)
{
        struct none_policy *p = pol;

        boost_stats_report(&p->stats, p->sim, NULL, r);
}

static void destroy_none(void *pol)
{
        struct none_policy *p = pol;

        boost_stats_finish(&p->stats);
        g_free(p);
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
