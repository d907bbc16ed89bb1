/* oracle.h - RCU's safety property, checked on every callback.
 *
 * No callback may run while a reader that began before its call_rcu() is
 * still inside its read-side critical section.  Every outermost
 * rcu_read_lock() and every call_rcu() takes a stamp from one counter, so
 * "began before" is exact even within one nanosecond.  Stamps only grow, so
 * active readers, listed as they enter, stay in stamp order wherever one
 * leaves (its slot just empties): an invocation is safe iff the oldest
 * active reader has a stamp newer than the callback's.  O(1) per read
 * section (amortised) and per callback, and no other reader's task is
 * touched on the way (a linked list wrote to its neighbours').  Always on;
 * never weaken it.
 */
#ifndef RCUBOOST_ORACLE_H
#define RCUBOOST_ORACLE_H

#include <glib.h>
#include <stdint.h>


struct sim;
struct task;
struct rcu_callback;

#define ORACLE_MAX_DETAILS 10

struct oracle {
        struct task **readers;  /* [head, len): tasks in a critical section as they
                                 * entered, NULL where one has left; readers[head]
                                 * is active (the oldest) unless none is */
        uint32_t head, len, cap;
        uint32_t active;        /* non-NULL entries */
        uint64_t stamp;
        int64_t violations;
        GPtrArray *details;     /* first ORACLE_MAX_DETAILS reports (char *) */
};

void oracle_init(struct oracle *o);
void oracle_finish(struct oracle *o);
void oracle_reader_enter(struct oracle *o, struct task *t);
void oracle_reader_exit(struct oracle *o, struct task *t);
uint64_t oracle_stamp(struct oracle *o);
/* Check a callback about to be invoked; records and returns FALSE on a violation. */
gboolean oracle_check(struct oracle *o, struct sim *sim, const struct rcu_callback *cb);

#endif
