/* test_verdict.c - rates, intervals and paired tests over seeds, against
 * values computed by hand, and the one rule that a maximum counts what is
 * still pending at the end. */
#include <math.h>

#include "sim/scenario/expect.h"
#include "sim/output/report.h"
#include "sim/output/verdict.h"
#include "testutil.h"

START_TEST(wilson_intervals_are_the_textbook_ones)
{
        /* (p + z^2/2n +- z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n), z = 1.959964,
         * worked out by hand (and checked with Python's statistics.NormalDist) */
        static const struct { int k, n; double lo, hi; } cases[] = {
                { 0, 10, 0.0, 0.277532800 },
                { 3, 6, 0.187616306, 0.812383694 },
                { 9, 10, 0.595849973, 0.982123787 },
                { 10, 10, 0.722467200, 1.0 },
                { 1, 20, 0.008881449, 0.236131193 },
        };

        for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
                double lo, hi;

                verdict_wilson(cases[i].k, cases[i].n, &lo, &hi);
                ck_assert_double_eq_tol(lo, cases[i].lo, 1e-8);
                ck_assert_double_eq_tol(hi, cases[i].hi, 1e-8);
        }
        g_autofree char *s = verdict_format_rate(3, 6);

        ck_assert_str_eq(s, "3/6 (19-81%)");
}
END_TEST

START_TEST(sign_test_is_the_exact_binomial)
{
        /* 2 P(X <= min) for X ~ Bin(n, 1/2): 9 of 10 -> 2 (1 + 10) / 1024 */
        ck_assert_double_eq_tol(verdict_sign_test(9, 1), 22.0 / 1024, 1e-12);
        ck_assert_double_eq_tol(verdict_sign_test(1, 9), 22.0 / 1024, 1e-12);
        ck_assert_double_eq_tol(verdict_sign_test(10, 0), 2.0 / 1024, 1e-12);
        ck_assert_double_eq_tol(verdict_sign_test(7, 2), 2 * 46.0 / 512, 1e-12);
        /* an even split, or nothing to compare: no evidence either way */
        ck_assert_double_eq(verdict_sign_test(5, 5), 1.0);
        ck_assert_double_eq(verdict_sign_test(0, 0), 1.0);
        g_autofree char *a = verdict_format_paired(9, 1, 10);
        g_autofree char *b = verdict_format_paired(0, 0, 10);
        g_autofree char *c = verdict_format_paired(1, 7, 10);

        ck_assert_str_eq(a, "better in 9 of 10 (worse in 1; p = 0.021)");
        ck_assert_str_eq(b, "tied in 10 of 10");
        ck_assert_str_eq(c, "no clear difference: worse in 7 of 10 (better in 1; 2 tied; p = 0.07)");
}
END_TEST

START_TEST(a_lower_bound_decides_only_what_it_can)
{
        ck_assert_int_eq(verdict_order(1, false, 2, false), -1);
        ck_assert_int_eq(verdict_order(2, false, 2, false), 0);
        /* a stall of at least 5 loses to an exact 3; at least 2 against 3 is open */
        ck_assert_int_eq(verdict_order(5, true, 3, false), 1);
        ck_assert_int_eq(verdict_order(2, true, 3, false), 0);
        ck_assert_int_eq(verdict_order(1, false, 2, true), -1);
        ck_assert_int_eq(verdict_order(5, true, 9, true), 0);
        ck_assert_int_eq(verdict_order(NAN, false, 1, false), 0);
}
END_TEST

START_TEST(spread_marks_only_figures_that_are_lower_bounds)
{
        const double v[] = { 3, NAN, 1, 2 };
        const bool low[] = { false, false, true, false };
        const bool high[] = { true, false, false, false };
        struct verdict_spread sp;

        ck_assert(verdict_spread(v, NULL, 4, &sp));
        ck_assert_int_eq(sp.n, 3);      /* the run that measured nothing is left out */
        ck_assert_double_eq(sp.median, 2);
        ck_assert_double_eq(sp.min, 1);
        ck_assert_double_eq(sp.max, 3);
        ck_assert(!sp.median_at_least && !sp.min_at_least && !sp.max_at_least);
        /* the smallest is a bound: only the minimum is marked, the figures
         * the others print were measured whole (#48: `GP max >= 2s (>= 6ms ..
         * >= 2s)` marked a 2 s grace period that had completed) */
        verdict_spread(v, low, 4, &sp);
        ck_assert(!sp.median_at_least && sp.min_at_least && !sp.max_at_least);
        /* the largest is: only the maximum */
        verdict_spread(v, high, 4, &sp);
        ck_assert(!sp.median_at_least && !sp.min_at_least && sp.max_at_least);
        /* the middle one is: the median, taken from it */
        {
                const bool mid[] = { false, false, false, true };

                verdict_spread(v, mid, 4, &sp);
                ck_assert(sp.median_at_least && !sp.min_at_least && !sp.max_at_least);
        }
        ck_assert(!verdict_spread(v + 1, NULL, 1, &sp) && sp.n == 0);
}
END_TEST

/* oom.scn under none: the reader holds a grace period from 1 s to the out
 * of memory at 3.67 s.  No maximum may read below it. */
/* #48: a run that ran out of memory at 2.97 s with a 2 s grace period
 * pending, under a 3.5 s threshold, is not "no stall": its stall is
 * unknown.  One that stalled first is a stall; one with nothing waiting
 * (or that did not run out of memory) is neither. */
static void outcomes_of(gboolean oom, double gp_over, double pending_ns, bool out[VERDICT_OUTCOMES])
{
        struct report *r = report_new();

        report_int(r, "rcu.stall_threshold_ns", 3500000000);
        report_bool(r, "memory.oom", oom);
        report_int(r, "rcu.gp_over_threshold", (int64_t)gp_over);
        report_int(r, "rcu.gp_in_progress_ns", (int64_t)pending_ns);
        verdict_outcomes(r, out);
        report_free(r);
}

/* #58: two groups far apart are found, with the lower group's size and top;
 * a spread without a wide step, a lone outlier among ten and steps below the
 * figure's floor are not split. */
START_TEST(two_groups_far_apart_are_told_apart)
{
        const double mib = 1048576, ms = 1e6;
        const double peaks[] = { 38 * mib, 0.3 * mib, 37.5 * mib, 0.25 * mib, NAN, 38.2 * mib, 0.24 * mib, 36 * mib,
                                 0.3 * mib, 0.31 * mib, 38 * mib };
        const double spread[] = { 10 * ms, 14 * ms, 21 * ms, 30 * ms, 44 * ms, 60 * ms, 80 * ms, 120 * ms };
        const double outlier[] = { 10, 11, 12, 10, 11, 12, 10, 11, 12, 900 };
        const double tiny[] = { 1000, 5000, 1000, 5000 };       /* 1 us and 5 us, under a jiffy's floor */
        double cut = -1;

        ck_assert_int_eq(verdict_two_groups(peaks, G_N_ELEMENTS(peaks), 65536, &cut), 5);
        ck_assert(cut == 0.31 * mib);
        ck_assert_int_eq(verdict_two_groups(spread, G_N_ELEMENTS(spread), 4 * ms, &cut), 0);
        ck_assert_int_eq(verdict_two_groups(outlier, G_N_ELEMENTS(outlier), 1, &cut), 0);
        ck_assert_int_eq(verdict_two_groups(outlier, 5, 1, &cut), 0);
        ck_assert_int_eq(verdict_two_groups(tiny, G_N_ELEMENTS(tiny), 4 * ms, &cut), 0);
        ck_assert_int_eq(verdict_two_groups(tiny, G_N_ELEMENTS(tiny), 0, &cut), 2);
}
END_TEST

/* #58: a rare event per simulated hour with the exact Poisson interval
 * (Garwood: 0 events -> [0, 3.689], 3 -> [0.619, 8.767]). */
START_TEST(rare_events_are_rates_per_hour_with_their_interval)
{
        double lo, hi;
        g_autofree char *none = verdict_format_per_hour(0, 6000), *three = verdict_format_per_hour(3, 3600);

        verdict_poisson(0, &lo, &hi);
        ck_assert(lo == 0 && fabs(hi - 3.689) < 0.001);
        verdict_poisson(3, &lo, &hi);
        ck_assert_msg(fabs(lo - 0.6187) < 0.001 && fabs(hi - 8.767) < 0.001, "%g %g", lo, hi);
        ck_assert_str_eq(none, "0 in 6000 s (< 2.2/h)");
        ck_assert_str_eq(three, "3 in 3600 s: 3/h (0.62-8.8)");
}
END_TEST

START_TEST(out_of_memory_first_leaves_the_stall_unknown)
{
        bool o[VERDICT_OUTCOMES];

        outcomes_of(TRUE, 0, 2e9, o);
        ck_assert(o[VERDICT_OOM] && !o[VERDICT_STALL] && o[VERDICT_STALL_UNKNOWN]);
        outcomes_of(TRUE, 1, 2e9, o);
        ck_assert(o[VERDICT_STALL] && !o[VERDICT_STALL_UNKNOWN]);
        outcomes_of(TRUE, 0, 0, o);
        ck_assert(!o[VERDICT_STALL] && !o[VERDICT_STALL_UNKNOWN]);
        outcomes_of(FALSE, 0, 2e9, o);
        ck_assert(!o[VERDICT_STALL_UNKNOWN]);
        ck_assert_int_eq(verdict_rate_of("stall_unknown_rate"), VERDICT_STALL_UNKNOWN);
}
END_TEST

START_TEST(a_pending_stall_is_never_reported_below_it)
{
        GError *e = NULL;
        g_autofree char *path = g_build_filename(g_getenv("RCUBOOST_SRCDIR"), "scenarios", "oom.scn", NULL);
        struct scenario *sc = scenario_load(path, NULL, &e);
        struct sim *sim;
        const struct report *r;
        double pending, completed, v, actual;
        gboolean at_least;
        const char *key;

        ck_assert_msg(sc, "%s", e ? e->message : "");
        sim = sim_new(sc, &(struct sim_options){ .policy = "none" }, &e);
        ck_assert(sim);
        sim_run(sim);
        ck_assert(sim_finish(sim, NULL));
        r = sim_report(sim);
        ck_assert(report_lookup(r, "rcu.gp_in_progress_ns", &pending) && pending > 2.6e9);
        ck_assert(report_lookup(r, "gp_latency.max_ns", &completed) && completed < 1e7);
        static const char *const maxima[] = { "gp_latency.max_ns", "rcu.gp_max_at_least_ns", "flip_latency.max_ns",
                                              "callback_latency.max_ns" };
        for (size_t i = 0; i < G_N_ELEMENTS(maxima); i++) {
                ck_assert(report_lookup_bound(r, maxima[i], &v, &at_least));
                ck_assert_msg(at_least && v >= 2.6e9, "%s read as %g", maxima[i], v);
        }
        /* a key without a pending counterpart reads as it is */
        ck_assert(report_lookup_bound(r, "gp_latency.p50_ns", &v, &at_least) && !at_least && v < 1e7);
        /* [expect] on the maximum fails, with the pending one as its value */
        struct expectation *x = expect_parse("none.gp_latency.max<", "40ms", &e);

        ck_assert_msg(x, "%s", e ? e->message : "");
        ck_assert_int_eq(expect_eval(x, r, &actual, &at_least, &key), EXPECT_FAIL);
        ck_assert(at_least);
        ck_assert_double_eq(actual, pending);
        expect_free(x);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

static Suite *verdict_suite(void)
{
        Suite *s = suite_create("verdict");
        TCase *stats = tcase_create("statistics");
        TCase *pending = tcase_create("pending");

        tcase_add_test(stats, wilson_intervals_are_the_textbook_ones);
        tcase_add_test(stats, sign_test_is_the_exact_binomial);
        tcase_add_test(stats, a_lower_bound_decides_only_what_it_can);
        tcase_add_test(stats, spread_marks_only_figures_that_are_lower_bounds);
        tcase_add_test(stats, out_of_memory_first_leaves_the_stall_unknown);
        tcase_add_test(stats, two_groups_far_apart_are_told_apart);
        tcase_add_test(stats, rare_events_are_rates_per_hour_with_their_interval);
        tcase_add_test(pending, a_pending_stall_is_never_reported_below_it);
        suite_add_tcase(s, stats);
        suite_add_tcase(s, pending);
        return s;
}

int main(void)
{
        return run_suite(verdict_suite());
}
