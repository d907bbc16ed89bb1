/* stall.h - why a grace period stalled, as the kernel's RCU CPU stall
 * warning says it.
 *
 * When a grace period has waited longer than [rcu] stall_threshold, Linux
 * prints "rcu_preempt detected stalls on CPUs/tasks" with the tasks that
 * block it (kernel/rcu/tree_stall.h: print_other_cpu_stall(),
 * rcu_print_task_stall(), and rcu_check_gp_kthread_starvation() for a
 * starved grace-period kthread).  rcuboost takes the same look at the
 * simulated machine, once: the first time a grace period in progress passes
 * the threshold (looked for at CPU 0's tick), or, when the run ends out of
 * memory or with one still pending past the threshold, at the end instead --
 * the state that ended the run is the one to explain.  It records
 *
 * - the readers inside a critical section that began before the grace
 *   period did (so block it): task, CPU, state, how long in the section,
 *   priority (and whether a policy boosted it), and what runs on that CPU
 *   instead -- the hog and its priority;
 * - for a reader blocked on a mutex, the chain down to the owner, and what
 *   keeps the owner from running;
 * - the kernel threads that cannot run: runnable ones waiting for their CPU
 *   (rcuc/N, rcu_preempt, the callback thread, sirq-timer/N, a booster),
 *   and those whose schedule_timeout() has expired but whose CPU's
 *   sirq-timer/N has not run to wake them, each with what runs instead.
 *
 * `run` prints it after the summary; summary.json has it under
 * stall_report.* (docs/outputs.md).
 */
#ifndef RCUBOOST_STALL_H
#define RCUBOOST_STALL_H

#include <stdio.h>

struct sim;
struct report;
struct stall_report;

/* At CPU 0's tick: take the report when the grace period in progress
 * first passes the threshold.  Cheap when there is nothing to take. */
void stall_check(struct sim *sim);
/* At the end of the run: take it again if the run ended stalled. */
void stall_check_end(struct sim *sim);
void stall_report_free(struct stall_report *s);
/* stall_report.* keys, when a report was taken. */
void stall_report_keys(const struct sim *sim, struct report *r);
/* The kernel-style text, when a report was taken. */
void stall_print(const struct sim *sim, FILE *f);

#endif
