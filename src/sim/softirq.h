/* softirq.h - the -rt kernel's timer softirq thread, sirq-timer/N.
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
 */
#ifndef RCUBOOST_SOFTIRQ_H
#define RCUBOOST_SOFTIRQ_H

#include <glib.h>

struct sim;
struct task;

struct softirq_cpu {
        struct task *thread;            /* sirq-timer/N */
        GQueue expired;                 /* struct task *: timeouts to run */
};

/* Create the threads ([sched] softirq_threads); none otherwise. */
void softirq_start(struct sim *sim);
void softirq_finish(struct sim *sim);
/* @t's timeout, armed on @cpu, expired: wake @t now or via sirq-timer/@cpu. */
void softirq_timeout_expired(struct sim *sim, struct task *t, int cpu);

#endif
