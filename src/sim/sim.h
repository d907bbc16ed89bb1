/* sim.h - running a scenario: the engine's public face.
 *
 *     struct sim *sim = sim_new(scenario, &opts, &error);
 *     sim_run(sim, &error);          // or sim_run_until() step by step
 *     sim_finish(sim, &error);       // outputs and the report
 *     const struct report *r = sim_report(sim);
 *     sim_free(sim);
 *
 * A struct sim owns all its state; several may run in parallel threads.
 */
#ifndef RCUBOOST_SIM_H
#define RCUBOOST_SIM_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct sim;
struct scenario;
struct report;

enum sim_trace_format {
        SIM_TRACE_JSON,         /* Chrome trace events (Perfetto) */
        SIM_TRACE_FTRACE,       /* the kernel's trace text */
        SIM_TRACE_DAT,          /* trace-cmd's trace.dat (trace-cmd report, KernelShark) */
};

/* What a run may allocate for its histograms when [output] max_memory is 0. */
#define SIM_MEMORY_BOUND (4.0 * 1073741824.0)

struct sim_options {
        const char *policy;     /* NULL: the scenario's [scenario] policy */
        const char *out_dir;    /* NULL: write no files */
        const char *out_kind;   /* the directory's kind (output.h); NULL: "run" */
        bool summary_only;      /* write summary.json only (sweeps) */
        const char *trace;      /* also write a trace here, or NULL ... */
        enum sim_trace_format trace_format;     /* ... in this format */
        int64_t trace_start_ns; /* the trace's window; length 0: the whole run */
        int64_t trace_length_ns;
        bool coverage;          /* count the policy's state transitions (sim_policy_coverage())
                                 * and the engine's events (sim_engine_coverage()) */
        bool seed_set;
        uint64_t seed;          /* overrides [scenario] seed when seed_set */
        /* Set (e.g. by a signal handler) to stop the run at the next event
         * boundary; the outputs are then marked incomplete.  May be NULL. */
        const volatile int *interrupt;
};

/* With sim_options.coverage and a policy with state_of(): the transitions
 * seen, as 64 words of 64 bits (bit T of word F: from state F to T). */
const uint64_t *sim_policy_coverage(const struct sim *sim);
/* Is @name a kernel thread the policy made (its booster), not the kernel's? */
bool sim_is_policy_thread(const struct sim *sim, const char *name);
/* With sim_options.coverage, for any policy: the engine's events seen
 * (coverage.h), as COVERAGE_ENGINE_WORDS words into @bits. */
void sim_engine_coverage(const struct sim *sim, uint64_t *bits);

/* Build a simulation of @sc (which must outlive it). */
struct sim *sim_new(const struct scenario *sc, const struct sim_options *opts, GError **error);
/* Process events up to and including @t_ns (or until the run stops). */
void sim_run_until(struct sim *sim, int64_t t_ns);
/* One slice of the run, for a progress display: @step of simulated time or
 * a million events, whichever comes first (so that it returns even when
 * simulated time crawls, as with 1 ns loops).  FALSE once the run is over.
 * Running in slices changes no result. */
bool sim_run_slice(struct sim *sim, int64_t step);
/* Run to the end: duration, out of memory, event or memory budget,
 * interruption or error. */
void sim_run(struct sim *sim);
/* Is any run, in any thread, inside its event loop or its policy's create()? */
bool sim_any_in_progress(void);
/* Build the report and commit output files.  FALSE with @error if the run
 * failed (deadlock, runaway loop) or an output could not be written. */
gboolean sim_finish(struct sim *sim, GError **error);
void sim_free(struct sim *sim);
/* Every file a run may write into its output directory (patterns for
 * output_dir_prepare(); sweep's row.csv and compare's files included). */
extern const char *const sim_output_names[];

/* About how many events the run will take (ticks, samples, and each
 * task's statements at their means): to warn before a run that would take
 * days.  A rough lower bound, not a prediction; at most [output]
 * max_events when that is set. */
double sim_estimate_events(const struct sim *sim);
/* Warnings of this run (e.g. an [event] on a thread this policy lacks), NULL-terminated view. */
const GPtrArray *sim_warnings(const struct sim *sim);
/* The [rcu] keys of the scenario that this run's RCU flavour does not read (new array). */
GPtrArray *sim_rcu_keys_unused(const struct sim *sim);
/* The warning for such a key at @where, read by none of @policies (@several:
 * more than one) that run @flavour. */
char *sim_rcu_key_unused_text(const char *where, const char *policies, bool several, const char *flavour);
const char *sim_policy_name(const struct sim *sim);
const char *sim_rcu_flavour(const struct sim *sim);     /* "rcupreempt" or "tree" */
/* Would its histograms (a run with --out) exceed [output] max_memory, or
 * SIM_MEMORY_BOUND?  FALSE with @error then; `run` and `validate` ask. */
gboolean sim_check_memory(struct sim *sim, GError **error);
struct boost_policy_ops;
/* The first [policy] key (or --set policy.KEY) policy @ops does not have,
 * or NULL; the caller frees it. */
char *sim_policy_key_unused(const struct scenario *sc, const struct boost_policy_ops *ops);

/* Would sim_new(@sc, @policy) succeed?  Builds the simulation without
 * outputs and frees it: commands that run several policies check them all
 * before running any. */
gboolean sim_check(const struct scenario *sc, const char *policy, GError **error);
/* The results as they stand, as summary.json would have them (before a
 * run: every key there will be, with starting values).  Caller frees. */
struct report *sim_build_report(struct sim *sim);
struct kernel_env;
/* The kernel generation's environment @sc runs in under @policy (kernel.h). */
gboolean sim_kernel_env(const struct scenario *sc, const char *policy, struct kernel_env *env, GError **error);
const struct kernel_env *sim_kernel(const struct sim *sim);
/* [scenario] nohz_idle: is @cpu idle with its tick stopped? */
bool sim_cpu_tick_stopped(const struct sim *sim, int cpu);

const struct report *sim_report(const struct sim *sim);
int64_t sim_now(const struct sim *sim);
int64_t sim_end_time(const struct sim *sim);
uint64_t sim_events(const struct sim *sim);
/* Why the run ended: "duration", "oom", "event-budget", "memory-budget",
 * "interrupted", "error" ("running" before it ends). */
const char *sim_end_reason(const struct sim *sim);
/* Did the run reach its natural end (duration or out of memory)? */
bool sim_complete(const struct sim *sim);
int64_t sim_safety_violations(const struct sim *sim);
/* The oracle's first reports, NULL-terminated; owned by @sim. */
const char *const *sim_violation_details(const struct sim *sim);
void sim_print_summary(const struct sim *sim, FILE *f);

/* For g_autoptr(); the code itself says struct sim. */
typedef struct sim RcbSim;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RcbSim, sim_free)

#endif
