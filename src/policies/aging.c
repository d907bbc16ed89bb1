/* aging.c - aged per-CPU lists and the booster thread; see aging.h. */
#include "aging.h"

static struct step booster_step(struct sim *sim, struct task *self);

void aging_init(struct aging *a, struct sim *sim, int nelem, sim_time_ns period_ns,
                const struct aging_ops *ops, void *pol)
{
        memset(a, 0, sizeof(*a));
        a->sim = sim;
        a->ncpus = sim->ncpus;
        a->nelem = nelem;
        a->period_ns = period_ns;
        a->ops = ops;
        a->pol = pol;
        a->elems = g_new0(struct aging_elem, (size_t)sim->ncpus * nelem);
        for (int c = 0; c < sim->ncpus; c++) {
                for (int i = 0; i < nelem; i++) {
                        struct aging_elem *e = &a->elems[c * nelem + i];

                        e->cpu = c;
                        e->index = i;
                        g_queue_init(&e->toboost);
                        g_queue_init(&e->boosted);
                }
        }
        g_queue_init(&a->local);
        a->phase = AGING_ADVANCE;
}

static gboolean check_booster_sched(const struct sched_spec *s, int min_rt, const char *where,
                                    GError **error)
{
        if (min_rt == 0 || (s->policy != SCHED_POLICY_NORMAL && s->value >= min_rt))
                return TRUE;
        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                    "%sthe booster must be fifo or rr %d..99", where, min_rt);
        return FALSE;
}

gboolean aging_create(struct aging *a, struct sim *sim, const struct policy_params *params, int min_rt,
                      const struct aging_ops *ops, void *pol, GError **error)
{
        struct sched_spec sched;
        int64_t period, nelem;
        gboolean adjust_pi;

        if (!policy_param_sched(params, "booster_prio", &sched, error) ||
            !policy_param_duration(params, "booster_period", &period, error) ||
            !policy_param_int(params, "aging_elements", 1, 64, &nelem, error) ||
            !policy_param_bool(params, "adjust_pi", &adjust_pi, error) ||
            !check_booster_sched(&sched, min_rt, "[policy] booster_prio: ", error))
                return FALSE;
        if (period <= 0) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                            "[policy] booster_period: must be greater than zero");
                return FALSE;
        }
        sim_note_jiffies(sim, "booster_period", period, false);
        aging_init(a, sim, (int)nelem, period, ops, pol);
        /* Both patches boost with a bare rt_mutex_setprio() and never call
         * rt_mutex_adjust_pi(): a boost does not travel down a PI chain. */
        a->chain = adjust_pi ? BOOST_ADJUST_PI : BOOST_SETPRIO;
        aging_start_booster(a, "rcu_booster", &sched);
        return TRUE;
}

gboolean aging_check_param(const char *key, const char *value, int min_rt, GError **error)
{
        if (!strcmp(key, "booster_prio")) {
                struct sched_spec s;

                return units_parse_sched(value, &s, error) && check_booster_sched(&s, min_rt, "", error);
        }
        if (!strcmp(key, "booster_period")) {
                int64_t ns;

                if (!units_parse_duration(value, &ns, error))
                        return FALSE;
                if (ns > 0)
                        return TRUE;
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID, "must be greater than zero");
                return FALSE;
        }
        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                    "%s cannot change during a run (only booster_prio and booster_period can)", key);
        return FALSE;
}

gboolean aging_set_param(struct aging *a, const char *key, const char *value, int min_rt,
                         GError **error)
{
        struct sched_spec s;

        if (!aging_check_param(key, value, min_rt, error))
                return FALSE;
        if (!strcmp(key, "booster_prio")) {
                units_parse_sched(value, &s, NULL);
                sched_set_class(a->sim, a->booster, &s);
        } else {
                units_parse_duration(value, &a->period_ns, NULL);
        }
        return TRUE;
}

void aging_finish(struct aging *a)
{
        /* Links live in per-task state: nothing on the lists is owned here. */
        g_free(a->elems);
}

void aging_start_booster(struct aging *a, const char *name, const struct sched_spec *sched)
{
        struct cpumask all;

        cpumask_fill(&all, a->ncpus);
        a->booster = sim_kthread_create(a->sim, name, sched, &all, booster_step, a, true);
}

void aging_link_init(struct aging_link *l, struct task *t)
{
        l->link = (GList){ .data = t };
        l->on = NULL;
        l->elem = NULL;
}

void aging_link_add(struct aging_link *l, struct aging_elem *e, GQueue *q)
{
        g_return_if_fail(l->on == NULL);
        g_queue_push_tail_link(q, &l->link);
        l->on = q;
        l->elem = e;
}

void aging_link_del(struct aging_link *l)
{
        if (!l->on)
                return;
        g_queue_unlink(l->on, &l->link);
        l->on = NULL;
}

void aging_link_describe(const struct aging *a, const struct aging_link *l, char *buf, size_t len)
{
        if (!l->on)
                g_strlcpy(buf, "none", len);
        else if (l->on == &a->local)
                g_strlcpy(buf, "booster", len);
        else
                g_snprintf(buf, len, "%s cpu%d elem%d", l->on == &l->elem->toboost ? "toboost" : "boosted",
                           l->elem->cpu, l->elem->index);
}

/* Move every task of @from to the end of the booster's local list. */
static void splice_local(struct aging *a, GQueue *from)
{
        GList *link;

        while ((link = g_queue_peek_head_link(from))) {
                struct aging_link *l = container_of(link, struct aging_link, link);

                g_queue_unlink(from, link);
                g_queue_push_tail_link(&a->local, link);
                l->on = &a->local;
        }
}

/* schedule_timeout_uninterruptible(1) before each task. */
static struct step pause_one_tick(struct sim *sim)
{
        return softirq_schedule_timeout(sim, 1);
}

static struct step booster_step(struct sim *sim, struct task *self)
{
        struct aging *a = self->step_data;

        for (;;) {
                switch (a->phase) {
                case AGING_ADVANCE:
                        a->idx = (a->idx + 1) % a->nelem;
                        a->cpu = 0;
                        a->passes++;
                        a->phase = AGING_SCAN;
                        break;
                case AGING_SCAN:
                        if (a->cpu >= a->ncpus) {
                                a->phase = AGING_ADVANCE;
                                /* (HZ / 100) jiffies in the patches: the period in
                                 * whole jiffies, rounded down as that division is. */
                                return softirq_schedule_timeout(sim, a->period_ns / sim->tick_ns);
                        }
                        /* The oldest element: the one the index reaches next. */
                        a->cur = &a->elems[a->cpu * a->nelem + (a->idx + 1) % a->nelem];
                        sim_charge_task(sim, self, COST_LOCK, 1, COST_PATH_BOOSTER);
                        if (g_queue_is_empty(&a->cur->toboost) &&
                            (!a->ops->splice_boosted || g_queue_is_empty(&a->cur->boosted))) {
                                a->cpu++;
                                break;
                        }
                        sim_charge_task(sim, self, COST_LIST_OP, a->ops->splice_boosted ? 2 : 1, COST_PATH_BOOSTER);
                        splice_local(a, &a->cur->toboost);
                        if (a->ops->splice_boosted)
                                splice_local(a, &a->cur->boosted);
                        a->phase = AGING_PICK;
                        return pause_one_tick(sim);
                case AGING_PICK: {
                        GList *link = g_queue_peek_head_link(&a->local);
                        struct task *t;

                        if (!link) {    /* they all left their critical sections */
                                a->cpu++;
                                a->phase = AGING_SCAN;
                                break;
                        }
                        sim_charge_task(sim, self, COST_LOCK, 1, COST_PATH_BOOSTER);
                        sim_charge_task(sim, self, COST_LIST_OP, 1, COST_PATH_BOOSTER);
                        container_of(link, struct aging_link, link)->on = NULL;
                        g_queue_unlink(&a->local, link);
                        t = aging_link_task(link);
                        if (a->ops->boost(a->pol, t, a->cur)) {
                                a->pending = t;
                                a->phase = AGING_FINISH;
                                return (struct step){ STEP_COMPUTE, 0 };
                        }
                        a->phase = AGING_FINISH;
                        break;
                }
                case AGING_FINISH:
                        if (a->pending) {
                                a->ops->finish(a->pol, a->pending, a->cur);
                                a->pending = NULL;
                        }
                        if (!g_queue_is_empty(&a->local)) {
                                a->phase = AGING_PICK;
                                return pause_one_tick(sim);
                        }
                        a->cpu++;
                        a->phase = AGING_SCAN;
                        break;
                }
        }
}
