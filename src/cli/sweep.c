/* sweep.c - `rcuboost sweep`: a scenario over a grid of parameters,
 * policies and seeds, in parallel or as a job list for other machines.
 *
 * Every run of the cross product has an id (its index) and a directory
 * DIR/runs/ID/ holding its summary.json and row.csv, its line of sweep.csv.
 * sweep.csv is always built the same way -- the row files concatenated in id
 * order -- whether the runs came from this process's thread pool, from
 * `--only ID` jobs run by GNU parallel or a Slurm array (`--emit-jobs`), or
 * from an earlier, interrupted sweep (a run whose row.csv exists is not run
 * again: rows are written whole or not at all).
 */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "plot.h"
#include "headline.h"
#include "policies/policy.h"
#include "sim/scenario/expect.h"
#include "sim/output/output.h"
#include "sim/output/report.h"
#include "sim/scenario/scenario.h"
#include "sim/sim.h"
#include "sim/scenario/units.h"
#include "sim/output/verdict.h"

struct axis {
        char *key;              /* SECTION.KEY */
        GStrv values;
        int n;
};

struct sweep {
        char *scenario;         /* path */
        GString *table;         /* the points, for stdout: what the plot draws (plot_sweep()) */
        char *text;             /* its contents, read once: every run loads this */
        GStrv sets;             /* --set overrides applied to every run */
        char *dir;
        struct axis *axes;
        int naxes;
        GPtrArray *policies;    /* const char * */
        int seeds;
        uint64_t base_seed;
        int nruns;
        char *metric;           /* the summary key --metric names */
        char *scenario_sha256;
        gboolean metric_column; /* not a headline column: sweep.csv gets it last */
        int rate;               /* --metric OUTCOME_rate: that outcome (verdict.h), else -1 */
        gboolean metric_given;  /* --metric was given (else a split plots a rate instead) */
        gboolean quiet;
        GMutex lock;
        int done;
        int failed;
};

/* Run @id's coordinates: the axis values vary slowest, then policy, then seed. */
static void coordinates(const struct sweep *sw, int id, int *vidx, const char **policy, uint64_t *seed)
{
        int rest = id;

        *seed = sw->base_seed + (uint64_t)(rest % sw->seeds);
        rest /= sw->seeds;
        *policy = g_ptr_array_index(sw->policies, rest % sw->policies->len);
        rest /= (int)sw->policies->len;
        for (int a = sw->naxes - 1; a >= 0; a--) {
                vidx[a] = rest % sw->axes[a].n;
                rest /= sw->axes[a].n;
        }
}

/* A sweep's size: refused above the first (its run ids are ints, its
 * directory a million entries), announced from the second. */
#define SWEEP_MAX_RUNS 1000000
#define SWEEP_ANNOUNCE_RUNS 1000

/* What a sweep writes in its directory (for the temporaries of a killed one). */
static const char *const sweep_output_names[] = {
        "grid.txt", "sweep.csv", "sweep-plot.dat", "sweep.png", "sweep.gp", "runs/", NULL,
};

static char *run_dir(const struct sweep *sw, int id)
{
        g_autofree char *name = g_strdup_printf("%06d", id);

        return g_build_filename(sw->dir, "runs", name, NULL);
}

static char *header_line(const struct sweep *sw)
{
        GString *s = g_string_new("run,policy,seed,status");

        for (int a = 0; a < sw->naxes; a++)
                g_string_append_printf(s, ",%s", sw->axes[a].key);
        for (int m = 0; m < HEADLINE_COUNT; m++)
                g_string_append_printf(s, ",%s", headline_column(&headline[m]));
        for (int o = 0; o < VERDICT_OUTCOMES; o++)      /* 0/1, as compare counts them */
                g_string_append_printf(s, ",%s", verdict_outcome_name(o));
        if (sw->metric_column)
                g_string_append_printf(s, ",%s", sw->metric);
        g_string_append_c(s, '\n');
        return g_string_free(s, FALSE);
}

/* What makes two sweeps the same grid: the rows of one are results of the other. */
static char *grid_text(const struct sweep *sw)
{
        GString *g = g_string_new("# rcuboost sweep grid: the rows in runs/ belong to this grid\n");

        g_string_append_printf(g, "scenario_sha256=%s\nfirst_seed=%" G_GUINT64_FORMAT "\nseeds=%d\npolicies=",
                               sw->scenario_sha256, sw->base_seed, sw->seeds);
        for (guint p = 0; p < sw->policies->len; p++)
                g_string_append_printf(g, "%s%s", p ? "," : "", (char *)sw->policies->pdata[p]);
        /* a module rebuilt between a sweep and its resume is another policy */
        for (guint p = 0; p < sw->policies->len; p++) {
                const char *path = policy_module_path(policy_find(sw->policies->pdata[p]));
                g_autofree char *bytes = NULL;
                gsize len = 0;

                if (!path)
                        continue;
                if (g_file_get_contents(path, &bytes, &len, NULL)) {
                        g_autofree char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)bytes,
                                                                           len);

                        g_string_append_printf(g, "\nmodule=%s sha256=%s", (char *)sw->policies->pdata[p], sum);
                }
        }
        for (int a = 0; a < sw->naxes; a++) {
                g_string_append_printf(g, "\nvary=%s=", sw->axes[a].key);
                for (int v = 0; v < sw->axes[a].n; v++)
                        g_string_append_printf(g, "%s%s", v ? "," : "", sw->axes[a].values[v]);
        }
        for (char **s = sw->sets; s && *s; s++)
                g_string_append_printf(g, "\nset=%s", *s);
        /* a metric read from the columns every row has is no part of the
         * grid: another one re-plots the same runs (#48) */
        if (sw->metric_column)
                g_string_append_printf(g, "\nmetric=%s", sw->metric);
        g_string_append_c(g, '\n');
        return g_string_free(g, FALSE);
}

/* DIR/grid.txt names the grid its rows belong to: a sweep of another grid
 * in the same directory is refused rather than fed another grid's rows. */
static gboolean check_grid(const struct sweep *sw, gboolean write, GError **error)
{
        g_autofree char *want = grid_text(sw);
        g_autofree char *path = g_build_filename(sw->dir, "grid.txt", NULL);
        g_autofree char *have = NULL;
        struct outfile *o;

        if (g_file_get_contents(path, &have, NULL, NULL)) {
                if (strcmp(have, want) == 0)
                        return TRUE;
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "%s holds a sweep of another grid (scenario, --vary, --set, --policies, --seeds, "
                            "--seed or --metric differ; see %s): use another --out, or remove it", sw->dir, path);
                return FALSE;
        }
        if (!write)
                return TRUE;
        o = outfile_open(sw->dir, "grid.txt", error);
        if (!o)
                return FALSE;
        fputs(want, outfile_stream(o));
        return outfile_commit(o, error);
}

/* Is @path a whole row of this sweep (as many fields as the header, ending
 * in a newline)?  Anything else -- a row of a sweep plotting another
 * metric, a file cut short -- is run again. */
/* A row's status column, as compare's: a run that failed (a deadlock) or
 * was stopped by a budget still has a row, so that the plot can say so. */
static const char *const run_statuses[] = { "ok", "failed", "incomplete", "unsafe", NULL };

static gboolean row_is_whole(const struct sweep *sw, int id, const char *path)
{
        g_autofree char *header = header_line(sw);
        g_autofree char *row = NULL;
        g_auto(GStrv) hf = NULL, rf = NULL;
        int vidx[sw->naxes + 1];
        const char *policy;
        uint64_t seed;
        gsize len;
        guint n;

        if (!g_file_get_contents(path, &row, &len, NULL) || len == 0 || row[len - 1] != '\n' ||
            strchr(row, '\n') != row + len - 1)
                return FALSE;
        row[len - 1] = '\0';
        g_strchomp(header);
        hf = g_strsplit(header, ",", -1);
        rf = g_strsplit(row, ",", -1);
        n = g_strv_length(hf);
        if (g_strv_length(rf) != n)
                return FALSE;
        /* Its coordinates are this run's, and every value is a number (or -). */
        coordinates(sw, id, vidx, &policy, &seed);
        if (g_ascii_strtoll(rf[0], NULL, 10) != id || strcmp(rf[1], policy) != 0 ||
            g_ascii_strtoull(rf[2], NULL, 10) != seed || !g_strv_contains(run_statuses, rf[3]))
                return FALSE;
        for (int a = 0; a < sw->naxes; a++)
                if (strcmp(rf[4 + a], sw->axes[a].values[vidx[a]]) != 0)
                        return FALSE;
        for (guint i = 4 + (guint)sw->naxes; i < n; i++) {
                double d;

                if (strcmp(rf[i], "-") != 0 && !units_parse_double(rf[i], -1e300, 1e300, &d, NULL))
                        return FALSE;
        }
        return TRUE;
}

static void write_value(FILE *f, const struct report *r, const char *key)
{
        gboolean at_least;
        double v;

        /* A maximum counts what is still pending at the end (a lower bound). */
        if (report_lookup_bound(r, key, &v, &at_least))
                fprintf(f, ",%.15g", v);
        else
                fputs(",-", f);         /* no value: e.g. the max of no samples */
}

static char **overrides_for(const struct sweep *sw, const int *vidx)
{
        int nsets = sw->sets ? (int)g_strv_length(sw->sets) : 0;
        char **o = g_new0(char *, nsets + sw->naxes + 1);

        for (int i = 0; i < nsets; i++)
                o[i] = g_strdup(sw->sets[i]);
        for (int a = 0; a < sw->naxes; a++)
                o[nsets + a] = g_strdup_printf("%s=%s", sw->axes[a].key, sw->axes[a].values[vidx[a]]);
        return o;
}

/* Run @id and write its row; FALSE (with a message) on failure. */
static gboolean run_one(struct sweep *sw, int id)
{
        int vidx[sw->naxes + 1];
        const char *policy;
        uint64_t seed;
        g_autofree char *dir = run_dir(sw, id);
        g_autofree char *row_path = g_build_filename(dir, "row.csv", NULL);
        g_auto(GStrv) over = NULL;
        g_autoptr(RcbScenario) sc = NULL;
        g_autoptr(RcbSim) sim = NULL;
        struct outfile *row;
        GError *e = NULL;

        if (row_is_whole(sw, id, row_path))
                return TRUE;    /* done by an earlier, interrupted sweep */
        if (cli_interrupt_status())
                return FALSE;   /* left for the resumed sweep */
        coordinates(sw, id, vidx, &policy, &seed);
        over = overrides_for(sw, vidx);
        sc = scenario_load_data(sw->text, sw->scenario, (const char *const *)over, &e);
        if (sc)
                sim = sim_new(sc, &(struct sim_options){ .policy = policy, .out_dir = dir, .summary_only = TRUE,
                                                         .seed_set = TRUE, .seed = seed,
                                                         .interrupt = cli_interrupt_flag() }, &e);
        if (!sim) {
                fprintf(stderr, "rcuboost: run %d: %s\n", id, e->message);
                g_error_free(e);
                return FALSE;
        }
        sim_run(sim);
        gboolean finished = sim_finish(sim, &e);

        if (!finished) {
                fprintf(stderr, "rcuboost: run %d: %s\n", id, e->message);
                g_clear_error(&e);
                if (!sim_report(sim))
                        return FALSE;
        }
        if (!sim_complete(sim) && !strcmp(sim_end_reason(sim), "interrupted"))
                return FALSE;   /* no row: the resumed sweep runs it again */
        const char *status = !finished ? "failed" : !sim_complete(sim) ? "incomplete"
                             : sim_safety_violations(sim) ? "unsafe" : "ok";
        row = outfile_open(dir, "row.csv", &e);
        if (!row) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                return FALSE;
        }
        fprintf(outfile_stream(row), "%d,%s,%" G_GUINT64_FORMAT ",%s", id, policy, seed, status);
        for (int a = 0; a < sw->naxes; a++)
                fprintf(outfile_stream(row), ",%s", sw->axes[a].values[vidx[a]]);
        for (int m = 0; m < HEADLINE_COUNT; m++)
                write_value(outfile_stream(row), sim_report(sim), headline[m].key);
        {
                bool outcome[VERDICT_OUTCOMES];

                verdict_outcomes(sim_report(sim), outcome);
                for (int o = 0; o < VERDICT_OUTCOMES; o++)
                        fprintf(outfile_stream(row), ",%d", outcome[o]);
        }
        if (sw->metric_column)
                write_value(outfile_stream(row), sim_report(sim), sw->metric);
        fputc('\n', outfile_stream(row));
        if (!outfile_commit(row, &e)) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                return FALSE;
        }
        return finished;        /* a failed run has its row, and still fails the sweep */
}

static void pool_job(gpointer data, gpointer user)
{
        struct sweep *sw = user;
        int id = GPOINTER_TO_INT(data) - 1;
        gboolean ok = run_one(sw, id);

        g_mutex_lock(&sw->lock);
        sw->done++;
        sw->failed += !ok;
        if (!sw->quiet && isatty(STDERR_FILENO))
                fprintf(stderr, "\rrcuboost: sweep: %d/%d runs done", sw->done, sw->nruns);
        g_mutex_unlock(&sw->lock);
}

/* ---- sweep.csv and its plot ---- */

static gboolean write_csv(struct sweep *sw, GError **error)
{
        g_autofree char *header = header_line(sw);
        struct outfile *o = outfile_open(sw->dir, "sweep.csv", error);
        int missing = 0;

        if (!o)
                return FALSE;
        fputs(header, outfile_stream(o));
        for (int id = 0; id < sw->nruns; id++) {
                g_autofree char *dir = run_dir(sw, id);
                g_autofree char *path = g_build_filename(dir, "row.csv", NULL);
                g_autofree char *row = NULL;

                if (row_is_whole(sw, id, path) && g_file_get_contents(path, &row, NULL, NULL))
                        fputs(row, outfile_stream(o));
                else
                        missing++;
        }
        if (missing) {
                outfile_abort(o);
                g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                            "%d of %d runs have no result in %s/runs/ (run them, then --merge again)",
                            missing, sw->nruns, sw->dir);
                return FALSE;
        }
        return outfile_commit(o, error);
}

static double axis_number(const char *s, gboolean *numeric)
{
        int64_t v;
        double d;

        if (units_parse_double(s, -1e300, 1e300, &d, NULL))
                return d;
        if (units_parse_duration(s, &v, NULL))
                return (double)v / 1e6;         /* durations in ms */
        if (units_parse_size(s, &v, NULL))
                return (double)v;
        *numeric = FALSE;
        return 0;
}

/* The runs of one point (rows @base.. of @lines, @per_point of them): how
 * many did not fail, and how many of those have outcome column @oc set. */
static void point_outcome(char **lines, int base, int per_point, int oc, int *k, int *n)
{
        *k = *n = 0;
        for (int s = 0; s < per_point; s++) {
                g_auto(GStrv) f = g_strsplit(lines[base + s], ",", -1);

                if (strcmp(f[3], "failed") == 0)
                        continue;
                ++*n;
                *k += oc >= 0 && !strcmp(f[oc], "1");
        }
}

/* Where the runs of a point split into two outcomes (out of memory or not,
 * a stall or not), a mean over them is a figure no run had (#48): the
 * outcome that splits (OOM first), or -1. */
static int split_outcome(const struct sweep *sw, char **lines, const int *oc, int nother, int per_point)
{
        static const enum verdict_outcome which[] = { VERDICT_OOM, VERDICT_STALL };

        for (size_t w = 0; w < G_N_ELEMENTS(which); w++)
                for (int c = 0; c < nother; c++)
                        for (int v = 0; v < sw->axes[0].n; v++) {
                                int k, n;

                                point_outcome(lines, 1 + (v * nother + c) * per_point, per_point, oc[which[w]], &k,
                                              &n);
                                if (k > 0 && k < n)
                                        return which[w];
                        }
        return -1;
}

/* A sweep's plot being made: sweep.csv's rows and columns, what the
 * y axis shows, and the data file and gnuplot's variables as they grow. */
struct sweep_plot {
        char **lines;                   /* sweep.csv: the header, then a row per run in id order */
        int col;                        /* the metric's column (or the rate's outcome's) */
        int oom_col;                    /* memory.oom_time_ns's */
        int oc[VERDICT_OUTCOMES];       /* each outcome's column, or -1 */
        int rate;                       /* an outcome's rate is plotted (verdict.h), else -1 */
        double yscale;                  /* ns to ms, bytes to MiB, else 1 */
        char *bare;                     /* the metric without its unit's suffix */
        char *ylabel;
        gboolean numeric;               /* the first axis's values are numbers */
        double xmin, xmax;
        int per_point;                  /* runs at one point: the seeds */
        int nother;                     /* curves: the other axes' values x policies */
        int points, curves;
        GString *dat;                   /* sweep-plot.dat */
        GString *xtics, *colours, *styles;
};

static void sweep_plot_clear(struct sweep_plot *sp)
{
        g_strfreev(sp->lines);
        g_free(sp->bare);
        g_free(sp->ylabel);
        g_string_free(sp->dat, TRUE);
        g_string_free(sp->xtics, TRUE);
        g_string_free(sp->colours, TRUE);
        g_string_free(sp->styles, TRUE);
}

/* The metric's column, the outcomes' and the y axis's unit. */
static void columns_found(struct sweep_plot *sp, const struct sweep *sw, const char *metric)
{
        const char *column = metric;
        g_auto(GStrv) head = g_strsplit(sp->lines[0], ",", -1);

        for (int m = 0; m < HEADLINE_COUNT; m++)        /* a headline key's column may be named apart */
                if (!strcmp(headline[m].key, metric))
                        column = headline_column(&headline[m]);
        sp->col = sp->oom_col = -1;
        for (int o = 0; o < VERDICT_OUTCOMES; o++)
                sp->oc[o] = -1;
        for (int i = 0; head[i]; i++) {
                if (!strcmp(head[i], column))
                        sp->col = i;
                if (!strcmp(head[i], "memory.oom_time_ns"))
                        sp->oom_col = i;
                for (int o = 0; o < VERDICT_OUTCOMES; o++)
                        if (!strcmp(head[i], verdict_outcome_name(o)))
                                sp->oc[o] = i;
        }
        /* Times in ms and sizes in MiB read better than ns and bytes; "gp_latency.max
         * (ms)": the unit in words, not as a key's _ns */
        sp->yscale = g_str_has_suffix(metric, "_ns") ? 1e6 : g_str_has_suffix(metric, "_bytes") ? 1048576.0 : 1;
        sp->bare = g_strndup(metric, strlen(metric) - (g_str_has_suffix(metric, "_ns") ? 3 :
                                                       g_str_has_suffix(metric, "_bytes") ? 6 : 0));
        sp->ylabel = g_strdup_printf("%s%s", sp->bare, sp->yscale == 1e6 ? " (ms)" : sp->yscale > 1 ? " (MiB)" : "");
        sp->rate = sw->rate;
}

/* Where a point's runs split into two outcomes and no --metric was given,
 * the outcome's rate is plotted rather than a mean over both; said either
 * way. */
static void rate_chosen(struct sweep_plot *sp, const struct sweep *sw, const char *metric)
{
        if (sw->naxes > 0 && sp->rate < 0) {
                int split = split_outcome(sw, sp->lines, sp->oc, sw->nruns / sw->axes[0].n / sp->per_point,
                                          sp->per_point);

                if (split >= 0 && !sw->metric_given) {
                        sp->rate = split;
                        fprintf(stderr, "rcuboost: sweep: the runs of a point split into %s and not: plotting "
                                "%s_rate, not a mean of %s over both (--metric %s plots the mean all the same)\n",
                                split == VERDICT_OOM ? "out of memory" : "a stall", verdict_outcome_name(split),
                                metric, metric);
                } else if (split >= 0) {
                        fprintf(stderr, "rcuboost: sweep: warning: the runs of a point split into %s and not: the "
                                "mean of %s there is a figure no run had (--metric %s_rate plots the rate)\n",
                                split == VERDICT_OOM ? "out of memory" : "a stall", metric,
                                verdict_outcome_name(split));
                }
        }
        if (sp->rate >= 0) {
                sp->col = sp->oc[sp->rate];
                sp->yscale = 1;
                g_free(sp->bare);
                sp->bare = g_strdup_printf("%s_rate", verdict_outcome_name(sp->rate));
                g_free(sp->ylabel);
                sp->ylabel = g_strdup_printf("%s rate (fraction of the seeds)", verdict_outcome_name(sp->rate));
        }
}

/* Curve @c's point at the first axis's value @v: a line of the data file
 * and of the table. */
static void point_added(struct sweep_plot *sp, struct sweep *sw, int c, int v, const char *curve)
{
        double vals[sp->per_point];
        int base = 1 + (v * sp->nother + c) * sp->per_point;
        double mean, sd, half = 0, x;
        int n = 0, oom = 0, failed = 0;

        for (int s = 0; s < sp->per_point; s++) {
                g_auto(GStrv) f = g_strsplit(sp->lines[base + s], ",", -1);

                /* a run that failed measured nothing to average */
                if (strcmp(f[3], "failed") == 0) {
                        failed++;
                        continue;
                }
                oom += sp->oom_col >= 0 && strcmp(f[sp->oom_col], "-") && g_ascii_strtod(f[sp->oom_col], NULL) >= 0;
                if (strcmp(f[sp->col], "-") != 0)       /* runs with no value add no point */
                        vals[n++] = g_ascii_strtod(f[sp->col], NULL) / sp->yscale;
        }
        x = sp->numeric ? axis_number(sw->axes[0].values[v], &sp->numeric) : v;
        if (sp->rate >= 0 && n > 0) {
                /* the rate with its Wilson interval, over the runs that did not fail */
                int k, m;
                double lo, hi;

                point_outcome(sp->lines, base, sp->per_point, sp->col, &k, &m);
                verdict_wilson(k, m, &lo, &hi);
                sp->points++;
                sp->xmin = MIN(sp->xmin, x);
                sp->xmax = MAX(sp->xmax, x);
                g_string_append_printf(sp->dat, "%g %g %g %g %d %d %d\n", x, (double)k / m, lo, hi, m, oom, failed);
                g_string_append_printf(sw->table, "  %-28s %-14s %d/%d (%.0f-%.0f%%)\n", curve,
                                       sw->axes[0].values[v], k, m, 100 * lo, 100 * hi);
                return;
        }
        if (n == 0) {
                if (failed)     /* the point is its failures */
                        g_string_append_printf(sp->dat, "%g NaN NaN NaN 0 0 %d\n", x, failed);
                g_string_append_printf(sw->table, "  %-28s %-14s - (%s)\n", curve, sw->axes[0].values[v],
                                       failed ? "failed" : "not measured");
                return;
        }
        sp->points++;
        mean = gsl_stats_mean(vals, 1, (size_t)n);
        /* no interval from one seed: there is nothing to estimate one from */
        if (n > 1) {
                sd = gsl_stats_sd_m(vals, 1, (size_t)n, mean);
                half = gsl_cdf_tdist_Pinv(0.975, n - 1) * sd / sqrt(n);
        }
        sp->xmin = MIN(sp->xmin, x);
        sp->xmax = MAX(sp->xmax, x);
        /* times, sizes and counts are never negative: the interval stops at 0 */
        g_string_append_printf(sp->dat, "%g %g %g %g %d %d %d\n", x, mean, MAX(0, mean - half), mean + half, n, oom,
                               failed);
        g_string_append_printf(sw->table, "  %-28s %-14s %.4g", curve, sw->axes[0].values[v], mean);
        if (n > 1)
                g_string_append_printf(sw->table, " (%.4g .. %.4g)", MAX(0, mean - half), mean + half);
        g_string_append_printf(sw->table, " over %d seed%s%s", n, n > 1 ? "s" : "", oom ? "" : "\n");
        if (oom)
                g_string_append_printf(sw->table, "; out of memory in %d\n", oom);
}

/* Curve @c: (other axes, policy), its colour the policy's (with one
 * policy, the other axes'), its marker and dashes the other axes' values. */
static void curve_added(struct sweep_plot *sp, struct sweep *sw, int c)
{
        static const int marks[] = { 7, 5, 9, 11, 13, 15, 4, 6, 8, 10 };
        g_auto(GStrv) first = g_strsplit(sp->lines[1 + c * sp->per_point], ",", -1);
        int npol = (int)sw->policies->len, combo = c / npol;
        g_autoptr(GString) name = g_string_new(first[1]);

        /* one policy: the colours tell the other keys' values apart too */
        g_string_append_printf(sp->colours, "%s%s", c ? " " : "",
                               npol == 1 && sw->naxes > 1 ? cli_series_colour(combo) : cli_policy_colour(first[1]));
        g_string_append_printf(sp->styles, "%s%d %d", c ? " " : "", marks[combo % G_N_ELEMENTS(marks)],
                               1 + combo % 5);
        for (int a = 1; a < sw->naxes; a++)
                g_string_append_printf(name, " %s=%s", sw->axes[a].key, first[4 + a]);
        g_autofree char *curve = g_strdup(name->str);

        /* a column header in a data file: a '"' in a value would end it early */
        g_string_append_printf(sp->dat, "\"%s\" x mean lo hi n oom failed\n", g_strdelimit(name->str, "\"", '\''));
        for (int v = 0; v < sw->axes[0].n; v++)
                point_added(sp, sw, c, v, curve);
        g_string_append(sp->dat, "\n\n");
        sp->curves++;
}

/* sweep.png from sweep-plot.dat, by plots/sweep.gp. */
static gboolean sweep_drawn(const struct sweep_plot *sp, const struct sweep *sw, const char *dat)
{
        g_autofree char *png = g_build_filename(sw->dir, "sweep.png", NULL);
        g_autofree char *script = g_build_filename(sw->dir, "sweep.gp", NULL);
        g_autofree char *xlabel = g_strdup_printf("%s%s", sw->axes[0].key,
                                                  sp->numeric && strpbrk(sw->axes[0].values[0], "mun") ? " (ms)" : "");
        g_autoptr(GString) vars = g_string_new(NULL);
        struct plotter pl = { .dir = sw->dir, .format = "png", .scenario = sw->scenario };

        plot_var(vars, "datafile", dat);
        plot_var(vars, "metric", sp->bare);
        plot_var(vars, "ylabel", sp->ylabel);
        plot_var(vars, "xlabel", xlabel);
        plot_var(vars, "xtics_list", sp->xtics->str);
        plot_var(vars, "colours", sp->colours->str);
        plot_var(vars, "styles", sp->styles->str);
        /* values spanning more than a decade: a log axis */
        g_string_append_printf(vars, "curves=%d; numeric=%d; seeds=%d; logx=%d; rate=%d; ", sp->curves, sp->numeric,
                               sw->seeds, sp->numeric && sp->xmin > 0 && sp->xmax / sp->xmin > 10, sp->rate >= 0);
        return plot_draw(&pl, "sweep.gp", script, png, vars, 600);
}

/* Mean and 95% confidence interval over seeds of @metric, per policy (and
 * per value of the other axes), against the first axis; the runs out of
 * memory and those that failed counted at each point.  FALSE when no plot
 * was drawn (the reason printed). */
static gboolean plot_sweep(struct sweep *sw, const char *metric)
{
        g_autofree char *csv = g_build_filename(sw->dir, "sweep.csv", NULL);
        g_autofree char *dat = g_build_filename(sw->dir, "sweep-plot.dat", NULL);
        g_autofree char *text = NULL;
        g_autofree char *gnuplot = NULL;
        struct sweep_plot sp = {
                .numeric = TRUE, .xmin = INFINITY, .xmax = -INFINITY, .per_point = sw->seeds,
                .dat = g_string_new(NULL), .xtics = g_string_new(NULL),
                .colours = g_string_new(NULL), .styles = g_string_new(NULL),
        };
        gboolean ok = FALSE;

        if (!g_file_get_contents(csv, &text, NULL, NULL))
                goto out;
        sp.lines = g_strsplit(text, "\n", -1);
        columns_found(&sp, sw, metric);
        rate_chosen(&sp, sw, metric);
        if (sp.col < 0 || sw->naxes == 0) {
                fprintf(stderr, "rcuboost: sweep: no plot (metric %s is not a column, or nothing varies)\n", metric);
                goto out;
        }
        for (int v = 0; v < sw->axes[0].n; v++) {
                axis_number(sw->axes[0].values[v], &sp.numeric);
                g_autofree char *lit = plot_literal(sw->axes[0].values[v]);

                /* eval'd by sweep.gp: a value is a literal, never code */
                g_string_append_printf(sp.xtics, "%s%s %d", v ? ", " : "", lit, v);
        }
        /* Rows come in id order: for each first-axis value, the other axes,
         * policies and seeds. */
        sp.nother = sw->nruns / sw->axes[0].n / sp.per_point;
        g_string_append_printf(sw->table, "%s against %s (%s):\n", sp.ylabel, sw->axes[0].key,
                               sp.rate >= 0 ? "the rate over the seeds, 95% Wilson interval"
                                            : "the mean over the seeds, 95% confidence interval");
        for (int c = 0; c < sp.nother; c++)
                curve_added(&sp, sw, c);
        output_set_contents(dat, sp.dat->str, -1, NULL);
        if (sp.points == 0) {
                fprintf(stderr, "rcuboost: sweep: no plot: no run measured %s (e.g. nobody was boosted)\n", metric);
                goto out;
        }
        gnuplot = g_find_program_in_path("gnuplot");
        if (!gnuplot) {
                fprintf(stderr, "rcuboost: gnuplot not found: no sweep plot (numbers in %s)\n", csv);
                goto out;
        }
        ok = sweep_drawn(&sp, sw, dat);
out:
        sweep_plot_clear(&sp);
        return ok;
}

/* ---- the command ---- */

/* The longest grace period, one still pending at the end counted as at least
 * its age: a sweep point that ran out of memory is not plotted as short. */
#define SWEEP_DEFAULT_METRIC "gp_max_at_least"


static gboolean parse_axis(const char *spec, struct axis *ax, GError **error)
{
        const char *eq = strchr(spec, '=');

        if (!eq || eq == spec || !strchr(spec, '.') || strchr(spec, '.') > eq || !eq[1]) {
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "--vary %s: expected SECTION.KEY=V1,V2,..., e.g. --vary policy.booster_period=5ms,10ms,20ms",
                            spec);
                return FALSE;
        }
        ax->key = g_strndup(spec, eq - spec);
        /* keys a sweep sets itself: varying them would change nothing, or mislabel rows */
        if (!g_ascii_strcasecmp(ax->key, "scenario.seed") || !g_ascii_strcasecmp(ax->key, "scenario.policy")) {
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--vary %s: a sweep sets %s itself: "
                            "use %s", spec, ax->key, ax->key[9] == 's' ? "--seed and --seeds" : "--policies");
                return FALSE;
        }
        ax->values = g_strsplit(eq + 1, ",", -1);
        ax->n = (int)g_strv_length(ax->values);
        for (int i = 0; i < ax->n; i++)
                for (int j = 0; j < i; j++)
                        if (!strcmp(ax->values[i], ax->values[j])) {
                                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                                            "--vary %s: '%s' twice: the rows would be the same run", spec,
                                            ax->values[i]);
                                return FALSE;
                        }
        return TRUE;
}

/* What the command line asked for. */
struct sweep_opts {
        char **vary;
        char **sets;
        char *policies;
        char *out;
        char *seed;
        char *metric;
        char *emit;
        gboolean merge;
        gint seeds;
        gint jobs;
        gint only;
        gboolean quiet;
};

static void sweep_opts_clear(struct sweep_opts *o)
{
        g_strfreev(o->vary);
        g_strfreev(o->sets);
        g_free(o->policies);
        g_free(o->out);
        g_free(o->seed);
        g_free(o->metric);
        g_free(o->emit);
}

static void sweep_clear(struct sweep *sw)
{
        for (int a = 0; a < sw->naxes; a++) {
                g_free(sw->axes[a].key);
                g_strfreev(sw->axes[a].values);
        }
        g_free(sw->axes);
        if (sw->policies)
                g_ptr_array_unref(sw->policies);
        g_free(sw->dir);
        g_free(sw->metric);
        g_free(sw->scenario_sha256);
        g_free(sw->text);
        if (sw->table)
                g_string_free(sw->table, TRUE);
        g_mutex_clear(&sw->lock);
}

static GOptionContext *options_context(struct sweep_opts *o)
{
        const GOptionEntry entries[] = {
                /* no -v: that is --verbose wherever it exists */
                { "vary", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->vary,
                  "A scenario key and its values (repeatable: the cross product is run)", "SECTION.KEY=V1,V2,..." },
                { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->sets, "Override a scenario key in every run (repeatable)",
                  "SECTION.KEY=VALUE" },
                { "policies", 'p', 0, G_OPTION_ARG_STRING, &o->policies, "Comma-separated policies (default: all)",
                  "A,B" },
                { "seeds", 'n', 0, G_OPTION_ARG_INT, &o->seeds, "Seeds per point: SEED, SEED+1, ... (default 1)", "N" },
                { "seed", 's', 0, G_OPTION_ARG_STRING, &o->seed, "First seed (default: the scenario's)", "SEED" },
                { "jobs", 'j', 0, G_OPTION_ARG_INT, &o->jobs, "Runs in parallel (default: one per CPU)", "J" },
                { "out", 'o', 0, G_OPTION_ARG_FILENAME, &o->out, "Output directory (default: out/SCENARIO-sweep)",
                  "DIR" },
                { "metric", 'm', 0, G_OPTION_ARG_STRING, &o->metric,
                  "Metric to plot against the first --vary, named as in [expect] (default gp_max_at_least: the longest grace period, one still pending at the end counted; where a point's runs split into out of memory and not, or a stall and not, that outcome's rate), or an outcome's rate (oom_rate, stall_rate, ...); another one re-plots a finished sweep without running it again", "NAME" },
                { "emit-jobs", 0, 0, G_OPTION_ARG_FILENAME, &o->emit,
                  "Write the runs as shell commands, one per line, instead of running them", "FILE" },
                { "merge", 0, 0, G_OPTION_ARG_NONE, &o->merge, "Build sweep.csv and the plot from DIR/runs/", NULL },
                { "only", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &o->only, "Run one run of the sweep (a job)", "ID" },
                { "quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, "No progress on stderr", NULL },
                { NULL },
        };
        GOptionContext *ctx = g_option_context_new("SCENARIO - run a scenario over a grid of parameters, policies and seeds");

        g_option_context_add_main_entries(ctx, entries, NULL);
        g_option_context_set_description(ctx,
                "Runs every combination of the --vary values x policies x seeds (in parallel with -j),\n"
                "writes one row per run to DIR/sweep.csv and plots --metric against the first varied\n"
                "key, one curve per policy, with 95% confidence intervals over the seeds (DIR/sweep.png).\n"
                "An interrupted sweep resumes where it stopped: finished runs are not run again.\n\n"
                "On many machines: --emit-jobs FILE writes one command per run; run them with GNU parallel\n"
                "(parallel --sshloginfile HOSTS < FILE) or a Slurm array (see docs/performance.md), then\n"
                "rcuboost sweep SCENARIO <same options> --merge builds the same sweep.csv.\n\n"
                "Example:\n  rcuboost sweep scenarios/oom.scn --vary policy.booster_period=5ms,10ms,20ms,40ms \\\n"
                "      --policies booster,booster-8state --seeds 5 -j 2\n\n" CLI_EXIT_HELP);
        return ctx;
}

/* The arguments, the --vary axes and the policies; -1, or the exit status
 * (said). */
static int options_checked(GOptionContext *ctx, struct sweep *sw, const struct sweep_opts *o, int argc, char **argv)
{
        int status = EXIT_OK;
        GError *e = NULL;

        if (argc < 2)
                return cli_usage_error(ctx, "sweep: which scenario? (one file)");
        if (argc > 2)
                return cli_usage_error(ctx, "sweep: one scenario at a time (got '%s' and '%s'); several values of a "
                                       "key go in one --vary, separated by commas: --vary KEY=V1,V2", argv[1], argv[2]);
        if (o->seeds < 1 || o->seeds > 100000)
                return cli_usage_error(ctx, "--seeds: expected 1 or more");
        if (o->jobs < 1 || o->jobs > 1024)
                return cli_usage_error(ctx, "--jobs: expected 1 to 1024");
        sw->scenario = argv[1];
        sw->sets = o->sets;
        sw->seeds = o->seeds;
        sw->quiet = o->quiet;
        sw->naxes = o->vary ? (int)g_strv_length(o->vary) : 0;
        sw->axes = g_new0(struct axis, MAX(1, sw->naxes));
        for (int a = 0; a < sw->naxes; a++) {
                if (!parse_axis(o->vary[a], &sw->axes[a], &e)) {
                        status = cli_usage_error(ctx, "%s", e->message);
                        g_error_free(e);
                        return status;
                }
                for (int b = 0; b < a; b++)
                        if (!g_ascii_strcasecmp(sw->axes[a].key, sw->axes[b].key))
                                return cli_usage_error(ctx, "--vary %s given twice: give all its values in one "
                                                       "--vary %s=V1,V2,...", sw->axes[a].key, sw->axes[a].key);
        }
        sw->policies = g_ptr_array_new();
        if (!cli_parse_policies(ctx, o->policies, sw->policies, &status))
                return status;
        return -1;
}

/* The scenario, read once (a file edited during the sweep cannot mix two
 * scenarios), its first seed and DIR; -1, or the exit status (said). */
static int scenario_read(GOptionContext *ctx, struct sweep *sw, const struct sweep_opts *o)
{
        GError *e = NULL;
        g_autoptr(RcbScenario) sc = scenario_load(sw->scenario, (const char *const *)o->sets, &e);
        g_autofree char *sum = NULL;
        int status;

        if (!sc) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                return EXIT_USAGE;
        }
        sw->base_seed = sc->seed;
        if (o->seed && !cli_parse_seed(o->seed, &sw->base_seed))
                return cli_usage_error(ctx, "--seed: '%s' is not a whole number", o->seed);
        if (!o->out && !output_name_check(sc->name, "the scenario's name", &e)) {
                status = cli_usage_error(ctx, "%s: %s (give --out DIR)", sc->path, e->message);
                g_error_free(e);
                return status;
        }
        sw->dir = o->out ? g_strdup(o->out) : g_strdup_printf("out/%s-sweep", sc->name);
        sw->scenario_sha256 = g_strdup(sc->sha256);
        if (g_file_get_contents(sw->scenario, &sw->text, NULL, NULL))
                sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, sw->text, -1);
        if (!sum || strcmp(sum, sc->sha256) != 0) {
                fprintf(stderr, "rcuboost: %s changed while it was read: run the sweep again\n", sw->scenario);
                return EXIT_USAGE;
        }
        return -1;
}

/* How many runs (counted wide: 2^32 runs must not read as 0); -1, or the
 * exit status (said). */
static int runs_counted(GOptionContext *ctx, struct sweep *sw, const struct sweep_opts *o)
{
        double runs = (double)sw->policies->len * sw->seeds;

        for (int a = 0; a < sw->naxes; a++)
                runs *= sw->axes[a].n;
        if (runs > SWEEP_MAX_RUNS)
                return cli_usage_error(ctx, "%.0f runs (policies x seeds x every --vary value) is more "
                                       "than a sweep holds (%d): split it", runs, SWEEP_MAX_RUNS);
        sw->nruns = (int)runs;
        if (sw->nruns >= SWEEP_ANNOUNCE_RUNS && !o->quiet && !o->emit && o->only < 0)
                fprintf(stderr, "rcuboost: sweep: %d runs (%u policies x %d seeds x the --vary values)\n",
                        sw->nruns, sw->policies->len, sw->seeds);
        return -1;
}

/* Every combination of the axes loads, and every policy can run it,
 * before anything runs; -1, or the exit status (said). */
static int grid_checked(struct sweep *sw)
{
        GError *e = NULL;

        for (int combo = 0; combo < sw->nruns; combo += (int)sw->policies->len * sw->seeds) {
                int vidx[sw->naxes + 1];
                const char *pol;
                uint64_t s;
                g_auto(GStrv) over = NULL;
                g_autoptr(RcbScenario) sc = NULL;
                const char *msg;

                coordinates(sw, combo, vidx, &pol, &s);
                over = overrides_for(sw, vidx);
                sc = scenario_load_data(sw->text, sw->scenario, (const char *const *)over, &e);
                for (guint p = 0; sc && p < sw->policies->len; p++)
                        if (!sim_check(sc, sw->policies->pdata[p], &e))
                                g_clear_pointer(&sc, scenario_free);
                if (sc)
                        continue;
                /* an axis's value is applied as an override: name the option the user gave */
                msg = e->message;
                for (int a = 0; a < sw->naxes; a++) {
                        size_t n = strlen(sw->axes[a].key);

                        if (g_str_has_prefix(msg, "--set ") && !g_ascii_strncasecmp(msg + 6, sw->axes[a].key, n) &&
                            (msg[6 + n] == ':' || msg[6 + n] == ' ')) {
                                fprintf(stderr, "rcuboost: --vary %s\n", msg + 6);
                                msg = NULL;
                                break;
                        }
                }
                if (msg)
                        fprintf(stderr, "rcuboost: %s\n", msg);
                g_error_free(e);
                return EXIT_USAGE;
        }
        return -1;
}

/* What the scenario and each policy's runs need to be told (a 2007 policy
 * on Tree RCU, an [rcu] key no policy reads), once, before the sweep runs;
 * with each --vary key at its first value, so that a key no policy reads is
 * said before the sweep runs, not seen as a flat curve after it (#59). */
static void warnings_said(const struct sweep *sw)
{
        g_autoptr(GPtrArray) with_axes = g_ptr_array_new_with_free_func(g_free);
        g_autoptr(GPtrArray) varied = g_ptr_array_new();
        g_autoptr(RcbScenario) sc = NULL;
        struct sim *sims[sw->policies->len + 1];
        guint made = 0;

        for (char **x = sw->sets; x && *x; x++)
                g_ptr_array_add(with_axes, g_strdup(*x));
        for (int a = 0; a < sw->naxes; a++) {
                g_ptr_array_add(with_axes, g_strdup_printf("%s=%s", sw->axes[a].key, sw->axes[a].values[0]));
                g_ptr_array_add(varied, sw->axes[a].key);
        }
        g_ptr_array_add(with_axes, NULL);
        g_ptr_array_add(varied, NULL);
        sc = scenario_load_data(sw->text, sw->scenario, (const char *const *)with_axes->pdata, NULL);
        for (guint p = 0; sc && p < sw->policies->len; p++) {
                struct sim *sim = sim_new(sc, &(struct sim_options){ .policy = sw->policies->pdata[p] }, NULL);

                if (sim) {
                        cli_print_warnings(made == 0 ? sc : NULL, sim);
                        sims[made++] = sim;
                }
        }
        if (made)
                cli_warn_unused_rcu_keys(sc, sims, (int)made, (const char *const *)varied->pdata);
        for (guint p = 0; p < made; p++)
                sim_free(sims[p]);
}

/* The metric, as [expect] names it, must be in every policy's summary; an
 * outcome's rate (stall_rate) is counted from every row's outcomes.  -1,
 * or the exit status (said). */
static int metric_chosen(GOptionContext *ctx, struct sweep *sw, const char *metric)
{
        GError *e = NULL;
        g_autoptr(RcbScenario) sc = NULL;

        sw->rate = metric ? verdict_rate_of(metric) : -1;
        sw->metric_given = metric != NULL;
        if (sw->rate >= 0) {
                sw->metric = g_strdup(metric);
                sw->metric_column = FALSE;
                return -1;
        }
        sc = scenario_load_data(sw->text, sw->scenario, (const char *const *)sw->sets, &e);
        for (guint p = 0; sc && p < sw->policies->len; p++) {
                g_autoptr(RcbSim) sim = sim_new(sc, &(struct sim_options){ .policy = sw->policies->pdata[p] }, &e);
                g_autoptr(RcbReport) r = sim ? sim_build_report(sim) : NULL;
                const char *key = r ? expect_resolve_name(metric ? metric : SWEEP_DEFAULT_METRIC, r) : NULL;

                if (!sim) {
                        fprintf(stderr, "rcuboost: %s\n", e->message);
                        g_clear_error(&e);
                        return EXIT_USAGE;
                }
                if (!key || (sw->metric && strcmp(key, sw->metric) != 0)) {
                        g_autofree char *near = expect_suggest(metric, r);

                        return cli_usage_error(ctx, "--metric: no metric '%s' in the summary of policy %s%s%s%s",
                                               metric ? metric : SWEEP_DEFAULT_METRIC, (char *)sw->policies->pdata[p],
                                               near ? " (did you mean " : " (docs/outputs.md lists them)",
                                               near ? near : "", near ? "?)" : "");
                }
                if (!sw->metric)
                        sw->metric = g_strdup(key);
        }
        sw->metric_column = TRUE;
        for (int m = 0; m < HEADLINE_COUNT; m++)
                if (!strcmp(headline[m].key, sw->metric))
                        sw->metric_column = FALSE;
        return -1;
}

/* Somebody else's directory is refused untouched; a whole sweep (not one of
 * its --only jobs, which run side by side) holds the directory to the end
 * (*@lock), so two sweeps never write one sweep.csv.  -1, or the exit
 * status (said). */
static int dir_held(struct sweep *sw, const struct sweep_opts *o, int *lock)
{
        GError *e = NULL;

        if (!output_dir_adopt(sw->dir, "sweep", sweep_output_names, &e) ||
            (!o->emit && o->only < 0 && (*lock = output_dir_lock(sw->dir, &e)) < 0) ||
            (!o->emit && !check_grid(sw, !o->merge, &e))) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                return EXIT_USAGE;
        }
        return -1;
}

/* The options every emitted job repeats: a module by its absolute path, so
 * that the jobs run from anywhere. */
static void jobs_common_options(GString *common, const struct sweep *sw, const struct sweep_opts *o)
{
        for (int a = 0; a < sw->naxes; a++) {
                g_autofree char *q = g_shell_quote(o->vary[a]);

                g_string_append_printf(common, " --vary %s", q);
        }
        for (char **set = o->sets; set && *set; set++) {
                g_autofree char *q = g_shell_quote(*set);

                g_string_append_printf(common, " --set %s", q);
        }
        if (o->policies) {
                g_auto(GStrv) parts = g_strsplit(o->policies, ",", -1);
                g_autofree char *list = NULL;
                g_autofree char *q = NULL;

                for (char **p = parts; *p; p++)
                        if (policy_is_module_path(g_strstrip(*p))) {
                                char *abs = g_canonicalize_filename(*p, NULL);

                                g_free(*p);
                                *p = abs;
                        }
                list = g_strjoinv(",", parts);
                q = g_shell_quote(list);
                g_string_append_printf(common, " --policies %s", q);
        }
        if (o->metric) {        /* the jobs' rows carry its column */
                g_autofree char *q = g_shell_quote(o->metric);

                g_string_append_printf(common, " --metric %s", q);
        }
        g_string_append_printf(common, " --seeds %d --seed %" G_GUINT64_FORMAT, sw->seeds, sw->base_seed);
}

/* --emit-jobs FILE: one command per run, written whole or not at all; the
 * exit status. */
static int jobs_emitted(const struct sweep *sw, const struct sweep_opts *o)
{
        g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
        g_autofree char *qs = g_shell_quote(self);
        g_autofree char *abs_scn = g_canonicalize_filename(sw->scenario, NULL);
        g_autofree char *qscn = g_shell_quote(abs_scn);
        g_autofree char *abs_dir = g_canonicalize_filename(sw->dir, NULL);
        g_autofree char *qdir = g_shell_quote(abs_dir);
        g_autofree char *emit_dir = g_path_get_dirname(o->emit);
        g_autofree char *emit_name = g_path_get_basename(o->emit);
        g_autoptr(GString) common = g_string_new(NULL);
        GError *e = NULL;
        struct outfile *f = outfile_open(emit_dir, emit_name, &e);

        if (!f) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                return EXIT_FAILED;
        }
        jobs_common_options(common, sw, o);
        for (int id = 0; id < sw->nruns; id++)
                fprintf(outfile_stream(f), "%s sweep %s%s --out %s --quiet --only %d\n", qs, qscn, common->str,
                        qdir, id);
        /* every write checked: a full disk is a failure, not a cut line */
        if (!outfile_commit(f, &e)) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                return EXIT_FAILED;
        }
        if (!o->quiet)
                printf("%d jobs in %s; then: rcuboost sweep ... --merge --out %s\n", sw->nruns, o->emit, sw->dir);
        return EXIT_OK;
}

/* Every run not finished before, @jobs at a time; -1, or the exit status
 * (said) when interrupted. */
static int runs_run(struct sweep *sw, int jobs)
{
        GThreadPool *pool = g_thread_pool_new(pool_job, sw, jobs, TRUE, NULL);

        for (int id = 0; id < sw->nruns; id++)
                g_thread_pool_push(pool, GINT_TO_POINTER(id + 1), NULL);
        g_thread_pool_free(pool, FALSE, TRUE);
        if (!sw->quiet && isatty(STDERR_FILENO))
                fputc('\n', stderr);
        if (!cli_interrupt_status())
                return -1;
        fprintf(stderr, "rcuboost: sweep interrupted after %d of %d runs; run the same "
                "command again to finish it\n", sw->done - sw->failed, sw->nruns);
        return cli_interrupt_status();
}

/* sweep.csv from the runs' rows, the plot and its table; the exit status
 * @status becomes. */
static int results_written(struct sweep *sw, int status)
{
        GError *e = NULL;
        gboolean drawn;

        if (!write_csv(sw, &e)) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                return EXIT_FAILED;
        }
        sw->table = g_string_new(NULL);
        drawn = plot_sweep(sw, sw->metric);
        if (!sw->quiet)
                fputs(sw->table->str, stdout);
        if (!sw->quiet && drawn)
                printf("%d runs: %s/sweep.csv, plot %s/sweep.png\n", sw->nruns, sw->dir, sw->dir);
        else if (!sw->quiet)
                printf("%d runs: %s/sweep.csv (no plot)\n", sw->nruns, sw->dir);
        return status;
}

/* Read the options and check the whole grid before anything runs; then one
 * run (--only), the runs as commands (--emit-jobs), or the runs here, and
 * sweep.csv and its plot from their rows. */
int cli_sweep(int argc, char **argv)
{
        struct sweep_opts o = { .seeds = 1, .jobs = (gint)MIN(g_get_num_processors(), 64), .only = -1 };
        g_autoptr(GOptionContext) ctx = options_context(&o);
        struct sweep sw = { 0 };
        int status = EXIT_OK, sweep_lock = -1;

        g_mutex_init(&sw.lock);
        if (!cli_parse_options(ctx, &argc, &argv, &status) ||
            (status = options_checked(ctx, &sw, &o, argc, argv)) >= 0 || (status = scenario_read(ctx, &sw, &o)) >= 0 ||
            (status = runs_counted(ctx, &sw, &o)) >= 0 || (status = grid_checked(&sw)) >= 0)
                goto out;
        if (o.only < 0 && !o.emit)
                warnings_said(&sw);
        if ((status = metric_chosen(ctx, &sw, o.metric)) >= 0 || (status = dir_held(&sw, &o, &sweep_lock)) >= 0)
                goto out;
        if (o.only >= 0) {
                if (o.only >= sw.nruns)
                        status = cli_usage_error(ctx, "--only: run %d does not exist (0..%d)", o.only, sw.nruns - 1);
                else
                        status = run_one(&sw, o.only) ? EXIT_OK : EXIT_FAILED;
                goto out;
        }
        if (o.emit) {
                status = jobs_emitted(&sw, &o);
                goto out;
        }
        status = EXIT_OK;
        if (!o.merge) {
                if ((status = runs_run(&sw, o.jobs)) >= 0)
                        goto out;
                status = sw.failed ? EXIT_FAILED : EXIT_OK;
        }
        status = results_written(&sw, status);
out:
        sweep_clear(&sw);
        sweep_opts_clear(&o);
        output_dir_unlock(sweep_lock);
        return status;
}
