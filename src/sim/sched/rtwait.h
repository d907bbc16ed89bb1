/* rtwait.h - why a periodic task woke late: what it waited for between its
 * release and its first run, as rtla's timerlat auto-analysis and osnoise
 * name it (#58).  Each wait is split into causes:
 *
 *   - its timer: the release's wake-up came late (a soft timer's expiry in
 *     ktimers/N on PREEMPT_RT, or the timer wheel);
 *   - a task that ran on the CPU it was queued on, named with the priority it
 *     ran at -- and, where it ran boosted (a PI chain, an RCU booster), its own;
 *   - RT throttling: the CPU's RT class was over its runtime (sched_rt_runtime_us);
 *   - the CPU idle, or the switch to it (scheduler costs), for what remains;
 *   - its own previous activation, which overran into this period.
 *
 * The RTWAIT_KEEP worst activations of each periodic task keep their causes
 * (summary.json "rt_wait", run's report, compare's table); the sched layer
 * calls the hooks below, only for the tasks this module tracks. */
#ifndef RCUBOOST_RTWAIT_H
#define RCUBOOST_RTWAIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct sim;
struct task;
struct cpu;
struct report;

#define RTWAIT_KEEP 3           /* activations kept per task, the worst */
#define RTWAIT_CAUSES 4         /* causes named per activation; the rest as "other" */

/* The wait of one periodic task, between its release and its first run. */
struct rtwait;

/* Track periodic task @t (period_ns set); freed with rtwait_free(). */
struct rtwait *rtwait_new(void);
void rtwait_free(struct rtwait *w);

/* @t, periodic, was woken for its release and queued (activate()). */
void rtwait_released(struct sim *sim, struct task *t);
/* @t was queued on @cpu, or taken off it (to run, or to move). */
void rtwait_enqueued(struct sim *sim, struct task *t, int cpu);
void rtwait_dequeued(struct sim *sim, struct task *t, const struct cpu *cpu);
/* @cpu is about to switch away from what ran on it since the last switch. */
void rtwait_cpu_switching(struct sim *sim, const struct cpu *cpu);
/* @t ran for the first time since its release, @latency_ns after it. */
void rtwait_ran(struct sim *sim, struct task *t, int64_t latency_ns);

/* summary.json: rt_wait.N.* for the periodic tasks in order (cyclictest's T:N). */
void rtwait_report(const struct sim *sim, struct report *r);
/* run's report: the worst wake-up of each periodic task, with its causes. */
void rtwait_print(const struct sim *sim, FILE *f);

#endif
