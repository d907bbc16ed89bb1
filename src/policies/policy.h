/* policy.h - the boosting-policy interface.
 *
 * A policy decides when a reader preempted (or blocked on a mutex) inside
 * an RCU read-side critical section gets a higher priority, and pays for
 * doing so.  Like the kernel's struct sched_class, a policy is one const
 * table of function pointers; its functions are static in its own file in
 * src/policies/, named <operation>_<policy>.  The engine calls the hooks at
 * the points below and never looks inside the policy's state.
 *
 * Everything a hook does that costs time in a real kernel (taking a lock,
 * touching a list, an atomic instruction, changing a priority) must be
 * charged with sim_charge_task()/sim_charge_cpu() from engine.h, so that
 * costs show in the results.  A policy raises a task's priority either with
 * sched_set_boost_prio() -- the task's effective priority is the most urgent
 * of its normal priority, that boost and what priority inheritance lends it;
 * the policy says whether the boost travels down a PI chain (BOOST_SETPRIO,
 * as the 2007 patches' bare rt_mutex_setprio(), or BOOST_ADJUST_PI) -- or by
 * ordinary priority inheritance through a mutex of mutex.c.
 *
 * Optional hooks may be NULL.  All hooks run at one simulated instant: they
 * must not block; anything that takes time is done by a kernel thread the
 * policy creates with sim_kthread_create().
 */
#ifndef RCUBOOST_POLICY_H
#define RCUBOOST_POLICY_H

#include <glib.h>
#include <gmodule.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sim;
struct task;
struct report;
struct policy_params;
struct rcu_node;

/* Why a reader left its CPU inside a read-side critical section. */
enum rcu_block_reason {
        RCU_BLOCK_PREEMPTED,    /* a more urgent task took the CPU */
        RCU_BLOCK_MUTEX,        /* it blocked on a (priority-inheriting) mutex */
};

enum policy_key_type {
        POLICY_KEY_DURATION,
        POLICY_KEY_INT,
        POLICY_KEY_SCHED,
        POLICY_KEY_BOOL,
        POLICY_KEY_ENUM,        /* one of .choices; policy_param_enum() gives its index */
};

/* A [policy] key the policy accepts, with its default as written in a file.
 * Write tables with designated initializers ({ .name = ..., .type = ... }). */
struct policy_key {
        const char *name;
        enum policy_key_type type;
        const char *default_value;
        const char *doc;
        const char *choices;    /* POLICY_KEY_ENUM: the values, '|'-separated ("timer|kthread") */
};

/* The contract, per hook.  Every hook runs on the engine's path, inside an
 * event, with sim->policy_hook naming it; none may block or sleep.
 *
 *   create         policy_param_*() of declared keys only; sim_kthread_create();
 *                  policy_timer_new(); allocation.  Returns state, or NULL *with* @error.
 *   reader_blocked, reader_resumed, reader_unlock, sync_start, sync_end,
 *   gp_start, gp_end, fqs_blocked, tick, setscheduler, and a timer's
 *   function (ptimer.h; sim->policy_hook "timer")
 *                  sched_set_boost_prio() (a priority 0..139 or PRIO_NONE, of a
 *                  task of this run), sched_wake() of the policy's own
 *                  threads, sched_switching_in(), policy_timer_arm() /
 *                  policy_timer_cancel() (a timer of this run, a CPU of
 *                  the run, not in the past), sim_charge_*(),
 *                  sim_log_boost(), boosts_*() (boosts.h), reading
 *                  any task; not sched_block() (a thread's step returns a
 *                  step instead), not sim_stop().
 *   task_exit      as above, and the answer: true, or false and a later
 *                  sim_task_exit_release() from the policy's own thread.
 *   report, destroy  reading only / freeing only.
 *
 * The policy's own threads (their step functions) may do all of the above
 * and return any step (sleep, timeout, wait).  The engine checks what it
 * can, always: a breach stops the run with an error naming the policy, its
 * module and the hook (sim_policy_breach(), exit 2). */
struct boost_policy_ops {
        const char *name;               /* "booster": what --policy takes */
        const char *summary;            /* one line for `rcuboost policies` */
        const struct policy_key *keys;  /* terminated by a NULL name; may be NULL */
        /* The kernel threads create() makes ("rcu_booster"), NULL-terminated;
         * may be NULL.  An [event] on a thread another policy has is skipped,
         * with a warning, under a policy without it. */
        const char *const *threads;
        /* The RCU flavour it is part of ("tree" for CONFIG_RCU_BOOST): the
         * default [rcu] flavour under it, and the only one it accepts.
         * NULL: any flavour, rcupreempt by default. */
        const char *rcu_flavour;
        /* The flavour it was written for where it runs on others too
         * ("rcupreempt": the 2007 policies, for 2.6.22-rt); NULL: none. */
        const char *written_for;

        /* Called once while the simulation is built, before the first event:
         * parse parameters with policy_param_*(), allocate state, create
         * kernel threads.  Returns the policy's private state, or NULL with
         * @error set (the run does not start). */
        void *(*create)(struct sim *sim, const struct policy_params *params, GError **error);

        /* Scheduler path.  @t is being switched out while inside a read-side
         * critical section (rcu nesting > 0), preempted or blocked on a
         * mutex; called on every such switch-out, at the switch instant,
         * with @t already off its CPU (t->cpu is the CPU it left).  Charge to
         * the CPU (sim_charge_cpu, COST_PATH_SCHED): the cost delays
         * whatever runs next there. */
        void (*reader_blocked)(void *pol, struct task *t, enum rcu_block_reason why);

        /* Scheduler path, the pair of reader_blocked (as put_prev_task and
         * set_next_task are): @t, switched out inside its read-side critical
         * section, is being switched in again, still inside it; @t is on its
         * CPU (t->cpu), state running.  Called on every such switch-in.
         * Charge to the CPU (sim_charge_cpu, COST_PATH_SCHED). */
        void (*reader_resumed)(void *pol, struct task *t);

        /* Read side.  @t, running, has just executed its outermost
         * rcu_read_unlock() (nesting now 0, flip counter already dropped).
         * Charge to @t (sim_charge_task, COST_PATH_READ).  Raising or dropping
         * priorities here takes effect at once. */
        void (*reader_unlock)(void *pol, struct task *t);

        /* @t is exiting (outside any critical section, holding no mutex).
         * Return true to let it exit now; false to hold it in TASK_EXITING
         * until the policy calls sim_task_exit_release(t). */
        bool (*task_exit)(void *pol, struct task *t);

        /* The flip state machine left idle (a grace period started: counter
         * flip number @gp) / returned to idle (that grace period ended). */
        void (*gp_start)(void *pol, int64_t gp);
        void (*gp_end)(void *pol, int64_t gp);

        /* @t, running, calls synchronize_rcu() (before it waits) / returns
         * from it (running again after its grace period).  Charge to @t. */
        void (*sync_start)(void *pol, struct task *t);
        void (*sync_end)(void *pol, struct task *t);

        /* flavour=tree: force_qs_rnp() found leaf @rnp with every CPU
         * reported and tasks still blocking the grace period (where
         * CONFIG_RCU_BOOST calls rcu_initiate_boost()).  Charge to the
         * grace-period kthread @gp_kthread. */
        void (*fqs_blocked)(void *pol, struct rcu_node *rnp, struct task *gp_kthread);

        /* Scheduling-clock tick on @cpu, after RCU's own tick work. */
        void (*tick)(void *pol, int cpu);

        /* A timed scenario event changed @t's scheduling class or priority
         * (e.g. the policy's own booster thread); its new normal priority is
         * already in place. */
        void (*setscheduler)(void *pol, struct task *t);

        /* Can a timed scenario event set [policy] @key to @value at run
         * time?  Checked for every [event] before anything runs (by
         * validate, run, compare, sweep and check, for each policy they
         * run), as strictly as create() checks [policy]; FALSE with @error
         * (message without location) otherwise.  NULL: the policy has no
         * parameters that change at run time. */
        gboolean (*check_param)(const char *key, const char *value, GError **error);

        /* A timed scenario event sets [policy] @key to @value at run time;
         * check_param() has accepted it.  Return FALSE with @error for a
         * failure it could not foresee. */
        gboolean (*set_param)(void *pol, const char *key, const char *value, GError **error);

        /* Describe @t's policy state in @buf, e.g. "BLOCKED toboost cpu0 elem2"
         * (for tests, traces and debugging). */
        void (*describe_task)(void *pol, struct task *t, char *buf, size_t len);

        /* @t's policy state as a small number, 0..63 (IDLE, BLOCKED, BOOSTED
         * ...), for coverage: `rcuboost hunt` keeps the scenarios whose runs
         * take a policy from one state to another in a way not seen yet, as
         * a fuzzer keeps new edges.  Read only; asked at every hook on @t and
         * every change of its boost, and only by runs that count coverage.
         * NULL: no states to tell apart. */
        int (*state_of)(void *pol, struct task *t);

        /* At the end of the run: add counters under "policy_stats." in @r. */
        void (*report)(void *pol, struct report *r);

        /* Free the private state.  Accepts what create() returned. */
        void (*destroy)(void *pol);
};

/* The registry: every built-in policy, in the order `rcuboost policies`
 * lists them. */
extern const struct boost_policy_ops *const policy_registry[];

/* Out-of-tree policies: a shared object built against the installed headers
 * (pkg-config rcuboost-policy) that says, with RCUBOOST_POLICY(ops),
 *
 *     RCUBOOST_POLICY(immediate_policy_ops);
 *
 * which policy it is and which interface it was built for.  A module built
 * for another RCUBOOST_POLICY_ABI is refused: the structs it would read
 * are not the ones the engine has.  Bump it whenever struct
 * boost_policy_ops, or anything a policy may touch (engine.h and what it
 * includes), changes its layout or meaning. */
#define RCUBOOST_POLICY_ABI 10
#define RCUBOOST_POLICY(ops)                                            \
        G_MODULE_EXPORT const int rcuboost_policy_abi = RCUBOOST_POLICY_ABI; \
        G_MODULE_EXPORT const struct boost_policy_ops *rcuboost_policy = &(ops)

/* A policy broke the engine's contract (sim_policy_breach()), or its
 * create() failed (the error it gave, in this domain): exit 2. */
#define POLICY_ERROR (policy_error_quark())
GQuark policy_error_quark(void);
enum { POLICY_ERROR_CONTRACT, POLICY_ERROR_CREATE };
/* The file a loaded module's policy came from, or NULL for a built-in one. */
const char *policy_module_path(const struct boost_policy_ops *ops);
/* "policy NAME", or "policy NAME (module PATH)": for messages.  Free it. */
char *policy_describe(const struct boost_policy_ops *ops);

/* Load the policy module at @path (a name with a '/' or ending in .so):
 * afterwards policy_find() knows it by its ops->name.  Loading the same
 * file twice gives the same policy.  NULL with @error (the file, and why:
 * not found, not an rcuboost policy, another ABI, a name already taken). */
const struct boost_policy_ops *policy_load(const char *path, GError **error);
/* Is @name a module path rather than a policy name? */
bool policy_is_module_path(const char *name);
/* The loaded modules' policies, in load order (NULL-terminated, static). */
const struct boost_policy_ops *const *policy_loaded(void);

const struct boost_policy_ops *policy_find(const char *name);
/* Comma-separated names, for messages; a static string. */
const char *policy_names(void);
/* Is @key a [policy] key of any registered policy? */
const struct policy_key *policy_any_key(const char *key);
const struct policy_key *policy_key_find(const struct boost_policy_ops *ops, const char *key);
/* Are @ops' keys well formed (a known type, a default that type accepts,
 * choices for an enum)?  policy_load() refuses a module whose are not. */
gboolean policy_keys_check(const struct boost_policy_ops *ops, GError **error);
/* Is @name a thread some registered policy creates? */
bool policy_any_thread(const char *name);

#endif
