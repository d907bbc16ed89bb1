/* oracle.h - RCU's safety property, checked on every callback.
 *
 * No callback may run while a reader that began before its call_rcu() is
 * still inside its read-side critical section.  Every outermost
 * rcu_read_lock() and every call_rcu() takes a stamp from one counter, so
 * "began before" is exact even within one nanosecond; active readers sit in
 * a min-heap by stamp, and an invocation is safe iff the oldest active
 * reader's stamp is newer than the callback's.  O(log readers) per read
 * section, O(1) per callback.  Always on; never weaken it.
 */
#ifndef RCUBOOST_ORACLE_H
#define RCUBOOST_ORACLE_H

#include <glib.h>
#include <stdint.h>

#include "heap.h"

struct sim;
struct task;
struct rcu_callback;

#define ORACLE_MAX_DETAILS 10

struct oracle {
        struct heap readers;    /* tasks in a critical section, by stamp */
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
