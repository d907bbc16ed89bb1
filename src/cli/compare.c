/* compare.c - `rcuboost compare`: one scenario, several policies, side by side.
 *
 * Runs the scenario once per policy with the same seed (so the same random
 * streams: differences come from the policy alone), writes each run's
 * outputs under DIR/POLICY/, a table of headline metrics (comparison.tsv,
 * comparison.md and stdout), and draws the comparison with gnuplot from the
 * templates embedded in the binary (copied to DIR/plots/ so they can be
 * edited and rerun by hand).  Without gnuplot the numbers are still written.
 */
#include <errno.h>
#include <gio/gio.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "headline.h"
#include "realruns.h"
#include "policies/policy.h"
#include "sim/output.h"
#include "sim/report.h"
#include "sim/scenario.h"
#include "sim/sim.h"
#include "sim/units.h"
#include "sim/verdict.h"

/* Distributions drawn as tails: metric, file stem, title, unit, ns per unit. */
static const struct {
        const char *metric, *stem, *what, *unit;
        double scale;
} cdfs[] = {
        { "gp_latency", "gp-latency", "Grace-period latency", "ms", 1e6 },
        { "flip_latency", "flip-latency", "Flip-cycle latency (rcupreempt: one counter flip)", "ms", 1e6 },
        { "callback_latency", "callback-latency", "call_rcu() to callback invocation", "ms", 1e6 },
        { "sync_latency", "sync-latency", "synchronize_rcu() latency", "ms", 1e6 },
        { "rt_wakeup_latency", "rt-latency", "RT wake-up latency (cyclictest, every periodic task)", "us", 1e3 },
        { "policy_stats.boost_delay", "boost-delay", "Boost delay (first switch-out to boost)", "ms", 1e6 },
        { "policy_stats.boosted_time", "boosted-time", "Time boosted (boost to unboost)", "ms", 1e6 },
};

/* The row of --real's runs: the kernel is rcu-boost on Tree RCU. */
#define REAL_POLICY "real-kernel"

/* One run: a policy at one seed. */
struct result {
        const char *policy;
        uint64_t seed;
        char *rundir;                   /* DIR/POLICY/seed-S */
        const char *status;             /* ok, failed, incomplete, unsafe */
        char *flavour;                  /* rcu.flavour: rcupreempt, tree */
        char *environment;              /* "tree, 6.1-rt[, kthread_prio=N]": what the run modelled */
        double values[HEADLINE_COUNT];
        bool at_least[HEADLINE_COUNT];  /* a lower bound: still pending at the end */
        bool oom;
        bool stall;                     /* a grace period or callback over stall_threshold, pending ones too */
        bool stalled_at_end;            /* one still waiting at the end, past stall_threshold */
        bool stall_unknown;             /* out of memory before a pending wait could pass it */
        double oom_time_ns, oom_bytes;
        double pending_gp_ns;           /* grace period still pending at the end */
        double gp_max_ns;               /* the longest that completed */
        GHashTable *rt_max_ns;          /* periodic class ("rt:90") -> double *: its worst wake-up */
        GPtrArray *rt_task_class;       /* char *: the class of periodic task N (rt_tasks.N) */
        double counts[G_N_ELEMENTS(cdfs)];
};

/* A policy's runs over the seeds, and what they show together. */
struct policy_runs {
        const char *policy;
        bool real;                      /* runs on a real kernel (--real): not paired by seed */
        const char *flavour;
        const char *environment;
        struct result *runs;            /* n of them, seeds first .. first + n - 1 */
        int n;
        int ok, oom, stall, stalled_at_end, unsafe, stall_unknown;
        const struct result *worst;
        char *title;                    /* for plot keys */
};

/* The continuous figures summarised over seeds: median and range. */
static const char *const spread_keys[] = {
        "memory.peak_bytes", "rcu.gp_max_at_least_ns", "callback_latency.max_ns", "policy_stats.boost_delay.max_ns",
        "policy_stats.booster_cpu_ns",
};

static int headline_index(const char *key)
{
        for (size_t c = 0; c < HEADLINE_COUNT; c++)
                if (!strcmp(headline[c].key, key))
                        return (int)c;
        g_assert_not_reached();
}

/* "ok", or the status in capitals so that a failed run is not read as a result. */
static const char *status_shown(const char *status)
{
        if (!strcmp(status, "ok"))
                return "ok";
        return !strcmp(status, "failed") ? "FAILED" : !strcmp(status, "unsafe") ? "UNSAFE" : "INCOMPLETE";
}

static char *format_value(enum headline_kind kind, double v, bool at_least)
{
        g_autofree char *s = NULL;

        if (isnan(v))
                return g_strdup("-");
        if (kind == HEADLINE_BYTES)
                s = units_format_size((int64_t)v);
        else if (kind == HEADLINE_INT)
                s = g_strdup_printf("%.0f", v);
        else
                s = v == 0 ? g_strdup("0") : units_format_duration((int64_t)v);
        return at_least ? g_strdup_printf(">= %s", s) : g_steal_pointer(&s);
}

/* "26ms (21ms .. 31ms)": the median and the range over the runs that
 * measured it; one value alone for one run. */
static char *format_spread(enum headline_kind kind, const struct verdict_spread *sp)
{
        if (sp->n == 0)
                return g_strdup("-");
        g_autofree char *med = format_value(kind, sp->median, sp->median_at_least);

        if (sp->n == 1 || (sp->min == sp->max && sp->min_at_least == sp->max_at_least))
                return g_steal_pointer(&med);
        g_autofree char *lo = format_value(kind, sp->min, sp->min_at_least);
        g_autofree char *hi = format_value(kind, sp->max, sp->max_at_least);

        return g_strdup_printf("%s (%s .. %s)", med, lo, hi);
}

static void spread_of(const struct policy_runs *pr, int col, struct verdict_spread *sp)
{
        double v[pr->n];
        bool al[pr->n];

        for (int i = 0; i < pr->n; i++) {
                /* a run that failed measured nothing worth a median */
                v[i] = strcmp(pr->runs[i].status, "failed") ? pr->runs[i].values[col] : NAN;
                al[i] = pr->runs[i].at_least[col];
        }
        verdict_spread(v, al, pr->n, sp);
}

static void rt_spread_of(const struct policy_runs *pr, const char *cls, struct verdict_spread *sp)
{
        double v[pr->n];

        for (int i = 0; i < pr->n; i++) {
                const double *m = g_hash_table_lookup(pr->runs[i].rt_max_ns, cls);

                v[i] = m ? *m : NAN;
        }
        verdict_spread(v, NULL, pr->n, sp);
}

/* Out of memory is worse than not; two runs that ran out tie (a few ms
 * sooner or later is not a difference between policies); between runs that
 * kept going, the lower peak is better. */
static int order_memory(const struct result *a, const struct result *b)
{
        if (a->oom != b->oom)
                return a->oom ? 1 : -1;
        if (a->oom)
                return 0;
        return verdict_order(a->values[headline_index("memory.peak_bytes")], false,
                             b->values[headline_index("memory.peak_bytes")], false);
}

static int order_gp_max(const struct result *a, const struct result *b)
{
        int c = headline_index("rcu.gp_max_at_least_ns");

        return verdict_order(a->values[c], a->at_least[c], b->values[c], b->at_least[c]);
}

/* The worst run: out of memory soonest, else the longest grace period, else the highest peak. */
static bool worse_run(const struct result *a, const struct result *b)
{
        int m = order_memory(a, b), g = order_gp_max(a, b);

        if (a->oom && b->oom)
                return a->oom_time_ns < b->oom_time_ns;
        if (a->oom != b->oom)
                return a->oom;
        if (g)
                return g > 0;
        return m > 0;
}

/* "10", or "10 (2 FAILED, 1 INCOMPLETE)": runs whose figures are not results. */
static char *runs_shown(const struct policy_runs *pr)
{
        static const char *const bad[] = { "failed", "incomplete", "unsafe" };
        GString *s = g_string_new(NULL);

        g_string_append_printf(s, "%d", pr->n);
        for (size_t b = 0, first = 1; b < G_N_ELEMENTS(bad); b++) {
                int k = 0;

                for (int i = 0; i < pr->n; i++)
                        k += !strcmp(pr->runs[i].status, bad[b]);
                if (!k)
                        continue;
                g_string_append_printf(s, "%s%d %s", first ? " (" : ", ", k, status_shown(bad[b]));
                first = 0;
        }
        if (pr->ok < pr->n)
                g_string_append_c(s, ')');
        return g_string_free(s, FALSE);
}

static void summarise(struct policy_runs *pr)
{
        pr->flavour = pr->runs[0].flavour ? pr->runs[0].flavour : "-";
        pr->environment = pr->runs[0].environment ? pr->runs[0].environment : pr->flavour;
        for (int i = 0; i < pr->n; i++) {
                const struct result *r = &pr->runs[i];

                pr->ok += !strcmp(r->status, "ok");
                pr->oom += r->oom;
                pr->stall += r->stall;
                pr->stalled_at_end += r->stalled_at_end;
                pr->stall_unknown += r->stall_unknown;
                pr->unsafe += r->values[headline_index("safety_violations")] > 0;
                if (strcmp(r->status, "failed") && (!pr->worst || worse_run(r, pr->worst)))
                        pr->worst = r;
        }
        if (pr->ok == pr->n) {
                pr->title = g_strdup(pr->policy);
        } else {
                g_autofree char *runs = runs_shown(pr);

                pr->title = g_strdup_printf("%s%s", pr->policy, strchr(runs, ' '));
        }
}

/* The periodic task classes any run measured, most urgent first. */
static gint by_class_desc(gconstpointer a, gconstpointer b)
{
        const char *x = *(const char *const *)a, *y = *(const char *const *)b;
        int px = g_str_has_prefix(x, "rt:") ? atoi(x + 3) : -1, py = g_str_has_prefix(y, "rt:") ? atoi(y + 3) : -1;

        return px != py ? py - px : strcmp(x, y);
}

static GPtrArray *rt_classes(const struct policy_runs *prs, int np)
{
        g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
        GPtrArray *classes = g_ptr_array_new();

        for (int p = 0; p < np; p++)
                for (int i = 0; i < prs[p].n; i++) {
                        GHashTableIter it;
                        gpointer k;

                        g_hash_table_iter_init(&it, prs[p].runs[i].rt_max_ns);
                        while (g_hash_table_iter_next(&it, &k, NULL))
                                if (g_hash_table_add(seen, k))
                                        g_ptr_array_add(classes, k);
                }
        g_ptr_array_sort(classes, by_class_desc);
        return classes;
}

/* The table over seeds, one column per policy: headers and cells. */
struct column_table {
        GPtrArray *headers;             /* char * */
        GPtrArray *rows;                /* GPtrArray of char *, one per policy */
};

static void table_row(struct column_table *t, const struct policy_runs *prs, int np, char *header,
                      char *(*cell)(const struct policy_runs *pr, const void *arg), const void *arg)
{
        GPtrArray *row = g_ptr_array_new_with_free_func(g_free);

        g_ptr_array_add(t->headers, header);
        for (int p = 0; p < np; p++)
                g_ptr_array_add(row, cell(&prs[p], arg));
        g_ptr_array_add(t->rows, row);
}

static char *cell_runs(const struct policy_runs *pr, const void *arg)
{
        (void)arg;
        return runs_shown(pr);
}

static char *cell_flavour(const struct policy_runs *pr, const void *arg)
{
        (void)arg;
        return g_strdup(pr->environment);
}

static char *cell_rate(const struct policy_runs *pr, const void *arg)
{
        /* a real kernel's runs have no safety oracle: not measured is "-", not 0 */
        if (pr->real && GPOINTER_TO_SIZE(arg) == G_STRUCT_OFFSET(struct policy_runs, unsafe))
                return g_strdup("-");
        return verdict_format_rate(*(const int *)((const char *)pr + GPOINTER_TO_SIZE(arg)), pr->n);
}

/* The outcome that divides the runs, if one does: out of memory or not,
 * else a stall or not.  Two populations have no common median -- it would
 * be a figure no run had -- so each is summarised on its own. */
enum split { SPLIT_NONE, SPLIT_OOM, SPLIT_STALL };

static enum split split_of(const struct policy_runs *pr)
{
        if (pr->oom > 0 && pr->oom < pr->n)
                return SPLIT_OOM;
        if (pr->stall > 0 && pr->stall < pr->n)
                return SPLIT_STALL;
        return SPLIT_NONE;
}

static bool in_group(const struct result *r, enum split split, bool outcome)
{
        return split == SPLIT_NONE || (split == SPLIT_OOM ? r->oom : r->stall) == outcome;
}

/* The spread of column @col over the runs of one group; "k/m: " before it
 * when only k of the group's m runs measured anything (a boost delay where
 * some runs boosted nobody). */
static char *group_spread(const struct policy_runs *pr, int col, enum split split, bool outcome, int *members)
{
        double v[pr->n];
        bool al[pr->n];
        int m = 0, k = 0;
        struct verdict_spread sp;

        for (int i = 0; i < pr->n; i++) {
                const struct result *r = &pr->runs[i];

                v[i] = NAN;
                al[i] = false;
                if (!in_group(r, split, outcome))
                        continue;
                m++;
                /* a run that failed measured nothing worth a median */
                if (strcmp(r->status, "failed") && !isnan(r->values[col])) {
                        v[i] = r->values[col];
                        al[i] = r->at_least[col];
                        k++;
                }
        }
        *members = m;
        verdict_spread(v, al, pr->n, &sp);
        g_autofree char *f = format_spread(headline[col].kind, &sp);

        return k > 0 && k < m ? g_strdup_printf("%d/%d: %s", k, m, f) : g_steal_pointer(&f);
}

static char *cell_spread(const struct policy_runs *pr, const void *arg)
{
        int col = headline_index(arg), m_yes, m_no;
        enum split split = split_of(pr);

        if (split == SPLIT_NONE)
                return group_spread(pr, col, split, false, &m_no);
        const char *what = split == SPLIT_OOM ? "OOM" : "stall";
        g_autofree char *yes = group_spread(pr, col, split, true, &m_yes);
        g_autofree char *no = group_spread(pr, col, split, false, &m_no);

        return g_strdup_printf("%s %d/%d: %s; no %s %d/%d: %s", what, m_yes, pr->n, yes, what, m_no, pr->n, no);
}

static char *cell_rt(const struct policy_runs *pr, const void *arg)
{
        struct verdict_spread sp;

        rt_spread_of(pr, arg, &sp);
        return format_spread(HEADLINE_NS, &sp);
}

static char *cell_worst(const struct policy_runs *pr, const void *arg)
{
        (void)arg;
        return pr->worst ? g_strdup_printf("%" G_GUINT64_FORMAT, pr->worst->seed) : g_strdup("-");
}

/* A threshold the runs end before they can pass: say so, once per policy,
 * rather than let "stall 0/10" read as no stall. */
static void warn_stall_unknown(const struct policy_runs *prs, int np, int64_t stall_threshold_ns)
{
        g_autofree char *thr = units_format_duration(stall_threshold_ns);

        for (int p = 0; p < np; p++)
                if (prs[p].stall_unknown > 0)
                        fprintf(stderr, "rcuboost: warning: %s: %d of %d runs ran out of memory while a grace "
                                "period or callback waited, before the wait could pass stall_threshold (%s): "
                                "whether they stall is unknown (\"stall unknown\" in the table)\n",
                                prs[p].policy, prs[p].stall_unknown, prs[p].n, thr);
}

static struct column_table *build_table(const struct policy_runs *prs, int np, int64_t stall_threshold_ns)
{
        struct column_table *t = g_new0(struct column_table, 1);
        g_autofree char *thr = units_format_duration(stall_threshold_ns);
        g_autoptr(GPtrArray) classes = rt_classes(prs, np);

        t->headers = g_ptr_array_new_with_free_func(g_free);
        t->rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
        table_row(t, prs, np, g_strdup("runs"), cell_runs, NULL);
        table_row(t, prs, np, g_strdup("RCU, kernel"), cell_flavour, NULL);
        table_row(t, prs, np, g_strdup("out of memory"), cell_rate,
                  GSIZE_TO_POINTER(G_STRUCT_OFFSET(struct policy_runs, oom)));
        table_row(t, prs, np, g_strdup_printf("stall (a GP or callback > %s)", thr), cell_rate,
                  GSIZE_TO_POINTER(G_STRUCT_OFFSET(struct policy_runs, stall)));
        table_row(t, prs, np, g_strdup("stalled at the end"), cell_rate,
                  GSIZE_TO_POINTER(G_STRUCT_OFFSET(struct policy_runs, stalled_at_end)));
        table_row(t, prs, np, g_strdup("stall unknown (out of memory first)"), cell_rate,
                  GSIZE_TO_POINTER(G_STRUCT_OFFSET(struct policy_runs, stall_unknown)));
        table_row(t, prs, np, g_strdup("unsafe"), cell_rate,
                  GSIZE_TO_POINTER(G_STRUCT_OFFSET(struct policy_runs, unsafe)));
        table_row(t, prs, np, g_strdup("peak memory"), cell_spread, "memory.peak_bytes");
        table_row(t, prs, np, g_strdup("GP max"), cell_spread, "rcu.gp_max_at_least_ns");
        table_row(t, prs, np, g_strdup("callback max"), cell_spread, "callback_latency.max_ns");
        table_row(t, prs, np, g_strdup("boost delay max"), cell_spread, "policy_stats.boost_delay.max_ns");
        for (guint i = 0; i < classes->len; i++)
                table_row(t, prs, np, g_strdup_printf("RT wake-up max (%s)", (char *)classes->pdata[i]), cell_rt,
                          classes->pdata[i]);
        table_row(t, prs, np, g_strdup("booster CPU"), cell_spread, "policy_stats.booster_cpu_ns");
        table_row(t, prs, np, g_strdup("worst seed"), cell_worst, NULL);
        return t;
}

static void column_table_free(struct column_table *t)
{
        g_ptr_array_unref(t->headers);
        g_ptr_array_unref(t->rows);
        g_free(t);
}

/* The paired comparisons: each policy against each baseline compared,
 * seed by seed, on memory and on the longest grace period. */
static const char *const baselines[] = { "none", "booster" };
static const struct {
        const char *name;
        int (*order)(const struct result *a, const struct result *b);
} paired_metrics[] = {
        { "memory", order_memory },
        { "GP max", order_gp_max },
};

static const struct policy_runs *find_runs(const struct policy_runs *prs, int np, const char *policy)
{
        for (int p = 0; p < np; p++)
                if (!strcmp(prs[p].policy, policy))
                        return &prs[p];
        return NULL;
}

static void pair_counts(const struct policy_runs *a, const struct policy_runs *b, int m, int *better, int *worse)
{
        *better = *worse = 0;
        for (int i = 0; i < a->n; i++) {
                if (!strcmp(a->runs[i].status, "failed") || !strcmp(b->runs[i].status, "failed"))
                        continue;
                int o = paired_metrics[m].order(&a->runs[i], &b->runs[i]);

                *better += o < 0;
                *worse += o > 0;
        }
}

static gboolean write_tables(const char *dir, const struct policy_runs *prs, int np, int64_t thr_ns, GError **error)
{
        struct outfile *o = outfile_open(dir, "comparison.tsv", error);
        FILE *f;

        /* One row per run, every headline figure. */
        if (!o)
                return FALSE;
        f = outfile_stream(o);
        fputs("policy\tseed\tstatus\trcu.flavour\toom\tstall\tstalled_at_end\tstall_unknown", f);
        for (size_t c = 0; c < HEADLINE_COUNT; c++)
                fprintf(f, "\t%s", headline_column(&headline[c]));
        fputs("\trcu.gp_max_is_pending\tcallback_latency.max_is_pending\n", f);
        for (int p = 0; p < np; p++)
                for (int i = 0; i < prs[p].n; i++) {
                        const struct result *r = &prs[p].runs[i];

                        fprintf(f, "%s\t%" G_GUINT64_FORMAT "\t%s\t%s\t%d\t%d\t%d\t%d", r->policy, r->seed,
                                r->status, r->flavour ? r->flavour : "-", r->oom, r->stall, r->stalled_at_end,
                                r->stall_unknown);
                        for (size_t c = 0; c < HEADLINE_COUNT; c++) {
                                if (isnan(r->values[c]))
                                        fputs("\t-", f);
                                else
                                        fprintf(f, "\t%.15g", r->values[c]);
                        }
                        fprintf(f, "\t%d\t%d\n", r->at_least[headline_index("rcu.gp_max_at_least_ns")],
                                r->at_least[headline_index("callback_latency.max_ns")]);
                }
        if (!outfile_commit(o, error))
                return FALSE;

        /* One row per policy: rates with their intervals, medians and ranges. */
        g_autoptr(GPtrArray) classes = rt_classes(prs, np);

        if (!(o = outfile_open(dir, "comparison-summary.tsv", error)))
                return FALSE;
        f = outfile_stream(o);
        fputs("policy\trcu.flavour\truns\tok", f);
        static const char *const rates[] = { "oom", "stall", "stalled_at_end", "unsafe", "stall_unknown" };
        for (size_t k = 0; k < G_N_ELEMENTS(rates); k++)
                fprintf(f, "\t%s\t%s_lo\t%s_hi", rates[k], rates[k], rates[k]);
        for (size_t k = 0; k < G_N_ELEMENTS(spread_keys); k++) {
                const char *col = headline_column(&headline[headline_index(spread_keys[k])]);

                fprintf(f, "\t%s.median\t%s.median_at_least\t%s.min\t%s.max\t%s.max_at_least", col, col, col,
                        col, col);
        }
        for (guint k = 0; k < classes->len; k++)
                fprintf(f, "\trt_wakeup_max.%s.median_ns\trt_wakeup_max.%s.min_ns\trt_wakeup_max.%s.max_ns",
                        (char *)classes->pdata[k], (char *)classes->pdata[k], (char *)classes->pdata[k]);
        fputs("\tworst_seed\n", f);
        for (int p = 0; p < np; p++) {
                const struct policy_runs *pr = &prs[p];
                const int counts[] = { pr->oom, pr->stall, pr->stalled_at_end, pr->unsafe, pr->stall_unknown };

                fprintf(f, "%s\t%s\t%d\t%d", pr->policy, pr->flavour, pr->n, pr->ok);
                for (size_t k = 0; k < G_N_ELEMENTS(counts); k++) {
                        double lo, hi;

                        if (pr->real && !strcmp(rates[k], "unsafe")) {
                                fputs("\t-\t-\t-", f);       /* not measured on a real kernel */
                                continue;
                        }
                        verdict_wilson(counts[k], pr->n, &lo, &hi);
                        fprintf(f, "\t%d\t%.6f\t%.6f", counts[k], lo, hi);
                }
                for (size_t k = 0; k < G_N_ELEMENTS(spread_keys); k++) {
                        struct verdict_spread sp;

                        spread_of(pr, headline_index(spread_keys[k]), &sp);
                        if (sp.n == 0)
                                fputs("\t-\t0\t-\t-\t0", f);
                        else
                                fprintf(f, "\t%.15g\t%d\t%.15g\t%.15g\t%d", sp.median, sp.median_at_least, sp.min,
                                        sp.max, sp.max_at_least);
                }
                for (guint k = 0; k < classes->len; k++) {
                        struct verdict_spread sp;

                        rt_spread_of(pr, classes->pdata[k], &sp);
                        if (sp.n == 0)
                                fputs("\t-\t-\t-", f);
                        else
                                fprintf(f, "\t%.15g\t%.15g\t%.15g", sp.median, sp.min, sp.max);
                }
                if (pr->worst)
                        fprintf(f, "\t%" G_GUINT64_FORMAT "\n", pr->worst->seed);
                else
                        fputs("\t-\n", f);
        }
        if (!outfile_commit(o, error))
                return FALSE;

        /* The paired sign tests. */
        if (!(o = outfile_open(dir, "comparison-paired.tsv", error)))
                return FALSE;
        f = outfile_stream(o);
        fputs("policy\tbaseline\tmetric\tseeds\tbetter\tworse\ttied\tp\n", f);
        for (size_t b = 0; b < G_N_ELEMENTS(baselines); b++) {
                const struct policy_runs *base = find_runs(prs, np, baselines[b]);

                for (int p = 0; base && p < np; p++) {
                        if (&prs[p] == base || prs[p].real)
                                continue;
                        for (size_t m = 0; m < G_N_ELEMENTS(paired_metrics); m++) {
                                int better, worse;

                                pair_counts(&prs[p], base, (int)m, &better, &worse);
                                fprintf(f, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%.6g\n", prs[p].policy, base->policy,
                                        paired_metrics[m].name, prs[p].n, better, worse, prs[p].n - better - worse,
                                        verdict_sign_test(better, worse));
                        }
                }
        }
        if (!outfile_commit(o, error))
                return FALSE;

        /* For people: the table over seeds, then the paired comparisons. */
        struct column_table *t = build_table(prs, np, thr_ns);

        if (!(o = outfile_open(dir, "comparison.md", error))) {
                column_table_free(t);
                return FALSE;
        }
        f = outfile_stream(o);
        fprintf(f, "Over seeds %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT " (%d runs per policy, seeds paired across "
                "policies). Rates: runs out of N with the 95%% Wilson interval. Figures: median (min .. max); "
                "`>=` a grace period still pending at the end.\n\n| policy |", prs[0].runs[0].seed,
                prs[0].runs[prs[0].n - 1].seed, prs[0].n);
        for (guint h = 0; h < t->headers->len; h++)
                fprintf(f, " %s |", (char *)t->headers->pdata[h]);
        fputs("\n|---|", f);
        for (guint h = 0; h < t->headers->len; h++)
                fputs("---|", f);
        fputc('\n', f);
        for (int p = 0; p < np; p++) {
                fprintf(f, "| %s |", prs[p].policy);
                for (guint h = 0; h < t->headers->len; h++)
                        fprintf(f, " %s |", (char *)g_ptr_array_index((GPtrArray *)t->rows->pdata[h], p));
                fputc('\n', f);
        }
        column_table_free(t);
        for (size_t b = 0; b < G_N_ELEMENTS(baselines); b++) {
                const struct policy_runs *base = find_runs(prs, np, baselines[b]);

                if (!base || np < 2)
                        continue;
                fprintf(f, "\nAgainst `%s`, seed by seed (exact two-sided sign test; ties left out):\n\n"
                        "| policy | memory (out of memory is worse; then the peak) | GP max |\n|---|---|---|\n",
                        base->policy);
                for (int p = 0; p < np; p++) {
                        if (&prs[p] == base || prs[p].real)
                                continue;
                        fprintf(f, "| %s |", prs[p].policy);
                        for (size_t m = 0; m < G_N_ELEMENTS(paired_metrics); m++) {
                                int better, worse;

                                pair_counts(&prs[p], base, (int)m, &better, &worse);
                                g_autofree char *s = verdict_format_paired(better, worse, prs[p].n);

                                fprintf(f, " %s |", s);
                        }
                        fputc('\n', f);
                }
        }
        return outfile_commit(o, error);
}

/* The table on stdout, one row per figure so that it fits a terminal. */
static void print_table(const struct policy_runs *prs, int np, int64_t thr_ns)
{
        struct column_table *t = build_table(prs, np, thr_ns);
        int w0 = 20, w[np];

        for (guint h = 0; h < t->headers->len; h++)
                w0 = MAX(w0, (int)strlen(t->headers->pdata[h]) + 2);
        for (int p = 0; p < np; p++) {
                w[p] = (int)strlen(prs[p].policy) + 2;
                for (guint h = 0; h < t->headers->len; h++)
                        w[p] = MAX(w[p], (int)strlen(g_ptr_array_index((GPtrArray *)t->rows->pdata[h], p)) + 2);
        }
        printf("over seeds %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT ": rates k/N (95%% Wilson interval); "
               "median (min .. max)\n", prs[0].runs[0].seed, prs[0].runs[prs[0].n - 1].seed);
        printf("%-*s", w0, "");
        for (int p = 0; p < np; p++)
                printf("%*s", w[p], prs[p].policy);
        putchar('\n');
        for (guint h = 0; h < t->headers->len; h++) {
                printf("%-*s", w0, (char *)t->headers->pdata[h]);
                for (int p = 0; p < np; p++)
                        printf("%*s", w[p], (char *)g_ptr_array_index((GPtrArray *)t->rows->pdata[h], p));
                putchar('\n');
        }
        column_table_free(t);
        for (size_t b = 0; b < G_N_ELEMENTS(baselines); b++) {
                const struct policy_runs *base = find_runs(prs, np, baselines[b]);

                if (!base || np < 2)
                        continue;
                printf("against %s, seed by seed (sign test):\n", base->policy);
                for (int p = 0; p < np; p++) {
                        if (&prs[p] == base || prs[p].real)
                                continue;
                        printf("  %-16s", prs[p].policy);
                        for (size_t m = 0; m < G_N_ELEMENTS(paired_metrics); m++) {
                                int better, worse;

                                pair_counts(&prs[p], base, (int)m, &better, &worse);
                                g_autofree char *s = verdict_format_paired(better, worse, prs[p].n);

                                printf("%s %s: %s", m ? ";" : "", paired_metrics[m].name, s);
                        }
                        putchar('\n');
                }
        }
}

/* Every run's out-of-memory point, and the grace periods still pending at
 * the end: per policy the longest, drawn apart from the tails (a lower bound). */
static gboolean write_events(const char *dir, const struct policy_runs *prs, int np, GError **error)
{
        struct outfile *o = outfile_open(dir, "oom-events.csv", error);
        int shown = 0;

        if (!o)
                return FALSE;
        fputs("policy,seed,time_s,mib\n", outfile_stream(o));
        for (int p = 0; p < np; p++)
                for (int i = 0; i < prs[p].n; i++) {
                        const struct result *r = &prs[p].runs[i];

                        if (r->oom)
                                fprintf(outfile_stream(o), "%s,%" G_GUINT64_FORMAT ",%.9f,%.6f\n", r->policy, r->seed,
                                        r->oom_time_ns / 1e9, r->oom_bytes / 1048576.0);
                }
        if (!outfile_commit(o, error))
                return FALSE;
        o = outfile_open(dir, "pending-gp.csv", error);
        if (!o)
                return FALSE;
        fputs("policy,pending_ms,y,runs\n", outfile_stream(o));
        for (int p = 0; p < np; p++) {
                double longest = 0, samples = 0;
                int runs = 0;

                for (int i = 0; i < prs[p].n; i++) {
                        const struct result *r = &prs[p].runs[i];

                        samples += r->counts[0];
                        if (r->pending_gp_ns > r->gp_max_ns) {  /* worth seeing beside the tail */
                                runs++;
                                longest = MAX(longest, r->pending_gp_ns);
                        }
                }
                /* each policy's mark a step lower than the last, so that the labels never overlap */
                if (runs)
                        fprintf(outfile_stream(o), "%s,%.6f,%.9g,%d of %d\n", prs[p].policy, longest / 1e6,
                                pow(0.45, shown++) / (samples + 1), runs, prs[p].n);
        }
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
                g_autofree char *lit = cli_gnuplot_literal(tp.lanes->pdata[i]);

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

/* ---- gnuplot ---- */

struct plotter {
        const char *dir;
        const char *format;
        const char *scenario;
        bool progress;          /* say each plot on the terminal as it is drawn */
        int drawn, failed, skipped;
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

/* Run template @name for the policies @idx[0..nidx) of @prs, writing
 * DIR/@stem.FORMAT; @vars has the template's own variables already. */
static void draw(struct plotter *pl, const char *name, const char *stem, GString *vars, int height,
                 const struct policy_runs *prs, const int *idx, int nidx, GPtrArray *titles_of)
{
        GString *pols = g_string_new(NULL), *titles = g_string_new(NULL), *colours = g_string_new(NULL);

        for (int i = 0; i < nidx; i++) {
                const struct policy_runs *pr = &prs[idx[i]];
                /* one word each: gnuplot's word() splits on blanks outside quotes */
                g_autofree char *title = cli_gnuplot_literal(titles_of ? titles_of->pdata[i] : pr->title);

                g_string_append_printf(pols, "%s%s", i ? " " : "", pr->policy);
                g_string_append_printf(titles, "%s%s", i ? " " : "", title);
                g_string_append_printf(colours, "%s%s", i ? " " : "", cli_policy_colour(pr->policy));
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

        /* a signal stops the plotting too (gnuplot, in our process group, had it as well) */
        if (cli_interrupt_status()) {
                pl->skipped++;
                return;
        }
        if (pl->progress)
                fprintf(stderr, "\r\033[Kplotting %s.%s (%d drawn)", stem, pl->format, pl->drawn);

        /* the image is listed (as its own, and so its temporary) before gnuplot writes it */
        if (!output_dir_make(plotdir, &e) || !output_register(final, &e)) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                pl->failed++;
                return;
        }
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
        enum split split = split_of(pr);
        int longest = 0;
        gboolean ok;

        for (int r = 0; r < pr->n; r++) {
                runs[r] = read_memory(pr->runs[r].rundir);
                if (runs[r].n > runs[longest].n)
                        longest = r;
        }
        guint n = runs[longest].n;
        g_autofree double *med = g_new(double, MAX(n, 1)), *lo = g_new(double, MAX(n, 1));
        g_autofree double *hi = g_new(double, MAX(n, 1)), *med2 = g_new(double, MAX(n, 1));

        /* Runs split by an outcome (split_of()): the median of each group,
         * the runs with it first -- one line across both would climb at a
         * slope no run had.  The band spans every run. */
        for (guint k = 0; k < n; k++) {
                double t = runs[longest].t_ns[k];
                int m = 0, m2 = 0;

                for (int r = 0; r < pr->n; r++) {
                        if (!runs[r].n)
                                continue;
                        while (at[r] + 1 < runs[r].n && runs[r].t_ns[at[r] + 1] <= t)
                                at[r]++;
                        if (in_group(&pr->runs[r], split, true))
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
        int count;                      /* the cdfs[] entry whose count says a run measured it, or -1: */
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
        cli_gnuplot_var(vars, "stem", ts->stem);
        cli_gnuplot_var(vars, "what", ts->what);
        cli_gnuplot_var(vars, "unit", ts->unit);
        g_snprintf(num, sizeof(num), "scale=%g; ", ts->scale);
        g_string_append(vars, num);
        if (nzero == nsome && !ts->pending)
                g_string_append(vars, "nopoints=1; ");
        if (ts->pending) {
                g_autofree char *pending = g_build_filename(pl->dir, "pending-gp.csv", NULL);

                /* The macro names the file through a variable: no path in gnuplot code. */
                cli_gnuplot_var(vars, "pending", pending);
                cli_gnuplot_var(vars, "extra",
                                ", pending every ::1 using 2:3 with points pt 9 ps 2.5 lc rgb \"#c00000\" "
                                "title \"still pending at the end (at least; the longest over the runs)\", "
                                "pending every ::1 using 2:3:(sprintf(\"%s: %s\", strcol(1), strcol(4))) "
                                "with labels right offset char -1.5,0 notitle");
        } else {
                cli_gnuplot_var(vars, "extra", "");
        }
        draw(pl, "cdf.gp", ts->stem, vars, 600, prs, some, nsome, titles);
        g_string_free(vars, TRUE);
}

static void draw_all(struct plotter *pl, struct policy_runs *prs, int np, int64_t limit_bytes)
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

                enum split split = split_of(&prs[p]);
                int k = split == SPLIT_OOM ? prs[p].oom : prs[p].stall;
                g_autofree char *groups = split == SPLIT_NONE ? g_strdup("") :
                        g_strdup_printf(" (medians apart: %d with %s solid, %d without dashed)", k,
                                        split == SPLIT_OOM ? "OOM" : "a stall", prs[p].n - k);

                all[nsome++] = p;
                g_ptr_array_add(titles, g_strdup_printf("%s: %s%d run%s, out of memory in %d%s%s%s", prs[p].title,
                                                        prs[p].n > 1 ? "median and range of " : "", prs[p].n,
                                                        prs[p].n > 1 ? "s" : "", prs[p].oom, groups,
                                                        same ? "; the same as " : "", same ? same : ""));
        }
        g_snprintf(num, sizeof(num), "limit_mib=%.6f; ", limit_bytes / 1048576.0);
        g_string_append(vars, num);
        if (nsome)
                draw(pl, "memory.gp", "memory", vars, 600, prs, all, nsome, titles);
        for (size_t k = 0; k < G_N_ELEMENTS(cdfs); k++) {
                const char *const metrics[] = { cdfs[k].metric, NULL };
                const struct tail_spec ts = {
                        .stem = cdfs[k].stem, .what = cdfs[k].what, .unit = cdfs[k].unit, .scale = cdfs[k].scale,
                        .metrics = metrics, .count = (int)k, .pending = k == 0,
                };

                draw_tail(pl, prs, np, &ts);
        }
        /* RT wake-up latency per periodic class, when there are several: a
         * FIFO 45 task's delays do not hide behind a FIFO 90 one's. */
        g_autoptr(GPtrArray) classes = rt_classes(prs, np);

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
                                                         strcmp(r->status, "ok") ? status_shown(r->status) : "");
                g_autofree char *tics = NULL, *keys = NULL;
                int nlanes = 0;

                if (!prepare_timeline(r->rundir, &pal, &nlanes, &tics, &keys) || nlanes == 0)
                        continue;
                g_string_truncate(vars, 0);
                cli_gnuplot_var(vars, "datafile", datafile);
                cli_gnuplot_var(vars, "marks", marks);
                cli_gnuplot_var(vars, "policy", title);
                cli_gnuplot_var(vars, "yticks", tics);
                cli_gnuplot_var(vars, "taskkeys", keys);
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

/* ---- the runs ---- */

/* Enough runs that a rate of 0/N says something (its interval reaches
 * 31% at 10), few enough that the default compare takes seconds. */
#define COMPARE_DEFAULT_SEEDS 10
#define COMPARE_MAX_SEEDS 100000


struct compare_job {
        struct sim *sim;                /* made up front for each policy's first seed, else by the job */
        const struct scenario *sc;
        struct sim_options opts;
        struct result *res;
        char *tracefile;
        char *error;            /* the run failed */
        int error_status;       /* and the exit status that calls for */
        gint permille;          /* progress, for the terminal (atomic) */
        bool unsafe;            /* the oracle saw a violation */
};

/* What one run's report says, for the tables and plots. */
/* rcutree.kthread_prio's default: 1 with CONFIG_RCU_BOOST (a policy that
 * needs Tree RCU), else 0 (kernel/rcu/tree.c). */
static int stock_kthread_prio(const char *policy)
{
        const struct boost_policy_ops *ops = policy_find(policy);

        return ops && ops->rcu_flavour ? 1 : 0;
}

static void read_result(struct result *res, const struct report *r)
{
        double v;

        for (size_t c = 0; c < HEADLINE_COUNT; c++) {
                gboolean at_least = FALSE;

                /* one rule for every maximum: what is still pending counts */
                res->values[c] = report_lookup_bound(r, headline[c].key, &v, &at_least) ? v : NAN;
                res->at_least[c] = at_least;
        }
        bool outcome[VERDICT_OUTCOMES];

        /* the outcomes as check's rates count them: one definition (verdict.c) */
        verdict_outcomes(r, outcome);
        res->oom = outcome[VERDICT_OOM];
        res->stall = outcome[VERDICT_STALL];
        res->stalled_at_end = outcome[VERDICT_STALLED_AT_END];
        res->stall_unknown = outcome[VERDICT_STALL_UNKNOWN];
        res->oom_time_ns = report_lookup(r, "memory.oom_time_ns", &v) ? v : NAN;
        res->oom_bytes = report_lookup(r, "memory.oom_bytes", &v) ? v : NAN;
        res->pending_gp_ns = report_lookup(r, "rcu.gp_in_progress_ns", &v) ? v : 0;
        res->gp_max_ns = report_lookup(r, "gp_latency.max_ns", &v) ? v : 0;
        for (size_t k = 0; k < G_N_ELEMENTS(cdfs); k++) {
                g_autofree char *key = g_strconcat(cdfs[k].metric, ".count", NULL);

                res->counts[k] = report_lookup(r, key, &v) ? v : 0;
        }
        res->flavour = g_strdup(report_lookup_string(r, "rcu.flavour"));
        if (res->flavour && report_lookup_string(r, "kernel.generation")) {
                GString *env = g_string_new(NULL);
                double prio;

                g_string_printf(env, "%s, %s", res->flavour, report_lookup_string(r, "kernel.generation"));
                /* a tuned kernel: rcutree.kthread_prio other than its default */
                if (report_lookup(r, "rcu.tree.kthread_prio", &prio) && prio != stock_kthread_prio(res->policy))
                        g_string_append_printf(env, ", kthread_prio=%d", (int)prio);
                res->environment = g_string_free(env, FALSE);
        }
        /* The worst wake-up of each periodic class (rt_tasks.N.class). */
        res->rt_max_ns = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
        res->rt_task_class = g_ptr_array_new_with_free_func(g_free);
        for (unsigned n = 0;; n++) {
                char key[64];
                const char *cls;
                double *have;

                g_snprintf(key, sizeof(key), "rt_tasks.%u.class", n);
                if (!(cls = report_lookup_string(r, key)))
                        break;
                g_ptr_array_add(res->rt_task_class, g_strdup(cls));
                g_snprintf(key, sizeof(key), "rt_tasks.%u.latency.max_ns", n);
                if (!report_lookup(r, key, &v))
                        continue;
                if ((have = g_hash_table_lookup(res->rt_max_ns, cls)))
                        *have = MAX(*have, v);
                else
                        g_hash_table_insert(res->rt_max_ns, g_strdup(cls), g_memdup2(&v, sizeof(v)));
        }
}

static void compare_job_run(gpointer data, gpointer user)
{
        struct compare_job *job = data;
        struct result *res = job->res;
        GError *e = NULL;

        (void)user;
        if (!job->sim && !(job->sim = sim_new(job->sc, &job->opts, &e))) {
                job->error = g_strdup(e->message);
                job->error_status = cli_error_status(e);
                g_error_free(e);
                res->status = "failed";
                res->rt_max_ns = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
                for (size_t c = 0; c < HEADLINE_COUNT; c++)
                        res->values[c] = NAN;
                g_atomic_int_set(&job->permille, 1000);
                return;
        }
        /* In slices, so that the terminal can show how far each policy got. */
        int64_t end = sim_end_time(job->sim);

        while (sim_run_slice(job->sim, MAX(end / 200, 1)))
                g_atomic_int_set(&job->permille, (gint)(1000.0 * (double)sim_now(job->sim) / (double)end));
        sim_run(job->sim);
        if (!sim_finish(job->sim, &e)) {
                job->error = g_strdup(e->message);
                job->error_status = cli_error_status(e);
                g_error_free(e);
        }
        read_result(res, sim_report(job->sim));
        job->unsafe = sim_safety_violations(job->sim) > 0;
        res->status = job->error ? "failed" : !sim_complete(job->sim) ? "incomplete" : job->unsafe ? "unsafe" : "ok";
        /* the outputs are written: free the run, keep the figures */
        g_clear_pointer(&job->sim, sim_free);
        g_atomic_int_set(&job->permille, 1000);
}

static void compare_jobs_free(struct compare_job *jobs, guint n)
{
        for (guint j = 0; j < n; j++) {
                sim_free(jobs[j].sim);
                g_free(jobs[j].tracefile);
                g_free(jobs[j].error);
        }
        g_free(jobs);
}

/* DIR/POLICY/: a policy's pooled plot data, and its runs in seed-S/ --
 * a compare's own: `run --out` one of them is refused */
#define POLICY_DIR_KIND "compare-policy"
#define RUN_DIR_KIND "compare-run"

/* Remove the directory @dir of an earlier compare (a policy or a seed not
 * compared now); left alone, and said, if it holds anything rcuboost did
 * not write. */
static void remove_stale_dir(const char *dir, const char *kind, const char *const *ours)
{
        GError *e = NULL;

        if (!output_dir_remove(dir, kind, ours, &e)) {
                fprintf(stderr, "rcuboost: warning: %s is not compared now, but left: %s\n", dir, e->message);
                g_error_free(e);
        }
}

/* The runs DIR/POLICY/seed-S/ of the policy directory @dir whose seed is
 * not among the @nseeds from @first_seed. */
static void remove_stale_seeds(const char *dir, uint64_t first_seed, int nseeds)
{
        g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
        const char *name;

        while (d && (name = g_dir_read_name(d))) {
                g_autofree char *sub = g_build_filename(dir, name, NULL);
                guint64 s;

                if (!g_str_has_prefix(name, "seed-") || !g_file_test(sub, G_FILE_TEST_IS_DIR))
                        continue;
                if (g_ascii_string_to_unsigned(name + 5, 10, 0, G_MAXUINT64, &s, NULL) && s >= first_seed &&
                    s - first_seed < (guint64)nseeds)
                        continue;
                remove_stale_dir(sub, RUN_DIR_KIND, sim_output_names);
        }
}

/* DIR holds one compare's files and nothing of an earlier one: its own
 * files are removed, and so are the runs of policies and seeds not
 * compared now.  DIR/POLICY/ holds the policy's pooled plot data and a
 * directory seed-S/ per run. */
static int prepare_out(const char *out, GPtrArray *names, uint64_t first_seed, int nseeds, gboolean real,
                       GError **error)
{
        int lock;
        g_autoptr(GPtrArray) ours = g_ptr_array_new_with_free_func(g_free);
        static const char *const files[] = { "comparison.tsv", "comparison.md", "comparison-summary.tsv",
                                             "comparison-paired.tsv", "oom-events.csv", "pending-gp.csv",
                                             "*.png", "*.svg", "*.pdf", "plots/" };
        g_autoptr(GPtrArray) policy_files = g_ptr_array_new();

        for (size_t i = 0; i < G_N_ELEMENTS(files); i++)
                g_ptr_array_add(ours, g_strdup(files[i]));
        for (const struct boost_policy_ops *const *p = policy_registry; *p; p++)
                g_ptr_array_add(ours, g_strconcat((*p)->name, "/", NULL));
        g_ptr_array_add(ours, g_strdup(REAL_POLICY "/"));
        g_ptr_array_add(ours, NULL);
        /* the policy's pooled files and runs, or an earlier layout's run */
        g_ptr_array_add(policy_files, "seed-*/");
        g_ptr_array_add(policy_files, "memory-band.dat");
        for (const char *const *n = sim_output_names; *n; n++)
                g_ptr_array_add(policy_files, (gpointer)*n);
        g_ptr_array_add(policy_files, NULL);
        lock = output_dir_claim(out, "compare", (const char *const *)ours->pdata, error);
        if (lock < 0)
                return -1;
        /* every policy directory of an earlier compare -- a module's too --
         * not compared now (the claim above saw that DIR lists them all) */
        {
                g_autoptr(GDir) d = g_dir_open(out, 0, NULL);
                const char *name;

                while (d && (name = g_dir_read_name(d))) {
                        g_autofree char *dir = g_build_filename(out, name, NULL);
                        gboolean compared = !strcmp(name, "plots") || !strcmp(name, REAL_POLICY);

                        for (guint i = 0; i < names->len; i++)
                                compared |= !strcmp(names->pdata[i], name);
                        if (compared || !g_file_test(dir, G_FILE_TEST_IS_DIR))
                                continue;
                        remove_stale_seeds(dir, 0, 0);
                        remove_stale_dir(dir, POLICY_DIR_KIND, (const char *const *)policy_files->pdata);
                }
        }
        for (guint i = 0; i < names->len; i++) {
                g_autofree char *dir = g_build_filename(out, names->pdata[i], NULL);

                /* made now with its kind, and held to the end (the lock is
                 * released when the process ends, as DIR's is) */
                if (!output_dir_prepare(dir, POLICY_DIR_KIND, (const char *const *)policy_files->pdata, error) ||
                    !output_dir_adopt(dir, POLICY_DIR_KIND, (const char *const *)policy_files->pdata, error) ||
                    output_dir_lock(dir, error) < 0) {
                        output_dir_unlock(lock);
                        return -1;
                }
                remove_stale_seeds(dir, first_seed, nseeds);
        }
        /* --real: the pooled files of the real runs (the runs stay where they are) */
        g_autofree char *real_dir = g_build_filename(out, REAL_POLICY, NULL);

        if (real) {
                if (!output_dir_prepare(real_dir, POLICY_DIR_KIND, (const char *const *)policy_files->pdata, error) ||
                    !output_dir_make(real_dir, error)) {
                        output_dir_unlock(lock);
                        return -1;
                }
        } else if (g_file_test(real_dir, G_FILE_TEST_IS_DIR)) {
                remove_stale_dir(real_dir, POLICY_DIR_KIND, (const char *const *)policy_files->pdata);
        }
        return lock;
}

static void results_free(struct policy_runs *prs, int np)
{
        for (int p = 0; p < np; p++) {
                for (int i = 0; i < prs[p].n; i++) {
                        struct result *r = &prs[p].runs[i];

                        g_free(r->rundir);
                        g_free(r->flavour);
                        g_free(r->environment);
                        if (r->rt_max_ns)
                                g_hash_table_destroy(r->rt_max_ns);
                        if (r->rt_task_class)
                                g_ptr_array_unref(r->rt_task_class);
                }
                g_free(prs[p].runs);
                g_free(prs[p].title);
        }
        g_free(prs);
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
        g_autofree char *real_dir = NULL;
        g_auto(GStrv) real_runs = NULL;
        /* read once, checked: a run replaced during the simulations is not read again */
        g_autoptr(GPtrArray) real_reports = g_ptr_array_new_with_free_func((GDestroyNotify)report_free);
        gint nthreads = (gint)MIN(g_get_num_processors(), 64);
        gint nseeds = COMPARE_DEFAULT_SEEDS;
        struct compare_job *jobs;
        const GOptionEntry entries[] = {
                { "policies", 'p', 0, G_OPTION_ARG_STRING, &policies_opt,
                  "Comma-separated policies to compare (default: all)", "A,B,..." },
                { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Output directory (default: out/SCENARIO)", "DIR" },
                { "seeds", 'n', 0, G_OPTION_ARG_INT, &nseeds,
                  "Runs per policy, seeds S..S+N-1, paired across policies (default: 10)", "N" },
                { "seed", 's', 0, G_OPTION_ARG_STRING, &seed,
                  "The first seed S (default: the scenario's seed, 1 unless it says)", "S" },
                { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Plot format: png (default), svg or pdf", "FMT" },
                { "window", 'w', 0, G_OPTION_ARG_STRING, &window,
                  "Timeline window, e.g. 990ms,60ms (default: [output] timeline_start/_length)", "START,LENGTH" },
                { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Override a scenario key (repeatable)",
                  "SECTION.KEY=VALUE" },
                { "jobs", 'j', 0, G_OPTION_ARG_INT, &nthreads, "Runs in parallel (default: one per CPU)", "J" },
                { "trace", 't', 0, G_OPTION_ARG_NONE, &trace,
                  "Also write DIR/POLICY/seed-S/trace.json for the first seed (Chrome trace events, for Perfetto)",
                  NULL },
                { "trace-format", 0, 0, G_OPTION_ARG_STRING, &trace_format,
                  "json (default), ftrace (trace.txt, kernel tracepoint lines) or dat "
                  "(trace.dat, for trace-cmd report and KernelShark)", "FORMAT" },
                { "trace-window", 0, 0, G_OPTION_ARG_STRING, &trace_window,
                  "Trace only this window, e.g. 990ms,60ms (default: the timeline window; 'all' for the whole run)",
                  "START,LENGTH" },
                { "real", 0, 0, G_OPTION_ARG_FILENAME, &real_dir,
                  "Also set DIR's runs of the scenario on a real kernel beside the simulated ones "
                  "(scripts/kernel-run --out DIR; a row and curve of their own, not paired by seed)", "DIR" },
                { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing but errors", NULL },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("[SCENARIO] - run a scenario under several policies over "
                                                             "several seeds, and plot them");
        g_autoptr(GPtrArray) overrides = g_ptr_array_new_with_free_func(g_free);
        g_autoptr(GPtrArray) names = g_ptr_array_new();
        g_autoptr(RcbScenario) sc = NULL;
        struct policy_runs *prs;
        struct sim_options opts = { 0 };
        uint64_t first_seed;
        int status = EXIT_OK, np, njobs;
        GError *e = NULL;

        g_option_context_add_main_entries(ctx, entries, NULL);
        g_option_context_set_description(ctx,
                "Runs the scenario N times per policy, with seeds S..S+N-1: the same seed gives every\n"
                "policy the same random streams, so the runs are paired and differences come from the\n"
                "policy alone.  Writes each run to DIR/POLICY/seed-S/, and reports over the seeds:\n"
                "outcome rates (out of memory, a stall, stalled at the end, unsafe) with 95% Wilson\n"
                "intervals, median and range of peak memory, the longest grace period (one still\n"
                "pending at the end counts, as '>='), boost delay and RT wake-up latency per class, the\n"
                "worst run's seed (rcuboost run --seed S replays it), and each policy against none and\n"
                "booster seed by seed with an exact sign test.  Tables: DIR/comparison.md and stdout,\n"
                "DIR/comparison-summary.tsv (per policy), comparison.tsv (per run),\n"
                "comparison-paired.tsv.  Plots with gnuplot: memory (median and range), latency tails\n"
                "pooled over the runs (grace period, callback, synchronize_rcu, RT wake-up, boost\n"
                "delay, time boosted), and a timeline per policy of its first seed.\n"
                "Without SCENARIO it runs the built-in default (scenarios/oom.scn).\n\n"
                "Examples:\n  rcuboost compare\n"
                "  rcuboost compare scenarios/many-readers.scn --seeds 20 --policies booster,rcu-boost\n"
                "  rcuboost compare scenarios/oom.scn --seeds 1 -s 7 --format svg\n\n"
                CLI_EXIT_HELP);
        if (!cli_parse_options(ctx, &argc, &argv, &status))
                return status;
        if (argc > 2)
                return cli_usage_error(ctx, "compare: one scenario at a time");
        if (nthreads < 1 || nthreads > 1024)
                return cli_usage_error(ctx, "--jobs: expected 1 to 1024");
        if (nseeds < 1 || nseeds > COMPARE_MAX_SEEDS)
                return cli_usage_error(ctx, "--seeds: expected 1 to %d", COMPARE_MAX_SEEDS);
        if (format && strcmp(format, "png") && strcmp(format, "svg") && strcmp(format, "pdf"))
                return cli_usage_error(ctx, "--format: '%s' is not png, svg or pdf", format);
        if (seed && !cli_parse_seed(seed, &opts.seed))
                return cli_usage_error(ctx, "--seed: '%s' is not a whole number from 0 to 2^63-1", seed);
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
        /* modules first: the scenario's [policy:NAME] and keys may be theirs */
        if (!cli_parse_policies(ctx, policies_opt, names, &status))
                return status;
        sc = argc == 2 ? scenario_load(argv[1], (const char *const *)overrides->pdata, &e)
                       : scenario_load_data(cli_default_scenario(), "default.scn",
                                            (const char *const *)overrides->pdata, &e);
        if (!sc) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                return EXIT_USAGE;
        }
        first_seed = seed ? opts.seed : sc->seed;
        if (first_seed > G_MAXINT64 - (uint64_t)nseeds)
                return cli_usage_error(ctx, "--seed: %" G_GUINT64_FORMAT " + %d seeds passes 2^63-1", first_seed, nseeds);
        opts.seed_set = TRUE;
        if (!out) {
                GError *bad = NULL;

                if (!output_name_check(sc->name, "the scenario's name", &bad)) {
                        status = cli_usage_error(ctx, "%s: %s (give --out DIR)", sc->path, bad->message);
                        g_error_free(bad);
                        return status;
                }
                out = g_build_filename("out", sc->name, NULL);
        }
        /* A trace per policy of a whole big run is hundreds of MB: by default
         * the window the timeline plots show (bench-large: about 2 MB). */
        if (trace && !trace_window) {
                opts.trace_start_ns = sc->timeline_start_ns;
                opts.trace_length_ns = sc->timeline_length_ns;
        }
        if (trace)
                cli_warn_trace_window(sc, opts.trace_start_ns, opts.trace_length_ns);

        /* Every policy must be able to run it before any output is made;
         * when some can, say which, as the --policies that would run. */
        {
                g_autoptr(GString) can = g_string_new(NULL);
                g_autofree char *first = NULL;

                for (guint p = 0; p < names->len; p++) {
                        if (sim_check(sc, names->pdata[p], &e)) {
                                g_string_append_printf(can, "%s%s", can->len ? "," : "", (char *)names->pdata[p]);
                        } else {
                                if (!first)
                                        first = g_strdup(e->message);
                                g_clear_error(&e);
                        }
                }
                if (first) {
                        fprintf(stderr, "rcuboost: %s\n", first);
                        if (can->len)
                                fprintf(stderr, "rcuboost: the policies that can run it: --policies %s\n", can->str);
                        return EXIT_USAGE;
                }
        }
        /* --real: every run readable, and of this scenario, before any output is made */
        g_autoptr(GString) given_sets = g_string_new(NULL);

        for (char **s = sets; s && *s; s++)
                g_string_append_printf(given_sets, "%s--set %s", given_sets->len ? " " : "", *s);
        if (real_dir) {
                real_runs = real_run_dirs(real_dir, &e);
                for (char **d = real_runs; d && *d; d++) {
                        g_autofree char *path = g_build_filename(*d, "summary.json", NULL);
                        struct report *r = real_summary_load(path, &e);
                        const char *of = r ? report_lookup_string(r, "scenario") : NULL;

                        const char *sha = r ? report_lookup_string(r, "scenario_sha256") : NULL;
                        const char *ran_sets = r ? report_lookup_string(r, "set_args") : NULL;

                        if (r && g_strcmp0(of, sc->name) != 0)
                                g_set_error(&e, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                                            "%s: a run of scenario '%s', not '%s'", path, of ? of : "?", sc->name);
                        /* the same file and the same --set, or another experiment (runs
                         * recorded before kernel-run said so are taken as they are) */
                        else if (r && sha && *sha && strcmp(sha, sc->sha256) != 0)
                                g_set_error(&e, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                                            "%s: a run of another version of %s (its sha256 differs): run "
                                            "scripts/kernel-run on this one", path, sc->path);
                        else if (r && ran_sets && strcmp(ran_sets, given_sets->str) != 0)
                                g_set_error(&e, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                                            "%s: run with '%s', compared with '%s': the same --set on both", path,
                                            ran_sets, given_sets->str);
                        if (r)
                                g_ptr_array_add(real_reports, r);
                        if (e)
                                break;
                }
                if (e) {
                        fprintf(stderr, "rcuboost: --real: %s\n", e->message);
                        g_error_free(e);
                        return EXIT_USAGE;
                }
        }
        /* Held until the process ends: one compare at a time in DIR. */
        if (prepare_out(out, names, first_seed, nseeds, real_dir != NULL, &e) < 0) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                status = cli_error_status(e);
                g_error_free(e);
                return status;
        }
        np = (int)names->len;
        njobs = np * nseeds;
        prs = g_new0(struct policy_runs, np);
        jobs = g_new0(struct compare_job, njobs);
        for (int p = 0; p < np; p++) {
                prs[p].policy = names->pdata[p];
                prs[p].n = nseeds;
                prs[p].runs = g_new0(struct result, nseeds);
                for (int i = 0; i < nseeds; i++) {
                        struct compare_job *job = &jobs[p * nseeds + i];
                        struct result *r = &prs[p].runs[i];
                        g_autofree char *sub = g_strdup_printf("seed-%" G_GUINT64_FORMAT, first_seed + (uint64_t)i);

                        r->policy = names->pdata[p];
                        r->seed = first_seed + (uint64_t)i;
                        r->rundir = g_build_filename(out, r->policy, sub, NULL);
                        job->res = r;
                        job->sc = sc;
                        job->opts = opts;
                        job->opts.policy = r->policy;
                        job->opts.seed = r->seed;
                        job->opts.out_dir = r->rundir;
                        job->opts.out_kind = RUN_DIR_KIND;
                        job->opts.interrupt = cli_interrupt_flag();
                        /* the first seed's run is the one drawn and traced */
                        if (trace && i == 0) {
                                job->tracefile = g_build_filename(r->rundir, cli_trace_file_name(opts.trace_format), NULL);
                                job->opts.trace = job->tracefile;
                        } else {
                                job->opts.trace = NULL;
                        }
                        if (i > 0)
                                continue;
                        /* made now, so that a policy that cannot start says so before any run */
                        job->sim = sim_new(sc, &job->opts, &e);
                        if (!job->sim) {
                                fprintf(stderr, "rcuboost: %s\n", e->message);
                                status = cli_error_status(e);
                                g_error_free(e);
                                compare_jobs_free(jobs, (guint)njobs);
                                results_free(prs, np);
                                return status;
                        }
                }
        }
        if (!quiet) {
                g_autofree struct sim **firsts = g_new(struct sim *, np);

                for (int p = 0; p < np; p++) {
                        cli_print_warnings(p == 0 ? sc : NULL, jobs[p * nseeds].sim);
                        firsts[p] = jobs[p * nseeds].sim;
                }
                cli_warn_unused_rcu_keys(sc, firsts, np);
                cli_warn_if_long(jobs[0].sim);
        }
        if (!quiet) {
                g_ptr_array_add(names, NULL);
                g_autofree char *list = g_strjoinv(", ", (char **)names->pdata);

                g_ptr_array_set_size(names, names->len - 1);
                fprintf(stderr, "rcuboost: running %s with %s, seeds %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT
                        " (%d runs, %d at a time)...\n", sc->name, list, first_seed,
                        first_seed + (uint64_t)nseeds - 1, njobs, MIN(nthreads, njobs));
        }
        /* Each run has its own struct sim: they run side by side. */
        GThreadPool *pool = g_thread_pool_new(compare_job_run, NULL, nthreads, TRUE, NULL);

        for (int j = 0; j < njobs; j++)
                g_thread_pool_push(pool, &jobs[j], NULL);
        if (!quiet && isatty(STDERR_FILENO)) {
                /* One line: how far each policy's runs got, together. */
                for (gboolean done = FALSE; !done; ) {
                        GString *line = g_string_new("\r");

                        done = TRUE;
                        for (int p = 0; p < np; p++) {
                                gint pm = 0;

                                for (int i = 0; i < nseeds; i++)
                                        pm += g_atomic_int_get(&jobs[p * nseeds + i].permille);
                                done &= pm >= 1000 * nseeds;
                                g_string_append_printf(line, "%s %3d%%  ", prs[p].policy, pm / 10 / nseeds);
                        }
                        fputs(line->str, stderr);
                        g_string_free(line, TRUE);
                        if (!done)
                                g_usleep(200000);
                }
                fputs("\r\033[K", stderr);
        }
        g_thread_pool_free(pool, FALSE, TRUE);
        for (int j = 0; j < njobs; j++) {
                const struct result *r = jobs[j].res;

                if (jobs[j].error) {
                        fprintf(stderr, "rcuboost: %s, seed %" G_GUINT64_FORMAT ": %s\n", r->policy, r->seed,
                                jobs[j].error);
                        status = MAX(status, jobs[j].error_status);
                }
                if (jobs[j].unsafe && status == EXIT_OK)
                        status = EXIT_UNSAFE;
                if (!strcmp(r->status, "incomplete") && !cli_interrupt_status()) {
                        fprintf(stderr, "rcuboost: %s, seed %" G_GUINT64_FORMAT ": stopped early: its results are "
                                "incomplete\n", r->policy, r->seed);
                        if (status == EXIT_OK)
                                status = EXIT_FAILED;
                }
        }
        compare_jobs_free(jobs, (guint)njobs);
        if (cli_interrupt_status()) {
                fprintf(stderr, "rcuboost: interrupted: no comparison written; a run it stopped is marked "
                        "\"complete\": false\n");
                results_free(prs, np);
                return cli_interrupt_status();
        }
        if (real_runs) {
                struct policy_runs *pr;

                prs = g_renew(struct policy_runs, prs, np + 1);
                pr = &prs[np++];
                memset(pr, 0, sizeof(*pr));
                pr->policy = REAL_POLICY;
                pr->real = true;
                pr->n = (int)g_strv_length(real_runs);
                pr->runs = g_new0(struct result, pr->n);
                for (int i = 0; i < pr->n; i++) {
                        struct result *r = &pr->runs[i];
                        const struct report *rep = real_reports->pdata[i];
                        double v;

                        r->policy = REAL_POLICY;
                        r->seed = (uint64_t)(report_lookup(rep, "run", &v) ? v : i + 1);
                        r->rundir = g_strdup(real_runs[i]);
                        r->status = report_lookup(rep, "complete", &v) && v ? "ok" : "incomplete";
                        read_result(r, rep);
                        /* the environment as booted, marked real */
                        g_free(r->environment);
                        r->environment = g_strdup_printf("%s, %s (real: %s)", r->flavour ? r->flavour : "tree",
                                                         report_lookup_string(rep, "kernel.generation"),
                                                         report_lookup_string(rep, "kernel.release"));
                }
        }
        for (int p = 0; p < np; p++)
                summarise(&prs[p]);
        if (!write_tables(out, prs, np, sc->stall_threshold_ns, &e) || !write_events(out, prs, np, &e)) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                results_free(prs, np);
                return EXIT_FAILED;
        }
        warn_stall_unknown(prs, np, sc->stall_threshold_ns);
        if (!quiet)
                print_table(prs, np, sc->stall_threshold_ns);

        g_autofree char *gnuplot = g_find_program_in_path("gnuplot");

        if (!gnuplot) {
                fprintf(stderr, "rcuboost: gnuplot not found: no plots drawn (install it, e.g. apt-get "
                        "install gnuplot-nox); the numbers are in %s/comparison.tsv\n", out);
        } else {
                struct plotter pl = {
                        .dir = out, .format = format ? format : "png", .scenario = sc->name,
                        .progress = !quiet && isatty(STDERR_FILENO),
                };

                draw_all(&pl, prs, np, sc->memory_limit_bytes);
                if (pl.progress)
                        fputs("\r\033[K", stderr);
                if (cli_interrupt_status()) {
                        fprintf(stderr, "rcuboost: interrupted while plotting: %d plots drawn, %d not (the runs "
                                "and tables are whole)\n", pl.drawn, pl.skipped + pl.failed);
                        results_free(prs, np);
                        return cli_interrupt_status();
                }
                if (pl.failed && status == EXIT_OK)
                        status = EXIT_FAILED;
                if (!quiet)
                        printf("\n%d plots in %s/ (templates in %s/plots/); tables in %s/comparison.md\n",
                               pl.drawn, out, out, out);
        }
        results_free(prs, np);
        return status;
}
