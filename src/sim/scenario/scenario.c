/* scenario.c - loading and validating scenario files; see scenario.h. */
#include "scenario.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "../../policies/policy.h"
#include "../rcu/tree.h"
#include "expect.h"
#include "kernel.h"

G_DEFINE_QUARK(rcuboost-scenario-error-quark, scenario_error)

#define LINE_FROM_SET (-1)

/* ---- where things are: line numbers GKeyFile does not keep ---- */

static char *line_key(const char *group, const char *key)
{
        return g_strconcat(group, "\n", key ? key : "", NULL);
}

/* Record the line of every group header and key.  GKeyFile merges a
 * repeated group and keeps the last of a repeated key; either is almost
 * always a slip (a copied [task:NAME] block), so both are refused here. */
static gboolean index_lines(GHashTable *lines, const char *data, const char *path, GError **error)
{
        g_auto(GStrv) text = g_strsplit(data, "\n", -1);
        g_autofree char *group = NULL;

        for (int i = 0; text[i]; i++) {
                g_autofree char *l = g_strstrip(g_strdup(text[i]));
                gpointer first;

                if (l[0] == '[' && strchr(l, ']')) {
                        g_free(group);
                        group = g_strndup(l + 1, strchr(l, ']') - l - 1);
                        char *k = line_key(group, NULL);

                        if (g_hash_table_lookup_extended(lines, k, NULL, &first)) {
                                g_free(k);
                                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                                            "%s:%d: [%s]: duplicate section (first at line %d; "
                                            "give it another name or merge the two)",
                                            path, i + 1, group, GPOINTER_TO_INT(first));
                                return FALSE;
                        }
                        g_hash_table_insert(lines, k, GINT_TO_POINTER(i + 1));
                } else if (group && l[0] != '#' && strchr(l, '=')) {
                        g_autofree char *key = g_strstrip(g_strndup(l, strchr(l, '=') - l));
                        char *k = line_key(group, key);

                        if (g_hash_table_lookup_extended(lines, k, NULL, &first)) {
                                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                                            "%s:%d: [%s] %s: duplicate key (first at line %d)",
                                            path, i + 1, group, key, GPOINTER_TO_INT(first));
                                g_free(k);
                                return FALSE;
                        }
                        g_hash_table_insert(lines, k, GINT_TO_POINTER(i + 1));
                }
        }
        return TRUE;
}

/* The first line GKeyFile would refuse, for its syntax errors. */
static int first_bad_line(const char *data)
{
        g_auto(GStrv) text = g_strsplit(data, "\n", -1);

        for (int i = 0; text[i]; i++) {
                g_autofree char *l = g_strstrip(g_strdup(text[i]));

                if (!l[0] || l[0] == '#')
                        continue;
                if (l[0] == '[' && l[strlen(l) - 1] == ']')
                        continue;
                if (l[0] != '[' && l[0] != '=' && strchr(l, '=') && g_utf8_validate(l, -1, NULL))
                        continue;
                return i + 1;
        }
        return 0;
}

gboolean scenario_task_named(const struct scenario *sc, const char *name)
{
        for (guint i = 0; i < sc->tasks->len; i++) {
                const struct task_spec *ts = g_ptr_array_index(sc->tasks, i);
                size_t n = strlen(ts->name);
                char *end = NULL;
                guint64 copy;

                if (!strcmp(name, ts->name))
                        return TRUE;
                if (ts->count > 1 && !strncmp(name, ts->name, n) && name[n] == '.' && g_ascii_isdigit(name[n + 1])) {
                        copy = g_ascii_strtoull(name + n + 1, &end, 10);
                        if (!*end && copy < (guint64)ts->count)
                                return TRUE;
                }
        }
        return FALSE;
}

char *scenario_where(const struct scenario *sc, const char *group, const char *key)
{
        g_autofree char *k = line_key(group, key);
        gpointer v = NULL;
        gboolean found = g_hash_table_lookup_extended(sc->lines, k, NULL, &v);

        if (!found && key) {
                g_free(k);
                k = line_key(group, NULL);
                found = g_hash_table_lookup_extended(sc->lines, k, NULL, &v);
        }
        if (found && GPOINTER_TO_INT(v) == LINE_FROM_SET)
                return g_strdup_printf("--set %s.%s", group, key ? key : "");
        if (found)
                return g_strdup_printf("%s:%d: [%s]%s%s", sc->path, GPOINTER_TO_INT(v), group,
                                       key ? " " : "", key ? key : "");
        return g_strdup_printf("%s: [%s]%s%s", sc->path, group, key ? " " : "", key ? key : "");
}

static gboolean invalid(const struct scenario *sc, GError **error, const char *group,
                        const char *key, const char *fmt, ...) G_GNUC_PRINTF(5, 6);

static gboolean invalid(const struct scenario *sc, GError **error, const char *group,
                        const char *key, const char *fmt, ...)
{
        va_list ap;
        g_autofree char *msg = NULL;
        g_autofree char *where = scenario_where(sc, group, key);

        va_start(ap, fmt);
        msg = g_strdup_vprintf(fmt, ap);
        va_end(ap);
        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID, "%s: %s", where, msg);
        return FALSE;
}

/* Wrap a units/dist/program error with the key's location. */
static gboolean invalid_from(const struct scenario *sc, GError **error, const char *group,
                             const char *key, GError *cause)
{
        invalid(sc, error, group, key, "%s", cause->message);
        g_error_free(cause);
        return FALSE;
}

/* ---- typed getters: absent keys keep the default already in *out ---- */

static char *get(const struct scenario *sc, const char *group, const char *key)
{
        char *v = g_key_file_get_value(sc->kf, group, key, NULL);

        return v ? g_strstrip(v) : NULL;
}

/* @key names one of two words: *@which is 0 for @first, 1 for @second, -1
 * when it is absent; anything else is refused, saying @what it should be. */
static gboolean get_either(const struct scenario *sc, const char *group, const char *key, const char *what,
                           const char *first, const char *second, int *which, GError **error)
{
        g_autofree char *v = get(sc, group, key);

        *which = -1;
        if (!v)
                return TRUE;
        if (strcmp(v, first) && strcmp(v, second))
                return invalid(sc, error, group, key, "'%s' is not %s (expected %s or %s)", v, what, first, second);
        *which = strcmp(v, first) ? 1 : 0;
        return TRUE;
}

static gboolean get_duration(struct scenario *sc, const char *group, const char *key,
                             int64_t *out, gboolean positive, GError **error)
{
        g_autofree char *v = get(sc, group, key);
        GError *e = NULL;

        if (!v)
                return TRUE;
        if (!units_parse_duration(v, out, &e))
                return invalid_from(sc, error, group, key, e);
        if (positive && *out <= 0)
                return invalid(sc, error, group, key, "'%s' must be greater than zero", v);
        return TRUE;
}

static gboolean get_size(struct scenario *sc, const char *group, const char *key, int64_t *out,
                         GError **error)
{
        g_autofree char *v = get(sc, group, key);
        GError *e = NULL;

        if (v && !units_parse_size(v, out, &e))
                return invalid_from(sc, error, group, key, e);
        return TRUE;
}

static gboolean get_int(struct scenario *sc, const char *group, const char *key, int64_t min,
                        int64_t max, int64_t *out, GError **error)
{
        g_autofree char *v = get(sc, group, key);
        GError *e = NULL;

        if (v && !units_parse_int(v, min, max, out, &e))
                return invalid_from(sc, error, group, key, e);
        return TRUE;
}

static gboolean get_bool(struct scenario *sc, const char *group, const char *key, gboolean *out,
                         GError **error)
{
        g_autofree char *v = get(sc, group, key);
        GError *e = NULL;

        if (v && !units_parse_bool(v, out, &e))
                return invalid_from(sc, error, group, key, e);
        return TRUE;
}

static gboolean get_sched(struct scenario *sc, const char *group, const char *key,
                          struct sched_spec *out, GError **error)
{
        g_autofree char *v = get(sc, group, key);
        GError *e = NULL;

        if (v && !units_parse_sched(v, out, &e))
                return invalid_from(sc, error, group, key, e);
        return TRUE;
}

/* ---- key lists per section ---- */

const struct scenario_key_doc scenario_key_docs[] = {
        { "scenario", "description", "", "one line shown by tools" },
        { "scenario", "cpus", "1", "number of CPUs (1..1024)" },
        { "scenario", "kernel", "the flavour's", "kernel generation whose environment the run models: 2.6.22-rt (the article's; flavour=rcupreempt's default) or 6.1-rt (Debian 12's rt kernel; flavour=tree's default); the keys marked 'kernel's' take their defaults from it" },
        { "scenario", "tick_hz", "kernel's", "scheduling-clock ticks per second on each CPU (CONFIG_HZ: 1000 on 2.6.22-rt, 250 on 6.1-rt)" },
        { "scenario", "nohz_idle", "kernel's", "an idle CPU without RCU callbacks stops its tick and is in an extended quiescent state found by the FQS scan (CONFIG_NO_HZ_IDLE; flavour=tree only; false on 2.6.22-rt, true on 6.1-rt)" },
        { "scenario", "duration", "10s", "simulated time to run" },
        { "scenario", "seed", "1", "random seed (run --seed overrides)" },
        { "scenario", "policy", "none", "boosting policy when --policy is not given" },
        { "scenario", "imported_from", "", "NAME@SHA256: rcuboost import wrote this from a trace of scenario NAME's real-kernel run (the file whose sha256 that is); compare --real takes NAME's runs as this scenario's" },
        { "scenario", "skew_tick", "false", "offset each CPU's tick by cpu * half a tick / cpus (the kernel's skew_tick=1)" },
        { "scenario", "kernel_layer", "source", "6.1-rt's timer and RT-placement layer: legacy (rcuboost's before #46: timers at the expiry jiffy, hrtimer sleeps hard, RT pulls from any CPU, vruntime kept across a class change, phases aligned) or source (as the 6.1 source has it: calc_index()'s round-up, soft sleeps for tasks not RT, cpupri levels and pull_rt_task()'s rules, re-based vruntime, phases drawn; docs/design.md cites each); 2.6.22-rt is the same under both" },
        { "scenario", "phases", "the layer's", "drawn: the phases a scenario does not fix -- the tick grid and the RT throttling period against the run's start, the order of ticks that fall at one instant on different CPUs -- are drawn from the seed, so that a timing-decided outcome is a rate over seeds (kernel_layer=source); aligned: all start with the run, CPU 0 first (2.6.22-rt and the legacy layer)" },
        { "sched", "rr_timeslice", "100ms", "SCHED_RR time slice" },
        { "sched", "rt_runtime", "kernel's", "RT throttling: RT time allowed per rt_period on each CPU, or off (sched_rt_runtime_us: off on 2.6.22-rt, 950ms on 6.1-rt)" },
        { "sched", "rt_period", "1s", "RT throttling period" },
        { "sched", "load_balance", "true", "periodic load balancing of fair tasks from the tick, capacity reduced by RT time (kernel/sched/fair.c)" },
        { "sched", "rt_runtime_share", "false", "a throttled CPU borrows unused RT runtime from the others (RT_RUNTIME_SHARE; on by default before Linux 5.10)" },
        { "sched", "softirq_threads", "true", "timer-wheel timeouts (the boosters' sleeps, rcu_preempt's FQS waits) expire in the kernel generation's per-CPU timer thread (sirq-timer/N or ktimers/N), as in the -rt kernels" },
        { "sched", "timer_softirq_thread", "kernel's", "scheduling of the timer softirq's thread: sirq-timer/N at fifo:50 on 2.6.22-rt (MAX_USER_RT_PRIO/2), ktimers/N at fifo:1 on 6.1-rt (sched_set_fifo_low())" },
        { "sched", "rt_wakeup", "kernel's", "where a waking RT task goes: last-cpu (2.6.22-rt: its last CPU if it would preempt there) or find-lowest (6.1-rt select_task_rq_rt(): away from a pinned or more urgent RT task, to find_lowest_rq()'s CPU)" },
        { "sched", "sched_latency", "6ms", "fair class: period over which runnable tasks share a CPU (unset on 6.1-rt: scaled by 1 + ilog2(min(cpus, 8)), as the kernel boots; the same for the two below)" },
        { "sched", "min_granularity", "750us", "fair class: shortest slice before a tick may preempt" },
        { "sched", "wakeup_granularity", "1ms", "fair class: vruntime lead a waking task needs to preempt" },
        { "rcu", "memory_limit", "off", "memory waiting on RCU at which the machine is out of memory" },
        { "rcu", "stop_on_oom", "true", "stop the run at the first out-of-memory event" },
        { "rcu", "stall_threshold", "3500ms", "waits longer than this count as failures (rcutorture's test_boost_duration 4 s - HZ/2)" },
        { "rcu", "callback_thread", "fifo:50", "flavour=rcupreempt: scheduling of the per-CPU callback threads rcu_cb/N" },
        { "rcu", "flavour", "the policy's", "rcupreempt (2007 -rt, src/sim/rcu/rcu.c) or tree (mainline preemptible Tree RCU, src/sim/rcu/tree.c); rcu-boost runs only on tree, every other policy defaults to rcupreempt" },
        { "rcu", "fanout_leaf", "16", "flavour=tree: CPUs per leaf rcu_node (CONFIG_RCU_FANOUT_LEAF, 2..64)" },
        { "rcu", "rcuc_thread", "auto", "flavour=tree: scheduling of rcuc/N (rcu_cpu_kthread_setup(): SCHED_FIFO kthread_prio with CONFIG_RCU_BOOST, i.e. under rcu-boost, else SCHED_NORMAL)" },
        { "rcu", "kthread_prio", "kernel's", "flavour=tree: SCHED_FIFO priority of rcu_preempt and rcub/N, and of rcuc/N with CONFIG_RCU_BOOST, 0 = SCHED_NORMAL (rcutree.kthread_prio: 1 with CONFIG_RCU_BOOST, i.e. under rcu-boost, else 0)" },
        { "rcu", "qovld", "20000", "flavour=tree: callbacks on one CPU that mark it overloaded: FQS every third of the interval, boosting without boost_delay (rcutree.qovld)" },
        { "rcu", "qhimark", "10000", "flavour=tree: callbacks one CPU queues past its last check that make call_rcu() force a quiescent-state scan (rcutree.qhimark; 0: never)" },
        { "rcu", "jiffies_till_first_fqs", "3 + cpus/256", "flavour=tree: jiffies from grace-period start to the first FQS scan (rcutree.jiffies_till_first_fqs; default as rcu_init_geometry() for HZ > 500)" },
        { "rcu", "jiffies_till_next_fqs", "3 + cpus/256", "flavour=tree: jiffies between later FQS scans (rcutree.jiffies_till_next_fqs)" },
        { "rcu", "fqs_snapshot", "stale", "flavour=tree: when each CPU took the n_force_qs snapshot that decides whether its first qhimark crossing forces a scan: stale (at boot, FQS scans since: the crossing only re-takes it) or fresh (CPUs 1 and up onlined as the run began, as a guest booted with maxcpus=1: the crossing forces a scan if none came since the start)" },
        { "costs", "context_switch", "1us", "switching from one task to another" },
        { "costs", "lock", "60ns", "acquiring and releasing an uncontended spinlock" },
        { "costs", "list_op", "10ns", "linking or unlinking a list element" },
        { "costs", "atomic_op", "40ns", "an atomic read-modify-write such as cmpxchg" },
        { "costs", "prio_change", "300ns", "recomputing and applying a task's priority" },
        { "costs", "callback", "200ns", "invoking one RCU callback" },
        { "costs", "rcu_read_lock", "5ns", "outermost rcu_read_lock() fast path" },
        { "costs", "rcu_read_unlock", "5ns", "outermost rcu_read_unlock() fast path" },
        { "output", "memory_sample", "1ms", "interval of memory.csv rows" },
        { "output", "max_events", "0", "event budget: stop (incomplete) after this many events; 0 = none" },
        { "output", "max_memory", "0", "host-memory budget: stop (incomplete) above this RSS; 0 = none" },
        { "output", "timeline_start", "0", "start of the timeline.csv window" },
        { "output", "timeline_length", "100ms", "length of the timeline.csv window" },
        { "output", "level", "full", "full: every file; series: no timeline.csv; summary: only the fixed-size files (summary.json, latency.csv, distributions.csv)" },
        { "output", "rt_histogram", "10ms", "latency.csv: periodic tasks' wake-up latency in 1 us buckets up to this (cyclictest -h)" },
        { "debug", "break_grace_periods", "false", "TEST ONLY: grace periods stop waiting for readers" },
        { "policy / policy:NAME", "KEY", "", "policy parameters: see `rcuboost policies`" },
        { "mutex:NAME", "description", "", "declares a priority-inheriting mutex" },
        { "task:NAME", "program", "(required)", "what the task does, e.g. loop { compute 1ms; sleep 1ms }" },
        { "task:NAME", "sched", "normal:0", "fifo:1..99, rr:1..99, rt:1..99 (as fifo) or normal:-20..19" },
        { "task:NAME", "affinity", "all", "CPUs it may run on, e.g. 0-3,6; each: copy i of count=N on CPU i mod cpus" },
        { "task:NAME", "count", "1", "copies, named NAME.0, NAME.1, ..." },
        { "task:NAME", "start", "0", "when it first wakes" },
        { "task:NAME", "start_in", "", "TASK: it wakes instead at TASK's first rcu_read_lock at or after start, woken by TASK from inside the section" },
        { "task:NAME", "stop", "never", "it exits at the first safe statement boundary after this" },
        { "task:NAME", "period", "none", "periodic: the program runs once per release (cyclictest latency)" },
        { "task:NAME", "description", "", "" },
        { "irq:NAME", "interval", "(required)", "time between the device's interrupts, e.g. exp(1ms)" },
        { "irq:NAME", "handler", "(required)", "CPU time the handler thread irq/NUMBER-NAME takes per interrupt, e.g. 20us" },
        { "irq:NAME", "cpu", "0", "the CPU the interrupt is routed to; the thread is pinned there" },
        { "irq:NAME", "sched", "fifo:50", "the handler thread's scheduling (MAX_USER_RT_PRIO/2 in -rt)" },
        { "irq:NAME", "number", "16, 17, ...", "the IRQ number in the thread's name" },
        { "irq:NAME", "start", "0", "no interrupt before this" },
        { "event:NAME", "at", "(required)", "when the change happens" },
        { "event:NAME", "task", "", "task to change (all copies)" },
        { "event:NAME", "sched", "", "its new scheduling class and priority" },
        { "event:NAME", "affinity", "", "its new affinity" },
        { "event:NAME", "policy.KEY", "", "a new value for a policy parameter" },
        { "expect", "POLICY.METRIC", "", "an assertion for `rcuboost check`, e.g. booster.gp_latency.max<=35ms" },
        { "expect", "seeds", "1", "runs per policy for `rcuboost check` (seeds S..S+N-1); OUTCOME_rate assertions count over them" },
        { NULL, NULL, NULL, NULL },
};

static const char *const scenario_keys[] = { "description", "cpus", "kernel", "tick_hz", "nohz_idle", "duration",
                                             "seed", "policy", "skew_tick", "phases", "kernel_layer", "imported_from",
                                             NULL };
static const char *const sched_keys[] = { "rr_timeslice", "rt_runtime", "rt_period", "rt_runtime_share",
                                          "load_balance", "softirq_threads", "timer_softirq_thread", "rt_wakeup",
                                          "sched_latency", "min_granularity", "wakeup_granularity", NULL };
static const char *const rcu_keys[] = { "memory_limit", "stop_on_oom", "callback_thread", "stall_threshold",
                                        "flavour", "fanout_leaf", "kthread_prio", "rcuc_thread", "qovld", "qhimark",
                                        "jiffies_till_first_fqs", "jiffies_till_next_fqs", "fqs_snapshot", NULL };
static const char *const output_keys[] = { "memory_sample", "max_events", "max_memory", "timeline_start",
                                           "timeline_length", "rt_histogram", "level", NULL };
static const char *const debug_keys[] = { "break_grace_periods", NULL };
static const char *const mutex_keys[] = { "description", NULL };
static const char *const task_keys[] = { "sched", "affinity", "count", "start", "start_in", "stop", "period",
                                         "program", "description", NULL };
static const char *const irq_keys[] = { "number", "cpu", "interval", "handler", "sched", "start",
                                        "description", NULL };
static const char *const event_keys[] = { "at", "task", "sched", "affinity", "description", NULL };

static gboolean check_keys(struct scenario *sc, const char *group, const char *const *known,
                           gboolean allow_policy_keys, GError **error)
{
        g_auto(GStrv) keys = g_key_file_get_keys(sc->kf, group, NULL, NULL);

        for (char **k = keys; k && *k; k++) {
                if (g_strv_contains(known, *k))
                        continue;
                if (allow_policy_keys && g_str_has_prefix(*k, "policy.") &&
                    policy_any_key(*k + strlen("policy.")))
                        continue;
                g_autofree char *list = g_strjoinv(", ", (char **)known);

                return invalid(sc, error, group, *k, "unknown key (expected one of: %s%s)", list,
                               allow_policy_keys ? ", policy.KEY" : "");
        }
        return TRUE;
}

static gboolean valid_name(const char *s)
{
        if (!*s || strlen(s) > 64)
                return FALSE;
        for (const char *p = s; *p; p++)
                if (!g_ascii_isalnum(*p) && *p != '_' && *p != '-')
                        return FALSE;
        return TRUE;
}

/* ---- sections ---- */

static gboolean load_scenario_section(struct scenario *sc, GError **error)
{
        const char *g = "scenario";
        int64_t v;

        if (!g_key_file_has_group(sc->kf, g)) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                            "%s: no [scenario] section (a scenario needs at least [scenario] "
                            "and one [task:NAME] section)", sc->path);
                return FALSE;
        }
        if (!check_keys(sc, g, scenario_keys, FALSE, error))
                return FALSE;
        sc->description = get(sc, g, "description");
        g_autofree char *from = get(sc, g, "imported_from");
        if (from) {
                const char *at = strchr(from, '@');

                if (!at || at == from || strlen(at + 1) != 64 || strspn(at + 1, "0123456789abcdef") != 64 ||
                    strspn(from, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") !=
                    (size_t)(at - from))
                        return invalid(sc, error, g, "imported_from", "'%s' is not NAME@SHA256 (a scenario's name and "
                                       "the 64 hex digits of its file's sha256)", from);
                sc->imported_from = g_strndup(from, (gsize)(at - from));
                sc->imported_from_sha256 = g_strdup(at + 1);
        }
        v = sc->ncpus;
        if (!get_int(sc, g, "cpus", 1, SIM_MAX_CPUS, &v, error))
                return FALSE;
        sc->ncpus = (int)v;
        g_autofree char *kernel = get(sc, g, "kernel");
        if (kernel) {
                if (!kernel_generation(kernel))
                        return invalid(sc, error, g, "kernel", "'%s' is not a kernel generation (expected one of: %s)",
                                       kernel, kernel_generation_names());
                sc->kernel = g_steal_pointer(&kernel);
        }
        v = sc->tick_hz;
        if (!get_int(sc, g, "tick_hz", 1, 100000, &v, error))
                return FALSE;
        sc->tick_hz = (int)v;
        if (g_key_file_has_key(sc->kf, g, "nohz_idle", NULL)) {
                gboolean nohz = FALSE;

                if (!get_bool(sc, g, "nohz_idle", &nohz, error))
                        return FALSE;
                sc->nohz_idle = nohz;
        }
        if (!get_duration(sc, g, "duration", &sc->duration_ns, TRUE, error))
                return FALSE;
        if (sc->duration_ns > 1000000 * NSEC_PER_SEC)
                return invalid(sc, error, g, "duration", "longer than 1,000,000 s of simulated time");
        v = (int64_t)sc->seed;
        if (!get_int(sc, g, "seed", 0, INT64_MAX, &v, error))
                return FALSE;
        sc->seed = (uint64_t)v;
        if (!get_bool(sc, g, "skew_tick", &sc->skew_tick, error))
                return FALSE;
        int which;

        if (!get_either(sc, g, "kernel_layer", "a kernel layer", "legacy", "source", &which, error))
                return FALSE;
        if (which >= 0)
                sc->kernel_layer_source = which == 1;
        if (!get_either(sc, g, "phases", "a phase rule", "drawn", "aligned", &which, error))
                return FALSE;
        if (which >= 0)
                sc->phases = which == 0;
        g_autofree char *policy = get(sc, g, "policy");

        if (policy) {
                if (!policy_find(policy))
                        return invalid(sc, error, g, "policy", "unknown policy '%s' (expected one of: %s)",
                                       policy, policy_names());
                g_free(sc->policy);
                sc->policy = g_steal_pointer(&policy);
        }
        return TRUE;
}

static gboolean load_sched_section(struct scenario *sc, GError **error)
{
        const char *g = "sched";
        g_autofree char *rt = NULL;

        if (!check_keys(sc, g, sched_keys, FALSE, error) ||
            !get_duration(sc, g, "rr_timeslice", &sc->rr_timeslice_ns, TRUE, error) ||
            !get_duration(sc, g, "rt_period", &sc->rt_period_ns, TRUE, error) ||
            !get_duration(sc, g, "sched_latency", &sc->sched_latency_ns, TRUE, error) ||
            !get_duration(sc, g, "min_granularity", &sc->min_granularity_ns, TRUE, error) ||
            !get_duration(sc, g, "wakeup_granularity", &sc->wakeup_granularity_ns, FALSE, error) ||
            !get_bool(sc, g, "rt_runtime_share", &sc->rt_runtime_share, error) ||
            !get_bool(sc, g, "load_balance", &sc->load_balance, error) ||
            !get_bool(sc, g, "softirq_threads", &sc->softirq_threads, error) ||
            !get_sched(sc, g, "timer_softirq_thread", &sc->timer_softirq_sched, error))
                return FALSE;
        sc->timer_softirq_set = g_key_file_has_key(sc->kf, g, "timer_softirq_thread", NULL);
        rt = get(sc, g, "rt_runtime");
        if (rt) {
                sc->rt_runtime_set = TRUE;
                sc->rt_runtime_ns = -1;
                if (strcmp(rt, "off") != 0 && !get_duration(sc, g, "rt_runtime", &sc->rt_runtime_ns, FALSE, error))
                        return FALSE;
        }
        if (sc->rt_runtime_set && sc->rt_runtime_ns > sc->rt_period_ns)
                return invalid(sc, error, g, "rt_runtime", "longer than rt_period (expected off, or at most rt_period)");
        g_autofree char *wakeup = get(sc, g, "rt_wakeup");
        if (wakeup) {
                enum rt_wakeup w;

                if (!rt_wakeup_parse(wakeup, &w))
                        return invalid(sc, error, g, "rt_wakeup",
                                       "'%s' is not a wake-up rule (expected last-cpu or find-lowest)", wakeup);
                sc->rt_wakeup = (int)w;
        }
        return TRUE;
}

static gboolean load_rcu_section(struct scenario *sc, GError **error)
{
        const char *g = "rcu";
        g_autofree char *limit = NULL;

        if (!check_keys(sc, g, rcu_keys, FALSE, error))
                return FALSE;
        limit = get(sc, g, "memory_limit");
        if (limit && strcmp(limit, "off") != 0) {
                GError *e = NULL;

                if (!units_parse_size(limit, &sc->memory_limit_bytes, &e))
                        return invalid_from(sc, error, g, "memory_limit", e);
                if (sc->memory_limit_bytes <= 0)
                        return invalid(sc, error, g, "memory_limit", "must be positive, or off");
        }
        g_autofree char *flavour = get(sc, g, "flavour");
        if (flavour) {
                if (strcmp(flavour, "rcupreempt") != 0 && strcmp(flavour, "tree") != 0)
                        return invalid(sc, error, g, "flavour", "'%s' is not a flavour (expected rcupreempt or tree)",
                                       flavour);
                g_free(sc->rcu_flavour);
                sc->rcu_flavour = g_steal_pointer(&flavour);
        }
        int64_t leaf = sc->fanout_leaf, prio = sc->kthread_prio;

        if (!get_int(sc, g, "fanout_leaf", 2, RCU_FANOUT, &leaf, error) ||
            !get_int(sc, g, "kthread_prio", 0, 99, &prio, error) ||
            !get_int(sc, g, "qovld", 1, INT64_MAX, &sc->qovld, error) ||
            !get_int(sc, g, "qhimark", 0, INT64_MAX, &sc->qhimark, error) ||
            !get_int(sc, g, "jiffies_till_first_fqs", 0, 100000, &sc->jiffies_till_first_fqs, error) ||
            !get_int(sc, g, "jiffies_till_next_fqs", 1, 100000, &sc->jiffies_till_next_fqs, error))
                return FALSE;
        sc->fanout_leaf = (int)leaf;
        sc->kthread_prio = (int)prio;
        int which;

        if (!get_either(sc, g, "fqs_snapshot", "a snapshot", "stale", "fresh", &which, error))
                return FALSE;
        if (which >= 0)
                sc->fqs_snapshot_fresh = which == 1;
        g_autofree char *rcuc = get(sc, g, "rcuc_thread");
        if (rcuc && strcmp(rcuc, "auto") != 0) {
                if (!get_sched(sc, g, "rcuc_thread", &sc->rcuc_sched, error))
                        return FALSE;
                sc->rcuc_sched_set = TRUE;
        }
        return get_bool(sc, g, "stop_on_oom", &sc->stop_on_oom, error) &&
               get_sched(sc, g, "callback_thread", &sc->callback_sched, error) &&
               get_duration(sc, g, "stall_threshold", &sc->stall_threshold_ns, TRUE, error);
}

static gboolean load_costs_section(struct scenario *sc, GError **error)
{
        const char *g = "costs";
        const char *keys[COST_KIND_COUNT + 1];

        for (int i = 0; i < COST_KIND_COUNT; i++) {
                keys[i] = cost_table[i].key;
                sc->cost_ns[i] = cost_table[i].default_ns;
        }
        keys[COST_KIND_COUNT] = NULL;
        if (!check_keys(sc, g, keys, FALSE, error))
                return FALSE;
        for (int i = 0; i < COST_KIND_COUNT; i++) {
                if (!get_duration(sc, g, keys[i], &sc->cost_ns[i], FALSE, error))
                        return FALSE;
                if (sc->cost_ns[i] > NSEC_PER_SEC)
                        return invalid(sc, error, g, keys[i], "a cost above 1s is not plausible");
        }
        return TRUE;
}

static gboolean load_output_section(struct scenario *sc, GError **error)
{
        const char *g = "output";

        if (!check_keys(sc, g, output_keys, FALSE, error) ||
            !get_duration(sc, g, "memory_sample", &sc->memory_sample_ns, TRUE, error) ||
            !get_int(sc, g, "max_events", 0, INT64_MAX, &sc->max_events, error) ||
            !get_size(sc, g, "max_memory", &sc->max_memory_bytes, error) ||
            !get_duration(sc, g, "timeline_start", &sc->timeline_start_ns, FALSE, error) ||
            !get_duration(sc, g, "timeline_length", &sc->timeline_length_ns, TRUE, error) ||
            !get_duration(sc, g, "rt_histogram", &sc->rt_histogram_ns, TRUE, error))
                return FALSE;
        if (sc->rt_histogram_ns < NSEC_PER_USEC || sc->rt_histogram_ns > 100 * NSEC_PER_MSEC)
                return invalid(sc, error, g, "rt_histogram", "expected 1us to 100ms (1 us buckets)");
        {
                g_autofree char *level = get(sc, g, "level");

                if (!level || !strcmp(level, "full"))
                        sc->output_level = OUTPUT_FULL;
                else if (!strcmp(level, "series"))
                        sc->output_level = OUTPUT_SERIES;
                else if (!strcmp(level, "summary"))
                        sc->output_level = OUTPUT_SUMMARY;
                else
                        return invalid(sc, error, g, "level", "'%s' is not full, series or summary", level);
        }
        if (sc->duration_ns / sc->memory_sample_ns > 10000000)
                return invalid(sc, error, g, "memory_sample",
                               "more than 10,000,000 samples in the run (expected a longer interval)");
        return TRUE;
}

static gboolean check_policy_value(struct scenario *sc, const char *group, const char *key,
                                   const struct policy_key *pk, const char *value, GError **error)
{
        GError *e = NULL;
        int64_t i;
        gboolean b;
        struct sched_spec s;
        gboolean ok = TRUE;

        switch (pk->type) {
        case POLICY_KEY_DURATION:
                ok = units_parse_duration(value, &i, &e);
                break;
        case POLICY_KEY_INT:
                ok = units_parse_int(value, INT64_MIN, INT64_MAX, &i, &e);
                break;
        case POLICY_KEY_SCHED:
                ok = units_parse_sched(value, &s, &e);
                break;
        case POLICY_KEY_BOOL:
                ok = units_parse_bool(value, &b, &e);
                break;
        case POLICY_KEY_ENUM: {
                int index;

                ok = units_parse_choice(value, pk->choices, &index, &e);
                break;
        }
        }
        return ok || invalid_from(sc, error, group, key, e);
}

static gboolean load_policy_group(struct scenario *sc, const char *group,
                                  const struct boost_policy_ops *ops, GError **error)
{
        g_auto(GStrv) keys = g_key_file_get_keys(sc->kf, group, NULL, NULL);

        for (char **k = keys; k && *k; k++) {
                const struct policy_key *pk = ops ? policy_key_find(ops, *k) : policy_any_key(*k);
                g_autofree char *v = get(sc, group, *k);

                if (!pk)
                        return invalid(sc, error, group, *k, "unknown policy key (`rcuboost "
                                       "policies` lists each policy's keys)");
                if (!check_policy_value(sc, group, *k, pk, v, error))
                        return FALSE;
        }
        return TRUE;
}

static gboolean load_task(struct scenario *sc, const char *group, GHashTable *mutex_index,
                          int *total_tasks, GError **error)
{
        struct task_spec *ts = g_new0(struct task_spec, 1);
        g_autofree char *aff = NULL;
        g_autofree char *prog = NULL;
        int64_t count = 1;
        GError *e = NULL;

        g_ptr_array_add(sc->tasks, ts);
        ts->name = g_strdup(group + strlen("task:"));
        ts->sched = (struct sched_spec){ SCHED_POLICY_NORMAL, 0 };
        ts->stop_ns = SIM_TIME_NEVER;
        ts->start_in_task = -1;
        cpumask_fill(&ts->affinity, sc->ncpus);
        if (!valid_name(ts->name))
                return invalid(sc, error, group, NULL, "task name '%s' must be 1-64 letters, digits, "
                               "'_' or '-'", ts->name);
        if (!check_keys(sc, group, task_keys, FALSE, error) ||
            !get_sched(sc, group, "sched", &ts->sched, error) ||
            !get_int(sc, group, "count", 1, SCENARIO_MAX_TASKS, &count, error) ||
            !get_duration(sc, group, "start", &ts->start_ns, FALSE, error) ||
            !get_duration(sc, group, "stop", &ts->stop_ns, FALSE, error) ||
            !get_duration(sc, group, "period", &ts->period_ns, TRUE, error))
                return FALSE;
        ts->count = (int)count;
        ts->start_in = get(sc, group, "start_in");
        if (ts->start_in && ts->period_ns)
                return invalid(sc, error, group, "start_in", "a periodic task starts at its releases: "
                               "drop period or start_in");
        *total_tasks += ts->count;
        if (*total_tasks > SCENARIO_MAX_TASKS)
                return invalid(sc, error, group, "count", "more than %d tasks in all", SCENARIO_MAX_TASKS);
        aff = get(sc, group, "affinity");
        if (aff && (!strcmp(aff, "each") || g_str_has_prefix(aff, "each:"))) {
                /* One copy per CPU without N sections: copy i on the i-th CPU of the
                 * list (each:1-3), or of all of them, round and round. */
                ts->affinity_each = TRUE;
                if (aff[4] == ':' && !units_parse_affinity(aff + 5, sc->ncpus, &ts->affinity, &e))
                        return invalid_from(sc, error, group, "affinity", e);
                if (aff[4] != ':')
                        cpumask_fill(&ts->affinity, sc->ncpus);
        } else if (aff && !units_parse_affinity(aff, sc->ncpus, &ts->affinity, &e)) {
                return invalid_from(sc, error, group, "affinity", e);
        }
        if (ts->stop_ns != SIM_TIME_NEVER && ts->stop_ns <= ts->start_ns)
                return invalid(sc, error, group, "stop", "must be later than start");
        prog = get(sc, group, "program");
        if (!prog)
                return invalid(sc, error, group, NULL, "no program (add program=..., e.g. "
                               "program=loop { compute 1ms; sleep 1ms })");
        ts->program = program_parse(prog, mutex_index, &e);
        if (!ts->program)
                return invalid_from(sc, error, group, "program", e);
        if (ts->period_ns && ts->program->runs_forever)
                return invalid(sc, error, group, "program", "a periodic task's program must finish "
                               "each activation, but it contains a 'loop' (use repeat N, or drop period)");
        return TRUE;
}

static gboolean get_dist(struct scenario *sc, const char *group, const char *key, struct dist *out,
                         GError **error)
{
        g_autofree char *v = get(sc, group, key);
        GError *e = NULL;

        if (!v)
                return invalid(sc, error, group, NULL, "no '%s' key (a duration or a distribution, "
                               "e.g. %s=%s)", key, key, !strcmp(key, "interval") ? "exp(1ms)" : "20us");
        if (!dist_parse(v, DIST_UNIT_DURATION, out, &e))
                return invalid_from(sc, error, group, key, e);
        return TRUE;
}

static gboolean load_irq(struct scenario *sc, const char *group, GError **error)
{
        struct irq_spec *is = g_new0(struct irq_spec, 1);
        int64_t cpu = 0, number = 16 + (int64_t)sc->irqs->len;

        g_ptr_array_add(sc->irqs, is);
        is->name = g_strdup(group + strlen("irq:"));
        is->sched = (struct sched_spec){ SCHED_POLICY_FIFO, 50 };
        if (!valid_name(is->name))
                return invalid(sc, error, group, NULL, "irq name '%s' must be 1-64 letters, digits, "
                               "'_' or '-'", is->name);
        if (!check_keys(sc, group, irq_keys, FALSE, error) ||
            !get_int(sc, group, "cpu", 0, sc->ncpus - 1, &cpu, error) ||
            !get_int(sc, group, "number", 0, 4095, &number, error) ||
            !get_sched(sc, group, "sched", &is->sched, error) ||
            !get_duration(sc, group, "start", &is->start_ns, FALSE, error) ||
            !get_dist(sc, group, "interval", &is->interval, error) ||
            !get_dist(sc, group, "handler", &is->handler, error))
                return FALSE;
        is->cpu = (int)cpu;
        is->number = (int)number;
        for (guint i = 0; i + 1 < sc->irqs->len; i++)
                if (((struct irq_spec *)g_ptr_array_index(sc->irqs, i))->number == is->number)
                        return invalid(sc, error, group, "number", "IRQ %d is also [irq:%s]'s", is->number,
                                       ((struct irq_spec *)g_ptr_array_index(sc->irqs, i))->name);
        /* Each interrupt is an event: a mean interval below 1 us is a storm no run gets through. */
        if (dist_mean(&is->interval) < NSEC_PER_USEC)
                return invalid(sc, error, group, "interval", "mean below 1us");
        return TRUE;
}

static gboolean load_event(struct scenario *sc, const char *group, GError **error)
{
        struct timed_event_spec *ev = g_new0(struct timed_event_spec, 1);
        g_auto(GStrv) keys = NULL;
        g_autofree char *at = NULL;
        g_autofree char *aff = NULL;
        GError *e = NULL;

        g_ptr_array_add(sc->events, ev);
        ev->name = g_strdup(group + strlen("event:"));
        ev->policy_keys = g_ptr_array_new_with_free_func(g_free);
        ev->policy_values = g_ptr_array_new_with_free_func(g_free);
        if (!check_keys(sc, group, event_keys, TRUE, error))
                return FALSE;
        at = get(sc, group, "at");
        if (!at)
                return invalid(sc, error, group, NULL, "no 'at' key (when the event happens, e.g. at=2s)");
        if (!get_duration(sc, group, "at", &ev->at_ns, FALSE, error))
                return FALSE;
        ev->task = get(sc, group, "task");
        if (g_key_file_has_key(sc->kf, group, "sched", NULL)) {
                ev->set_sched = TRUE;
                if (!get_sched(sc, group, "sched", &ev->sched, error))
                        return FALSE;
        }
        aff = get(sc, group, "affinity");
        if (aff) {
                ev->set_affinity = TRUE;
                if (!units_parse_affinity(aff, sc->ncpus, &ev->affinity, &e))
                        return invalid_from(sc, error, group, "affinity", e);
        }
        if ((ev->set_sched || ev->set_affinity) && !ev->task)
                return invalid(sc, error, group, NULL, "sched and affinity need task=NAME");
        if (ev->task && !ev->set_sched && !ev->set_affinity)
                return invalid(sc, error, group, "task", "nothing to change (add sched= or affinity=)");
        keys = g_key_file_get_keys(sc->kf, group, NULL, NULL);
        for (char **k = keys; *k; k++) {
                if (!g_str_has_prefix(*k, "policy."))
                        continue;
                g_autofree char *v = get(sc, group, *k);

                if (!check_policy_value(sc, group, *k, policy_any_key(*k + 7), v, error))
                        return FALSE;
                g_ptr_array_add(ev->policy_keys, g_strdup(*k + 7));
                g_ptr_array_add(ev->policy_values, g_steal_pointer(&v));
        }
        if (!ev->task && ev->policy_keys->len == 0)
                return invalid(sc, error, group, NULL, "the event changes nothing (add task= and "
                               "sched=, or policy.KEY=VALUE)");
        return TRUE;
}

static gboolean load_expectations(struct scenario *sc, GError **error)
{
        g_auto(GStrv) keys = g_key_file_get_keys(sc->kf, "expect", NULL, NULL);

        for (char **k = keys; k && *k; k++) {
                g_autofree char *v = get(sc, "expect", *k);
                GError *e = NULL;
                struct expectation *x;
                guint64 n;

                if (!strcmp(*k, "seeds")) {
                        if (!g_ascii_string_to_unsigned(v, 10, 1, 1000, &n, NULL))
                                return invalid(sc, error, "expect", *k, "'%s': expected a whole number of runs "
                                               "from 1 to 1000", v);
                        sc->expect_seeds = (int)n;
                        continue;
                }
                x = expect_parse(*k, v, &e);

                if (!x)
                        return invalid_from(sc, error, "expect", *k, e);
                g_autofree char *line = scenario_where(sc, "expect", *k);

                /* GKeyFile cut "x<=5ms" at its '=': show the line as written. */
                x->where = g_strconcat(line, "=", v, NULL);
                g_ptr_array_add(sc->expectations, x);
        }
        return TRUE;
}

static gboolean apply_overrides(struct scenario *sc, const char *const *overrides, GError **error)
{
        for (const char *const *o = overrides; o && *o; o++) {
                const char *eq = strchr(*o, '=');
                const char *dot = strchr(*o, '.');
                g_autofree char *group = NULL;
                g_autofree char *key = NULL;

                if (!eq || !dot || dot > eq || dot == *o || dot + 1 == eq) {
                        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                                    "--set %s: expected SECTION.KEY=VALUE, e.g. --set rcu.memory_limit=64MiB",
                                    *o);
                        return FALSE;
                }
                group = g_strndup(*o, dot - *o);
                key = g_strndup(dot + 1, eq - dot - 1);
                if (!g_key_file_has_group(sc->kf, group) && strchr(group, ':') && !g_str_has_prefix(group, "policy:")) {
                        /* A typo in a task's name would make a new task with no program. */
                        g_autofree char *kind = g_strndup(group, strchr(group, ':') - group + 1);
                        g_auto(GStrv) groups = g_key_file_get_groups(sc->kf, NULL);
                        GString *have = g_string_new(NULL);

                        for (char **g = groups; *g; g++)
                                if (g_str_has_prefix(*g, kind))
                                        g_string_append_printf(have, "%s%s", have->len ? ", " : "", *g + strlen(kind));
                        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                                    "--set %s: the scenario has no [%s] (%.*s sections: %s)", *o, group,
                                    (int)strlen(kind) - 1, kind, have->len ? have->str : "none");
                        g_string_free(have, TRUE);
                        return FALSE;
                }
                g_key_file_set_value(sc->kf, group, key, eq + 1);
                g_hash_table_insert(sc->lines, line_key(group, key), GINT_TO_POINTER(LINE_FROM_SET));
                char *group_key = line_key(group, NULL);

                if (!g_hash_table_contains(sc->lines, group_key))
                        g_hash_table_insert(sc->lines, group_key, GINT_TO_POINTER(LINE_FROM_SET));
                else
                        g_free(group_key);
        }
        return TRUE;
}

static void task_spec_free(gpointer p)
{
        struct task_spec *ts = p;

        g_free(ts->name);
        g_free(ts->start_in);
        program_free(ts->program);
        g_free(ts);
}

static void irq_spec_free(gpointer p)
{
        struct irq_spec *is = p;

        g_free(is->name);
        g_free(is);
}

static void event_spec_free(gpointer p)
{
        struct timed_event_spec *ev = p;

        g_free(ev->name);
        g_free(ev->task);
        if (ev->policy_keys)
                g_ptr_array_unref(ev->policy_keys);
        if (ev->policy_values)
                g_ptr_array_unref(ev->policy_values);
        g_free(ev);
}

static struct scenario *scenario_alloc(const char *path)
{
        struct scenario *sc = g_new0(struct scenario, 1);
        g_autofree char *base = g_path_get_basename(path);

        sc->path = g_strdup(path);
        if (g_str_has_suffix(base, ".scn"))
                base[strlen(base) - 4] = '\0';
        sc->name = g_strdup(base);
        sc->ncpus = 1;
        sc->tick_hz = 0;                /* these: kernel_env_resolve() */
        sc->nohz_idle = -1;
        sc->rt_wakeup = -1;
        sc->phases = -1;
        sc->kernel_layer_source = TRUE; /* 6.1-rt as its source has it (#46) */
        sc->duration_ns = 10 * NSEC_PER_SEC;
        sc->seed = 1;
        sc->policy = g_strdup("none");
        sc->rr_timeslice_ns = 100 * NSEC_PER_MSEC;
        sc->rt_runtime_ns = -1;
        sc->rt_period_ns = NSEC_PER_SEC;
        sc->sched_latency_ns = 6 * NSEC_PER_MSEC;
        sc->min_granularity_ns = 750 * NSEC_PER_USEC;
        sc->wakeup_granularity_ns = NSEC_PER_MSEC;
        sc->stop_on_oom = TRUE;
        sc->callback_sched = (struct sched_spec){ SCHED_POLICY_FIFO, 50 };
        sc->fanout_leaf = RCU_FANOUT_LEAF;
        sc->kthread_prio = -1;
        sc->qovld = 2 * 10000;          /* DEFAULT_RCU_QOVLD_MULT * DEFAULT_RCU_QHIMARK */
        sc->qhimark = 10000;            /* DEFAULT_RCU_QHIMARK */
        sc->jiffies_till_first_fqs = -1;
        sc->jiffies_till_next_fqs = -1;
        sc->softirq_threads = TRUE;
        sc->load_balance = TRUE;
        sc->timer_softirq_sched = (struct sched_spec){ SCHED_POLICY_FIFO, 50 };
        sc->memory_sample_ns = NSEC_PER_MSEC;
        sc->timeline_length_ns = 100 * NSEC_PER_MSEC;
        sc->rt_histogram_ns = 10 * NSEC_PER_MSEC;
        /* rcu_torture_boost_failed(): test_boost_duration * HZ - HZ / 2, test_boost_duration = 4 s. */
        sc->stall_threshold_ns = 3500 * NSEC_PER_MSEC;
        sc->tasks = g_ptr_array_new_with_free_func(task_spec_free);
        sc->mutexes = g_ptr_array_new_with_free_func(g_free);
        sc->events = g_ptr_array_new_with_free_func(event_spec_free);
        sc->irqs = g_ptr_array_new_with_free_func(irq_spec_free);
        sc->warnings = g_ptr_array_new_with_free_func(g_free);
        sc->expectations = g_ptr_array_new_with_free_func((GDestroyNotify)expect_free);
        sc->expect_seeds = 1;
        sc->kf = g_key_file_new();
        sc->lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        return sc;
}

void scenario_free(struct scenario *sc)
{
        if (!sc)
                return;
        g_free(sc->path);
        g_free(sc->name);
        g_free(sc->sha256);
        g_strfreev(sc->overrides);
        g_free(sc->description);
        g_free(sc->imported_from);
        g_free(sc->imported_from_sha256);
        g_free(sc->kernel);
        g_free(sc->rcu_flavour);
        g_free(sc->policy);
        g_ptr_array_unref(sc->tasks);
        g_ptr_array_unref(sc->irqs);
        g_ptr_array_unref(sc->mutexes);
        g_ptr_array_unref(sc->events);
        g_ptr_array_unref(sc->warnings);
        g_ptr_array_unref(sc->expectations);
        g_key_file_free(sc->kf);
        g_hash_table_destroy(sc->lines);
        g_free(sc);
}

/* start_in=TASK names one task (not copies: which would wake it?) that
 * has a read-side section to wake it from. */
static gboolean resolve_start_in(struct scenario *sc, GError **error)
{
        for (guint i = 0; i < sc->tasks->len; i++) {
                struct task_spec *ts = g_ptr_array_index(sc->tasks, i);
                g_autofree char *group = g_strconcat("task:", ts->name, NULL);
                const struct task_spec *waker = NULL;
                gboolean reads = FALSE;

                if (!ts->start_in)
                        continue;
                for (guint j = 0; j < sc->tasks->len && !waker; j++) {
                        const struct task_spec *w = g_ptr_array_index(sc->tasks, j);

                        if (!strcmp(w->name, ts->start_in)) {
                                waker = w;
                                ts->start_in_task = (int)j;
                        }
                }
                if (!waker)
                        return invalid(sc, error, group, "start_in", "no task named '%s'", ts->start_in);
                if (waker == ts)
                        return invalid(sc, error, group, "start_in", "a task cannot wake itself");
                if (waker->count > 1)
                        return invalid(sc, error, group, "start_in", "'%s' has count=%d: name a task "
                                       "that has one copy", waker->name, waker->count);
                for (int k = 0; k < waker->program->len; k++)
                        reads |= waker->program->code[k].op == OP_RCU_LOCK;
                if (!reads)
                        return invalid(sc, error, group, "start_in", "'%s' has no rcu_read_lock to wake "
                                       "it from", waker->name);
                /* a waker gone, or not yet started, before the run ends: said, as an [event] after the end is */
                if (waker->stop_ns <= ts->start_ns || MAX(ts->start_ns, waker->start_ns) >= sc->duration_ns) {
                        g_autofree char *where = scenario_where(sc, group, "start_in");

                        g_ptr_array_add(sc->warnings, g_strdup_printf(
                                "%s: '%s' can never wake it: %s", where, waker->name,
                                waker->stop_ns <= ts->start_ns ? "it stops before this task's start"
                                                               : "neither starts before the end of the run"));
                }
        }
        /* start_in=b on a and start_in=a on b: each waits for the other, and neither ever runs (#59) */
        for (guint i = 0; i < sc->tasks->len; i++) {
                const struct task_spec *ts = g_ptr_array_index(sc->tasks, i);
                int at = ts->start_in_task, steps = 0;

                while (at >= 0 && at != (int)i && steps++ <= (int)sc->tasks->len)
                        at = ((const struct task_spec *)g_ptr_array_index(sc->tasks, at))->start_in_task;
                if (at != (int)i)
                        continue;
                g_autofree char *group = g_strconcat("task:", ts->name, NULL);
                g_autoptr(GString) chain = g_string_new(ts->name);

                for (at = ts->start_in_task; at != (int)i;
                     at = ((const struct task_spec *)g_ptr_array_index(sc->tasks, at))->start_in_task)
                        g_string_append_printf(chain, " -> %s",
                                               ((const struct task_spec *)g_ptr_array_index(sc->tasks, at))->name);
                return invalid(sc, error, group, "start_in", "a cycle (%s -> %s): each waits for another's "
                               "read-side section, and none of them ever starts", chain->str, ts->name);
        }
        return TRUE;
}

static gboolean load_groups(struct scenario *sc, GError **error)
{
        g_auto(GStrv) groups = g_key_file_get_groups(sc->kf, NULL);
        g_autoptr(GHashTable) mutex_index = g_hash_table_new(g_str_hash, g_str_equal);
        int total_tasks = 0;
        static const struct {
                const char *name;
                gboolean (*load)(struct scenario *, GError **);
        } fixed[] = {
                { "scenario", load_scenario_section }, { "sched", load_sched_section },
                { "rcu", load_rcu_section }, { "costs", load_costs_section },
                { "output", load_output_section },
        };

        /* [scenario] first: other sections need the CPU count and duration. */
        for (size_t i = 0; i < G_N_ELEMENTS(fixed); i++)
                if (!fixed[i].load(sc, error))
                        return FALSE;
        if (!check_keys(sc, "debug", debug_keys, FALSE, error) ||
            !get_bool(sc, "debug", "break_grace_periods", &sc->break_grace_periods, error))
                return FALSE;

        /* Mutexes before tasks: programs refer to them by name. */
        for (char **g = groups; *g; g++) {
                if (!g_str_has_prefix(*g, "mutex:"))
                        continue;
                const char *name = *g + strlen("mutex:");

                if (!valid_name(name))
                        return invalid(sc, error, *g, NULL, "mutex name '%s' must be 1-64 letters, "
                                       "digits, '_' or '-'", name);
                if (!check_keys(sc, *g, mutex_keys, FALSE, error))
                        return FALSE;
                g_ptr_array_add(sc->mutexes, g_strdup(name));
                g_hash_table_insert(mutex_index, g_ptr_array_index(sc->mutexes, sc->mutexes->len - 1),
                                    GINT_TO_POINTER(sc->mutexes->len));
        }
        for (char **g = groups; *g; g++) {
                gboolean fixed_group = FALSE;

                for (size_t i = 0; i < G_N_ELEMENTS(fixed); i++)
                        fixed_group |= !strcmp(*g, fixed[i].name);
                if (fixed_group || !strcmp(*g, "debug") || g_str_has_prefix(*g, "mutex:"))
                        continue;
                if (g_str_has_prefix(*g, "task:")) {
                        if (!load_task(sc, *g, mutex_index, &total_tasks, error))
                                return FALSE;
                } else if (g_str_has_prefix(*g, "event:")) {
                        if (!load_event(sc, *g, error))
                                return FALSE;
                } else if (g_str_has_prefix(*g, "irq:")) {
                        if (!load_irq(sc, *g, error))
                                return FALSE;
                } else if (!strcmp(*g, "expect")) {
                        if (!load_expectations(sc, error))
                                return FALSE;
                } else if (!strcmp(*g, "policy")) {
                        if (!load_policy_group(sc, *g, NULL, error))
                                return FALSE;
                } else if (g_str_has_prefix(*g, "policy:")) {
                        const struct boost_policy_ops *ops = policy_find(*g + strlen("policy:"));

                        if (!ops)
                                return invalid(sc, error, *g, NULL, "unknown policy '%s' (expected "
                                               "one of: %s)", *g + strlen("policy:"), policy_names());
                        if (!load_policy_group(sc, *g, ops, error))
                                return FALSE;
                } else {
                        return invalid(sc, error, *g, NULL, "unknown section (expected scenario, "
                                       "sched, rcu, costs, output, debug, policy, policy:NAME, "
                                       "mutex:NAME, task:NAME, irq:NAME, event:NAME or expect)");
                }
        }
        if (sc->tasks->len == 0) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                            "%s: no [task:NAME] section (a scenario needs at least one task)", sc->path);
                return FALSE;
        }
        if (!resolve_start_in(sc, error))
                return FALSE;
        /* Valid, but likely not what was meant (a --set scenario.duration may
         * have cut the run short on purpose, so not an error). */
        for (guint i = 0; i < sc->events->len; i++) {
                const struct timed_event_spec *es = g_ptr_array_index(sc->events, i);
                g_autofree char *group = g_strconcat("event:", es->name, NULL);
                g_autofree char *where = NULL, *at = NULL, *dur = NULL;

                if (es->at_ns < sc->duration_ns)
                        continue;
                where = scenario_where(sc, group, "at");
                at = units_format_duration(es->at_ns);
                dur = units_format_duration(sc->duration_ns);
                g_ptr_array_add(sc->warnings, g_strdup_printf("%s: %s is not before the end of the run "
                                                              "(duration %s): the event never happens",
                                                              where, at, dur));
        }
        if (sc->rcu_flavour && !strcmp(sc->rcu_flavour, "tree") &&
            g_key_file_has_key(sc->kf, "rcu", "callback_thread", NULL)) {
                g_autofree char *where = scenario_where(sc, "rcu", "callback_thread");

                g_ptr_array_add(sc->warnings, g_strdup_printf("%s: has no effect with flavour=tree: callbacks run "
                                                              "in rcuc/N ([rcu] rcuc_thread; by default at [rcu] "
                                                              "kthread_prio under rcu-boost, SCHED_NORMAL under the "
                                                              "2007 policies)", where));
        }
        return TRUE;
}

struct scenario *scenario_load_data(const char *data, const char *path,
                                    const char *const *overrides, GError **error)
{
        g_autoptr(RcbScenario) sc = scenario_alloc(path);
        GError *e = NULL;

        /* Editors may start a UTF-8 file with a byte-order mark: not a line of the file. */
        if (g_str_has_prefix(data, "\xEF\xBB\xBF"))
                data += 3;
        if (!g_utf8_validate(data, -1, NULL) || memchr(data, '\0', strlen(data)) != NULL) {
                int line = first_bad_line(data);

                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_SYNTAX,
                            "%s:%d: not a text file (invalid UTF-8)", path, MAX(line, 1));
                return NULL;
        }
        if (!g_key_file_load_from_data(sc->kf, data, -1, G_KEY_FILE_NONE, &e)) {
                int line = first_bad_line(data);

                g_auto(GStrv) lines = g_strsplit(data, "\n", line + 1);
                const char *text = line && (int)g_strv_length(lines) >= line ? lines[line - 1] : "";
                /* "none.x<5MiB": an [expect] bound needs its '=' (GKeyFile splits at it) */
                gboolean strict_bound = !strchr(text, '=') && (strchr(text, '<') || strchr(text, '>'));

                int first = 0;

                /* a key before any [section]: GKeyFile says only that the file
                 * does not start with a group (#48) -- name the line and key */
                if (g_error_matches(e, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_GROUP_NOT_FOUND)) {
                        g_auto(GStrv) all = g_strsplit(data, "\n", -1);

                        for (int i = 0; all[i] && !first; i++) {
                                const char *l = all[i] + strspn(all[i], " \t");

                                if (*l && *l != '#' && *l != '\r')
                                        first = i + 1;
                        }
                        if (first && all[first - 1][strspn(all[first - 1], " \t")] != '[') {
                                g_autofree char *key = g_strndup(all[first - 1] + strspn(all[first - 1], " \t"),
                                                                 strcspn(all[first - 1] + strspn(all[first - 1], " \t"),
                                                                         "= \t\r"));

                                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_SYNTAX,
                                            "%s:%d: key '%s' before any [section] (a scenario starts with one, "
                                            "e.g. [scenario])", path, first, key);
                                g_error_free(e);
                                return NULL;
                        }
                }
                if (line)
                        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_SYNTAX,
                                    "%s:%d: not a 'key=value', '[section]' or '# comment' line%s",
                                    path, line, strict_bound ? " (an [expect] bound is written <= or >=, e.g. "
                                                               "none.memory.peak_bytes<=5MiB)" : "");
                else
                        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_SYNTAX, "%s: %s", path,
                                    e->message);
                g_error_free(e);
                return NULL;
        }
        if (!index_lines(sc->lines, data, path, error))
                return NULL;
        sc->sha256 = g_compute_checksum_for_string(G_CHECKSUM_SHA256, data, -1);
        sc->overrides = g_strdupv((char **)(overrides ? overrides : (const char *const[]){ NULL }));
        g_autofree char *trimmed = g_strstrip(g_strdup(data));

        if (!*trimmed && !overrides) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                            "%s: empty scenario file (a scenario needs at least [scenario] and "
                            "one [task:NAME] section)", path);
                return NULL;
        }
        if (!apply_overrides(sc, overrides, error) || !load_groups(sc, error))
                return NULL;
        return g_steal_pointer(&sc);
}

struct scenario *scenario_load(const char *path, const char *const *overrides, GError **error)
{
        g_autofree char *data = NULL;
        gsize len;
        GStatBuf st;
        GError *e = NULL;

        if (g_stat(path, &st) != 0) {
                int err = errno;

                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_IO, "%s: cannot read: %s", path,
                            g_strerror(err));
                return NULL;
        }
        if (!S_ISREG(st.st_mode)) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_IO,
                            "%s: not a regular file (expected a .scn scenario file)", path);
                return NULL;
        }
        if (st.st_size > SCENARIO_MAX_BYTES) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_IO,
                            "%s: %lld bytes is too large for a scenario file (limit %d MiB)", path,
                            (long long)st.st_size, SCENARIO_MAX_BYTES >> 20);
                return NULL;
        }
        if (!g_file_get_contents(path, &data, &len, &e)) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_IO, "%s", e->message);
                g_error_free(e);
                return NULL;
        }
        if (memchr(data, '\0', len)) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_SYNTAX,
                            "%s: not a text file (contains NUL bytes)", path);
                return NULL;
        }
        return scenario_load_data(data, path, overrides, error);
}

/* "booster, booster-8state, pi-lock": the policies events can tune. */
static char *tunable_policies(void)
{
        GString *list = g_string_new(NULL);

        for (const struct boost_policy_ops *const *p = policy_registry; *p; p++)
                if ((*p)->check_param)
                        g_string_append_printf(list, "%s%s", list->len ? ", " : "", (*p)->name);
        return g_string_free(list, FALSE);
}

gboolean scenario_check_policy(const struct scenario *sc, const struct boost_policy_ops *ops, GError **error)
{
        for (guint i = 0; i < sc->events->len; i++) {
                const struct timed_event_spec *es = g_ptr_array_index(sc->events, i);

                for (guint k = 0; k < es->policy_keys->len; k++) {
                        const char *key = g_ptr_array_index(es->policy_keys, k);
                        g_autofree char *group = g_strconcat("event:", es->name, NULL);
                        g_autofree char *dotted = g_strconcat("policy.", key, NULL);
                        GError *e = NULL;

                        if (!ops->check_param) {
                                g_autofree char *tunable = tunable_policies();

                                return invalid(sc, error, group, dotted,
                                               "policy %s has no parameters to change at run time "
                                               "(policies that have: %s)", ops->name, tunable);
                        }
                        if (!ops->check_param(key, g_ptr_array_index(es->policy_values, k), &e)) {
                                g_prefix_error(&e, "policy %s: ", ops->name);
                                return invalid_from(sc, error, group, dotted, e);
                        }
                }
        }
        return TRUE;
}

/* ---- policy parameters ---- */

char *policy_param_raw(const struct policy_params *p, const char *key, char **where)
{
        g_autofree char *specific = g_strconcat("policy:", p->ops->name, NULL);
        const struct policy_key *pk = policy_key_find(p->ops, key);
        const char *groups[] = { specific, "policy" };

        g_return_val_if_fail(pk != NULL, NULL);
        for (size_t i = 0; i < G_N_ELEMENTS(groups); i++) {
                char *v = g_key_file_get_value(p->sc->kf, groups[i], key, NULL);

                if (v) {
                        *where = scenario_where(p->sc, groups[i], key);
                        return g_strstrip(v);
                }
        }
        *where = g_strdup_printf("[policy] %s (default of policy %s)", key, p->ops->name);
        return g_strdup(pk->default_value);
}

/* The typed getters differ only in the parser: one body, via a macro
 * that captures the parser call (the int parser takes a range). */
static gboolean param_located(const struct policy_params *p, const char *key, char **value,
                              char **where)
{
        /* a key the policy reads but never declared: its error, not GLib's CRITICAL */
        if (!policy_key_find(p->ops, key)) {
                g_autofree char *who = policy_describe(p->ops);

                *value = NULL;
                *where = g_strdup_printf("%s, in create: policy_param_*(\"%s\")", who, key);
                return FALSE;
        }
        *value = policy_param_raw(p, key, where);
        return *value != NULL;
}

static gboolean param_result(gboolean ok, char *where, GError *cause, GError **error)
{
        if (!ok) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID, "%s: %s", where,
                            cause ? cause->message : "a key its keys table does not declare");
                g_clear_error(&cause);
        }
        g_free(where);
        return ok;
}

#define PARAM_GETTER(p, key, error, PARSE) ({                                   \
        g_autofree char *v_ = NULL;                                             \
        char *where_ = NULL;                                                    \
        GError *e_ = NULL;                                                      \
        gboolean ok_ = param_located(p, key, &v_, &where_);                     \
        const char *v = v_;                                                     \
        ok_ = ok_ && (PARSE);                                                   \
        param_result(ok_, where_, e_, error);                                   \
})

gboolean policy_param_duration(const struct policy_params *p, const char *key, int64_t *out,
                               GError **error)
{
        return PARAM_GETTER(p, key, error, units_parse_duration(v, out, &e_));
}

gboolean policy_param_int(const struct policy_params *p, const char *key, int64_t min, int64_t max,
                          int64_t *out, GError **error)
{
        return PARAM_GETTER(p, key, error, units_parse_int(v, min, max, out, &e_));
}

gboolean policy_param_sched(const struct policy_params *p, const char *key, struct sched_spec *out,
                            GError **error)
{
        return PARAM_GETTER(p, key, error, units_parse_sched(v, out, &e_));
}

gboolean policy_param_bool(const struct policy_params *p, const char *key, gboolean *out, GError **error)
{
        return PARAM_GETTER(p, key, error, units_parse_bool(v, out, &e_));
}

gboolean policy_param_enum(const struct policy_params *p, const char *key, int *out, GError **error)
{
        const struct policy_key *pk = policy_key_find(p->ops, key);

        return PARAM_GETTER(p, key, error, units_parse_choice(v, pk ? pk->choices : NULL, out, &e_));
}

int scenario_each_cpu(const struct task_spec *ts, int ncpus, int copy)
{
        int n = 0, c;

        for (c = 0; c < ncpus; c++)
                n += cpumask_test(&ts->affinity, c);
        if (n == 0)
                return copy % ncpus;
        for (c = 0, n = copy % n; c < ncpus; c++)
                if (cpumask_test(&ts->affinity, c) && n-- == 0)
                        break;
        return c;
}
