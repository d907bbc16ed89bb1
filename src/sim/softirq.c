/* softirq.c - sirq-timer/N: timer-wheel timeouts expire in a thread.
 * See softirq.h for the kernel it follows. */
#include "softirq.h"

#include "engine.h"

/* run_timer_softirq(): wake every sleeper whose timeout expired on this CPU. */
static struct step timer_thread_step(struct sim *sim, struct task *self)
{
        struct softirq_cpu *sc = self->step_data;
        struct task *t;

        while ((t = g_queue_pop_head(&sc->expired)))
                if (t->state == TASK_SLEEPING)
                        sched_wake(sim, t);
        return (struct step){ STEP_WAIT, 0 };
}

void softirq_start(struct sim *sim)
{
        if (!sim->sc->softirq_threads)
                return;
        sim->softirq = g_new0(struct softirq_cpu, sim->ncpus);
        for (int c = 0; c < sim->ncpus; c++) {
                struct cpumask only;
                g_autofree char *name = g_strdup_printf("sirq-timer/%d", c);

                cpumask_clear(&only);
                cpumask_set(&only, c);
                g_queue_init(&sim->softirq[c].expired);
                sim->softirq[c].thread = sim_kthread_create(sim, name, &sim->sc->timer_softirq_sched, &only,
                                                            timer_thread_step, &sim->softirq[c], false);
        }
}

void softirq_finish(struct sim *sim)
{
        if (!sim->softirq)
                return;
        for (int c = 0; c < sim->ncpus; c++)
                g_queue_clear(&sim->softirq[c].expired);
        g_clear_pointer(&sim->softirq, g_free);
}

void softirq_timeout_expired(struct sim *sim, struct task *t, int cpu)
{
        struct softirq_cpu *sc;

        if (!sim->softirq) {
                sched_wake(sim, t);
                return;
        }
        /* raise_softirq(TIMER_SOFTIRQ) -> wakeup_softirqd() */
        sc = &sim->softirq[cpu];
        g_queue_push_tail(&sc->expired, t);
        if (sc->thread->state == TASK_WAITING)
                sched_wake(sim, sc->thread);
}
