/* check.c - `rcuboost check`: run scenarios and test their [expect] lines. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "policies/policy.h"
#include "sim/scenario/expect.h"
#include "sim/output/output.h"
#include "sim/rcu/rcu.h"
#include "sim/output/report.h"
#include "sim/scenario/scenario.h"
#include "sim/sim.h"
#include "sim/scenario/units.h"
#include "sim/output/verdict.h"

struct check_run {
        gboolean tap;
        gboolean quiet;         /* failures and the count only */
        const char *out;
        GHashTable *out_names;  /* --out: scenario name -> its file, so two never share OUT/NAME */
        GPtrArray *policies;    /* the policies to run: the built-ins, or --policies (modules too) */
        int passed;
        int failed;
        int skipped;
        int max_seeds;          /* --seeds: at most this many of a file's seeds (0: all) */
};

/* One line of the report, kept until its turn to be printed: the runs go
 * in parallel, the lines come out in the order of the files, policies and
 * [expect] lines, numbered as they are printed. */
struct check_entry {
        enum { CHECK_PASS, CHECK_FAIL, CHECK_SKIP } kind;
        char *msg;
        char *why;              /* CHECK_SKIP */
};

/* A scenario under one policy: a job for the pool, and its lines. */
struct check_job {
        const struct check_run *cr;
        const struct scenario *sc;
        const char *policy;     /* NULL: only the lines it was made with */
        GArray *entries;        /* struct check_entry */
        GPtrArray *warnings;    /* char *: its first run's, said on stderr in the report's order */
};

static void check_add(struct check_job *job, int kind, char *why, const char *fmt, va_list ap) G_GNUC_PRINTF(4, 0);

static void check_add(struct check_job *job, int kind, char *why, const char *fmt, va_list ap)
{
        struct check_entry e = { .kind = kind, .msg = g_strdup_vprintf(fmt, ap), .why = why };

        g_array_append_val(job->entries, e);
}

static void check_result(struct check_job *job, gboolean ok, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static void check_result(struct check_job *job, gboolean ok, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        check_add(job, ok ? CHECK_PASS : CHECK_FAIL, NULL, fmt, ap);
        va_end(ap);
}

/* A line not tested this time, with why. */
static void check_skip(struct check_job *job, const char *why, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static void check_skip(struct check_job *job, const char *why, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        check_add(job, CHECK_SKIP, g_strdup(why), fmt, ap);
        va_end(ap);
}

/* Print @job's lines, numbered on from @cr's count. */
/* A TAP description is one line, and a '#' in it starts a directive
 * ("# TODO" would turn a failure into a pass): escaped as TAP 13 says
 * (\\#, \\\\), line breaks shown as \\n. */
static char *tap_escape(const char *s)
{
        GString *out = g_string_new(NULL);

        for (; s && *s; s++) {
                if (*s == '#' || *s == '\\')
                        g_string_append_c(out, '\\');
                if (*s == '\n' || *s == '\r')
                        g_string_append(out, *s == '\n' ? "\\n" : "\\r");
                else
                        g_string_append_c(out, *s);
        }
        return g_string_free(out, FALSE);
}

static void check_emit(struct check_run *cr, struct check_job *job)
{
        for (guint i = 0; i < job->warnings->len; i++)
                fprintf(stderr, "rcuboost: warning: %s: %s: %s\n", job->sc->path, job->policy,
                        (const char *)job->warnings->pdata[i]);
        g_ptr_array_unref(job->warnings);
        for (guint i = 0; i < job->entries->len; i++) {
                struct check_entry *e = &g_array_index(job->entries, struct check_entry, i);
                int n;

                if (e->kind == CHECK_PASS)
                        cr->passed++;
                else if (e->kind == CHECK_FAIL)
                        cr->failed++;
                else
                        cr->skipped++;
                n = cr->passed + cr->failed + cr->skipped;
                if (cr->tap && e->kind == CHECK_SKIP) {
                        g_autofree char *msg = tap_escape(e->msg), *why = tap_escape(e->why);

                        printf("ok %d - %s # SKIP %s\n", n, msg, why);
                } else if (cr->tap) {
                        g_autofree char *msg = tap_escape(e->msg);

                        printf("%s %d - %s\n", e->kind == CHECK_PASS ? "ok" : "not ok", n, msg);
                }
                else if (e->kind == CHECK_SKIP && !cr->quiet)
                        printf("skip %s (%s)\n", e->msg, e->why);
                else if (e->kind == CHECK_FAIL || (e->kind == CHECK_PASS && !cr->quiet))
                        printf("%s %s\n", e->kind == CHECK_PASS ? "ok  " : "FAIL", e->msg);
                g_free(e->msg);
                g_free(e->why);
        }
        g_array_free(job->entries, TRUE);
}

static struct check_job *check_job_new(const struct check_run *cr, const struct scenario *sc, const char *policy)
{
        struct check_job *job = g_new0(struct check_job, 1);

        job->cr = cr;
        job->sc = sc;
        job->policy = policy;
        job->entries = g_array_new(FALSE, FALSE, sizeof(struct check_entry));
        job->warnings = g_ptr_array_new_with_free_func(g_free);
        return job;
}

static char *format_metric(const char *key, double v)
{
        if (g_str_has_suffix(key, "_ns"))
                return units_format_duration((int64_t)v);
        if (g_str_has_suffix(key, "_bytes"))
                return units_format_size((int64_t)v);
        if (!strcmp(key, "memory.oom") || !strcmp(key, "complete"))
                return g_strdup(v ? "true" : "false");
        return g_strdup_printf("%.15g", v);
}

/* The RCU flavour @policy runs @sc on, for expect_applies_to(). */
static const char *flavour_of(const struct scenario *sc, const char *policy)
{
        const struct boost_policy_ops *ops = policy_find(policy);

        return ops ? rcu_flavour_name(sc, ops) : NULL;
}

/* Does an [expect] line of @sc name @policy (or `*`)? */
static gboolean wanted(const struct scenario *sc, const char *policy)
{
        for (guint i = 0; i < sc->expectations->len; i++)
                if (expect_applies_to(g_ptr_array_index(sc->expectations, i), policy, flavour_of(sc, policy)))
                        return TRUE;
        return FALSE;
}

/* One assertion on a metric over a policy's runs: it holds only if it holds
 * in every run; the line printed shows the run that came closest to failing
 * it (the largest value for <=, the smallest for >=). */
struct held {
        GPtrArray *failures;    /* the messages, one per failing run, in seed order */
        GString *seeds;         /* the failing runs' seeds, "2, 4" */
        bool shown;             /* a value to show */
        double worst;
        gboolean worst_at_least;
        char *key;              /* the summary key (expect_resolve()'s buffer is reused) */
};

static bool closer_to_failing(const struct expectation *x, double v, double worst)
{
        return (x->op == EXPECT_LE || x->op == EXPECT_LT) ? v > worst
               : (x->op == EXPECT_GE || x->op == EXPECT_GT) ? v < worst : false;
}

/* " in seed 3", or "" when the scenario runs one seed */
static char *seed_note(int nseeds, uint64_t seed)
{
        return nseeds > 1 ? g_strdup_printf(" in seed %" G_GUINT64_FORMAT, seed) : g_strdup("");
}

/* Run the job's policy over the scenario's [expect] seeds and test its lines. */
static void check_policy(struct check_job *job)
{
        const struct check_run *cr = job->cr;
        const struct scenario *sc = job->sc;
        const char *policy = job->policy;
        int n = cr->max_seeds ? MIN(sc->expect_seeds, cr->max_seeds) : sc->expect_seeds, runs = 0;
        int counts[VERDICT_OUTCOMES] = { 0 };
        g_autofree struct held *held = g_new0(struct held, sc->expectations->len);

        for (guint k = 0; k < sc->expectations->len; k++) {
                held[k].failures = g_ptr_array_new_with_free_func(g_free);
                held[k].seeds = g_string_new(NULL);
        }

        for (int i = 0; i < n; i++) {
                uint64_t seed = sc->seed + (uint64_t)i;
                g_autofree char *sub = g_strdup_printf("seed-%" G_GUINT64_FORMAT, seed);
                g_autofree char *out = cr->out ? n > 1 ? g_build_filename(cr->out, sc->name, policy, sub, NULL)
                                                       : g_build_filename(cr->out, sc->name, policy, NULL)
                                               : NULL;
                struct sim_options opts = { .policy = policy, .out_dir = out, .seed = seed, .seed_set = true };
                g_autofree char *in_seed = seed_note(n, seed);
                GError *e = NULL;
                g_autoptr(RcbSim) sim = sim_new(sc, &opts, &e);
                bool outcome[VERDICT_OUTCOMES];

                if (!sim) {
                        check_result(job, FALSE, "%s: %s%s: the run could not start: %s", sc->path, policy, in_seed,
                                     e->message);
                        g_error_free(e);
                        for (guint k = 0; k < sc->expectations->len; k++) {
                                g_ptr_array_unref(held[k].failures);
                                g_string_free(held[k].seeds, TRUE);
                                g_free(held[k].key);
                        }
                        return;
                }
                /* what the policy's runs need to be told (a 2007 policy on Tree RCU), once */
                for (guint w = 0; i == 0 && w < sim_warnings(sim)->len; w++)
                        g_ptr_array_add(job->warnings, g_strdup(g_ptr_array_index(sim_warnings(sim), w)));
                sim_run(sim);
                if (!sim_finish(sim, &e)) {
                        check_result(job, FALSE, "%s: %s%s: the run failed: %s", sc->path, policy, in_seed, e->message);
                        g_clear_error(&e);
                        continue;
                }
                runs++;
                verdict_outcomes(sim_report(sim), outcome);
                for (int o = 0; o < VERDICT_OUTCOMES; o++)
                        counts[o] += outcome[o];
                for (guint k = 0; k < sc->expectations->len; k++) {
                        const struct expectation *x = g_ptr_array_index(sc->expectations, k);
                        struct held *h = &held[k];
                        double actual = 0;
                        gboolean at_least;
                        const char *key;

                        if (x->rate >= 0 || !expect_applies_to(x, policy, flavour_of(sc, policy)))
                                continue;
                        switch (expect_eval(x, sim_report(sim), &actual, &at_least, &key)) {
                        case EXPECT_NO_METRIC:  /* refused by sim_new(); a summary key went away */
                                g_string_append_printf(h->seeds, "%s%" G_GUINT64_FORMAT, h->seeds->len ? ", " : "", seed);
                                g_ptr_array_add(h->failures, g_strdup_printf("%s: %s: no metric '%s' in summary.json "
                                                "(docs/outputs.md lists them)", x->where, policy, x->metric));
                                continue;
                        case EXPECT_NO_VALUE:
                                g_string_append_printf(h->seeds, "%s%" G_GUINT64_FORMAT, h->seeds->len ? ", " : "", seed);
                                g_ptr_array_add(h->failures, g_strdup_printf("%s %s: %s %s %s (no value: nothing was "
                                                "measured in this run%s) at %s", sc->name, policy, key,
                                                expect_op_name(x->op), x->value_text, in_seed, x->where));
                                continue;
                        case EXPECT_PASS:
                                if (!h->shown || closer_to_failing(x, actual, h->worst)) {
                                        h->worst = actual;
                                        h->worst_at_least = at_least;
                                }
                                h->shown = true;
                                if (!h->key)
                                        h->key = g_strdup(key);
                                continue;
                        case EXPECT_FAIL:
                                break;
                        }
                        g_autofree char *shown = format_metric(key, actual);

                        /* every failing run is named: its seed replays it */
                        g_string_append_printf(h->seeds, "%s%" G_GUINT64_FORMAT, h->seeds->len ? ", " : "", seed);
                        g_ptr_array_add(h->failures, g_strdup_printf("%s %s: %s %s %s (actual %s%s%s%s) at %s",
                                        sc->name, policy, key, expect_op_name(x->op), x->value_text,
                                        at_least ? ">= " : "", shown, at_least ? ", still pending at the end" : "",
                                        in_seed, x->where));
                }
        }
        for (guint k = 0; k < sc->expectations->len; k++) {
                const struct expectation *x = g_ptr_array_index(sc->expectations, k);
                struct held *h = &held[k];

                /* one assertion, one result: the first failing run, then every
                 * failing seed (each replays with run --seed) */
                if (h->failures->len == 1)
                        check_result(job, FALSE, "%s", (char *)h->failures->pdata[0]);
                else if (h->failures->len > 1)
                        check_result(job, FALSE, "%s; fails in %u of %d runs (seeds %s)",
                                     (char *)h->failures->pdata[0], h->failures->len, n, h->seeds->str);
                g_string_free(h->seeds, TRUE);
                if (!expect_applies_to(x, policy, flavour_of(sc, policy)) || h->failures->len) {
                        g_ptr_array_unref(h->failures);
                        g_free(h->key);
                        continue;
                }
                g_ptr_array_unref(h->failures);
                if (x->rate >= 0 && n < sc->expect_seeds) {
                        g_autofree char *why = g_strdup_printf("--seeds %d: a rate over %d of the %d seeds it is "
                                                               "written for", n, n, sc->expect_seeds);

                        check_skip(job, why, "%s %s: %s %s %s", sc->name, policy, x->metric, expect_op_name(x->op),
                                   x->value_text);
                        continue;
                }
                if (x->rate >= 0) {
                        int hits = counts[x->rate];
                        bool ok = runs > 0 && expect_eval_rate(x, hits, runs) == EXPECT_PASS;
                        double lo = 0, hi = 1;

                        if (runs)
                                verdict_wilson(hits, runs, &lo, &hi);
                        check_result(job, ok, "%s %s: %s %s %s (actual %d of %d run%s; 95%% Wilson interval "
                                     "%.0f-%.0f%%)%s%s", sc->name, policy, x->metric, expect_op_name(x->op),
                                     x->value_text, hits, runs, runs == 1 ? "" : "s", 100 * lo, 100 * hi,
                                     ok ? "" : " at ", ok ? "" : x->where);
                        continue;
                }
                if (!h->shown) {
                        g_free(h->key);
                        continue;
                }
                g_autofree char *shown = format_metric(h->key, h->worst);

                g_autofree char *of = n == 1 ? g_strdup("")
                                      : g_strdup_printf(x->op == EXPECT_EQ || x->op == EXPECT_NE ? " in all %d runs"
                                                                                                : ", the closest of %d runs", n);

                check_result(job, TRUE, "%s %s: %s %s %s (actual %s%s%s)", sc->name, policy, h->key,
                             expect_op_name(x->op), x->value_text, h->worst_at_least ? ">= " : "", shown, of);
                g_free(h->key);
        }
}

static void check_job_run(gpointer data, gpointer user)
{
        (void)user;
        check_policy(data);
}

/* Add a job to @jobs for each policy @path's [expect] lines name (@scenarios
 * keeps the scenario); FALSE on a load error. */
static gboolean check_file(const struct check_run *cr, const char *path, GPtrArray *jobs, GPtrArray *scenarios)
{
        GError *e = NULL;
        struct scenario *sc = scenario_load(path, NULL, &e);

        if (!sc) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                return FALSE;
        }
        if (cr->out) {
                const char *other = g_hash_table_lookup(cr->out_names, sc->name);

                if (!output_name_check(sc->name, "the scenario's name", &e)) {
                        fprintf(stderr, "rcuboost: %s: %s\n", path, e->message);
                        g_error_free(e);
                        scenario_free(sc);
                        return FALSE;
                }
                if (other) {
                        fprintf(stderr, "rcuboost: %s and %s would both write %s/%s/: check them with separate "
                                "--out\n", other, path, cr->out, sc->name);
                        scenario_free(sc);
                        return FALSE;
                }
                g_hash_table_insert(cr->out_names, g_strdup(sc->name), g_strdup(path));
        }
        g_ptr_array_add(scenarios, sc);
        if (sc->expectations->len == 0) {
                struct check_job *job = check_job_new(cr, sc, NULL);

                check_result(job, FALSE, "%s: no [expect] section, nothing to check", path);
                g_ptr_array_add(jobs, job);
                return TRUE;
        }
        /* Every policy it will run must be able to run it, before any does. */
        for (guint p = 0; p < cr->policies->len; p++) {
                if (wanted(sc, cr->policies->pdata[p]) && !sim_check(sc, cr->policies->pdata[p], &e)) {
                        fprintf(stderr, "rcuboost: %s\n", e->message);
                        g_error_free(e);
                        return FALSE;
                }
        }
        g_autoptr(GPtrArray) sims = g_ptr_array_new_with_free_func((GDestroyNotify)sim_free);
        struct check_job *first = NULL;

        for (guint p = 0; p < cr->policies->len; p++)
                if (wanted(sc, cr->policies->pdata[p])) {
                        struct check_job *job = check_job_new(cr, sc, cr->policies->pdata[p]);
                        struct sim *sim = sim_new(sc, &(struct sim_options){ .policy = job->policy }, NULL);

                        g_ptr_array_add(jobs, job);
                        first = first ? first : job;
                        if (sim)
                                g_ptr_array_add(sims, sim);
                }
        /* an [rcu] key none of the policies it runs reads: once, with the
         * scenario's first policy's warnings (#59) */
        if (first) {
                g_autoptr(GPtrArray) said = cli_unused_rcu_keys(sc, (struct sim *const *)sims->pdata, (int)sims->len,
                                                                NULL);

                for (guint i = 0; i < said->len; i++)
                        g_ptr_array_add(first->warnings, g_strdup(said->pdata[i]));
        }
        return TRUE;
}

static gint compare_paths(gconstpointer a, gconstpointer b)
{
        return g_strcmp0(*(char *const *)a, *(char *const *)b);
}

int cli_check(int argc, char **argv)
{
        gboolean tap = FALSE;
        g_autofree char *out = NULL;
        struct check_run cr = { 0 };
        g_autofree char *policies_opt = NULL;
        g_autoptr(GPtrArray) policies = g_ptr_array_new();
        gint nthreads = (gint)MIN(g_get_num_processors(), 64);
        g_autoptr(GPtrArray) jobs = g_ptr_array_new_with_free_func(g_free);
        g_autoptr(GPtrArray) scenarios = g_ptr_array_new_with_free_func((GDestroyNotify)scenario_free);
        const GOptionEntry entries[] = {
                { "tap", 0, 0, G_OPTION_ARG_NONE, &tap, "Print TAP (Test Anything Protocol)", NULL },
                { "quiet", 'q', 0, G_OPTION_ARG_NONE, &cr.quiet, "Print only failures and the count", NULL },
                { "seeds", 'n', 0, G_OPTION_ARG_INT, &cr.max_seeds,
                  "Run at most N of each scenario's [expect] seeds (a quicker pass: rates written for more "
                  "seeds are skipped)", "N" },
                { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out,
                  "Also write each run's outputs to DIR/SCENARIO/POLICY (/seed-S with seeds=N)", "DIR" },
                { "jobs", 'j', 0, G_OPTION_ARG_INT, &nthreads,
                  "Scenario-policy pairs run in parallel, the report in a fixed order (default: one per CPU)", "J" },
                { "policies", 'p', 0, G_OPTION_ARG_STRING, &policies_opt,
                  "Comma-separated policies to check, a module by its path (default: the built-in ones); "
                  "each runs where an [expect] line names it or '*'", "A,B" },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("FILE|DIR... - run scenarios and test their [expect] lines");
        int status = EXIT_OK;

        g_option_context_add_main_entries(ctx, entries, NULL);
        g_option_context_set_description(ctx,
                "Runs each scenario (every .scn in a directory) under every policy its [expect]\n"
                "section names -- over seeds S..S+N-1 when it says seeds=N -- and reports each\n"
                "assertion with the actual value: an assertion on a metric must hold in every run\n"
                "(a failure names its seed), OUTCOME_rate lines are rates over the runs.\n"
                "See docs/scenario-format.md, section [expect].\n\n"
                "Examples:\n  rcuboost check scenarios/\n  rcuboost check --tap scenarios/oom.scn\n\n"
                "Exit status: 0 all passed, 1 an assertion failed, 2 bad input.");
        if (!cli_parse_options(ctx, &argc, &argv, &status))
                return status;
        if (argc < 2)
                return cli_usage_error(ctx, "check: which scenario files or directories?");
        if (cr.max_seeds < 0)
                return cli_usage_error(ctx, "--seeds: expected a whole number of runs, at least 1");
        if (nthreads < 1 || nthreads > 1024)
                return cli_usage_error(ctx, "--jobs: expected 1 to 1024");
        /* modules first: the scenarios' [expect] and [policy:NAME] may name them */
        if (!cli_parse_policies(ctx, policies_opt, policies, &status))
                return status;
        cr.policies = policies;
        cr.tap = tap;
        cr.out = out;
        cr.out_names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
        if (tap)
                printf("TAP version 13\n");
        for (int i = 1; i < argc; i++) {
                if (g_file_test(argv[i], G_FILE_TEST_IS_DIR)) {
                        GError *e = NULL;
                        g_autoptr(GDir) d = g_dir_open(argv[i], 0, &e);
                        g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
                        const char *name;

                        while (d && (name = g_dir_read_name(d)))
                                if (g_str_has_suffix(name, ".scn"))
                                        g_ptr_array_add(files, g_build_filename(argv[i], name, NULL));
                        /* Nothing checked is not "all passed". */
                        if (!d || files->len == 0) {
                                fprintf(stderr, "rcuboost: %s: %s\n", argv[i],
                                        d ? "no .scn scenario files in this directory" : e->message);
                                g_clear_error(&e);
                                status = EXIT_USAGE;
                                continue;
                        }
                        g_ptr_array_sort(files, compare_paths);
                        for (guint k = 0; k < files->len; k++)
                                if (!check_file(&cr, g_ptr_array_index(files, k), jobs, scenarios))
                                        status = EXIT_USAGE;
                } else if (!check_file(&cr, argv[i], jobs, scenarios)) {
                        status = EXIT_USAGE;
                }
        }
        /* Each run has its own struct sim: the pairs run side by side. */
        GThreadPool *pool = g_thread_pool_new(check_job_run, NULL, nthreads, TRUE, NULL);

        for (guint j = 0; j < jobs->len; j++)
                if (((struct check_job *)jobs->pdata[j])->policy)
                        g_thread_pool_push(pool, jobs->pdata[j], NULL);
        g_thread_pool_free(pool, FALSE, TRUE);
        for (guint j = 0; j < jobs->len; j++)
                check_emit(&cr, jobs->pdata[j]);
        if (tap)
                printf("1..%d\n", cr.passed + cr.failed + cr.skipped);
        if (cr.skipped)
                printf("%s%d passed, %d failed, %d skipped\n", tap ? "# " : "check: ", cr.passed, cr.failed, cr.skipped);
        else
                printf("%s%d passed, %d failed\n", tap ? "# " : "check: ", cr.passed, cr.failed);
        if (status == EXIT_OK && cr.failed)
                status = EXIT_FAILED;
        g_hash_table_destroy(cr.out_names);
        return status;
}

