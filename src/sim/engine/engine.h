/* engine.h - the simulation's shared state, for engine modules and policies.
 *
 * struct sim ties the modules together: the event queue and clock, the CPUs
 * and tasks, mutexes, RCU, the safety oracle, the boost policy and what
 * everything costs.  Nothing is global: two struct sim run side by side.
 * The command line sees only sim.h.
 */
#ifndef RCUBOOST_ENGINE_H
#define RCUBOOST_ENGINE_H

#include <glib.h>
#include <stdio.h>

#include "../../policies/policy.h"
#include "../output/output.h"
#include "../output/report.h"
#include "../output/stats.h"
#include "../output/timeline.h"
#include "../rcu/oracle.h"
#include "../rcu/rcu.h"
#include "../scenario/kernel.h"
#include "../scenario/scenario.h"
#include "../sched/cpupri.h"
#include "../sched/mutex.h"
#include "../sched/sched.h"
#include "../sched/task.h"
#include "../sim.h"
#include "../time/ptimer.h"
#include "../time/softirq.h"
#include "../time/timerwheel.h"
#include "costs.h"
#include "coverage.h"
#include "eventq.h"

/* Besides the services below, a policy calls sim_charge_task() (sched.h),
 * sim_kthread_create() and sim_task_exit_release() (task.h) and
 * sim_log_boost() (boosts.h): each is declared with the module that does it. */

struct timed_event {
        struct event ev;
        const struct timed_event_spec *spec;
};

struct sim {
        const struct scenario *sc;
        struct eventq q;
        sim_time_ns now;
        sim_time_ns end_ns;
        sim_time_ns tick_ns;
        sim_time_ns tick_phase_ns;      /* jiffy 0 begins here (timerwheel.h); 0 when aligned */
        sim_time_ns rt_period_phase_ns; /* the first RT period ends here; 0: after one period */
        uint64_t phase_seed;            /* [scenario] phases=drawn: the order of simultaneous ticks */
        struct kernel_env env;          /* the kernel generation, resolved (kernel.h) */
        const struct sched_hooks *sched_hooks; /* the scheduler's calls up (sched.h) */
        sim_time_ns nohz_next_balance_ns; /* nohz.next_balance: tickless CPUs' first due balance */
        uint64_t seed;

        int ncpus;
        struct cpu *cpus;
        int this_cpu;                   /* the CPU whose work the current event is (a task's
                                         * step, a tick, a timer's interrupt), or -1:
                                         * find_lowest_rq()'s this_cpu */
        GPtrArray *tasks;               /* struct task *, by id */
        GHashTable *tasks_named;        /* an [event] task= name -> GPtrArray of its tasks */
        GPtrArray *warnings;            /* char *: this policy's, beside the scenario's */
        int nmutexes;
        struct mutex *mutexes;
        struct rcu rcu;
        struct softirq_cpu *softirq;    /* per CPU; NULL without [sched] softirq_threads */
        struct irq_thread *irqs;        /* one per [irq:NAME] */
        int nirqs;
        struct oracle oracle;
        struct stall_report *stall;     /* why a grace period stalled (stall.h), or NULL */

        const struct boost_policy_ops *policy;
        void *pol;
        GPtrArray *ptimers;             /* struct ptimer *: the policy's timers (ptimer.h) */
        struct boost_stats boosts;      /* every policy's boosts, as the engine sees them (boosts.h) */
        bool coverage_on;               /* sim_options.coverage and the policy has state_of() */
        uint64_t coverage[64];          /* policy state transitions seen: bit T of word F */

        /* scheduler state shared by all CPUs */
        int *resched;                   /* CPUs marked by sched_resched() */
        int nresched;
        struct cpumask idle;            /* CPUs running nothing */
        struct cpumask all_cpus;        /* what a task's any_cpu stands for */
        struct cpupri rt_queued;        /* CPUs by their most urgent queued RT task (in no set
                                         * if none): the RT pull looks there, most urgent first */
        struct cpumask fair_waiting;    /* CPUs with queued fair tasks */
        struct cpumask *fair_by_len;    /* [n]: CPUs with n queued fair tasks, n >= 1 */
        int *fair_len_count;            /* [n]: how many CPUs fair_by_len[n] holds */
        uint32_t fair_by_len_cap;
        uint32_t fair_max_len;          /* the longest fair queue */
        struct cpupri cpupri;           /* CPUs by the priority of what they run */
        int cpupri_stale;               /* a CPU whose rank schedule() has yet to set, or -1 */
        uint64_t migrations;
        struct event rt_period_ev;

        /* costs */
        int64_t cost_ns[COST_KIND_COUNT];
        uint64_t cost_count[COST_KIND_COUNT];
        int64_t cost_total_ns[COST_KIND_COUNT];
        int64_t path_total_ns[COST_PATH_COUNT];

        /* results */
        struct latency_stat rt_wakeup;  /* all periodic tasks together */
        struct latency_stat rt_top;     /* the periodic tasks of the most urgent class */
        GPtrArray *rtwait_waiting;      /* struct task *: periodic tasks released, not yet run (rtwait.h) */
        GPtrArray **rtwait_on;          /* [cpu]: struct task *, those of them queued there */
        int rt_top_prio;                /* that class's normal_prio (PRIO_NONE: no periodic task) */
        struct report *report;
        char *out_dir;
        char *out_kind;         /* the output directory's kind (output.h) */
        /* The policy hook running now ("reader_blocked", ...), or NULL: the
         * policy's own threads and timers.  For the contract checks'
         * messages (sim_policy_breach()). */
        const char *policy_hook;
        GHashTable *params_in_effect;   /* policy key -> int64_t *: a value the kernel rounds */
        int out_lock;                   /* output_dir_claim(), -1 when none */
        bool summary_only;
        struct outfile *memory_out;
        struct outfile *gp_out;
        struct outfile *boost_out;
        struct outfile *timeline_out;
        struct outfile *trace_out;
        double *wakeup_ranges;          /* the 1 us bin edges every periodic task's wakeup_hist shares */
        bool tracepoints;               /* the trace is ftrace text */
        bool timeline_on;               /* timeline_recording(timeline), set by sim_new() */
        struct timeline *timeline;      /* always set; records only with outputs */
        struct event sample_ev;
        struct event end_ev;
        struct timed_event *timed;
        int ntimed;

        const volatile int *interrupt;  /* from sim_options */
        bool stopping;
        const char *end_reason;         /* "duration", "oom", "event-budget", "error" */
        GError *run_error;              /* deadlock and the like: the run failed */
        int exited;
        /* sim_options.coverage: the engine's own events, counted for any policy
         * (coverage.h); last, so that a module's offsets above do not move */
        bool events_on;
        uint64_t events[COVERAGE_ENGINE_WORDS]; /* as sim_engine_coverage() gives them */
};

/* Charge to CPU @cpu: the next task to run there pays (scheduler path). */
void sim_charge_cpu(struct sim *sim, int cpu, enum cost_kind kind, int n, enum cost_path path);

/* Stop the run after the current event; a non-NULL @error makes it a failure. */
void sim_stop(struct sim *sim, const char *reason, GError *error);
/* The policy broke its contract (a value out of range, a task not of this
 * run): stop the run with an error naming the policy, its module and the
 * hook (exit 2).  The engine calls this; a policy need not. */
void sim_policy_breach(struct sim *sim, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* Policy key @key's duration @ns is counted by the kernel in whole jiffies,
 * rounded up (@up: msecs_to_jiffies()) or down (a division).  When @ns, as
 * the scenario or --set gives it (not a default), is not a whole number of
 * jiffies, say so (a warning, in summary.json too)
 * and record the value in effect (policy_params.KEY_in_effect_ns).  The
 * policy still divides where the kernel does. */
void sim_note_jiffies(struct sim *sim, const char *key, int64_t ns, bool up);
/* Run policy hook @hook with sim->policy_hook naming it. */
#define SIM_POLICY_CALL(sim, hook, ...)                                 \
        do {                                                            \
                const char *saved_hook_ = (sim)->policy_hook;           \
                (sim)->policy_hook = #hook;                             \
                (sim)->policy->hook(__VA_ARGS__);                       \
                (sim)->policy_hook = saved_hook_;                       \
        } while (0)
/* Coverage (sim_options.coverage): note @t's policy state now, and the
 * transition from the last one seen. */
static inline void sim_cover(struct sim *sim, struct task *t)
{
        int s;

        if (!sim->coverage_on)
                return;
        s = sim->policy->state_of(sim->pol, t) & 63;
        if (t->policy_state_seen >= 0 && t->policy_state_seen != s)
                sim->coverage[t->policy_state_seen] |= UINT64_C(1) << s;
        t->policy_state_seen = s;
}
/* Coverage (sim_options.coverage): the engine saw event @e (coverage.h). */
G_STATIC_ASSERT(EE_EVENTS <= 64);
static inline void sim_count_event(struct sim *sim, enum engine_event e)
{
        if (sim->events_on)
                sim->events[0] |= UINT64_C(1) << e;
}
/* ... event @e of task @t: also the pair of its last event and this one,
 * as a policy's state_of() gives transitions. */
static inline void sim_count_task_event(struct sim *sim, struct task *t, enum engine_event e)
{
        if (!sim->events_on)
                return;
        sim->events[0] |= UINT64_C(1) << e;
        if (t->last_event >= 0) {
                int bit = t->last_event * EE_EVENTS + (int)e;

                sim->events[1 + bit / 64] |= UINT64_C(1) << (bit % 64);
        }
        t->last_event = (int)e;
}
/* Record a memory.csv row now. */
void sim_sample_memory(struct sim *sim);

/* Abort with a dump if the engine's state is inconsistent (RCUBOOST_CHECKS builds). */
void sim_check_invariants(struct sim *sim);

static inline struct task *sim_task(struct sim *sim, int id)
{
        return g_ptr_array_index(sim->tasks, id);
}

/* A tracepoint line for an ftrace-text trace, on @cpu as the kernel would
 * print it; costs one test when there is none. */
#define sim_trace(sim, cpu, event, ...) \
        do { \
                if ((sim)->tracepoints) \
                        sim_tracepoint((sim), (cpu), (event), __VA_ARGS__); \
        } while (0)
void sim_tracepoint(struct sim *sim, int cpu, const char *event, const char *fmt, ...) G_GNUC_PRINTF(4, 5);

#endif
