/* compare_table.c - the table of `rcuboost compare`: each policy's runs
 * summarised over the seeds (outcome rates with their Wilson intervals,
 * medians and ranges -- per outcome where the runs split), the policies
 * against one another seed by seed, written as comparison.md, the TSVs and
 * stdout. */
#include <math.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <stdio.h>
#include <string.h>

#include "compare_table.h"
#include "cli.h"
#include "sim/output/output.h"
#include "sim/scenario/units.h"
#include "sim/output/verdict.h"

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
const char *compare_status_shown(const char *status)
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

        /* "29ms (29ms .. 29ms)" says nothing a single figure does not */
        if (!strcmp(lo, hi) && !strcmp(med, lo))
                return g_steal_pointer(&med);
        return g_strdup_printf("%s (%s .. %s)", med, lo, hi);
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
                g_string_append_printf(s, "%s%d %s", first ? " (" : ", ", k, compare_status_shown(bad[b]));
                first = 0;
        }
        if (pr->ok < pr->n)
                g_string_append_c(s, ')');
        return g_string_free(s, FALSE);
}

void compare_summarise(struct policy_runs *pr)
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
                pr->stall_episodes += r->stall_episodes;
                pr->observed_ns += r->observed_ns;     /* NAN once a run did not say */
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

GPtrArray *compare_rt_classes(const struct policy_runs *prs, int np)
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

/* Stalls as a rate per simulated hour, with the exact Poisson interval:
 * "0 stalls in 10 runs" is a bound on how often, and this says which. */
static char *cell_per_hour(const struct policy_runs *pr, const void *arg)
{
        (void)arg;
        return pr->real || isnan(pr->observed_ns) ? g_strdup("-")
                                                   : verdict_format_per_hour(pr->stall_episodes, pr->observed_ns / 1e9);
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
enum split compare_split_of(const struct policy_runs *pr)
{
        if (pr->oom > 0 && pr->oom < pr->n)
                return SPLIT_OOM;
        if (pr->stall > 0 && pr->stall < pr->n)
                return SPLIT_STALL;
        return SPLIT_NONE;
}

bool compare_in_group(const struct result *r, enum split split, bool outcome)
{
        return split == SPLIT_NONE || (split == SPLIT_OOM ? r->oom : r->stall) == outcome;
}

/* The values of column @col over the runs of one group (SPLIT_NONE: every
 * run), NAN for the runs outside it or that measured nothing: @members runs
 * are in it, @measured of them measured anything. */
static void group_values_of(const struct policy_runs *pr, int col, enum split split, bool outcome, double *v,
                            bool *al, int *members, int *measured)
{
        int m = 0, k = 0;

        for (int i = 0; i < pr->n; i++) {
                const struct result *r = &pr->runs[i];

                v[i] = NAN;
                al[i] = false;
                if (!compare_in_group(r, split, outcome))
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
        *measured = k;
}

/* The scale below which a figure's differences are of no consequence, for
 * verdict_two_groups(): a jiffy at HZ=250, 64 KiB, one. */
static double compare_figure_floor(enum headline_kind kind)
{
        return kind == HEADLINE_BYTES ? 65536 : kind == HEADLINE_NS ? 4e6 : 1;
}

/* The runs of @v[0..n) (NAN: not among them) with a value above @cut
 * (@above) or at most it, the others NAN. */
static void values_beyond(const double *v, const bool *al, int n, double cut, bool above, double *out, bool *out_al)
{
        for (int i = 0; i < n; i++) {
                bool in = !isnan(v[i]) && (v[i] > cut) == above;

                out[i] = in ? v[i] : NAN;
                out_al[i] = in && al && al[i];
        }
}

/* A figure over some runs, for people: its median and range, or where the
 * values fall in two groups far apart (verdict_two_groups()), each group with
 * its count, the higher first -- "5/10: 38.0 MiB (..); 5/10: 300.0 KiB (..)"
 * -- never a median between them.  "k/m: " before one spread when only k of
 * the @members runs measured anything (a boost delay where some runs boosted
 * nobody). */
static char *compare_format_figure(enum headline_kind kind, double floor, const double *v, const bool *al, int n,
                                   int members)
{
        struct verdict_spread sp;
        double cut;
        int low = verdict_two_groups(v, n, floor, &cut);

        if (!low) {
                verdict_spread(v, al, n, &sp);
                g_autofree char *f = format_spread(kind, &sp);

                return sp.n > 0 && sp.n < members ? g_strdup_printf("%d/%d: %s", sp.n, members, f)
                                                  : g_steal_pointer(&f);
        }
        double part[n];
        bool part_al[n];
        char *half[2];
        int count[2];

        for (int h = 0; h < 2; h++) {
                values_beyond(v, al, n, cut, h == 0, part, part_al);
                verdict_spread(part, part_al, n, &sp);
                half[h] = format_spread(kind, &sp);
                count[h] = sp.n;
        }
        char *s = g_strdup_printf("%d/%d: %s; %d/%d: %s", count[0], members, half[0], count[1], members, half[1]);

        g_free(half[0]);
        g_free(half[1]);
        return s;
}

/* The same for comparison-summary.tsv's `.groups` columns: "-" for one
 * group, else "count/members median min max" per group, ";" between them,
 * the higher first (machine units). */
static void tsv_groups(FILE *f, double floor, const double *v, int n, int members)
{
        struct verdict_spread sp;
        double cut, part[n];
        bool part_al[n];

        if (!verdict_two_groups(v, n, floor, &cut)) {
                fputs("\t-", f);
                return;
        }
        for (int h = 0; h < 2; h++) {
                values_beyond(v, NULL, n, cut, h == 0, part, part_al);
                verdict_spread(part, NULL, n, &sp);
                fprintf(f, "%s%d/%d %.15g %.15g %.15g", h ? ";" : "\t", sp.n, members, sp.median, sp.min, sp.max);
        }
}

int compare_memory_groups(const struct policy_runs *pr, bool *first, char **what)
{
        enum split split = compare_split_of(pr);
        int col = headline_index("memory.peak_bytes"), members, measured, k = 0;
        double v[pr->n], cut;
        bool al[pr->n];

        if (split != SPLIT_NONE) {
                for (int i = 0; i < pr->n; i++)
                        k += first[i] = compare_in_group(&pr->runs[i], split, true);
                *what = g_strdup_printf("%d with %s solid, %d without dashed", k,
                                        split == SPLIT_OOM ? "OOM" : "a stall", pr->n - k);
                return k;
        }
        group_values_of(pr, col, SPLIT_NONE, false, v, al, &members, &measured);
        if (!verdict_two_groups(v, pr->n, compare_figure_floor(HEADLINE_BYTES), &cut)) {
                *what = NULL;
                return 0;
        }
        g_autofree char *at = units_format_size((int64_t)cut);

        for (int i = 0; i < pr->n; i++)
                k += first[i] = !isnan(v[i]) && v[i] > cut;
        *what = g_strdup_printf("%d peaking above %s solid, %d at most dashed", k, at, pr->n - k);
        return k;
}

/* One group's figure, formatted (compare_format_figure()). */
static char *group_spread(const struct policy_runs *pr, int col, enum split split, bool outcome, int *members)
{
        double v[pr->n];
        bool al[pr->n];
        int k;

        group_values_of(pr, col, split, outcome, v, al, members, &k);
        return compare_format_figure(headline[col].kind, compare_figure_floor(headline[col].kind), v, al, pr->n,
                                     *members);
}

static char *cell_spread(const struct policy_runs *pr, const void *arg)
{
        int col = headline_index(arg), m_yes, m_no;
        enum split split = compare_split_of(pr);

        if (split == SPLIT_NONE)
                return group_spread(pr, col, split, false, &m_no);
        const char *what = split == SPLIT_OOM ? "OOM" : "stall";
        g_autofree char *yes = group_spread(pr, col, split, true, &m_yes);
        g_autofree char *no = group_spread(pr, col, split, false, &m_no);

        return g_strdup_printf("%s %d/%d: %s; no %s %d/%d: %s", what, m_yes, pr->n, yes, what, m_no, pr->n, no);
}

/* --real: how close the guest came to the scenario's pace -- its call_rcu()
 * issuers' rate against the model's for the same seed (kernel-run-collect);
 * below GUEST_PACE_MIN_PCT a difference may be the guest's, not the model's. */
static char *cell_pace(const struct policy_runs *pr, const void *arg)
{
        double lo = INFINITY, hi = -INFINITY, v[pr->n];
        int k = 0;

        (void)arg;
        for (int i = 0; i < pr->n; i++)
                if (pr->runs[i].has_pace) {
                        v[k++] = pr->runs[i].pace_pct;
                        lo = MIN(lo, pr->runs[i].pace_pct);
                        hi = MAX(hi, pr->runs[i].pace_pct);
                }
        if (k == 0)
                return g_strdup("-");
        const char *slow = lo < GUEST_PACE_MIN_PCT ? ", below 80%: slower than the scenario" : "";

        gsl_sort(v, 1, (size_t)k);
        if (lo == hi)
                return g_strdup_printf("%.0f%%%s", lo, slow);
        return g_strdup_printf("%.0f%% (%.0f%% .. %.0f%%)%s", gsl_stats_median_from_sorted_data(v, 1, (size_t)k), lo,
                               hi, slow);
}

void compare_warn_slow_guest(const struct policy_runs *prs, int np)
{
        for (int p = 0; p < np; p++) {
                int slow = 0, measured = 0;

                for (int i = 0; prs[p].real && i < prs[p].n; i++) {
                        measured += prs[p].runs[i].has_pace;
                        slow += prs[p].runs[i].has_pace && prs[p].runs[i].pace_pct < GUEST_PACE_MIN_PCT;
                }
                if (slow)
                        fprintf(stderr, "rcuboost: warning: %d of %d real runs kept under %d%% of the scenario's pace "
                                "(the call_rcu() rate the model reaches with the same seed): where they differ "
                                "from the model, the guest may be why (docs/validation.md)\n", slow, measured,
                                GUEST_PACE_MIN_PCT);
        }
}

/* --real: when the first boost came in its grace period, on the kernel and
 * in the model alike (boost_delay counts from the reader's switch-out, which
 * the kernel does not trace the same way). */
static char *cell_boost_from_gp(const struct policy_runs *pr, const void *arg)
{
        double v[pr->n];

        (void)arg;
        for (int i = 0; i < pr->n; i++)
                v[i] = pr->runs[i].boost_from_gp_ns;
        return compare_format_figure(HEADLINE_NS, compare_figure_floor(HEADLINE_NS), v, NULL, pr->n, pr->n);
}

static void rt_values_of(const struct policy_runs *pr, const char *cls, double *v)
{
        for (int i = 0; i < pr->n; i++) {
                const double *m = g_hash_table_lookup(pr->runs[i].rt_max_ns, cls);

                v[i] = m ? *m : NAN;
        }
}

/* An RT task's wake-up latency matters from microseconds up. */
#define RT_LATENCY_FLOOR_NS 10000.0

static char *cell_rt(const struct policy_runs *pr, const void *arg)
{
        double v[pr->n];
        int measured = 0;

        rt_values_of(pr, arg, v);
        for (int i = 0; i < pr->n; i++)
                measured += !isnan(v[i]);
        return compare_format_figure(HEADLINE_NS, RT_LATENCY_FLOOR_NS, v, NULL, pr->n, measured);
}

/* What the class's worst wake-up over the runs waited for most, and in which
 * seed (rtwait.h): "RT throttling on CPU 0: 51.7ms of 51.7ms (seed 4)". */
static char *cell_rt_cause(const struct policy_runs *pr, const void *arg)
{
        const struct result *worst = NULL;
        double most = -1;

        for (int i = 0; i < pr->n; i++) {
                const double *m = pr->runs[i].rt_max_ns ? g_hash_table_lookup(pr->runs[i].rt_max_ns, arg) : NULL;

                if (m && *m > most) {
                        most = *m;
                        worst = &pr->runs[i];
                }
        }
        const char *cause = worst && worst->rt_cause ? g_hash_table_lookup(worst->rt_cause, arg) : NULL;

        return cause ? g_strdup_printf("%s (seed %" G_GUINT64_FORMAT ")", cause, worst->seed) : g_strdup("-");
}

static char *cell_worst(const struct policy_runs *pr, const void *arg)
{
        (void)arg;
        return pr->worst ? g_strdup_printf("%" G_GUINT64_FORMAT, pr->worst->seed) : g_strdup("-");
}

/* A threshold the runs end before they can pass: say so, once per policy,
 * rather than let "stall 0/10" read as no stall. */
void compare_warn_stall_unknown(const struct policy_runs *prs, int np, int64_t stall_threshold_ns)
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
        g_autoptr(GPtrArray) classes = compare_rt_classes(prs, np);

        t->headers = g_ptr_array_new_with_free_func(g_free);
        t->rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
        table_row(t, prs, np, g_strdup("runs"), cell_runs, NULL);
        table_row(t, prs, np, g_strdup("RCU, kernel"), cell_flavour, NULL);
        table_row(t, prs, np, g_strdup("out of memory"), cell_rate,
                  GSIZE_TO_POINTER(G_STRUCT_OFFSET(struct policy_runs, oom)));
        table_row(t, prs, np, g_strdup_printf("stall (a GP or callback > %s)", thr), cell_rate,
                  GSIZE_TO_POINTER(G_STRUCT_OFFSET(struct policy_runs, stall)));
        table_row(t, prs, np, g_strdup("stalls per simulated hour"), cell_per_hour, NULL);
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
        for (int p = 0; p < np; p++)
                if (prs[p].real) {
                        table_row(t, prs, np, g_strdup("first boost from its GP's start"), cell_boost_from_gp, NULL);
                        table_row(t, prs, np, g_strdup("guest's pace (% of the model's)"), cell_pace, NULL);
                        break;
                }
        for (guint i = 0; i < classes->len; i++) {
                table_row(t, prs, np, g_strdup_printf("RT wake-up max (%s)", (char *)classes->pdata[i]), cell_rt,
                          classes->pdata[i]);
                table_row(t, prs, np, g_strdup_printf("  its worst waited for (%s)", (char *)classes->pdata[i]),
                          cell_rt_cause, classes->pdata[i]);
        }
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

/* comparison.tsv: one row per run, every headline figure. */
static gboolean write_runs_tsv(const char *dir, const struct policy_runs *prs, int np, GError **error)
{
        struct outfile *o = outfile_open(dir, "comparison.tsv", error);
        FILE *f;

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
        return outfile_commit(o, error);
}

/* The rates comparison-summary.tsv gives with their intervals, in its order. */
static const char *const summary_rates[] = { "oom", "stall", "stalled_at_end", "unsafe", "stall_unknown" };

/* comparison-summary.tsv's row of @pr: rates with their intervals, medians
 * and ranges, RT wake-up latency per class, stall episodes per hour. */
static void summary_row(FILE *f, const struct policy_runs *pr, const GPtrArray *classes)
{
        const int counts[] = { pr->oom, pr->stall, pr->stalled_at_end, pr->unsafe, pr->stall_unknown };

        fprintf(f, "%s\t%s\t%d\t%d", pr->policy, pr->flavour, pr->n, pr->ok);
        for (size_t k = 0; k < G_N_ELEMENTS(counts); k++) {
                double lo, hi;

                if (pr->real && !strcmp(summary_rates[k], "unsafe")) {
                        fputs("\t-\t-\t-", f);       /* not measured on a real kernel */
                        continue;
                }
                verdict_wilson(counts[k], pr->n, &lo, &hi);
                fprintf(f, "\t%d\t%.6f\t%.6f", counts[k], lo, hi);
        }
        /* the median only of runs in one group: where they fall in two far
         * apart, "-" and the groups in .groups (compare_format_figure()) */
        for (size_t k = 0; k < G_N_ELEMENTS(spread_keys); k++) {
                int col = headline_index(spread_keys[k]), members, measured;
                double v[pr->n], cut;
                bool al[pr->n];
                struct verdict_spread sp;
                double floor = compare_figure_floor(headline[col].kind);

                group_values_of(pr, col, SPLIT_NONE, false, v, al, &members, &measured);
                verdict_spread(v, al, pr->n, &sp);
                if (sp.n == 0)
                        fputs("\t-\t0\t-\t-\t0", f);
                else if (verdict_two_groups(v, pr->n, floor, &cut))
                        fprintf(f, "\t-\t0\t%.15g\t%.15g\t%d", sp.min, sp.max, sp.max_at_least);
                else
                        fprintf(f, "\t%.15g\t%d\t%.15g\t%.15g\t%d", sp.median, sp.median_at_least, sp.min,
                                sp.max, sp.max_at_least);
                tsv_groups(f, floor, v, pr->n, members);
        }
        for (guint k = 0; k < classes->len; k++) {
                double v[pr->n], cut;
                int measured = 0;
                struct verdict_spread sp;

                rt_values_of(pr, classes->pdata[k], v);
                for (int i = 0; i < pr->n; i++)
                        measured += !isnan(v[i]);
                verdict_spread(v, NULL, pr->n, &sp);
                if (sp.n == 0)
                        fputs("\t-\t-\t-", f);
                else if (verdict_two_groups(v, pr->n, RT_LATENCY_FLOOR_NS, &cut))
                        fprintf(f, "\t-\t%.15g\t%.15g", sp.min, sp.max);
                else
                        fprintf(f, "\t%.15g\t%.15g\t%.15g", sp.median, sp.min, sp.max);
                tsv_groups(f, RT_LATENCY_FLOOR_NS, v, pr->n, measured);
        }
        if (pr->real || isnan(pr->observed_ns) || pr->observed_ns <= 0) {
                fputs("\t-\t-\t-\t-\t-", f);
        } else {
                double lo, hi, h = pr->observed_ns / 3.6e12;

                verdict_poisson(pr->stall_episodes, &lo, &hi);
                fprintf(f, "\t%d\t%.9g\t%.6g\t%.6g\t%.6g", pr->stall_episodes, pr->observed_ns / 1e9,
                        pr->stall_episodes / h, lo / h, hi / h);
        }
        if (pr->worst)
                fprintf(f, "\t%" G_GUINT64_FORMAT "\n", pr->worst->seed);
        else
                fputs("\t-\n", f);
}

/* comparison-summary.tsv: one row per policy. */
static gboolean write_summary_tsv(const char *dir, const struct policy_runs *prs, int np, GError **error)
{
        struct outfile *o;
        FILE *f;
        g_autoptr(GPtrArray) classes = compare_rt_classes(prs, np);

        if (!(o = outfile_open(dir, "comparison-summary.tsv", error)))
                return FALSE;
        f = outfile_stream(o);
        fputs("policy\trcu.flavour\truns\tok", f);
        for (size_t k = 0; k < G_N_ELEMENTS(summary_rates); k++)
                fprintf(f, "\t%s\t%s_lo\t%s_hi", summary_rates[k], summary_rates[k], summary_rates[k]);
        for (size_t k = 0; k < G_N_ELEMENTS(spread_keys); k++) {
                const char *col = headline_column(&headline[headline_index(spread_keys[k])]);

                fprintf(f, "\t%s.median\t%s.median_at_least\t%s.min\t%s.max\t%s.max_at_least\t%s.groups", col, col,
                        col, col, col, col);
        }
        for (guint k = 0; k < classes->len; k++)
                fprintf(f, "\trt_wakeup_max.%s.median_ns\trt_wakeup_max.%s.min_ns\trt_wakeup_max.%s.max_ns"
                        "\trt_wakeup_max.%s.groups", (char *)classes->pdata[k], (char *)classes->pdata[k],
                        (char *)classes->pdata[k], (char *)classes->pdata[k]);
        fputs("\tstall_episodes\tobserved_s\tstalls_per_hour\tstalls_per_hour_lo\tstalls_per_hour_hi\tworst_seed\n", f);
        for (int p = 0; p < np; p++)
                summary_row(f, &prs[p], classes);
        return outfile_commit(o, error);
}

/* comparison-paired.tsv: each policy against each baseline, seed by seed. */
static gboolean write_paired_tsv(const char *dir, const struct policy_runs *prs, int np, GError **error)
{
        struct outfile *o;
        FILE *f;

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
        return outfile_commit(o, error);
}

/* comparison.md, for people: the table over seeds, then the paired comparisons. */
static gboolean write_markdown(const char *dir, const struct policy_runs *prs, int np, int64_t thr_ns,
                               GError **error)
{
        struct outfile *o;
        FILE *f;
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

gboolean compare_write_tables(const char *dir, const struct policy_runs *prs, int np, int64_t thr_ns, GError **error)
{
        return write_runs_tsv(dir, prs, np, error) && write_summary_tsv(dir, prs, np, error) &&
               write_paired_tsv(dir, prs, np, error) && write_markdown(dir, prs, np, thr_ns, error);
}

/* The terminal's width: $COLUMNS where the shell exports it, else 160 (#58:
 * six policies side by side took 253). */
int compare_terminal_width(void)
{
        const char *env = g_getenv("COLUMNS");
        gint64 c = env ? g_ascii_strtoll(env, NULL, 10) : 0;

        return c >= 40 && c <= 1000 ? (int)c : 160;
}

/* The table on stdout, one row per figure, the policies in blocks that fit a
 * terminal. */
void compare_print_table(const struct policy_runs *prs, int np, int64_t thr_ns)
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
        printf("over seeds %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT ": rates k/N (95%% Wilson); "
               "median (min .. max), or two groups with counts\n", prs[0].runs[0].seed,
               prs[0].runs[prs[0].n - 1].seed);
        /* as many policies side by side as the terminal holds, the rest in
         * further blocks below (the whole table is comparison.md's) */
        int width = compare_terminal_width();

        for (int first = 0, last; first < np; first = last) {
                int used = w0 + w[first];

                for (last = first + 1; last < np && used + w[last] <= width; last++)
                        used += w[last];
                if (first > 0)
                        putchar('\n');
                printf("%-*s", w0, "");
                for (int p = first; p < last; p++)
                        printf("%*s", w[p], prs[p].policy);
                putchar('\n');
                for (guint h = 0; h < t->headers->len; h++) {
                        printf("%-*s", w0, (char *)t->headers->pdata[h]);
                        for (int p = first; p < last; p++)
                                printf("%*s", w[p], (char *)g_ptr_array_index((GPtrArray *)t->rows->pdata[h], p));
                        putchar('\n');
                }
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
gboolean compare_write_events(const char *dir, const struct policy_runs *prs, int np, GError **error)
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
