/* stats.c - latency distributions in bounded memory; see stats.h. */
#include "stats.h"

#include <glib.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define NBINS (STATS_BINS_PER_DECADE * STATS_DECADES + 1)

/* All histograms share one set of bin edges: computed once, copied into
 * each (GSL's histograms own their ranges), and read from here when a
 * value is binned -- one copy stays in cache, each histogram's would not. */
static double bin_edges[NBINS + 1];

static const double *shared_ranges(void)
{
        /* Bins are updated directly below, so no GSL call here can fail. */
        static gsize done;

        if (g_once_init_enter(&done)) {
                bin_edges[0] = 0;
                for (int i = 0; i < NBINS; i++)
                        bin_edges[i + 1] = pow(10.0, (double)i / STATS_BINS_PER_DECADE);
                g_once_init_leave(&done, 1);
        }
        return bin_edges;
}

/* log10(x) for x >= 1, to within 2e-4 (a hundredth of a bin): the binary
 * exponent plus log2 of the mantissa's top 10 bits from a table.  The bin
 * is then settled by comparing with its edges, so an estimate within one
 * bin gives the exact bin.  A fraction of libm's log10(), which took 8% of
 * the reference scenario on the samples' path. */
#define MANTISSA_BITS 10
static double log2_mantissa[1 << MANTISSA_BITS];

static void init_log2_mantissa(void)
{
        static gsize done;

        if (g_once_init_enter(&done)) {
                for (int k = 0; k < (1 << MANTISSA_BITS); k++)
                        log2_mantissa[k] = log2(1 + (k + 0.5) / (1 << MANTISSA_BITS));
                g_once_init_leave(&done, 1);
        }
}

static inline double fast_log10(double x)
{
        uint64_t bits;

        memcpy(&bits, &x, sizeof(bits));
        int e = (int)((bits >> 52) & 0x7ff) - 1023;
        double l2 = e + log2_mantissa[(bits >> (52 - MANTISSA_BITS)) & ((1 << MANTISSA_BITS) - 1)];

        return l2 * 0.30102999566398120;
}

void latency_stat_init(struct latency_stat *s)
{
        init_log2_mantissa();
        s->count = 0;
        s->min_ns = 0;
        s->max_ns = 0;
        s->sum_ns = 0;
        s->hist = gsl_histogram_alloc(NBINS);
        gsl_histogram_set_ranges(s->hist, shared_ranges(), NBINS + 1);
}

void latency_stat_finish(struct latency_stat *s)
{
        if (s->hist)
                gsl_histogram_free(s->hist);
        s->hist = NULL;
}

void latency_stat_add(struct latency_stat *s, int64_t ns)
{
        if (ns < 0)
                ns = 0;
        if (s->count == 0 || ns < s->min_ns)
                s->min_ns = ns;
        if (s->count == 0 || ns > s->max_ns)
                s->max_ns = ns;
        s->count++;
        s->sum_ns += (double)ns;
        /* The bins are log-spaced, so the index is a logarithm away, not a
         * search (gsl_histogram_increment would bisect the ranges).  The
         * rounding of log10 can be one bin off; the edges settle it. */
        size_t i = 0;

        if (ns >= 1) {
                double x = (double)ns;
                const double *r = bin_edges;    /* == s->hist->range: set up by latency_stat_init() */

                i = 1 + (size_t)(fast_log10(x) * STATS_BINS_PER_DECADE);
                if (i >= NBINS)
                        i = NBINS - 1;  /* past the top edge: the last bin (max is exact) */
                else if (x < r[i])
                        i--;
                else if (i + 1 < NBINS && x >= r[i + 1])
                        i++;
        }
        s->hist->bin[i] += 1;
}

int64_t latency_stat_quantile(const struct latency_stat *s, double q)
{
        double target, cum = 0, x = 0;

        if (s->count == 0)
                return 0;
        if (q <= 0)
                return s->min_ns;
        if (q >= 1)
                return s->max_ns;
        /* Walk the cumulative counts; interpolate linearly inside the bin. */
        target = q * (double)s->count;
        for (size_t i = 0; i < NBINS; i++) {
                double n = s->hist->bin[i];

                if (n > 0 && cum + n >= target) {
                        double lo = s->hist->range[i], hi = s->hist->range[i + 1];

                        x = lo + (hi - lo) * (target - cum) / n;
                        break;
                }
                cum += n;
        }
        if (x < (double)s->min_ns)
                return s->min_ns;
        if (x > (double)s->max_ns)
                return s->max_ns;
        return (int64_t)llround(x);
}

double latency_stat_mean(const struct latency_stat *s)
{
        return s->count ? s->sum_ns / (double)s->count : 0;
}

void latency_stat_write_bins(const struct latency_stat *s, FILE *f, const char *prefix)
{
        double total = gsl_histogram_sum(s->hist), cum = 0;

        for (size_t i = 0; i < NBINS; i++) {
                double lo, hi;
                double n = gsl_histogram_get(s->hist, i);

                if (n == 0)
                        continue;
                gsl_histogram_get_range(s->hist, i, &lo, &hi);
                /* The exact extremes are known: keep the edges inside them. */
                lo = MAX(lo, (double)s->min_ns);
                hi = MIN(hi, (double)s->max_ns);
                fprintf(f, "%s,%.0f,%.0f,%.0f,%.6f,%.6f\n", prefix, ceil(lo), ceil(MAX(hi, lo)), n,
                        cum / total, (cum + n) / total);
                cum += n;
        }
}
