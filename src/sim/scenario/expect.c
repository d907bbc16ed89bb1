/* expect.c - a scenario's [expect] section; see expect.h. */
#include "expect.h"

#include <math.h>
#include <string.h>

#include "../../policies/policy.h"
#include "../output/report.h"
#include "../output/verdict.h"
#include "units.h"

static gboolean parse_value(const char *s, double *out, enum expect_value_kind *kind, GError **error)
{
        int64_t v;

        if (!g_ascii_strcasecmp(s, "true") || !g_ascii_strcasecmp(s, "false")) {
                *out = !g_ascii_strcasecmp(s, "true");
                *kind = EXPECT_BOOL;
                return TRUE;
        }
        if (units_parse_double(s, -1e300, 1e300, out, NULL)) {
                *kind = EXPECT_NUMBER;
                return TRUE;
        }
        if (units_parse_duration(s, &v, NULL) || units_parse_size(s, &v, NULL)) {
                *kind = units_parse_duration(s, &v, NULL) ? EXPECT_DURATION : EXPECT_SIZE;
                *out = (double)v;
                return TRUE;
        }
        g_set_error(error, UNITS_ERROR, UNITS_ERROR_INVALID,
                    "'%s' is not a value (expected true, false, a number, a duration such as 80ms "
                    "or a size such as 4MiB)", s);
        return FALSE;
}

struct expectation *expect_parse(const char *key, const char *value, GError **error)
{
        g_autofree char *k = g_strstrip(g_strdup(key));
        g_autofree char *v = g_strstrip(g_strdup(value));
        size_t n = strlen(k);
        enum expect_op op = EXPECT_EQ;
        const char *val = v;
        char *dot;
        struct expectation *x;

        /* GKeyFile splits "a<=b" at the '=': the operator's head ends the key. */
        if (n && strchr("<>!", k[n - 1])) {
                op = k[n - 1] == '<' ? EXPECT_LE : k[n - 1] == '>' ? EXPECT_GE : EXPECT_NE;
                k[--n] = '\0';
                g_strchomp(k);
        } else if (*val == '<' || *val == '>') {
                op = *val == '<' ? EXPECT_LT : EXPECT_GT;
                val++;
        }
        dot = strchr(k, '.');
        if (!dot || dot == k || !dot[1]) {
                g_set_error(error, UNITS_ERROR, UNITS_ERROR_INVALID,
                            "expected POLICY.METRIC OP VALUE, e.g. booster.gp_latency.max<=80ms");
                return NULL;
        }
        *dot = '\0';
        if (strcmp(k, "*") != 0 && strcmp(k, "*@rcupreempt") != 0 && strcmp(k, "*@tree") != 0 &&
            !policy_find(k)) {
                g_set_error(error, UNITS_ERROR, UNITS_ERROR_INVALID,
                            "unknown policy '%s' (expected *, *@rcupreempt, *@tree or one of: %s)", k,
                            policy_names());
                return NULL;
        }
        x = g_new0(struct expectation, 1);
        x->policy = g_strdup(k);
        x->metric = g_strdup(dot + 1);
        x->op = op;
        x->value_text = g_strdup(g_strstrip((char *)val));
        if (!parse_value(x->value_text, &x->value, &x->kind, error)) {
                expect_free(x);
                return NULL;
        }
        x->rate = verdict_rate_of(x->metric);
        if (x->rate >= 0 && (x->kind != EXPECT_NUMBER || x->value < 0 || x->value > 1)) {
                g_set_error(error, UNITS_ERROR, UNITS_ERROR_INVALID,
                            "'%s': a rate is a fraction from 0 to 1 of the runs (seeds=N), e.g. %s.%s>=0.9",
                            x->value_text, x->policy, x->metric);
                expect_free(x);
                return NULL;
        }
        return x;
}

void expect_free(struct expectation *x)
{
        if (!x)
                return;
        g_free(x->policy);
        g_free(x->metric);
        g_free(x->value_text);
        g_free(x->where);
        g_free(x);
}

const char *expect_op_name(enum expect_op op)
{
        static const char *const names[] = { "=", "!=", "<=", ">=", "<", ">" };

        return names[op];
}

bool expect_applies_to(const struct expectation *x, const char *policy, const char *flavour)
{
        if (!strncmp(x->policy, "*@", 2))
                return flavour && !strcmp(x->policy + 2, flavour);
        return !strcmp(x->policy, "*") || !strcmp(x->policy, policy);
}

static const char *const prefixes[] = { "", "policy_stats.", "memory.", "rcu.", "sched.", "rt." };
static const char *const suffixes[] = { "", "_ns", "_bytes" };

/* Thread-local: check and compare run their policies in parallel. */
static _Thread_local char found[256];

const char *expect_resolve_name(const char *metric, const struct report *r)
{
        for (size_t i = 0; i < G_N_ELEMENTS(prefixes); i++) {
                for (size_t j = 0; j < G_N_ELEMENTS(suffixes); j++) {
                        g_snprintf(found, sizeof(found), "%s%s%s", prefixes[i], metric, suffixes[j]);
                        if (report_has(r, found))
                                return found;
                }
        }
        return NULL;
}

const char *expect_resolve(const struct expectation *x, const struct report *r)
{
        return expect_resolve_name(x->metric, r);
}

guint expect_edit_distance(const char *a, const char *b)
{
        size_t n = strlen(b);
        g_autofree guint *row = g_new(guint, n + 1);

        for (size_t j = 0; j <= n; j++)
                row[j] = (guint)j;
        for (size_t i = 1; a[i - 1]; i++) {
                guint diag = row[0];

                row[0] = (guint)i;
                for (size_t j = 1; j <= n; j++) {
                        guint up = row[j];

                        row[j] = MIN(MIN(row[j] + 1, row[j - 1] + 1), diag + (a[i - 1] != b[j - 1]));
                        diag = up;
                }
        }
        return row[n];
}

char *expect_suggest(const char *metric, const struct report *r)
{
        g_autoptr(GPtrArray) keys = report_keys(r);
        char *best = NULL;
        guint best_d = G_MAXUINT;

        for (guint k = 0; k < keys->len; k++) {
                const char *key = keys->pdata[k];

                for (size_t i = 0; i < G_N_ELEMENTS(prefixes); i++) {
                        g_autofree char *shown = NULL;
                        guint d;

                        if (!g_str_has_prefix(key, prefixes[i]))
                                continue;
                        shown = g_strdup(key + strlen(prefixes[i]));
                        if (g_str_has_suffix(shown, "_ns") && !g_str_has_suffix(metric, "_ns"))
                                shown[strlen(shown) - 3] = '\0';
                        d = expect_edit_distance(metric, shown);
                        if (d < best_d) {
                                best_d = d;
                                g_free(best);
                                best = g_steal_pointer(&shown);
                        }
                }
        }
        /* A suggestion only for a near miss, not for anything at all. */
        if (best && best_d > MAX(2u, (guint)strlen(metric) / 3))
                g_clear_pointer(&best, g_free);
        return best;
}

gboolean expect_check(const struct expectation *x, const struct report *r, GError **error)
{
        const char *key;

        if (x->rate >= 0)
                return TRUE;    /* over the runs, not a summary key */
        key = expect_resolve(x, r);

        if (!key) {
                g_autofree char *near = expect_suggest(x->metric, r);

                g_set_error(error, UNITS_ERROR, UNITS_ERROR_INVALID,
                            "%s: no metric '%s' in summary.json%s%s%s", x->where, x->metric,
                            near ? " (did you mean " : " (docs/outputs.md lists them)", near ? near : "",
                            near ? "?)" : "");
                return FALSE;
        }
        /* 35 on a duration would silently mean 35 ns. */
        if (g_str_has_suffix(key, "_ns") && x->kind != EXPECT_DURATION && x->value != 0) {
                g_set_error(error, UNITS_ERROR, UNITS_ERROR_INVALID,
                            "%s: '%s': missing unit (%s is a duration: write e.g. %sms)", x->where,
                            x->value_text, key, x->value_text);
                return FALSE;
        }
        if (g_str_has_suffix(key, "_bytes") && x->kind != EXPECT_SIZE && x->value != 0) {
                g_set_error(error, UNITS_ERROR, UNITS_ERROR_INVALID,
                            "%s: '%s': missing unit (%s is a size: write e.g. %sMiB)", x->where,
                            x->value_text, key, x->value_text);
                return FALSE;
        }
        if (!g_str_has_suffix(key, "_ns") && !g_str_has_suffix(key, "_bytes") &&
            (x->kind == EXPECT_DURATION || x->kind == EXPECT_SIZE)) {
                g_set_error(error, UNITS_ERROR, UNITS_ERROR_INVALID,
                            "%s: '%s': %s is a count, not a %s", x->where, x->value_text, key,
                            x->kind == EXPECT_DURATION ? "duration" : "size");
                return FALSE;
        }
        return TRUE;
}

static bool compare_value(enum expect_op op, double actual, double value)
{
        switch (op) {
        case EXPECT_EQ: return actual == value;
        case EXPECT_NE: return actual != value;
        case EXPECT_LE: return actual <= value;
        case EXPECT_GE: return actual >= value;
        case EXPECT_LT: return actual < value;
        case EXPECT_GT: return actual > value;
        }
        return false;
}

enum expect_outcome expect_eval_rate(const struct expectation *x, int k, int n)
{
        /* k against the fraction of n, with 0.9 x 10 taken as 9 exactly */
        double d = k - x->value * n;

        if (fabs(d) < 1e-9 * n)
                d = 0;
        return compare_value(x->op, d, 0) ? EXPECT_PASS : EXPECT_FAIL;
}

enum expect_outcome expect_eval(const struct expectation *x, const struct report *r, double *actual,
                                gboolean *at_least, const char **key)
{
        *at_least = FALSE;
        *key = expect_resolve(x, r);
        if (!*key)
                return EXPECT_NO_METRIC;
        /* A maximum counts what is still pending at the end: no stall passes
         * an upper bound by never completing. */
        if (!report_lookup_bound(r, *key, actual, at_least))
                return EXPECT_NO_VALUE;
        return compare_value(x->op, *actual, x->value) ? EXPECT_PASS : EXPECT_FAIL;
}
