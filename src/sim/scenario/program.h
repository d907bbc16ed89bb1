/* program.h - task programs: parsing, static checks, compiled form.
 *
 * A scripted task runs a program written in the scenario, e.g.
 *
 *     loop { rcu_read_lock; compute exp(300us); rcu_read_unlock; sleep exp(1ms) }
 *
 * Statements (separated by ';'):
 *     compute Q        use the CPU for a duration Q (constant or distribution)
 *     sleep Q          sleep for Q
 *     lock M / unlock M    a priority-inheriting mutex declared as [mutex:M]
 *     rcu_read_lock / rcu_read_unlock    nestable read-side critical section
 *     call_rcu S       register a callback that frees S bytes after a grace period
 *     synchronize_rcu  wait for a grace period
 *     loop { ... }     forever
 *     repeat N { ... } N times
 *
 * The parser compiles to a flat instruction array that the interpreter in
 * task.c steps through, and rejects at load time what could only fail at
 * run time: unbalanced read-side sections or mutexes within a block,
 * unknown mutexes, locking a held mutex, sleeping or synchronize_rcu()
 * inside a critical section, loops that never advance time, and (for
 * periodic tasks) programs that never finish.
 */
#ifndef RCUBOOST_PROGRAM_H
#define RCUBOOST_PROGRAM_H

#include <glib.h>

#include "dist.h"

#define PROGRAM_ERROR (program_error_quark())
GQuark program_error_quark(void);

enum program_error {
        PROGRAM_ERROR_SYNTAX,
        PROGRAM_ERROR_INVALID,
};

enum program_op {
        OP_COMPUTE,
        OP_SLEEP,
        OP_LOCK,
        OP_UNLOCK,
        OP_RCU_LOCK,
        OP_RCU_UNLOCK,
        OP_CALL_RCU,
        OP_SYNC_RCU,
        OP_REPEAT,      /* arg = count, target = matching OP_REPEAT_END, slot = counter */
        OP_REPEAT_END,  /* target = matching OP_REPEAT */
        OP_JUMP,        /* target = instruction to continue at */
        OP_END,
};

struct insn {
        enum program_op op;
        int arg;
        int target;
        int slot;
        struct dist q;
};

struct program {
        struct insn *code;
        int len;
        int counter_slots;      /* repeat counters a task needs */
        gboolean runs_forever;  /* contains a top-level-reachable `loop` */
};

/* @mutexes maps a mutex name to GINT_TO_POINTER(index + 1).  Errors carry
 * the column (1-based) of the offending text. */
struct program *program_parse(const char *text, GHashTable *mutexes, GError **error);
void program_free(struct program *p);

/* What a program costs the engine, from its statements' means: one pass
 * makes @events events in @time_ns of simulated time; a program that loops
 * forever does @events in every @time_ns for good (@forever).  For warning
 * of runs that would take days, not for results. */
struct program_cost {
        double events;
        double time_ns;
        gboolean forever;
};
void program_estimate(const struct program *p, struct program_cost *out);

/* For g_autoptr(); the code itself says struct program. */
typedef struct program RcbProgram;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RcbProgram, program_free)

#endif
