/* mutex.h - priority-inheriting mutexes (rt_mutex semantics).
 *
 * Waiters queue by effective priority, FIFO among equals.  The owner runs at
 * least at its most urgent waiter's priority; that loan propagates along a
 * chain of owners blocked on further mutexes (a waits on M1 held by b, b
 * waits on M2 held by c: c runs at a's priority) and is recomputed at each
 * release.  A waiter is queued with the priority it had when it blocked
 * (task->waiter_prio, as rt_mutex_waiter keeps its plist prio); only a chain
 * walk (a new waiter behind it, a class change: rt_mutex_adjust_pi()) moves
 * it.  A bare rt_mutex_setprio() on a blocked task -- the 2007 RCU boost --
 * therefore reaches neither the queue nor the owner (sched_set_boost_prio()).
 * Unlock hands the mutex straight to the top waiter.  A lock that
 * would close a cycle of waiters is a deadlock in the scenario: the run
 * stops with an error naming the tasks and mutexes.
 */
#ifndef RCUBOOST_MUTEX_H
#define RCUBOOST_MUTEX_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

struct sim;
struct task;

struct mutex {
        int id;                 /* the scenario's [mutex] index; < 0: a policy's own (boosts.h) */
        char *name;
        struct task *owner;
        GQueue waiters;         /* struct task via task->waiter_link, best first */
        GList held_link;        /* in owner->held; data = this mutex */
        uint64_t acquisitions;
        uint64_t contentions;
};

void mutex_init(struct mutex *m, int id, const char *name);
void mutex_finish(struct mutex *m);

/* Returns true if @t now owns @m; false if @t must block (t->blocked_on = m).
 * On deadlock, stops the run with an error and returns false. */
bool mutex_lock(struct sim *sim, struct mutex *m, struct task *t);
void mutex_unlock(struct sim *sim, struct mutex *m, struct task *t);
/* rt_mutex_init_proxy_locked(): make free @m owned by @owner, which did not
 * ask for it (RCU_BOOST's boost_mtx); whoever then blocks on @m lends
 * @owner its priority, and @owner releases it with mutex_unlock(). */
void mutex_init_proxy_locked(struct mutex *m, struct task *owner);
/* Try to take @m for @t without blocking; false if it is owned. */
bool mutex_trylock(struct sim *sim, struct mutex *m, struct task *t);

/* The most urgent priority among the top waiters of mutexes @t holds, each
 * with the priority it waits with (task->waiter_prio). */
int mutex_pi_prio(const struct task *t);
/* The same, split: what the scenario's mutexes lend (id >= 0), what the policy's do. */
void mutex_pi_prio_split(const struct task *t, int *scenario, int *policy);
/* @t's priority changed while blocked: requeue it with its new priority and
 * pass the change on to the owner (one step of rt_mutex_adjust_prio_chain()). */
void mutex_waiter_prio_changed(struct sim *sim, struct task *t);

#endif
