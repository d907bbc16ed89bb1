/* scenario.h - loading and validating scenario files.
 *
 * A scenario is a GKeyFile (.scn): [scenario], [sched], [rcu], [costs],
 * [output], [debug], [policy] / [policy:NAME], [mutex:NAME], [task:NAME],
 * [event:NAME] and [expect] sections, documented key by key in
 * docs/scenario-format.md.
 * The loader checks everything it can before a run starts and reports the
 * first problem as "FILE:LINE: [section] key: what is wrong (expected ...)"
 * in SCENARIO_ERROR.  What it returns is plain validated data; sim.c builds
 * the engine from it.
 */
#ifndef RCUBOOST_SCENARIO_H
#define RCUBOOST_SCENARIO_H

#include <glib.h>
#include <stdint.h>

#include "../engine/costs.h"
#include "../engine/cpumask.h"
#include "../engine/eventq.h"
#include "dist.h"
#include "program.h"
#include "units.h"

#define SCENARIO_ERROR (scenario_error_quark())
GQuark scenario_error_quark(void);

enum scenario_error {
        SCENARIO_ERROR_IO,      /* unreadable, not a file, too large */
        SCENARIO_ERROR_SYNTAX,  /* not a key file */
        SCENARIO_ERROR_INVALID, /* a key or value is wrong */
};

#define SCENARIO_MAX_TASKS 100000
#define SCENARIO_MAX_BYTES (16 * 1024 * 1024)

struct task_spec {
        char *name;
        struct sched_spec sched;
        struct cpumask affinity;
        gboolean affinity_each;         /* affinity=each[:LIST]: copy i pinned to the (i mod n)-th
                                         * of the n CPUs in affinity (scenario_each_cpu()) */
        int count;                      /* copies: NAME.0 .. NAME.(count-1) when > 1 */
        sim_time_ns start_ns;
        char *start_in;                 /* NULL, or the task whose first read-side section
                                         * at or after start_ns wakes this one from inside it */
        int start_in_task;              /* start_in's index in tasks, -1 without */
        sim_time_ns stop_ns;            /* SIM_TIME_NEVER: runs to the end */
        sim_time_ns period_ns;          /* 0: not periodic */
        struct program *program;
};

/* [irq:NAME]: a device interrupt and its -rt handler thread irq/NUMBER-NAME. */
struct irq_spec {
        char *name;
        int number;                     /* the IRQ number in the thread's name */
        int cpu;                        /* where the interrupt is routed (smp_affinity) */
        struct dist interval;           /* between interrupts */
        struct dist handler;            /* the thread's work per interrupt */
        struct sched_spec sched;
        sim_time_ns start_ns;
};

struct timed_event_spec {
        char *name;
        sim_time_ns at_ns;
        char *task;                     /* NULL, or a task (all copies) to change */
        gboolean set_sched;
        struct sched_spec sched;
        gboolean set_affinity;
        struct cpumask affinity;
        GPtrArray *policy_keys;         /* policy parameters to change: key, value pairs */
        GPtrArray *policy_values;
};

struct scenario {
        char *path;                     /* as given; "<built-in>" for embedded text */
        char *name;                     /* file name without directory and .scn */
        char *sha256;                   /* of the file's text, as read */
        GStrv overrides;                /* the --set strings applied, in order (never NULL) */
        char *description;
        char *imported_from;            /* [scenario] imported_from: the scenario NAME whose real runs this one
                                         * stands for (rcuboost import), or NULL */
        char *imported_from_sha256;     /* ... and that file's sha256 */
        int ncpus;
        char *kernel;                   /* [scenario] kernel, NULL: by the flavour (kernel.h) */
        int tick_hz;                    /* 0: the kernel generation's */
        int nohz_idle;                  /* -1: the kernel generation's */
        gboolean skew_tick;             /* CPU c's tick offset by c * (tick / 2) / ncpus */
        int phases;                     /* 1 drawn from the seed, 0 aligned, -1: the kernel layer's */
        gboolean kernel_layer_source;   /* [scenario] kernel_layer=source (kernel.c) */
        gboolean rt_runtime_share;      /* [sched]: RT_RUNTIME_SHARE's borrowing */
        gboolean load_balance;          /* [sched]: periodic load balancing of fair tasks */
        gboolean softirq_threads;       /* [sched]: timeouts expire in sirq-timer/N */
        struct sched_spec timer_softirq_sched;
        gboolean timer_softirq_set;     /* else the kernel generation's */
        sim_time_ns duration_ns;
        uint64_t seed;
        char *policy;                   /* default policy for `run` */

        /* [sched] */
        sim_time_ns rr_timeslice_ns;
        sim_time_ns rt_runtime_ns;      /* < 0: RT throttling off */
        gboolean rt_runtime_set;        /* else the kernel generation's */
        sim_time_ns rt_period_ns;
        int rt_wakeup;                  /* enum rt_wakeup, -1: the kernel generation's */
        sim_time_ns sched_latency_ns;
        sim_time_ns min_granularity_ns;
        sim_time_ns wakeup_granularity_ns;

        /* [rcu] */
        int64_t memory_limit_bytes;     /* 0: no limit */
        gboolean stop_on_oom;
        struct sched_spec callback_sched;
        char *rcu_flavour;              /* "rcupreempt", "tree", or NULL: the policy's */
        int fanout_leaf;                /* flavour=tree: CONFIG_RCU_FANOUT_LEAF */
        int kthread_prio;               /* flavour=tree: rcutree.kthread_prio; -1: the kernel's default */
        struct sched_spec rcuc_sched;   /* flavour=tree: rcuc/N, if rcuc_sched_set */
        gboolean rcuc_sched_set;        /* else as rcu_cpu_kthread_setup() */
        int64_t qovld;                  /* flavour=tree: rcutree.qovld */
        int64_t qhimark;                /* flavour=tree: rcutree.qhimark (0: never force) */
        int64_t jiffies_till_first_fqs; /* flavour=tree; -1: as rcu_init_geometry() computes it */
        int64_t jiffies_till_next_fqs;
        /* flavour=tree: CPUs 1 and up took their n_force_qs_snap as the run
         * began (onlined just before it), not at boot */
        gboolean fqs_snapshot_fresh;

        int64_t cost_ns[COST_KIND_COUNT];

        /* [output] */
        sim_time_ns memory_sample_ns;
        int64_t max_events;             /* 0: no budget */
        int64_t max_memory_bytes;       /* host memory (RSS) budget, 0: none */
        sim_time_ns timeline_start_ns;  /* timeline.csv window */
        sim_time_ns timeline_length_ns;
        sim_time_ns rt_histogram_ns;    /* latency.csv's range, 1 us buckets */
        enum output_level {
                OUTPUT_SUMMARY,         /* summary.json, latency.csv, distributions.csv: fixed size */
                OUTPUT_SERIES,          /* + memory.csv, gp.csv, boost.csv: grow with the duration */
                OUTPUT_FULL,            /* + timeline.csv (the window) */
        } output_level;
        sim_time_ns stall_threshold_ns; /* [rcu]: longer waits count as failures */

        /* [debug] */
        gboolean break_grace_periods;   /* test-only: let waitzero skip the readers */

        GPtrArray *tasks;               /* struct task_spec * */
        GPtrArray *mutexes;             /* char * names, index = mutex id */
        GPtrArray *events;              /* struct timed_event_spec * */
        GPtrArray *irqs;                /* struct irq_spec * */
        GPtrArray *expectations;        /* struct expectation * ([expect]) */
        int expect_seeds;               /* [expect] seeds: check runs each policy this many times */
        GPtrArray *warnings;            /* char *: valid but suspect, located (stderr, summary.json) */

        GKeyFile *kf;                   /* kept for policy parameters */
        GHashTable *lines;              /* "group\nkey" -> line number */
};

/* @overrides: NULL or NULL-terminated "section.key=value" strings (--set). */
struct scenario *scenario_load(const char *path, const char *const *overrides, GError **error);
struct scenario *scenario_load_data(const char *data, const char *path,
                                    const char *const *overrides, GError **error);
void scenario_free(struct scenario *sc);

/* Every key a scenario may use, for `rcuboost validate --keys`. */
struct scenario_key_doc {
        const char *section;
        const char *key;
        const char *default_value;
        const char *meaning;
};
extern const struct scenario_key_doc scenario_key_docs[];

/* Can the scenario run under @ops?  Every [event] that sets policy.KEY
 * must set a key @ops can change at run time, to a value it accepts
 * (boost_policy_ops.check_param); FALSE with a located @error otherwise. */
struct boost_policy_ops;
gboolean scenario_check_policy(const struct scenario *sc, const struct boost_policy_ops *ops, GError **error);

/* "FILE:LINE: [group] key" for messages about a key (line omitted when unknown). */
char *scenario_where(const struct scenario *sc, const char *group, const char *key);
/* Is @name one of the scenario's own tasks: a [task:NAME], or copy NAME.I of
 * one with count > I?  (The engine's kernel threads are not.) */
gboolean scenario_task_named(const struct scenario *sc, const char *name);

/* For g_autoptr(); the code itself says struct scenario. */
typedef struct scenario RcbScenario;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RcbScenario, scenario_free)

/* Policy parameters: [policy:NAME] first, then [policy], then the default
 * declared by the policy.  Errors name the file, line and key. */
struct policy_params {
        const struct scenario *sc;
        const struct boost_policy_ops *ops;
};

/* The value as written (newly allocated) and, in *where, where it came from. */
char *policy_param_raw(const struct policy_params *p, const char *key, char **where);
gboolean policy_param_duration(const struct policy_params *p, const char *key, int64_t *out, GError **error);
gboolean policy_param_int(const struct policy_params *p, const char *key, int64_t min, int64_t max,
                          int64_t *out, GError **error);
gboolean policy_param_sched(const struct policy_params *p, const char *key, struct sched_spec *out,
                            GError **error);
gboolean policy_param_bool(const struct policy_params *p, const char *key, gboolean *out, GError **error);
/* A POLICY_KEY_ENUM key: the index of its value in the key's choices. */
gboolean policy_param_enum(const struct policy_params *p, const char *key, int *out, GError **error);

/* affinity=each[:LIST]: the CPU copy @copy of @ts is pinned to. */
int scenario_each_cpu(const struct task_spec *ts, int ncpus, int copy);

#endif
