/* breach.c - policy modules that break the engine's contract, one way each
 * (tests/test_outputs.c): the engine must stop with an error naming the
 * module and the hook, never crash.
 *
 *   (neither)            keeps the contract and does nothing: "noop"
 *   BREACH_NULL_CREATE   create() returns NULL without a GError
 *   BREACH_PRIO=N        reader_blocked() boosts the reader to priority N
 *   BREACH_BLOCK         reader_blocked() calls sched_block() on the reader
 *   BREACH_UNDECLARED    create() reads a key its table does not declare
 *   BREACH_LATE_BOOST    a timer boosts the reader 10 ms after it blocked (it has exited by then)
 *   BREACH_REARM_NOW     a timer re-arms itself for the instant it fires
 *   BREACH_BAD_STEP=K    create() starts a thread whose step is of kind K, compute for ns -1
 *   BREACH_EXIT          reader_blocked() ends the process with exit(0)
 *   BREACH_SEGV          reader_blocked() writes through NULL for a reader preempted on CPU 1 (hunt: a crash)
 *   BREACH_SPIN          reader_blocked() never returns for a reader preempted on CPU 1 (hunt: a hang)
 *   BREACH_CREATE_CPUS   create() fails on a machine of more than 2 CPUs (hunt: create failed)
 *   BREACH_CREATE_SEGV   create() writes through NULL on a machine of 2 CPUs (hunt: a crash, in a child)
 *   BREACH_SLOW_CREATE   create() takes 0.4 s (hunt: --hang-timeout bounds one run, not a candidate's)
 */
#include <stdlib.h>

#include "policies/policy.h"
#include "sim/engine/engine.h"
#include "sim/scenario/scenario.h"
#include "sim/sched/sched.h"

/* A key of its own, as a researcher's policy has: set in [policy:NAME],
 * [policy] or --set like a built-in policy's. */
static const struct policy_key breach_keys[] = {
        { .name = "grace", .type = POLICY_KEY_DURATION, .default_value = "1ms",
          .doc = "how long a reader may stay preempted (read, not used)" },
#ifdef BREACH_BAD_ENUM
        { .name = "mode", .type = POLICY_KEY_ENUM, .default_value = "sometimes", .choices = "timer|kthread",
          .doc = "a default that is not one of its choices" },
#endif
        { .name = NULL },
};

#ifdef BREACH_BAD_STEP
static struct step bad_step(struct sim *sim, struct task *t)
{
        (void)sim;
        (void)t;
        return (struct step){ (enum step_kind)BREACH_BAD_STEP, -1 };
}
#endif

static void *create_breach(struct sim *sim, const struct policy_params *params, GError **error)
{
        int64_t grace;

#ifdef BREACH_NULL_CREATE
        (void)sim;
        (void)params;
        (void)error;
        (void)grace;
        return NULL;
#else
        if (!policy_param_duration(params, "grace", &grace, error))
                return NULL;
#ifdef BREACH_UNDECLARED
        if (!policy_param_duration(params, "nosuch", &grace, error))
                return NULL;
#endif
#ifdef BREACH_CREATE_CPUS
        if (sim->ncpus > 2) {
                g_set_error(error, POLICY_ERROR, POLICY_ERROR_CONTRACT, "%d CPUs: this policy runs on 2 at most",
                            sim->ncpus);
                return NULL;
        }
#endif
#ifdef BREACH_SLOW_CREATE
        g_usleep(400 * 1000);   /* each run 0.4 s longer: a candidate's six runs outlast a 2 s bound */
#endif
#ifdef BREACH_CREATE_SEGV
        if (sim->ncpus == 2)
                *(volatile int *)(uintptr_t)(sim->ncpus - 2) = 1;       /* through NULL: create() crashes */
#endif
#ifdef BREACH_BAD_STEP
        {
                struct sched_spec sp = { SCHED_POLICY_FIFO, 50 };
                struct cpumask all;

                cpumask_clear(&all);
                cpumask_set(&all, 0);
                sim_kthread_create(sim, "badstep", &sp, &all, bad_step, NULL, true);
        }
#endif
        return sim;
#endif
}

#if defined(BREACH_LATE_BOOST) || defined(BREACH_REARM_NOW)
static struct ptimer *the_timer;        /* a test module: one run per process */
#endif
#if defined(BREACH_TIMER_PAST) || defined(BREACH_LATE_BOOST) || defined(BREACH_REARM_NOW)
static void timer_fn(struct sim *sim, void *data, struct task *thread, int cpu)
{
        (void)thread;
#ifdef BREACH_LATE_BOOST
        sched_set_boost_prio(sim, data, 90, BOOST_SETPRIO);
#elif defined(BREACH_REARM_NOW)
        policy_timer_arm(sim, the_timer, cpu, sim->now);
#endif
        (void)sim;
        (void)data;
        (void)cpu;
}
#endif

static void reader_blocked_breach(void *pol, struct task *t, enum rcu_block_reason why)
{
        (void)why;
#ifdef BREACH_PRIO
        sched_set_boost_prio(pol, t, BREACH_PRIO, BOOST_SETPRIO);
#elif defined(BREACH_BLOCK)
        sched_block(pol, t, TASK_WAITING);
#elif defined(BREACH_EXIT)
        (void)pol;
        (void)t;
        exit(0);
#elif defined(BREACH_SEGV)
        (void)pol;
        if (t->cpu == 1) {
                volatile int *nowhere = NULL;

                *nowhere = 1;
        }
#elif defined(BREACH_SPIN)
        (void)pol;
        while (t->cpu == 1)
                ;
#elif defined(BROKEN_CPU0_ONLY)
        /* a plausible bug, for hunt to find: boost at once to FIFO 98 -- but
         * only readers preempted on CPU 0 */
        if (t->cpu == 0)
                sched_set_boost_prio(pol, t, 1, BOOST_SETPRIO);
#elif defined(BREACH_NEVER_UNBOOST)
        /* a boost kept past the reader's end: caught when the reader exits */
        sched_set_boost_prio(pol, t, 90, BOOST_SETPRIO);
#elif defined(BREACH_TIMER_PAST)
        {
                struct sim *sim = pol;

                policy_timer_arm(sim, policy_timer_new(sim, PTIMER_HARDIRQ, timer_fn, NULL), t->cpu,
                                 sim->now - 1);
        }
#elif defined(BREACH_LATE_BOOST) || defined(BREACH_REARM_NOW)
        {
                struct sim *sim = pol;

                if (!the_timer)
                        the_timer = policy_timer_new(sim, PTIMER_HARDIRQ, timer_fn, t);
                policy_timer_arm(sim, the_timer, t->cpu, sim->now + 10 * 1000 * 1000);
        }
#else
        (void)pol;
        (void)t;
#endif
}

static void reader_unlock_breach(void *pol, struct task *t)
{
#ifdef BROKEN_CPU0_ONLY
        if (t->boost_prio != PRIO_NONE)
                sched_set_boost_prio(pol, t, PRIO_NONE, BOOST_SETPRIO);
#else
        (void)pol;
        (void)t;
#endif
}

static const struct boost_policy_ops breach_ops = {
        .name = BREACH_NAME,
        .summary = "a test module that breaks the engine's contract",
        .keys = breach_keys,
        .create = create_breach,
        .reader_blocked = reader_blocked_breach,
        .reader_unlock = reader_unlock_breach,
};

RCUBOOST_POLICY(breach_ops);
