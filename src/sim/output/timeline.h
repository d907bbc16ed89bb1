/* timeline.h - what happened in a window of the run, for Gantt charts.
 *
 * Within [start, start + length) the engine records intervals: which task
 * ran on each CPU ("run", lane cpuN), each reader's read-side critical
 * sections ("cs", lane = task), the stretches of them spent off the CPU
 * ("blocked": preempted or waiting for a mutex), when a policy had a reader
 * boosted ("boosted"), and the grace-period machine's phases ("gp").
 * Rows go to timeline.csv as they close, so memory stays bounded whatever
 * the window.  Outside the window recording costs one comparison.
 *
 * The same intervals can be written as a Chrome trace-event JSON file
 * (`run --trace`), which Perfetto's UI and chrome://tracing open as they
 * are: a track per CPU, the grace-period machine, each reader's critical
 * sections and boosts, and a counter of the memory waiting on RCU.  Two
 * timelines can be chained so that the engine reports each interval once.
 *
 * Or as ftrace text (`run --trace FILE.txt`): the kernel's own tracepoint
 * lines (sched_switch, sched_wakeup, sched_pi_setprio, rcu_grace_period,
 * rcu_preempt_task, rcu_unlock_preempted_task), which the engine reports
 * with timeline_tracepoint() and the other formats ignore.
 */
#ifndef RCUBOOST_TIMELINE_H
#define RCUBOOST_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct timeline;

enum timeline_format {
        TIMELINE_CSV,
        TIMELINE_CHROME_JSON,
        TIMELINE_FTRACE,
        TIMELINE_TRACEDAT,      /* trace-cmd's trace.dat (tracedat.c), written at the flush */
};

/* @f may be NULL (nothing recorded). */
struct timeline *timeline_new(FILE *f, enum timeline_format format, int64_t start_ns, int64_t length_ns,
                              int ncpus);
/* Also report everything to @next (owned by @tl from now on). */
void timeline_chain(struct timeline *tl, struct timeline *next);
/* Does any timeline of the chain write to a file?  If none does, callers
 * skip the calls: finding a task's name is a cache miss on a cold line. */
bool timeline_recording(const struct timeline *tl);
void timeline_free(struct timeline *tl);

/* CPU @cpu now runs @task (NULL: idle). */
void timeline_cpu(struct timeline *tl, int64_t now, int cpu, const char *task);
/* @task (lane id @id) entered / left an interval of @kind ("cs", "blocked", "boosted"). */
void timeline_begin(struct timeline *tl, int64_t now, const char *kind, int id, const char *task);
void timeline_end(struct timeline *tl, int64_t now, const char *kind, int id);
/* The grace-period machine entered @phase. */
void timeline_gp(struct timeline *tl, int64_t now, const char *phase);
/* @task's priority moved from @old_prio to @new_prio (kernel values) on @cpu:
 * a "prio" row (start = end), CSV only, for the timeline plot's marks. */
void timeline_prio(struct timeline *tl, int64_t now, int cpu, const char *task, int old_prio, int new_prio);
/* A sampled value (Chrome JSON counter track; ignored in CSV). */
void timeline_counter(struct timeline *tl, int64_t now, const char *name, int64_t value);
/* A tracepoint line as the kernel prints it: on @cpu, where @comm-@pid
 * runs, @event with its @fields (ftrace text only). */
void timeline_tracepoint(struct timeline *tl, int64_t now, int cpu, const char *comm, int pid,
                         const char *event, const char *fields);
/* Close every open interval at @now and finish the file's syntax. */
void timeline_flush(struct timeline *tl, int64_t now);

#endif
