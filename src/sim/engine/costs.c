/* costs.c - the [costs] keys and their defaults; see costs.h. */
#include "costs.h"

const struct cost_info cost_table[COST_KIND_COUNT] = {
        [COST_CONTEXT_SWITCH] = { "context_switch", 1000, "switching from one task to another" },
        [COST_LOCK] = { "lock", 60, "acquiring and releasing an uncontended spinlock" },
        [COST_LIST_OP] = { "list_op", 10, "linking or unlinking a list element" },
        [COST_ATOMIC] = { "atomic_op", 40, "an atomic read-modify-write such as cmpxchg" },
        [COST_PRIO_CHANGE] = { "prio_change", 300, "recomputing and applying a task's priority" },
        [COST_CALLBACK] = { "callback", 200, "invoking one RCU callback" },
        [COST_READ_LOCK] = { "rcu_read_lock", 5, "outermost rcu_read_lock() fast path" },
        [COST_READ_UNLOCK] = { "rcu_read_unlock", 5, "outermost rcu_read_unlock() fast path" },
};

const char *const cost_path_names[COST_PATH_COUNT] = {
        [COST_PATH_SCHED] = "scheduler_path",
        [COST_PATH_READ] = "read_side",
        [COST_PATH_BOOSTER] = "booster",
        [COST_PATH_CALLBACK] = "callback",
};
