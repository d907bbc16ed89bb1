/* compare_plots.c - the plots of `rcuboost compare`: memory (median and
 * range, per outcome where the runs split), the latency tails pooled over
 * the runs, and a timeline per policy with a task in the same colour in
 * each, drawn by plot.c from the embedded templates. */
#include <glib/gstdio.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare_plots.h"
#include "cli.h"
#include "compare_table.h"
#include "sim/output/output.h"
#include "sim/scenario/units.h"

const struct compare_tail compare_tails[COMPARE_TAILS] = {
        { "gp_latency", "gp-latency", "Grace-period latency", "ms", 1e6 },
        { "flip_latency", "flip-latency", "Flip-cycle latency (rcupreempt: one counter flip)", "ms", 1e6 },
        { "callback_latency", "callback-latency", "call_rcu() to callback invocation", "ms", 1e6 },
        { "sync_latency", "sync-latency", "synchronize_rcu() latency", "ms", 1e6 },
        { "rt_wakeup_latency", "rt-latency", "RT wake-up latency (cyclictest, every periodic task)", "us", 1e3 },
        { "policy_stats.boost_delay", "boost-delay", "Boost delay (first switch-out to boost)", "ms", 1e6 },
        { "policy_stats.boosted_time", "boosted-time", "Time boosted (boost to unboost)", "ms", 1e6 },
};

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

/* The task colours of one compare's timelines: a task keeps its colour in
 * every policy's timeline (#48: the reader was purple in one, pink in the
 * next). */
struct task_palette {
        GHashTable *colour_of;          /* task -> GUINT_TO_POINTER(rgb + 1) */
        GPtrArray *coloured;            /* tasks with their own colour, in order of appearance */
};

struct timeline_prep {
        GHashTable *lane_of;            /* lane name -> GINT_TO_POINTER(index + 1) */
        GPtrArray *lanes;               /* in display order */
        struct task_palette *pal;       /* shared by the compare's timelines */
        GPtrArray *shown;               /* the coloured tasks of this timeline, for its key */
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
        struct task_palette *pal = tp->pal;
        gpointer c = g_hash_table_lookup(pal->colour_of, task);

        if (!c) {
                if (pal->coloured->len >= MAX_TASK_COLOURS)
                        return OTHER_TASKS;
                c = GUINT_TO_POINTER(task_colours[pal->coloured->len] + 1);
                g_hash_table_insert(pal->colour_of, g_strdup(task), c);
                g_ptr_array_add(pal->coloured, g_strdup(task));
        }
        if (!g_ptr_array_find_with_equal_func(tp->shown, task, g_str_equal, NULL))
                g_ptr_array_add(tp->shown, g_strdup(task));
        return GPOINTER_TO_UINT(c) - 1;
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

/* The colours go to the tasks that tell the story: the boosted readers,
 * then whoever ran longest on the CPUs shown (the hog preempting a reader,
 * a mutex owner: with many readers, a hog left grey would hide the cause),
 * then the other readers with a lane. */
static void colour_tasks(struct timeline_prep *tp, char ***rows, int nrows)
{
        g_autoptr(GHashTable) time_of = g_hash_table_new(g_str_hash, g_str_equal);
        g_autoptr(GHashTable) boosted = g_hash_table_new(g_str_hash, g_str_equal);
        g_autoptr(GArray) times = g_array_new(FALSE, FALSE, sizeof(struct task_time));

        for (int i = 0; i < nrows; i++)
                if (is_row(rows[i], "boosted"))
                        g_hash_table_add(boosted, rows[i][1]);
        for (guint i = 0; i < tp->lanes->len; i++)
                if (g_hash_table_contains(boosted, tp->lanes->pdata[i]))
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
        for (guint i = 0; i < tp->lanes->len; i++)
                if (!g_str_has_prefix(tp->lanes->pdata[i], "cpu") && strcmp(tp->lanes->pdata[i], "gp") != 0)
                        task_colour(tp, tp->lanes->pdata[i]);
}

/* Write POLICY/timeline-plot.dat (boxes) and POLICY/timeline-marks.dat
 * (priority changes); *tics gets the gnuplot ytic list and *keys the task
 * colours ("name #rrggbb ..."), or FALSE. */
static gboolean prepare_timeline(const char *rundir, struct task_palette *pal, int *nlanes, char **tics,
                                 char **keys)
{
        g_autofree char *src = g_build_filename(rundir, "timeline.csv", NULL);
        g_autofree char *dst = g_build_filename(rundir, "timeline-plot.dat", NULL);
        g_autofree char *marks = g_build_filename(rundir, "timeline-marks.dat", NULL);
        g_autofree char *text = NULL;
        g_auto(GStrv) lines = NULL;
        struct timeline_prep tp = {
                .lane_of = g_hash_table_new(g_str_hash, g_str_equal),
                .lanes = g_ptr_array_new_with_free_func(g_free),
                .pal = pal,
                .shown = g_ptr_array_new_with_free_func(g_free),
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
        if (!output_set_contents(dst, out->str, (gssize)out->len, NULL) ||
            !output_set_contents(marks, mk->str, (gssize)mk->len, NULL))
                goto out;
        for (guint i = 0; i < tp.lanes->len; i++) {
                g_autofree char *lit = plot_literal(tp.lanes->pdata[i]);

                g_string_append_printf(t, "%s%s %u", i ? ", " : "", lit, i);
        }
        for (guint i = 0; i < tp.shown->len; i++)
                g_string_append_printf(k, "%s%s #%06x", i ? " " : "", (char *)tp.shown->pdata[i],
                                       GPOINTER_TO_UINT(g_hash_table_lookup(pal->colour_of, tp.shown->pdata[i])) - 1);
        *nlanes = (int)tp.lanes->len;
        *tics = g_string_free(g_steal_pointer(&t), FALSE);
        *keys = g_string_free(g_steal_pointer(&k), FALSE);
        ok = TRUE;
out:
        g_hash_table_destroy(tp.lane_of);
        g_ptr_array_unref(tp.lanes);
        g_ptr_array_unref(tp.shown);
        g_string_free(out, TRUE);
        g_string_free(mk, TRUE);
        if (t)
                g_string_free(t, TRUE);
        if (k)
                g_string_free(k, TRUE);
        return ok;
}

/* ---- drawing ---- */

/* Run template @name for the policies @idx[0..nidx) of @prs, writing
 * DIR/@stem.FORMAT; @vars has the template's own variables already. */
static void draw(struct plotter *pl, const char *name, const char *stem, GString *vars, int height,
                 const struct policy_runs *prs, const int *idx, int nidx, GPtrArray *titles_of)
{
        GString *pols = g_string_new(NULL), *titles = g_string_new(NULL), *colours = g_string_new(NULL);

        for (int i = 0; i < nidx; i++) {
                const struct policy_runs *pr = &prs[idx[i]];
                /* one word each: gnuplot's word() splits on blanks outside quotes */
                g_autofree char *title = plot_literal(titles_of ? titles_of->pdata[i] : pr->title);

                g_string_append_printf(pols, "%s%s", i ? " " : "", pr->policy);
                g_string_append_printf(titles, "%s%s", i ? " " : "", title);
                g_string_append_printf(colours, "%s%s", i ? " " : "", cli_policy_colour(pr->policy));
        }
        plot_var(vars, "policies", pols->str);
        plot_var(vars, "titles", titles->str);
        plot_var(vars, "colours", colours->str);
        g_string_free(pols, TRUE);
        g_string_free(titles, TRUE);
        g_string_free(colours, TRUE);

        g_autofree char *script = g_build_filename(pl->dir, "plots", name, NULL);
        g_autofree char *final = g_strdup_printf("%s/%s.%s", pl->dir, stem, pl->format);

        plot_draw(pl, name, script, final, vars, height);
}

struct bin {
        double lo, hi, n;
};

static gint by_lo(gconstpointer a, gconstpointer b)
{
        const struct bin *x = a, *y = b;

        return (x->lo > y->lo) - (x->lo < y->lo);
}

/* POLICY/tail-STEM.dat: the fraction of the samples of @metrics (the
 * distributions pooled: several periodic tasks of one class), over every
 * run of the policy, at or above x (the complementary CDF), from the
 * runs' distributions.csv (the same bin edges in every run): a point at
 * both edges of every bin, the last at the maximum with 1/N, so that the
 * slowest sample shows on a log axis.  *samples gets N. */
static gboolean prepare_tail(const struct policy_runs *pr, const char *dir, const char *const *metrics, const char *stem,
                             double *samples, double *zeros)
{
        g_autoptr(GArray) rows = g_array_new(FALSE, FALSE, sizeof(struct bin));
        g_autofree char *name = g_strdup_printf("tail-%s.dat", stem);
        g_autofree char *dst = g_build_filename(dir, pr->policy, name, NULL);
        GString *out = g_string_new("x_ns,fraction_at_or_above\n");
        double total = 0, cum = 0;
        gboolean ok;

        for (int r = 0; r < pr->n; r++) {
                g_autofree char *src = g_build_filename(pr->runs[r].rundir, "distributions.csv", NULL);
                g_autofree char *text = NULL;
                g_auto(GStrv) lines = NULL;

                if (!g_file_get_contents(src, &text, NULL, NULL))
                        continue;
                lines = g_strsplit(text, "\n", -1);
                for (int i = 1; lines[i]; i++) {
                        g_auto(GStrv) f = g_strsplit(lines[i], ",", 6);
                        struct bin b;

                        if (g_strv_length(f) < 4 || !g_strv_contains(metrics, f[0]))
                                continue;
                        b.lo = g_ascii_strtod(f[1], NULL);
                        b.hi = g_ascii_strtod(f[2], NULL);
                        b.n = g_ascii_strtod(f[3], NULL);
                        total += b.n;
                        if (b.hi <= 0)
                                *zeros += b.n;  /* 0 ns: no place on a log axis */
                        g_array_append_val(rows, b);
                }
        }
        /* Pool: the runs' bins in order, equal bins merged; the top bin of
         * each run ends at that run's maximum, so the pooled one at the largest. */
        g_array_sort(rows, by_lo);
        guint m = 0;

        for (guint i = 0; i < rows->len; i++) {
                struct bin *b = &g_array_index(rows, struct bin, i);

                if (m && g_array_index(rows, struct bin, m - 1).lo == b->lo) {
                        struct bin *last = &g_array_index(rows, struct bin, m - 1);

                        last->n += b->n;
                        last->hi = MAX(last->hi, b->hi);
                } else {
                        g_array_index(rows, struct bin, m++) = *b;
                }
        }
        g_array_set_size(rows, m);
        for (guint i = 0; i < rows->len && total > 0; i++) {
                const struct bin *b = &g_array_index(rows, struct bin, i);

                /* Both edges of every bin: flat between bins, where no sample is. */
                g_string_append_printf(out, "%.0f,%.9g\n", b->lo, (total - cum) / total);
                cum += b->n;
                g_string_append_printf(out, "%.0f,%.9g\n", b->hi, i + 1 < rows->len ? (total - cum) / total
                                                                                : 1 / total);
        }
        ok = output_set_contents(dst, out->str, (gssize)out->len, NULL);
        g_string_free(out, TRUE);
        *samples = total;
        return ok && total > 0;
}

struct series {
        double *t_ns, *bytes;
        guint n;
};

static struct series read_memory(const char *rundir)
{
        g_autofree char *path = g_build_filename(rundir, "memory.csv", NULL);
        g_autofree char *text = NULL;
        g_auto(GStrv) lines = NULL;
        struct series s = { 0 };

        if (!g_file_get_contents(path, &text, NULL, NULL))
                return s;
        lines = g_strsplit(text, "\n", -1);
        s.t_ns = g_new(double, g_strv_length(lines));
        s.bytes = g_new(double, g_strv_length(lines));
        for (int i = 1; lines[i]; i++) {
                char *end;

                if (!lines[i][0])
                        continue;
                s.t_ns[s.n] = g_ascii_strtod(lines[i], &end);
                s.bytes[s.n++] = *end == ',' ? g_ascii_strtod(end + 1, NULL) : 0;
        }
        return s;
}

#define MEMORY_PLOT_BUCKETS 2000

/* POLICY/memory-band.dat: memory over time as the median and the range
 * over the policy's runs ("time_s,median_mib,min_mib,max_mib").  The runs
 * sample at the same instants; a run that ended early (out of memory)
 * keeps its last value: the memory it ran out with. */
static gboolean prepare_memory_band(const struct policy_runs *pr, const char *dir)
{
        g_autofree struct series *runs = g_new0(struct series, pr->n);
        g_autofree guint *at = g_new0(guint, pr->n);
        g_autofree double *v = g_new(double, pr->n), *w = g_new(double, pr->n);
        g_autofree char *dst = g_build_filename(dir, pr->policy, "memory-band.dat", NULL);
        GString *out = g_string_new("time_s,median_mib,min_mib,max_mib,other_median_mib\n");
        g_autofree bool *first = g_new0(bool, pr->n);
        g_autofree char *what = NULL;
        int longest = 0;
        gboolean ok;

        /* one group: every run's median on the one line */
        if (!compare_memory_groups(pr, first, &what))
                for (int r = 0; r < pr->n; r++)
                        first[r] = true;

        for (int r = 0; r < pr->n; r++) {
                runs[r] = read_memory(pr->runs[r].rundir);
                if (runs[r].n > runs[longest].n)
                        longest = r;
        }
        guint n = runs[longest].n;
        g_autofree double *med = g_new(double, MAX(n, 1)), *lo = g_new(double, MAX(n, 1));
        g_autofree double *hi = g_new(double, MAX(n, 1)), *med2 = g_new(double, MAX(n, 1));

        /* Runs split by an outcome, or by a peak far apart (compare_memory_groups()):
         * the median of each group -- one line across both would climb at a
         * slope no run had.  The band spans every run. */
        for (guint k = 0; k < n; k++) {
                double t = runs[longest].t_ns[k];
                int m = 0, m2 = 0;

                for (int r = 0; r < pr->n; r++) {
                        if (!runs[r].n)
                                continue;
                        while (at[r] + 1 < runs[r].n && runs[r].t_ns[at[r] + 1] <= t)
                                at[r]++;
                        if (first[r])
                                v[m++] = runs[r].bytes[at[r]] / 1048576.0;
                        else
                                w[m2++] = runs[r].bytes[at[r]] / 1048576.0;
                }
                gsl_sort(v, 1, (size_t)m);
                gsl_sort(w, 1, (size_t)m2);
                med[k] = m ? gsl_stats_median_from_sorted_data(v, 1, (size_t)m) : NAN;
                med2[k] = m2 ? gsl_stats_median_from_sorted_data(w, 1, (size_t)m2) : NAN;
                lo[k] = MIN(m ? v[0] : INFINITY, m2 ? w[0] : INFINITY);
                hi[k] = MAX(m ? v[m - 1] : -INFINITY, m2 ? w[m2 - 1] : -INFINITY);
        }
        /* A long run has far more samples than a plot has pixels (300 s:
         * 300,000, a minute of gnuplot): past 2 x MEMORY_PLOT_BUCKETS, each
         * bucket of samples keeps its lowest and highest median, in time
         * order, with the band's extremes over the bucket -- no peak lost. */
        guint per = n > 2 * MEMORY_PLOT_BUCKETS ? (n + MEMORY_PLOT_BUCKETS - 1) / MEMORY_PLOT_BUCKETS : 1;

        for (guint b = 0; b < n; b += per) {
                guint end = MIN(n, b + per), kmin = b, kmax = b;
                double blo = lo[b], bhi = hi[b];

                for (guint k = b; k < end; k++) {
                        kmin = med[k] < med[kmin] ? k : kmin;
                        kmax = med[k] > med[kmax] ? k : kmax;
                        blo = MIN(blo, lo[k]);
                        bhi = MAX(bhi, hi[k]);
                }
                if (per == 1) {
                        blo = lo[b];
                        bhi = hi[b];
                }
                for (int j = 0; j < (kmin == kmax ? 1 : 2); j++) {
                        guint k = (j == 0) == (kmin < kmax) ? kmin : kmax;

                        g_string_append_printf(out, "%.9f,%.6f,%.6f,%.6f,", runs[longest].t_ns[k] / 1e9, med[k],
                                               blo, bhi);
                        /* gnuplot leaves an empty field out of a line */
                        if (isnan(med2[k]))
                                g_string_append_c(out, '\n');
                        else
                                g_string_append_printf(out, "%.6f\n", med2[k]);
                }
        }
        for (int r = 0; r < pr->n; r++) {
                g_free(runs[r].t_ns);
                g_free(runs[r].bytes);
        }
        ok = runs[longest].n > 0 && output_set_contents(dst, out->str, (gssize)out->len, NULL);
        g_string_free(out, TRUE);
        return ok;
}

/* A curve drawn exactly over an earlier one hides it: the policy among
 * @idx[0..n) whose data file (tail-@stem.dat, or memory-band.dat for a
 * NULL @stem) is the same as @p's, or NULL. */
static char *same_curve(const char *dir, const struct policy_runs *prs, const int *idx, int n, int p, const char *stem)
{
        g_autofree char *name = stem ? g_strdup_printf("tail-%s.dat", stem) : g_strdup("memory-band.dat");
        g_autofree char *path = g_build_filename(dir, prs[p].policy, name, NULL);
        g_autofree char *mine = NULL;
        gsize len;

        if (!g_file_get_contents(path, &mine, &len, NULL))
                return NULL;
        for (int i = 0; i < n; i++) {
                g_autofree char *other_path = g_build_filename(dir, prs[idx[i]].policy, name, NULL);
                g_autofree char *other = NULL;
                gsize olen;

                if (g_file_get_contents(other_path, &other, &olen, NULL) && olen == len && !memcmp(mine, other, len))
                        return g_strdup(prs[idx[i]].policy);
        }
        return NULL;
}

/* One latency tail plot: which distributions, and how to label them. */
struct tail_spec {
        const char *stem, *what, *unit;
        double scale;
        const char *const *metrics;     /* pooled; NULL-terminated */
        int count;                      /* the compare_tails[] entry whose count says a run measured it, or -1: */
        const char *cls;                /* ... a run measured this periodic class */
        bool pending;                   /* mark the grace periods still pending at the end */
};

static void draw_tail(struct plotter *pl, struct policy_runs *prs, int np, const struct tail_spec *ts)
{
        g_autoptr(GPtrArray) titles = g_ptr_array_new_with_free_func(g_free);
        GString *vars = g_string_new(NULL);
        int some[np], nsome = 0, nzero = 0;
        char num[64];

        /* Only the policies that measured something are in the plot and its key. */
        for (int p = 0; p < np; p++) {
                double samples = 0, zeros = 0;
                int runs = 0;

                for (int i = 0; i < prs[p].n; i++)
                        runs += ts->count >= 0 ? prs[p].runs[i].counts[ts->count] > 0
                                               : g_hash_table_contains(prs[p].runs[i].rt_max_ns, ts->cls);
                if (!runs || !prepare_tail(&prs[p], pl->dir, ts->metrics, ts->stem, &samples, &zeros))
                        continue;
                g_autofree char *same = same_curve(pl->dir, prs, some, nsome, p, ts->stem);
                g_autofree char *zero_note = zeros <= 0 ? g_strdup("")
                        : zeros >= samples ? g_strdup(", all 0: no point on a log axis")
                        : g_strdup_printf(", %.0f of them 0: left of the axis", zeros);

                some[nsome++] = p;
                nzero += zeros >= samples;
                g_ptr_array_add(titles, g_strdup_printf("%s (%.0f samples%s, %d run%s)%s%s", prs[p].title, samples,
                                                        zero_note, runs, runs == 1 ? "" : "s",
                                                        same ? ": the same as " : "", same ? same : ""));
        }
        if (nsome == 0) {               /* e.g. no synchronize_rcu() in this scenario */
                g_string_free(vars, TRUE);
                return;
        }
        plot_var(vars, "stem", ts->stem);
        plot_var(vars, "what", ts->what);
        plot_var(vars, "unit", ts->unit);
        g_snprintf(num, sizeof(num), "scale=%g; ", ts->scale);
        g_string_append(vars, num);
        if (nzero == nsome && !ts->pending)
                g_string_append(vars, "nopoints=1; ");
        if (ts->pending) {
                g_autofree char *pending = g_build_filename(pl->dir, "pending-gp.csv", NULL);

                /* The macro names the file through a variable: no path in gnuplot code. */
                plot_var(vars, "pending", pending);
                plot_var(vars, "extra",
                                ", pending every ::1 using 2:3 with points pt 9 ps 2.5 lc rgb \"#c00000\" "
                                "title \"still pending at the end (at least; the longest over the runs)\", "
                                "pending every ::1 using 2:3:(sprintf(\"%s: %s\", strcol(1), strcol(4))) "
                                "with labels right offset char -1.5,0 notitle");
        } else {
                plot_var(vars, "extra", "");
        }
        draw(pl, "cdf.gp", ts->stem, vars, 600, prs, some, nsome, titles);
        g_string_free(vars, TRUE);
}

void compare_draw_all(struct plotter *pl, struct policy_runs *prs, int np, int64_t limit_bytes)
{
        GString *vars = g_string_new(NULL);
        g_autoptr(GPtrArray) titles = g_ptr_array_new_with_free_func(g_free);
        int all[np];
        char num[64];
        int nsome = 0;

        /* Memory: the median and range of every policy whose runs wrote it. */
        for (int p = 0; p < np; p++) {
                if (!prepare_memory_band(&prs[p], pl->dir))
                        continue;
                g_autofree char *same = same_curve(pl->dir, prs, all, nsome, p, NULL);

                g_autofree bool *first = g_new0(bool, prs[p].n);
                g_autofree char *what = NULL;
                g_autofree char *groups = compare_memory_groups(&prs[p], first, &what) ?
                        g_strdup_printf(" (medians apart: %s)", what) : g_strdup("");

                all[nsome++] = p;
                g_ptr_array_add(titles, g_strdup_printf("%s: %s%d run%s, out of memory in %d%s%s%s", prs[p].title,
                                                        prs[p].n > 1 ? "median and range of " : "", prs[p].n,
                                                        prs[p].n > 1 ? "s" : "", prs[p].oom, groups,
                                                        same ? "; the same as " : "", same ? same : ""));
        }
        g_snprintf(num, sizeof(num), "limit_mib=%.6f; ", limit_bytes / 1048576.0);
        g_string_append(vars, num);
        /* a real kernel's curve runs on its own clock, from its run's start */
        bool any_real = false;

        for (int p = 0; p < np; p++)
                any_real |= prs[p].real;
        plot_var(vars, "timelabel", any_real ? "time from the run's start (s): simulated, or the real kernel's own"
                                             : "simulated time (s)");
        if (nsome)
                draw(pl, "memory.gp", "memory", vars, 600, prs, all, nsome, titles);
        for (size_t k = 0; k < COMPARE_TAILS; k++) {
                const char *const metrics[] = { compare_tails[k].metric, NULL };
                const struct tail_spec ts = {
                        .stem = compare_tails[k].stem, .what = compare_tails[k].what, .unit = compare_tails[k].unit, .scale = compare_tails[k].scale,
                        .metrics = metrics, .count = (int)k, .pending = k == 0,
                };

                draw_tail(pl, prs, np, &ts);
        }
        /* RT wake-up latency per periodic class, when there are several: a
         * FIFO 45 task's delays do not hide behind a FIFO 90 one's. */
        g_autoptr(GPtrArray) classes = compare_rt_classes(prs, np);

        for (guint c = 0; classes->len > 1 && c < classes->len; c++) {
                const char *cls = classes->pdata[c];
                g_autoptr(GPtrArray) metrics = g_ptr_array_new_with_free_func(g_free);
                const GPtrArray *of = prs[0].runs[0].rt_task_class;
                g_autofree char *bare = g_strdelimit(g_strdup(cls), ":", '-');
                g_autofree char *stem = g_strdup_printf("rt-latency-%s", bare);
                g_autofree char *what = g_strdup_printf("RT wake-up latency of the %s periodic tasks (cyclictest)", cls);

                for (guint n = 0; of && n < of->len; n++)
                        if (!strcmp(of->pdata[n], cls))
                                g_ptr_array_add(metrics, g_strdup_printf("rt_tasks.%u.latency", n));
                g_ptr_array_add(metrics, NULL);
                const struct tail_spec ts = {
                        .stem = stem, .what = what, .unit = "us", .scale = 1e3,
                        .metrics = (const char *const *)metrics->pdata, .count = -1, .cls = cls,
                };

                draw_tail(pl, prs, np, &ts);
        }
        /* A timeline per policy, of its first seed's run; a task in the same
         * colour in each. */
        struct task_palette pal = {
                .colour_of = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
                .coloured = g_ptr_array_new_with_free_func(g_free),
        };

        for (int p = 0; p < np; p++) {
                const struct result *r = &prs[p].runs[0];
                g_autofree char *datafile = g_build_filename(r->rundir, "timeline-plot.dat", NULL);
                g_autofree char *stem = g_strdup_printf("timeline-%s", prs[p].policy);
                g_autofree char *marks = g_build_filename(r->rundir, "timeline-marks.dat", NULL);
                g_autofree char *title = g_strdup_printf("%s, seed %" G_GUINT64_FORMAT "%s%s", prs[p].policy, r->seed,
                                                         strcmp(r->status, "ok") ? " " : "",
                                                         strcmp(r->status, "ok") ? compare_status_shown(r->status) : "");
                g_autofree char *tics = NULL, *keys = NULL;
                int nlanes = 0;

                if (!prepare_timeline(r->rundir, &pal, &nlanes, &tics, &keys) || nlanes == 0)
                        continue;
                g_string_truncate(vars, 0);
                plot_var(vars, "datafile", datafile);
                plot_var(vars, "marks", marks);
                plot_var(vars, "policy", title);
                plot_var(vars, "yticks", tics);
                plot_var(vars, "taskkeys", keys);
                g_snprintf(num, sizeof(num), "nlanes=%d; ", nlanes);
                g_string_append(vars, num);
                /* room for the key: a row per three tasks */
                draw(pl, "timeline.gp", stem, vars, 200 + 26 * nlanes + 18 * ((int)strlen(keys) > 0 ? 4 : 0),
                     prs, &p, 1, NULL);
        }
        g_hash_table_destroy(pal.colour_of);
        g_ptr_array_unref(pal.coloured);
        g_string_free(vars, TRUE);
}
