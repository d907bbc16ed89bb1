/* stats.h - latency distributions in bounded memory.
 *
 * Every latency the simulator reports (grace periods, callbacks,
 * synchronize_rcu, RT wake-ups, boost delays) goes into a latency_stat: exact
 * count, min, max and mean, plus a GSL histogram with 40 log-spaced bins per
 * decade from 1 ns to 10^13 ns (about 2.8 hours) and one bin for zero.
 * Percentiles come from the histogram's cumulative counts (linear within a bin),
 * clamped to the exact min and max, so a reported percentile is within one
 * bin, i.e. within 5.9% relative error, of the exact value.  Memory is fixed
 * (about 8 KiB per stat) whatever the run's length.
 */
#ifndef RCUBOOST_STATS_H
#define RCUBOOST_STATS_H

#include <gsl/gsl_histogram.h>
#include <stdint.h>
#include <stdio.h>

#define STATS_BINS_PER_DECADE 40
#define STATS_DECADES 13

struct latency_stat {
        uint64_t count;
        int64_t min_ns;
        int64_t max_ns;
        double sum_ns;
        gsl_histogram *hist;
};

void latency_stat_init(struct latency_stat *s);
void latency_stat_finish(struct latency_stat *s);
void latency_stat_add(struct latency_stat *s, int64_t ns);
/* @q in [0, 1]; 0 for an empty stat. */
int64_t latency_stat_quantile(const struct latency_stat *s, double q);
double latency_stat_mean(const struct latency_stat *s);
/* One CSV row per non-empty bin: PREFIX,lo_ns,hi_ns,count,cdf_lo,cdf --
 * the fraction of values below the bin and up to its top (edges clamped
 * to the exact min and max), so the CDF is the line (lo,cdf_lo)-(hi,cdf). */
void latency_stat_write_bins(const struct latency_stat *s, FILE *f, const char *prefix);

#endif
