/* softirq.c - the interrupt threads: sirq-timer/N, where timer-wheel
 * timeouts expire, and irq/NUMBER-NAME.  See softirq.h for the kernel
 * they follow. */
#include "softirq.h"

#include "../engine/engine.h"

/* run_timer_softirq(): wake every sleeper whose timeout expired on this CPU. */
static struct step timer_thread_step(struct sim *sim, struct task *self)
{
        struct softirq_cpu *sc = self->step_data;
        struct task *t;

        while ((t = g_queue_pop_head(&sc->expired)))
                if (t->state == TASK_SLEEPING)
                        sched_wake(sim, t);
        ptimer_run_expired(sim, self, (int)(sc - sim->softirq));
        return (struct step){ STEP_WAIT, 0 };
}

/* irq_thread(): run the handler once for however many interrupts came. */
static struct step irq_thread_step(struct sim *sim, struct task *self)
{
        struct irq_thread *it = self->step_data;

        (void)sim;
        if (!it->pending)
                return (struct step){ STEP_WAIT, 0 };
        it->pending = false;
        it->handled++;
        return (struct step){ STEP_COMPUTE, dist_sample(&it->spec->handler, it->rng) };
}

/* The hard interrupt: wake the thread (irq_wake_thread()), and the next one. */
static void irq_arrival(struct sim *sim, struct event *ev)
{
        struct irq_thread *it = container_of(ev, struct irq_thread, arrival);

        it->interrupts++;
        it->pending = true;
        if (it->thread->state == TASK_WAITING)
                sched_wake(sim, it->thread);
        eventq_schedule(&sim->q, ev, sim->now + MAX(1, dist_sample(&it->spec->interval, it->rng)));
}

static void irq_start(struct sim *sim)
{
        sim->nirqs = (int)sim->sc->irqs->len;
        sim->irqs = g_new0(struct irq_thread, MAX(1, sim->nirqs));
        for (int i = 0; i < sim->nirqs; i++) {
                struct irq_thread *it = &sim->irqs[i];
                struct cpumask only;
                g_autofree char *name = NULL;

                it->spec = g_ptr_array_index(sim->sc->irqs, i);
                name = g_strdup_printf("irq/%d-%s", it->spec->number, it->spec->name);
                cpumask_clear(&only);
                cpumask_set(&only, it->spec->cpu);
                /* its own stream, by name: other tasks' draws do not move */
                it->rng = dist_rng_new(sim->seed, name);
                it->thread = sim_kthread_create(sim, name, &it->spec->sched, &only, irq_thread_step, it, false);
                event_init(&it->arrival, irq_arrival);
                eventq_schedule(&sim->q, &it->arrival,
                                it->spec->start_ns + MAX(1, dist_sample(&it->spec->interval, it->rng)));
        }
}

void softirq_report(struct sim *sim, struct report *r)
{
        char key[160];

        for (int i = 0; i < sim->nirqs; i++) {
                g_snprintf(key, sizeof(key), "irqs.%s.interrupts", sim->irqs[i].spec->name);
                report_int(r, key, (int64_t)sim->irqs[i].interrupts);
                g_snprintf(key, sizeof(key), "irqs.%s.handled", sim->irqs[i].spec->name);
                report_int(r, key, (int64_t)sim->irqs[i].handled);
        }
}

void softirq_start(struct sim *sim)
{
        irq_start(sim);
        if (!sim->sc->softirq_threads)
                return;
        sim->softirq = g_new0(struct softirq_cpu, sim->ncpus);
        for (int c = 0; c < sim->ncpus; c++) {
                struct cpumask only;
                g_autofree char *name = g_strdup_printf(sim->env.timer_thread_name, c);

                cpumask_clear(&only);
                cpumask_set(&only, c);
                g_queue_init(&sim->softirq[c].expired);
                g_queue_init(&sim->softirq[c].timers);
                sim->softirq[c].thread = sim_kthread_create(sim, name, &sim->env.timer_thread, &only,
                                                            timer_thread_step, &sim->softirq[c], false);
        }
}

void softirq_finish(struct sim *sim)
{
        for (int i = 0; i < sim->nirqs; i++)
                gsl_rng_free(sim->irqs[i].rng);
        g_clear_pointer(&sim->irqs, g_free);
        sim->nirqs = 0;
        if (!sim->softirq)
                return;
        /* .timers' links are the timers' own (ptimer_free_all()). */
        for (int c = 0; c < sim->ncpus; c++)
                g_queue_clear(&sim->softirq[c].expired);
        g_clear_pointer(&sim->softirq, g_free);
}

struct step softirq_schedule_timeout(const struct sim *sim, int64_t jiffies)
{
        return (struct step){ STEP_TIMEOUT_UNTIL, timer_wheel_timeout(sim, jiffies) };
}

void softirq_timeout_cancel(struct sim *sim, struct task *t)
{
        /* del_timer(): before it expired, or expired but not yet run. */
        eventq_cancel(&sim->q, &t->timer_ev);
        if (sim->softirq && t->timeout_cpu >= 0)
                g_queue_remove(&sim->softirq[t->timeout_cpu].expired, t);
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
