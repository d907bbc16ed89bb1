/* fit.c - run and sleep lengths as a scenario's distributions; periods.
 *
 * A scenario draws a length from a constant, exp(MEAN), normal(MEAN,SD),
 * lognormal(MEDIAN,SIGMA) or uniform(LO,HI) (docs/scenario-format.md).
 * Each is fitted to the recorded lengths by its usual estimates -- the
 * mean; mean and standard deviation; the median and spread of the logs;
 * the least and greatest -- and the one whose CDF lies nearest to the
 * recorded ones (the Kolmogorov-Smirnov distance, the largest gap between
 * them) is written, with every candidate's distance in a comment.
 */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>

#include "import.h"
#include "../../sim/scenario/units.h"

/* Lengths that spread less than this about their median are one constant. */
#define FIT_CONSTANT_SPREAD 0.05
/* Wake-ups this regular (robust spread of the intervals over their median)
 * are a period. */
#define PERIODIC_SPREAD 0.05

enum fit_kind { FIT_EXP, FIT_NORMAL, FIT_LOGNORMAL, FIT_UNIFORM, FIT_KINDS };
static const char *const fit_names[FIT_KINDS] = { "exp", "normal", "lognormal", "uniform" };

struct fit {
        double a, b;            /* the parameters, in ns (lognormal: log median, sigma) */
        double distance;        /* Kolmogorov-Smirnov, or INFINITY where it cannot fit */
};

static double fit_cdf(enum fit_kind k, const struct fit *f, double x)
{
        switch (k) {
        case FIT_EXP:
                return gsl_cdf_exponential_P(x, f->a);
        case FIT_NORMAL:
                return gsl_cdf_gaussian_P(x - f->a, f->b);
        case FIT_LOGNORMAL:
                return x <= 0 ? 0 : gsl_cdf_lognormal_P(x, f->a, f->b);
        default:
                return x < f->a ? 0 : x >= f->b ? 1 : (x - f->a) / (f->b - f->a);
        }
}

/* The largest gap between the recorded CDF of sorted @x and @k's. */
static double ks_distance(enum fit_kind k, const struct fit *f, const double *x, size_t n)
{
        double d = 0;

        for (size_t i = 0; i < n; i++) {
                double F = fit_cdf(k, f, x[i]);

                d = fmax(d, fmax(fabs(F - (double)i / n), fabs(F - (double)(i + 1) / n)));
        }
        return d;
}

/* Robust spread: the median absolute deviation over the median (sorted @x). */
static double relative_mad(const double *x, size_t n)
{
        double median = gsl_stats_median_from_sorted_data(x, 1, n);
        g_autofree double *dev = g_new(double, n);

        if (median <= 0)
                return INFINITY;
        for (size_t i = 0; i < n; i++)
                dev[i] = fabs(x[i] - median);
        gsl_sort(dev, 1, n);
        return gsl_stats_median_from_sorted_data(dev, 1, n) / median;
}

char *import_fit(const int64_t *ns, size_t n, char **how)
{
        g_autofree double *x = NULL;
        struct fit fits[FIT_KINDS];
        double mean, sd, median, spread;
        enum fit_kind best = FIT_EXP;
        g_autoptr(GString) others = g_string_new(NULL);
        bool positive = true;

        if (n == 0) {
                *how = g_strdup("nothing recorded: 1us");
                return g_strdup("1us");
        }
        x = g_new(double, n);
        for (size_t i = 0; i < n; i++) {
                x[i] = (double)ns[i];
                positive &= ns[i] > 0;
        }
        gsl_sort(x, 1, n);
        median = gsl_stats_median_from_sorted_data(x, 1, n);
        mean = gsl_stats_mean(x, 1, n);
        spread = relative_mad(x, n);
        if (n < 3 || spread < FIT_CONSTANT_SPREAD) {
                *how = g_strdup_printf("constant: the median of %zu, which spread %.1f%% about it", n,
                                       n < 3 ? 0 : 100 * spread);
                return units_format_duration((int64_t)llround(median));
        }
        sd = gsl_stats_sd_m(x, 1, n, mean);
        fits[FIT_EXP] = (struct fit){ .a = mean };
        fits[FIT_NORMAL] = (struct fit){ .a = mean, .b = sd };
        fits[FIT_UNIFORM] = (struct fit){ .a = x[0], .b = x[n - 1] };
        fits[FIT_LOGNORMAL] = (struct fit){ .distance = INFINITY };
        if (positive) {
                g_autofree double *logs = g_new(double, n);

                for (size_t i = 0; i < n; i++)
                        logs[i] = log(x[i]);
                fits[FIT_LOGNORMAL].a = gsl_stats_mean(logs, 1, n);
                fits[FIT_LOGNORMAL].b = gsl_stats_sd_m(logs, 1, n, fits[FIT_LOGNORMAL].a);
        }
        for (int k = 0; k < FIT_KINDS; k++) {
                /* a scenario's lognormal takes SIGMA in (0, 20]; uniform needs LO < HI */
                if ((k == FIT_LOGNORMAL && (!positive || fits[k].b <= 0 || fits[k].b > 20)) ||
                    (k == FIT_NORMAL && sd <= 0) || (k == FIT_UNIFORM && x[0] >= x[n - 1]))
                        fits[k].distance = INFINITY;
                else
                        fits[k].distance = ks_distance(k, &fits[k], x, n);
                if (fits[k].distance < fits[best].distance)
                        best = k;
        }
        for (int k = 0; k < FIT_KINDS; k++)
                if (k != (int)best && isfinite(fits[k].distance))
                        g_string_append_printf(others, "%s%s %.3f", others->len ? ", " : "", fit_names[k],
                                               fits[k].distance);
        *how = g_strdup_printf("%s: Kolmogorov-Smirnov distance %.3f over %zu (%s)", fit_names[best],
                               fits[best].distance, n, others->str);

        g_autofree char *p = NULL;
        g_autofree char *q = NULL;

        switch (best) {
        case FIT_EXP:
                p = units_format_duration((int64_t)llround(mean));
                return g_strdup_printf("exp(%s)", p);
        case FIT_NORMAL:
                p = units_format_duration((int64_t)llround(mean));
                q = units_format_duration(MAX(1, (int64_t)llround(sd)));
                return g_strdup_printf("normal(%s,%s)", p, q);
        case FIT_LOGNORMAL:
                p = units_format_duration((int64_t)llround(exp(fits[best].a)));
                return g_strdup_printf("lognormal(%s,%.3g)", p, fits[best].b);
        default:
                p = units_format_duration((int64_t)llround(x[0]));
                q = units_format_duration((int64_t)llround(x[n - 1]));
                return g_strdup_printf("uniform(%s,%s)", p, q);
        }
}

/* The largest distance of wake-up @times from the grid that fits them best
 * (least squares, GSL): a periodic task's releases stay on their grid
 * whatever delays one wake-up; a loop's sleeps carry each delay on. */
static double grid_drift(const int64_t *times, size_t n)
{
        g_autofree double *k = g_new(double, n);
        g_autofree double *t = g_new(double, n);
        double c0, c1, cov00, cov01, cov11, sumsq, worst = 0;

        for (size_t i = 0; i < n; i++) {
                k[i] = (double)i;
                t[i] = (double)(times[i] - times[0]);
        }
        gsl_fit_linear(k, 1, t, 1, n, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
        for (size_t i = 0; i < n; i++)
                worst = fmax(worst, fabs(t[i] - (c0 + c1 * k[i])));
        return worst;
}

bool import_periodic(const int64_t *times, size_t n, const int64_t *sleeps, size_t nsleeps, bool rt,
                     int64_t *period_ns, int64_t *jitter_ns)
{
        g_autofree double *iv = NULL;
        g_autofree double *sl = NULL;
        double spread, sleep_spread;

        /* five intervals at least: fewer say nothing of a period */
        if (n < 6)
                return false;
        iv = g_new(double, n - 1);
        for (size_t i = 1; i < n; i++)
                iv[i - 1] = (double)(times[i] - times[i - 1]);
        gsl_sort(iv, 1, n - 1);
        spread = relative_mad(iv, n - 1);
        *period_ns = (int64_t)llround(gsl_stats_median_from_sorted_data(iv, 1, n - 1));
        /* the MAD of a normal spread is 0.6745 of its standard deviation */
        *jitter_ns = (int64_t)llround(spread * (double)*period_ns / 0.6745);
        if (spread >= PERIODIC_SPREAD)
                return false;
        /* A real-time thread whose wake-ups never left their grid is a timer's
         * (cyclictest's); a quarter of a period off it, they were sleeps. */
        if (rt && grid_drift(times, n) < 0.25 * (double)*period_ns)
                return true;
        if (nsleeps < 3)
                return false;
        /* A loop of compute and sleep wakes as regularly when its computes do
         * not vary: a period only where the wake-ups keep time better than
         * the sleeps do (the sleeps take up what the runs leave). */
        sl = g_new(double, nsleeps);
        for (size_t i = 0; i < nsleeps; i++)
                sl[i] = (double)sleeps[i];
        gsl_sort(sl, 1, nsleeps);
        sleep_spread = relative_mad(sl, nsleeps);
        return spread < 0.5 * sleep_spread;
}
