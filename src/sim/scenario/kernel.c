/* kernel.c - the kernel generations; see kernel.h and docs/design.md. */
#include "kernel.h"

#include <string.h>

#include "../output/report.h"
#include "scenario.h"

G_DEFINE_QUARK(rcuboost-kernel-error-quark, kernel_error)

static const struct kernel_env generations[] = {
        {
                /* The article's kernel.  HZ=1000 was the -rt patch set's
                 * recommendation; RT throttling came in 2.6.25 and the
                 * RT wake-up balancing of select_task_rq_rt() in 2.6.25;
                 * softirqs ran in per-CPU threads sirq-timer/N at
                 * MAX_USER_RT_PRIO/2 (softirq.h). */
                .generation = "2.6.22-rt",
                .default_flavour = "rcupreempt",
                .tick_hz = 1000,
                .nohz_idle = false,
                .timer_thread_name = "sirq-timer/%d",
                .timer_thread = { SCHED_POLICY_FIFO, 50 },
                .rt_runtime_ns = -1,
                .rt_wakeup = RT_WAKEUP_LAST_CPU,
                .wheel_round_up = false,
                .soft_sleeps = false,
                .vruntime_rebase = false,
                .phases_drawn = false,
        },
        {
                /* Debian 12's linux-image-rt-amd64: CONFIG_HZ_250,
                 * CONFIG_NO_HZ_IDLE behaviour for idle CPUs
                 * (tick_nohz_idle_stop_tick()), the RT patch set's
                 * ktimers/N (kernel/softirq.c timersd_setup():
                 * sched_set_fifo_low(), SCHED_FIFO 1), sched_rt_runtime_us
                 * 950000 per sched_rt_period_us 1000000
                 * (kernel/sched/core.c), select_task_rq_rt()'s
                 * find_lowest_rq() (kernel/sched/rt.c). */
                .generation = "6.1-rt",
                .default_flavour = "tree",
                .tick_hz = 250,
                .nohz_idle = true,
                .timer_thread_name = "ktimers/%d",
                .timer_thread = { SCHED_POLICY_FIFO, 1 },
                .rt_runtime_ns = 950 * NSEC_PER_MSEC,
                .rt_wakeup = RT_WAKEUP_FIND_LOWEST,
                /* the timer and RT-placement layer as rcuboost had it before
                 * #46; [scenario] kernel_layer=source turns on the kernel's
                 * (apply_source_layer()) */
        },
};

const struct kernel_env *kernel_generation(const char *name)
{
        for (size_t i = 0; i < G_N_ELEMENTS(generations); i++)
                if (name && !strcmp(name, generations[i].generation))
                        return &generations[i];
        return NULL;
}

const char *kernel_generation_names(void)
{
        return "2.6.22-rt, 6.1-rt";
}

const char *kernel_default_flavour(const struct scenario *sc)
{
        const struct kernel_env *k = kernel_generation(sc->kernel);

        return k ? k->default_flavour : NULL;
}

/* [scenario] kernel_layer=source on 6.1-rt: the timer and RT-placement
 * layer as the 6.1 source has it (docs/design.md cites each). */
static void apply_source_layer(struct kernel_env *env)
{
        /* kernel/sched/rt.c select_task_rq_rt(), find_lowest_rq(),
         * pull_rt_task(); kernel/sched/cpupri.c convert_prio() */
        env->rt_balance_61 = true;
        /* kernel/time/timer.c calc_wheel_index(), calc_index() */
        env->wheel_round_up = true;
        /* kernel/time/hrtimer.c __hrtimer_init(): on PREEMPT_RT a timer not
         * HRTIMER_MODE_HARD is soft; __hrtimer_init_sleeper() makes hard
         * only an RT task's sleep */
        env->soft_sleeps = true;
        /* kernel/sched/core.c __sched_setscheduler(), rt_mutex_setprio():
         * DEQUEUE_SAVE / ENQUEUE_RESTORE; fair.c enqueue_entity() adds the
         * queue's min_vruntime back */
        env->vruntime_rebase = true;
        env->phases_drawn = true;
        /* kernel/rcu/tree.c rcu_gp_fqs_loop(), rcu_gp_fqs_check_wake() */
        env->fqs_ovld = true;
        /* kernel/rcu/tree.c rcutree_prepare_cpu(), __call_rcu_core() */
        env->fqs_snap_from_boot = true;
        /* kernel/sched/fair.c get_update_sysctl_factor(): scale the fair
         * tunables (resolve_fair_tunables()) */
        env->fair_scaled = true;
}

/* sysctl_sched_latency, _min_granularity, _wakeup_granularity: 6.1 boots
 * with the normalized values times 1 + ilog2(min(ncpus, 8)) (fair.c
 * update_sysctl()); a value the scenario gives is the one in effect, as a
 * write to /sys/kernel/debug/sched/ sets it.  The legacy layer and 2.6.22-rt
 * take the scenario's values as they are. */
static void resolve_fair_tunables(const struct scenario *sc, struct kernel_env *env)
{
        int cpus = MIN(sc->ncpus, 8), factor = 1;

        if (env->fair_scaled)
                for (; cpus > 1; cpus >>= 1)
                        factor++;
        env->fair_scale = factor;
        env->sched_latency_ns = sc->sched_latency_ns *
                                (g_key_file_has_key(sc->kf, "sched", "sched_latency", NULL) ? 1 : factor);
        env->min_granularity_ns = sc->min_granularity_ns *
                                  (g_key_file_has_key(sc->kf, "sched", "min_granularity", NULL) ? 1 : factor);
        env->wakeup_granularity_ns = sc->wakeup_granularity_ns *
                                     (g_key_file_has_key(sc->kf, "sched", "wakeup_granularity", NULL) ? 1 : factor);
}

gboolean kernel_env_resolve(const struct scenario *sc, const char *flavour, struct kernel_env *env, GError **error)
{
        const struct kernel_env *k = kernel_generation(sc->kernel);

        if (!k)
                k = &generations[flavour && !strcmp(flavour, "tree") ? 1 : 0];
        *env = *k;
        if (sc->kernel_layer_source && !strcmp(env->generation, "6.1-rt"))
                apply_source_layer(env);
        resolve_fair_tunables(sc, env);
        if (sc->tick_hz > 0)
                env->tick_hz = sc->tick_hz;
        if (sc->nohz_idle >= 0)
                env->nohz_idle = sc->nohz_idle;
        if (sc->timer_softirq_set)
                env->timer_thread = sc->timer_softirq_sched;
        if (sc->rt_runtime_set)
                env->rt_runtime_ns = sc->rt_runtime_ns;
        if (sc->rt_wakeup >= 0)
                env->rt_wakeup = (enum rt_wakeup)sc->rt_wakeup;
        if (sc->phases >= 0)
                env->phases_drawn = sc->phases;
        if (strcmp(flavour, "tree") != 0) {
                /* rcupreempt's dynticks interface (rcu_enter_nohz() in 2.6.25)
                 * is not modelled: its CPUs keep their ticks */
                if (sc->nohz_idle == 1) {
                        g_set_error(error, KERNEL_ERROR, KERNEL_ERROR_INVALID,
                                    "%s: [scenario] nohz_idle: needs [rcu] flavour=tree (rcupreempt's CPUs keep "
                                    "their ticks in rcuboost)", sc->path);
                        return FALSE;
                }
                env->nohz_idle = false;
        }
        if (env->rt_runtime_ns > sc->rt_period_ns) {
                g_set_error(error, KERNEL_ERROR, KERNEL_ERROR_INVALID,
                            "%s: [sched] rt_period: shorter than %s's rt_runtime (%" G_GINT64_FORMAT
                            " ms): set [sched] rt_runtime as well", sc->path, env->generation,
                            (gint64)(env->rt_runtime_ns / NSEC_PER_MSEC));
                return FALSE;
        }
        return TRUE;
}

static const char *const rt_wakeup_names[] = {
        [RT_WAKEUP_LAST_CPU] = "last-cpu",
        [RT_WAKEUP_FIND_LOWEST] = "find-lowest",
};

const char *rt_wakeup_name(enum rt_wakeup w)
{
        return rt_wakeup_names[w];
}

bool rt_wakeup_parse(const char *s, enum rt_wakeup *out)
{
        for (size_t i = 0; i < G_N_ELEMENTS(rt_wakeup_names); i++) {
                if (!strcmp(s, rt_wakeup_names[i])) {
                        *out = (enum rt_wakeup)i;
                        return true;
                }
        }
        return false;
}

void kernel_env_report(const struct kernel_env *env, struct report *r)
{
        g_autofree char *timer = g_strdup_printf(env->timer_thread_name, 0);
        char *slash = strchr(timer, '/');

        if (slash)
                strcpy(slash, "/N");
        report_string(r, "kernel.generation", env->generation);
        report_int(r, "kernel.tick_hz", env->tick_hz);
        report_bool(r, "kernel.nohz_idle", env->nohz_idle);
        report_string(r, "kernel.timer_thread", timer);
        report_int(r, "kernel.timer_thread_prio", env->timer_thread.policy == SCHED_POLICY_NORMAL
                                                          ? 0 : env->timer_thread.value);
        if (env->rt_runtime_ns >= 0)
                report_int(r, "kernel.rt_runtime_ns", env->rt_runtime_ns);
        else
                report_null(r, "kernel.rt_runtime_ns");
        report_string(r, "kernel.rt_wakeup", rt_wakeup_name(env->rt_wakeup));
        report_bool(r, "kernel.rt_balance_61", env->rt_balance_61);
        report_bool(r, "kernel.timer_wheel_round_up", env->wheel_round_up);
        report_bool(r, "kernel.soft_sleeps", env->soft_sleeps);
        report_bool(r, "kernel.vruntime_rebase", env->vruntime_rebase);
        report_bool(r, "kernel.fqs_overload_scans", env->fqs_ovld);
        report_bool(r, "kernel.fqs_snap_from_boot", env->fqs_snap_from_boot);
        report_int(r, "kernel.fair_tunable_scale", env->fair_scale);
        report_string(r, "kernel.phases", env->phases_drawn ? "drawn" : "aligned");
}
