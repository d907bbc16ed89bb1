/* costs.h - what operations cost in simulated CPU time.
 *
 * Boosting is not free: the scheduler path, the read side and the booster
 * all take locks, touch lists, run atomic instructions and change
 * priorities.  Every such operation is charged as simulated CPU time to
 * whoever performs it, at the price set in the scenario's [costs] section,
 * and counted, so a comparison shows what each approach costs as well as
 * what it buys.  Defaults are rough figures for a 2007-era x86 SMP machine.
 */
#ifndef RCUBOOST_COSTS_H
#define RCUBOOST_COSTS_H

#include <stdint.h>

enum cost_kind {
        COST_CONTEXT_SWITCH,    /* every switch from one task to another */
        COST_LOCK,              /* acquire + release of a spinlock (policy lists) */
        COST_LIST_OP,           /* link or unlink on a list */
        COST_ATOMIC,            /* an atomic read-modify-write (cmpxchg) */
        COST_PRIO_CHANGE,       /* recomputing and applying a task's priority */
        COST_CALLBACK,          /* invoking one RCU callback */
        COST_READ_LOCK,         /* outermost rcu_read_lock() fast path */
        COST_READ_UNLOCK,       /* outermost rcu_read_unlock() fast path */
        COST_KIND_COUNT,
};

/* Who pays: reported separately so that fast-path overheads stand out. */
enum cost_path {
        COST_PATH_SCHED,        /* scheduler path (context switch, switch-out hook) */
        COST_PATH_READ,         /* rcu_read_lock/unlock, including policy hooks */
        COST_PATH_BOOSTER,      /* policy kernel threads */
        COST_PATH_CALLBACK,     /* callback invocation */
        COST_PATH_COUNT,
};

struct cost_info {
        const char *key;        /* [costs] key */
        int64_t default_ns;
        const char *doc;
};

extern const struct cost_info cost_table[COST_KIND_COUNT];
extern const char *const cost_path_names[COST_PATH_COUNT];

#endif
