/* booster.c - approach 1: boost from a booster thread, aged per-CPU lists,
 * locks only off the fast paths (the Jan 15, 2007 -rt patch; the one the
 * article recommends).
 *
 * Three task states: IDLE, BLOCKED, BOOSTED.
 *  - Scheduler path: a task switched out inside a critical section while
 *    IDLE takes the lock of element [this cpu][idx], joins its toboost list
 *    and becomes BLOCKED.  A second switch-out in the same section does
 *    nothing.
 *  - Booster (aging.c): every period it boosts the oldest element's tasks,
 *    one tick apart: each gets an RCU priority one level below the booster
 *    (RT 48 under the default RR 49 booster), moves to `boosted` and
 *    becomes BOOSTED.
 *  - Read side: the outermost rcu_read_unlock() checks the state (the whole
 *    fast path); if not IDLE it takes the element's lock, unlinks itself,
 *    drops the RCU priority if BOOSTED, and becomes IDLE.
 * If the booster's priority changes, readers already boosted follow when
 * their element comes round again (every aging_elements periods).
 */
#include "policy.h"

#include "aging.h"

enum booster_state {
        BOOSTER_IDLE,
        BOOSTER_BLOCKED,
        BOOSTER_BOOSTED,
};

struct booster_task {
        struct aging_link al;
        enum booster_state state;
};

struct booster_policy {
        struct sim *sim;
        struct aging aging;
};

static const struct policy_key booster_keys[] = {
        { .name = "booster_prio", .type = POLICY_KEY_SCHED, .default_value = "rr:49",
          .doc = "the booster thread's scheduling; readers are boosted one level below it (at least RT 0: MAX_USER_RT_PRIO-1)" },
        AGING_POLICY_KEYS,
        { .name = NULL },
};

static void bt_init(void *state)
{
        struct booster_task *bt = state;

        bt->state = BOOSTER_IDLE;
}

static struct booster_task *bt_of(struct task *t)
{
        struct booster_task *bt = policy_task_state(t, sizeof(*bt), bt_init);

        bt->al.link.data = t;
        return bt;
}

/* rt_mutex_getprio(booster) + 1, one level below the booster (a larger
 * internal value is less urgent), capped at MAX_USER_RT_PRIO - 1 as the
 * patch does: a non-RT booster boosts readers to the least urgent RT level. */
static int boost_prio(const struct booster_policy *p)
{
        return MIN(p->aging.booster->prio + 1, PRIO_MAX_RT - 1);
}

static void apply_boost(struct booster_policy *p, struct task *t, struct booster_task *bt)
{
        sim_charge_task(p->sim, p->aging.booster, COST_PRIO_CHANGE, 1, COST_PATH_BOOSTER);
        sched_set_boost_prio(p->sim, t, boost_prio(p), p->aging.chain);
        bt->state = BOOSTER_BOOSTED;
}

/* aging_ops.boost: the booster took @t off element @e (lock held). */
static bool boost_one_booster(void *pol, struct task *t, struct aging_elem *e)
{
        struct booster_policy *p = pol;
        struct booster_task *bt = bt_of(t);

        if (bt->state == BOOSTER_IDLE)
                return false;
        apply_boost(p, t, bt);
        sim_charge_task(p->sim, p->aging.booster, COST_LIST_OP, 1, COST_PATH_BOOSTER);
        aging_link_add(&bt->al, e, &e->boosted);
        return false;
}

static const struct aging_ops booster_aging_ops = {
        .boost = boost_one_booster,
        .splice_boosted = true,
};

static void *create_booster(struct sim *sim, const struct policy_params *params, GError **error)
{
        struct booster_policy *p = g_new0(struct booster_policy, 1);

        p->sim = sim;
        if (!aging_create(&p->aging, sim, params, 0, &booster_aging_ops, p, error)) {
                g_free(p);
                return NULL;
        }
        return p;
}

static void reader_blocked_booster(void *pol, struct task *t, enum rcu_block_reason why)
{
        struct booster_policy *p = pol;
        struct booster_task *bt = bt_of(t);
        struct aging_elem *e;

        (void)why;
        /* rcu_preempt_boost() takes the element's lock on every schedule()
         * with nesting > 0, before it looks at the state. */
        sim_charge_cpu(p->sim, t->cpu, COST_LOCK, 1, COST_PATH_SCHED);
        if (bt->state != BOOSTER_IDLE)
                return;
        sim_charge_cpu(p->sim, t->cpu, COST_LIST_OP, 1, COST_PATH_SCHED);
        e = aging_current(&p->aging, t->cpu);
        aging_link_add(&bt->al, e, &e->toboost);
        bt->state = BOOSTER_BLOCKED;
}

static void reader_unlock_booster(void *pol, struct task *t)
{
        struct booster_policy *p = pol;
        struct booster_task *bt = bt_of(t);

        if (bt->state == BOOSTER_IDLE)
                return;         /* the fast path: one check */
        sim_charge_task(p->sim, t, COST_LOCK, 1, COST_PATH_READ);
        sim_charge_task(p->sim, t, COST_LIST_OP, 1, COST_PATH_READ);
        aging_link_del(&bt->al);
        if (bt->state == BOOSTER_BOOSTED) {
                sim_charge_task(p->sim, t, COST_PRIO_CHANGE, 1, COST_PATH_READ);
                sched_set_boost_prio(p->sim, t, PRIO_NONE, p->aging.chain);
        }
        bt->state = BOOSTER_IDLE;
}

static gboolean check_param_booster(const char *key, const char *value, GError **error)
{
        return aging_check_param(key, value, 0, error);
}

static gboolean set_param_booster(void *pol, const char *key, const char *value, GError **error)
{
        struct booster_policy *p = pol;

        /* Readers already boosted pick a new booster priority up when their
         * element comes round ("reboosting may be required"), not at once. */
        return aging_set_param(&p->aging, key, value, 0, error);
}

/* IDLE, BLOCKED, BOOSTED (0..2), and whether the reader is inside its section (+3). */
static int state_of_booster(void *pol, struct task *t)
{
        const struct booster_task *bt = t->policy_data;

        (void)pol;
        return (bt ? (int)bt->state : BOOSTER_IDLE) + 3 * (t->rcu_nesting > 0);
}

static void describe_task_booster(void *pol, struct task *t, char *buf, size_t len)
{
        static const char *const names[] = { "IDLE", "BLOCKED", "BOOSTED" };
        struct booster_policy *p = pol;
        struct booster_task *bt = bt_of(t);
        char where[64];

        aging_link_describe(&p->aging, &bt->al, where, sizeof(where));
        g_snprintf(buf, len, "%s %s", names[bt->state], where);
}

static void report_booster(void *pol, struct report *r)
{
        struct booster_policy *p = pol;

        report_int(r, "policy_stats.booster_passes", p->aging.passes);
}

static void destroy_booster(void *pol)
{
        struct booster_policy *p = pol;

        aging_finish(&p->aging);
        g_free(p);
}

const struct boost_policy_ops booster_policy_ops = {
        .name = "booster",
        .summary = "approach 1: booster thread, aged per-CPU lists, locks off the fast paths (use this one)",
        .keys = booster_keys,
        .threads = (const char *const[]){ "rcu_booster", NULL },
        .written_for = "rcupreempt",
        .create = create_booster,
        .reader_blocked = reader_blocked_booster,
        .reader_unlock = reader_unlock_booster,
        .check_param = check_param_booster,
        .set_param = set_param_booster,
        .describe_task = describe_task_booster,
        .state_of = state_of_booster,
        .report = report_booster,
        .destroy = destroy_booster,
};
