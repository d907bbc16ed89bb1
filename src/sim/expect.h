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
 */
#ifndef RCUBOOST_EXPECT_H
#define RCUBOOST_EXPECT_H

#include <glib.h>
#include <stdbool.h>

struct report;

enum expect_op {
        EXPECT_EQ,
        EXPECT_NE,
        EXPECT_LE,
        EXPECT_GE,
        EXPECT_LT,
        EXPECT_GT,
};

struct expectation {
        char *policy;           /* a policy name, or "*" */
        char *metric;
        enum expect_op op;
        double value;
        char *value_text;       /* as written */
        char *where;            /* FILE:LINE: [expect] KEY */
};

/* Parse one [expect] entry: @key as GKeyFile split it, @value after '='.
 * NULL with @error (message without location) when malformed. */
struct expectation *expect_parse(const char *key, const char *value, GError **error);
void expect_free(struct expectation *x);
const char *expect_op_name(enum expect_op op);
bool expect_applies_to(const struct expectation *x, const char *policy);
/* Look the metric up in @r and compare.  *actual gets the value and
 * *key the summary key used (NULL, and FALSE, when no such metric). */
bool expect_eval(const struct expectation *x, const struct report *r, double *actual, const char **key);

#endif
