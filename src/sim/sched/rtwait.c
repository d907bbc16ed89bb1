/* rtwait.c - what delayed each periodic task's wake-up (rtwait.h).
 *
 * A task's wait runs from its release to its first run.  While it is
 * queued, every switch on its CPU, and its leaving the queue, charge the
 * time since the last charge to what ran there meanwhile.  Only the tasks
 * waiting now are looked at (sim->rtwait_waiting: a handful), so a switch
 * on a CPU nobody waits on costs one comparison per waiting task. */
#include "rtwait.h"

#include <glib.h>
#include <string.h>

#include "../engine/engine.h"
#include "../output/report.h"
#include "../scenario/units.h"
#include "sched.h"
#include "task.h"

/* A cause as charged: cheap to compare on every switch; named only when a
 * report asks (cause_name()). */
enum rtwait_kind {
        RTW_TIMER, RTW_TIMER_KTIMERS, RTW_TASK, RTW_THROTTLED, RTW_IDLE, RTW_SWITCH, RTW_OVERRUN,
};

struct rtwait_cause {
        enum rtwait_kind kind;
        int cpu;                        /* RTW_TIMER_KTIMERS, RTW_THROTTLED, RTW_IDLE */
        const struct task *task;        /* RTW_TASK: what ran ... */
        int prio, normal_prio;          /* ... at what priority, and its own */
        int64_t ns;
};

/* One activation's wait, split into its causes, largest first once done. */
struct rtwait_activation {
        int64_t release_ns, latency_ns;
        int cpu;                        /* where it ran */
        GArray *causes;                 /* struct rtwait_cause */
};

struct rtwait {
        bool waiting;                   /* released, not run yet */
        int cpu;                        /* the CPU it is queued on, or -1 */
        int64_t mark_ns;                /* charged up to here */
        struct rtwait_activation now;   /* the wait in progress */
        struct rtwait_activation worst[RTWAIT_KEEP];
        int nworst;
};

static void activation_clear(struct rtwait_activation *a)
{
        if (a->causes)
                g_array_set_size(a->causes, 0);
}

struct rtwait *rtwait_new(void)
{
        struct rtwait *w = g_new0(struct rtwait, 1);

        w->cpu = -1;
        w->now.causes = g_array_new(FALSE, FALSE, sizeof(struct rtwait_cause));
        return w;
}

void rtwait_free(struct rtwait *w)
{
        if (!w)
                return;
        activation_clear(&w->now);
        g_array_free(w->now.causes, TRUE);
        for (int i = 0; i < w->nworst; i++) {
                activation_clear(&w->worst[i]);
                g_array_free(w->worst[i].causes, TRUE);
        }
        g_free(w);
}

/* Add @ns to cause @c of the wait in progress. */
static void blame(struct rtwait *w, struct rtwait_cause c, int64_t ns)
{
        GArray *a = w->now.causes;

        if (ns <= 0)
                return;
        for (guint i = 0; i < a->len; i++) {
                struct rtwait_cause *k = &g_array_index(a, struct rtwait_cause, i);

                if (k->kind == c.kind && k->cpu == c.cpu && k->task == c.task && k->prio == c.prio &&
                    k->normal_prio == c.normal_prio) {
                        k->ns += ns;
                        return;
                }
        }
        c.ns = ns;
        g_array_append_val(a, c);
}

/* "ksoftirqd/0 (rt:51)"; one running boosted -- a PI mutex's waiter or an
 * RCU booster lent it its priority -- says its own too:
 * "reader (rt:50, boosted; its own normal:19)". */
static char *cause_name(const struct rtwait_cause *c)
{
        switch (c->kind) {
        case RTW_TIMER:
                return g_strdup("its timer");
        case RTW_TIMER_KTIMERS:
                return g_strdup_printf("its timer, expired in ktimers/%d", c->cpu);
        case RTW_THROTTLED:
                return g_strdup_printf("RT throttling on CPU %d", c->cpu);
        case RTW_IDLE:
                return g_strdup_printf("CPU %d idle or switching", c->cpu);
        case RTW_SWITCH:
                return g_strdup("switching to it (scheduler costs)");
        case RTW_OVERRUN:
                return g_strdup("its own previous activation, overrunning");
        case RTW_TASK:
                break;
        }
        g_autofree char *at = units_format_prio(c->prio);

        if (c->prio != c->normal_prio) {
                g_autofree char *own = units_format_prio(c->normal_prio);

                return g_strdup_printf("%s (%s, boosted; its own %s)", c->task->name, at, own);
        }
        return g_strdup_printf("%s (%s)", c->task->name, at);
}

/* Charge the time since the last charge to what ran on @cpu meanwhile. */
static void charge(struct sim *sim, struct task *t, const struct cpu *cpu)
{
        struct rtwait *w = t->rtw;
        const struct task *ran = cpu->curr ? cpu->curr : cpu->switching_out;
        int64_t ns = sim->now - w->mark_ns;

        w->mark_ns = sim->now;
        if (ns <= 0)
                return;
        if (cpu->rt_throttled && task_is_rt(t))
                blame(w, (struct rtwait_cause){ .kind = RTW_THROTTLED, .cpu = cpu->id }, ns);
        else if (ran && ran != t)
                blame(w, (struct rtwait_cause){ .kind = RTW_TASK, .cpu = -1, .task = ran, .prio = ran->prio,
                                                .normal_prio = ran->normal_prio }, ns);
        else
                blame(w, (struct rtwait_cause){ .kind = RTW_IDLE, .cpu = cpu->id }, ns);
}

void rtwait_released(struct sim *sim, struct task *t)
{
        struct rtwait *w = t->rtw;

        if (w->waiting)
                return;
        w->waiting = true;
        w->now.release_ns = t->release_ns;
        g_ptr_array_add(sim->rtwait_waiting, t);
        /* the release's wake-up: late if its timer was (ktimers/N on PREEMPT_RT) */
        if (t->timeout_cpu >= 0)
                blame(w, (struct rtwait_cause){ .kind = RTW_TIMER_KTIMERS, .cpu = t->timeout_cpu },
                      sim->now - t->release_ns);
        else
                blame(w, (struct rtwait_cause){ .kind = RTW_TIMER, .cpu = -1 }, sim->now - t->release_ns);
        rtwait_enqueued(sim, t, t->cpu);
}

void rtwait_enqueued(struct sim *sim, struct task *t, int cpu)
{
        struct rtwait *w = t->rtw;

        if (!w->waiting || w->cpu == cpu)
                return;
        if (w->cpu >= 0)
                g_ptr_array_remove_fast(sim->rtwait_on[w->cpu], t);
        w->cpu = cpu;
        g_ptr_array_add(sim->rtwait_on[cpu], t);
        w->mark_ns = sim->now;
}

void rtwait_dequeued(struct sim *sim, struct task *t, const struct cpu *cpu)
{
        struct rtwait *w = t->rtw;

        if (!w->waiting || w->cpu != cpu->id)
                return;
        charge(sim, t, cpu);
        g_ptr_array_remove_fast(sim->rtwait_on[cpu->id], t);
        w->cpu = -1;
}

void rtwait_cpu_switching(struct sim *sim, const struct cpu *cpu)
{
        GPtrArray *here = sim->rtwait_on[cpu->id];

        for (guint i = 0; i < here->len; i++)
                charge(sim, here->pdata[i], cpu);
}

static gint by_ns_desc(gconstpointer a, gconstpointer b)
{
        const struct rtwait_cause *x = a, *y = b;

        return x->ns != y->ns ? (x->ns < y->ns ? 1 : -1) : 0;
}

void rtwait_ran(struct sim *sim, struct task *t, int64_t latency_ns)
{
        struct rtwait *w = t->rtw;
        int64_t counted = 0;

        if (!w)
                return;
        if (w->waiting) {
                g_ptr_array_remove_fast(sim->rtwait_waiting, t);
                w->waiting = false;
                if (w->cpu >= 0)
                        g_ptr_array_remove_fast(sim->rtwait_on[w->cpu], t);
                w->cpu = -1;
                for (guint i = 0; i < w->now.causes->len; i++)
                        counted += g_array_index(w->now.causes, struct rtwait_cause, i).ns;
                /* picked, then the switch's own costs before its first instruction */
                blame(w, (struct rtwait_cause){ .kind = RTW_SWITCH, .cpu = -1 }, latency_ns - counted);
        } else {
                /* no wait at all: its previous activation ran into this period */
                w->now.release_ns = t->release_ns;
                blame(w, (struct rtwait_cause){ .kind = RTW_OVERRUN, .cpu = -1 }, latency_ns);
        }
        w->now.latency_ns = latency_ns;
        w->now.cpu = t->cpu;
        /* keep it if it is among the worst: the kept ones stay sorted, worst first */
        int at = w->nworst;

        while (at > 0 && w->worst[at - 1].latency_ns < latency_ns)
                at--;
        if (at < RTWAIT_KEEP && latency_ns > 0) {
                struct rtwait_activation out = w->nworst == RTWAIT_KEEP ? w->worst[RTWAIT_KEEP - 1]
                                                                         : (struct rtwait_activation){ 0 };

                if (w->nworst < RTWAIT_KEEP)
                        w->nworst++;
                memmove(&w->worst[at + 1], &w->worst[at], sizeof(w->worst[0]) * (size_t)(w->nworst - 1 - at));
                g_array_sort(w->now.causes, by_ns_desc);
                w->worst[at] = w->now;
                /* the one pushed out lends its array to the next wait */
                w->now = (struct rtwait_activation){ .causes = out.causes ? out.causes
                                                                          : g_array_new(FALSE, FALSE,
                                                                                        sizeof(struct rtwait_cause)) };
                activation_clear(&w->now);
        } else {
                activation_clear(&w->now);
        }
}

void rtwait_report(const struct sim *sim, struct report *r)
{
        char key[128];

        for (guint i = 0, n = 0; i < sim->tasks->len; i++) {
                const struct task *t = g_ptr_array_index(sim->tasks, i);

                if (!t->period_ns || !t->rtw)
                        continue;
                g_snprintf(key, sizeof(key), "rt_wait.%u.task", n);
                report_string(r, key, t->name);
                for (int k = 0; k < t->rtw->nworst; k++) {
                        const struct rtwait_activation *a = &t->rtw->worst[k];
                        int64_t other = 0;

                        g_snprintf(key, sizeof(key), "rt_wait.%u.worst.%d.latency_ns", n, k);
                        report_int(r, key, a->latency_ns);
                        g_snprintf(key, sizeof(key), "rt_wait.%u.worst.%d.release_ns", n, k);
                        report_int(r, key, a->release_ns);
                        g_snprintf(key, sizeof(key), "rt_wait.%u.worst.%d.cpu", n, k);
                        report_int(r, key, a->cpu);
                        for (guint c = 0; c < a->causes->len; c++) {
                                const struct rtwait_cause *cause = &g_array_index(a->causes, struct rtwait_cause, c);

                                if (c >= RTWAIT_CAUSES) {
                                        other += cause->ns;
                                        continue;
                                }
                                g_autofree char *what = cause_name(cause);

                                g_snprintf(key, sizeof(key), "rt_wait.%u.worst.%d.causes.%u.what", n, k, c);
                                report_string(r, key, what);
                                g_snprintf(key, sizeof(key), "rt_wait.%u.worst.%d.causes.%u.ns", n, k, c);
                                report_int(r, key, cause->ns);
                        }
                        if (other) {
                                g_snprintf(key, sizeof(key), "rt_wait.%u.worst.%d.causes.%d.what", n, k, RTWAIT_CAUSES);
                                report_string(r, key, "other");
                                g_snprintf(key, sizeof(key), "rt_wait.%u.worst.%d.causes.%d.ns", n, k, RTWAIT_CAUSES);
                                report_int(r, key, other);
                        }
                }
                n++;
        }
        /* RT throttling: how many times each CPU's RT class ran out of runtime */
        for (int c = 0; c < sim->ncpus; c++) {
                g_snprintf(key, sizeof(key), "rt_throttling.cpu.%d.windows", c);
                report_int(r, key, (int64_t)sim->cpus[c].rt_throttle_windows);
        }
}

void rtwait_print(const struct sim *sim, FILE *f)
{
        guint n = 0, shown = 0;

        for (guint i = 0; i < sim->tasks->len; i++) {
                const struct task *t = g_ptr_array_index(sim->tasks, i);

                if (!t->period_ns || !t->rtw || (n++, t->rtw->nworst == 0))
                        continue;
                const struct rtwait_activation *a = &t->rtw->worst[0];
                g_autofree char *lat = units_format_duration(a->latency_ns);
                g_autofree char *at = units_format_duration(a->release_ns);

                if (shown == 0)
                        fprintf(f, "  What each periodic task's worst wake-up waited for:\n");
                fprintf(f, "  T:%2u %s: %s late at %s, on CPU %d:", n - 1, t->name, lat, at, a->cpu);
                for (guint c = 0; c < a->causes->len && c < RTWAIT_CAUSES; c++) {
                        const struct rtwait_cause *cause = &g_array_index(a->causes, struct rtwait_cause, c);
                        g_autofree char *d = units_format_duration(cause->ns);
                        g_autofree char *what = cause_name(cause);

                        fprintf(f, "%s %s %s", c ? ";" : "", d, what);
                }
                fputc('\n', f);
                if (++shown == 8) {
                        fprintf(f, "  ... (all in summary.json rt_wait)\n");
                        break;
                }
        }
        for (int c = 0; c < sim->ncpus; c++)
                if (sim->cpus[c].rt_throttle_windows) {
                        fprintf(f, "  RT throttling windows:");
                        for (int d = 0; d < sim->ncpus; d++)
                                fprintf(f, " CPU %d: %" G_GUINT64_FORMAT, d, sim->cpus[d].rt_throttle_windows);
                        fputc('\n', f);
                        break;
                }
}
