/* realruns.h - runs of a scenario on a real kernel (scripts/kernel-run),
 * read back so that `rcuboost compare --real DIR` sets them beside the
 * simulated runs. */
#ifndef RCUBOOST_REALRUNS_H
#define RCUBOOST_REALRUNS_H

#include <glib.h>

struct report;

/* The real run's summary.json (DIR/run-N/summary.json) as a report with
 * the simulator's dotted keys; NULL and @error if it cannot be read. */
struct report *real_summary_load(const char *path, GError **error);

/* DIR's run-N directories, in order of N (g_free each; NULL-terminated),
 * or NULL and @error when there is none. */
char **real_run_dirs(const char *dir, GError **error);

/* A run's first boost (boost.csv), from the start of the completed grace
 * period it came in (gp.csv): read alike from a real and a simulated run,
 * as scripts/update-validation reads it.  NAN when the run boosted nobody
 * inside a completed grace period, or the files are missing. */
double run_boost_from_gp(const char *rundir);

#endif
