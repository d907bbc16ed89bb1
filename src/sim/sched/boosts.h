/* boosts.h - what the engine records of every policy's boosts.
 *
 * The engine, not the policy, keeps the books, so that every policy --
 * built-in or a module -- is counted by one definition (docs/outputs.md,
 * "policy_stats"):
 *
 *  - A reader is *blocked* from its first switch-out inside a critical
 *    section (rcu_note_switch_out()) to the end of that section.
 *  - A task is *boosted* while the policy decides its priority: while what
 *    the policy lends it -- sched_set_boost_prio(), or priority inherited
 *    through a mutex the policy made (a mutex of id < 0: rcu-boost's
 *    boost_mtx, pi-lock's per-task lock) -- is more urgent than its own
 *    priority with what the scenario's mutexes lend it.  Every priority
 *    change passes through sched.c's update_prio(), which asks here.
 *  - The boost delay is first switch-out to boost; a boost that outlives
 *    its critical section is counted, with how long it did.
 *
 * Each boost, unboost and change of level while boosted (reboost) is a row
 * of boost.csv (sim_log_boost()).
 */
#ifndef RCUBOOST_BOOSTS_H
#define RCUBOOST_BOOSTS_H

#include <stdbool.h>
#include <stdint.h>

#include "../output/stats.h"

struct sim;
struct task;
struct report;

/* Per task (struct task's boost_tr). */
struct boost_track {
        int64_t blocked_at;     /* first switch-out of this critical section, or -1 */
        int64_t boosted_at;     /* when boosted, or -1 */
        int64_t outside_since;  /* boosted and out of its critical section since, or -1 */
        bool first_switch_out;  /* the switch-out being reported is this section's first */
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

void boosts_init(struct sim *sim);
void boosts_finish(struct sim *sim);
void boost_track_init(struct boost_track *tr);

/* The engine's side: a reader switched out inside its critical section
 * (@preempted: by a more urgent task, else blocked on a mutex); its
 * outermost unlock; a change of @t's priority (or of what lends it one)
 * from @old_prio, its effective priority already in place. */
void boosts_reader_blocked(struct sim *sim, struct task *t, bool preempted);
void boosts_reader_done(struct sim *sim, struct task *t);
/* After the policy heard of the unlock: coverage of a boost it left in place. */
void boosts_reader_unlocked(struct sim *sim, struct task *t);
void boosts_prio_changed(struct sim *sim, struct task *t, int old_prio);

/* For policies: is @t boosted (above)?  Is the switch-out reader_blocked()
 * hears of the first of its critical section?  Since when has it been
 * switched out in this section (-1: it is not)? */
bool boosts_is_boosted(const struct task *t);
bool boosts_first_switch_out(const struct task *t);
int64_t boosts_blocked_since(const struct task *t);

/* The counters under "policy_stats.", before the policy's own. */
void boosts_report(struct sim *sim, struct report *r);

/* Record a boost.csv row: @t's effective priority went from @old_prio to
 * its current one because of @what ("boost", "unboost", "reboost"). */
void sim_log_boost(struct sim *sim, struct task *t, const char *what, int old_prio);

#endif
