/* rcu.h - RCU: what both flavours share.
 *
 * A flavour is a table of operations (struct rcu_flavour_ops), as the
 * kernel's sched_class: the 2007 -rt kernel's counter-flip rcupreempt
 * (rcupreempt.c, the default) and mainline's preemptible Tree RCU
 * ([rcu] flavour=tree, tree.c) read alike behind it.  What is the same for
 * both lives here (rcu.c): callbacks and their invocation, memory waiting
 * on RCU and out-of-memory, the latency statistics, the read-side
 * bookkeeping the safety oracle and the outputs see.  Each flavour keeps
 * its own state behind a pointer: struct rcu_preempt (rcupreempt.h: the
 * per-CPU lists and flip counters, the state machine) and struct rcu_tree
 * (tree.c).
 */
#ifndef RCUBOOST_RCU_H
#define RCUBOOST_RCU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../../policies/policy.h"
#include "../engine/eventq.h"
#include "../output/stats.h"

struct sim;
struct task;
struct report;
struct scenario;

#define RCU_GP_STAGES 2

enum rcu_flip_state {
        RCU_FLIP_IDLE,
        RCU_FLIP_WAITACK,
        RCU_FLIP_WAITZERO,
        RCU_FLIP_WAITMB,
};

struct rcu_callback {
        struct rcu_callback *next;
        int64_t id;
        int64_t size_bytes;
        sim_time_ns call_ns;
        uint64_t stamp;                 /* oracle order of the call_rcu() */
        struct task *caller;
        struct task *waiter;            /* synchronize_rcu(): wake it on invocation */
};

/* A singly linked callback list with a tail pointer, as rcupreempt keeps them. */
struct rcu_cblist {
        struct rcu_callback *head;
        struct rcu_callback **tail;
        int64_t count;
};

struct rcu_cpu {
        int64_t flipctr[2];
        bool flip_pending;              /* rcu_flip_flag == rcu_flipped */
        bool mb_pending;                /* rcu_mb_flag == rcu_mb_needed */
        int64_t completed;              /* last `completed` this CPU saw */
        struct rcu_cblist next;
        struct rcu_cblist wait[RCU_GP_STAGES];
        struct rcu_cblist done;
        struct task *cb_thread;
        struct rcu_callback *inflight;  /* being invoked by cb_thread */
};

/* One RCU implementation, called at the engine's hooks below. */
struct rcu_flavour_ops {
        const char *name;               /* "rcupreempt", "tree": [rcu] flavour */
        void (*init)(struct sim *sim);
        void (*start)(struct sim *sim); /* create its kthreads */
        void (*finish)(struct sim *sim);
        /* Outermost lock / unlock of @t (nesting already 0 -> 1 / 1 -> 0). */
        void (*read_lock)(struct sim *sim, struct task *t);
        void (*read_unlock)(struct sim *sim, struct task *t);
        /* @t left its CPU inside a critical section. */
        void (*switch_out)(struct sim *sim, struct task *t, enum rcu_block_reason why);
        /* Any context switch on @cpu (after switch_out); NULL: nothing to do. */
        void (*context_switch)(struct sim *sim, int cpu);
        /* Queue a new callback of @t (call_rcu(), synchronize_rcu()). */
        void (*enqueue)(struct sim *sim, struct task *t, struct rcu_callback *cb);
        void (*tick)(struct sim *sim, int cpu);
        /* [scenario] nohz_idle: @cpu enters / leaves the idle loop's extended
         * quiescent state; does it need its tick (callbacks queued)?  NULL:
         * the flavour has no tickless idle (nohz_idle is refused). */
        void (*eqs_enter)(struct sim *sim, int cpu);
        void (*eqs_exit)(struct sim *sim, int cpu);
        bool (*needs_cpu)(const struct sim *sim, int cpu);
        /* Does reader @r hold up the grace period @waiter waits for? */
        bool (*holds_up)(const struct sim *sim, const struct task *r, const struct task *waiter);
        /* Its counters in summary.json (under rcu.) beside the shared ones. */
        void (*report)(struct sim *sim, struct report *r);
        const char *(*state_name)(const struct sim *sim);
        /* Age of the oldest grace period in progress, 0 if none. */
        int64_t (*gp_in_progress)(const struct sim *sim);
};

struct rcu_tree;
struct rcu_preempt;

struct rcu {
        const struct rcu_flavour_ops *flavour;
        struct rcu_tree *tree;          /* flavour=tree's state (tree.c) */

        struct rcu_preempt *preempt;    /* flavour=rcupreempt's state (rcupreempt.h) */

        /* ---- both ---- */
        int64_t memory_bytes;
        int64_t peak_memory_bytes;
        int64_t outstanding;            /* callbacks registered, not invoked */
        int sync_waiting;               /* tasks in synchronize_rcu() */
        /* Tasks waiting for a mutex inside a read-side critical section:
         * rcu_check_deadlock() has nothing to look for while there are
         * none.  (In the padding after sync_waiting: no layout change.) */
        int readers_on_mutex;
        /* rcutorture-style failures: waits longer than [rcu] stall_threshold. */
        int64_t gp_over_threshold;
        int64_t cb_over_threshold;
        int64_t sync_over_threshold;
        bool oom;
        sim_time_ns oom_ns;
        int64_t oom_bytes;

        int64_t next_cb_id;
        int64_t registered;
        int64_t invoked;
        int64_t flips_completed;        /* flip cycles (start to end of waitmb) */
        int64_t gp_completed;           /* grace periods: RCU_GP_STAGES consecutive flips */
        int64_t readers;                /* outermost critical sections entered */
        int64_t reader_switch_outs;     /* switch-outs inside a critical section */
        struct latency_stat flip_latency;
        struct latency_stat gp_latency;
        struct latency_stat cb_latency;
        struct latency_stat sync_latency;
        struct latency_stat cs_length;  /* read-side critical section lengths */
        struct rcu_callback *pool;      /* free callbacks, reused */
        FILE *gp_csv;                   /* one row per flip cycle, or NULL */
};

/* The flavour [rcu] flavour names, or @policy's when the scenario leaves it
 * to the policy (rcupreempt unless the policy needs another). */
const struct rcu_flavour_ops *rcu_flavour_for(const struct scenario *sc, const struct boost_policy_ops *policy,
                                              GError **error);
/* Its name: "rcupreempt" or "tree". */
const char *rcu_flavour_name(const struct scenario *sc, const struct boost_policy_ops *policy);
void rcu_init(struct sim *sim, const struct rcu_flavour_ops *flavour);
void rcu_finish(struct sim *sim);
/* Create the per-CPU callback threads. */
void rcu_start(struct sim *sim);

void rcu_read_lock(struct sim *sim, struct task *t);
void rcu_read_unlock(struct sim *sim, struct task *t);
void rcu_call(struct sim *sim, struct task *t, int64_t size_bytes);
/* Register @t to be woken after a grace period; the caller then waits. */
void rcu_synchronize(struct sim *sim, struct task *t);
/* RCU in the wait-for graph: stop the run with a deadlock error if a reader
 * blocked on a mutex waits, down the mutex chain, for a task in
 * synchronize_rcu() whose grace period that reader holds up.  Called where
 * such a cycle can close: a task blocks on a mutex, calls synchronize_rcu(),
 * or a flip starts. */
void rcu_check_deadlock(struct sim *sim);
void rcu_tick(struct sim *sim, int cpu);
/* Tickless idle ([scenario] nohz_idle): ct_idle_enter()/ct_idle_exit(), and
 * rcu_needs_cpu() -- whether @cpu's tick may stop. */
void rcu_eqs_enter(struct sim *sim, int cpu);
void rcu_eqs_exit(struct sim *sim, int cpu);
bool rcu_needs_cpu(const struct sim *sim, int cpu);
/* Scheduler path: @t left its CPU inside a critical section. */
void rcu_note_switch_out(struct sim *sim, struct task *t, enum rcu_block_reason why);
/* Scheduler path: a context switch on @cpu (any task, or idle). */
void rcu_note_context_switch(struct sim *sim, int cpu);
void rcu_report(struct sim *sim, struct report *r);

const char *rcu_flip_state_name(enum rcu_flip_state s);
/* The flavour's state, for invariants and the timeline. */
const char *rcu_state_name(const struct sim *sim);

/* ---- for the flavours ---- */
/* Read-side bookkeeping at the outermost lock, after the flavour's own. */
void rcu_reader_begin(struct sim *sim, struct task *t);
/* ... at the outermost unlock: before the flavour's slow path / after it. */
void rcu_reader_end(struct sim *sim, struct task *t);
void rcu_reader_done(struct sim *sim, struct task *t);
/* Invoke callback @cb (the safety oracle checks it first) and recycle it. */
void rcu_invoke(struct sim *sim, struct rcu_callback *cb);
/* Free a list of callbacks (at the end of a run). */
void rcu_free_callbacks(struct rcu_callback *cb);
/* A grace period of @len ns ended (gp_latency, failures over the threshold). */
void rcu_gp_ended(struct sim *sim, int64_t len);
/* What a flavour adds to the report's shared keys. */
struct rcu_report_state {
        int64_t flip_age;               /* rcupreempt: the flip in progress; else 0 */
        int64_t overdue_callbacks;      /* still queued, older than the threshold */
        int64_t overdue_syncs;
        int64_t oldest_callback_ns;     /* age of the oldest callback still queued */
        int64_t oldest_sync_ns;         /* and of the oldest synchronize_rcu() */
};
/* Count callbacks older than the stall threshold and note the oldest:
 * @cb / @cb and those after it. */
void rcu_count_overdue_one(const struct sim *sim, const struct rcu_callback *cb, struct rcu_report_state *st);
void rcu_count_overdue(const struct sim *sim, const struct rcu_callback *cb, struct rcu_report_state *st);
/* The rcu.* keys both flavours have; the flavour's own rcu.* keys follow,
 * then the latency objects. */
void rcu_report_common(struct sim *sim, struct report *r, const struct rcu_report_state *st);
void rcu_report_latencies(struct sim *sim, struct report *r);

#endif
