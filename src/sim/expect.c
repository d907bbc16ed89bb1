/* expect.c - a scenario's [expect] section; see expect.h. */
#include "expect.h"

#include <string.h>

#include "report.h"
#include "units.h"
#include "../policies/policy.h"

static gboolean parse_value(const char *s, double *out, GError **error)
{
        int64_t v;

        if (!g_ascii_strcasecmp(s, "true")) {
                *out = 1;
                return TRUE;
        }
        if (!g_ascii_strcasecmp(s, "false")) {
                *out = 0;
                return TRUE;
        }
        if (units_parse_double(s, -1e300, 1e300, out, NULL))
                return TRUE;
        if (units_parse_duration(s, &v, NULL) || units_parse_size(s, &v, NULL)) {
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
        if (strcmp(k, "*") != 0 && !policy_find(k)) {
                g_set_error(error, UNITS_ERROR, UNITS_ERROR_INVALID,
                            "unknown policy '%s' (expected * or one of: %s)", k, policy_names());
                return NULL;
        }
        x = g_new0(struct expectation, 1);
        x->policy = g_strdup(k);
        x->metric = g_strdup(dot + 1);
        x->op = op;
        x->value_text = g_strdup(g_strstrip((char *)val));
        if (!parse_value(x->value_text, &x->value, error)) {
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

bool expect_applies_to(const struct expectation *x, const char *policy)
{
        return !strcmp(x->policy, "*") || !strcmp(x->policy, policy);
}

bool expect_eval(const struct expectation *x, const struct report *r, double *actual, const char **key)
{
        static const char *const prefixes[] = { "", "policy_stats.", "memory.", "rcu.", "sched.", "rt." };
        static const char *const suffixes[] = { "", "_ns", "_bytes" };
        static char found[256];

        *key = NULL;
        for (size_t i = 0; i < G_N_ELEMENTS(prefixes) && !*key; i++) {
                for (size_t j = 0; j < G_N_ELEMENTS(suffixes) && !*key; j++) {
                        g_snprintf(found, sizeof(found), "%s%s%s", prefixes[i], x->metric, suffixes[j]);
                        if (report_lookup(r, found, actual))
                                *key = found;
                }
        }
        if (!*key)
                return false;
        switch (x->op) {
        case EXPECT_EQ: return *actual == x->value;
        case EXPECT_NE: return *actual != x->value;
        case EXPECT_LE: return *actual <= x->value;
        case EXPECT_GE: return *actual >= x->value;
        case EXPECT_LT: return *actual < x->value;
        case EXPECT_GT: return *actual > x->value;
        }
        return false;
}
