/* ptimer.h - timers for boosting policies.
 *
 * A policy that acts after a delay ("boost a reader preempted for longer
 * than 2 ms") arms a timer instead of reaching into the event queue.  The
 * context a timer's function runs in is the policy's choice, because it
 * decides who can delay it:
 *
 *   PTIMER_HARDIRQ  an hrtimer in hard interrupt context (HRTIMER_MODE_HARD,
 *                   as hrtimer sleepers and the scheduler's own timers are
 *                   on PREEMPT_RT): the function runs at the expiry
 *                   instant, whatever runs on the CPU.  Nothing can starve it.
 *   PTIMER_SOFTIRQ  a timer-wheel timer (struct timer_list, mod_timer()):
 *                   it expires at the first tick at or after the expiry
 *                   time, and its function runs when the timer softirq
 *                   thread of the CPU it was armed on runs -- softirq-timer/N
 *                   at FIFO 50 on 2.6.22-rt, ktimers/N at FIFO 1 on 6.x-rt
 *                   (kernel.h; run_timer_softirq() -> call_timer_fn()).  An
 *                   RT task above that thread on that CPU delays it, as it
 *                   delays the boosters' own schedule_timeout().  Without
 *                   [sched] softirq_threads it runs at the tick.
 *
 * The function runs with sim->policy_hook "timer": it may do what a hook
 * may (policy.h), not block.  Work charged from a softirq timer goes to the
 * thread it runs in (@thread); from a hard one, to the CPU (sim_charge_cpu).
 * A timer is the engine's: made during create() or later, freed with the run.
 */
#ifndef RCUBOOST_PTIMER_H
#define RCUBOOST_PTIMER_H

#include <stdbool.h>

#include "../engine/eventq.h"

struct sim;
struct task;
struct ptimer;

enum ptimer_context {
        PTIMER_HARDIRQ,
        PTIMER_SOFTIRQ,
};

/* @thread: the softirq thread running it, or NULL (hard irq context, or no
 * softirq threads); @cpu: the CPU it was armed on. */
typedef void (*ptimer_fn)(struct sim *sim, void *data, struct task *thread, int cpu);

struct ptimer *policy_timer_new(struct sim *sim, enum ptimer_context ctx, ptimer_fn fn, void *data);
/* (Re)arm @tm on @cpu to expire at @expires (absolute; not before now).
 * Arming a pending timer moves it (mod_timer(), hrtimer_start()). */
void policy_timer_arm(struct sim *sim, struct ptimer *tm, int cpu, sim_time_ns expires);
/* Disarm @tm: before it expired, or (softirq) expired but not yet run.
 * True if it was pending (del_timer()'s answer). */
bool policy_timer_cancel(struct sim *sim, struct ptimer *tm);
bool policy_timer_pending(const struct ptimer *tm);

/* The engine's side. */
void ptimer_run_expired(struct sim *sim, struct task *thread, int cpu);  /* from sirq-timer/N */
void ptimer_free_all(struct sim *sim);

#endif
