/* cli.c - what the subcommands share; see cli.h. */
#include "cli.h"
#include "sim/output/output.h"

#include <gio/gio.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "policies/policy.h"
#include "sim/scenario/expect.h"
#include "sim/scenario/kernel.h"
#include "sim/scenario/scenario.h"
#include "sim/sim.h"
#include "sim/scenario/units.h"

static volatile int interrupted;        /* the signal number, once one came */
static volatile sig_atomic_t armed;     /* a run checks the flag between events */

/* A run stops at its next event and writes what it has; anything else
 * (loading, validating, checking) has nothing to save and stops at once, as
 * does a second signal. */
static void on_signal(int signo)
{
        if (!armed || interrupted)
                _exit(128 + signo);
        interrupted = signo;
}

/* Every signal whose default is to end the process quietly is handled as
 * SIGTERM is: the run stops and writes what it has (a hangup, a batch
 * system's SIGUSR1 or SIGALRM before its kill, a SIGQUIT from the keyboard). */
static const int terminating_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
                                           SIGVTALRM, SIGPROF, SIGXCPU };

void cli_catch_signals(void)
{
        struct sigaction sa = { .sa_handler = on_signal };

        sigemptyset(&sa.sa_mask);
        for (size_t i = 0; i < G_N_ELEMENTS(terminating_signals); i++)
                sigaction(terminating_signals[i], &sa, NULL);
}

const volatile int *cli_interrupt_flag(void)
{
        armed = 1;
        return &interrupted;
}

int cli_interrupt_status(void)
{
        return interrupted ? 128 + interrupted : 0;
}

void cli_warn_if_long(const struct sim *sim)
{
        /* A conservative engine speed: bench measures 5-10 M/s on a laptop core. */
        const double rate = 5e6, limit_s = 1800;
        double events = sim_estimate_events(sim);

        if (events / rate < limit_s)
                return;
        fprintf(stderr, "rcuboost: warning: this run needs about %.2g events: at a few million events per "
                "second, about %.0f hours; bound it with [output] max_events=N or a shorter duration "
                "(docs/errors.md)\n", events, events / rate / 3600);
}

void cli_print_warnings(const struct scenario *sc, const struct sim *sim)
{
        for (guint i = 0; sc && i < sc->warnings->len; i++)
                fprintf(stderr, "rcuboost: warning: %s\n", (const char *)g_ptr_array_index(sc->warnings, i));
        for (guint i = 0; sim && i < sim_warnings(sim)->len; i++)
                fprintf(stderr, "rcuboost: warning: %s\n", (const char *)g_ptr_array_index(sim_warnings(sim), i));
}

GPtrArray *cli_unused_rcu_keys(const struct scenario *sc, struct sim *const *sims, int n, const char *const *varied)
{
        g_autoptr(GPtrArray) keys = n > 0 ? sim_rcu_keys_unused(sims[0]) : NULL;
        g_autoptr(GString) names = g_string_new(NULL);
        GPtrArray *said = g_ptr_array_new_with_free_func(g_free);

        for (int i = 0; i < n; i++)
                g_string_append_printf(names, "%s%s", i ? ", " : "", sim_policy_name(sims[i]));
        for (guint k = 0; keys && k < keys->len; k++) {
                const char *key = keys->pdata[k];
                bool by_all = true;

                for (int i = 1; i < n && by_all; i++) {
                        g_autoptr(GPtrArray) other = sim_rcu_keys_unused(sims[i]);

                        by_all = g_ptr_array_find_with_equal_func(other, key, g_str_equal, NULL);
                }
                if (!by_all)
                        continue;
                g_autofree char *full = g_strconcat("rcu.", key, NULL);
                /* a sweep's --vary key: named as the user gave it, not as the --set it becomes */
                g_autofree char *where = varied && g_strv_contains(varied, full) ? g_strconcat("--vary ", full, NULL)
                                                                                  : scenario_where(sc, "rcu", key);
                g_ptr_array_add(said, sim_rcu_key_unused_text(where, names->str, n > 1, sim_rcu_flavour(sims[0])));
        }
        return said;
}

void cli_warn_unused_rcu_keys(const struct scenario *sc, struct sim *const *sims, int n, const char *const *varied)
{
        g_autoptr(GPtrArray) said = cli_unused_rcu_keys(sc, sims, n, varied);

        for (guint i = 0; i < said->len; i++)
                fprintf(stderr, "rcuboost: warning: %s\n", (const char *)said->pdata[i]);
}

int cli_error_status(const GError *e)
{
        return e->domain == SCENARIO_ERROR || e->domain == KERNEL_ERROR || e->domain == UNITS_ERROR || e->domain == G_OPTION_ERROR ||
               e->domain == POLICY_ERROR ? EXIT_USAGE : EXIT_FAILED;
}

int cli_usage_error(GOptionContext *ctx, const char *fmt, ...)
{
        va_list ap;
        g_autofree char *msg = NULL;

        va_start(ap, fmt);
        msg = g_strdup_vprintf(fmt, ap);
        va_end(ap);
        fprintf(stderr, "rcuboost: %s\n", msg);
        if (ctx)
                fprintf(stderr, "Try '%s --help'.\n", g_get_prgname());
        return EXIT_USAGE;
}

gboolean cli_parse_options(GOptionContext *ctx, int *argc, char ***argv, int *status)
{
        GError *e = NULL;

        if (!g_option_context_parse(ctx, argc, argv, &e)) {
                *status = cli_usage_error(ctx, "%s", e->message);
                g_error_free(e);
                return FALSE;
        }
        /* GOption leaves a "--" that follows an argument in place: it ends
         * the options, it is not a file name */
        for (int i = 1; i < *argc; i++)
                if (!strcmp((*argv)[i], "--")) {
                        memmove(&(*argv)[i], &(*argv)[i + 1], (size_t)(*argc - i) * sizeof(char *));
                        (*argc)--;
                        break;
                }
        return TRUE;
}

gboolean cli_parse_window(const char *s, int64_t *start_ns, int64_t *length_ns)
{
        g_auto(GStrv) w = g_strsplit(s, ",", -1);

        return g_strv_length(w) == 2 && units_parse_duration(w[0], start_ns, NULL) &&
               units_parse_duration(w[1], length_ns, NULL) && *start_ns >= 0 && *length_ns > 0;
}

void cli_warn_trace_window(const struct scenario *sc, int64_t start_ns, int64_t length_ns)
{
        if (length_ns && start_ns >= sc->duration_ns)
                fprintf(stderr, "rcuboost: warning: --trace-window starts at %.6g s, at or after the run's end "
                        "(%.6g s): the trace will hold no event\n", start_ns / 1e9, sc->duration_ns / 1e9);
}

gboolean cli_trace_format(const char *format, const char *file, enum sim_trace_format *out)
{
        g_autofree char *lower = file ? g_ascii_strdown(file, -1) : NULL;       /* .TXT too */

        if (format && strcmp(format, "json") != 0 && strcmp(format, "ftrace") != 0 && strcmp(format, "dat") != 0)
                return FALSE;
        if (format)
                *out = !strcmp(format, "ftrace") ? SIM_TRACE_FTRACE : !strcmp(format, "dat") ? SIM_TRACE_DAT
                                                                                              : SIM_TRACE_JSON;
        else
                *out = lower && g_str_has_suffix(lower, ".txt") ? SIM_TRACE_FTRACE
                       : lower && g_str_has_suffix(lower, ".dat") ? SIM_TRACE_DAT : SIM_TRACE_JSON;
        return TRUE;
}

const char *cli_trace_file_name(enum sim_trace_format format)
{
        return format == SIM_TRACE_FTRACE ? "trace.txt" : format == SIM_TRACE_DAT ? "trace.dat" : "trace.json";
}

gboolean cli_parse_seed(const char *s, uint64_t *out)
{
        guint64 v;

        if (!s || !g_ascii_string_to_unsigned(s, 10, 0, G_MAXINT64, &v, NULL))
                return FALSE;
        *out = v;
        return TRUE;
}

const struct boost_policy_ops *cli_find_policy(const char *name, int *status)
{
        GError *e = NULL;
        const struct boost_policy_ops *ops;

        *status = EXIT_OK;
        if (!policy_is_module_path(name))
                return policy_find(name);
        ops = policy_load(name, &e);
        if (!ops) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                *status = EXIT_USAGE;
        }
        return ops;
}

char *cli_policy_suggest(const char *name)
{
        g_autofree char *canon = g_strdelimit(g_ascii_strdown(name, -1), "_ ", '-');
        const char *best = NULL;
        guint best_d = G_MAXUINT;

        for (const struct boost_policy_ops *const *p = policy_registry; *p; p++) {
                guint d = g_str_equal(canon, (*p)->name) ? 0 : expect_edit_distance(canon, (*p)->name);

                if (d < best_d) {
                        best_d = d;
                        best = (*p)->name;
                }
        }
        return best && best_d <= 2 ? g_strdup(best) : NULL;
}

gboolean cli_parse_policies(GOptionContext *ctx, const char *list, GPtrArray *names, int *status)
{
        g_auto(GStrv) parts = NULL;

        if (!list) {
                for (const struct boost_policy_ops *const *p = policy_registry; *p; p++)
                        g_ptr_array_add(names, (gpointer)(*p)->name);
                return TRUE;
        }
        parts = g_strsplit(list, ",", -1);
        for (char **p = parts; *p; p++) {
                const struct boost_policy_ops *ops = cli_find_policy(g_strstrip(*p), status);

                if (!ops && *status)
                        return FALSE;
                if (!ops) {
                        g_autofree char *near = cli_policy_suggest(*p);

                        *status = cli_usage_error(ctx, "--policies: unknown policy '%s' (%s%s%sexpected one of: %s)",
                                                  *p, near ? "did you mean " : "", near ? near : "",
                                                  near ? "? " : "", policy_names());
                        return FALSE;
                }
                for (guint i = 0; i < names->len; i++)
                        if (!strcmp(names->pdata[i], ops->name)) {
                                *status = cli_usage_error(ctx, "--policies: '%s' twice", ops->name);
                                return FALSE;
                        }
                g_ptr_array_add(names, (gpointer)ops->name);
        }
        return TRUE;
}

const char *cli_default_scenario(void)
{
        static GBytes *data;

        if (!data)
                data = g_resources_lookup_data("/rcuboost/scenarios/default.scn", 0, NULL);
        return data ? g_bytes_get_data(data, NULL) : NULL;
}

GBytes *cli_plot_template(const char *name)
{
        g_autofree char *path = g_strconcat("/rcuboost/plots/", name, NULL);

        return g_resources_lookup_data(path, 0, NULL);
}

static const char *const palette[] = { "#000000", "#0072B2", "#009E73", "#D55E00",
                                       "#CC79A7", "#E69F00", "#56B4E9", "#F0E442" };

const char *cli_policy_colour(const char *policy)
{
        int i = 0;

        for (const struct boost_policy_ops *const *p = policy_registry; *p; p++, i++)
                if (!strcmp((*p)->name, policy))
                        return palette[i % G_N_ELEMENTS(palette)];
        return "#808080";
}

const char *cli_series_colour(int i)
{
        return palette[i % (int)G_N_ELEMENTS(palette)];
}

