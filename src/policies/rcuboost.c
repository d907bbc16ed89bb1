/* rcuboost.c - CONFIG_RCU_BOOST of mainline preemptible Tree RCU.
 *
 * kernel/rcu/tree_plugin.h (v5.15-v6.x), on [rcu] flavour=tree only:
 *  - One rcub/N kthread per leaf rcu_node (rcu_spawn_one_boost_kthread(),
 *    N the node's index), SCHED_FIFO rcutree.kthread_prio, allowed on the
 *    leaf's CPUs (rcu_boost_kthread_setaffinity()).
 *  - rcu_gp_init() sets each node's ->boost_time to now +
 *    CONFIG_RCU_BOOST_DELAY (rcu_preempt_boost_start_gp(), here gp_start).
 *  - force_qs_rnp() calls rcu_initiate_boost() for a leaf whose CPUs have
 *    all reported but whose ->gp_tasks still block the grace period: past
 *    ->boost_time (or with callbacks overloaded, rcu_state.cbovld) it points
 *    ->boost_tasks at ->gp_tasks and wakes rcub/N unless it is yielding.
 *  - rcu_boost(): ONE task at a time.  The kthread makes the task at
 *    ->boost_tasks the owner of the leaf's boost_mtx
 *    (rt_mutex_init_proxy_locked()) and blocks on it (rt_mutex_lock()): the
 *    reader inherits the kthread's priority by ordinary priority
 *    inheritance, through mutex.c, chains and all.  The reader's outermost
 *    rcu_read_unlock() takes it off ->blkd_tasks, moving ->boost_tasks on
 *    (tree.c), and releases the mutex (rt_mutex_futex_unlock()); the kthread
 *    gets it, drops it and boosts the next.  After more than ten boosts in
 *    a row with more waiting it yields for two jiffies
 *    (schedule_timeout_idle(2), RCU_KTHREAD_YIELDING).
 * Not modelled: expedited grace periods (->exp_tasks, boosted at once).
 */
#include "policy.h"

#include "../sim/engine/engine.h"
#include "../sim/rcu/tree.h"

struct rcub {
        struct rcu_boost_policy *p;
        struct rcu_node *rnp;
        struct task *kthread;
        struct mutex boost_mtx;
        int64_t boost_time;             /* jiffies */
        struct task *target;            /* proxy owner of boost_mtx, or NULL */
        int spincnt;
        bool yielding;                  /* RCU_KTHREAD_YIELDING */
        int64_t n_boosts;
};

struct rcu_boost_policy {
        struct sim *sim;
        int64_t boost_delay_jiffies;
        int nleaves;
        struct rcub *leaves;
        int64_t initiated;              /* rcu_initiate_boost() that set ->boost_tasks */
        int64_t yields;
};

struct rcub_task {
        struct rcub *owner_of;          /* whose boost_mtx it holds */
};

static const struct policy_key rcu_boost_keys[] = {
        { .name = "boost_delay", .type = POLICY_KEY_DURATION, .default_value = "500ms",
          .doc = "CONFIG_RCU_BOOST_DELAY: how long a grace period waits before its blocked readers are boosted" },
        { .name = NULL },
};

static struct rcub_task *rt_of(struct task *t)
{
        return policy_task_state(t, sizeof(struct rcub_task), NULL);
}

static int64_t jiffies(const struct sim *sim)
{
        return timer_wheel_jiffies(sim);
}

/* rcu_boost_kthread() and rcu_boost(). */
static struct step rcub_step(struct sim *sim, struct task *self)
{
        struct rcub *b = self->step_data;
        struct rcu_node *rnp = b->rnp;

        for (;;) {
                if (b->target) {
                        /* The reader released boost_mtx at its unlock and handed it here. */
                        mutex_unlock(sim, &b->boost_mtx, self);
                        b->target = NULL;
                        b->n_boosts++;
                        if (rnp->boost_tasks)
                                b->spincnt++;
                        else
                                b->spincnt = 0;
                        if (b->spincnt > 10) {
                                b->spincnt = 0;
                                b->yielding = true;
                                b->p->yields++;
                                return softirq_schedule_timeout(sim, 2);
                        }
                        continue;
                }
                b->yielding = false;
                if (!rnp->boost_tasks)
                        return (struct step){ STEP_WAIT, 0 };       /* RCU_KTHREAD_WAITING */

                struct task *t = rnp->boost_tasks->data;
                struct rcub_task *st = rt_of(t);

                sim_charge_task(sim, self, COST_LOCK, 1, COST_PATH_BOOSTER);
                mutex_init_proxy_locked(&b->boost_mtx, t);
                st->owner_of = b;
                b->target = t;
                /* Lock only for its side effect: t inherits our priority. */
                if (mutex_lock(sim, &b->boost_mtx, self))
                        continue;       /* cannot happen: t owns it */
                sim_charge_task(sim, self, COST_PRIO_CHANGE, 1, COST_PATH_BOOSTER);
                return (struct step){ STEP_BLOCK_MUTEX, 0 };
        }
}

static void *create_rcu_boost(struct sim *sim, const struct policy_params *params, GError **error)
{
        struct rcu_boost_policy *p;
        int64_t delay;
        struct sched_spec sp = { SCHED_POLICY_FIFO, rcu_tree_kthread_prio(sim) };

        if (!policy_param_duration(params, "boost_delay", &delay, error))
                return NULL;
        if (delay < 0) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                            "[policy] boost_delay: must not be negative");
                return NULL;
        }
        p = g_new0(struct rcu_boost_policy, 1);
        p->sim = sim;
        /* RCU_BOOST_DELAY_JIFFIES = msecs_to_jiffies(), rounding up. */
        p->boost_delay_jiffies = (delay + sim->tick_ns - 1) / sim->tick_ns;
        sim_note_jiffies(sim, "boost_delay", delay, true);
        p->nleaves = rcu_tree_nleaves(sim);
        p->leaves = g_new0(struct rcub, p->nleaves);
        for (int i = 0; i < p->nleaves; i++) {
                struct rcub *b = &p->leaves[i];
                struct cpumask cpus;
                g_autofree char *name = NULL;

                b->p = p;
                b->rnp = rcu_tree_leaf(sim, i);
                name = g_strdup_printf("rcub/%d", b->rnp->index);
                mutex_init(&b->boost_mtx, -1, "boost_mtx");
                cpumask_clear(&cpus);
                for (int c = b->rnp->grplo; c <= b->rnp->grphi; c++)
                        cpumask_set(&cpus, c);
                b->kthread = sim_kthread_create(sim, name, &sp, &cpus, rcub_step, b, false);
        }
        return p;
}

/* rcu_preempt_boost_start_gp(), from rcu_gp_init(). */
static void gp_start_rcu_boost(void *pol, int64_t gp)
{
        struct rcu_boost_policy *p = pol;

        (void)gp;
        for (int i = 0; i < p->nleaves; i++)
                p->leaves[i].boost_time = jiffies(p->sim) + p->boost_delay_jiffies;
}

static struct rcub *rcub_of(struct rcu_boost_policy *p, const struct rcu_node *rnp)
{
        for (int i = 0; i < p->nleaves; i++)
                if (p->leaves[i].rnp == rnp)
                        return &p->leaves[i];
        return NULL;
}

/* rcu_initiate_boost() */
static void fqs_blocked_rcu_boost(void *pol, struct rcu_node *rnp, struct task *gp_kthread)
{
        struct rcu_boost_policy *p = pol;
        struct sim *sim = p->sim;
        struct rcub *b = rcub_of(p, rnp);

        if (!b || !rnp->gp_tasks || rnp->boost_tasks || rnp->qsmask != 0)
                return;
        if (jiffies(sim) < b->boost_time && !rcu_tree_cbovld(sim))
                return;
        sim_charge_task(sim, gp_kthread, COST_LIST_OP, 1, COST_PATH_BOOSTER);
        rnp->boost_tasks = rnp->gp_tasks;
        p->initiated++;
        /* rcu_wake_cond(): a yielding kthread is left to its timeout. */
        if (!b->yielding && b->kthread->state == TASK_WAITING)
                sched_wake(sim, b->kthread);
}

/* The reader is on ->blkd_tasks already (tree.c): nothing more to do. */
static void reader_blocked_rcu_boost(void *pol, struct task *t, enum rcu_block_reason why)
{
        (void)pol;
        (void)t;
        (void)why;
}

/* The end of rcu_read_unlock_special(): drop boost_mtx if we hold it. */
static void reader_unlock_rcu_boost(void *pol, struct task *t)
{
        struct rcu_boost_policy *p = pol;
        struct rcub_task *st = rt_of(t);
        struct rcub *b = st->owner_of;

        if (!b)
                return;
        st->owner_of = NULL;
        sim_charge_task(p->sim, t, COST_ATOMIC, 1, COST_PATH_READ);
        mutex_unlock(p->sim, &b->boost_mtx, t);         /* rt_mutex_futex_unlock() */
}

/* on a leaf's blkd_tasks, holding a boost_mtx (boosted by rcub), inside its section. */
static int state_of_rcu_boost(void *pol, struct task *t)
{
        const struct rcub_task *st = t->policy_data;

        (void)pol;
        return (rcu_tree_blocked_node(t) != NULL) | (st && st->owner_of) << 1 | (t->rcu_nesting > 0) << 2;
}

static void describe_task_rcu_boost(void *pol, struct task *t, char *buf, size_t len)
{
        struct rcub_task *st = rt_of(t);
        const struct rcu_node *rnp = rcu_tree_blocked_node(t);

        (void)pol;
        if (st->owner_of)
                g_snprintf(buf, len, "boosted by %s", st->owner_of->kthread->name);
        else if (rnp)
                g_snprintf(buf, len, "blkd_tasks of rcu_node %d", rnp->index);
        else
                g_snprintf(buf, len, "-");
}

static void report_rcu_boost(void *pol, struct report *r)
{
        struct rcu_boost_policy *p = pol;
        int64_t boosts = 0;

        for (int i = 0; i < p->nleaves; i++)
                boosts += p->leaves[i].n_boosts;
        report_int(r, "policy_stats.boost_kthreads", p->nleaves);
        report_int(r, "policy_stats.boost_initiated", p->initiated);
        report_int(r, "policy_stats.n_boosts", boosts);
        report_int(r, "policy_stats.boost_yields", p->yields);
        report_int(r, "policy_stats.boost_delay_jiffies", p->boost_delay_jiffies);
}

static void destroy_rcu_boost(void *pol)
{
        struct rcu_boost_policy *p = pol;

        for (int i = 0; i < p->nleaves; i++)
                mutex_finish(&p->leaves[i].boost_mtx);
        g_free(p->leaves);
        g_free(p);
}

const struct boost_policy_ops rcu_boost_policy_ops = {
        .name = "rcu-boost",
        .summary = "mainline CONFIG_RCU_BOOST on Tree RCU: rcub/N boosts blocked readers one at a time "
                   "through an rt_mutex after boost_delay",
        .keys = rcu_boost_keys,
        .rcu_flavour = "tree",
        .create = create_rcu_boost,
        .reader_blocked = reader_blocked_rcu_boost,
        .reader_unlock = reader_unlock_rcu_boost,
        .gp_start = gp_start_rcu_boost,
        .fqs_blocked = fqs_blocked_rcu_boost,
        .describe_task = describe_task_rcu_boost,
        .state_of = state_of_rcu_boost,
        .report = report_rcu_boost,
        .destroy = destroy_rcu_boost,
};
