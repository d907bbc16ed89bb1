/* compare.c - `rcuboost compare`: one scenario, several policies, side by side.
 *
 * Runs the scenario once per policy with the same seed (so the same random
 * streams: differences come from the policy alone), writes each run's
 * outputs under DIR/POLICY/, then hands the runs to the table
 * (compare_table.c: comparison.md, the TSVs and stdout) and to the plots
 * (compare_plots.c, drawn by plot.c with gnuplot).  This file is the
 * orchestration: the jobs, the output directory, the command line.
 * Without gnuplot the numbers are still written.
 */
#include <errno.h>
#include <gio/gio.h>
#include <math.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "compare_plots.h"
#include "compare_table.h"
#include "headline.h"
#include "realruns.h"
#include "policies/policy.h"
#include "sim/output/output.h"
#include "sim/output/report.h"
#include "sim/scenario/scenario.h"
#include "sim/sim.h"
#include "sim/scenario/units.h"
#include "sim/output/verdict.h"

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
        res->observed_ns = res->oom && !isnan(res->oom_time_ns) ? res->oom_time_ns
                           : report_lookup(r, "duration_ns", &v) ? v : NAN;
        res->stall_episodes = (int)(report_lookup(r, "rcu.gp_over_threshold", &v) ? v : 0);
        if (res->stall && res->stall_episodes == 0)
                res->stall_episodes = 1;        /* a callback or synchronize_rcu() wait alone */
        res->pending_gp_ns = report_lookup(r, "rcu.gp_in_progress_ns", &v) ? v : 0;
        res->gp_max_ns = report_lookup(r, "gp_latency.max_ns", &v) ? v : 0;
        for (size_t k = 0; k < COMPARE_TAILS; k++) {
                g_autofree char *key = g_strconcat(compare_tails[k].metric, ".count", NULL);

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
        res->rt_cause = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
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
                if ((have = g_hash_table_lookup(res->rt_max_ns, cls)) && *have >= v)
                        continue;
                if (have)
                        *have = v;
                else
                        g_hash_table_insert(res->rt_max_ns, g_strdup(cls), g_memdup2(&v, sizeof(v)));
                /* what that worst wake-up waited for most (rtwait.h) */
                double ns, lat;
                const char *what;

                g_snprintf(key, sizeof(key), "rt_wait.%u.worst.0.causes.0.what", n);
                what = report_lookup_string(r, key);
                g_snprintf(key, sizeof(key), "rt_wait.%u.worst.0.causes.0.ns", n);
                if (what && report_lookup(r, key, &ns)) {
                        g_snprintf(key, sizeof(key), "rt_wait.%u.worst.0.latency_ns", n);
                        lat = report_lookup(r, key, &lat) ? lat : v;
                        g_autofree char *a = units_format_duration((int64_t)ns), *b = units_format_duration((int64_t)lat);

                        g_hash_table_insert(res->rt_cause, g_strdup(cls), g_strdup_printf("%s: %s of %s", what, a, b));
                } else {
                        g_hash_table_remove(res->rt_cause, cls);
                }
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
                        /* (and kernel-run's out/NAME/real/: output.c leaves it alone) */
                        gboolean compared = !strcmp(name, "plots") || !strcmp(name, REAL_POLICY) ||
                                            !strcmp(name, KERNEL_RUN_DIR);

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
                        if (r->rt_cause)
                                g_hash_table_destroy(r->rt_cause);
                        if (r->rt_task_class)
                                g_ptr_array_unref(r->rt_task_class);
                }
                g_free(prs[p].runs);
                g_free(prs[p].title);
        }
        g_free(prs);
}

/* ---- the command ---- */

/* What the command line asked for. */
struct compare_opts {
        char *policies;
        char *out;
        char *seed;
        char *format;
        char *window;
        char **sets;
        gboolean quiet;
        gboolean trace;
        char *trace_format;
        char *trace_window;
        char *real_dir;
        gint nthreads;
        gint nseeds;
};

/* One compare: the scenario and policies, the runs, what they found. */
struct compare_run {
        struct compare_opts o;
        struct scenario *sc;
        GPtrArray *names;               /* the policies, as given (cli_parse_policies()) */
        GPtrArray *overrides;           /* --set and --window, NULL-ended */
        struct sim_options opts;        /* what every run shares */
        uint64_t first_seed;
        char *out;                      /* DIR */
        char **real_runs;               /* --real: the run directories */
        GPtrArray *real_reports;        /* ... their summary.json, read once, checked */
        struct policy_runs *prs;        /* [np]: each policy's runs, then the real ones */
        int np;
        struct compare_job *jobs;       /* [njobs]: policy by policy, seed by seed */
        int njobs;
};

static void compare_run_clear(struct compare_run *c)
{
        struct compare_opts *o = &c->o;

        if (c->jobs)
                compare_jobs_free(c->jobs, (guint)c->njobs);
        if (c->prs)
                results_free(c->prs, c->np);
        g_strfreev(c->real_runs);
        g_clear_pointer(&c->real_reports, g_ptr_array_unref);
        g_clear_pointer(&c->names, g_ptr_array_unref);
        g_clear_pointer(&c->overrides, g_ptr_array_unref);
        g_clear_pointer(&c->sc, scenario_free);
        g_free(c->out);
        g_free(o->policies);
        g_free(o->out);
        g_free(o->seed);
        g_free(o->format);
        g_free(o->window);
        g_strfreev(o->sets);
        g_free(o->trace_format);
        g_free(o->trace_window);
        g_free(o->real_dir);
}

static GOptionContext *options_context(struct compare_opts *o)
{
        const GOptionEntry entries[] = {
                { "policies", 'p', 0, G_OPTION_ARG_STRING, &o->policies,
                  "Comma-separated policies to compare (default: all)", "A,B,..." },
                { "out", 'o', 0, G_OPTION_ARG_FILENAME, &o->out, "Output directory (default: out/SCENARIO)", "DIR" },
                { "seeds", 'n', 0, G_OPTION_ARG_INT, &o->nseeds,
                  "Runs per policy, seeds S..S+N-1, paired across policies (default: 10)", "N" },
                { "seed", 's', 0, G_OPTION_ARG_STRING, &o->seed,
                  "The first seed S (default: the scenario's seed, 1 unless it says)", "S" },
                { "format", 'f', 0, G_OPTION_ARG_STRING, &o->format, "Plot format: png (default), svg or pdf", "FMT" },
                { "window", 'w', 0, G_OPTION_ARG_STRING, &o->window,
                  "Timeline window, e.g. 990ms,60ms (default: [output] timeline_start/_length)", "START,LENGTH" },
                { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->sets, "Override a scenario key (repeatable)",
                  "SECTION.KEY=VALUE" },
                { "jobs", 'j', 0, G_OPTION_ARG_INT, &o->nthreads, "Runs in parallel (default: one per CPU)", "J" },
                { "trace", 't', 0, G_OPTION_ARG_NONE, &o->trace,
                  "Also write DIR/POLICY/seed-S/trace.json for the first seed (Chrome trace events, for Perfetto)",
                  NULL },
                { "trace-format", 0, 0, G_OPTION_ARG_STRING, &o->trace_format,
                  "json (default), ftrace (trace.txt, kernel tracepoint lines) or dat "
                  "(trace.dat, for trace-cmd report and KernelShark)", "FORMAT" },
                { "trace-window", 0, 0, G_OPTION_ARG_STRING, &o->trace_window,
                  "Trace only this window, e.g. 990ms,60ms (default: the timeline window; 'all' for the whole run)",
                  "START,LENGTH" },
                { "real", 0, 0, G_OPTION_ARG_FILENAME, &o->real_dir,
                  "Also set DIR's runs of the scenario on a real kernel beside the simulated ones "
                  "(scripts/kernel-run --out DIR; a row and curve of their own, not paired by seed)", "DIR" },
                { "quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, "Print nothing but errors", NULL },
                { NULL },
        };
        GOptionContext *ctx = g_option_context_new("[SCENARIO] - run a scenario under several policies over "
                                                   "several seeds, and plot them");

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
        return ctx;
}

/* The options' values, and the overrides they make; -1 when they are
 * good, else the exit status (said). */
static int options_checked(GOptionContext *ctx, struct compare_run *c, int argc)
{
        const struct compare_opts *o = &c->o;

        if (argc > 2)
                return cli_usage_error(ctx, "compare: one scenario at a time");
        if (o->nthreads < 1 || o->nthreads > 1024)
                return cli_usage_error(ctx, "--jobs: expected 1 to 1024");
        if (o->nseeds < 1 || o->nseeds > COMPARE_MAX_SEEDS)
                return cli_usage_error(ctx, "--seeds: expected 1 to %d", COMPARE_MAX_SEEDS);
        if (o->format && strcmp(o->format, "png") && strcmp(o->format, "svg") && strcmp(o->format, "pdf"))
                return cli_usage_error(ctx, "--format: '%s' is not png, svg or pdf", o->format);
        if (o->seed && !cli_parse_seed(o->seed, &c->opts.seed))
                return cli_usage_error(ctx, "--seed: '%s' is not a whole number from 0 to 2^63-1", o->seed);
        if (!cli_trace_format(o->trace_format, NULL, &c->opts.trace_format))
                return cli_usage_error(ctx, "--trace-format: '%s' is not json, ftrace or dat", o->trace_format);
        if (o->trace_format && !o->trace)
                return cli_usage_error(ctx, "--trace-format needs --trace");
        if (o->trace_window && !o->trace)
                return cli_usage_error(ctx, "--trace-window needs --trace");
        if (o->trace_window && strcmp(o->trace_window, "all") != 0 &&
            !cli_parse_window(o->trace_window, &c->opts.trace_start_ns, &c->opts.trace_length_ns))
                return cli_usage_error(ctx, "--trace-window: expected START,LENGTH with units, e.g. 990ms,60ms, or all");
        for (char **s = o->sets; s && *s; s++)
                g_ptr_array_add(c->overrides, g_strdup(*s));
        if (o->window) {
                int64_t start, length;

                if (!cli_parse_window(o->window, &start, &length))
                        return cli_usage_error(ctx, "--window: expected START,LENGTH with units, e.g. 990ms,60ms");
                g_ptr_array_add(c->overrides, g_strdup_printf("output.timeline_start=%" G_GINT64_FORMAT "ns",
                                                              (gint64)start));
                g_ptr_array_add(c->overrides, g_strdup_printf("output.timeline_length=%" G_GINT64_FORMAT "ns",
                                                              (gint64)length));
        }
        g_ptr_array_add(c->overrides, NULL);
        return -1;
}

/* The policies (modules first: the scenario's [policy:NAME] and keys may
 * be theirs), the scenario, the first seed, DIR and the trace's window;
 * -1, or the exit status (said). */
static int scenario_read(GOptionContext *ctx, struct compare_run *c, int argc, char **argv)
{
        const struct compare_opts *o = &c->o;
        int status = EXIT_OK;
        GError *e = NULL;

        if (!cli_parse_policies(ctx, o->policies, c->names, &status))
                return status;
        c->sc = argc == 2 ? scenario_load(argv[1], (const char *const *)c->overrides->pdata, &e)
                          : scenario_load_data(cli_default_scenario(), "default.scn",
                                               (const char *const *)c->overrides->pdata, &e);
        if (!c->sc) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                return EXIT_USAGE;
        }
        c->first_seed = o->seed ? c->opts.seed : c->sc->seed;
        if (c->first_seed > G_MAXINT64 - (uint64_t)o->nseeds)
                return cli_usage_error(ctx, "--seed: %" G_GUINT64_FORMAT " + %d seeds passes 2^63-1", c->first_seed,
                                       o->nseeds);
        c->opts.seed_set = TRUE;
        if (o->out) {
                c->out = g_strdup(o->out);
        } else {
                GError *bad = NULL;

                if (!output_name_check(c->sc->name, "the scenario's name", &bad)) {
                        status = cli_usage_error(ctx, "%s: %s (give --out DIR)", c->sc->path, bad->message);
                        g_error_free(bad);
                        return status;
                }
                c->out = g_build_filename("out", c->sc->name, NULL);
        }
        /* A trace per policy of a whole big run is hundreds of MB: by default
         * the window the timeline plots show (bench-large: about 2 MB). */
        if (o->trace && !o->trace_window) {
                c->opts.trace_start_ns = c->sc->timeline_start_ns;
                c->opts.trace_length_ns = c->sc->timeline_length_ns;
        }
        if (o->trace)
                cli_warn_trace_window(c->sc, c->opts.trace_start_ns, c->opts.trace_length_ns);
        return -1;
}

/* Every policy must be able to run it before any output is made; when some
 * can, say which, as the --policies that would run. */
static int policies_checked(const struct compare_run *c)
{
        g_autoptr(GString) can = g_string_new(NULL);
        g_autofree char *first = NULL;
        GError *e = NULL;

        for (guint p = 0; p < c->names->len; p++) {
                if (sim_check(c->sc, c->names->pdata[p], &e)) {
                        g_string_append_printf(can, "%s%s", can->len ? "," : "", (char *)c->names->pdata[p]);
                } else {
                        if (!first)
                                first = g_strdup(e->message);
                        g_clear_error(&e);
                }
        }
        if (!first)
                return -1;
        fprintf(stderr, "rcuboost: %s\n", first);
        if (can->len)
                fprintf(stderr, "rcuboost: the policies that can run it: --policies %s\n", can->str);
        return EXIT_USAGE;
}

/* --real: every run readable, and of this scenario, before any output is
 * made; -1, or the exit status (said). */
static int real_runs_read(struct compare_run *c)
{
        g_autoptr(GString) given_sets = g_string_new(NULL);
        GError *e = NULL;

        for (char **s = c->o.sets; s && *s; s++)
                g_string_append_printf(given_sets, "%s--set %s", given_sets->len ? " " : "", *s);
        c->real_runs = real_run_dirs(c->o.real_dir, &e);
        for (char **d = c->real_runs; d && *d; d++) {
                g_autofree char *path = g_build_filename(*d, "summary.json", NULL);
                struct report *r = real_summary_load(path, &e);
                const char *of = r ? report_lookup_string(r, "scenario") : NULL;
                const char *sha = r ? report_lookup_string(r, "scenario_sha256") : NULL;
                const char *ran_sets = r ? report_lookup_string(r, "set_args") : NULL;

                /* an imported scenario stands for the one whose run it was imported from */
                gboolean imported = c->sc->imported_from && g_strcmp0(of, c->sc->imported_from) == 0;

                if (r && g_strcmp0(of, c->sc->name) != 0 && !imported)
                        g_set_error(&e, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                                    "%s: a run of scenario '%s', not '%s'%s%s", path, of ? of : "?", c->sc->name,
                                    c->sc->imported_from ? " nor the one it was imported from, " : "",
                                    c->sc->imported_from ? c->sc->imported_from : "");
                /* the same file and the same --set, or another experiment (runs
                 * recorded before kernel-run said so are taken as they are) */
                else if (r && sha && *sha && strcmp(sha, imported ? c->sc->imported_from_sha256 : c->sc->sha256) != 0)
                        g_set_error(&e, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                                    imported ? "%s: a run of another version of %s than the one imported from "
                                               "(its sha256 differs from [scenario] imported_from's)"
                                             : "%s: a run of another version of %s (its sha256 differs): run "
                                               "scripts/kernel-run on this one",
                                    path, imported ? c->sc->imported_from : c->sc->path);
                else if (r && ran_sets && strcmp(ran_sets, given_sets->str) != 0)
                        g_set_error(&e, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                                    "%s: run with '%s', compared with '%s': the same --set on both", path,
                                    ran_sets, given_sets->str);
                if (r)
                        g_ptr_array_add(c->real_reports, r);
                if (e)
                        break;
        }
        if (!e)
                return -1;
        fprintf(stderr, "rcuboost: --real: %s\n", e->message);
        g_error_free(e);
        return EXIT_USAGE;
}

/* A job per policy and seed, each policy's first run made now, so that a
 * policy that cannot start says so before any run; -1, or the exit status
 * (said). */
static int jobs_made(struct compare_run *c)
{
        int nseeds = c->o.nseeds;
        GError *e = NULL;

        c->np = (int)c->names->len;
        c->njobs = c->np * nseeds;
        c->prs = g_new0(struct policy_runs, c->np);
        c->jobs = g_new0(struct compare_job, c->njobs);
        for (int p = 0; p < c->np; p++) {
                c->prs[p].policy = c->names->pdata[p];
                c->prs[p].n = nseeds;
                c->prs[p].runs = g_new0(struct result, nseeds);
                for (int i = 0; i < nseeds; i++) {
                        struct compare_job *job = &c->jobs[p * nseeds + i];
                        struct result *r = &c->prs[p].runs[i];
                        g_autofree char *sub = g_strdup_printf("seed-%" G_GUINT64_FORMAT, c->first_seed + (uint64_t)i);

                        r->policy = c->names->pdata[p];
                        r->seed = c->first_seed + (uint64_t)i;
                        r->rundir = g_build_filename(c->out, r->policy, sub, NULL);
                        job->res = r;
                        job->sc = c->sc;
                        job->opts = c->opts;
                        job->opts.policy = r->policy;
                        job->opts.seed = r->seed;
                        job->opts.out_dir = r->rundir;
                        job->opts.out_kind = RUN_DIR_KIND;
                        job->opts.interrupt = cli_interrupt_flag();
                        /* the first seed's run is the one drawn and traced */
                        if (c->o.trace && i == 0) {
                                job->tracefile = g_build_filename(r->rundir,
                                                                  cli_trace_file_name(c->opts.trace_format), NULL);
                                job->opts.trace = job->tracefile;
                        } else {
                                job->opts.trace = NULL;
                        }
                        if (i > 0)
                                continue;
                        job->sim = sim_new(c->sc, &job->opts, &e);
                        if (!job->sim) {
                                int status = cli_error_status(e);

                                fprintf(stderr, "rcuboost: %s\n", e->message);
                                g_error_free(e);
                                return status;
                        }
                }
        }
        return -1;
}

/* The warnings of each policy's first run, and what is about to run. */
static void runs_announced(const struct compare_run *c)
{
        int nseeds = c->o.nseeds;
        g_autofree struct sim **firsts = g_new(struct sim *, c->np);
        g_autoptr(GPtrArray) names = g_ptr_array_copy(c->names, NULL, NULL);
        g_autofree char *list = NULL;

        for (int p = 0; p < c->np; p++) {
                cli_print_warnings(p == 0 ? c->sc : NULL, c->jobs[p * nseeds].sim);
                firsts[p] = c->jobs[p * nseeds].sim;
        }
        cli_warn_unused_rcu_keys(c->sc, firsts, c->np, NULL);
        cli_warn_if_long(c->jobs[0].sim);
        g_ptr_array_add(names, NULL);
        list = g_strjoinv(", ", (char **)names->pdata);
        fprintf(stderr, "rcuboost: running %s with %s, seeds %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT
                " (%d runs, %d at a time)...\n", c->sc->name, list, c->first_seed,
                c->first_seed + (uint64_t)nseeds - 1, c->njobs, MIN(c->o.nthreads, c->njobs));
}

/* Each run has its own struct sim: they run side by side, and a terminal
 * sees one line of how far each policy's runs got, together. */
static void jobs_run(struct compare_run *c)
{
        int nseeds = c->o.nseeds;
        GThreadPool *pool = g_thread_pool_new(compare_job_run, NULL, c->o.nthreads, TRUE, NULL);

        for (int j = 0; j < c->njobs; j++)
                g_thread_pool_push(pool, &c->jobs[j], NULL);
        for (gboolean done = c->o.quiet || !isatty(STDERR_FILENO); !done; ) {
                GString *line = g_string_new("\r");

                done = TRUE;
                for (int p = 0; p < c->np; p++) {
                        gint pm = 0;

                        for (int i = 0; i < nseeds; i++)
                                pm += g_atomic_int_get(&c->jobs[p * nseeds + i].permille);
                        done &= pm >= 1000 * nseeds;
                        g_string_append_printf(line, "%s %3d%%  ", c->prs[p].policy, pm / 10 / nseeds);
                }
                fputs(line->str, stderr);
                g_string_free(line, TRUE);
                if (done)
                        fputs("\r\033[K", stderr);
                else
                        g_usleep(200000);
        }
        g_thread_pool_free(pool, FALSE, TRUE);
}

/* What the runs' failures, violations and early stops make the exit status. */
static int jobs_status(const struct compare_run *c)
{
        int status = EXIT_OK;

        for (int j = 0; j < c->njobs; j++) {
                const struct compare_job *job = &c->jobs[j];
                const struct result *r = job->res;

                if (job->error) {
                        fprintf(stderr, "rcuboost: %s, seed %" G_GUINT64_FORMAT ": %s\n", r->policy, r->seed,
                                job->error);
                        status = MAX(status, job->error_status);
                }
                if (job->unsafe && status == EXIT_OK)
                        status = EXIT_UNSAFE;
                if (!strcmp(r->status, "incomplete") && !cli_interrupt_status()) {
                        fprintf(stderr, "rcuboost: %s, seed %" G_GUINT64_FORMAT ": stopped early: its results are "
                                "incomplete\n", r->policy, r->seed);
                        if (status == EXIT_OK)
                                status = EXIT_FAILED;
                }
        }
        return status;
}

/* --real: the real runs as one more row, read from their summary.json. */
static void real_results_added(struct compare_run *c)
{
        struct policy_runs *pr;

        c->prs = g_renew(struct policy_runs, c->prs, c->np + 1);
        pr = &c->prs[c->np++];
        memset(pr, 0, sizeof(*pr));
        pr->policy = REAL_POLICY;
        pr->real = true;
        pr->n = (int)g_strv_length(c->real_runs);
        pr->runs = g_new0(struct result, pr->n);
        for (int i = 0; i < pr->n; i++) {
                struct result *r = &pr->runs[i];
                const struct report *rep = c->real_reports->pdata[i];
                double v;

                r->policy = REAL_POLICY;
                r->seed = (uint64_t)(report_lookup(rep, "run", &v) ? v : i + 1);
                r->rundir = g_strdup(c->real_runs[i]);
                r->status = report_lookup(rep, "complete", &v) && v ? "ok" : "incomplete";
                r->has_pace = report_lookup(rep, "pace_pct", &r->pace_pct);
                read_result(r, rep);
                /* the environment as booted, marked real */
                g_free(r->environment);
                r->environment = g_strdup_printf("%s, %s (real: %s)", r->flavour ? r->flavour : "tree",
                                                 report_lookup_string(rep, "kernel.generation"),
                                                 report_lookup_string(rep, "kernel.release"));
        }
}

/* The tables, on disk and on stdout; FALSE (said) when they cannot be written. */
static gboolean tables_written(struct compare_run *c)
{
        GError *e = NULL;

        for (int p = 0; p < c->np; p++) {
                for (int i = 0; i < c->prs[p].n; i++)  /* read from the files, and only beside a real kernel */
                        c->prs[p].runs[i].boost_from_gp_ns = c->real_runs ? run_boost_from_gp(c->prs[p].runs[i].rundir)
                                                                          : NAN;
                compare_summarise(&c->prs[p]);
        }
        if (!compare_write_tables(c->out, c->prs, c->np, c->sc->stall_threshold_ns, &e) ||
            !compare_write_events(c->out, c->prs, c->np, &e)) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                return FALSE;
        }
        compare_warn_stall_unknown(c->prs, c->np, c->sc->stall_threshold_ns);
        compare_warn_slow_guest(c->prs, c->np);
        if (!c->o.quiet)
                compare_print_table(c->prs, c->np, c->sc->stall_threshold_ns);
        return TRUE;
}

/* The plots, with gnuplot when there is one; the exit status @status
 * becomes. */
static int plots_drawn(const struct compare_run *c, int status)
{
        g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
        struct plotter pl = {
                .dir = c->out, .format = c->o.format ? c->o.format : "png", .scenario = c->sc->name,
                .progress = !c->o.quiet && isatty(STDERR_FILENO),
        };

        if (!gnuplot) {
                fprintf(stderr, "rcuboost: gnuplot not found: no plots drawn (install it, e.g. apt-get "
                        "install gnuplot-nox); the numbers are in %s/comparison.tsv\n", c->out);
                return status;
        }
        compare_draw_all(&pl, c->prs, c->np, c->sc->memory_limit_bytes);
        if (pl.progress)
                fputs("\r\033[K", stderr);
        if (cli_interrupt_status()) {
                fprintf(stderr, "rcuboost: interrupted while plotting: %d plots drawn, %d not (the runs "
                        "and tables are whole)\n", pl.drawn, pl.skipped + pl.failed);
                return cli_interrupt_status();
        }
        if (pl.failed && status == EXIT_OK)
                status = EXIT_FAILED;
        if (!c->o.quiet)
                printf("\n%d plots in %s/ (templates in %s/plots/); tables in %s/comparison.md\n",
                       pl.drawn, c->out, c->out, c->out);
        return status;
}

/* Read the options and the scenario, check every policy and --real run,
 * claim DIR, run the jobs, then write the tables and draw the plots. */
int cli_compare(int argc, char **argv)
{
        struct compare_run c = {
                .o = { .nthreads = (gint)MIN(g_get_num_processors(), 64), .nseeds = COMPARE_DEFAULT_SEEDS },
                .overrides = g_ptr_array_new_with_free_func(g_free),
                .names = g_ptr_array_new(),
                .real_reports = g_ptr_array_new_with_free_func((GDestroyNotify)report_free),
        };
        g_autoptr(GOptionContext) ctx = options_context(&c.o);
        int status = EXIT_OK;
        GError *e = NULL;

        if (!cli_parse_options(ctx, &argc, &argv, &status) || (status = options_checked(ctx, &c, argc)) >= 0 ||
            (status = scenario_read(ctx, &c, argc, argv)) >= 0 || (status = policies_checked(&c)) >= 0 ||
            (c.o.real_dir && (status = real_runs_read(&c)) >= 0))
                goto out;
        /* Held until the process ends: one compare at a time in DIR. */
        if (prepare_out(c.out, c.names, c.first_seed, c.o.nseeds, c.o.real_dir != NULL, &e) < 0) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                status = cli_error_status(e);
                g_error_free(e);
                goto out;
        }
        if ((status = jobs_made(&c)) >= 0)
                goto out;
        if (!c.o.quiet)
                runs_announced(&c);
        jobs_run(&c);
        status = jobs_status(&c);
        compare_jobs_free(c.jobs, (guint)c.njobs);
        c.jobs = NULL;
        if (cli_interrupt_status()) {
                fprintf(stderr, "rcuboost: interrupted: no comparison written; a run it stopped is marked "
                        "\"complete\": false\n");
                status = cli_interrupt_status();
                goto out;
        }
        if (c.real_runs)
                real_results_added(&c);
        status = tables_written(&c) ? plots_drawn(&c, status) : EXIT_FAILED;
out:
        compare_run_clear(&c);
        return status;
}
