/* kernelprog.c - `rcuboost kernel-program`: a scenario as the real-kernel
 * harness runs it (scripts/kernel-run, src/kernel/rcuboost_kmod.c).
 *
 * The scenario is parsed and checked by the simulator's own loader, and its
 * tasks' compiled programs are written out instruction by instruction, so
 * the module interprets exactly what the simulator would: the same
 * statements, the same loops, the same distributions (drawn from the
 * module's own generator: the streams differ, the laws do not).  What a
 * kernel cannot be made to do is refused by name; what it does by itself
 * (the policy, [costs]) is reported as ignored.  The format is line based,
 * for a parser in the kernel:
 *
 *     rcuboost-kernel-program 2
 *     cpus N / duration NS / memory_limit BYTES / stop_on_oom 0|1 / seed S
 *     memory_sample NS / stall_threshold NS / mutexes N
 *     boot ARG...                  kernel command line (rcutree.*, nohz, skew_tick)
 *     sysctl KEY VALUE             set before the run (RT throttling)
 *     timer_thread POLICY PRIO     ktimers/N's scheduling
 *     task NAME POLICY VALUE START STOP MASK NINSN PERIOD   (PERIOD 0: not periodic)
 *     insn OP ARG TARGET SLOT DIST A B       (NINSN of them)
 *     quantiles L0..L248 U0..U248  after an insn whose DIST is normal,
 *                                  lognormal or pareto (rcuboost_draw.h)
 *     event AT TASK POLICY|- VALUE MASK      (a class and/or affinity change; MASK 0: none)
 *     end
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "../sim/engine/engine.h"
#include "../sim/scenario/kernel.h"
#include "../sim/scenario/program.h"
#include "../kernel/rcuboost_draw.h"
#include "../kernel/rcuboost_limits.h"

/* The generation the kernel is: Debian 12's rt kernel. */
#define REAL_KERNEL "6.1-rt"

static const char *policy_name(enum sched_policy p)
{
        return p == SCHED_POLICY_FIFO ? "fifo" : p == SCHED_POLICY_RR ? "rr" : "normal";
}

static void refuse(GPtrArray *why, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void refuse(GPtrArray *why, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        g_ptr_array_add(why, g_strdup_vprintf(fmt, ap));
        va_end(ap);
}

/* What the module holds (rcuboost_limits.h): past it the module refuses
 * the program at boot, which kernel-run could only report as a boot that
 * never finished. */
static void check_module_limits(const struct scenario *sc, GPtrArray *why)
{
        int ntasks = 0;

        for (guint i = 0; i < sc->tasks->len; i++) {
                const struct task_spec *ts = g_ptr_array_index(sc->tasks, i);
                g_autofree char *group = g_strdup_printf("task:%s", ts->name);
                g_autofree char *where = scenario_where(sc, group, NULL);
                g_autofree char *last = ts->count > 1 ? g_strdup_printf("%s.%d", ts->name, ts->count - 1)
                                                      : g_strdup(ts->name);
                int slots = 0;

                ntasks += MAX(ts->count, 1);
                if (strlen(last) > RCUBOOST_MAX_NAME)
                        refuse(why, "%s: the kernel names a thread in %d characters, and '%s' is longer (an "
                               "[event] on it would match nothing): shorten the name", where, RCUBOOST_MAX_NAME,
                               last);
                if (ts->program->len > RCUBOOST_MAX_INSNS)
                        refuse(why, "%s: %d instructions, the module holds %d a task", where, ts->program->len,
                               RCUBOOST_MAX_INSNS);
                for (int k = 0; k < ts->program->len; k++)
                        slots = MAX(slots, ts->program->code[k].slot + 1);
                if (slots > RCUBOOST_MAX_SLOTS)
                        refuse(why, "%s: %d repeat counters, the module holds %d a task", where, slots,
                               RCUBOOST_MAX_SLOTS);
        }
        if (ntasks > RCUBOOST_MAX_TASKS)
                refuse(why, "%d tasks (every copy of count=N), the module holds %d", ntasks, RCUBOOST_MAX_TASKS);
        if (sc->mutexes->len > RCUBOOST_MAX_MUTEXES)
                refuse(why, "%u mutexes, the module holds %d", sc->mutexes->len, RCUBOOST_MAX_MUTEXES);
        if (sc->events->len > RCUBOOST_MAX_EVENTS)
                refuse(why, "%u [event] sections, the module holds %d", sc->events->len, RCUBOOST_MAX_EVENTS);
}

/* Everything the scenario asks that a real 6.1-rt kernel cannot be made
 * to do; empty when it can run. */
static void check_runnable(const struct scenario *sc, const struct kernel_env *env, GPtrArray *why)
{
        if (sc->rcu_flavour && strcmp(sc->rcu_flavour, "tree") != 0)
                refuse(why, "[rcu] flavour=%s: the kernel is Tree RCU", sc->rcu_flavour);
        if (sc->kernel && strcmp(sc->kernel, REAL_KERNEL) != 0)
                refuse(why, "[scenario] kernel=%s: the kernel is %s", sc->kernel, REAL_KERNEL);
        if (env->tick_hz != 250)
                refuse(why, "[scenario] tick_hz=%d: the kernel is built with HZ=250", env->tick_hz);
        if (env->rt_wakeup != RT_WAKEUP_FIND_LOWEST)
                refuse(why, "[sched] rt_wakeup=%s: the kernel's is find-lowest", rt_wakeup_name(env->rt_wakeup));
        if (!sc->softirq_threads)
                refuse(why, "[sched] softirq_threads=false: timeouts expire in ktimers/N");
        if (!sc->load_balance)
                refuse(why, "[sched] load_balance=false: the kernel balances");
        if (sc->rcuc_sched_set)
                refuse(why, "[rcu] rcuc_thread: the kernel sets rcuc/N itself");
        if (sc->fqs_snapshot_fresh)
                refuse(why, "[rcu] fqs_snapshot=fresh: the module forces one FQS scan before the run, as on a box "
                            "whose CPUs came up at boot (rcuboost_kmod.c age_fqs_snapshots())");
        if (sc->ncpus > 64)
                refuse(why, "[scenario] cpus=%d: the harness boots at most 64", sc->ncpus);
        if (sc->irqs->len)
                refuse(why, "[irq:%s]: device interrupts are not emulated",
                       ((struct irq_spec *)g_ptr_array_index(sc->irqs, 0))->name);
        for (guint i = 0; i < sc->events->len; i++) {
                const struct timed_event_spec *ev = g_ptr_array_index(sc->events, i);
                g_autofree char *group = g_strdup_printf("event:%s", ev->name);

                if (ev->policy_keys && ev->policy_keys->len)
                        refuse(why, "[event:%s] policy.KEY: the kernel's boosting has no parameters to change",
                               ev->name);
                if (ev->task && !scenario_task_named(sc, ev->task)) {
                        g_autofree char *where = scenario_where(sc, group, "task");

                        refuse(why, "%s: %s is the kernel's own thread, and the module changes only the "
                               "scenario's tasks", where, ev->task);
                }
        }
        /* Settings the module does not make: refused unless they are what
         * the kernel has anyway (never a different experiment than the file) */
        static const struct {
                const char *key, *kernel_value, *why;
        } unset[] = {
                { "rr_timeslice", "100ms", "sched_rr_timeslice_ms is not set by the harness" },
                { "rt_runtime_share", "false", "the kernel's RT_RUNTIME_SHARE is off and not set by the harness" },
                { "sched_latency", NULL, "/sys/kernel/debug/sched/latency_ns is not set by the harness" },
                { "min_granularity", NULL, "/sys/kernel/debug/sched/min_granularity_ns is not set by the harness" },
                { "wakeup_granularity", NULL, "/sys/kernel/debug/sched/wakeup_granularity_ns is not set by the "
                  "harness" },
        };
        for (size_t i = 0; i < G_N_ELEMENTS(unset); i++) {
                g_autofree char *v = g_key_file_get_value(sc->kf, "sched", unset[i].key, NULL);

                if (v && !(unset[i].kernel_value && !strcmp(g_strstrip(v), unset[i].kernel_value))) {
                        g_autofree char *where = scenario_where(sc, "sched", unset[i].key);

                        refuse(why, "%s: %s", where, unset[i].why);
                }
        }
        if (sc->break_grace_periods)
                refuse(why, "[debug] break_grace_periods: a test switch of the simulator");
        check_module_limits(sc, why);
}

/* normal, lognormal and pareto draw in the module by inverse transform:
 * the quantiles at rcuboost_draw.h's grid, the lower half's (p = 2^-s)
 * then the upper half's (p = 1 - 2^-s), s = 1 + j / QSTEPS. */
static void print_quantiles(FILE *f, const struct dist *d)
{
        fputs("quantiles", f);
        for (int half = 0; half < 2; half++)
                for (int j = 0; j < RCUBOOST_QPOINTS; j++) {
                        double tail = exp2(-(1.0 + (double)j / RCUBOOST_QSTEPS));

                        fprintf(f, " %" G_GINT64_FORMAT, (gint64)dist_quantile(d, half ? 1.0 - tail : tail));
                }
        fputc('\n', f);
}

static void print_task(FILE *f, const struct scenario *sc, const struct task_spec *ts, int copy)
{
        g_autofree char *name = ts->count > 1 ? g_strdup_printf("%s.%d", ts->name, copy) : g_strdup(ts->name);
        uint64_t mask = 0;

        if (ts->affinity_each) {
                mask = 1ULL << scenario_each_cpu(ts, sc->ncpus, copy);
        } else {
                for (int c = 0; c < sc->ncpus; c++)
                        if (cpumask_test(&ts->affinity, c))
                                mask |= 1ULL << c;
        }
        fprintf(f, "task %s %s %d %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_MODIFIER "x %d %"
                G_GINT64_FORMAT "\n", name, policy_name(ts->sched.policy), ts->sched.value, (gint64)ts->start_ns,
                (gint64)(ts->stop_ns == SIM_TIME_NEVER ? -1 : ts->stop_ns), (guint64)mask, ts->program->len,
                (gint64)ts->period_ns);
        if (ts->start_in_task >= 0) {
                /* start_in=: the waker's index among the task lines (it has one copy) */
                int waker = 0;

                for (int i = 0; i < ts->start_in_task; i++)
                        waker += ((const struct task_spec *)g_ptr_array_index(sc->tasks, i))->count;
                fprintf(f, "start_in %d\n", waker);
        }
        for (int k = 0; k < ts->program->len; k++) {
                const struct insn *in = &ts->program->code[k];

                fprintf(f, "insn %d %d %d %d %d %.0f %.0f\n", (int)in->op, in->arg, in->target, in->slot,
                        (int)in->q.kind, round(in->q.a), round(in->q.b));
                if (in->q.kind >= DIST_NORMAL)
                        print_quantiles(f, &in->q);
        }
}

static gint by_time(gconstpointer a, gconstpointer b)
{
        const struct timed_event_spec *x = *(const struct timed_event_spec *const *)a;
        const struct timed_event_spec *y = *(const struct timed_event_spec *const *)b;

        return (x->at_ns > y->at_ns) - (x->at_ns < y->at_ns);
}

int cli_kernel_program(int argc, char **argv)
{
        g_auto(GStrv) sets = NULL;
        gboolean quiet = FALSE;
        GOptionEntry entries[] = {
                { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Override a scenario key (repeatable)",
                  "SECTION.KEY=VALUE" },
                { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Do not list what the kernel ignores", NULL },
                { NULL, 0, 0, 0, NULL, NULL, NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("SCENARIO.scn - the scenario as the real-kernel module runs it");
        g_autoptr(GError) e = NULL;
        g_autoptr(GPtrArray) why = g_ptr_array_new_with_free_func(g_free);
        struct kernel_env env;

        g_option_context_add_main_entries(ctx, entries, NULL);
        g_option_context_set_summary(ctx,
                "Writes SCENARIO's tasks and kernel settings on stdout in the line format that\n"
                "scripts/kernel-run feeds to the rcuboost kernel module (src/kernel/). The kernel\n"
                "is Debian 12's PREEMPT_RT 6.1 with CONFIG_RCU_BOOST: Tree RCU, HZ 250; what it\n"
                "cannot be made to do is refused (exit 2), what it does itself (the policy,\n"
                "[costs], [policy] keys) is listed as ignored on stderr.");
        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return cli_usage_error(ctx, "kernel-program: %s", e->message);
        if (argc != 2)
                return cli_usage_error(ctx, "kernel-program: which scenario file?");
        g_autoptr(RcbScenario) sc = scenario_load(argv[1], (const char *const *)sets, &e);
        if (!sc) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                return cli_error_status(e);
        }
        if (!kernel_env_resolve(sc, "tree", &env, &e)) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                return cli_error_status(e);
        }
        check_runnable(sc, &env, why);
        if (why->len) {
                for (guint i = 0; i < why->len; i++)
                        fprintf(stderr, "rcuboost: %s: cannot run on the kernel: %s\n", sc->path,
                                (char *)why->pdata[i]);
                return EXIT_USAGE;
        }
        if (!quiet) {
                if (g_key_file_has_group(sc->kf, "costs"))
                        fprintf(stderr, "rcuboost: %s: [costs] ignored: the kernel's costs are its own\n", sc->path);
                g_auto(GStrv) groups = g_key_file_get_groups(sc->kf, NULL);

                for (char **g = groups; *g; g++)
                        if (!strcmp(*g, "policy") || g_str_has_prefix(*g, "policy:"))
                                fprintf(stderr, "rcuboost: %s: [%s] ignored: the kernel boosts as CONFIG_RCU_BOOST "
                                        "(boost_delay 500 ms, built in)\n", sc->path, *g);
                if (strcmp(sc->policy, "none") != 0 && strcmp(sc->policy, "rcu-boost") != 0)
                        fprintf(stderr, "rcuboost: %s: policy %s ignored: the kernel is rcu-boost\n", sc->path,
                                sc->policy);
        }

        printf("rcuboost-kernel-program %d\n", RCUBOOST_PROGRAM_FORMAT);
        printf("scenario %s\n", sc->name);
        printf("cpus %d\nduration %" G_GINT64_FORMAT "\nmemory_limit %" G_GINT64_FORMAT "\nstop_on_oom %d\n",
               sc->ncpus, (gint64)sc->duration_ns, (gint64)sc->memory_limit_bytes, sc->stop_on_oom ? 1 : 0);
        printf("seed %" G_GUINT64_FORMAT "\nmemory_sample %" G_GINT64_FORMAT "\nstall_threshold %" G_GINT64_FORMAT
               "\nmutexes %u\n", sc->seed, (gint64)sc->memory_sample_ns, (gint64)sc->stall_threshold_ns,
               sc->mutexes->len);
        /* rcutree.* as the scenario sets them; the rest is the kernel's default */
        printf("boot");
        if (sc->kthread_prio >= 0)
                printf(" rcutree.kthread_prio=%d", sc->kthread_prio);
        if (g_key_file_has_key(sc->kf, "rcu", "qhimark", NULL))
                printf(" rcutree.qhimark=%" G_GINT64_FORMAT, (gint64)sc->qhimark);
        if (g_key_file_has_key(sc->kf, "rcu", "qovld", NULL))
                printf(" rcutree.qovld=%" G_GINT64_FORMAT, (gint64)sc->qovld);
        if (sc->jiffies_till_first_fqs >= 0)
                printf(" rcutree.jiffies_till_first_fqs=%" G_GINT64_FORMAT, (gint64)sc->jiffies_till_first_fqs);
        if (sc->jiffies_till_next_fqs >= 0)
                printf(" rcutree.jiffies_till_next_fqs=%" G_GINT64_FORMAT, (gint64)sc->jiffies_till_next_fqs);
        if (g_key_file_has_key(sc->kf, "rcu", "fanout_leaf", NULL))
                printf(" rcutree.rcu_fanout_leaf=%d", sc->fanout_leaf);
        if (!env.nohz_idle)
                printf(" nohz=off");
        if (sc->skew_tick)
                printf(" skew_tick=1");
        printf("\n");
        printf("sysctl kernel.sched_rt_period_us %" G_GINT64_FORMAT "\n", (gint64)(sc->rt_period_ns / 1000));
        printf("sysctl kernel.sched_rt_runtime_us %" G_GINT64_FORMAT "\n",
               (gint64)(env.rt_runtime_ns < 0 ? -1 : env.rt_runtime_ns / 1000));
        printf("timer_thread %s %d\n", policy_name(env.timer_thread.policy), env.timer_thread.value);
        for (guint i = 0; i < sc->tasks->len; i++) {
                const struct task_spec *ts = g_ptr_array_index(sc->tasks, i);

                for (int copy = 0; copy < ts->count; copy++)
                        print_task(stdout, sc, ts, copy);
        }
        /* [event:NAME]: at AT, a task's copies get a new class and/or affinity (0: unchanged);
         * in time order, as the module applies them */
        g_autoptr(GPtrArray) events = g_ptr_array_new();      /* borrowed: not freed with it */

        for (guint i = 0; i < sc->events->len; i++)
                g_ptr_array_add(events, g_ptr_array_index(sc->events, i));
        g_ptr_array_sort(events, by_time);
        for (guint i = 0; i < events->len; i++) {
                const struct timed_event_spec *ev = g_ptr_array_index(events, i);
                uint64_t mask = 0;

                if (!ev->task)
                        continue;
                for (int c = 0; ev->set_affinity && c < sc->ncpus; c++)
                        if (cpumask_test(&ev->affinity, c))
                                mask |= 1ULL << c;
                printf("event %" G_GINT64_FORMAT " %s %s %d %" G_GINT64_MODIFIER "x\n", (gint64)ev->at_ns, ev->task,
                       ev->set_sched ? policy_name(ev->sched.policy) : "-", ev->set_sched ? ev->sched.value : 0,
                       (guint64)mask);
        }
        printf("end\n");
        if (fflush(stdout) != 0 || ferror(stdout)) {
                fprintf(stderr, "rcuboost: kernel-program: writing stdout failed\n");
                return EXIT_FAILURE;
        }
        return EXIT_OK;
}
