/* task.h - simulated tasks and the program interpreter.
 *
 * Every task, scripted or kernel thread, is a state machine the engine
 * steps.  When a task is on a CPU and has no CPU time left to burn, the
 * engine calls its step function, which does whatever takes no simulated
 * time (take a free mutex, enter a read-side critical section, register a
 * callback) and returns what comes next: burn CPU for a while, sleep until
 * a time, wait for somebody to wake it, or exit.  Scripted tasks step
 * through their compiled program (task_program_step); kernel threads such
 * as the callback thread or a policy's booster have native step functions.
 * Both consume simulated CPU time the same way, so both can be preempted
 * and both show up in CPU-time accounting.
 *
 * A step that makes its own CPU need rescheduling (it woke a more urgent
 * task, or dropped its own priority) returns at once with STEP_COMPUTE 0:
 * the preemption happens before its next statement, as it would in a
 * kernel with preemption points at unlock.
 */
#ifndef RCUBOOST_TASK_H
#define RCUBOOST_TASK_H

#include <glib.h>
#include <gsl/gsl_histogram.h>
#include <gsl/gsl_rng.h>
#include <stdbool.h>

#include "../engine/cpumask.h"
#include "../engine/eventq.h"
#include "../engine/heap.h"
#include "../output/stats.h"
#include "../scenario/program.h"
#include "../scenario/units.h"
#include "boosts.h"

struct sim;
struct task;
struct mutex;
struct rcu_node;

enum task_state {
        TASK_NEW,       /* not started yet */
        TASK_RUNNABLE,  /* on a run queue, waiting for its CPU */
        TASK_RUNNING,   /* on a CPU */
        TASK_SLEEPING,  /* timed sleep (or waiting for its next period) */
        TASK_BLOCKED,   /* waiting for a mutex */
        TASK_WAITING,   /* waiting to be woken (synchronize_rcu, idle kthread) */
        TASK_EXITING,   /* exit held back by the policy */
        TASK_EXITED,
};

enum step_kind {
        STEP_COMPUTE,           /* burn .ns of CPU time, then step again */
        STEP_SLEEP_UNTIL,       /* sleep until .ns (absolute): an hrtimer sleep */
        STEP_TIMEOUT_UNTIL,     /* the same as a timer-wheel timeout (schedule_timeout()) */
        STEP_BLOCK_MUTEX,       /* blocked on t->blocked_on; the unlocker wakes it */
        STEP_WAIT,              /* somebody will call sched_wake() */
        STEP_EXIT,
};

struct step {
        enum step_kind kind;
        sim_time_ns ns;
};

typedef struct step (*task_step_fn)(struct sim *sim, struct task *t);

/* Ordered by how often an event of the task touches a field, not by
 * owner: a simulation of thousands of tasks is bound by cache misses on
 * them.  The first five 64-byte blocks each hold what one kind of work
 * reads: a wakeup or a switch (0), the burn (1), the timer and the step
 * (2), a program's step and its read-side critical sections (3), and what
 * a reader is listed on (4); task.c asserts where each begins.  (Tasks are
 * not allocated on a line boundary: measured, that was 2% slower.) */
struct task {
        /* ---- block 0: waking, picking, switching ---- */
        int id;
        enum task_state state;
        int prio;                       /* effective: most urgent of normal, boost, PI */
        int cpu;                        /* CPU it runs or is queued on, or last ran on */
        struct heap_node rq_node;
        unsigned weight;                /* fair-class load weight from nice */
        int64_t vruntime;
        sim_time_ns exec_start;         /* when the running stretch's accounting began */
        sim_time_ns picked_at;          /* when it last got the CPU */
        int64_t sum_exec_ns;            /* total CPU time */
        int64_t remaining_ns;           /* of the current compute */

        /* ---- block 1: burning CPU time ---- */
        int64_t overhead_ns;            /* charged costs, burnt before the compute */
        sim_time_ns seg_start;          /* when the current burn began on the CPU */
        struct event run_ev;            /* end of the current burn / time to step */
        int timeout_cpu;                /* STEP_TIMEOUT_UNTIL: the CPU it was armed on, else -1 */
        int rr_ticks_left;

        /* ---- block 2: timers and steps ---- */
        struct event timer_ev;          /* sleep, next period, start */
        task_step_fn step;
        void *step_data;
        bool any_cpu;                   /* affinity is every CPU (most tasks): its mask, two
                                         * cold cache lines, need not be read */
        bool kthread;
        bool policy_thread;             /* made by the policy (sim_kthread_create() in create()) */
        bool awaiting_release;          /* woken for a release, not yet run */
        bool in_sync;                   /* waiting in synchronize_rcu() */
        bool sync_returning;            /* its grace period ended; not yet run since */
        bool rcu_preempted;             /* switched out in this critical section
                                         * (owned by rcu.c, as the other rcu_ fields) */
        bool wakes_in_section;          /* start_in= tasks wait for its next section */

        /* ---- block 3: scripted tasks and their read-side critical sections ---- */
        const struct program *prog;
        int pc;
        int rcu_nesting;
        gsl_rng *rng;
        sim_time_ns stop_ns;            /* read at every step */
        uint64_t rcu_read_seq;          /* oracle order of the outermost lock */
        sim_time_ns rcu_read_start_ns;
        int *counters;                  /* repeat counters, one per nesting depth */
        int rcu_idx;                    /* flip-counter index taken at outermost lock */
        uint32_t oracle_slot;           /* its place in the oracle's readers */

        /* ---- block 4: what a reader is listed on ---- */
        void *policy_data;              /* the boost policy's per-task state; freed with the task */
        struct boost_track boost_tr;    /* the engine's record of its boosts (boosts.h) */
        int policy_state_seen;          /* its policy's state_of() when last asked, or -1 (coverage) */
        struct rcu_node *rcu_blocked_node; /* flavour=tree: the leaf it is queued on */
        GList rcu_node_entry;           /* ... in its blkd_tasks; data = task */

        /* ---- scheduling, less often (owned by sched.c) ---- */
        struct sched_spec sched;        /* class and priority as set by the user */
        int normal_prio;                /* from sched: 0..98 RT, 100..139 fair */
        int boost_prio;                 /* what the boost policy lends, or PRIO_NONE */

        /* ---- scripted tasks, once per activation or less ---- */
        char *name;
        sim_time_ns start_ns;
        sim_time_ns period_ns;
        sim_time_ns release_ns;         /* current activation's release time */
        uint64_t activations;
        uint64_t overruns;              /* releases skipped because it ran late */
        uint64_t iterations;            /* loop jumps back and releases: its pace, against
                                         * the real kernel's (summary.json "achieved") */
        uint64_t call_rcus;
        struct latency_stat *wakeup;    /* periodic tasks: release -> first run */
        struct rtwait *rtw;             /* ... and what each wait was for (rtwait.h) */
        gsl_histogram *wakeup_hist;     /* the same in 1 us buckets, as cyclictest -h (with outputs);
                                         * its range is sim->wakeup_ranges, shared */
        uint64_t wakeup_overflows;      /* beyond the histogram's last bucket */
        sim_time_ns last_wakeup_ns;     /* cyclictest's "Act" */
        sim_time_ns sync_start_ns;
        GPtrArray *section_wakees;      /* tasks whose start_in= names it, not yet woken */

        /* ---- priority inheritance (owned by mutex.c) ---- */
        struct mutex *blocked_on;
        GList waiter_link;              /* in blocked_on->waiters; data = task */
        int waiter_prio;                /* priority it waits with (rt_mutex_waiter's plist prio):
                                         * set when it blocks, changed only by a chain walk */
        GQueue held;                    /* mutexes held, via mutex->held_link */

        int64_t vruntime_lag;           /* RT class: its vruntime less min_vruntime when it left the
                                         * fair class (sched.c rebase_vruntime()) */

        /* 128 bytes (1,024 CPUs), read when the task is placed, unless any_cpu;
         * set with task_set_affinity() */
        struct cpumask affinity;

        /* coverage (coverage.h): the last engine event of this task, or -1;
         * last, so that a module's offsets above do not move */
        int last_event;
};

static inline void task_set_affinity(struct task *t, const struct cpumask *mask, int ncpus)
{
        t->affinity = *mask;
        t->any_cpu = cpumask_full(mask, ncpus);
}

/* May @t run on @cpu? */
static inline bool task_allowed_on(const struct task *t, int cpu)
{
        return t->any_cpu || cpumask_test(&t->affinity, cpu);
}

/* Create a scripted task; the engine starts it at start_ns. */
struct task *task_new_scripted(struct sim *sim, const char *name, const struct program *prog,
                               uint64_t seed);
/* Create a kernel thread running @step. */
struct task *task_new_kthread(struct sim *sim, const char *name, task_step_fn step, void *data);
void task_free(struct task *t);
/* Set @t's class, priority, weight and CPUs, and put it on the first of them. */
void task_set_sched(struct sim *sim, struct task *t, const struct sched_spec *spec,
                    const struct cpumask *aff);
/* A kernel thread of the engine or a policy; started (woken) at time 0 when
 * @start is set, else left waiting for a sched_wake(). */
struct task *sim_kthread_create(struct sim *sim, const char *name, const struct sched_spec *sched,
                                const struct cpumask *affinity, task_step_fn step, void *data,
                                bool start);
/* Let a task the policy held in TASK_EXITING finish exiting. */
void sim_task_exit_release(struct sim *sim, struct task *t);

struct step task_program_step(struct sim *sim, struct task *t);

const char *task_state_name(enum task_state s);

/* The pid a trace shows: 0 is the idle task, as in the kernel. */
static inline int task_pid(const struct task *t)
{
        return t->id + 1;
}

static inline bool task_is_rt(const struct task *t)
{
        return t->prio < PRIO_MAX_RT;
}

/* A policy's per-task state, zero-filled on first use and passed to @init
 * (may be NULL); kept in t->policy_data and freed with the task (plain
 * memory only). */
void *policy_task_state(struct task *t, size_t size, void (*init)(void *state));

#endif
