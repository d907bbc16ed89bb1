/* task.c - simulated tasks and the program interpreter; see task.h. */
#include "task.h"

#include <stddef.h>

#include "../engine/engine.h"
#include "rtwait.h"

/* More zero-time steps than this at one instant is a runaway loop. */
#define MAX_ZERO_TIME_STEPS 1000000

static void run_event(struct sim *sim, struct event *ev);
static void timer_event(struct sim *sim, struct event *ev);

/* task.h lays struct task out in 64-byte blocks: keep each where it says. */
#define TASK_BLOCK_STARTS(field, block) \
        G_STATIC_ASSERT(sizeof(void *) != 8 || offsetof(struct task, field) == (block) * 64)
TASK_BLOCK_STARTS(overhead_ns, 1);
TASK_BLOCK_STARTS(timer_ev, 2);
TASK_BLOCK_STARTS(prog, 3);
TASK_BLOCK_STARTS(policy_data, 4);

static struct task *task_alloc(struct sim *sim, const char *name)
{
        struct task *t = g_new0(struct task, 1);

        t->id = (int)sim->tasks->len;
        t->name = g_strdup(name);
        t->state = TASK_NEW;
        t->boost_prio = PRIO_NONE;
        boost_track_init(&t->boost_tr);
        t->policy_state_seen = -1;
        t->last_event = -1;
        t->timeout_cpu = -1;
        heap_node_init(&t->rq_node);
        event_init(&t->run_ev, run_event);
        event_init(&t->timer_ev, timer_event);
        t->waiter_link.data = t;
        g_queue_init(&t->held);
        t->stop_ns = SIM_TIME_NEVER;
        g_ptr_array_add(sim->tasks, t);
        return t;
}

struct task *task_new_scripted(struct sim *sim, const char *name, const struct program *prog,
                               uint64_t seed)
{
        struct task *t = task_alloc(sim, name);

        t->step = task_program_step;
        t->prog = prog;
        t->counters = g_new0(int, prog->counter_slots);
        t->rng = dist_rng_new(seed, name);
        return t;
}

struct task *task_new_kthread(struct sim *sim, const char *name, task_step_fn step, void *data)
{
        struct task *t = task_alloc(sim, name);

        t->kthread = true;
        t->step = step;
        t->step_data = data;
        return t;
}

void task_free(struct task *t)
{
        if (!t)
                return;
        g_free(t->name);
        g_free(t->counters);
        g_free(t->policy_data);
        if (t->section_wakees)
                g_ptr_array_unref(t->section_wakees);
        if (t->rng)
                gsl_rng_free(t->rng);
        if (t->wakeup) {
                latency_stat_finish(t->wakeup);
                g_free(t->wakeup);
        }
        rtwait_free(t->rtw);
        if (t->wakeup_hist) {
                g_free(t->wakeup_hist->bin);    /* the range is the sim's */
                g_free(t->wakeup_hist);
        }
        g_free(t);
}

const char *task_state_name(enum task_state s)
{
        static const char *const names[] = {
                "new", "runnable", "running", "sleeping", "blocked", "waiting", "exiting", "exited",
        };
        return names[s];
}

/* ---- the interpreter ---- */

static void record_release(struct sim *sim, struct task *t)
{
        int64_t latency = sim->now - t->release_ns;

        latency_stat_add(t->wakeup, latency);
        latency_stat_add(&sim->rt_wakeup, latency);
        if (t->normal_prio == sim->rt_top_prio)
                latency_stat_add(&sim->rt_top, latency);
        t->last_wakeup_ns = latency;
        rtwait_ran(sim, t, latency);
        if (t->wakeup_hist && gsl_histogram_increment(t->wakeup_hist, latency / 1000.0) != GSL_SUCCESS)
                t->wakeup_overflows++;
        t->activations++;
}

/* start_in=: a task that waits for this one's first read-side section at
 * or after its start is woken now, from inside the section, as a reader
 * calling wake_up_process() after rcu_read_lock() would.  The preemption
 * point below then lets a more urgent wakee preempt it in the section. */
static void wake_from_section(struct sim *sim, struct task *t)
{
        GPtrArray *w = t->section_wakees;

        for (guint i = 0; i < w->len;) {
                struct task *wakee = g_ptr_array_index(w, i);

                if (sim->now < wakee->start_ns) {
                        i++;
                        continue;
                }
                g_ptr_array_remove_index(w, i);
                if (wakee->state == TASK_NEW)
                        sched_wake(sim, wakee);
        }
        t->wakes_in_section = w->len > 0;
}

struct step task_program_step(struct sim *sim, struct task *t)
{
        const struct program *prog = t->prog;

        if (t->awaiting_release) {
                t->awaiting_release = false;
                record_release(sim, t);
        }
        for (;;) {
                const struct insn *in;

                /* Stopping is only safe outside critical sections and mutexes. */
                if (sim->now >= t->stop_ns && t->rcu_nesting == 0 && g_queue_is_empty(&t->held))
                        return (struct step){ STEP_EXIT, 0 };
                in = &prog->code[t->pc];
                switch (in->op) {
                case OP_COMPUTE:
                        t->pc++;
                        return (struct step){ STEP_COMPUTE, dist_sample(&in->q, t->rng) };
                case OP_SLEEP:
                        t->pc++;
                        return (struct step){ STEP_SLEEP_UNTIL, sim->now + dist_sample(&in->q, t->rng) };
                case OP_LOCK:
                        t->pc++;
                        if (!mutex_lock(sim, &sim->mutexes[in->arg], t))
                                return (struct step){ STEP_BLOCK_MUTEX, 0 };
                        break;
                case OP_UNLOCK:
                        t->pc++;
                        mutex_unlock(sim, &sim->mutexes[in->arg], t);
                        break;
                case OP_RCU_LOCK:
                        t->pc++;
                        sim->sched_hooks->read_lock(sim, t);
                        if (t->wakes_in_section && t->rcu_nesting == 1)
                                wake_from_section(sim, t);
                        break;
                case OP_RCU_UNLOCK:
                        t->pc++;
                        sim->sched_hooks->read_unlock(sim, t);
                        break;
                case OP_CALL_RCU:
                        t->pc++;
                        t->call_rcus++;
                        sim->sched_hooks->call_rcu(sim, t, dist_sample(&in->q, t->rng));
                        break;
                case OP_SYNC_RCU:
                        t->pc++;
                        sim->sched_hooks->synchronize_rcu(sim, t);
                        return (struct step){ STEP_WAIT, 0 };
                case OP_REPEAT:
                        t->counters[in->slot] = in->arg;
                        t->pc++;
                        break;
                case OP_REPEAT_END:
                        t->pc = --t->counters[in->slot] > 0 ? in->target + 1 : t->pc + 1;
                        break;
                case OP_JUMP:
                        t->iterations += in->target < t->pc;
                        t->pc = in->target;
                        break;
                case OP_END:
                        if (!t->period_ns)
                                return (struct step){ STEP_EXIT, 0 };
                        t->iterations++;
                        t->pc = 0;
                        t->release_ns += t->period_ns;
                        if (t->release_ns > sim->now) {
                                t->awaiting_release = true;
                                return (struct step){ STEP_SLEEP_UNTIL, t->release_ns };
                        }
                        /* Overran into the next period: start it late at once,
                         * and the lateness counts as latency, as in cyclictest. */
                        t->overruns++;
                        record_release(sim, t);
                        break;
                }
                /* A preemption point: e.g. an unlock woke a more urgent task. */
                if (sched_need_resched(&sim->cpus[t->cpu]) || sim->stopping)
                        return (struct step){ STEP_COMPUTE, 0 };
        }
}

/* ---- the engine side: running steps ---- */

/* A boost the policy never dropped would outlive its task (a policy that
 * needs time to drop it holds the task in TASK_EXITING: task_exit). */
static void exit_check_unboosted(struct sim *sim, struct task *t)
{
        const char *saved = sim->policy_hook;

        if (t->boost_prio == PRIO_NONE)
                return;
        sim->policy_hook = "task_exit";
        sim_policy_breach(sim, "%s exits with the boost to priority %d still set: a boost the policy never "
                          "dropped (sched_set_boost_prio(t, PRIO_NONE, ...))", t->name, t->boost_prio);
        sim->policy_hook = saved;
}

static void task_exit(struct sim *sim, struct task *t)
{
        if (sim->policy->task_exit) {
                const char *saved = sim->policy_hook;
                bool gone;

                sim->policy_hook = "task_exit";
                gone = sim->policy->task_exit(sim->pol, t);
                sim->policy_hook = saved;
                if (!gone) {
                        sched_block(sim, t, TASK_EXITING);
                        return;
                }
        }
        exit_check_unboosted(sim, t);
        sim->exited++;
        sched_block(sim, t, TASK_EXITED);
}

void sim_task_exit_release(struct sim *sim, struct task *t)
{
        g_return_if_fail(t->state == TASK_EXITING);
        exit_check_unboosted(sim, t);
        t->state = TASK_EXITED;
        sim->exited++;
}

/* A step a kernel thread's function returned that the engine cannot take
 * -- a kind it does not know, a negative burn -- would hang the run without
 * a word (#49): a policy's thread breaks its contract, the engine's own is a
 * bug; either stops the run. */
static bool step_valid(struct sim *sim, struct task *t, struct step s)
{
        const char *what = NULL;

        if ((unsigned)s.kind > STEP_EXIT)
                what = "a step of no kind the engine knows";
        else if (s.kind == STEP_COMPUTE && s.ns < 0)
                what = "a negative compute";
        if (!what)
                return true;
        if (t->policy_thread)
                sim_policy_breach(sim, "%s's step returned %s (kind %d, %" G_GINT64_FORMAT " ns)", t->name, what,
                                  (int)s.kind, (gint64)s.ns);
        else
                sim_stop(sim, "error", g_error_new(SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                                                   "task %s: its step returned %s (kind %d)", t->name, what,
                                                   (int)s.kind));
        return false;
}

/* Step @t (running, nothing left to burn) until it burns, sleeps, waits or exits. */
static void task_continue(struct sim *sim, struct task *t)
{
        if (t->sync_returning) {        /* back from synchronize_rcu() */
                t->sync_returning = false;
                if (sim->policy->sync_end)
                        SIM_POLICY_CALL(sim, sync_end, sim->pol, t);
        }
        for (int n = 0;; n++) {
                struct step s;

                sim->this_cpu = t->cpu;
                s = t->step(sim, t);

                if (!step_valid(sim, t, s))
                        return;
                switch (s.kind) {
                case STEP_COMPUTE:
                        t->remaining_ns = s.ns;
                        if (s.ns == 0 && t->overhead_ns == 0 && !sched_need_resched(&sim->cpus[t->cpu]) &&
                            !sim->stopping) {
                                if (n < MAX_ZERO_TIME_STEPS)
                                        continue;
                                sim_stop(sim, "error", g_error_new(SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                                         "task %s made %d steps without simulated time passing "
                                         "(a loop whose durations are all zero?)", t->name, n));
                                return;
                        }
                        sched_burn_start(sim, t);
                        return;
                case STEP_SLEEP_UNTIL:
                case STEP_TIMEOUT_UNTIL:
                        /* A timer-wheel timeout, or on PREEMPT_RT an hrtimer
                         * sleep of a task not RT (a soft one): both expire in
                         * the timer thread of the CPU they were armed on. */
                        t->timeout_cpu = s.kind == STEP_TIMEOUT_UNTIL ||
                                         (sim->env.soft_sleeps && !task_is_rt(t)) ? t->cpu : -1;
                        if (s.kind == STEP_TIMEOUT_UNTIL)
                                s.ns = timer_wheel_on_cpu(sim, t->cpu, s.ns);
                        eventq_schedule(&sim->q, &t->timer_ev, MAX(s.ns, sim->now));
                        sched_block(sim, t, TASK_SLEEPING);
                        return;
                case STEP_BLOCK_MUTEX:
                        sched_block(sim, t, TASK_BLOCKED);
                        return;
                case STEP_WAIT:
                        sched_block(sim, t, TASK_WAITING);
                        return;
                case STEP_EXIT:
                        task_exit(sim, t);
                        return;
                }
        }
}

/* The burn ended (or a step was asked for): the task is on its CPU. */
static void run_event(struct sim *sim, struct event *ev)
{
        struct task *t = container_of(ev, struct task, run_ev);

        t->remaining_ns = 0;
        t->overhead_ns = 0;
        if (t->state != TASK_RUNNING)
                return;
        task_continue(sim, t);
}

static void timer_event(struct sim *sim, struct event *ev)
{
        struct task *t = container_of(ev, struct task, timer_ev);

        sim->this_cpu = t->cpu;         /* its hrtimer fires where it was armed */
        if (t->state == TASK_SLEEPING && t->timeout_cpu >= 0)
                sim->sched_hooks->timeout_expired(sim, t, t->timeout_cpu);
        else if (t->state == TASK_SLEEPING || t->state == TASK_NEW)
                sched_wake(sim, t);
}

void *policy_task_state(struct task *t, size_t size, void (*init)(void *state))
{
        if (!t->policy_data) {
                t->policy_data = g_malloc0(size);
                if (init)
                        init(t->policy_data);
        }
        return t->policy_data;
}

void task_set_sched(struct sim *sim, struct task *t, const struct sched_spec *spec,
                           const struct cpumask *aff)
{
        t->sched = *spec;
        t->normal_prio = sched_spec_prio(spec);
        t->prio = t->normal_prio;
        t->weight = sched_spec_weight(spec);
        task_set_affinity(t, aff, sim->ncpus);
        t->cpu = cpumask_first(aff);
}

struct task *sim_kthread_create(struct sim *sim, const char *name, const struct sched_spec *sched,
                                const struct cpumask *affinity, task_step_fn step, void *data,
                                bool start)
{
        struct task *t = task_new_kthread(sim, name, step, data);

        t->policy_thread = sim->policy_hook != NULL;    /* made in create() */
        task_set_sched(sim, t, sched, affinity);
        if (start)
                eventq_schedule(&sim->q, &t->timer_ev, sim->now);
        else
                t->state = TASK_WAITING;
        return t;
}
