/* sched.h - CPUs and the priority scheduler.
 *
 * Per-CPU run queues as in Linux: a real-time queue ordered by priority
 * then FIFO (a preempted task keeps its place at the head, an RR task whose
 * slice ran out goes to the tail) and a fair queue ordered by virtual
 * runtime with nice weights.  Real-time tasks are pushed to, and pulled by,
 * CPUs running something less urgent, and an idle CPU pulls any waiting
 * task its affinity allows, so at every instant the most urgent runnable
 * tasks run where affinity lets them.
 *
 * A task's effective priority is the most urgent of its own (normal)
 * priority, what the boost policy lends it and what priority inheritance
 * lends it; sched_update_prio() recomputes it and moves the task wherever it
 * is queued (a run queue, or a mutex's wait list, propagating along the
 * chain of owners).
 *
 * Rescheduling is deferred: sched_resched() marks a CPU and the event loop
 * runs the scheduler on marked CPUs after each event, so a hook never runs
 * the scheduler underneath its caller.
 */
#ifndef RCUBOOST_SCHED_H
#define RCUBOOST_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/costs.h"
#include "../engine/eventq.h"
#include "../engine/heap.h"
#include "task.h"

struct sim;

/* Load-balancing domains: one per SCHED_DOMAIN_SPAN CPUs (an LLC's, the
 * MC level), one over all CPUs above it when there are more. */
#define SCHED_DOMAIN_LEVELS 2
#define SCHED_DOMAIN_SPAN 16

struct cpu {
        /* ---- line 0: what picking and switching read ---- */
        struct task *curr;
        struct heap rt_rq;              /* queued RT-class tasks */
        struct heap fair_rq;            /* queued fair-class tasks */
        int64_t min_vruntime;
        int64_t fair_weight;            /* of queued fair tasks */
        int id;
        bool need_resched;
        bool resched_listed;
        bool rt_throttled;              /* RT throttling: see rt_time_ns */

        /* ---- line 1: what switching writes ---- */
        /* Inside schedule(): the task being switched out, which is still
         * `current` to the tracepoints until its sched_switch (curr is
         * already NULL then). */
        struct task *switching_out;
        struct task *switching_in;      /* ... and the task taking the CPU (NULL: idle) */
        int64_t pending_overhead_ns;    /* charged to the CPU, paid by the next task */
        uint64_t nr_switches;
        int64_t head_seq;               /* decreasing: queue at the head */
        int64_t tail_seq;               /* increasing: queue at the tail */
        /* RT throttling: RT time used in the current period, and this CPU's
         * runtime (the scenario's, plus what it borrowed, minus what it lent). */
        int64_t rt_time_ns;
        int64_t rt_runtime_ns;

        /* ---- once a tick ---- */
        struct event tick_ev;

        /* Periodic load balancing ([sched] load_balance). */
        int64_t rt_ns;                  /* RT-class time run here, all of it */
        int64_t rt_ns_at_tick;
        double rt_avg;                  /* PELT-style decayed share of RT time (0..1) */
        int64_t next_balance_ns[SCHED_DOMAIN_LEVELS];   /* per domain level */
        int64_t tick_stopped_ns;        /* when its tick stopped: rt_avg decays over the gap */
        int distribute_prev;            /* cpumask_any_and_distribute()'s per-CPU cursor */
        bool in_eqs;                    /* [scenario] nohz_idle: idle, an extended quiescent state */
        bool tick_stopped;              /* ... and its tick stopped (tick_nohz_idle_stop_tick()) */
        uint64_t rt_throttle_windows;   /* times its RT class was throttled (rtwait.h) */
} __attribute__((aligned(64)));         /* two lines for schedule(), not three or four */

/* What the scheduler folder (src/sim/sched/: the scheduler, tasks and their
 * programs, the PI mutexes, boost tracking) tells the layers above it --
 * RCU and the timer softirq -- as the kernel's __schedule() and
 * scheduler_tick() call rcu_note_context_switch() and rcu_sched_clock_irq(),
 * and as a task's code calls rcu_read_lock() or call_rcu().  sim_new()
 * wires it (sim->sched_hooks): the folder calls none of them by name, so it
 * sits below them (docs/design.md, "Layers"). */
struct sched_hooks {
        void (*tick)(struct sim *sim, int cpu);                 /* after sched_tick() */
        void (*context_switch)(struct sim *sim, int cpu);       /* every pass of schedule() */
        /* @t leaves its CPU inside a read-side critical section: preempted,
         * or blocked on a mutex (enum rcu_block_reason, policy.h) */
        void (*reader_switch_out)(struct sim *sim, struct task *t, int why);
        void (*eqs_enter)(struct sim *sim, int cpu);            /* idle, nohz_idle */
        void (*eqs_exit)(struct sim *sim, int cpu);
        bool (*needs_cpu)(const struct sim *sim, int cpu);      /* may the idle tick stop? */
        int (*pi_prio)(const struct task *t);                   /* its top PI waiter's prio */
        /* a blocked waiter's priority changed: requeue it, walk the chain */
        void (*waiter_prio_changed)(struct sim *sim, struct task *t);
        /* @t's effective priority was @old_prio (or is unchanged, but its
         * cause may have moved) */
        void (*prio_changed)(struct sim *sim, struct task *t, int old_prio);
        /* A task's program calls RCU's API (task.c): rcu_read_lock(),
         * rcu_read_unlock(), call_rcu() of @size_bytes, synchronize_rcu() */
        void (*read_lock)(struct sim *sim, struct task *t);
        void (*read_unlock)(struct sim *sim, struct task *t);
        void (*call_rcu)(struct sim *sim, struct task *t, int64_t size_bytes);
        void (*synchronize_rcu)(struct sim *sim, struct task *t);
        /* a task began waiting on a mutex (mutex.c): is a grace period now
         * waiting on a reader that waits on its own synchronize_rcu()? */
        void (*mutex_waiter_added)(struct sim *sim);
        /* @t's schedule_timeout() timer fired on @cpu: the timer softirq
         * wakes it (task.c) */
        void (*timeout_expired)(struct sim *sim, struct task *t, int cpu);
};

void sched_init(struct sim *sim);
void sched_finish(struct sim *sim);
/* Schedule the first ticks and the RT period timer. */
void sched_start(struct sim *sim);

/* Make a sleeping, waiting, blocked or new task runnable. */
void sched_wake(struct sim *sim, struct task *t);
/* The running task @t stops running: it now sleeps/blocks/waits/exits. */
void sched_block(struct sim *sim, struct task *t, enum task_state state);
/* Ask for the scheduler to run on @cpu after the current event. */
void sched_resched(struct sim *sim, int cpu);
/* Run the scheduler on every CPU that asked; called by the event loop. */
void sched_flush(struct sim *sim);

/* @t is on its CPU with nothing left to burn: start burning its overhead
 * plus remaining_ns (or ask to be stepped at once when both are zero). */
void sched_burn_start(struct sim *sim, struct task *t);
/* Account CPU time of the running @t up to now without stopping it. */
void sched_update_curr(struct sim *sim, struct cpu *cpu);
/* Extend a burn in progress by @ns (a cost charged to a running task). */
void sched_burn_extend(struct sim *sim, struct task *t, int64_t ns);

/* Recompute @t's effective priority and move it accordingly, on a run queue
 * or, when @t is blocked on a mutex, along the PI chain.  Returns true if it
 * changed. */
bool sched_update_prio(struct sim *sim, struct task *t);

/* How a policy's boost reaches a task; the policy says which, the engine
 * does not guess. */
enum boost_chain {
        /* rt_mutex_setprio() alone, as the Jan 2007 patches boost: @t's own
         * effective priority (and its run-queue place) change, but if @t is
         * blocked on a mutex its waiter keeps the priority it blocked with,
         * so nothing travels to the owner until a later chain walk. */
        BOOST_SETPRIO,
        /* rt_mutex_setprio() then rt_mutex_adjust_pi(): a blocked @t is
         * requeued and the boost travels down the chain of owners. */
        BOOST_ADJUST_PI,
};
/* The boost policy's contribution (PRIO_NONE to drop it). */
void sched_set_boost_prio(struct sim *sim, struct task *t, int prio, enum boost_chain how);
void sched_set_class(struct sim *sim, struct task *t, const struct sched_spec *spec);
void sched_set_affinity(struct sim *sim, struct task *t, const struct cpumask *mask);

/* During a policy's reader_blocked() hook: the task @cpu is switching to
 * (the reader's preempter when it was preempted), or NULL (going idle). */
struct task *sched_switching_in(const struct sim *sim, int cpu);
/* CPU @cpu's rank among the CPUs an RT task may be placed on: 2.6.22-rt,
 * the priority of what it runs (PRIO_IDLE: nothing; CPUPRI_NONE while
 * throttled); 6.1, cpupri's level (sched.c).  For the invariant checks. */
int sched_cpupri_rank(const struct sim *sim, int cpu);

/* Scheduler part of the scheduling-clock tick. */
void sched_tick(struct sim *sim, struct cpu *cpu);

static inline bool sched_need_resched(const struct cpu *cpu)
{
        return cpu->need_resched;
}

/* Fair-class load weight of a nice level (1024 at nice 0). */
unsigned sched_spec_weight(const struct sched_spec *s);

/* "fifo:50", "normal:0", "boosted fifo:48 (normal:19)" for messages. */
char *sched_describe_prio(int prio);

/* Charge @n operations of @kind to task @t: it burns the time before its
 * next step (or, mid-burn, its current burn takes longer). */
void sim_charge_task(struct sim *sim, struct task *t, enum cost_kind kind, int n, enum cost_path path);

#endif
