/* compare.c - `rcuboost compare`: one scenario, several policies, side by side.
 *
 * Runs the scenario once per policy with the same seed (so the same random
 * streams: differences come from the policy alone), writes each run's
 * outputs under DIR/POLICY/, a table of headline metrics (comparison.tsv,
 * comparison.md and stdout), and draws the comparison with gnuplot from the
 * templates embedded in the binary (copied to DIR/plots/ so they can be
 * edited and rerun by hand).  Without gnuplot the numbers are still written.
 */
#include <gio/gio.h>
#include <math.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "headline.h"
#include "policies/policy.h"
#include "sim/output.h"
#include "sim/report.h"
#include "sim/scenario.h"
#include "sim/sim.h"
#include "sim/units.h"

/* Distributions drawn as CDFs: metric, file stem, title, unit, ns per unit. */
static const struct {
        const char *metric, *stem, *what, *unit;
        double scale;
} cdfs[] = {
        { "gp_latency", "gp-latency", "Grace-period latency (rcupreempt: two consecutive flips)", "ms", 1e6 },
        { "flip_latency", "flip-latency", "Flip-cycle latency (one counter flip)", "ms", 1e6 },
        { "callback_latency", "callback-latency", "call_rcu() to callback invocation", "ms", 1e6 },
        { "sync_latency", "sync-latency", "synchronize_rcu() latency", "ms", 1e6 },
        { "rt_wakeup_latency", "rt-latency", "RT wake-up latency (cyclictest)", "us", 1e3 },
        { "policy_stats.boost_delay", "boost-delay", "Boost delay (first switch-out to boost)", "ms", 1e6 },
        { "policy_stats.boosted_time", "boosted-time", "Time boosted (boost to unboost)", "ms", 1e6 },
};

struct result {
        const char *policy;
        const char *status;             /* ok, failed, incomplete, unsafe */
        char *flavour;                  /* rcu.flavour: rcupreempt, tree */
        char *title;                    /* for plot legends: "pi-lock" or "pi-lock(FAILED)" */
        double values[HEADLINE_COUNT];
        gboolean oom;
        double oom_time_ns, oom_bytes;
        double pending_gp_ns;           /* grace period still pending at the end */
        double gp_max_ns;
        gboolean gp_pending_is_max;     /* the GP max is the pending one: at least */
        char *rt_class;                 /* the periodic class the RT rows summarise, or NULL */
        double counts[G_N_ELEMENTS(cdfs)];
};

/* @key's value, or NAN when it has none (the max of no samples). */
static double lookup(const struct report *r, const char *key)
{
        double v;

        return report_lookup(r, key, &v) ? v : NAN;
}

/* A row's header, naming the task class the RT rows summarise. */
static char *row_header(const struct headline_metric *m, const struct result *res)
{
        if (g_str_has_prefix(m->key, "rt_wakeup_top.") && res->rt_class)
                return g_strdup_printf("%s (%s)", m->header, res->rt_class);
        return g_strdup(m->header);
}

/* "ok", or the status in capitals so that a failed run is not read as a result. */
static const char *status_shown(const struct result *r)
{
        if (!strcmp(r->status, "ok"))
                return "ok";
        return !strcmp(r->status, "failed") ? "FAILED" : !strcmp(r->status, "unsafe") ? "UNSAFE" : "INCOMPLETE";
}

static gboolean write_tables(const char *dir, struct result *res, int n, GError **error)
{
        struct outfile *tsv = outfile_open(dir, "comparison.tsv", error);
        struct outfile *md;
        FILE *f;

        if (!tsv)
                return FALSE;
        f = outfile_stream(tsv);
        fputs("policy\tstatus\trcu.flavour", f);
        for (size_t c = 0; c < HEADLINE_COUNT; c++)
                fprintf(f, "\t%s", headline[c].key);
        fputc('\n', f);
        for (int p = 0; p < n; p++) {
                fprintf(f, "%s\t%s\t%s", res[p].policy, res[p].status, res[p].flavour ? res[p].flavour : "-");
                for (size_t c = 0; c < HEADLINE_COUNT; c++) {
                        if (isnan(res[p].values[c]))
                                fputs("\t-", f);
                        else
                                fprintf(f, "\t%.15g", res[p].values[c]);
                }
                fputc('\n', f);
        }
        if (!outfile_commit(tsv, error))
                return FALSE;

        md = outfile_open(dir, "comparison.md", error);
        if (!md)
                return FALSE;
        f = outfile_stream(md);
        fputs("| policy | run | RCU |", f);
        for (size_t c = 0; c < HEADLINE_COUNT; c++) {
                g_autofree char *h = row_header(&headline[c], &res[0]);

                fprintf(f, " %s |", h);
        }
        fputs("\n|---|---|---|", f);
        for (size_t c = 0; c < HEADLINE_COUNT; c++)
                fputs("---|", f);
        fputc('\n', f);
        for (int p = 0; p < n; p++) {
                fprintf(f, "| %s | %s | %s |", res[p].policy, status_shown(&res[p]), res[p].flavour ? res[p].flavour : "-");
                for (size_t c = 0; c < HEADLINE_COUNT; c++) {
                        g_autofree char *s = headline_format(&headline[c], res[p].values[c], res[p].oom, res[p].gp_pending_is_max);

                        fprintf(f, " %s |", s);
                }
                fputc('\n', f);
        }
        return outfile_commit(md, error);
}

/* The table on stdout, one row per metric so that it fits a terminal. */
static void print_table(struct result *res, int n)
{
        int w0 = 20, w = 16;

        for (size_t c = 0; c < HEADLINE_COUNT; c++) {
                g_autofree char *h = row_header(&headline[c], &res[0]);

                w0 = MAX(w0, (int)strlen(h) + 2);
        }

        printf("%-*s", w0, "");
        for (int p = 0; p < n; p++)
                printf("%*s", w, res[p].policy);
        putchar('\n');
        printf("%-*s", w0, "run");
        for (int p = 0; p < n; p++)
                printf("%*s", w, status_shown(&res[p]));
        putchar('\n');
        printf("%-*s", w0, "RCU flavour");
        for (int p = 0; p < n; p++)
                printf("%*s", w, res[p].flavour ? res[p].flavour : "-");
        putchar('\n');
        for (size_t c = 0; c < HEADLINE_COUNT; c++) {
                g_autofree char *h = row_header(&headline[c], &res[0]);

                printf("%-*s", w0, h);
                for (int p = 0; p < n; p++) {
                        g_autofree char *s = headline_format(&headline[c], res[p].values[c], res[p].oom, res[p].gp_pending_is_max);

                        printf("%*s", w, s);
                }
                putchar('\n');
        }
}

static gboolean write_events(const char *dir, struct result *res, int n, GError **error)
{
        struct outfile *o = outfile_open(dir, "oom-events.csv", error);

        if (!o)
                return FALSE;
        fputs("policy,time_s,mib\n", outfile_stream(o));
        for (int p = 0; p < n; p++)
                if (res[p].oom)
                        fprintf(outfile_stream(o), "%s,%.9f,%.6f\n", res[p].policy, res[p].oom_time_ns / 1e9,
                                res[p].oom_bytes / 1048576.0);
        if (!outfile_commit(o, error))
                return FALSE;
        /* Grace periods still pending at the end: a lower bound, drawn apart. */
        o = outfile_open(dir, "pending-gp.csv", error);
        if (!o)
                return FALSE;
        fputs("policy,pending_ms,y\n", outfile_stream(o));
        for (int p = 0; p < n; p++)
                if (res[p].pending_gp_ns > res[p].gp_max_ns)   /* worth seeing beside the tail */
                        fprintf(outfile_stream(o), "%s,%.6f,%.9g\n", res[p].policy, res[p].pending_gp_ns / 1e6,
                                1 / (res[p].counts[0] + 1));
        return outfile_commit(o, error);
}

/* ---- timeline preprocessing: lanes and colours for timeline.gp ---- */

static unsigned gp_colour(const char *phase)
{
        if (!strcmp(phase, "waitack"))
                return 0xf2c14e;
        if (!strcmp(phase, "waitzero"))
                return 0xe07b39;
        if (!strcmp(phase, "waitmb"))
                return 0x6aa84f;
        if (!strcmp(phase, "fqswait"))  /* Tree RCU: a grace period in progress */
                return 0xe07b39;
        return 0;       /* idle (and Tree RCU's instants init, cleanup): not drawn */
}

#define MAX_LANES 40            /* lanes in all */
#define MAX_TASK_COLOURS 10     /* tasks told apart by colour; the rest are grey */

/* What ran on the CPUs, told apart: none of the colours of critical sections
 * (blue), boosts (red) or the grace-period phases (yellow, orange, green). */
static const unsigned task_colours[MAX_TASK_COLOURS] = {
        0x8e6bb5, 0xa0785a, 0xe377c2, 0x17becf, 0xbcbd22, 0x4c5a67, 0xc7a97f, 0x9edae5, 0x7f3b08, 0xf7b6d2,
};
#define OTHER_TASKS 0xbfbfbf

struct timeline_prep {
        GHashTable *lane_of;            /* lane name -> GINT_TO_POINTER(index + 1) */
        GPtrArray *lanes;               /* in display order */
        GHashTable *colour_of;          /* task -> GUINT_TO_POINTER(rgb + 1) */
        GPtrArray *coloured;            /* tasks with their own colour, in order of appearance */
};

static gboolean is_row(char **f, const char *kind)
{
        return g_strv_length(f) >= 5 && !strcmp(f[0], kind);
}

static int cpu_number(const char *lane)
{
        return g_str_has_prefix(lane, "cpu") ? atoi(lane + 3) : -1;
}

static gint by_cpu_number(gconstpointer a, gconstpointer b)
{
        return cpu_number(*(char *const *)a) - cpu_number(*(char *const *)b);
}

/* Which lanes, in the cap: the grace-period machine and the boosted readers
 * first (what the plot is for), then the CPUs those readers ran on, then the
 * other CPUs, then the other readers.  Shown as CPUs, gp, readers. */
static void choose_lanes(struct timeline_prep *tp, char ***rows, int nrows)
{
        g_autoptr(GHashTable) chosen = g_hash_table_new(g_str_hash, g_str_equal);
        g_autoptr(GHashTable) boosted = g_hash_table_new(g_str_hash, g_str_equal);
        g_autoptr(GPtrArray) cpus = g_ptr_array_new();
        g_autoptr(GPtrArray) readers = g_ptr_array_new();
        gboolean gp = FALSE;
        guint total = 0;

#define TAKE(name, list)                                                                \
        do {                                                                            \
                if (total < MAX_LANES && !g_hash_table_contains(chosen, (name))) {      \
                        g_hash_table_add(chosen, (name));                               \
                        g_ptr_array_add((list), (name));                                \
                        total++;                                                        \
                }                                                                       \
        } while (0)
        for (int i = 0; i < nrows; i++) {
                if (is_row(rows[i], "gp") && !gp) {
                        gp = TRUE;
                        total++;
                }
                if (is_row(rows[i], "boosted"))
                        g_hash_table_add(boosted, rows[i][1]);
        }
        for (int i = 0; i < nrows; i++)
                if (is_row(rows[i], "boosted"))
                        TAKE(rows[i][1], readers);
        for (int i = 0; i < nrows; i++)
                if (is_row(rows[i], "run") && g_hash_table_contains(boosted, rows[i][4]))
                        TAKE(rows[i][1], cpus);
        for (int i = 0; i < nrows; i++)
                if (is_row(rows[i], "run"))
                        TAKE(rows[i][1], cpus);
        for (int i = 0; i < nrows; i++)
                if (is_row(rows[i], "cs"))
                        TAKE(rows[i][1], readers);
#undef TAKE
        g_ptr_array_sort(cpus, by_cpu_number);
        for (guint i = 0; i < cpus->len; i++)
                g_ptr_array_add(tp->lanes, g_strdup(cpus->pdata[i]));
        if (gp)
                g_ptr_array_add(tp->lanes, g_strdup("gp"));
        for (guint i = 0; i < readers->len; i++)
                g_ptr_array_add(tp->lanes, g_strdup(readers->pdata[i]));
        for (guint i = 0; i < tp->lanes->len; i++)
                g_hash_table_insert(tp->lane_of, tp->lanes->pdata[i], GUINT_TO_POINTER(i + 1));
}

/* A task's colour on the CPU lanes: its own for the first MAX_TASK_COLOURS
 * tasks to appear there (so a reader, a mutex owner and the task preempting
 * it differ), grey after that. */
static unsigned task_colour(struct timeline_prep *tp, const char *task)
{
        gpointer c = g_hash_table_lookup(tp->colour_of, task);

        if (c)
                return GPOINTER_TO_UINT(c) - 1;
        if (tp->coloured->len >= MAX_TASK_COLOURS)
                return OTHER_TASKS;
        g_hash_table_insert(tp->colour_of, g_strdup(task),
                            GUINT_TO_POINTER(task_colours[tp->coloured->len] + 1));
        g_ptr_array_add(tp->coloured, g_strdup(task));
        return task_colours[tp->coloured->len - 1];
}

struct task_time {
        const char *task;
        double ns;
};

static gint by_time_desc(gconstpointer a, gconstpointer b)
{
        const struct task_time *x = a, *y = b;

        return (x->ns < y->ns) - (x->ns > y->ns);
}

/* The colours go to the tasks that tell the story: the readers with a lane
 * (boosted ones first), then whoever ran longest on the CPUs shown (the
 * hog preempting a reader, a mutex owner). */
static void colour_tasks(struct timeline_prep *tp, char ***rows, int nrows)
{
        g_autoptr(GHashTable) time_of = g_hash_table_new(g_str_hash, g_str_equal);
        g_autoptr(GArray) times = g_array_new(FALSE, FALSE, sizeof(struct task_time));

        for (guint i = 0; i < tp->lanes->len; i++)
                if (!g_str_has_prefix(tp->lanes->pdata[i], "cpu") && strcmp(tp->lanes->pdata[i], "gp") != 0)
                        task_colour(tp, tp->lanes->pdata[i]);
        for (int i = 0; i < nrows; i++) {
                char **f = rows[i];
                gpointer at;

                if (!is_row(f, "run") || !g_hash_table_contains(tp->lane_of, f[1]))
                        continue;
                if (!(at = g_hash_table_lookup(time_of, f[4]))) {
                        struct task_time tt = { f[4], 0 };

                        g_array_append_val(times, tt);
                        at = GUINT_TO_POINTER(times->len);
                        g_hash_table_insert(time_of, f[4], at);
                }
                g_array_index(times, struct task_time, GPOINTER_TO_UINT(at) - 1).ns +=
                        g_ascii_strtod(f[3], NULL) - g_ascii_strtod(f[2], NULL);
        }
        g_array_sort(times, by_time_desc);
        for (guint i = 0; i < times->len; i++)
                task_colour(tp, g_array_index(times, struct task_time, i).task);
}

/* Write POLICY/timeline-plot.dat (boxes) and POLICY/timeline-marks.dat
 * (priority changes); *tics gets the gnuplot ytic list and *keys the task
 * colours ("name #rrggbb ..."), or FALSE. */
static gboolean prepare_timeline(const char *rundir, int *nlanes, char **tics, char **keys)
{
        g_autofree char *src = g_build_filename(rundir, "timeline.csv", NULL);
        g_autofree char *dst = g_build_filename(rundir, "timeline-plot.dat", NULL);
        g_autofree char *marks = g_build_filename(rundir, "timeline-marks.dat", NULL);
        g_autofree char *text = NULL;
        g_auto(GStrv) lines = NULL;
        struct timeline_prep tp = {
                .lane_of = g_hash_table_new(g_str_hash, g_str_equal),
                .lanes = g_ptr_array_new_with_free_func(g_free),
                .colour_of = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
                .coloured = g_ptr_array_new_with_free_func(g_free),
        };
        GString *out = g_string_new(NULL), *mk = g_string_new(NULL), *t = g_string_new(NULL), *k = g_string_new(NULL);
        char ***rows;
        int nrows = 0, tree_gps = 0;
        gboolean ok = FALSE;

        if (!g_file_get_contents(src, &text, NULL, NULL))
                goto out;
        lines = g_strsplit(text, "\n", -1);
        rows = g_new0(char **, g_strv_length(lines) + 1);
        for (int i = 1; lines[i]; i++)
                if (lines[i][0])
                        rows[nrows++] = g_strsplit(lines[i], ",", 5);
        choose_lanes(&tp, rows, nrows);
        colour_tasks(&tp, rows, nrows);
        /* Boxes: runs and GP phases, critical sections, their blocked stretches, boosts on top. */
        for (int pass = 0; pass < 4; pass++) {
                for (int i = 0; i < nrows; i++) {
                        char **f = rows[i];
                        gpointer lane;
                        unsigned rgb;
                        double h;

                        if (g_strv_length(f) < 5 || !(lane = g_hash_table_lookup(tp.lane_of, f[1])))
                                continue;
                        if (pass == 0 && !strcmp(f[0], "run")) {
                                rgb = task_colour(&tp, f[4]);
                                h = 0.4;
                        } else if (pass == 0 && !strcmp(f[0], "gp") && gp_colour(f[4])) {
                                rgb = gp_colour(f[4]);
                                /* Tree RCU's grace periods follow one another: every other one
                                 * lighter, so that a long one stands out from many short ones. */
                                if (!strcmp(f[4], "fqswait") && (tree_gps++ & 1))
                                        rgb = 0xf3b58a;
                                h = 0.4;
                        } else if (pass == 0 && !strcmp(f[0], "prio")) {
                                g_string_append_printf(mk, "%d %.6f\n", GPOINTER_TO_INT(lane) - 1,
                                                       g_ascii_strtod(f[2], NULL) / 1e6);
                                continue;
                        } else if (pass == 1 && !strcmp(f[0], "cs")) {
                                rgb = 0x4f81bd;
                                h = 0.3;
                        } else if (pass == 2 && !strcmp(f[0], "blocked")) {
                                rgb = 0xa9c4e4;
                                h = 0.3;
                        } else if (pass == 3 && !strcmp(f[0], "boosted")) {
                                rgb = 0xc00000;
                                h = 0.12;
                        } else {
                                continue;
                        }
                        g_string_append_printf(out, "%d %.6f %.6f %.2f %u\n", GPOINTER_TO_INT(lane) - 1,
                                               g_ascii_strtod(f[2], NULL) / 1e6,
                                               g_ascii_strtod(f[3], NULL) / 1e6, h, rgb);
                }
        }
        /* gnuplot wants a point to plot, even when no priority changed: one
         * off the lanes (-1) at the window's start, so the time axis keeps
         * to the window (a point at -1 ms stretched it to include 0). */
        if (!mk->len)
                g_string_append_printf(mk, "-1 %.6f\n", nrows && g_strv_length(rows[0]) >= 3
                                       ? g_ascii_strtod(rows[0][2], NULL) / 1e6 : 0.0);
        for (int i = 0; i < nrows; i++)
                g_strfreev(rows[i]);
        g_free(rows);
        if (!g_file_set_contents(dst, out->str, (gssize)out->len, NULL) ||
            !g_file_set_contents(marks, mk->str, (gssize)mk->len, NULL))
                goto out;
        for (guint i = 0; i < tp.lanes->len; i++) {
                g_autofree char *lit = cli_gnuplot_literal(tp.lanes->pdata[i]);

                g_string_append_printf(t, "%s%s %u", i ? ", " : "", lit, i);
        }
        for (guint i = 0; i < tp.coloured->len; i++)
                g_string_append_printf(k, "%s%s #%06x", i ? " " : "", (char *)tp.coloured->pdata[i],
                                       GPOINTER_TO_UINT(g_hash_table_lookup(tp.colour_of, tp.coloured->pdata[i])) - 1);
        *nlanes = (int)tp.lanes->len;
        *tics = g_string_free(g_steal_pointer(&t), FALSE);
        *keys = g_string_free(g_steal_pointer(&k), FALSE);
        ok = TRUE;
out:
        g_hash_table_destroy(tp.lane_of);
        g_ptr_array_unref(tp.lanes);
        g_hash_table_destroy(tp.colour_of);
        g_ptr_array_unref(tp.coloured);
        g_string_free(out, TRUE);
        g_string_free(mk, TRUE);
        if (t)
                g_string_free(t, TRUE);
        if (k)
                g_string_free(k, TRUE);
        return ok;
}

/* ---- gnuplot ---- */

struct plotter {
        const char *dir;
        const char *format;
        const char *scenario;
        int drawn, failed;
};


static const char *terminal(const char *format, int height)
{
        static char buf[128];

        if (!strcmp(format, "svg"))
                g_snprintf(buf, sizeof(buf), "svg size 1100,%d dynamic font \"Sans,11\"", height);
        else if (!strcmp(format, "pdf"))
                g_snprintf(buf, sizeof(buf), "pdfcairo size 11in,%.2fin font \"Sans,10\"", height / 100.0);
        else
                g_snprintf(buf, sizeof(buf), "pngcairo size 1100,%d font \"Sans,10\"", height);
        return buf;
}

/* Run template @name writing DIR/@stem.FORMAT, with @vars already set. */
/* Run template @name for the runs @idx[0..nidx) of @res. */
static void draw(struct plotter *pl, const char *name, const char *stem, GString *vars, int height,
                 const struct result *res, const int *idx, int nidx)
{
        GString *pols = g_string_new(NULL), *titles = g_string_new(NULL), *colours = g_string_new(NULL);

        for (int i = 0; i < nidx; i++) {
                const struct result *r = &res[idx[i]];

                g_string_append_printf(pols, "%s%s", i ? " " : "", r->policy);
                g_string_append_printf(titles, "%s%s", i ? " " : "", r->title);
                g_string_append_printf(colours, "%s%s", i ? " " : "", cli_policy_colour(r->policy));
        }
        cli_gnuplot_var(vars, "policies", pols->str);
        cli_gnuplot_var(vars, "titles", titles->str);
        cli_gnuplot_var(vars, "colours", colours->str);
        g_string_free(pols, TRUE);
        g_string_free(titles, TRUE);
        g_string_free(colours, TRUE);

        g_autofree char *plotdir = g_build_filename(pl->dir, "plots", NULL);
        g_autofree char *script = g_build_filename(plotdir, name, NULL);
        g_autofree char *final = g_strdup_printf("%s/%s.%s", pl->dir, stem, pl->format);
        g_autofree char *tmp = g_strdup_printf("%s/.%s.%s.tmp", pl->dir, stem, pl->format);
        GError *e = NULL;

        g_mkdir_with_parents(plotdir, 0755);
        cli_gnuplot_var(vars, "datadir", pl->dir);
        cli_gnuplot_var(vars, "scenario", pl->scenario);
        cli_gnuplot_var(vars, "term", terminal(pl->format, height));
        cli_gnuplot_var(vars, "outfile", tmp);
        if (!cli_gnuplot(name, script, vars->str, &e)) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                g_unlink(tmp);
                pl->failed++;
                return;
        }
        if (g_rename(tmp, final) != 0) {
                fprintf(stderr, "rcuboost: cannot write %s\n", final);
                pl->failed++;
                return;
        }
        pl->drawn++;
}

/* POLICY/tail-STEM.dat: the fraction of @metric's samples at or above x
 * (the complementary CDF), from distributions.csv's exact counts: a point
 * at both edges of every bin, the last at the maximum with 1/N, so that
 * the slowest sample shows on a log axis. */
static gboolean prepare_tail(const char *rundir, const char *metric, const char *stem)
{
        g_autofree char *src = g_build_filename(rundir, "distributions.csv", NULL);
        g_autofree char *name = g_strdup_printf("tail-%s.dat", stem);
        g_autofree char *dst = g_build_filename(rundir, name, NULL);
        g_autofree char *text = NULL;
        g_auto(GStrv) lines = NULL;
        struct bin { double lo, hi, n; };
        g_autoptr(GArray) rows = g_array_new(FALSE, FALSE, sizeof(struct bin));
        GString *out = g_string_new("x_ns,fraction_at_or_above\n");
        double total = 0, cum = 0;
        gboolean ok;

        if (!g_file_get_contents(src, &text, NULL, NULL)) {
                g_string_free(out, TRUE);
                return FALSE;
        }
        lines = g_strsplit(text, "\n", -1);
        for (int i = 1; lines[i]; i++) {
                g_auto(GStrv) f = g_strsplit(lines[i], ",", 6);
                struct bin b;

                if (g_strv_length(f) < 4 || strcmp(f[0], metric) != 0)
                        continue;
                b.lo = g_ascii_strtod(f[1], NULL);
                b.hi = g_ascii_strtod(f[2], NULL);
                b.n = g_ascii_strtod(f[3], NULL);
                total += b.n;
                g_array_append_val(rows, b);
        }
        for (guint i = 0; i < rows->len && total > 0; i++) {
                const struct bin *b = &g_array_index(rows, struct bin, i);

                /* Both edges of every bin: flat between bins, where no sample is. */
                g_string_append_printf(out, "%.0f,%.9g\n", b->lo, (total - cum) / total);
                cum += b->n;
                g_string_append_printf(out, "%.0f,%.9g\n", b->hi, i + 1 < rows->len ? (total - cum) / total
                                                                                : 1 / total);
        }
        ok = g_file_set_contents(dst, out->str, (gssize)out->len, NULL);
        g_string_free(out, TRUE);
        return ok && total > 0;
}

static void draw_all(struct plotter *pl, struct result *res, int n, int64_t limit_bytes)
{
        GString *vars = g_string_new(NULL);
        int all[n], some[n];
        char num[64];

        for (int p = 0; p < n; p++)
                all[p] = p;
        g_snprintf(num, sizeof(num), "limit_mib=%.6f; ", limit_bytes / 1048576.0);
        g_string_append(vars, num);
        draw(pl, "memory.gp", "memory", vars, 600, res, all, n);
        for (size_t k = 0; k < G_N_ELEMENTS(cdfs); k++) {
                int nsome = 0;

                /* Only the runs that measured something are in the plot and its key. */
                for (int p = 0; p < n; p++) {
                        g_autofree char *rundir = g_build_filename(pl->dir, res[p].policy, NULL);

                        if (res[p].counts[k] > 0 && prepare_tail(rundir, cdfs[k].metric, cdfs[k].stem))
                                some[nsome++] = p;
                }
                if (nsome == 0)
                        continue;       /* e.g. no synchronize_rcu() in this scenario */
                g_string_truncate(vars, 0);
                cli_gnuplot_var(vars, "stem", cdfs[k].stem);
                cli_gnuplot_var(vars, "what", cdfs[k].what);
                cli_gnuplot_var(vars, "unit", cdfs[k].unit);
                g_snprintf(num, sizeof(num), "scale=%g; ", cdfs[k].scale);
                g_string_append(vars, num);
                if (k == 0) {
                        g_autofree char *pending = g_build_filename(pl->dir, "pending-gp.csv", NULL);

                        /* The macro names the file through a variable: no path in gnuplot code. */
                        cli_gnuplot_var(vars, "pending", pending);
                        cli_gnuplot_var(vars, "extra",
                                        ", pending every ::1 using 2:3 with points pt 9 ps 2.5 lc rgb \"#c00000\" "
                                        "title \"still pending at the end (at least)\", "
                                        "pending every ::1 using 2:3:1 with labels offset char 0,-1.3 notitle");
                } else {
                        cli_gnuplot_var(vars, "extra", "");
                }
                draw(pl, "cdf.gp", cdfs[k].stem, vars, 600, res, some, nsome);
        }
        for (int p = 0; p < n; p++) {
                g_autofree char *rundir = g_build_filename(pl->dir, res[p].policy, NULL);
                g_autofree char *datafile = g_build_filename(rundir, "timeline-plot.dat", NULL);
                g_autofree char *stem = g_strdup_printf("timeline-%s", res[p].policy);
                g_autofree char *marks = g_build_filename(rundir, "timeline-marks.dat", NULL);
                g_autofree char *tics = NULL, *keys = NULL;
                int nlanes = 0;

                if (!prepare_timeline(rundir, &nlanes, &tics, &keys) || nlanes == 0)
                        continue;
                g_string_truncate(vars, 0);
                cli_gnuplot_var(vars, "datafile", datafile);
                cli_gnuplot_var(vars, "marks", marks);
                cli_gnuplot_var(vars, "policy", res[p].title);
                cli_gnuplot_var(vars, "yticks", tics);
                cli_gnuplot_var(vars, "taskkeys", keys);
                g_snprintf(num, sizeof(num), "nlanes=%d; ", nlanes);
                g_string_append(vars, num);
                /* room for the key: a row per three tasks */
                draw(pl, "timeline.gp", stem, vars, 200 + 26 * nlanes + 18 * ((int)strlen(keys) > 0 ? 4 : 0),
                     res, &all[p], 1);
        }
        g_string_free(vars, TRUE);
}

/* ---- the runs ---- */

struct compare_job {
        struct sim *sim;
        struct result *res;
        char *rundir;
        char *tracefile;
        char *error;            /* the run failed */
        int error_status;       /* and the exit status that calls for */
        gint permille;          /* progress, for the terminal (atomic) */
        bool unsafe;            /* the oracle saw a violation */
};

static void compare_job_run(gpointer data, gpointer user)
{
        struct compare_job *job = data;
        struct result *res = job->res;
        const struct report *r;
        GError *e = NULL;

        (void)user;
        /* In slices, so that the terminal can show how far each policy got. */
        int64_t end = sim_end_time(job->sim);

        while (sim_run_slice(job->sim, MAX(end / 200, 1)))
                g_atomic_int_set(&job->permille, (gint)(1000.0 * (double)sim_now(job->sim) / (double)end));
        sim_run(job->sim);
        g_atomic_int_set(&job->permille, 1000);
        if (!sim_finish(job->sim, &e)) {
                job->error = g_strdup(e->message);
                job->error_status = cli_error_status(e);
                g_error_free(e);
        }
        r = sim_report(job->sim);
        for (size_t c = 0; c < HEADLINE_COUNT; c++)
                res->values[c] = lookup(r, headline[c].key);
        res->oom = lookup(r, "memory.oom") != 0;
        res->oom_time_ns = lookup(r, "memory.oom_time_ns");
        res->oom_bytes = lookup(r, "memory.oom_bytes");
        res->pending_gp_ns = lookup(r, "rcu.gp_in_progress_ns");
        res->gp_max_ns = lookup(r, "gp_latency.max_ns");
        if (isnan(res->gp_max_ns))
                res->gp_max_ns = 0;             /* no grace period completed */
        res->gp_pending_is_max = lookup(r, "rcu.gp_max_is_pending") == 1;
        res->rt_class = g_strdup(report_lookup_string(r, "rt_wakeup_top.class"));
        for (size_t k = 0; k < G_N_ELEMENTS(cdfs); k++) {
                g_autofree char *key = g_strconcat(cdfs[k].metric, ".count", NULL);

                res->counts[k] = lookup(r, key);
        }
        res->flavour = g_strdup(report_lookup_string(r, "rcu.flavour"));
        job->unsafe = sim_safety_violations(job->sim) > 0;
        res->status = job->error ? "failed" : !sim_complete(job->sim) ? "incomplete" : job->unsafe ? "unsafe" : "ok";
        res->title = strcmp(res->status, "ok") ? g_strdup_printf("%s(%s)", res->policy, status_shown(res))
                                               : g_strdup(res->policy);
}

static void compare_jobs_free(struct compare_job *jobs, guint n)
{
        for (guint p = 0; p < n; p++) {
                sim_free(jobs[p].sim);
                g_free(jobs[p].rundir);
                g_free(jobs[p].tracefile);
                g_free(jobs[p].error);
        }
        g_free(jobs);
}

/* DIR holds one compare's files and nothing of an earlier one: its own
 * files are removed, and so are the runs of policies not compared now. */
static int prepare_out(const char *out, GPtrArray *names, GError **error)
{
        int lock;
        g_autoptr(GPtrArray) ours = g_ptr_array_new_with_free_func(g_free);
        static const char *const files[] = { "comparison.tsv", "comparison.md", "oom-events.csv", "pending-gp.csv",
                                             "*.png", "*.svg", "*.pdf", "plots/" };

        for (size_t i = 0; i < G_N_ELEMENTS(files); i++)
                g_ptr_array_add(ours, g_strdup(files[i]));
        for (const struct boost_policy_ops *const *p = policy_registry; *p; p++)
                g_ptr_array_add(ours, g_strconcat((*p)->name, "/", NULL));
        g_ptr_array_add(ours, NULL);
        lock = output_dir_claim(out, (const char *const *)ours->pdata, error);
        if (lock < 0)
                return -1;
        for (const struct boost_policy_ops *const *p = policy_registry; *p; p++) {
                g_autofree char *dir = g_build_filename(out, (*p)->name, NULL);
                gboolean compared = FALSE;

                for (guint i = 0; i < names->len; i++)
                        compared |= !strcmp(names->pdata[i], (*p)->name);
                if (compared || !g_file_test(dir, G_FILE_TEST_IS_DIR))
                        continue;
                int stale = output_dir_claim(dir, sim_output_names, NULL);

                if (stale >= 0) {
                        g_autofree char *lockfile = g_build_filename(dir, ".rcuboost.lock", NULL);

                        g_unlink(lockfile);
                        output_dir_unlock(stale);
                        g_rmdir(dir);   /* stays if it holds anything else */
                }
        }
        return lock;
}

static void results_free(struct result *res, guint n)
{
        for (guint p = 0; p < n; p++) {
                g_free(res[p].title);
                g_free(res[p].flavour);
                g_free(res[p].rt_class);
        }
        g_free(res);
}

/* ---- the command ---- */

int cli_compare(int argc, char **argv)
{
        g_autofree char *policies_opt = NULL;
        g_autofree char *out = NULL;
        g_autofree char *seed = NULL;
        g_autofree char *format = NULL;
        g_autofree char *window = NULL;
        g_auto(GStrv) sets = NULL;
        gboolean quiet = FALSE;
        gboolean trace = FALSE;
        g_autofree char *trace_format = NULL;
        g_autofree char *trace_window = NULL;
        gint nthreads = (gint)MIN(g_get_num_processors(), 64);
        struct compare_job *jobs;
        const GOptionEntry entries[] = {
                { "policies", 'p', 0, G_OPTION_ARG_STRING, &policies_opt,
                  "Comma-separated policies to compare (default: all)", "A,B,..." },
                { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Output directory (default: out/SCENARIO)", "DIR" },
                { "seed", 's', 0, G_OPTION_ARG_STRING, &seed, "Random seed for every run", "N" },
                { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Plot format: png (default), svg or pdf", "FMT" },
                { "window", 'w', 0, G_OPTION_ARG_STRING, &window,
                  "Timeline window, e.g. 990ms,60ms (default: [output] timeline_start/_length)", "START,LENGTH" },
                { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Override a scenario key (repeatable)",
                  "SECTION.KEY=VALUE" },
                { "jobs", 'j', 0, G_OPTION_ARG_INT, &nthreads, "Runs in parallel (default: one per CPU)", "J" },
                { "trace", 't', 0, G_OPTION_ARG_NONE, &trace,
                  "Also write DIR/POLICY/trace.json (Chrome trace events, for Perfetto)", NULL },
                { "trace-format", 0, 0, G_OPTION_ARG_STRING, &trace_format,
                  "json (default), ftrace (DIR/POLICY/trace.txt, kernel tracepoint lines) or dat "
                  "(DIR/POLICY/trace.dat, for trace-cmd report and KernelShark)", "FORMAT" },
                { "trace-window", 0, 0, G_OPTION_ARG_STRING, &trace_window,
                  "Trace only this window, e.g. 990ms,60ms (default: the timeline window; 'all' for the whole run)",
                  "START,LENGTH" },
                { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing but errors", NULL },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("[SCENARIO] - run a scenario under several policies and plot them");
        g_autoptr(GPtrArray) overrides = g_ptr_array_new_with_free_func(g_free);
        g_autoptr(GPtrArray) names = g_ptr_array_new();
        g_autoptr(RcbScenario) sc = NULL;
        struct result *res;
        struct sim_options opts = { 0 };
        int status = EXIT_OK;
        GError *e = NULL;

        g_option_context_add_main_entries(ctx, entries, NULL);
        g_option_context_set_description(ctx,
                "Runs the scenario once per policy with the same seed and random streams, writes each\n"
                "run's outputs to DIR/POLICY/, the headline table to DIR/comparison.tsv and .md (and\n"
                "stdout), and plots with gnuplot: memory, grace-period / callback / synchronize_rcu /\n"
                "RT wake-up latency CDFs, boost delay and time boosted, and a timeline per policy.\n"
                "Without SCENARIO it runs the built-in default (scenarios/oom.scn).\n\n"
                "Examples:\n  rcuboost compare\n"
                "  rcuboost compare scenarios/many-readers.scn --policies booster,pi-lock --format svg\n\n"
                CLI_EXIT_HELP);
        if (!cli_parse_options(ctx, &argc, &argv, &status))
                return status;
        if (argc > 2)
                return cli_usage_error(ctx, "compare: one scenario at a time");
        if (nthreads < 1 || nthreads > 1024)
                return cli_usage_error(ctx, "--jobs: expected 1 to 1024");
        if (format && strcmp(format, "png") && strcmp(format, "svg") && strcmp(format, "pdf"))
                return cli_usage_error(ctx, "--format: '%s' is not png, svg or pdf", format);
        if (seed && !cli_parse_seed(seed, &opts.seed))
                return cli_usage_error(ctx, "--seed: '%s' is not a whole number from 0 to 2^63-1", seed);
        opts.seed_set = seed != NULL;
        if (!cli_trace_format(trace_format, NULL, &opts.trace_format))
                return cli_usage_error(ctx, "--trace-format: '%s' is not json, ftrace or dat", trace_format);
        if (trace_format && !trace)
                return cli_usage_error(ctx, "--trace-format needs --trace");
        if (trace_window && !trace)
                return cli_usage_error(ctx, "--trace-window needs --trace");
        if (trace_window && strcmp(trace_window, "all") != 0 &&
            !cli_parse_window(trace_window, &opts.trace_start_ns, &opts.trace_length_ns))
                return cli_usage_error(ctx, "--trace-window: expected START,LENGTH with units, e.g. 990ms,60ms, or all");
        for (char **s = sets; s && *s; s++)
                g_ptr_array_add(overrides, g_strdup(*s));
        if (window) {
                int64_t start, length;

                if (!cli_parse_window(window, &start, &length))
                        return cli_usage_error(ctx, "--window: expected START,LENGTH with units, e.g. 990ms,60ms");
                g_ptr_array_add(overrides, g_strdup_printf("output.timeline_start=%" G_GINT64_FORMAT "ns", (gint64)start));
                g_ptr_array_add(overrides, g_strdup_printf("output.timeline_length=%" G_GINT64_FORMAT "ns", (gint64)length));
        }
        g_ptr_array_add(overrides, NULL);
        sc = argc == 2 ? scenario_load(argv[1], (const char *const *)overrides->pdata, &e)
                       : scenario_load_data(cli_default_scenario(), "default.scn",
                                            (const char *const *)overrides->pdata, &e);
        if (!sc) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                return EXIT_USAGE;
        }
        if (!cli_parse_policies(ctx, policies_opt, names, &status))
                return status;
        if (!out)
                out = g_build_filename("out", sc->name, NULL);
        /* A trace per policy of a whole big run is hundreds of MB: by default
         * the window the timeline plots show (bench-large: about 2 MB). */
        if (trace && !trace_window) {
                opts.trace_start_ns = sc->timeline_start_ns;
                opts.trace_length_ns = sc->timeline_length_ns;
        }

        /* Every policy must be able to run it before any output is made. */
        for (guint p = 0; p < names->len; p++) {
                if (!sim_check(sc, names->pdata[p], &e)) {
                        fprintf(stderr, "rcuboost: %s\n", e->message);
                        g_error_free(e);
                        return EXIT_USAGE;
                }
        }
        /* Held until the process ends: one compare at a time in DIR. */
        if (prepare_out(out, names, &e) < 0) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                status = cli_error_status(e);
                g_error_free(e);
                return status;
        }
        res = g_new0(struct result, names->len);
        jobs = g_new0(struct compare_job, names->len);
        for (guint p = 0; p < names->len; p++) {
                struct compare_job *job = &jobs[p];

                job->res = &res[p];
                job->res->policy = names->pdata[p];
                job->rundir = g_build_filename(out, names->pdata[p], NULL);
                job->tracefile = g_build_filename(job->rundir, cli_trace_file_name(opts.trace_format), NULL);
                opts.policy = names->pdata[p];
                opts.out_dir = job->rundir;
                opts.trace = trace ? job->tracefile : NULL;
                opts.interrupt = cli_interrupt_flag();
                job->sim = sim_new(sc, &opts, &e);
                if (!job->sim) {
                        fprintf(stderr, "rcuboost: %s\n", e->message);
                        status = cli_error_status(e);
                        g_error_free(e);
                        compare_jobs_free(jobs, names->len);
                        results_free(res, names->len);
                        return status;
                }
        }
        if (!quiet) {
                for (guint p = 0; p < names->len; p++)
                        cli_print_warnings(p == 0 ? sc : NULL, jobs[p].sim);
                cli_warn_if_long(jobs[0].sim);
        }
        if (!quiet) {
                g_ptr_array_add(names, NULL);
                g_autofree char *list = g_strjoinv(", ", (char **)names->pdata);

                g_ptr_array_set_size(names, names->len - 1);
                fprintf(stderr, "rcuboost: running %s with %s (%d at a time)...\n", sc->name, list,
                        MIN(nthreads, (int)names->len));
        }
        /* Each run has its own struct sim: they run side by side. */
        GThreadPool *pool = g_thread_pool_new(compare_job_run, NULL, nthreads, TRUE, NULL);

        for (guint p = 0; p < names->len; p++)
                g_thread_pool_push(pool, &jobs[p], NULL);
        if (!quiet && isatty(STDERR_FILENO)) {
                /* One line: how far each policy's run got. */
                for (gboolean done = FALSE; !done; ) {
                        GString *line = g_string_new("\r");

                        done = TRUE;
                        for (guint p = 0; p < names->len; p++) {
                                gint pm = g_atomic_int_get(&jobs[p].permille);

                                done &= pm >= 1000;
                                g_string_append_printf(line, "%s %3d%%  ", (char *)names->pdata[p], pm / 10);
                        }
                        fputs(line->str, stderr);
                        g_string_free(line, TRUE);
                        if (!done)
                                g_usleep(200000);
                }
                fputs("\r\033[K", stderr);
        }
        g_thread_pool_free(pool, FALSE, TRUE);
        for (guint p = 0; p < names->len; p++) {
                if (jobs[p].error) {
                        fprintf(stderr, "rcuboost: %s: %s\n", jobs[p].res->policy, jobs[p].error);
                        status = MAX(status, jobs[p].error_status);
                }
                if (jobs[p].unsafe && status == EXIT_OK)
                        status = EXIT_UNSAFE;
                if (!strcmp(jobs[p].res->status, "incomplete") && !cli_interrupt_status()) {
                        fprintf(stderr, "rcuboost: %s: stopped early (%s): its results are incomplete\n",
                                jobs[p].res->policy, sim_end_reason(jobs[p].sim));
                        if (status == EXIT_OK)
                                status = EXIT_FAILED;
                }
        }
        compare_jobs_free(jobs, names->len);
        if (cli_interrupt_status()) {
                fprintf(stderr, "rcuboost: interrupted; the outputs are marked \"complete\": false\n");
                results_free(res, names->len);
                return cli_interrupt_status();
        }
        if (!write_tables(out, res, (int)names->len, &e) || !write_events(out, res, (int)names->len, &e)) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                results_free(res, names->len);
                return EXIT_FAILED;
        }
        if (!quiet)
                print_table(res, (int)names->len);

        g_autofree char *gnuplot = g_find_program_in_path("gnuplot");

        if (!gnuplot) {
                fprintf(stderr, "rcuboost: gnuplot not found: no plots drawn (install it, e.g. apt-get "
                        "install gnuplot-nox); the numbers are in %s/comparison.tsv\n", out);
        } else {
                struct plotter pl = {
                        .dir = out, .format = format ? format : "png", .scenario = sc->name,
                };

                draw_all(&pl, res, (int)names->len, sc->memory_limit_bytes);
                if (pl.failed && status == EXIT_OK)
                        status = EXIT_FAILED;
                if (!quiet)
                        printf("\n%d plots in %s/ (templates in %s/plots/); table in %s/comparison.md\n",
                               pl.drawn, out, out, out);
        }
        results_free(res, names->len);
        return status;
}
