/* verdict.c - rates, intervals and paired tests over seeds; see verdict.h. */
#include "verdict.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>

#include "report.h"

void verdict_wilson(int k, int n, double *lo, double *hi)
{
        const double z = gsl_cdf_ugaussian_Pinv(0.975);
        double p = (double)k / n, z2n = z * z / n;
        double centre = (p + z2n / 2) / (1 + z2n);
        double half = z * sqrt(p * (1 - p) / n + z2n / (4.0 * n)) / (1 + z2n);

        /* At 0/n and n/n the bound is exactly 0 or 1; rounding must not say 1e-17. */
        *lo = k == 0 ? 0 : centre - half;
        *hi = k == n ? 1 : centre + half;
}

double verdict_sign_test(int better, int worse)
{
        int n = better + worse;

        if (n == 0)
                return 1;
        return MIN(1.0, 2 * gsl_cdf_binomial_P((unsigned)MIN(better, worse), 0.5, (unsigned)n));
}

int verdict_order(double a, bool a_at_least, double b, bool b_at_least)
{
        if (isnan(a) || isnan(b) || (a_at_least && b_at_least))
                return 0;
        if (a_at_least)         /* a is a or more: worse only if already above b */
                return a > b ? 1 : 0;
        if (b_at_least)
                return b > a ? -1 : 0;
        return (a > b) - (a < b);
}

bool verdict_spread(const double *values, const bool *at_least, int n, struct verdict_spread *out)
{
        g_autofree double *v = g_new(double, MAX(n, 1));
        g_autofree size_t *order = g_new(size_t, MAX(n, 1));
        g_autofree bool *bound = g_new0(bool, MAX(n, 1));
        int m = 0;

        for (int i = 0; i < n; i++) {
                if (isnan(values[i]))
                        continue;
                bound[m] = at_least && at_least[i];
                v[m++] = values[i];
        }
        *out = (struct verdict_spread){ .n = m, .median = NAN, .min = NAN, .max = NAN };
        if (m == 0)
                return false;
        gsl_sort_index(order, v, 1, (size_t)m);
        double *sorted = g_new(double, m);

        for (int i = 0; i < m; i++)
                sorted[i] = v[order[i]];
        out->median = gsl_stats_median_from_sorted_data(sorted, 1, (size_t)m);
        out->min = sorted[0];
        out->max = sorted[m - 1];
        g_free(sorted);
        /* A figure is marked a lower bound only when it is one itself (#48):
         * the maximum when a run at the maximum is a bound, the minimum when
         * every run at the minimum is, the median when a run it is taken from
         * is.  A bound elsewhere could have grown past them, but what is
         * printed is what the runs measured, each figure as its runs had it. */
        out->min_at_least = true;
        for (int i = 0; i < m; i++) {
                bool b = bound[order[i]];

                if (v[order[i]] == out->max && b)
                        out->max_at_least = true;
                if (b && (i == m / 2 || (m % 2 == 0 && i == m / 2 - 1)))
                        out->median_at_least = true;
                if (v[order[i]] == out->min && !b)
                        out->min_at_least = false;
        }
        return true;
}

int verdict_two_groups(const double *values, int n, double floor, double *cut)
{
        g_autofree double *v = g_new(double, MAX(n, 1));
        int m = 0, at = -1;
        double widest = 0;

        for (int i = 0; i < n; i++)
                if (!isnan(values[i]))
                        v[m++] = values[i];
        if (m < 2)
                return 0;
        gsl_sort(v, 1, (size_t)m);
        for (int i = 0; i + 1 < m; i++) {
                double step = (v[i + 1] + floor) / (v[i] + floor);

                if (step > widest) {
                        widest = step;
                        at = i;
                }
        }
        int low = at + 1, fewest = MAX(1, m / 5);

        if (widest < VERDICT_GROUP_RATIO || MIN(low, m - low) < fewest)
                return 0;
        *cut = v[at];
        return low;
}

void verdict_poisson(int k, double *lo, double *hi)
{
        *lo = k > 0 ? gsl_cdf_chisq_Pinv(0.025, 2.0 * k) / 2 : 0;
        *hi = gsl_cdf_chisq_Pinv(0.975, 2.0 * k + 2) / 2;
}

/* two significant figures, without an exponent: 0.37, 9.8, 980, 2900 */
static char *per_hour(double x)
{
        return x >= 100 ? g_strdup_printf("%.0f", x) : g_strdup_printf("%.2g", x);
}

char *verdict_format_per_hour(int k, double seconds)
{
        double lo, hi, h = seconds / 3600;

        if (!(seconds > 0))
                return g_strdup("-");
        g_autofree char *in = seconds >= 10 ? g_strdup_printf("%.0f s", seconds) : g_strdup_printf("%.3g s", seconds);

        verdict_poisson(k, &lo, &hi);
        g_autofree char *r = per_hour(k / h), *l = per_hour(lo / h), *u = per_hour(hi / h);

        if (k == 0)
                return g_strdup_printf("0 in %s (< %s/h)", in, u);
        return g_strdup_printf("%d in %s: %s/h (%s-%s)", k, in, r, l, u);
}

char *verdict_format_rate(int k, int n)
{
        double lo, hi;

        if (n == 0)
                return g_strdup("-");
        verdict_wilson(k, n, &lo, &hi);
        return g_strdup_printf("%d/%d (%.0f-%.0f%%)", k, n, 100 * lo, 100 * hi);
}

char *verdict_format_paired(int better, int worse, int n)
{
        int tied = n - better - worse;
        double p = verdict_sign_test(better, worse);
        GString *s = g_string_new(NULL);

        if (better == 0 && worse == 0)
                return g_strdup_printf("tied in %d of %d", n, n);
        /* paired seeds are not paired luck: where timing decides, the sign
         * test is what tells a difference from chance, and says so (#48) */
        if (p > 0.05)
                g_string_append(s, "no clear difference: ");
        if (better >= worse)
                g_string_append_printf(s, "better in %d of %d (", better, n);
        else
                g_string_append_printf(s, "worse in %d of %d (", worse, n);
        if (better >= worse && worse)
                g_string_append_printf(s, "worse in %d; ", worse);
        if (better < worse && better)
                g_string_append_printf(s, "better in %d; ", better);
        if (tied)
                g_string_append_printf(s, "%d tied; ", tied);
        g_string_append_printf(s, "p = %.2g)", p);
        return g_string_free(s, FALSE);
}

static const char *const outcome_names[VERDICT_OUTCOMES] = { "oom", "stall", "stalled_at_end", "unsafe",
                                                               "stall_unknown" };

const char *verdict_outcome_name(enum verdict_outcome o)
{
        return outcome_names[o];
}

static double value_or_zero(const struct report *r, const char *key)
{
        double v;

        return report_lookup(r, key, &v) ? v : 0;
}

void verdict_outcomes(const struct report *r, bool out[VERDICT_OUTCOMES])
{
        double thr = value_or_zero(r, "rcu.stall_threshold_ns");

        out[VERDICT_OOM] = value_or_zero(r, "memory.oom") != 0;
        /* a callback can wait with no grace period even started (rcu_preempt starved) */
        out[VERDICT_STALL] = value_or_zero(r, "rcu.gp_over_threshold") + value_or_zero(r, "rcu.callbacks_over_threshold") +
                             value_or_zero(r, "rcu.sync_over_threshold") > 0;
        out[VERDICT_STALLED_AT_END] = value_or_zero(r, "rcu.gp_in_progress_ns") > thr ||
                                      value_or_zero(r, "rcu.oldest_callback_pending_ns") > thr ||
                                      value_or_zero(r, "rcu.oldest_sync_pending_ns") > thr;
        out[VERDICT_UNSAFE] = value_or_zero(r, "safety_violations") > 0;
        /* "stall 0/10" beside "out of memory 9/10" read as no stall where the
         * out-of-memory ended each run before its pending wait could pass
         * the threshold (#48): such a run's stall is unknown, not absent */
        out[VERDICT_STALL_UNKNOWN] = out[VERDICT_OOM] && !out[VERDICT_STALL] &&
                                     (value_or_zero(r, "rcu.gp_in_progress_ns") > 0 ||
                                      value_or_zero(r, "rcu.oldest_callback_pending_ns") > 0 ||
                                      value_or_zero(r, "rcu.oldest_sync_pending_ns") > 0);
}

int verdict_rate_of(const char *metric)
{
        for (int o = 0; o < VERDICT_OUTCOMES; o++)
                if (g_str_has_suffix(metric, "_rate") && strlen(metric) == strlen(outcome_names[o]) + 5 &&
                    !strncmp(metric, outcome_names[o], strlen(outcome_names[o])))
                        return o;
        return -1;
}
