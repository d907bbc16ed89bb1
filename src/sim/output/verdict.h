/* verdict.h - what a set of seeded runs shows, rather than what one seed did.
 *
 * One seed is one draw of the scenario's random streams: whether a reader
 * is inside its critical section when the hog arrives can be that draw's
 * luck.  A claim about a policy is therefore made over N runs with seeds
 * S..S+N-1, paired across policies (the same seed gives every policy the
 * same streams), and stated the way simulation papers state it:
 *
 * - an outcome (out of memory, a stall, ...) as a rate k/n with its 95%
 *   Wilson score interval, which keeps to [0, 1] and stays honest at 0/n
 *   and n/n where the normal approximation collapses;
 * - a continuous figure (peak memory, the longest grace period) as the
 *   median over the runs with its range; a value that is only a lower
 *   bound (a grace period still pending at the end: ">= 2.67 s") makes the
 *   median or the range's end a lower bound when it can move them;
 * - one policy against another as a paired sign test: in how many seeds it
 *   was better, worse or tied, and the exact two-sided binomial p-value of
 *   a split at least that uneven if either were equally likely (ties, and
 *   pairs that lower bounds leave undecided, left out).
 *
 * The numbers come from GSL (gsl_cdf_binomial_P, gsl_cdf_ugaussian_Pinv,
 * gsl_sort); docs/plots.md says how to read them.
 */
#ifndef RCUBOOST_VERDICT_H
#define RCUBOOST_VERDICT_H

#include <glib.h>
#include <stdbool.h>

struct report;

/* What one run shows, as a set of outcomes a rate is taken over. */
enum verdict_outcome {
        VERDICT_OOM,            /* memory.oom */
        VERDICT_STALL,          /* rcutorture's failure: a grace period, callback or
                                 * synchronize_rcu() waited longer than stall_threshold,
                                 * what was still waiting at the end included */
        VERDICT_STALLED_AT_END, /* one was still waiting at the end, past stall_threshold */
        VERDICT_UNSAFE,         /* the safety oracle saw a violation */
        VERDICT_STALL_UNKNOWN,  /* no stall, but out of memory with a grace period,
                                 * callback or synchronize_rcu() still waiting: the run
                                 * ended before its wait could pass stall_threshold */
        VERDICT_OUTCOMES
};
/* "oom", "stall", "stalled_at_end", "unsafe", "stall_unknown" */
const char *verdict_outcome_name(enum verdict_outcome o);
/* The outcomes of a run from its report (summary.json's keys). */
void verdict_outcomes(const struct report *r, bool out[VERDICT_OUTCOMES]);
/* The outcome a rate metric names ("oom_rate" -> VERDICT_OOM), or -1. */
int verdict_rate_of(const char *metric);

/* The exact (Garwood) 95% interval of a Poisson mean, @k events seen:
 * chi-square quantiles, 0 below for k = 0. */
void verdict_poisson(int k, double *lo, double *hi);
/* A rare event as a rate a user can quote (#58): "0 in 6000 s (< 2.2/h)",
 * "3 in 6000 s: 1.8/h (0.37-5.3)" -- @k events in @seconds simulated, per
 * hour with the exact 95% interval (the bound of it when none was seen). */
char *verdict_format_per_hour(int k, double seconds);

/* The 95% Wilson score interval of @k successes in @n trials (n > 0). */
void verdict_wilson(int k, int n, double *lo, double *hi);

/* The exact two-sided sign-test p-value of @better against @worse (ties
 * already left out): 2 P(X <= min) for X ~ Binomial(better + worse, 1/2),
 * at most 1; 1 when both are 0. */
double verdict_sign_test(int better, int worse);

/* Which of two figures where smaller is better is the better one: -1 when
 * @a is, +1 when @b is, 0 when they tie or cannot be told apart.  A value
 * with its *_at_least set is a lower bound: it loses to a smaller exact
 * value, and nothing is decided against a larger one or another bound. */
int verdict_order(double a, bool a_at_least, double b, bool b_at_least);

/* The median and range of the measured values (NAN ones, runs that
 * measured nothing, are left out).  @at_least may be NULL.  A figure's
 * *_at_least says the figure itself is a lower bound: a run it is taken
 * from was still waiting at the end. */
struct verdict_spread {
        int n;                  /* values that were measured */
        double median, min, max;
        bool median_at_least, min_at_least, max_at_least;
};
bool verdict_spread(const double *values, const bool *at_least, int n, struct verdict_spread *out);

/* Runs whose figure falls in two groups far apart have no common median: it
 * would be a value no run was near (#58: a peak of 19 MiB between runs at
 * 0.3 MiB and 38 MiB).  Sorted, the measured values are cut at the widest
 * step between neighbours, measured as the ratio (b + @floor) / (a + @floor);
 * @floor is the figure's scale of no consequence (a jiffy, 64 KiB), so that
 * 1 us against 5 us is no step.  The values split when that ratio is at least
 * VERDICT_GROUP_RATIO and the smaller side holds at least a fifth of them (one
 * of under ten): then it returns how many fall in the lower group and sets
 * @cut to its highest value.  Else 0. */
#define VERDICT_GROUP_RATIO 4.0
int verdict_two_groups(const double *values, int n, double floor, double *cut);

/* "3/10 (11-60%)": a rate with its Wilson interval, in whole percent. */
char *verdict_format_rate(int k, int n);
/* "better in 9 of 10 (worse in 1; p = 0.021)"; "tied in 10 of 10"; where the
 * sign test's p > 0.05, "no clear difference: " before it. */
char *verdict_format_paired(int better, int worse, int n);

#endif
