/* boost_stats.h - what every policy counts, the same way.
 *
 * Each policy embeds a struct boost_track in its per-task state and calls
 * the boost_track_*() functions at the four moments that matter: a reader's
 * first switch-out inside a critical section, its boost, the end of its
 * critical section, and its unboost.  From those come the counters every
 * policy reports under "policy_stats." -- readers blocked, boosted, unboosted,
 * the boost delay (block to boost), the time boosted and the
 * time boosted outside any critical section -- plus boost.csv rows and the
 * costs the policy caused, so that policies compare like for like.
 */
#ifndef RCUBOOST_BOOST_STATS_H
#define RCUBOOST_BOOST_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "policy.h"
#include "../sim/stats.h"

struct boost_track {
        int64_t blocked_at;     /* first switch-out of this critical section, or -1 */
        int64_t boosted_at;     /* when boosted, or -1 */
        int64_t outside_since;  /* boosted and out of its critical section since, or -1 */
};

struct boost_stats {
        int64_t readers_blocked;        /* critical sections switched out at least once */
        int64_t blocked_preempted;
        int64_t blocked_on_mutex;
        int64_t switch_outs_again;      /* further switch-outs of the same section */
        int64_t boosted;
        int64_t unboosted;
        int64_t boosted_outside_cs_ns;
        int64_t boosted_outside_cs;     /* boosts that outlived their critical section */
        struct latency_stat delay;      /* block -> boost */
        struct latency_stat boosted_time;
};

void boost_stats_init(struct boost_stats *s);
void boost_stats_finish(struct boost_stats *s);
void boost_track_init(struct boost_track *tr);

/* @t was switched out inside a critical section.  Returns true the first
 * time in this critical section. */
bool boost_track_blocked(struct boost_stats *s, struct boost_track *tr, struct sim *sim,
                         enum rcu_block_reason why);
/* @t's priority was raised from @old_prio (already applied). */
void boost_track_boosted(struct boost_stats *s, struct boost_track *tr, struct sim *sim,
                         struct task *t, int old_prio);
/* @t left its critical section (outermost unlock). */
void boost_track_cs_end(struct boost_stats *s, struct boost_track *tr, struct sim *sim);
/* @t's boost was dropped from @old_prio (already applied). */
void boost_track_unboosted(struct boost_stats *s, struct boost_track *tr, struct sim *sim,
                           struct task *t, int old_prio);
static inline bool boost_track_is_boosted(const struct boost_track *tr)
{
        return tr->boosted_at >= 0;
}

/* The policy's per-task state, zero-filled on first use and passed to
 * @init; kept in t->policy_data and freed with the task (plain memory only). */
void *policy_task_state(struct task *t, size_t size, void (*init)(void *state));

/* Common counters under "policy_stats.", with @booster's CPU time (may be NULL). */
void boost_stats_report(struct boost_stats *s, struct sim *sim, struct task *booster, struct report *r);

#endif
