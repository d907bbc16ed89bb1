/* report.h - a run's results as an ordered set of dotted keys.
 *
 * The engine and the policy put every number they report here
 * ("gp_latency.p99_ns", "policy_stats.boosted"); summary.json is written from it,
 * nesting objects by the dots, and later tools (check, sweep) read the same
 * keys.  Keys sharing a prefix must be added together, in the order they
 * should appear.
 */
#ifndef RCUBOOST_REPORT_H
#define RCUBOOST_REPORT_H

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"

struct report;

struct report *report_new(void);
void report_free(struct report *r);

void report_int(struct report *r, const char *key, int64_t v);
void report_double(struct report *r, const char *key, double v);
void report_bool(struct report *r, const char *key, gboolean v);
void report_string(struct report *r, const char *key, const char *v);
/* A value that does not exist (e.g. the max of no samples): null in JSON. */
void report_null(struct report *r, const char *key);
/* count, min, mean, p50, p90, p99, p999, max under PREFIX (all in ns;
 * null but the count when there are no samples).
 * The stat is also remembered, for report_write_distributions(), and must
 * outlive that call. */
void report_latency(struct report *r, const char *prefix, const struct latency_stat *s);

/* Value of @key as a double (booleans are 0/1); FALSE when absent, null
 * or a string. */
gboolean report_lookup(const struct report *r, const char *key, double *out);
/* The value of @key as a figure may show it: a maximum is never read
 * without what was still pending when the run ended.  For the maxima that
 * have a pending counterpart (gp_latency.max_ns and rcu.gp_max_at_least_ns:
 * the grace period in progress; flip_latency.max_ns: the flip;
 * callback_latency.max_ns and sync_latency.max_ns: the oldest callback or
 * synchronize_rcu() still waiting), the larger of the two, with *at_least
 * set when the pending one is larger (the value is then a lower bound).
 * Any other key reads as report_lookup() with *at_least FALSE.  FALSE when
 * there is neither value.  The one rule compare, check, sweep and [expect]
 * use. */
gboolean report_lookup_bound(const struct report *r, const char *key, double *out, gboolean *at_least);
/* The key holding what is pending at the end for the maximum @key, or NULL. */
const char *report_pending_key(const char *key);
/* The string value of @key, or NULL (absent, null or not a string). */
const char *report_lookup_string(const struct report *r, const char *key);
/* Is @key there at all (null included)? */
gboolean report_has(const struct report *r, const char *key);
/* Every key, in order (the strings belong to @r). */
GPtrArray *report_keys(const struct report *r);

void report_write_json(const struct report *r, FILE *f);
/* Every latency given to report_latency(), as histogram bins with the CDF:
 * metric,lo_ns,hi_ns,count,cdf_lo,cdf (see latency_stat_write_bins). */
void report_write_distributions(const struct report *r, FILE *f);

/* For g_autoptr(); the code itself says struct report. */
typedef struct report RcbReport;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RcbReport, report_free)

#endif
