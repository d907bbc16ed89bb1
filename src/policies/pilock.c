/* pilock.c - approach 3: a per-task lock used only for its priority
 * inheritance.
 *
 * The article: this approach "uses a per-task lock solely for its
 * priority-inheritance properties, which introduces the overhead of
 * acquiring this lock into the scheduler path, but avoids adding an 'RCU
 * boost' component to the priority calculations", and "cannot be made to
 * reliably boost tasks blocked in RCU read-side critical sections".  The
 * closest code is "RCU priority boosting that survives mild testing"
 * (McKenney, 29 Nov 2006, 2.6.18-rt3), modelled here:
 *
 *  - Each task owns a lock, `rcu_boost` (an rt_mutex in -rt).
 *  - __schedule(), switching out a reader inside a critical section, boosts
 *    it at once to PREEMPT_RCU_BOOST_PRIO = MAX_USER_RT_PRIO (kernel
 *    priority 100: the most urgent SCHED_OTHER level, below every RT task)
 *    and then acquires the task's rcu_boost lock -- only when it actually
 *    boosted, so a reader already at that level or above (every RT reader)
 *    is never boosted and never holds the lock.
 *  - The lock exists so that priority can be lent through it: whoever needs
 *    the reader to finish blocks on the reader's lock and priority
 *    inheritance does the rest.  The patch left that booster "not yet
 *    implemented"; the model supplies the one the article's approach 3
 *    implies: a kernel thread (`booster_prio`) that blocks on the lock of
 *    the oldest reader holding one, so the reader inherits the booster's
 *    priority -- one reader at a time.
 *  - The outermost rcu_read_unlock() of a boosted reader drops its boost and
 *    releases the lock; the booster, if it waited, is handed the lock,
 *    releases it and moves on.
 *
 * What makes it unreliable follows from the mechanism: RT readers are never
 * boosted; the scheduler-path boost does not lift a reader above any RT
 * task, so only the booster's inheritance rescues a reader from an RT hog,
 * and serially; and the lock is acquired in the scheduler path: a reader
 * preempted in a new critical section while the booster still holds the
 * lock it was handed cannot get it (in -rt, a sleeping acquire inside
 * __schedule()), so the booster cannot reach it until the booster lets go
 * (policy_stats.acquire_contended).  The model cannot sleep inside the scheduler:
 * the acquire completes when the booster releases (docs/policies.md).
 */
#include "policy.h"

#include "aging.h"          /* aging_check_param(): the same two keys */
#include "../sim/engine/engine.h"

/* PREEMPT_RCU_BOOST_PRIO in the patch: MAX_USER_RT_PRIO, kernel priority 100. */
#define PI_BOOST_PRIO PRIO_MAX_RT

struct pi_task {
        struct mutex lock;      /* the task's rcu_boost lock */
        bool lock_ready;
        bool owns;              /* holds its own lock in this critical section */
        bool acquiring;         /* the scheduler path's acquire waits for the booster */
        bool boosted;           /* the scheduler path boosted it in this section */
        GList link;             /* in the booster's queue; data = task */
        bool queued;
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
        struct latency_stat inherit_delay;     /* first switch-out -> the booster's priority lent */
        int64_t handoffs;
        int64_t max_queue;
        int64_t acquire_contended;
        int64_t not_boosted_rt;
        int64_t sched_path_boosts;
};

static const struct policy_key pi_keys[] = {
        { .name = "booster_prio", .type = POLICY_KEY_SCHED, .default_value = "rr:49",
          .doc = "the booster thread's scheduling; priority inheritance lends it to the reader" },
        { .name = "booster_period", .type = POLICY_KEY_DURATION, .default_value = "10ms",
          .doc = "how long the booster sleeps when no reader is queued" },
        { .name = NULL },
};

static struct pi_task *pt_of(struct task *t)
{
        struct pi_task *pt = policy_task_state(t, sizeof(*pt), NULL);

        if (!pt->lock_ready) {
                g_autofree char *name = g_strdup_printf("rcu_boost(%s)", t->name);

                mutex_init(&pt->lock, -1, name);
                pt->link.data = t;
                pt->lock_ready = true;
        }
        return pt;
}

/* The task holds its lock now: the booster may lend it its priority. */
static void take_own_lock(struct pi_policy *p, struct pi_task *pt)
{
        pt->owns = true;
        g_queue_push_tail_link(&p->queue, &pt->link);
        pt->queued = true;
        p->max_queue = MAX(p->max_queue, (int64_t)p->queue.length);
}

static struct step booster_step_pi(struct sim *sim, struct task *self)
{
        struct pi_policy *p = self->step_data;

        for (;;) {
                switch (p->phase) {
                case PI_RELEASE: {
                        /* Handed the reader's lock at its unlock: give it back. */
                        struct task *r = p->target;
                        struct pi_task *pt = pt_of(r);

                        sim_charge_task(sim, self, COST_ATOMIC, 1, COST_PATH_BOOSTER);
                        mutex_unlock(sim, &pt->lock, self);
                        p->handoffs++;
                        p->target = NULL;
                        p->phase = PI_SCAN;
                        /* The scheduler path's acquire that waited for it completes. */
                        if (pt->acquiring && mutex_trylock(sim, &pt->lock, r)) {
                                pt->acquiring = false;
                                take_own_lock(p, pt);
                        }
                        break;
                }
                case PI_SCAN: {
                        GList *link = g_queue_peek_head_link(&p->queue);
                        struct task *r;
                        struct pi_task *pt;
                        int old;

                        if (!link)
                                return (struct step){ STEP_TIMEOUT_UNTIL, sim->now + p->period_ns };
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
                        if (mutex_lock(sim, &pt->lock, self))
                                break;  /* released already (cannot happen while queued) */
                        /* The boost that counts: the booster's, by inheritance. */
                        if (r->prio != old && boosts_blocked_since(r) >= 0)
                                latency_stat_add(&p->inherit_delay, sim->now - boosts_blocked_since(r));
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
        latency_stat_init(&p->inherit_delay);
        cpumask_fill(&all, sim->ncpus);
        p->booster = sim_kthread_create(sim, "rcu_booster", &sched, &all, booster_step_pi, p, true);
        return p;
}

/* __schedule() with the reader's nesting > 0: boost to PREEMPT_RCU_BOOST_PRIO
 * and acquire rcu_boost, only if that boosted it. */
static void reader_blocked_pi(void *pol, struct task *t, enum rcu_block_reason why)
{
        struct pi_policy *p = pol;
        struct pi_task *pt = pt_of(t);
        bool first = boosts_first_switch_out(t);

        (void)why;

        if (pt->boosted)
                return;
        if (t->prio <= PI_BOOST_PRIO) {
                /* Already at that level or above (RT, or inheriting RT now):
                 * "only when it actually boosted" -- no boost, no lock. */
                p->not_boosted_rt += first;
                return;
        }
        sim_charge_cpu(p->sim, t->cpu, COST_PRIO_CHANGE, 1, COST_PATH_SCHED);
        sched_set_boost_prio(p->sim, t, PI_BOOST_PRIO, BOOST_SETPRIO);
        pt->boosted = true;
        p->sched_path_boosts++;
        sim_charge_cpu(p->sim, t->cpu, COST_ATOMIC, 1, COST_PATH_SCHED);
        if (!mutex_trylock(p->sim, &pt->lock, t)) {
                /* Held by the booster, handed it at this task's last unlock. */
                pt->acquiring = true;
                p->acquire_contended++;
                return;
        }
        sim_charge_cpu(p->sim, t->cpu, COST_LOCK, 1, COST_PATH_SCHED);
        sim_charge_cpu(p->sim, t->cpu, COST_LIST_OP, 1, COST_PATH_SCHED);
        take_own_lock(p, pt);
}

static void reader_unlock_pi(void *pol, struct task *t)
{
        struct pi_policy *p = pol;
        struct pi_task *pt = pt_of(t);
        pt->acquiring = false;
        if (!pt->boosted && !pt->owns)
                return;         /* the fast path */
        if (pt->queued) {
                sim_charge_task(p->sim, t, COST_LOCK, 1, COST_PATH_READ);
                sim_charge_task(p->sim, t, COST_LIST_OP, 1, COST_PATH_READ);
                g_queue_unlink(&p->queue, &pt->link);
                pt->queued = false;
        }
        if (pt->boosted) {
                sim_charge_task(p->sim, t, COST_PRIO_CHANGE, 1, COST_PATH_READ);
                sched_set_boost_prio(p->sim, t, PRIO_NONE, BOOST_SETPRIO);
                pt->boosted = false;
        }
        if (pt->owns) {
                /* Releasing hands the lock to the booster if it waits on it,
                 * and priority inheritance takes back what it lent. */
                sim_charge_task(p->sim, t, COST_ATOMIC, 1, COST_PATH_READ);
                mutex_unlock(p->sim, &pt->lock, t);
                pt->owns = false;
        }
}

/* The booster's priority is anything (it lends it, whatever it is);
 * the period as aging's. */
static gboolean check_param_pi(const char *key, const char *value, GError **error)
{
        return aging_check_param(key, value, 0, error);
}

static gboolean set_param_pi(void *pol, const char *key, const char *value, GError **error)
{
        struct pi_policy *p = pol;
        struct sched_spec s;

        if (!check_param_pi(key, value, error))
                return FALSE;
        if (!strcmp(key, "booster_prio")) {
                units_parse_sched(value, &s, NULL);
                /* The reader follows through priority inheritance. */
                sched_set_class(p->sim, p->booster, &s);
        } else {
                units_parse_duration(value, &p->period_ns, NULL);
        }
        return TRUE;
}

/* queued, boosted on the scheduler path, owns its lock, waits to acquire it
 * (a bit each), and inside its section. */
static int state_of_pi(void *pol, struct task *t)
{
        const struct pi_task *pt = t->policy_data;

        (void)pol;
        if (!pt)
                return 16 * (t->rcu_nesting > 0);
        return pt->queued | pt->boosted << 1 | pt->owns << 2 | pt->acquiring << 3 | (t->rcu_nesting > 0) << 4;
}

static void describe_task_pi(void *pol, struct task *t, char *buf, size_t len)
{
        struct pi_policy *p = pol;
        struct pi_task *pt = pt_of(t);

        g_snprintf(buf, len, "%s%s%s%s%s", pt->owns ? "owns-lock" : pt->lock.owner ? "lock-held-by-other" : "lock-free",
                   pt->boosted ? " boosted" : "", pt->queued ? " queued" : "",
                   pt->acquiring ? " acquiring" : "", p->target == t ? " boosting" : "");
}

static void report_pi(void *pol, struct report *r)
{
        struct pi_policy *p = pol;

        report_latency(r, "policy_stats.inherit_delay", &p->inherit_delay);
        report_int(r, "policy_stats.handoffs", p->handoffs);
        report_int(r, "policy_stats.max_queued", p->max_queue);
        report_int(r, "policy_stats.acquire_contended", p->acquire_contended);
        report_int(r, "policy_stats.rt_readers_not_boosted", p->not_boosted_rt);
        report_int(r, "policy_stats.sched_path_boosts", p->sched_path_boosts);
}

static void destroy_pi(void *pol)
{
        struct pi_policy *p = pol;

        for (guint i = 0; i < p->sim->tasks->len; i++) {
                struct pi_task *pt = sim_task(p->sim, (int)i)->policy_data;

                if (pt && pt->lock_ready)
                        mutex_finish(&pt->lock);
        }
        latency_stat_finish(&p->inherit_delay);
        g_free(p);
}

const struct boost_policy_ops pilock_policy_ops = {
        .name = "pi-lock",
        .summary = "approach 3: a per-task lock used only for priority inheritance (cannot boost reliably)",
        .keys = pi_keys,
        .threads = (const char *const[]){ "rcu_booster", NULL },
        .written_for = "rcupreempt",
        .create = create_pi,
        .reader_blocked = reader_blocked_pi,
        .reader_unlock = reader_unlock_pi,
        .check_param = check_param_pi,
        .set_param = set_param_pi,
        .describe_task = describe_task_pi,
        .state_of = state_of_pi,
        .report = report_pi,
        .destroy = destroy_pi,
};
