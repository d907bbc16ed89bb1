/* The real-kernel module's draws (src/kernel/rcuboost_draw.h, integer-only)
 * against the simulator's (dist_sample(), GSL): for every distribution of
 * the scenario language, `rcuboost kernel-program` writes what the module
 * reads, and the module's draws must have the same law -- the same
 * quantiles, body and tails, as many draws of the simulator's. */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/rcuboost_draw.h"
#include "sim/scenario/dist.h"

#define NDRAWS 400000

/* The `insn` and `quantiles` lines kernel-program writes for a task whose
 * program is `compute DIST`, read as the module reads them. */
static void program_of(const char *dist_text, struct rcuboost_dist *out, s64 *tab)
{
        const char *bin = g_getenv("RCUBOOST_BIN");
        g_autofree char *dir = g_dir_make_tmp("kdraw-XXXXXX", NULL);
        g_autofree char *scn = g_build_filename(dir, "d.scn", NULL);
        g_autofree char *text = g_strdup_printf("[scenario]\nduration=1s\n[task:t]\nprogram=compute %s\n", dist_text);
        g_autofree char *stdout_text = NULL, *stderr_text = NULL;
        int status = 0;

        ck_assert_ptr_nonnull(bin);
        ck_assert(g_file_set_contents(scn, text, -1, NULL));
        const char *argv[] = { bin, "kernel-program", scn, NULL };
        ck_assert(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &stdout_text, &stderr_text,
                               &status, NULL));
        ck_assert_msg(g_spawn_check_wait_status(status, NULL), "kernel-program %s: %s", dist_text, stderr_text);
        g_unlink(scn);
        g_rmdir(dir);

        g_auto(GStrv) lines = g_strsplit(stdout_text, "\n", -1);
        gboolean have_insn = FALSE, have_table = FALSE;

        for (int i = 0; lines[i]; i++) {
                long long a, b;
                int op, arg, target, slot, kind;

                if (!have_insn && sscanf(lines[i], "insn %d %d %d %d %d %lld %lld", &op, &arg, &target, &slot,
                                         &kind, &a, &b) == 7) {
                        *out = (struct rcuboost_dist){ kind, a, b, NULL, NULL };
                        have_insn = TRUE;
                } else if (g_str_has_prefix(lines[i], "quantiles ")) {
                        g_auto(GStrv) v = g_strsplit(lines[i] + strlen("quantiles "), " ", -1);

                        ck_assert_uint_eq(g_strv_length(v), 2 * RCUBOOST_QPOINTS);
                        for (int j = 0; j < 2 * RCUBOOST_QPOINTS; j++)
                                tab[j] = g_ascii_strtoll(v[j], NULL, 10);
                        out->lower = tab;
                        out->upper = tab + RCUBOOST_QPOINTS;
                        have_table = TRUE;
                }
        }
        ck_assert_msg(have_insn, "no insn line for %s", dist_text);
        ck_assert_msg(have_table == (out->kind >= RCUBOOST_DIST_NORMAL), "quantiles line for %s: %d", dist_text,
                      have_table);
}

/* An empirical p-quantile of NDRAWS draws lies, but for a 1 in 10^4
 * chance, between the exact quantiles at p -+ 4 standard errors of the
 * empirical CDF; @rel more for the table's interpolation and rounding. */
static void within_band(const char *who, const char *dist_text, const struct dist *d, double p, double q,
                        double rel)
{
        double se = sqrt(p * (1 - p) / NDRAWS);
        double lo = (double)dist_quantile(d, fmax(p - 4 * se, 1e-12)) * (1 - rel) - 1;
        double hi = (double)dist_quantile(d, fmin(p + 4 * se, 1 - 1e-12)) * (1 + rel) + 1;

        ck_assert_msg(q >= lo && q <= hi, "%s's %s at p=%g: %.0f, outside [%.0f, %.0f] (exact %" G_GINT64_FORMAT ")",
                      who, dist_text, p, q, lo, hi, (gint64)dist_quantile(d, p));
}

/* The module's draws of @dist_text, and the simulator's, are samples of
 * the same law: each of @np quantiles within its sampling band of the
 * exact one; means within 2% of each other where the variance is finite. */
static void same_law(const char *dist_text, const double *p, int np, gboolean finite_variance)
{
        static s64 tab[2 * RCUBOOST_QPOINTS];
        static double kmod[NDRAWS], model[NDRAWS];
        struct rcuboost_dist kd;
        struct dist d;
        u64 state = 0x9E3779B97F4A7C15ULL;
        gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
        GError *e = NULL;

        program_of(dist_text, &kd, tab);
        ck_assert_msg(dist_parse(dist_text, DIST_UNIT_DURATION, &d, &e), "%s", e ? e->message : "");
        for (int i = 0; i < NDRAWS; i++) {
                kmod[i] = (double)rcuboost_draw(&kd, &state);
                model[i] = (double)dist_sample(&d, rng);
        }
        gsl_sort(kmod, 1, NDRAWS);
        gsl_sort(model, 1, NDRAWS);
        for (int k = 0; k < np; k++) {
                within_band("module", dist_text, &d, p[k], gsl_stats_quantile_from_sorted_data(kmod, 1, NDRAWS, p[k]),
                            0.005);
                within_band("simulator", dist_text, &d, p[k],
                            gsl_stats_quantile_from_sorted_data(model, 1, NDRAWS, p[k]), 0.0);
        }
        if (finite_variance) {
                double mk = gsl_stats_mean(kmod, 1, NDRAWS), mm = gsl_stats_mean(model, 1, NDRAWS);

                ck_assert_msg(fabs(mk - mm) <= 0.02 * mm, "%s: mean module %.0f, simulator %.0f", dist_text, mk,
                              mm);
        }
        gsl_rng_free(rng);
}

static const double body_and_tails[] = { 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999 };
#define NP G_N_ELEMENTS(body_and_tails)

START_TEST(normal_as_the_simulator_draws_it)
{
        /* the body, and the left tail clipped at 0 as draw_to_units() does */
        same_law("normal(1ms, 200us)", body_and_tails, NP, TRUE);
        same_law("normal(100us, 200us)", (const double[]){ 0.4, 0.5, 0.75, 0.9, 0.99, 0.999 }, 6, TRUE);
}
END_TEST

START_TEST(lognormal_as_the_simulator_draws_it)
{
        same_law("lognormal(1ms, 0.5)", body_and_tails, NP, TRUE);
        same_law("lognormal(50us, 2)", body_and_tails, NP, FALSE);
}
END_TEST

START_TEST(pareto_heavy_tail_as_the_simulator_draws_it)
{
        /* shape 1.2: the mean is finite, the variance is not */
        same_law("pareto(2.5, 100us)", body_and_tails, NP, TRUE);
        same_law("pareto(1.2, 10us)", body_and_tails, NP, FALSE);
}
END_TEST

START_TEST(exp_and_uniform_as_before)
{
        same_law("exp(200us)", body_and_tails, NP, TRUE);
        /* wider than 2^32 ns: a 64-bit product would wrap */
        same_law("uniform(1ms, 6s)", body_and_tails, NP, TRUE);
}
END_TEST

START_TEST(constants_have_no_table)
{
        static s64 tab[2 * RCUBOOST_QPOINTS];
        struct rcuboost_dist kd;
        u64 state = 1;

        program_of("3ms", &kd, tab);
        ck_assert_int_eq(kd.kind, RCUBOOST_DIST_CONST);
        ck_assert_int_eq(rcuboost_draw(&kd, &state), 3000000);
}
END_TEST

static Suite *kdraw_suite(void)
{
        Suite *s = suite_create("kdraw");
        TCase *tc = tcase_create("laws");

        tcase_add_test(tc, normal_as_the_simulator_draws_it);
        tcase_add_test(tc, lognormal_as_the_simulator_draws_it);
        tcase_add_test(tc, pareto_heavy_tail_as_the_simulator_draws_it);
        tcase_add_test(tc, exp_and_uniform_as_before);
        tcase_add_test(tc, constants_have_no_table);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(kdraw_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
