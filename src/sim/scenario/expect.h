/* expect.h - a scenario's [expect] section: what its runs must show.
 *
 *     [expect]
 *     none.oom=true
 *     booster.gp_latency.max<=80ms
 *     *.safety_violations=0
 *     pi-lock.readers_boosted>=1
 *
 * Each key is POLICY.METRIC (POLICY a policy name or `*` for every policy)
 * followed by an operator: `=`, `<=`, `>=`, `!=`, or `=` with a value
 * starting `<` or `>` for the strict forms (`x=<5ms`).  Values are true/false,
 * durations, sizes or plain numbers.  METRIC names a summary.json key,
 * with the usual prefixes and the `_ns` suffix optional
 * (gp_latency.max -> gp_latency.max_ns, oom -> memory.oom,
 * readers_boosted -> policy_stats.readers_boosted).  `rcuboost check` runs them.
 *
 * Over seeds: `seeds=N` runs each policy with the scenario's seed and the
 * N - 1 after it; every assertion on a metric must then hold in every run,
 * and a rate -- OUTCOME_rate with OUTCOME oom, stall, stalled_at_end or
 * unsafe (verdict.h) -- is the fraction of the runs with that outcome:
 *
 *     seeds=10
 *     none.stall_rate>=0.9
 *     rcu-boost.oom_rate<=0.8
 */
#ifndef RCUBOOST_EXPECT_H
#define RCUBOOST_EXPECT_H

#include <glib.h>
#include <stdbool.h>

struct report;
struct scenario;

enum expect_op {
        EXPECT_EQ,
        EXPECT_NE,
        EXPECT_LE,
        EXPECT_GE,
        EXPECT_LT,
        EXPECT_GT,
};

enum expect_value_kind {
        EXPECT_NUMBER,          /* a bare number: a count */
        EXPECT_BOOL,
        EXPECT_DURATION,        /* with a unit: 80ms */
        EXPECT_SIZE,            /* with a unit: 4MiB */
};

struct expectation {
        char *policy;           /* a policy name, "*", "*@rcupreempt" or "*@tree" */
        char *metric;
        enum expect_op op;
        double value;
        enum expect_value_kind kind;
        char *value_text;       /* as written */
        char *where;            /* FILE:LINE: [expect] KEY */
        int rate;               /* an outcome's rate over the seeds (enum verdict_outcome), or -1 */
};

enum expect_outcome {
        EXPECT_PASS,
        EXPECT_FAIL,
        EXPECT_NO_METRIC,       /* no such key in the summary */
        EXPECT_NO_VALUE,        /* the key is there, but null: e.g. the max of no samples */
};

/* Parse one [expect] entry: @key as GKeyFile split it, @value after '='.
 * NULL with @error (message without location) when malformed. */
struct expectation *expect_parse(const char *key, const char *value, GError **error);
void expect_free(struct expectation *x);
const char *expect_op_name(enum expect_op op);
/* Does @x name @policy: by name, `*`, or `*@FLAVOUR` (every policy whose
 * run is on that RCU flavour: @flavour, rcu_flavour_name() of the run, or
 * NULL when the policy is unknown)?  The caller names the flavour, so that
 * this parser calls nothing in the engine. */
bool expect_applies_to(const struct expectation *x, const char *policy, const char *flavour);
/* The summary key @x->metric names in @r (a thread-local buffer), or NULL. */
const char *expect_resolve(const struct expectation *x, const struct report *r);
/* The same for a metric name as [expect] writes it (sweep --metric). */
const char *expect_resolve_name(const char *metric, const struct report *r);
/* The metric name of @r closest to the unknown @metric, as an [expect]
 * line would write it; NULL when nothing is near.  Caller frees. */
/* Levenshtein distance, for "did you mean". */
guint expect_edit_distance(const char *a, const char *b);
char *expect_suggest(const char *metric, const struct report *r);
/* Before a run: does @x name a key of @r (a report of the same scenario
 * and policy), with a value of the metric's kind (a duration for *_ns, a
 * size for *_bytes)?  FALSE with @error (located, with the nearest key
 * when the name is misspelt) otherwise. */
gboolean expect_check(const struct expectation *x, const struct report *r, GError **error);
/* Look the metric up in @r (report_lookup_bound(): a maximum includes what
 * is still pending at the end) and compare.  *actual gets the value,
 * *at_least whether it is a lower bound (a pending one), and *key the
 * summary key used (NULL for EXPECT_NO_METRIC). */
enum expect_outcome expect_eval(const struct expectation *x, const struct report *r, double *actual,
                                gboolean *at_least, const char **key);
/* A rate assertion (@x->rate >= 0) over @n runs, @k of which had the outcome. */
enum expect_outcome expect_eval_rate(const struct expectation *x, int k, int n);

#endif
