/* timeline.h - what happened in a window of the run, for Gantt charts.
 *
 * Within [start, start + length) the engine records intervals: which task
 * ran on each CPU ("run", lane cpuN), each reader's read-side critical
 * sections ("cs", lane = task), the stretches of them spent off the CPU
 * ("blocked": preempted or waiting for a mutex), when a policy had a reader
 * boosted ("boosted"), and the grace-period machine's phases ("gp").
 * Rows go to timeline.csv as they close, so memory stays bounded whatever
 * the window.  Outside the window recording costs one comparison.
 */
#ifndef RCUBOOST_TIMELINE_H
#define RCUBOOST_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct timeline;

/* @f may be NULL (nothing recorded).  Lanes: CPUs first, then "gp", then tasks. */
struct timeline *timeline_new(FILE *f, int64_t start_ns, int64_t length_ns, int ncpus);
void timeline_free(struct timeline *tl);

/* CPU @cpu now runs @task (NULL: idle). */
void timeline_cpu(struct timeline *tl, int64_t now, int cpu, const char *task);
/* @task (lane id @id) entered / left an interval of @kind ("cs", "blocked", "boosted"). */
void timeline_begin(struct timeline *tl, int64_t now, const char *kind, int id, const char *task);
void timeline_end(struct timeline *tl, int64_t now, const char *kind, int id);
/* The grace-period machine entered @phase. */
void timeline_gp(struct timeline *tl, int64_t now, const char *phase);
/* Close every open interval at @now. */
void timeline_flush(struct timeline *tl, int64_t now);

#endif
