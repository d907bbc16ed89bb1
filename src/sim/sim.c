/* sim.c - building a simulation, the event loop and the results; see sim.h. */
#include "sim.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "rcu/stall.h"
#include "scenario/expect.h"
#include "sched/boosts.h"
#include "sched/rtwait.h"

/* How many runs, in any thread, are inside their event loop or their
 * policy's create(): a module that ends the process from there (exit())
 * ends it mid-run, and main()'s guard makes that a failure (#49). */
static gint runs_in_progress;

static void end_event(struct sim *sim, struct event *ev);
static void sample_event(struct sim *sim, struct event *ev);
static void timed_event(struct sim *sim, struct event *ev);

/* ---- tasks ---- */

/* What an [event]'s task= can name: a task, or all the copies NAME.0,
 * NAME.1, ... that count=N made of NAME.  Indexed once, so that checking
 * and firing events costs nothing per task. */
static void index_task_names(struct sim *sim)
{
        sim->tasks_named = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                                 (GDestroyNotify)g_ptr_array_unref);
        for (guint i = 0; i < sim->tasks->len; i++) {
                struct task *t = sim_task(sim, (int)i);
                const char *dot = strrchr(t->name, '.');
                g_autofree char *base = NULL;

                if (dot && dot[1] && strspn(dot + 1, "0123456789") == strlen(dot + 1))
                        base = g_strndup(t->name, (gsize)(dot - t->name));
                for (const char *key = t->name; key; key = key == t->name ? base : NULL) {
                        GPtrArray *list = g_hash_table_lookup(sim->tasks_named, key);

                        if (!list) {
                                list = g_ptr_array_new();
                                g_hash_table_insert(sim->tasks_named, g_strdup(key), list);
                        }
                        g_ptr_array_add(list, t);
                }
        }
}

static void create_tasks(struct sim *sim)
{
        const struct scenario *sc = sim->sc;
        g_autofree guint *first = g_new0(guint, sc->tasks->len);  /* in sim->tasks */

        for (guint i = 0; i < sc->tasks->len; i++) {
                const struct task_spec *ts = g_ptr_array_index(sc->tasks, i);

                for (int k = 0; k < ts->count; k++) {
                        g_autofree char *name = ts->count > 1 ? g_strdup_printf("%s.%d", ts->name, k)
                                                              : g_strdup(ts->name);
                        struct task *t = task_new_scripted(sim, name, ts->program, sim->seed);

                        struct cpumask one;

                        if (ts->affinity_each) {
                                cpumask_clear(&one);
                                cpumask_set(&one, scenario_each_cpu(ts, sc->ncpus, k));
                        }
                        task_set_sched(sim, t, &ts->sched, ts->affinity_each ? &one : &ts->affinity);
                        t->start_ns = ts->start_ns;
                        t->stop_ns = ts->stop_ns;
                        t->period_ns = ts->period_ns;
                        if (t->period_ns) {
                                t->wakeup = g_new0(struct latency_stat, 1);
                                latency_stat_init(t->wakeup);
                                t->rtw = rtwait_new();
                                t->release_ns = t->start_ns;
                                t->awaiting_release = true;
                        }
                        if (!k)
                                first[i] = sim->tasks->len - 1;
                        /* start_in=: the waker's section wakes it (task.c), not a timer */
                        if (ts->start_in_task < 0)
                                eventq_schedule(&sim->q, &t->timer_ev, t->start_ns);
                }
        }
        for (guint i = 0; i < sc->tasks->len; i++) {
                const struct task_spec *ts = g_ptr_array_index(sc->tasks, i);
                struct task *waker;

                if (ts->start_in_task < 0)
                        continue;
                waker = g_ptr_array_index(sim->tasks, first[ts->start_in_task]);
                if (!waker->section_wakees)
                        waker->section_wakees = g_ptr_array_new();
                waker->wakes_in_section = true;
                for (int k = 0; k < ts->count; k++)
                        g_ptr_array_add(waker->section_wakees, g_ptr_array_index(sim->tasks, first[i] + k));
        }
        /* The headline RT figure is the most urgent periodic class's, named. */
        sim->rt_top_prio = PRIO_NONE;
        for (guint i = 0; i < sim->tasks->len; i++) {
                const struct task *t = sim_task(sim, (int)i);

                if (t->period_ns)
                        sim->rt_top_prio = MIN(sim->rt_top_prio, t->normal_prio);
        }
}

/* ---- building ---- */

const char *const sim_output_names[] = {
        "summary.json", "memory.csv", "gp.csv", "boost.csv", "latency.csv", "distributions.csv",
        "timeline.csv", "timeline-plot.dat", "timeline-marks.dat", "tail-*.dat", "trace.json", "trace.txt", "trace.dat", "row.csv", NULL,
};

static const char *sim_out_kind(const struct sim_options *opts)
{
        return opts->out_kind ? opts->out_kind : "run";
}

/* @path with its directory resolved (symbolic links, "..") when the
 * directory exists: two names of one file compare equal. */
static char *resolved_path(const char *path)
{
        g_autofree char *dir = g_path_get_dirname(path);
        g_autofree char *base = g_path_get_basename(path);
        g_autofree char *real = realpath(dir, NULL);

        return real ? g_build_filename(real, base, NULL) : g_canonicalize_filename(path, NULL);
}

/* --trace FILE: a path that can be written (not a directory, not a link
 * to a file, in a writable directory), and neither the scenario nor one
 * of the run's own outputs in --out. */
static gboolean trace_path_check(const struct scenario *sc, const struct sim_options *opts, GError **error)
{
        g_autofree char *trace = resolved_path(opts->trace);
        g_autofree char *scn = resolved_path(sc->path);
        g_autofree char *dir = g_path_get_dirname(opts->trace);
        gboolean in_place;

        if (!output_path_check(opts->trace, &in_place, error))
                return FALSE;
        if (!strcmp(trace, scn)) {
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "--trace %s is the scenario file: give the trace another name", opts->trace);
                return FALSE;
        }
        if (opts->out_dir) {
                g_autofree char *out = resolved_path(opts->out_dir);
                g_autofree char *trace_dir = g_path_get_dirname(trace);
                g_autofree char *base = g_path_get_basename(trace);

                /* (trace.json, .txt, .dat: where compare puts each run's trace) */
                for (const char *const *n = sim_output_names; !strcmp(out, trace_dir) && *n; n++)
                        if (!g_str_has_prefix(*n, "trace.") && g_pattern_match_simple(*n, base)) {
                                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                                            "--trace %s is one of the run's own outputs in %s: give the trace "
                                            "another name", opts->trace, opts->out_dir);
                                return FALSE;
                        }
        }
        if (!in_place && g_file_test(dir, G_FILE_TEST_IS_DIR) && access(dir, W_OK) != 0) {
                int e = errno;

                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "cannot write %s: %s", opts->trace,
                            g_strerror(e));
                return FALSE;
        }
        return TRUE;
}

/* A periodic task's cyclictest histogram: 1 us bins up to rt_histogram.
 * Every one has the same bin edges, so they share the sim's (computed
 * once, by GSL, from the first); the bins are calloc'ed, so only the pages
 * of bins ever counted are touched.  With 1,638 periodic tasks of 10,000
 * bins each, a range and zeroed bins per task were 260 MB written at setup
 * (task_free() frees such a histogram without its range). */
static gsl_histogram *wakeup_hist_new(struct sim *sim)
{
        size_t bins = (size_t)(sim->sc->rt_histogram_ns / NSEC_PER_USEC);
        double *counts = g_try_new0(double, bins);
        gsl_histogram *h;

        if (!counts)
                return NULL;    /* said by open_outputs(): a clean exit, not GLib's abort */
        h = g_new(gsl_histogram, 1);

        if (!sim->wakeup_ranges) {
                gsl_histogram *first = gsl_histogram_alloc(bins);

                gsl_histogram_set_ranges_uniform(first, 0, (double)bins);
                sim->wakeup_ranges = g_memdup2(first->range, (bins + 1) * sizeof(double));
                gsl_histogram_free(first);
        }
        h->n = bins;
        h->range = sim->wakeup_ranges;
        h->bin = counts;
        return h;
}

/* The allocation that grows with a scenario's size is the cyclictest
 * histogram of each periodic task (rt_histogram / 1 us bins of 8 bytes,
 * with --out): estimated before anything is written or removed, and
 * refused above [output] max_memory, or SIM_MEMORY_BOUND when that is 0
 * (docs/outputs.md).  Raising max_memory is how to ask for more. */
gboolean sim_check_memory(struct sim *sim, GError **error)
{
        double bound = sim->sc->max_memory_bytes ? (double)sim->sc->max_memory_bytes : SIM_MEMORY_BOUND;
        double per_task = (double)(sim->sc->rt_histogram_ns / NSEC_PER_USEC) * sizeof(double);
        guint periodic = 0;

        for (guint i = 0; i < sim->tasks->len; i++)
                periodic += sim_task(sim, (int)i)->period_ns > 0;
        if (periodic * per_task <= bound)
                return TRUE;
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "%s: the cyclictest histograms would take %.1f GiB (%u periodic tasks x [output] rt_histogram="
                    "%.6g ms in 1 us bins), more than %s (%.1f GiB): lower rt_histogram, or raise [output] "
                    "max_memory to run it", sim->sc->path, periodic * per_task / 1073741824.0, periodic,
                    sim->sc->rt_histogram_ns / 1e6, sim->sc->max_memory_bytes ? "[output] max_memory"
                                                                            : "the default bound", bound / 1073741824.0);
        return FALSE;
}

static gboolean open_outputs(struct sim *sim, GError **error)
{
        if (sim->sc->output_level == OUTPUT_SUMMARY)
                goto histograms;        /* the time series and the timeline grow: not asked for */
        sim->memory_out = outfile_open(sim->out_dir, "memory.csv", error);
        if (!sim->memory_out)
                return FALSE;
        fputs("time_ns,bytes,callbacks\n", outfile_stream(sim->memory_out));
        sim->gp_out = outfile_open(sim->out_dir, "gp.csv", error);
        if (!sim->gp_out)
                return FALSE;
        sim->rcu.gp_csv = outfile_stream(sim->gp_out);
        /* One schema for both flavours and the real kernel's (kernel-run-collect):
         * under Tree RCU the first column numbers grace periods, not flips. */
        fputs(strcmp(sim->rcu.flavour->name, "tree") ? "flip" : "gp", sim->rcu.gp_csv);
        fputs(",start_ns,end_ns,duration_ns,waitack_ns,waitzero_ns,waitmb_ns,gp_start_ns,gp_ns\n", sim->rcu.gp_csv);
        sim->boost_out = outfile_open(sim->out_dir, "boost.csv", error);
        if (!sim->boost_out)
                return FALSE;
        fputs("time_ns,event,task,cpu,old_prio,new_prio\n", outfile_stream(sim->boost_out));
        if (sim->sc->output_level == OUTPUT_FULL) {
                sim->timeline_out = outfile_open(sim->out_dir, "timeline.csv", error);
                if (!sim->timeline_out)
                        return FALSE;
                timeline_free(sim->timeline);
                sim->timeline = timeline_new(outfile_stream(sim->timeline_out), TIMELINE_CSV,
                                             sim->sc->timeline_start_ns, sim->sc->timeline_length_ns, sim->ncpus);
        }
histograms:
        for (guint i = 0; i < sim->tasks->len; i++) {
                struct task *t = sim_task(sim, (int)i);

                if (t->period_ns && !(t->wakeup_hist = wakeup_hist_new(sim))) {
                        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOMEM,
                                    "cannot allocate the cyclictest histogram of %s (%" G_GINT64_FORMAT " bins): "
                                    "lower [output] rt_histogram", t->name, sim->sc->rt_histogram_ns / NSEC_PER_USEC);
                        return FALSE;
                }
        }
        return TRUE;
}

/* "NAME/N" for a CPU number N? */
static gboolean per_cpu_name(const char *name, const char *stem)
{
        size_t n = strlen(stem);
        guint64 cpu;

        return !strncmp(name, stem, n) && name[n] == '/' &&
               g_ascii_string_to_unsigned(name + n + 1, 10, 0, SIM_MAX_CPUS - 1, &cpu, NULL);
}

/* A thread some run of rcuboost has, though maybe not this one: the RCU
 * flavours' (rcu_preempt; rcuc/N, rcub/N), the timer threads of either
 * kernel generation, rcu_cb/N, and any policy's. */
static gboolean kernel_thread_name(const char *name)
{
        static const char *const per_cpu[] = { "rcu_cb", "rcuc", "rcub", "sirq-timer", "ktimers" };

        for (size_t i = 0; i < G_N_ELEMENTS(per_cpu); i++)
                if (per_cpu_name(name, per_cpu[i]))
                        return TRUE;
        return !strcmp(name, "rcu_preempt") || policy_any_thread(name);
}

static gboolean check_events(struct sim *sim, GError **error)
{
        for (int i = 0; i < sim->ntimed; i++) {
                const struct timed_event_spec *es = sim->timed[i].spec;
                g_autofree char *group = g_strconcat("event:", es->name, NULL);

                if (!es->task)
                        continue;
                if (!g_hash_table_contains(sim->tasks_named, es->task) && kernel_thread_name(es->task)) {
                        /* One rule for kernel threads: one that exists under another policy, RCU
                         * flavour or kernel generation has nothing to change in this run. */
                        g_autofree char *where = scenario_where(sim->sc, group, "task");

                        g_ptr_array_add(sim->warnings, g_strdup_printf(
                                "%s: no thread '%s' under policy %s (RCU %s, kernel %s): the event is skipped",
                                where, es->task, sim->policy->name, sim->rcu.flavour->name, sim->env.generation));
                        continue;
                }
                if (!g_hash_table_contains(sim->tasks_named, es->task)) {
                        g_autofree char *where = scenario_where(sim->sc, group, "task");

                        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                                    "%s: no task named '%s' (tasks come from [task:NAME] sections, the kernel's "
                                    "threads -- rcu_cb/N, sirq-timer/N or ktimers/N, rcu_preempt, rcuc/N, rcub/N -- "
                                    "and the policy's)", where, es->task);
                        return FALSE;
                }
        }
        return TRUE;
}

/* [policy] keys (and --set policy.KEY) are for whichever policy runs; one
 * that this policy does not have changes nothing here: said, and recorded
 * in summary.json ("warnings").  `run` of one policy refuses it instead
 * (sim_policy_key_unused()). */
static void note_unused_policy_keys(struct sim *sim)
{
        g_autofree char *unused = sim_policy_key_unused(sim->sc, sim->policy);

        if (unused) {
                g_autofree char *where = scenario_where(sim->sc, "policy", unused);

                g_ptr_array_add(sim->warnings, g_strdup_printf("%s: policy %s has no key '%s': ignored in its runs",
                                                               where, sim->policy->name, unused));
        }
}

/* [rcu] keys only the other flavour reads change nothing in this run.  The
 * flavour may come from the policy (rcu-boost runs Tree RCU, the 2007
 * policies rcupreempt) and the shipped scenarios set both flavours' keys
 * for a compare of every policy, so the command warns of a key only when
 * none of the policies it runs reads it (cli_warn_unused_rcu_keys()). */
GPtrArray *sim_rcu_keys_unused(const struct sim *sim)
{
        static const char *const tree_only[] = { "fanout_leaf", "kthread_prio", "rcuc_thread", "qovld", "qhimark",
                                                 "jiffies_till_first_fqs", "jiffies_till_next_fqs", "fqs_snapshot",
                                                 NULL };
        static const char *const rcupreempt_only[] = { "callback_thread", NULL };
        const struct scenario *sc = sim->sc;
        bool tree = !strcmp(sim->rcu.flavour->name, "tree");
        GPtrArray *unused = g_ptr_array_new_with_free_func(g_free);
        g_auto(GStrv) keys = g_key_file_get_keys(sc->kf, "rcu", NULL, NULL);

        for (char **k = keys; k && *k; k++)         /* in the file's order */
                if (g_strv_contains(tree ? rcupreempt_only : tree_only, *k) && !(tree && sc->rcu_flavour))
                        g_ptr_array_add(unused, g_strdup(*k));  /* (flavour=tree in the file: the loader warns) */
        return unused;
}

char *sim_rcu_key_unused_text(const char *where, const char *policies, bool several, const char *flavour)
{
        return g_strdup_printf("%s: has no effect under %s %s (RCU %s): only %s reads it", where,
                               several ? "policies" : "policy", policies, flavour,
                               strcmp(flavour, "tree") ? "tree" : "rcupreempt");
}

char *sim_policy_key_unused(const struct scenario *sc, const struct boost_policy_ops *ops)
{
        g_auto(GStrv) keys = g_key_file_get_keys(sc->kf, "policy", NULL, NULL);

        for (char **k = keys; k && *k; k++)
                if (!policy_key_find(ops, *k))
                        return g_strdup(*k);
        return NULL;
}

const char *sim_policy_name(const struct sim *sim)
{
        return sim->policy->name;
}

const char *sim_rcu_flavour(const struct sim *sim)
{
        return sim->rcu.flavour->name;
}

const GPtrArray *sim_warnings(const struct sim *sim)
{
        return sim->warnings;
}

double sim_estimate_events(const struct sim *sim)
{
        double horizon = (double)sim->end_ns;
        double events = sim->ncpus * horizon / (double)sim->tick_ns + horizon / (double)sim->sc->memory_sample_ns;

        for (guint i = 0; i < sim->tasks->len; i++) {
                const struct task *t = g_ptr_array_index(sim->tasks, i);
                struct program_cost c;
                double active;

                if (!t->prog || t->start_ns >= sim->end_ns)
                        continue;
                active = (double)(MIN(t->stop_ns, sim->end_ns) - t->start_ns);
                program_estimate(t->prog, &c);
                if (t->period_ns)
                        events += active / (double)t->period_ns * (c.events + 2);
                else if (c.forever && c.time_ns > 0)
                        events += active / c.time_ns * c.events;
                else
                        events += c.events;
        }
        /* [output] max_events bounds it. */
        return sim->sc->max_events > 0 ? MIN(events, (double)sim->sc->max_events) : events;
}

gboolean sim_check(const struct scenario *sc, const char *policy, GError **error)
{
        struct sim *sim = sim_new(sc, &(struct sim_options){ .policy = policy }, error);

        sim_free(sim);
        return sim != NULL;
}


/* Every [expect] line this policy will be held to names a metric its
 * summary will have, with a value of the right kind: found now, not after
 * the run (the keys do not depend on what happens in it). */
static gboolean check_expectations(struct sim *sim, GError **error)
{
        g_autoptr(RcbReport) r = NULL;

        for (guint i = 0; i < sim->sc->expectations->len; i++) {
                const struct expectation *x = g_ptr_array_index(sim->sc->expectations, i);

                if (!expect_applies_to(x, sim->policy->name, sim->rcu.flavour->name))
                        continue;
                if (!r)
                        r = sim_build_report(sim);
                if (!expect_check(x, r, error))
                        return FALSE;
        }
        return TRUE;
}

gboolean sim_kernel_env(const struct scenario *sc, const char *policy, struct kernel_env *env, GError **error)
{
        const struct boost_policy_ops *ops = policy_find(policy);
        const struct rcu_flavour_ops *flavour;

        if (!ops) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                            "unknown policy '%s' (expected one of: %s)", policy, policy_names());
                return FALSE;
        }
        flavour = rcu_flavour_for(sc, ops, error);
        return flavour && kernel_env_resolve(sc, flavour->name, env, error);
}

const struct kernel_env *sim_kernel(const struct sim *sim)
{
        return &sim->env;
}

bool sim_cpu_tick_stopped(const struct sim *sim, int cpu)
{
        return sim->cpus[cpu].tick_stopped;
}

static void reader_switch_out(struct sim *sim, struct task *t, int why)
{
        rcu_note_switch_out(sim, t, (enum rcu_block_reason)why);
}

/* The scheduler folder's calls up, to RCU and the timer softirq (and, inside
 * it, to the PI mutexes and boost tracking). */
static const struct sched_hooks engine_sched_hooks = {
        .tick = rcu_tick,
        .context_switch = rcu_note_context_switch,
        .reader_switch_out = reader_switch_out,
        .eqs_enter = rcu_eqs_enter,
        .eqs_exit = rcu_eqs_exit,
        .needs_cpu = rcu_needs_cpu,
        .pi_prio = mutex_pi_prio,
        .waiter_prio_changed = mutex_waiter_prio_changed,
        .prio_changed = boosts_prio_changed,
        .read_lock = rcu_read_lock,
        .read_unlock = rcu_read_unlock,
        .call_rcu = rcu_call,
        .synchronize_rcu = rcu_synchronize,
        .mutex_waiter_added = rcu_check_deadlock,
        .timeout_expired = softirq_timeout_expired,
};

struct sim *sim_new(const struct scenario *sc, const struct sim_options *opts, GError **error)
{
        struct sim *sim = g_new0(struct sim, 1);
        const char *policy = opts && opts->policy ? opts->policy : sc->policy;
        struct policy_params params = { .sc = sc };
        const struct rcu_flavour_ops *flavour;

        sim->sc = sc;
        sim->seed = opts && opts->seed_set ? opts->seed : sc->seed;
        sim->interrupt = opts ? opts->interrupt : NULL;
        sim->out_lock = -1;
        sim->warnings = g_ptr_array_new_with_free_func(g_free);
        sim->rtwait_waiting = g_ptr_array_new();
        sim->rtwait_on = g_new0(GPtrArray *, sc->ncpus);
        for (int c = 0; c < sc->ncpus; c++)
                sim->rtwait_on[c] = g_ptr_array_new();
        sim->ptimers = g_ptr_array_new_with_free_func(g_free);
        boosts_init(sim);
        sim->params_in_effect = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
        sim->ncpus = sc->ncpus;
        sim->end_ns = sc->duration_ns;
        memcpy(sim->cost_ns, sc->cost_ns, sizeof(sim->cost_ns));
        sim->end_reason = "running";
        eventq_init(&sim->q);
        sim->tasks = g_ptr_array_new_with_free_func((GDestroyNotify)task_free);
        oracle_init(&sim->oracle);
        latency_stat_init(&sim->rt_wakeup);
        latency_stat_init(&sim->rt_top);
        event_init(&sim->end_ev, end_event);
        event_init(&sim->sample_ev, sample_event);
        sim->timeline = timeline_new(NULL, TIMELINE_CSV, 0, 0, sim->ncpus);

        /* the policy decides the flavour, the flavour the kernel generation */
        sim->policy = policy_find(policy);
        if (!sim->policy) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                            "unknown policy '%s' (expected one of: %s)", policy, policy_names());
                goto fail;
        }
        flavour = rcu_flavour_for(sc, sim->policy, error);
        if (!flavour || !kernel_env_resolve(sc, flavour->name, &sim->env, error))
                goto fail;
        sim->tick_ns = MAX(1, NSEC_PER_SEC / sim->env.tick_hz);
        if (sim->env.phases_drawn) {
                /* The kernel's tick grid and RT period began at boot, not with
                 * the run: their phases against the scenario's times are the
                 * seed's (from their own stream: no task's draws move). */
                gsl_rng *rng = dist_rng_new(sim->seed, "phases");

                sim->tick_phase_ns = (sim_time_ns)(gsl_rng_uniform(rng) * (double)sim->tick_ns);
                sim->rt_period_phase_ns = 1 + (sim_time_ns)(gsl_rng_uniform(rng) * (double)(sc->rt_period_ns - 1));
                sim->phase_seed = (uint64_t)gsl_rng_get(rng) << 32 | gsl_rng_get(rng);
                gsl_rng_free(rng);
        }
        sim->sched_hooks = &engine_sched_hooks;
        sched_init(sim);
        rcu_init(sim, flavour);
        if (!scenario_check_policy(sc, sim->policy, error))
                goto fail;
        sim->nmutexes = (int)sc->mutexes->len;
        sim->mutexes = g_new0(struct mutex, MAX(1, sim->nmutexes));
        for (int i = 0; i < sim->nmutexes; i++)
                mutex_init(&sim->mutexes[i], i, g_ptr_array_index(sc->mutexes, i));

        create_tasks(sim);
        rcu_start(sim);
        softirq_start(sim);
        params.ops = sim->policy;
        {
                GError *e = NULL;

                sim->policy_hook = "create";
                g_atomic_int_inc(&runs_in_progress);
                sim->pol = sim->policy->create(sim, &params, &e);
                g_atomic_int_dec_and_test(&runs_in_progress);
                sim->coverage_on = opts && opts->coverage && sim->pol && sim->policy->state_of;
                sim->events_on = opts && opts->coverage;
                sim->policy_hook = NULL;
                if (!sim->pol && !e) {
                        g_autofree char *who = policy_describe(sim->policy);

                        e = g_error_new(POLICY_ERROR, POLICY_ERROR_CONTRACT,
                                        "%s, in create: returned NULL without saying why (a GError)", who);
                }
                if (!sim->pol) {
                        /* its own words, marked as create()'s: hunt tells a policy that
                         * cannot run a scenario from a scenario that cannot be run */
                        g_set_error_literal(error, POLICY_ERROR, POLICY_ERROR_CREATE, e->message);
                        g_error_free(e);
                        goto fail;
                }
                g_clear_error(&e);      /* an error set beside a policy made: the policy is what counts */
        }

        sim->ntimed = (int)sc->events->len;
        sim->timed = g_new0(struct timed_event, MAX(1, sim->ntimed));
        for (int i = 0; i < sim->ntimed; i++) {
                sim->timed[i].spec = g_ptr_array_index(sc->events, i);
                event_init(&sim->timed[i].ev, timed_event);
                eventq_schedule(&sim->q, &sim->timed[i].ev, sim->timed[i].spec->at_ns);
        }
        index_task_names(sim);
        if (!check_events(sim, error) || !check_expectations(sim, error))
                goto fail;
        note_unused_policy_keys(sim);
        /* everything that can be checked before an earlier run's outputs are removed */
        if (opts && opts->trace && !trace_path_check(sc, opts, error))
                goto fail;
        if (opts && opts->out_dir && !opts->summary_only && !sim_check_memory(sim, error))
                goto fail;
        if (opts && opts->out_dir) {
                sim->out_lock = output_dir_claim(opts->out_dir, sim_out_kind(opts), sim_output_names, error);
                if (sim->out_lock < 0)
                        goto fail;
                sim->out_dir = g_strdup(opts->out_dir);
                sim->out_kind = g_strdup(sim_out_kind(opts));
                sim->summary_only = opts->summary_only;
                if (!sim->summary_only && !open_outputs(sim, error))
                        goto fail;
        }
        if (opts && opts->trace) {
                g_autofree char *dir = g_path_get_dirname(opts->trace);
                g_autofree char *base = g_path_get_basename(opts->trace);

                sim->trace_out = outfile_open(dir, base, error);
                if (!sim->trace_out)
                        goto fail;
                sim->tracepoints = opts->trace_format != SIM_TRACE_JSON;
                timeline_chain(sim->timeline, timeline_new(outfile_stream(sim->trace_out),
                                                           opts->trace_format == SIM_TRACE_FTRACE ? TIMELINE_FTRACE
                                                           : opts->trace_format == SIM_TRACE_DAT ? TIMELINE_TRACEDAT
                                                                                                 : TIMELINE_CHROME_JSON,
                                                           opts->trace_length_ns ? opts->trace_start_ns : 0,
                                                           opts->trace_length_ns ? opts->trace_length_ns
                                                                                 : SIM_TIME_NEVER / 2,
                                                           sim->ncpus));
        }
        sim->timeline_on = timeline_recording(sim->timeline);
        sched_start(sim);
        eventq_schedule(&sim->q, &sim->sample_ev, 0);
        eventq_schedule(&sim->q, &sim->end_ev, sim->end_ns);
        return sim;
fail:
        sim_free(sim);
        return NULL;
}

const uint64_t *sim_policy_coverage(const struct sim *sim)
{
        return sim->coverage;
}

bool sim_is_policy_thread(const struct sim *sim, const char *name)
{
        for (guint i = 0; i < sim->tasks->len; i++) {
                const struct task *t = g_ptr_array_index(sim->tasks, i);

                if (t->policy_thread && !strcmp(t->name, name))
                        return true;
        }
        return false;
}

void sim_engine_coverage(const struct sim *sim, uint64_t *bits)
{
        memcpy(bits, sim->events, sizeof(sim->events));
}

void sim_free(struct sim *sim)
{
        if (!sim)
                return;
        if (sim->pol && sim->policy->destroy)
                sim->policy->destroy(sim->pol);
        ptimer_free_all(sim);
        boosts_finish(sim);
        outfile_abort(sim->memory_out);
        outfile_abort(sim->gp_out);
        outfile_abort(sim->boost_out);
        outfile_abort(sim->timeline_out);
        outfile_abort(sim->trace_out);
        timeline_free(sim->timeline);
        stall_report_free(sim->stall);
        rcu_finish(sim);
        softirq_finish(sim);
        sched_finish(sim);
        for (int i = 0; i < sim->nmutexes; i++)
                mutex_finish(&sim->mutexes[i]);
        g_free(sim->mutexes);
        if (sim->tasks_named)
                g_hash_table_destroy(sim->tasks_named);
        g_ptr_array_unref(sim->warnings);
        g_ptr_array_unref(sim->rtwait_waiting);
        for (int c = 0; sim->rtwait_on && c < sim->ncpus; c++)
                g_ptr_array_unref(sim->rtwait_on[c]);
        g_free(sim->rtwait_on);
        if (sim->params_in_effect)
                g_hash_table_destroy(sim->params_in_effect);
        g_ptr_array_unref(sim->tasks);
        g_free(sim->wakeup_ranges);
        oracle_finish(&sim->oracle);
        latency_stat_finish(&sim->rt_wakeup);
        latency_stat_finish(&sim->rt_top);
        eventq_finish(&sim->q);
        g_free(sim->timed);
        g_free(sim->out_dir);
        g_free(sim->out_kind);
        output_dir_unlock(sim->out_lock);
        if (sim->report)
                report_free(sim->report);
        g_clear_error(&sim->run_error);
        g_free(sim);
}

/* ---- the event loop ---- */


/* Resident memory of this process, in bytes (0 if unknown). */
static int64_t resident_bytes(void)
{
        g_autofree char *statm = NULL;
        long long size, resident;

        if (!g_file_get_contents("/proc/self/statm", &statm, NULL, NULL) ||
            sscanf(statm, "%lld %lld", &size, &resident) != 2)
                return 0;
        return (int64_t)resident * 4096;
}

/* How often the guards look for an interrupt; the resident size is read
 * every 64 of these. */
#define GUARD_EVERY 1024

/* Guards checked between events.  Returns the event count at which to
 * look again: the budget exactly, else the next multiple of GUARD_EVERY,
 * so that the loop compares one number per event. */
static uint64_t check_guards(struct sim *sim)
{
        int64_t budget = sim->sc->max_events;
        uint64_t fired = sim->q.fired, next = (fired / GUARD_EVERY + 1) * GUARD_EVERY;

        if (budget && fired >= (uint64_t)budget)
                sim_stop(sim, "event-budget", NULL);
        if (sim->interrupt && *sim->interrupt)
                sim_stop(sim, "interrupted", NULL);
        if (sim->sc->max_memory_bytes && (fired & (64 * GUARD_EVERY - 1)) == 0 &&
            resident_bytes() > sim->sc->max_memory_bytes)
                sim_stop(sim, "memory-budget", NULL);
        if (budget && fired < (uint64_t)budget)
                next = MIN(next, (uint64_t)budget);
        return next;
}

bool sim_any_in_progress(void)
{
        return g_atomic_int_get(&runs_in_progress) > 0;
}

static void run_events(struct sim *sim, int64_t t_ns, uint64_t events);

/* Up to @t_ns or @events events, whichever first. */
static void run_for(struct sim *sim, int64_t t_ns, uint64_t events)
{
        g_atomic_int_inc(&runs_in_progress);
        run_events(sim, t_ns, events);
        g_atomic_int_dec_and_test(&runs_in_progress);
}

static void run_events(struct sim *sim, int64_t t_ns, uint64_t events)
{
        uint64_t stop_at = sim->q.fired + MIN(events, UINT64_MAX - sim->q.fired);
        uint64_t guard_at = check_guards(sim);

        while (!sim->stopping) {
                struct event *ev;

                if (sim->q.fired >= stop_at) {
                        if (eventq_next_time(&sim->q) <= t_ns)
                                return;         /* more to do before t_ns */
                        break;
                }
                if (!(ev = eventq_pop_until(&sim->q, t_ns)))
                        break;
                sim->now = ev->when;
                sim->this_cpu = -1;
                ev->fn(sim, ev);
                sched_flush(sim);
#ifdef RCUBOOST_CHECKS
                sim_check_invariants(sim);
#endif
                if (sim->q.fired >= guard_at)
                        guard_at = check_guards(sim);
        }
        if (!sim->stopping && sim->now < t_ns)
                sim->now = MIN(t_ns, sim->end_ns);
}

void sim_run_until(struct sim *sim, int64_t t_ns)
{
        run_for(sim, t_ns, UINT64_MAX);
}

bool sim_run_slice(struct sim *sim, int64_t step)
{
        run_for(sim, MIN(sim->now + step, sim->end_ns), 1000000);
        return !sim->stopping && sim->now < sim->end_ns;
}

void sim_run(struct sim *sim)
{
        sim_run_until(sim, sim->end_ns);
}

static void end_event(struct sim *sim, struct event *ev)
{
        (void)ev;
        sim_stop(sim, "duration", NULL);
}


static void sample_event(struct sim *sim, struct event *ev)
{
        sim_sample_memory(sim);
        eventq_schedule(&sim->q, ev, sim->now + sim->sc->memory_sample_ns);
}

static void timed_event(struct sim *sim, struct event *ev)
{
        const struct timed_event_spec *es = container_of(ev, struct timed_event, ev)->spec;

        if (es->task) {
                GPtrArray *named = g_hash_table_lookup(sim->tasks_named, es->task);

                for (guint i = 0; named && i < named->len; i++) {
                        struct task *t = g_ptr_array_index(named, i);

                        if (t->state == TASK_EXITED)
                                continue;
                        if (es->set_affinity)
                                sched_set_affinity(sim, t, &es->affinity);
                        if (es->set_sched) {
                                sched_set_class(sim, t, &es->sched);
                                if (sim->policy->setscheduler)
                                        SIM_POLICY_CALL(sim, setscheduler, sim->pol, t);
                        }
                }
        }
        for (guint i = 0; i < es->policy_keys->len; i++) {
                const char *key = g_ptr_array_index(es->policy_keys, i);
                const char *value = g_ptr_array_index(es->policy_values, i);
                GError *e = NULL;

                if (!sim->policy->set_param) {
                        e = g_error_new(SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                                        "policy %s has no parameters to change at run time",
                                        sim->policy->name);
                } else if (!sim->policy->set_param(sim->pol, key, value, &e)) {
                        /* e is set by the policy */
                }
                if (e) {
                        g_autofree char *group = g_strconcat("event:", es->name, NULL);
                        g_autofree char *k = g_strconcat("policy.", key, NULL);
                        g_autofree char *where = scenario_where(sim->sc, group, k);

                        sim_stop(sim, "error", g_error_new(SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                                                           "%s: %s", where, e->message));
                        g_error_free(e);
                        return;
                }
        }
}

/* ---- results ---- */

struct report *sim_build_report(struct sim *sim)
{
        struct report *r = report_new();
        char key[128];
        uint64_t switches = 0;
        int64_t activations = 0, overruns = 0;

        /* file names need not be UTF-8; JSON must be: shown as GLib shows them */
        {
                g_autofree char *name = g_filename_display_name(sim->sc->name);
                g_autofree char *path = g_filename_display_name(sim->sc->path);

                report_string(r, "scenario", name);
                report_string(r, "scenario_path", path);
        }
        report_string(r, "policy", sim->policy->name);
        report_int(r, "seed", (int64_t)sim->seed);
        kernel_env_report(&sim->env, r);
        /* How it was made: enough to make it again. */
        report_string(r, "rcuboost_version", RCUBOOST_VERSION);
        report_string(r, "scenario_sha256", sim->sc->sha256);
        for (char **o = sim->sc->overrides; *o; o++) {
                size_t n = strcspn(*o, "=");

                g_snprintf(key, sizeof(key), "overrides.%.*s", (int)n, *o);
                report_string(r, key, *o + n + 1);
        }
        for (const struct policy_key *pk = sim->policy->keys; pk && pk->name; pk++) {
                struct policy_params params = { .sc = sim->sc, .ops = sim->policy };
                g_autofree char *where = NULL;
                g_autofree char *v = policy_param_raw(&params, pk->name, &where);

                const int64_t *in_effect = g_hash_table_lookup(sim->params_in_effect, pk->name);

                g_snprintf(key, sizeof(key), "policy_params.%s", pk->name);
                report_string(r, key, v);
                if (in_effect) {
                        g_snprintf(key, sizeof(key), "policy_params.%s_in_effect_ns", pk->name);
                        report_int(r, key, *in_effect);
                }
        }
        guint nw = sim->sc->warnings->len + sim->warnings->len;

        for (guint i = 0; i < nw; i++) {
                guint n = sim->sc->warnings->len;

                g_snprintf(key, sizeof(key), "warnings.%u", i);
                report_string(r, key, g_ptr_array_index(i < n ? sim->sc->warnings : sim->warnings, i < n ? i : i - n));
        }
        /* an [rcu] key this run's flavour does not read: in its summary, as the
         * scenario's other warnings are (#59); the commands say it on stderr
         * only when none of the policies they run reads it
         * (cli_warn_unused_rcu_keys()) */
        g_autoptr(GPtrArray) unused_rcu = sim_rcu_keys_unused(sim);

        for (guint i = 0; i < unused_rcu->len; i++) {
                g_autofree char *where = scenario_where(sim->sc, "rcu", unused_rcu->pdata[i]);
                g_autofree char *text = sim_rcu_key_unused_text(where, sim->policy->name, false,
                                                                sim->rcu.flavour->name);

                g_snprintf(key, sizeof(key), "warnings.%u", nw + i);
                report_string(r, key, text);
        }
        report_bool(r, "complete", sim_complete(sim));
        report_string(r, "end_reason", sim->end_reason);
        if (sim->run_error)
                report_string(r, "error", sim->run_error->message);
        report_int(r, "sim_time_ns", sim->now);
        report_int(r, "duration_ns", sim->end_ns);
        report_int(r, "events", (int64_t)sim->q.fired);
        report_int(r, "cpus", sim->ncpus);
        report_int(r, "tasks", (int64_t)sim->tasks->len);
        report_int(r, "safety_violations", sim->oracle.violations);
        rcu_report(sim, r);
        for (guint i = 0; i < sim->tasks->len; i++) {
                const struct task *t = sim_task(sim, (int)i);

                activations += (int64_t)t->activations;
                overruns += (int64_t)t->overruns;
        }
        report_latency(r, "rt_wakeup_latency", &sim->rt_wakeup);
        report_latency(r, "rt_wakeup_top", &sim->rt_top);
        if (sim->rt_top_prio != PRIO_NONE) {
                g_autofree char *cls = sched_describe_prio(sim->rt_top_prio);

                report_string(r, "rt_wakeup_top.class", cls);
        } else {
                report_null(r, "rt_wakeup_top.class");
        }
        /* Per periodic task, numbered as cyclictest's T:N. */
        for (guint i = 0, n = 0; i < sim->tasks->len; i++) {
                const struct task *t = sim_task(sim, (int)i);
                g_autofree char *cls = NULL;

                if (!t->period_ns)
                        continue;
                cls = sched_describe_prio(t->normal_prio);
                g_snprintf(key, sizeof(key), "rt_tasks.%u.name", n);
                report_string(r, key, t->name);
                g_snprintf(key, sizeof(key), "rt_tasks.%u.class", n);
                report_string(r, key, cls);
                g_snprintf(key, sizeof(key), "rt_tasks.%u.period_ns", n);
                report_int(r, key, t->period_ns);
                g_snprintf(key, sizeof(key), "rt_tasks.%u.activations", n);
                report_int(r, key, (int64_t)t->activations);
                g_snprintf(key, sizeof(key), "rt_tasks.%u.overruns", n);
                report_int(r, key, (int64_t)t->overruns);
                g_snprintf(key, sizeof(key), "rt_tasks.%u.last_ns", n);
                if (t->activations)
                        report_int(r, key, t->last_wakeup_ns);
                else
                        report_null(r, key);
                g_snprintf(key, sizeof(key), "rt_tasks.%u.latency", n);
                report_latency(r, key, t->wakeup);
                if (t->wakeup_hist) {
                        g_snprintf(key, sizeof(key), "rt_tasks.%u.histogram_overflows", n);
                        report_int(r, key, (int64_t)t->wakeup_overflows);
                }
                n++;
        }
        /* Each scripted task's pace, as the real kernel's module counts it. */
        for (guint i = 0, n = 0; i < sim->tasks->len; i++) {
                const struct task *t = sim_task(sim, (int)i);

                if (!t->prog)
                        continue;
                g_snprintf(key, sizeof(key), "achieved.%u.task", n);
                report_string(r, key, t->name);
                g_snprintf(key, sizeof(key), "achieved.%u.iterations", n);
                report_int(r, key, (int64_t)t->iterations);
                g_snprintf(key, sizeof(key), "achieved.%u.call_rcu", n);
                report_int(r, key, (int64_t)t->call_rcus);
                g_snprintf(key, sizeof(key), "achieved.%u.cpu_ns", n);
                report_int(r, key, t->sum_exec_ns);
                n++;
        }
        report_int(r, "rt.activations", activations);
        report_int(r, "rt.overruns", overruns);
        rtwait_report(sim, r);
        for (int c = 0; c < sim->ncpus; c++)
                switches += sim->cpus[c].nr_switches;
        report_int(r, "sched.context_switches", (int64_t)switches);
        report_int(r, "sched.migrations", (int64_t)sim->migrations);
        for (int k = 0; k < COST_KIND_COUNT; k++) {
                g_snprintf(key, sizeof(key), "costs.%s.count", cost_table[k].key);
                report_int(r, key, (int64_t)sim->cost_count[k]);
                g_snprintf(key, sizeof(key), "costs.%s.ns", cost_table[k].key);
                report_int(r, key, sim->cost_total_ns[k]);
        }
        for (int p = 0; p < COST_PATH_COUNT; p++) {
                g_snprintf(key, sizeof(key), "costs.by_path.%s_ns", cost_path_names[p]);
                report_int(r, key, sim->path_total_ns[p]);
        }
        for (guint i = 0; i < sim->tasks->len; i++) {
                const struct task *t = sim_task(sim, (int)i);

                if (t->kthread) {
                        g_snprintf(key, sizeof(key), "kthreads.%s.cpu_ns", t->name);
                        report_int(r, key, t->sum_exec_ns);
                }
        }
        softirq_report(sim, r);
        boosts_report(sim, r);
        if (sim->policy->report)
                sim->policy->report(sim->pol, r);
        stall_report_keys(sim, r);
        return r;
}

static gboolean write_summary(struct sim *sim, GError **error)
{
        struct outfile *o = outfile_open(sim->out_dir, "summary.json", error);

        if (!o)
                return FALSE;
        report_write_json(sim->report, outfile_stream(o));
        return outfile_commit(o, error);
}

static gboolean write_latency(struct sim *sim, GError **error)
{
        struct outfile *o = outfile_open(sim->out_dir, "latency.csv", error);
        FILE *f;

        if (!o)
                return FALSE;
        f = outfile_stream(o);
        /* cyclictest -h: per task, how many wake-ups took N us (N to N+1). */
        fputs("task,latency_us,count\n", f);
        for (guint i = 0; i < sim->tasks->len; i++) {
                const struct task *t = sim_task(sim, (int)i);
                size_t end;

                if (!t->wakeup_hist || !t->wakeup->count)
                        continue;
                /* No bin above the largest wake-up latency was counted:
                 * 10,000 bins per task need not all be read. */
                end = MIN(gsl_histogram_bins(t->wakeup_hist), (size_t)(t->wakeup->max_ns / NSEC_PER_USEC) + 1);
                for (size_t b = 0; b < end; b++)
                        if (gsl_histogram_get(t->wakeup_hist, b) > 0)
                                fprintf(f, "%s,%zu,%.0f\n", t->name, b, gsl_histogram_get(t->wakeup_hist, b));
        }
        return outfile_commit(o, error);
}

static gboolean write_distributions(struct sim *sim, GError **error)
{
        struct outfile *o = outfile_open(sim->out_dir, "distributions.csv", error);

        if (!o)
                return FALSE;
        report_write_distributions(sim->report, outfile_stream(o));
        return outfile_commit(o, error);
}

/* [output] level leaves some files out. */
static gboolean commit_if_open(struct outfile *o, GError **error)
{
        return !o || outfile_commit(o, error);
}

gboolean sim_finish(struct sim *sim, GError **error)
{
        gboolean ok = TRUE;
        GError *e = NULL;

        for (int c = 0; c < sim->ncpus; c++)
                sched_update_curr(sim, &sim->cpus[c]);
        stall_check_end(sim);
        sim->report = sim_build_report(sim);
        timeline_flush(sim->timeline, sim->now);
        if (sim->trace_out && !outfile_commit(g_steal_pointer(&sim->trace_out), &e)) {
                g_propagate_error(error, e);
                return FALSE;
        }
        if (sim->out_dir && sim->summary_only) {
                if (!write_summary(sim, &e)) {
                        g_propagate_error(error, e);
                        return FALSE;
                }
        } else if (sim->out_dir) {
                sim_sample_memory(sim);
                sim->rcu.gp_csv = NULL;
                ok = commit_if_open(g_steal_pointer(&sim->memory_out), &e) &&
                     commit_if_open(g_steal_pointer(&sim->gp_out), &e) &&
                     commit_if_open(g_steal_pointer(&sim->boost_out), &e) &&
                     commit_if_open(g_steal_pointer(&sim->timeline_out), &e) &&
                     write_latency(sim, &e) && write_distributions(sim, &e) && write_summary(sim, &e);
                if (!ok) {
                        /* No partial set either: what was renamed into place goes too. */
                        output_dir_prepare(sim->out_dir, sim->out_kind, sim_output_names, NULL);
                        g_propagate_error(error, e);
                        return FALSE;
                }
        }
        if (sim->run_error) {
                g_set_error_literal(error, sim->run_error->domain, sim->run_error->code,
                                    sim->run_error->message);
                return FALSE;
        }
        return TRUE;
}

const struct report *sim_report(const struct sim *sim)
{
        return sim->report;
}

int64_t sim_now(const struct sim *sim)
{
        return sim->now;
}

int64_t sim_end_time(const struct sim *sim)
{
        return sim->end_ns;
}

uint64_t sim_events(const struct sim *sim)
{
        return sim->q.fired;
}

const char *sim_end_reason(const struct sim *sim)
{
        return sim->end_reason;
}

bool sim_complete(const struct sim *sim)
{
        return sim->run_error == NULL &&
               (!strcmp(sim->end_reason, "duration") || !strcmp(sim->end_reason, "oom"));
}

int64_t sim_safety_violations(const struct sim *sim)
{
        return sim->oracle.violations;
}

const char *const *sim_violation_details(const struct sim *sim)
{
        /* Keep a NULL at the end for callers that iterate. */
        if (sim->oracle.details->len == 0 || g_ptr_array_index(sim->oracle.details,
                                                                sim->oracle.details->len - 1) != NULL)
                g_ptr_array_add(sim->oracle.details, NULL);
        return (const char *const *)sim->oracle.details->pdata;
}

static char *fmt_dur(const struct report *r, const char *key)
{
        double v = 0;

        if (!report_lookup(r, key, &v))
                return g_strdup("-");
        return units_format_duration((int64_t)v);
}

static double value_of(const struct report *r, const char *key)
{
        double v = 0;

        report_lookup(r, key, &v);
        return v;
}

/* cyclictest's lines: T:N (pid) P:prio I:interval C:count Min Act Avg Max, in us. */
static void print_rt_tasks(const struct sim *sim, FILE *f)
{
        guint n = 0;

        for (guint i = 0; i < sim->tasks->len; i++) {
                const struct task *t = g_ptr_array_index(sim->tasks, i);

                if (!t->period_ns)
                        continue;
                if (n == 0)
                        fprintf(f, "  RT wake-up latency per periodic task (cyclictest, us):\n");
                if (t->wakeup->count)
                        fprintf(f, "  T:%2u (%5d) P:%2d I:%" G_GINT64_FORMAT " C:%7" G_GUINT64_FORMAT " Min:%7.0f Act:%7.0f "
                                "Avg:%7.0f Max:%7.0f  %s\n", n, task_pid(t),
                                t->normal_prio < PRIO_MAX_RT ? 99 - t->normal_prio : 0, t->period_ns / NSEC_PER_USEC,
                                t->activations, t->wakeup->min_ns / 1e3, t->last_wakeup_ns / 1e3,
                                latency_stat_mean(t->wakeup) / 1e3, t->wakeup->max_ns / 1e3, t->name);
                else
                        fprintf(f, "  T:%2u (%5d) P:%2d I:%" G_GINT64_FORMAT " C:%7d Min:      - Act:      - "
                                "Avg:      - Max:      -  %s\n", n, task_pid(t),
                                t->normal_prio < PRIO_MAX_RT ? 99 - t->normal_prio : 0, t->period_ns / NSEC_PER_USEC,
                                0, t->name);
                /* bench-large has 64: the first few say enough here, summary.json has all */
                if (++n == 8) {
                        fprintf(f, "  ... (all in summary.json rt_tasks, histograms in latency.csv)\n");
                        break;
                }
        }
}

void sim_print_summary(const struct sim *sim, FILE *f)
{
        const struct report *r = sim->report;
        double v;
        g_autofree char *peak = units_format_size(sim->rcu.peak_memory_bytes);
        g_autofree char *simt = units_format_duration(sim->now);

        fprintf(f, "scenario %s, policy %s, seed %" G_GUINT64_FORMAT ": %s after %s simulated, "
                "%" G_GUINT64_FORMAT " events\n", sim->sc->name, sim->policy->name, sim->seed,
                sim->end_reason, simt, sim->q.fired);
        if (sim->rcu.oom) {
                g_autofree char *when = units_format_duration(sim->rcu.oom_ns);
                g_autofree char *bytes = units_format_size(sim->rcu.oom_bytes);

                fprintf(f, "  OUT OF MEMORY at %s: %s waiting on RCU\n", when, bytes);
        }
        if (sim->rcu.tree)
                fprintf(f, "  memory waiting on RCU: peak %s; grace periods: %" G_GINT64_FORMAT " (Tree RCU)\n", peak,
                        sim->rcu.gp_completed);
        else
                fprintf(f, "  memory waiting on RCU: peak %s; grace periods: %" G_GINT64_FORMAT " (%" G_GINT64_FORMAT
                        " flips)\n", peak, sim->rcu.gp_completed, sim->rcu.flips_completed);
        static const struct { const char *label, *prefix; } lat[] = {
                { "grace period", "gp_latency" }, { "flip cycle", "flip_latency" },
                { "call_rcu->invoke", "callback_latency" },
                { "synchronize_rcu", "sync_latency" },
        };
        for (size_t i = 0; i < G_N_ELEMENTS(lat); i++) {
                char k[96];

                g_snprintf(k, sizeof(k), "%s.count", lat[i].prefix);
                if (!report_lookup(r, k, &v) || v == 0)
                        continue;
                g_snprintf(k, sizeof(k), "%s.p50_ns", lat[i].prefix);
                g_autofree char *p50 = fmt_dur(r, k);
                g_snprintf(k, sizeof(k), "%s.p99_ns", lat[i].prefix);
                g_autofree char *p99 = fmt_dur(r, k);
                g_snprintf(k, sizeof(k), "%s.max_ns", lat[i].prefix);
                /* the max counts what is still pending at the end, as at least its age */
                gboolean at_least = FALSE;
                double max_ns = 0;

                report_lookup_bound(r, k, &max_ns, &at_least);
                g_autofree char *max = units_format_duration((int64_t)max_ns);

                fprintf(f, "  %-17s p50 %-9s p99 %-9s max %s%s  (%.0f%s)\n", lat[i].label, p50, p99,
                        at_least ? ">= " : "", max, v, at_least ? "; one still pending at the end" : "");
        }
        print_rt_tasks(sim, f);
        rtwait_print(sim, f);
        /* The policy's own headline: did it boost, how soon, at what cost. */
        if (value_of(r, "policy_stats.readers_blocked") > 0 || strcmp(sim->policy->name, "none")) {
                g_autofree char *d50 = fmt_dur(r, "policy_stats.boost_delay.p50_ns");
                g_autofree char *dmax = fmt_dur(r, "policy_stats.boost_delay.max_ns");
                g_autofree char *cpu = fmt_dur(r, "policy_stats.booster_cpu_ns");

                fprintf(f, "  boosting (%s): %.0f of %.0f blocked readers boosted", sim->policy->name,
                        value_of(r, "policy_stats.readers_boosted"), value_of(r, "policy_stats.readers_blocked"));
                if (value_of(r, "policy_stats.readers_boosted") > 0 || value_of(r, "policy_stats.booster_cpu_ns") > 0)
                        fprintf(f, ", boost delay p50 %s max %s, booster CPU %s", d50, dmax, cpu);
                fputc('\n', f);
        }
        fprintf(f, "  safety violations: %" G_GINT64_FORMAT "\n", sim->oracle.violations);
        stall_print(sim, f);
}
