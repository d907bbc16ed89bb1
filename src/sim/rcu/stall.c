/* stall.c - why a grace period stalled; see stall.h. */
#include "stall.h"

#include <string.h>

#include "../engine/engine.h"
#include "../output/report.h"
#include "../scenario/units.h"
#include "../sched/mutex.h"
#include "../sched/sched.h"
#include "../time/softirq.h"
#include "rcu.h"

/* One line of the report: a summary key and the value, text or a number. */
struct stall_item {
        char *key;
        char *text;             /* NULL: a number */
        int64_t number;
};

struct stall_report {
        GArray *items;          /* struct stall_item, in order */
        GString *text;          /* what `run` prints */
};

static void item_text(struct stall_report *s, char *key, char *text)
{
        struct stall_item it = { .key = key, .text = text };

        g_array_append_val(s->items, it);
}

static void item_number(struct stall_report *s, char *key, int64_t n)
{
        struct stall_item it = { .key = key, .number = n };

        g_array_append_val(s->items, it);
}

void stall_report_free(struct stall_report *s)
{
        if (!s)
                return;
        for (guint i = 0; i < s->items->len; i++) {
                g_free(g_array_index(s->items, struct stall_item, i).key);
                g_free(g_array_index(s->items, struct stall_item, i).text);
        }
        g_array_free(s->items, TRUE);
        g_string_free(s->text, TRUE);
        g_free(s);
}

/* "hog (rt:10)", or "nothing (idle)": what CPU @cpu runs. */
static char *runs_on(struct sim *sim, int cpu)
{
        const struct task *t = sim->cpus[cpu].curr;

        if (!t)
                return g_strdup("nothing (idle)");
        g_autofree char *prio = sched_describe_prio(t->prio);

        return g_strdup_printf("%s (%s)", t->name, prio);
}

static const char *state_of(const struct task *t)
{
        switch (t->state) {
        case TASK_RUNNING: return "running";
        case TASK_RUNNABLE: return "preempted";
        case TASK_BLOCKED: return "blocked on a mutex";
        case TASK_SLEEPING: return "sleeping";
        case TASK_WAITING: return "waiting";
        case TASK_NEW: return "not started";
        case TASK_EXITING: return "exiting";
        case TASK_EXITED: return "exited";
        }
        return "?";
}

/* The mutex chain from @t down to the owner that is not itself waiting,
 * and what keeps that owner off its CPU. */
static char *mutex_chain(struct sim *sim, const struct task *t)
{
        GString *s = g_string_new(NULL);

        for (int depth = 0; t->state == TASK_BLOCKED && t->blocked_on && depth < 16; depth++) {
                const struct mutex *m = t->blocked_on;

                t = m->owner;
                if (!t) {
                        g_string_append_printf(s, "%swaits on mutex %s (free)", depth ? ", which " : "", m->name);
                        break;
                }
                g_autofree char *prio = sched_describe_prio(t->prio);

                g_string_append_printf(s, "%swaits on mutex %s, held by %s (%s, %s on CPU %d", depth ? ", which " : "",
                                       m->name, t->name, prio, state_of(t), t->cpu);
                if (t->state == TASK_RUNNABLE) {
                        g_autofree char *other = runs_on(sim, t->cpu);

                        g_string_append_printf(s, ", which runs %s", other);
                }
                g_string_append_c(s, ')');
        }
        return g_string_free(s, FALSE);
}

static void add_reader(struct stall_report *s, struct sim *sim, const struct task *t, int n)
{
        g_autofree char *prio = sched_describe_prio(t->prio);
        g_autofree char *base = sched_describe_prio(t->normal_prio);
        g_autofree char *in = units_format_duration(sim->now - t->rcu_read_start_ns);
        g_autofree char *entered = units_format_duration(t->rcu_read_start_ns);
        char *instead = t->state == TASK_RUNNING ? NULL : runs_on(sim, t->cpu);
        char *chain = t->state == TASK_BLOCKED ? mutex_chain(sim, t) : NULL;
        bool boosted = t->prio < t->normal_prio;
        char k[96];

#define KEY(field) (g_snprintf(k, sizeof(k), "stall_report.readers.%d." field, n), g_strdup(k))
        item_text(s, KEY("task"), g_strdup(t->name));
        item_number(s, KEY("cpu"), t->cpu);
        item_text(s, KEY("state"), g_strdup(state_of(t)));
        item_number(s, KEY("in_section_ns"), sim->now - t->rcu_read_start_ns);
        item_text(s, KEY("prio"), g_strdup(prio));
        item_text(s, KEY("normal_prio"), g_strdup(base));
        item_text(s, KEY("cpu_runs"), instead ? g_strdup(instead) : g_strdup(t->name));
        if (chain)
                item_text(s, KEY("mutex_chain"), g_strdup(chain));
#undef KEY
        g_string_append_printf(s->text, "    %s (%s%s%s): %s on CPU %d, inside a read-side critical section for %s "
                               "(since %s)\n", t->name, prio, boosted ? ", boosted from " : "", boosted ? base : "",
                               state_of(t), t->cpu, in, entered);
        if (instead)
                g_string_append_printf(s->text, "      CPU %d runs %s\n", t->cpu, instead);
        if (chain && *chain)
                g_string_append_printf(s->text, "      it %s\n", chain);
        g_free(instead);
        g_free(chain);
}

static void add_kthread(struct stall_report *s, struct sim *sim, const struct task *t, const char *why, int n)
{
        g_autofree char *instead = runs_on(sim, t->cpu);
        g_autofree char *prio = sched_describe_prio(t->prio);
        char k[96];

#define KEY(field) (g_snprintf(k, sizeof(k), "stall_report.kthreads.%d." field, n), g_strdup(k))
        item_text(s, KEY("task"), g_strdup(t->name));
        item_number(s, KEY("cpu"), t->cpu);
        item_text(s, KEY("prio"), g_strdup(prio));
        item_text(s, KEY("why"), g_strdup(why));
        item_text(s, KEY("cpu_runs"), g_strdup(instead));
#undef KEY
        g_string_append_printf(s->text, "    %s (%s): %s; CPU %d runs %s\n", t->name, prio, why, t->cpu, instead);
}

static struct stall_report *take(struct sim *sim, const char *when, int64_t gp_age_ns)
{
        struct stall_report *s = g_new0(struct stall_report, 1);
        sim_time_ns gp_start = sim->now - gp_age_ns;
        g_autofree char *age = units_format_duration(gp_age_ns);
        g_autofree char *at = units_format_duration(sim->now);
        int readers = 0, kthreads = 0;

        s->items = g_array_new(FALSE, FALSE, sizeof(struct stall_item));
        s->text = g_string_new(NULL);
        item_text(s, g_strdup("stall_report.when"), g_strdup(when));
        item_number(s, g_strdup("stall_report.at_ns"), sim->now);
        item_number(s, g_strdup("stall_report.gp_age_ns"), gp_age_ns);
        item_text(s, g_strdup("stall_report.gp_state"), g_strdup(rcu_state_name(sim)));
        /* which moment this is: the threshold's crossing, or the run's end
         * (#58: "a stall at 10s" at the end read as when it crossed) */
        g_autofree char *thr = units_format_duration(sim->sc->stall_threshold_ns);
        g_autofree char *began = units_format_duration(gp_start);
        g_autofree char *moment = !strcmp(when, "threshold")
                ? g_strdup_printf("at %s, as the grace period in progress passed stall_threshold (%s)", at, thr)
                : g_strdup_printf("as the run ended%s at %s", sim->rcu.oom ? " out of memory" : "", at);

        if (gp_age_ns > 0)
                g_string_append_printf(s->text, "  rcu detected a stall %s: the grace period in progress has "
                                       "waited %s, since %s (%s, %s)\n", moment, age, began, sim->rcu.flavour->name,
                                       rcu_state_name(sim));
        else
                g_string_append_printf(s->text, "  rcu stalled %s: no grace period in progress (%s, %s), "
                                       "callbacks waiting\n", moment, sim->rcu.flavour->name, rcu_state_name(sim));
        /* The readers it waits for, as the flavour judges a synchronize_rcu()
         * begun when it did (rcupreempt: also a reader on the old counter). */
        const struct task as_of = { .sync_start_ns = gp_start };

        for (guint i = 0; i < sim->tasks->len; i++) {
                const struct task *t = sim_task(sim, (int)i);

                if (t->rcu_nesting > 0 && sim->rcu.flavour->holds_up(sim, t, &as_of)) {
                        if (readers == 0)
                                g_string_append(s->text, "  blocked by the readers:\n");
                        add_reader(s, sim, t, readers++);
                }
        }
        if (readers == 0)
                g_string_append(s->text, "  no reader inside a critical section older than the grace period\n");
        /* Kernel threads that cannot run, and those a timeout should have woken. */
        for (guint i = 0; i < sim->tasks->len; i++) {
                const struct task *t = sim_task(sim, (int)i);

                if (!t->kthread || t->state != TASK_RUNNABLE)
                        continue;
                if (kthreads == 0)
                        g_string_append(s->text, "  kernel threads that cannot run:\n");
                add_kthread(s, sim, t, "runnable, waiting for its CPU", kthreads++);
        }
        for (int c = 0; sim->softirq && c < sim->ncpus; c++) {
                for (GList *l = sim->softirq[c].expired.head; l; l = l->next) {
                        const struct task *t = l->data;
                        g_autofree char *ago = units_format_duration(sim->now - t->timer_ev.when);
                        g_autofree char *why = g_strdup_printf("its schedule_timeout() expired %s ago on CPU %d; "
                                                               "%s has not run to wake it", ago, c,
                                                               sim->softirq[c].thread->name);

                        if (kthreads == 0)
                                g_string_append(s->text, "  kernel threads that cannot run:\n");
                        add_kthread(s, sim, t, why, kthreads++);
                }
        }
        if (readers)
                sim_count_event(sim, EE_STALL_READER);
        if (kthreads)
                sim_count_event(sim, EE_STALL_KTHREAD);
        item_number(s, g_strdup("stall_report.reader_count"), readers);
        item_number(s, g_strdup("stall_report.kthread_count"), kthreads);
        return s;
}

void stall_check(struct sim *sim)
{
        int64_t age;

        if (sim->stall)
                return;
        age = sim->rcu.flavour->gp_in_progress(sim);
        if (age > sim->sc->stall_threshold_ns)
                sim->stall = take(sim, "threshold", age);
}

void stall_check_end(struct sim *sim)
{
        int64_t age = sim->rcu.flavour->gp_in_progress(sim);

        /* what ended the run is the one to explain */
        if (age > sim->sc->stall_threshold_ns || (sim->rcu.oom && (age > 0 || sim->rcu.outstanding))) {
                stall_report_free(sim->stall);
                sim->stall = take(sim, "end", age);
        }
}

void stall_report_keys(const struct sim *sim, struct report *r)
{
        if (!sim->stall)
                return;
        for (guint i = 0; i < sim->stall->items->len; i++) {
                const struct stall_item *it = &g_array_index(sim->stall->items, struct stall_item, i);

                if (it->text)
                        report_string(r, it->key, it->text);
                else
                        report_int(r, it->key, it->number);
        }
}

void stall_print(const struct sim *sim, FILE *f)
{
        if (sim->stall)
                fputs(sim->stall->text->str, f);
}
