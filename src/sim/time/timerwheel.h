/* timerwheel.h - jiffies, and when a timer-wheel timer fires.
 *
 * Every timeout that counts jiffies -- schedule_timeout() (rcu_preempt's FQS
 * waits, rcuc's and rcub's yields, the boosters' sleeps) and a policy's
 * softirq timers (ptimer.h) -- asks this module at which instant it fires,
 * so that each kernel generation's rounding lives in one place:
 *
 *   2.6.22-rt: a timer due at jiffy J fires at the tick that brings jiffies
 *              to J (schedule_timeout(1): the next tick, however close).
 *   6.1-rt:    kernel/time/timer.c calc_wheel_index() puts the timer in the
 *              bucket of its level, and calc_index() rounds the expiry up by
 *              one unit of that level's granularity ("a timer must not fire
 *              early"): schedule_timeout(1) fires at the second tick, a
 *              timeout of 63 jiffies or more at the next multiple of 8,
 *              of 504 or more of 64, and so on; one past the wheel's
 *              capacity at its capacity (WHEEL_TIMEOUT_MAX).
 *
 * Jiffies count CPU 0's ticks; the tick grid starts at the run's tick phase
 * (sim.c draws it from the seed, [scenario] phases), so jiffy J begins at
 * phase + J x tick.  Instants saturate at SIM_TIME_NEVER: a timer armed for
 * "never" never fires.
 */
#ifndef RCUBOOST_TIMERWHEEL_H
#define RCUBOOST_TIMERWHEEL_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/eventq.h"

struct sim;

/* The kernel's jiffies now. */
int64_t timer_wheel_jiffies(const struct sim *sim);
/* The instant jiffies becomes @j (the tick that brings it there). */
sim_time_ns timer_wheel_jiffy_ns(const struct sim *sim, int64_t j);
/* A timer armed now to expire at jiffy @expires (as add_timer() takes it):
 * the instant it fires, by the generation's rounding. */
sim_time_ns timer_wheel_fires_at(const struct sim *sim, int64_t expires);
/* schedule_timeout(@timeout) armed now: when the sleeper's timer fires. */
sim_time_ns timer_wheel_timeout(const struct sim *sim, int64_t timeout);
/* A timer asked to expire at instant @ns (a policy's softirq timer): the
 * first jiffy at or after @ns, then the wheel's rounding. */
sim_time_ns timer_wheel_fires_at_ns(const struct sim *sim, sim_time_ns ns);

/* The instants above are jiffies' on the grid.  CPU @cpu takes the tick of
 * the jiffy that begins at @grid_ns (and runs the timers armed there) a
 * little later with [scenario] phases=drawn: at most TICK_ORDER_SPREAD_NS,
 * drawn from the seed for each CPU and jiffy, so that ticks falling at one
 * instant on different CPUs come in an order the seed decides, as the
 * interrupts of a real machine do.  Aligned, @grid_ns itself. */
#define TICK_ORDER_SPREAD_NS 1000
sim_time_ns timer_wheel_on_cpu(const struct sim *sim, int cpu, sim_time_ns grid_ns);
/* CPU @cpu's scheduling-clock tick for jiffy @j: the jiffy's instant, its
 * skew_tick offset, and timer_wheel_on_cpu()'s order. */
sim_time_ns timer_wheel_tick_ns(const struct sim *sim, int cpu, int64_t j);
/* The jiffy of the tick CPU @cpu takes at @now (its skew and order put it
 * less than a tick after the jiffy's instant). */
int64_t timer_wheel_tick_jiffy(const struct sim *sim, int cpu, sim_time_ns now);

#endif
