/* cli.h - what the subcommands share: exit codes, option parsing, messages.
 *
 * Exit status (docs/outputs.md has the table): 0 success; 1 a run did not
 * finish (a budget stopped it, an output or plot could not be written; or an
 * assertion of `check` failed); 2 bad input or usage, or the scenario is
 * wrong at run time (deadlock, a loop without time); 3 the safety oracle saw
 * a violation; 128 + signal when interrupted.
 */
#ifndef RCUBOOST_CLI_H
#define RCUBOOST_CLI_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "sim/sim.h"

enum exit_code {
        EXIT_OK = 0,
        EXIT_FAILED = 1,
        EXIT_USAGE = 2,
        EXIT_UNSAFE = 3,
};

/* For every command's --help. */
#define CLI_EXIT_HELP \
        "Exit status: 0 ok; 1 a run did not finish (a budget stopped it, an output could not be\n" \
        "written); 2 bad input, or the scenario deadlocked or looped without time; 3 a safety\n" \
        "violation; 130/143 interrupted (docs/outputs.md)."

/* Warn on stderr, before it starts, of a run estimated to take more than
 * half an hour (sim_estimate_events() at a few million events per second)
 * and not bounded by [output] max_events. */
struct sim;
void cli_warn_if_long(const struct sim *sim);
/* The scenario's warnings (valid but suspect: an [event] after the end),
 * and those of @sim's policy (may be NULL), on stderr. */
struct scenario;
void cli_print_warnings(const struct scenario *sc, const struct sim *sim);
/* [rcu] keys that none of the runs @sims[0..n) (one per policy) reads: a warning each; a key in
 * @varied (NULL-terminated, may be NULL) is named as a sweep's --vary. */
void cli_warn_unused_rcu_keys(const struct scenario *sc, struct sim *const *sims, int n, const char *const *varied);
/* The same warnings' texts (a new array), for a command that says them in its own order. */
GPtrArray *cli_unused_rcu_keys(const struct scenario *sc, struct sim *const *sims, int n, const char *const *varied);

/* The exit status for an error: 2 when the scenario or the command line is
 * at fault (SCENARIO_ERROR, UNITS_ERROR, G_OPTION_ERROR), else 1. */
int cli_error_status(const GError *e);

/* Print "rcuboost: MESSAGE" (and a hint to --help when @ctx); returns EXIT_USAGE. */
int cli_usage_error(GOptionContext *ctx, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* Parse a subcommand's options; FALSE (after printing, *status set) on error. */
gboolean cli_parse_options(GOptionContext *ctx, int *argc, char ***argv, int *status);
gboolean cli_parse_seed(const char *s, uint64_t *out);
/* A window option's START,LENGTH (durations with units, LENGTH > 0). */
gboolean cli_parse_window(const char *s, int64_t *start_ns, int64_t *length_ns);
/* --trace-format: "json", "ftrace" or "dat"; NULL: ftrace for a FILE ending
 * in .txt, trace.dat for .dat, else json.  FALSE for anything else. */
gboolean cli_trace_format(const char *format, const char *file, enum sim_trace_format *out);
/* compare's DIR/POLICY/trace.{json,txt,dat} */
const char *cli_trace_file_name(enum sim_trace_format format);
/* The policy @name names: a built-in or loaded one, or a module path
 * (policy_load()).  NULL when unknown (*status EXIT_OK) or when a module
 * does not load (message printed, *status EXIT_USAGE). */
struct boost_policy_ops;
const struct boost_policy_ops *cli_find_policy(const char *name, int *status);
/* Policy names from "a,b,c" (NULL: every built-in policy; a module path
 * loads it) into @names (static strings); FALSE (after printing, *status
 * set) on an unknown name. */
/* The built-in policy @name nearly names ("rcu_boost": rcu-boost), or NULL. */
char *cli_policy_suggest(const char *name);
/* A --trace-window wholly after the end gives an empty trace: said. */
void cli_warn_trace_window(const struct scenario *sc, int64_t start_ns, int64_t length_ns);
gboolean cli_parse_policies(GOptionContext *ctx, const char *list, GPtrArray *names, int *status);

/* SIGINT and SIGTERM set a flag that runs given it (sim_options.interrupt)
 * check between events; they stop there and write what they have, marked
 * incomplete.  cli_interrupt_status() is then 130 or 143 (128 + signal).
 * Until a command asks for the flag (cli_interrupt_flag()), and on a second
 * signal, the process exits at once with that status. */
void cli_catch_signals(void);
const volatile int *cli_interrupt_flag(void);
int cli_interrupt_status(void);

/* Subcommands living in src/cli/. */
int cli_check(int argc, char **argv);
int cli_compare(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_sweep(int argc, char **argv);
int cli_hunt(int argc, char **argv);
int cli_import(int argc, char **argv);
int cli_kernel_program(int argc, char **argv);

/* The built-in default scenario (scenarios/oom.scn), NUL-terminated. */
const char *cli_default_scenario(void);
/* A plot template (plots/NAME) embedded in the binary, or NULL (plot.c draws them). */
GBytes *cli_plot_template(const char *name);
/* The colour (#rrggbb) @policy has in every plot, compare's and sweep's:
 * one palette (Okabe-Ito, readable by colour-blind readers), by the
 * policy's place in the registry. */
const char *cli_policy_colour(const char *policy);
/* The @i-th colour of the same palette, for curves that are not policies. */
const char *cli_series_colour(int i);

#endif
