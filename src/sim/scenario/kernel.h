/* kernel.h - the kernel generation a run models: one table of what a
 * 2.6.22-rt kernel (2007, the article's) and a 6.1-rt kernel (Debian 12's
 * linux-image-rt-amd64) do around RCU, where the two differ.
 *
 * `[scenario] kernel=2.6.22-rt|6.1-rt` picks the generation; without it the
 * RCU flavour does (rcupreempt: 2.6.22-rt, tree: 6.1-rt), and without a
 * flavour either, the policy's.  Every value can still be set by its own
 * key (tick_hz, nohz_idle, rt_runtime, timer_softirq_thread, rt_wakeup),
 * which wins over the generation.  docs/design.md cites the source of each
 * value.
 */
#ifndef RCUBOOST_KERNEL_H
#define RCUBOOST_KERNEL_H

#include <glib.h>
#include <stdbool.h>

#include "../sched/task.h"
#include "units.h"

struct scenario;
struct report;

/* A scenario the generation cannot run: an input error, as SCENARIO_ERROR
 * is (its own domain, so that this table calls nothing in the parser). */
#define KERNEL_ERROR (kernel_error_quark())
GQuark kernel_error_quark(void);
enum { KERNEL_ERROR_INVALID };

/* Where a waking RT task goes when the CPU it last ran on is busy. */
enum rt_wakeup {
        /* 2.6.22-rt: its last CPU whenever it would preempt there; else the
         * CPU running the least urgent task. */
        RT_WAKEUP_LAST_CPU,
        /* 6.1 select_task_rq_rt(): away from a CPU whose current task is an
         * RT task that is pinned or at least as urgent, to find_lowest_rq()'s
         * CPU if that runs something less urgent than the waking task. */
        RT_WAKEUP_FIND_LOWEST,
};

struct kernel_env {
        const char *generation;         /* "2.6.22-rt" or "6.1-rt" */
        const char *default_flavour;    /* the RCU it shipped */
        int tick_hz;                    /* CONFIG_HZ */
        bool nohz_idle;                 /* CONFIG_NO_HZ_IDLE: idle CPUs stop their tick */
        const char *timer_thread_name;  /* the timer softirq's thread, "%d" = the CPU */
        struct sched_spec timer_thread;
        sim_time_ns rt_runtime_ns;      /* sched_rt_runtime_us, < 0: throttling off */
        enum rt_wakeup rt_wakeup;
        /* 6.1's RT balancing with rt_wakeup=find-lowest: cpupri ranks a CPU
         * by its most urgent queued or running RT task, idle and fair share
         * one level; pull_rt_task() takes only from RT-overloaded CPUs and
         * never a task about to run where it is (sched.c) */
        bool rt_balance_61;
        /* calc_index() rounds a timer-wheel expiry up by one unit of its
         * level (timerwheel.h); 2.6.22's wheel fired at the expiry jiffy */
        bool wheel_round_up;
        /* PREEMPT_RT: the hrtimer sleeps of tasks not RT are soft and expire
         * in the timer thread of the CPU they were armed on */
        bool soft_sleeps;
        /* a class change re-bases a fair task's vruntime on its queue's
         * min_vruntime (CFS; 2.6.22's O(1) scheduler had no vruntime) */
        bool vruntime_rebase;
        /* [scenario] phases: draw the tick grid's and the RT period's phase
         * and the order of simultaneous ticks from the seed */
        bool phases_drawn;
        /* rcu_gp_fqs_loop(): a grace period that starts with some CPU's
         * callbacks over qovld (RCU_GP_FLAG_OVLD) scans at once, twice */
        bool fqs_ovld;
        /* rcutree_prepare_cpu() took each CPU's n_force_qs_snap at its
         * bring-up, and the boot's FQS scans have moved rcu_state.n_force_qs
         * on since: a run's first qhimark crossing only re-takes it
         * (__call_rcu_core()), the second forces a scan */
        bool fqs_snap_from_boot;
        /* the fair class's tunables in effect: a scenario's [sched] value,
         * else the base value, scaled under source as 6.1 scales it at boot
         * (fair.c get_update_sysctl_factor(), SCHED_TUNABLESCALING_LOG:
         * 1 + ilog2(min(ncpus, 8))) */
        bool fair_scaled;
        sim_time_ns sched_latency_ns, min_granularity_ns, wakeup_granularity_ns;
        int fair_scale;                 /* the factor applied: 1 unless fair_scaled */
};

/* The environment @sc runs in under RCU flavour @flavour: the generation's
 * values, overridden by every key the scenario (or --set) gives.  Fails
 * only when the generation's RT runtime exceeds the scenario's rt_period. */
gboolean kernel_env_resolve(const struct scenario *sc, const char *flavour, struct kernel_env *env,
                            GError **error);

/* The generation named @name, or NULL. */
const struct kernel_env *kernel_generation(const char *name);
/* "2.6.22-rt, 6.1-rt", for messages. */
const char *kernel_generation_names(void);
/* The flavour a scenario without [rcu] flavour runs on when it names a
 * kernel, else NULL (then the policy's). */
const char *kernel_default_flavour(const struct scenario *sc);

const char *rt_wakeup_name(enum rt_wakeup w);
bool rt_wakeup_parse(const char *s, enum rt_wakeup *out);

/* summary.json's kernel.* keys. */
void kernel_env_report(const struct kernel_env *env, struct report *r);

#endif
