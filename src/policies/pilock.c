/* pilock.c - approach 3: a per-task lock used only for its priority
 * inheritance.
 *
 * The article says only that this approach "uses a per-task lock solely for
 * its priority-inheritance properties, which introduces the overhead of
 * acquiring this lock into the scheduler path, but avoids adding an 'RCU
 * boost' component to the priority calculations", and that it "cannot be
 * made to reliably boost tasks blocked in RCU read-side critical sections".
 * The model below is ours:
 *
 *  - Each task owns a priority-inheriting mutex.  On the first switch-out
 *    inside a critical section, the scheduler path try-acquires it on the
 *    task's behalf (the scheduler cannot sleep) and queues the task for the
 *    booster.  If the lock is not free the reader is not boostable for this
 *    critical section (policy.not_boostable).
 *  - The booster thread takes the oldest queued reader and blocks on its
 *    lock: priority inheritance lends the reader the booster's priority,
 *    with no RCU term in the priority formula.  One reader at a time.
 *  - The reader releases its lock at its outermost rcu_read_unlock(); the
 *    lock passes to the booster, which releases it and moves on.
 *
 * Two weaknesses follow from the mechanism rather than being scripted:
 * boosting is serial (readers queue behind one long critical section), and
 * the hand-off race -- a reader that unlocks, enters a new critical section
 * and is switched out before the booster has released the lock it was
 * handed finds its own lock taken, and stays unboosted.
 */
#include "policy.h"

#include "boost_stats.h"
#include "../sim/engine.h"

struct pi_task {
        struct mutex lock;
        bool lock_ready;
        bool owns;              /* holds its own lock in this critical section */
        bool unboostable;       /* the try-acquire failed in this critical section */
        GList link;             /* in the booster's queue; data = task */
        bool queued;
        struct boost_track tr;
};

enum pi_phase {
        PI_SCAN,
        PI_RELEASE,
};

struct pi_policy {
        struct sim *sim;
        struct task *booster;
        sim_time_ns period_ns;
        GQueue queue;           /* readers holding their lock, oldest first */
        enum pi_phase phase;
        struct task *target;    /* reader whose lock the booster waits for */
        struct boost_stats stats;
        int64_t handoffs;
        int64_t max_queue;
};

static const struct policy_key pi_keys[] = {
        { "booster_prio", POLICY_KEY_SCHED, "rr:49",
          "the booster thread's scheduling; priority inheritance lends it to the reader" },
        { "booster_period", POLICY_KEY_DURATION, "10ms", "how long the booster sleeps when no reader is queued" },
        { NULL },
};

static struct pi_task *pt_of(struct task *t)
{
        struct pi_task *pt = policy_task_state(t, sizeof(*pt), NULL);

        if (!pt->lock_ready) {
                g_autofree char *name = g_strdup_printf("rcu_pi_lock(%s)", t->name);

                mutex_init(&pt->lock, -1, name);
                pt->link.data = t;
                boost_track_init(&pt->tr);
                pt->lock_ready = true;
        }
        return pt;
}

static struct step booster_step_pi(struct sim *sim, struct task *self)
{
        struct pi_policy *p = self->step_data;

        for (;;) {
                switch (p->phase) {
                case PI_RELEASE: {
                        /* Handed the reader's lock at its unlock: give it back. */
                        struct pi_task *pt = pt_of(p->target);

                        sim_charge_task(sim, self, COST_ATOMIC, 1, COST_PATH_BOOSTER);
                        mutex_unlock(sim, &pt->lock, self);
                        p->handoffs++;
                        p->target = NULL;
                        p->phase = PI_SCAN;
                        break;
                }
                case PI_SCAN: {
                        GList *link = g_queue_peek_head_link(&p->queue);
                        struct task *r;
                        struct pi_task *pt;
                        int old;

                        if (!link)
                                return (struct step){ STEP_SLEEP_UNTIL, sim->now + p->period_ns };
                        sim_charge_task(sim, self, COST_LOCK, 1, COST_PATH_BOOSTER);
                        sim_charge_task(sim, self, COST_LIST_OP, 1, COST_PATH_BOOSTER);
                        g_queue_unlink(&p->queue, link);
                        r = link->data;
                        pt = pt_of(r);
                        pt->queued = false;
                        old = r->prio;
                        sim_charge_task(sim, self, COST_ATOMIC, 1, COST_PATH_BOOSTER);
                        sim_charge_task(sim, self, COST_PRIO_CHANGE, 1, COST_PATH_BOOSTER);
                        p->target = r;
                        p->phase = PI_RELEASE;
                        if (mutex_lock(sim, &pt->lock, self)) {
                                /* Released already (cannot happen while queued, but be safe). */
                                break;
                        }
                        if (r->prio != old)
                                boost_track_boosted(&p->stats, &pt->tr, sim, r, old);
                        return (struct step){ STEP_BLOCK_MUTEX, 0 };
                }
                }
        }
}

static void *create_pi(struct sim *sim, const struct policy_params *params, GError **error)
{
        struct pi_policy *p;
        struct sched_spec sched;
        int64_t period;
        struct cpumask all;

        if (!policy_param_sched(params, "booster_prio", &sched, error) ||
            !policy_param_duration(params, "booster_period", &period, error))
                return NULL;
        if (period <= 0) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                            "[policy] booster_period: must be greater than zero");
                return NULL;
        }
        p = g_new0(struct pi_policy, 1);
        p->sim = sim;
        p->period_ns = period;
        g_queue_init(&p->queue);
        boost_stats_init(&p->stats);
        cpumask_fill(&all, sim->ncpus);
        p->booster = sim_kthread_create(sim, "rcu_booster", &sched, &all, booster_step_pi, p, true);
        return p;
}

static void reader_blocked_pi(void *pol, struct task *t, enum rcu_block_reason why)
{
        struct pi_policy *p = pol;
        struct pi_task *pt = pt_of(t);

        if (!boost_track_blocked(&p->stats, &pt->tr, p->sim, why))
                return;
        /* First switch-out of this section: try-acquire on the task's behalf. */
        sim_charge_cpu(p->sim, t->cpu, COST_ATOMIC, 1, COST_PATH_SCHED);
        if (!mutex_trylock(p->sim, &pt->lock, t)) {
                pt->unboostable = true;
                p->stats.not_boostable++;
                return;
        }
        pt->owns = true;
        sim_charge_cpu(p->sim, t->cpu, COST_LOCK, 1, COST_PATH_SCHED);
        sim_charge_cpu(p->sim, t->cpu, COST_LIST_OP, 1, COST_PATH_SCHED);
        g_queue_push_tail_link(&p->queue, &pt->link);
        pt->queued = true;
        p->max_queue = MAX(p->max_queue, (int64_t)p->queue.length);
}

static void reader_unlock_pi(void *pol, struct task *t)
{
        struct pi_policy *p = pol;
        struct pi_task *pt = pt_of(t);
        int old = t->prio;

        boost_track_cs_end(&p->stats, &pt->tr, p->sim);
        pt->unboostable = false;
        if (!pt->owns)
                return;
        if (pt->queued) {
                sim_charge_task(p->sim, t, COST_LOCK, 1, COST_PATH_READ);
                sim_charge_task(p->sim, t, COST_LIST_OP, 1, COST_PATH_READ);
                g_queue_unlink(&p->queue, &pt->link);
                pt->queued = false;
        }
        /* Releasing hands the lock to the booster if it is waiting on it,
         * and priority inheritance takes back what it lent. */
        sim_charge_task(p->sim, t, COST_ATOMIC, 1, COST_PATH_READ);
        mutex_unlock(p->sim, &pt->lock, t);
        pt->owns = false;
        if (boost_track_is_boosted(&pt->tr))
                boost_track_unboosted(&p->stats, &pt->tr, p->sim, t, old);
}

static gboolean set_param_pi(void *pol, const char *key, const char *value, GError **error)
{
        struct pi_policy *p = pol;

        if (!strcmp(key, "booster_prio")) {
                struct sched_spec s;

                if (!units_parse_sched(value, &s, error))
                        return FALSE;
                /* The reader follows through priority inheritance. */
                sched_set_class(p->sim, p->booster, &s);
                return TRUE;
        }
        if (!strcmp(key, "booster_period"))
                return units_parse_duration(value, &p->period_ns, error);
        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID, "%s cannot change during a run", key);
        return FALSE;
}

static void describe_task_pi(void *pol, struct task *t, char *buf, size_t len)
{
        struct pi_policy *p = pol;
        struct pi_task *pt = pt_of(t);

        g_snprintf(buf, len, "%s%s%s%s", pt->owns ? "owns-lock" : pt->lock.owner ? "lock-held-by-other" : "lock-free",
                   pt->queued ? " queued" : "", pt->unboostable ? " unboostable" : "",
                   p->target == t ? " boosting" : "");
}

static void report_pi(void *pol, struct report *r)
{
        struct pi_policy *p = pol;

        boost_stats_report(&p->stats, p->sim, p->booster, r);
        report_int(r, "policy.handoffs", p->handoffs);
        report_int(r, "policy.max_queued", p->max_queue);
}

static void destroy_pi(void *pol)
{
        struct pi_policy *p = pol;

        for (guint i = 0; i < p->sim->tasks->len; i++) {
                struct pi_task *pt = sim_task(p->sim, (int)i)->policy_data;

                if (pt && pt->lock_ready)
                        mutex_finish(&pt->lock);
        }
        boost_stats_finish(&p->stats);
        g_free(p);
}

const struct boost_policy_ops pilock_policy_ops = {
        .name = "pi-lock",
        .summary = "approach 3: a per-task lock used only for priority inheritance (cannot boost reliably)",
        .keys = pi_keys,
        .create = create_pi,
        .reader_blocked = reader_blocked_pi,
        .reader_unlock = reader_unlock_pi,
        .set_param = set_param_pi,
        .describe_task = describe_task_pi,
        .report = report_pi,
        .destroy = destroy_pi,
};
