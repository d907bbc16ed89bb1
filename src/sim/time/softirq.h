/* softirq.h - the -rt kernel's interrupt threads: the timer softirq's
 * sirq-timer/N, and a thread irq/NUMBER-NAME per device interrupt.
 *
 * In the 2007 -rt kernels every softirq ran in a per-CPU kernel thread
 * (softirq-timer/N, later sirq-timer/N) at SCHED_FIFO 50, MAX_USER_RT_PRIO/2,
 * beside the hardirq threads at the same priority -- which is why the
 * booster sat at RR 49.  A timer-wheel timeout (schedule_timeout(), what the
 * boosters sleep with) expires in TIMER_SOFTIRQ: the tick raises it on the
 * CPU the timer was armed on, and only when that CPU's sirq-timer thread
 * runs is the sleeper woken (run_timer_softirq() -> process_timeout() ->
 * wake_up_process()).  So an RT task above 50 on that CPU delays the
 * wake-up of a thread that outranks it.  hrtimer sleeps (nanosleep, the
 * scenarios' `sleep` and periodic releases) are woken from hard interrupt
 * context as hrtimer_init_sleeper()'s HRTIMER_CB_IRQSAFE_NO_SOFTIRQ had
 * them, and do not pass through here.
 *
 * `[sched] softirq_threads=false` expires timeouts at the tick instead, as a
 * kernel without threaded softirqs would (and as rcuboost did before).
 *
 * A device interrupt ([irq:NAME]) arrives on its CPU at the scenario's
 * intervals, independent of everything else; the hard interrupt only wakes
 * its thread (irq_thread(), FIFO 50 by default) and marks it to run
 * (IRQTF_RUNTHREAD): interrupts that come while the thread has not yet run
 * fold into one run of the handler, as the flag does.
 */
#ifndef RCUBOOST_SOFTIRQ_H
#define RCUBOOST_SOFTIRQ_H

#include <glib.h>
#include <gsl/gsl_rng.h>
#include <stdbool.h>
#include <stdint.h>

#include "../engine/eventq.h"
#include "../sched/task.h"

struct sim;
struct task;
struct report;
struct irq_spec;

struct softirq_cpu {
        struct task *thread;            /* sirq-timer/N */
        GQueue expired;                 /* struct task *: timeouts to run */
        GQueue timers;                  /* struct ptimer *: a policy's timers to run (ptimer.h) */
};

struct irq_thread {
        const struct irq_spec *spec;
        struct task *thread;            /* irq/NUMBER-NAME */
        gsl_rng *rng;
        struct event arrival;
        bool pending;                   /* IRQTF_RUNTHREAD */
        uint64_t interrupts, handled;
};

/* Create the threads: sirq-timer/N with [sched] softirq_threads, one per [irq:NAME]. */
void softirq_start(struct sim *sim);
/* irqs.NAME.interrupts / .handled */
void softirq_report(struct sim *sim, struct report *r);
void softirq_finish(struct sim *sim);
/* schedule_timeout(@jiffies) as a step: the timer fires when the timer
 * wheel says (timerwheel.h: at jiffies + @jiffies on 2.6.22-rt, a jiffy
 * later on 6.1-rt) and expires in the timer thread. */
struct step softirq_schedule_timeout(const struct sim *sim, int64_t jiffies);
/* @t's timeout, armed on @cpu, expired: wake @t now or via sirq-timer/@cpu. */
void softirq_timeout_expired(struct sim *sim, struct task *t, int cpu);
/* @t, sleeping in a timeout, is woken early: its timer will not fire. */
void softirq_timeout_cancel(struct sim *sim, struct task *t);

#endif
