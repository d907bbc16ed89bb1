/* main.c - the rcuboost command line: parse options, call the engine, print.
 *
 * Exit status: see cli.h (CLI_EXIT_HELP).
 */
#include <glib.h>
#include <locale.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "policies/policy.h"
#include "sim/output/report.h"
#include "sim/scenario/scenario.h"
#include "sim/output/output.h"
#include "sim/sim.h"
#include "sim/engine/eventq.h"
#include "sim/scenario/expect.h"
#include "sim/scenario/kernel.h"
#include "sim/scenario/units.h"

#ifndef RCUBOOST_VERSION
#define RCUBOOST_VERSION "unknown"
#endif

/* ---- run ---- */

/* Run @sim to its end, drawing a progress bar on stderr (a terminal). */
static void run_with_progress(struct sim *sim)
{
        int64_t end = sim_end_time(sim), step = MAX(end / 100, NSEC_PER_MSEC);
        gint64 t0 = g_get_monotonic_time();

        for (bool more = true; more; ) {
                double frac, wall;
                char bar[31];

                more = sim_run_slice(sim, step);
                frac = (double)sim_now(sim) / (double)end;
                wall = (double)(g_get_monotonic_time() - t0) / 1e6;
                for (int i = 0; i < 30; i++)
                        bar[i] = i < (int)(frac * 30) ? '=' : ' ';
                bar[30] = '\0';
                fprintf(stderr, "\r[%s] %3.0f%%  %.2f of %.2f s simulated  %.1f M events/s  ETA %.1f s ",
                        bar, frac * 100, sim_now(sim) / 1e9, end / 1e9,
                        wall > 0 ? (double)sim_events(sim) / wall / 1e6 : 0,
                        frac > 0 ? wall * (1 - frac) / frac : 0);
        }
        sim_run(sim);
        fputs("\r\033[K", stderr);
}

static int cmd_run(int argc, char **argv)
{
        g_autofree char *policy = NULL;
        g_autofree char *out = NULL;
        g_autofree char *seed = NULL;
        g_autofree char *trace = NULL;
        g_autofree char *trace_window = NULL;
        g_autofree char *trace_format = NULL;
        g_auto(GStrv) sets = NULL;
        gboolean quiet = FALSE;
        gboolean verbose = FALSE;
        const GOptionEntry entries[] = {
                { "policy", 'p', 0, G_OPTION_ARG_STRING, &policy,
                  "Boosting policy (default: the scenario's [scenario] policy, else none)", "NAME" },
                { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out,
                  "Output directory (default: out/SCENARIO/POLICY)", "DIR" },
                { "seed", 's', 0, G_OPTION_ARG_STRING, &seed, "Random seed (overrides [scenario] seed)", "N" },
                { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
                  "Override a scenario key, e.g. --set rcu.memory_limit=64MiB (repeatable)",
                  "SECTION.KEY=VALUE" },
                { "trace", 't', 0, G_OPTION_ARG_FILENAME, &trace,
                  "Also write a trace: Chrome trace-event JSON (Perfetto), ftrace text for a FILE.txt, trace-cmd's trace.dat for a FILE.dat",
                  "FILE" },
                { "trace-format", 0, 0, G_OPTION_ARG_STRING, &trace_format,
                  "json (Chrome trace events), ftrace (kernel tracepoint lines) or dat (trace-cmd report, KernelShark); default: ftrace for a FILE ending in .txt, dat for .dat (any case), else json",
                  "FORMAT" },
                { "trace-window", 0, 0, G_OPTION_ARG_STRING, &trace_window,
                  "Trace only this window of the run, e.g. 990ms,60ms (default: all of it)", "START,LENGTH" },
                { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing but errors (and no progress bar)", NULL },
                { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose, "Also print the scenario and every output file", NULL },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("SCENARIO - run one scenario with one policy");
        int status = EXIT_OK;
        GError *e = NULL;
        struct sim_options opts = { 0 };

        g_option_context_add_main_entries(ctx, entries, NULL);
        g_option_context_set_description(ctx,
                "Writes to the output directory (docs/outputs.md): summary.json (every figure, the\n"
                "stall report), memory.csv (memory waiting on RCU over time), gp.csv (each grace\n"
                "period), boost.csv (each priority change of a reader), latency.csv (latency\n"
                "samples), distributions.csv (their histograms) and timeline.csv (what ran where, for\n"
                "compare's timeline; [output] level says which of them), and --trace's file; prints a\n"
                "one-screen summary.\n\n"
                "Examples:\n"
                "  rcuboost run scenarios/oom.scn --policy none\n"
                "  rcuboost run scenarios/quiet.scn --seed 7 --set scenario.duration=2s --out /tmp/q\n"
                "  rcuboost run scenarios/oom.scn --policy booster --trace oom.json   # open in ui.perfetto.dev\n"
                "  rcuboost run scenarios/oom.scn --policy booster --trace oom.txt    # ftrace text, ditto\n"
                "  rcuboost run scenarios/oom.scn --policy booster --trace oom.dat    # trace-cmd report oom.dat; kernelshark oom.dat\n\n"
                CLI_EXIT_HELP);
        if (!cli_parse_options(ctx, &argc, &argv, &status))
                return status;
        if (argc != 2)
                return cli_usage_error(ctx, argc < 2 ? "run: which scenario? (e.g. rcuboost run scenarios/oom.scn)"
                                                 : "run: one scenario at a time (got %d)", argc - 1);
        if (seed && !cli_parse_seed(seed, &opts.seed))
                return cli_usage_error(ctx, "--seed: '%s' is not a whole number from 0 to 2^63-1", seed);
        opts.seed_set = seed != NULL;
        if (!cli_trace_format(trace_format, trace, &opts.trace_format))
                return cli_usage_error(ctx, "--trace-format: '%s' is not json, ftrace or dat", trace_format);
        if (trace_format && !trace)
                return cli_usage_error(ctx, "--trace-format needs --trace FILE");
        if (trace_window) {
                if (!cli_parse_window(trace_window, &opts.trace_start_ns, &opts.trace_length_ns))
                        return cli_usage_error(ctx, "--trace-window: expected START,LENGTH with units, e.g. 990ms,60ms");
                if (!trace)
                        return cli_usage_error(ctx, "--trace-window needs --trace FILE");
        }

        /* a module first: the scenario's [policy:NAME] and keys may be its own */
        if (policy && policy_is_module_path(policy) && !cli_find_policy(policy, &status))
                return status;

        g_autoptr(RcbScenario) sc = scenario_load(argv[1], (const char *const *)sets, &e);

        if (!sc) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                return EXIT_USAGE;
        }
        opts.policy = policy ? policy : sc->policy;
        opts.interrupt = cli_interrupt_flag();
        {
                const struct boost_policy_ops *ops = cli_find_policy(opts.policy, &status);

                if (!ops && status)
                        return status;
                if (!ops) {
                        g_autofree char *near = cli_policy_suggest(opts.policy);

                        return cli_usage_error(ctx, "--policy: unknown policy '%s' (%s%s%sexpected one of: %s, or a "
                                               "policy module's path)", opts.policy, near ? "did you mean " : "",
                                               near ? near : "", near ? "? " : "", policy_names());
                }
                opts.policy = ops->name;        /* a module's policy by its name */
                /* one policy runs: a [policy] key it does not have would change nothing */
                g_autofree char *unused = sim_policy_key_unused(sc, ops);

                if (unused) {
                        g_autofree char *where = scenario_where(sc, "policy", unused);

                        fprintf(stderr, "rcuboost: %s: policy %s has no key '%s' (`rcuboost policies` lists each "
                                "policy's keys; [policy:NAME] keeps a key to one policy)\n", where, ops->name, unused);
                        return EXIT_USAGE;
                }
        }
        if (!out) {
                if (!output_name_check(sc->name, "the scenario's name", &e)) {
                        fprintf(stderr, "rcuboost: %s: %s (give --out DIR)\n", sc->path, e->message);
                        g_error_free(e);
                        return EXIT_USAGE;
                }
                out = g_build_filename("out", sc->name, opts.policy, NULL);
        }
        opts.out_dir = out;
        opts.trace = trace;
        if (trace)
                cli_warn_trace_window(sc, opts.trace_start_ns, opts.trace_length_ns);

        g_autoptr(RcbSim) sim = sim_new(sc, &opts, &e);

        if (!sim) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                status = cli_error_status(e);   /* 1 if an output cannot be opened */
                g_error_free(e);
                return status;
        }
        if (!quiet) {
                cli_print_warnings(sc, sim);
                cli_warn_unused_rcu_keys(sc, &sim, 1, NULL);
                cli_warn_if_long(sim);
        }
        gint64 t0 = g_get_monotonic_time();

        if (verbose && !quiet) {
                printf("scenario %s (%s): %s\n", sc->name, sc->path, sc->description ? sc->description : "");
                printf("  %d CPUs at %d Hz (kernel %s), %.3g s, %u task sections, policy %s, seed %" G_GUINT64_FORMAT
                       "\n", sc->ncpus, sim_kernel(sim)->tick_hz, sim_kernel(sim)->generation, sc->duration_ns / 1e9,
                       sc->tasks->len, opts.policy,
                       opts.seed_set ? opts.seed : sc->seed);
        }
        if (!quiet && isatty(STDERR_FILENO))
                run_with_progress(sim);
        else
                sim_run(sim);

        gint64 wall_us = MAX(1, g_get_monotonic_time() - t0);

        gboolean written = TRUE;

        if (!sim_finish(sim, &e)) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                status = cli_error_status(e);
                /* A run error (deadlock) still writes its outputs; an I/O error leaves none. */
                written = e->domain != G_FILE_ERROR;
                g_error_free(e);
        }
        if (!quiet && sim_report(sim)) {
                double events = 0;

                sim_print_summary(sim, stdout);
                report_lookup(sim_report(sim), "events", &events);
                if (written)
                        printf("  outputs in %s/ (%.2f s wall, %.2f M events/s)\n", out, wall_us / 1e6,
                               events / (double)wall_us);
                else
                        printf("  no outputs written (%.2f s wall, %.2f M events/s)\n", wall_us / 1e6,
                               events / (double)wall_us);
                if (verbose && written) {
                        static const char *const files[] = { "summary.json", "memory.csv", "gp.csv", "boost.csv",
                                                             "latency.csv", "distributions.csv", "timeline.csv" };

                        for (size_t i = 0; i < G_N_ELEMENTS(files); i++)
                                printf("    %s/%s\n", out, files[i]);
                        if (trace)
                                printf("    %s (%s)\n", trace,
                                       opts.trace_format == SIM_TRACE_FTRACE ? "ftrace text: open in ui.perfetto.dev"
                                       : opts.trace_format == SIM_TRACE_DAT ? "trace-cmd data: trace-cmd report, kernelshark"
                                                                            : "Chrome trace events: open in ui.perfetto.dev");
                }
        }
        if (cli_interrupt_status()) {
                /* the flag may have come after the run's end, as its outputs were written */
                if (!strcmp(sim_end_reason(sim), "interrupted"))
                        fprintf(stderr, "rcuboost: interrupted at %.3f s simulated; outputs in %s/ are marked "
                                "\"complete\": false\n", sim_now(sim) / 1e9, out);
                else
                        fprintf(stderr, "rcuboost: signal %d came after the run had ended, as its outputs were "
                                "written; %s\n", cli_interrupt_status() - 128,
                                written ? "they are whole, as summary.json says" : "none were kept");
                return cli_interrupt_status();
        }
        if (!strcmp(sim_end_reason(sim), "event-budget") || !strcmp(sim_end_reason(sim), "memory-budget")) {
                fprintf(stderr, "rcuboost: stopped at %.3f s simulated: the %s budget ([output] %s) was "
                        "reached; outputs in %s/ are marked \"complete\": false\n", sim_now(sim) / 1e9,
                        sim_end_reason(sim)[0] == 'e' ? "event" : "host-memory",
                        sim_end_reason(sim)[0] == 'e' ? "max_events" : "max_memory", out);
                if (status == EXIT_OK)
                        status = EXIT_FAILED;
        }
        if (sim_safety_violations(sim) > 0) {
                fprintf(stderr, "rcuboost: SAFETY VIOLATION: %" G_GINT64_FORMAT
                        " callback(s) ran while a pre-existing reader was still in its critical section\n",
                        sim_safety_violations(sim));
                for (const char *const *d = sim_violation_details(sim); *d; d++)
                        fprintf(stderr, "  %s\n", *d);
                return EXIT_UNSAFE;
        }
        return status;
}

/* ---- validate ---- */

static void print_keys(void)
{
        const char *section = NULL;

        for (const struct scenario_key_doc *k = scenario_key_docs; k->section; k++) {
                if (!section || strcmp(section, k->section) != 0)
                        printf("%s[%s]\n", section ? "\n" : "", k->section);
                section = k->section;
                printf("  %-20s %-12s %s\n", k->key, k->default_value, k->meaning);
        }
        printf("\nUnits, programs and distributions: docs/scenario-format.md, or man rcuboost.\n");
}

static int cmd_validate(int argc, char **argv)
{
        g_auto(GStrv) sets = NULL;
        g_autofree char *policies_opt = NULL;
        g_autoptr(GPtrArray) names = g_ptr_array_new();
        gboolean keys = FALSE, quiet = FALSE;
        const GOptionEntry entries[] = {
                { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Override a scenario key (repeatable)",
                  "SECTION.KEY=VALUE" },
                { "policies", 'p', 0, G_OPTION_ARG_STRING, &policies_opt,
                  "Check the scenario runs under these policies (default: all, as compare runs)", "A,B,..." },
                { "keys", 'k', 0, G_OPTION_ARG_NONE, &keys, "List every section and key a scenario may use", NULL },
                { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing but errors and warnings", NULL },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("SCENARIO... - check scenario files without running them");
        int status = EXIT_OK;

        g_option_context_add_main_entries(ctx, entries, NULL);
        g_option_context_set_description(ctx,
                "Loads each file, checks every section, key, value and program, and builds the\n"
                "simulation under every policy (--policies: only those); prints one line per file.\n\n"
                "Example:\n  rcuboost validate scenarios/*.scn\n\n"
                "Exit status: 0 every file is valid; 2 one is not (each error on stderr).");
        if (!cli_parse_options(ctx, &argc, &argv, &status))
                return status;
        if (keys) {
                print_keys();
                if (argc < 2)
                        return EXIT_OK;
        }
        if (argc < 2)
                return cli_usage_error(ctx, "validate: which scenario files? (or --keys to list the keys)");
        if (!cli_parse_policies(ctx, policies_opt, names, &status))
                return status;
        for (int i = 1; i < argc; i++) {
                GError *e = NULL;
                g_autoptr(RcbScenario) sc = scenario_load(argv[i], (const char *const *)sets, &e);
                gboolean ok = sc != NULL;

                if (!sc) {
                        fprintf(stderr, "rcuboost: %s\n", e->message);
                        g_clear_error(&e);
                }
                g_autoptr(GPtrArray) sims = g_ptr_array_new_with_free_func((GDestroyNotify)sim_free);

                for (guint p = 0; sc && p < names->len; p++) {
                        struct sim *sim = sim_new(sc, &(struct sim_options){ .policy = names->pdata[p] }, &e);

                        if (!sim) {
                                fprintf(stderr, "rcuboost: %s\n", e->message);
                                g_clear_error(&e);
                                ok = FALSE;
                        } else if (p == 0 && !sim_check_memory(sim, &e)) {
                                fprintf(stderr, "rcuboost: %s\n", e->message);
                                g_clear_error(&e);
                                ok = FALSE;
                        } else {
                                cli_print_warnings(p == 0 ? sc : NULL, sim);
                                if (p == 0)
                                        cli_warn_if_long(sim);
                        }
                        if (sim)
                                g_ptr_array_add(sims, sim);
                }
                if (ok && sims->len)
                        cli_warn_unused_rcu_keys(sc, (struct sim *const *)sims->pdata, (int)sims->len, NULL);
                if (!ok) {
                        status = EXIT_USAGE;
                        continue;
                }
                int ntasks = 0;

                for (guint k = 0; k < sc->tasks->len; k++)
                        ntasks += ((struct task_spec *)g_ptr_array_index(sc->tasks, k))->count;
                g_autofree char *dur = g_strdup_printf("%.3g s", sc->duration_ns / 1e9);
                struct kernel_env env;

                if (!sim_kernel_env(sc, sc->policy, &env, &e)) {
                        fprintf(stderr, "rcuboost: %s\n", e->message);
                        g_clear_error(&e);
                        status = EXIT_USAGE;
                        continue;
                }
                if (!quiet)
                        printf("%s: ok: %d CPU%s at %d Hz (kernel %s), %s, %d task%s, %u mutex%s, %u timed event%s, "
                               "policy %s\n", argv[i], sc->ncpus, sc->ncpus > 1 ? "s" : "", env.tick_hz,
                               env.generation, dur,
                               ntasks, ntasks == 1 ? "" : "s", sc->mutexes->len,
                               sc->mutexes->len == 1 ? "" : "es", sc->events->len,
                               sc->events->len == 1 ? "" : "s", sc->policy);
        }
        return status;
}

/* ---- policies ---- */

static const char *key_type_name(enum policy_key_type t)
{
        switch (t) {
        case POLICY_KEY_DURATION: return "duration";
        case POLICY_KEY_INT: return "integer";
        case POLICY_KEY_SCHED: return "sched";
        case POLICY_KEY_BOOL: return "boolean";
        case POLICY_KEY_ENUM: return "choice";
        }
        return "?";
}

static void print_policy(const struct boost_policy_ops *p, const char *where)
{
        printf("%-16s %s%s\n", p->name, p->summary ? p->summary : "", where ? where : "");
        if (p->rcu_flavour)
                printf("    (runs on [rcu] flavour=%s only, its default)\n", p->rcu_flavour);
        for (const struct policy_key *k = p->keys; k && k->name; k++)
                if (k->type == POLICY_KEY_ENUM) {
                        g_auto(GStrv) each = g_strsplit(k->choices, "|", -1);
                        g_autofree char *listed = g_strjoinv(", ", each);

                        printf("    %s=%s  (%s) %s\n", k->name, k->default_value, listed, k->doc);
                } else {
                        printf("    %s=%s  (%s) %s\n", k->name, k->default_value, key_type_name(k->type), k->doc);
                }
}

static int cmd_policies(int argc, char **argv)
{
        g_autoptr(GOptionContext) ctx = g_option_context_new("[MODULE.so...] - list the boosting policies and "
                                                             "their [policy] keys");
        int status = EXIT_OK;

        g_option_context_set_description(ctx, "With MODULE.so arguments, loads those out-of-tree policies and lists "
                                         "them too\n(docs/policies.md, \"Writing a policy\").");
        if (!cli_parse_options(ctx, &argc, &argv, &status))
                return status;
        for (int i = 1; i < argc; i++) {
                if (!policy_is_module_path(argv[i]))
                        return cli_usage_error(ctx, "policies: '%s' is not a module path (e.g. ./libmine.so)",
                                               argv[i]);
                if (!cli_find_policy(argv[i], &status))
                        return status;
        }
        for (const struct boost_policy_ops *const *p = policy_registry; *p; p++)
                print_policy(*p, NULL);
        for (const struct boost_policy_ops *const *p = policy_loaded(); *p; p++)
                print_policy(*p, "  [out-of-tree module]");
        printf("\nPolicy keys go in [policy] (shared) or [policy:NAME] (one policy); "
               "see docs/policies.md.\n");
        return EXIT_OK;
}

/* ---- dispatch ---- */

struct command {
        const char *name;
        int (*fn)(int argc, char **argv);
        const char *summary;
};

static const struct command commands[] = {
        { "run", cmd_run, "run one scenario with one policy and write its outputs" },
        { "validate", cmd_validate, "check scenario files without running them" },
        { "compare", cli_compare, "run a scenario under several policies and plot them side by side" },
        { "sweep", cli_sweep, "run a scenario over a grid of parameters, policies and seeds" },
        { "bench", cli_bench, "measure engine throughput and scaling (benchmarks)" },
        { "check", cli_check, "run scenarios and test their [expect] assertions (regressions)" },
        { "hunt", cli_hunt, "search generated scenarios for one that breaks a policy, and shrink it" },
        { "import", cli_import, "write a scenario from a trace-cmd recording (trace.dat) or an rt-app workload" },
        { "policies", cmd_policies, "list the boosting policies and their parameters" },
        { "kernel-program", cli_kernel_program, "a scenario as the real-kernel harness runs it (scripts/kernel-run)" },
};

static void print_help(FILE *f)
{
        fprintf(f, "Usage: rcuboost COMMAND [OPTION...]\n\n"
                "Simulate priority boosting of preempted RCU readers and compare boosting\n"
                "policies: the 2007 -rt kernels' preemptible RCU (rcupreempt, in a 2.6.22-rt\n"
                "kernel: none, booster, booster-8state, pi-lock, rostedt-2007) and today's\n"
                "preemptible Tree RCU with CONFIG_RCU_BOOST (rcu-boost, in Debian 12's 6.1-rt).\n\n"
                "Commands:\n");
        for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
                fprintf(f, "  %-14s %s\n", commands[i].name, commands[i].summary);
        fprintf(f, "\nOptions:\n  -h, --help     show this help (COMMAND --help for a command's)\n"
                "  --version      print the version\n\n"
                "Example:\n  rcuboost run scenarios/oom.scn --policy none\n\n"
                "Docs: README.md, docs/scenario-format.md, docs/outputs.md, docs/policies.md\n");
}

/* A policy module is trusted code in this process: if it ends the process
 * from inside a run (exit() in a hook), what was written so far is no
 * result, and the status says so (#49: check --tap printed "TAP version 13"
 * and exited 0). */
static void exit_guard(void)
{
        if (sim_any_in_progress()) {
                fputs("rcuboost: the process was ended from inside a run (a policy module called exit()?): "
                      "no result\n", stderr);
                _exit(EXIT_USAGE);
        }
}

int main(int argc, char **argv)
{
        setlocale(LC_ALL, "");
        /* Messages may follow the user's locale; numbers may not: CSV,
         * JSON, tables and gnuplot input read 256.5, never 256,5. */
        setlocale(LC_NUMERIC, "C");
        cli_catch_signals();
        atexit(exit_guard);
        if (argc < 2)
                return print_help(stderr), EXIT_USAGE;
        if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
                print_help(stdout);
                return EXIT_OK;
        }
        if (!strcmp(argv[1], "--version")) {
                printf("rcuboost %s\n", RCUBOOST_VERSION);
                return EXIT_OK;
        }
        for (size_t i = 0; i < G_N_ELEMENTS(commands); i++) {
                if (strcmp(argv[1], commands[i].name) != 0)
                        continue;
                g_autofree char *prgname = g_strdup_printf("rcuboost %s", commands[i].name);

                g_set_prgname(prgname);
                return commands[i].fn(argc - 1, argv + 1);
        }
        /* a slip of the keyboard: the nearest command, two edits away at most */
        const char *near = NULL;
        guint best = 3;

        for (size_t i = 0; i < G_N_ELEMENTS(commands); i++) {
                guint d = expect_edit_distance(argv[1], commands[i].name);

                if (d < best) {
                        best = d;
                        near = commands[i].name;
                }
        }
        if (near)
                fprintf(stderr, "rcuboost: unknown command '%s' (did you mean '%s'?)\n", argv[1], near);
        else
                fprintf(stderr, "rcuboost: unknown command '%s'\n", argv[1]);
        print_help(stderr);
        return EXIT_USAGE;
}
