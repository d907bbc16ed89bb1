/* booster8.c - approach 2: the same aging lists and booster, guarded by an
 * eight-state lock-free machine (the Jan 2, 2007 -rt patch; the article's
 * intermediate design).
 *
 * Task states (values as in the patch) and the events that move them:
 *
 *     IDLE 0, BLOCKED 1, BOOSTED 2, EXIT_OK 3,
 *     UNBOOST_IDLE 4, UNBOOST_BLOCKED 5, BOOSTING 6, UNBOOST_EXITING 7
 *
 *     block (scheduler path)     +1   IDLE -> BLOCKED (and queue it),
 *                                     UNBOOST_IDLE -> UNBOOST_BLOCKED
 *     outermost unlock           &~3  BLOCKED -> IDLE, BOOSTED -> IDLE (unboosts
 *                                     itself), BOOSTING -> UNBOOST_IDLE,
 *                                     UNBOOST_BLOCKED -> UNBOOST_IDLE
 *     exit                       +3   IDLE -> EXIT_OK,
 *                                     UNBOOST_IDLE -> UNBOOST_EXITING (waits)
 *     booster                         BLOCKED -> BOOSTING, boost, then
 *                                     BOOSTING -> BOOSTED; if that cmpxchg
 *                                     fails the reader unlocked meanwhile:
 *     booster unboost            -4   UNBOOST_IDLE -> IDLE,
 *                                     UNBOOST_BLOCKED -> BLOCKED (queued again),
 *                                     UNBOOST_EXITING -> EXIT_OK (exit proceeds)
 *
 * Every transition is a cmpxchg (one atomic operation, charged to whoever
 * makes it); list membership still takes the element's lock (rbs_mutex).
 * As in the patch, the booster splices only rbs_toboost, holds the element's
 * lock across BLOCKED -> BOOSTING, rcu_boost_prio() and BOOSTING -> BOOSTED
 * (one acquisition), and a reader that goes UNBOOST_IDLE -> UNBOOST_BLOCKED
 * queues itself.  The reader's outermost unlock makes its &~3 transition
 * without the lock, so the work between BOOSTING and BOOSTED -- which takes
 * simulated time, its charged costs -- is a window in which a running
 * boosted reader (on another CPU) can unlock and even block again: the
 * booster's cmpxchg then fails and the reader runs boosted outside any
 * critical section until the booster unboosts it (policy_stats.failed_cmpxchg,
 * policy_stats.boosted_outside_cs_ns; scenarios/booster8-races.scn hits both).
 * Readers are boosted to the fixed PREEMPT_RCU_BOOST_PRIO, whatever the
 * booster's own priority.
 */
#include "policy.h"

#include "aging.h"

enum b8_state {
        B8_IDLE,
        B8_BLOCKED,
        B8_BOOSTED,
        B8_EXIT_OK,
        B8_UNBOOST_IDLE,
        B8_UNBOOST_BLOCKED,
        B8_BOOSTING,
        B8_UNBOOST_EXITING,
        B8_NSTATES,
};

static const char *const b8_names[B8_NSTATES] = {
        "IDLE", "BLOCKED", "BOOSTED", "EXIT_OK", "UNBOOST_IDLE", "UNBOOST_BLOCKED", "BOOSTING",
        "UNBOOST_EXITING",
};

/* The transitions the machine allows, in the order they are reported. */
static const struct { enum b8_state from, to; } b8_transitions[] = {
        { B8_IDLE, B8_BLOCKED }, { B8_BLOCKED, B8_IDLE }, { B8_BLOCKED, B8_BOOSTING },
        { B8_BOOSTING, B8_BOOSTED }, { B8_BOOSTED, B8_IDLE }, { B8_BOOSTING, B8_UNBOOST_IDLE },
        { B8_UNBOOST_IDLE, B8_IDLE }, { B8_UNBOOST_IDLE, B8_UNBOOST_BLOCKED },
        { B8_UNBOOST_BLOCKED, B8_UNBOOST_IDLE }, { B8_UNBOOST_BLOCKED, B8_BLOCKED },
        { B8_IDLE, B8_EXIT_OK }, { B8_UNBOOST_IDLE, B8_UNBOOST_EXITING },
        { B8_UNBOOST_EXITING, B8_EXIT_OK },
};

struct b8_task {
        struct aging_link al;
        enum b8_state state;
        int64_t exit_wait_since;
};

/* PREEMPT_RCU_BOOST_PRIO in the patch: kernel priority 50, i.e. RT 49. */
#define B8_BOOST_PRIO 50

struct b8_policy {
        struct sim *sim;
        struct aging aging;
        int64_t transitions[B8_NSTATES][B8_NSTATES];
        int64_t failed_cmpxchg;
        int64_t exits_held;
        struct latency_stat exit_wait;
};

static const struct policy_key b8_keys[] = {
        { .name = "booster_prio", .type = POLICY_KEY_SCHED, .default_value = "rr:49",
          .doc = "the booster thread's scheduling; readers are boosted to RT 49 (PREEMPT_RCU_BOOST_PRIO) whatever it is" },
        AGING_POLICY_KEYS,
        { .name = NULL },
};

static void b8_init(void *state)
{
        struct b8_task *bt = state;

        bt->state = B8_IDLE;
}

static struct b8_task *b8_of(struct task *t)
{
        struct b8_task *bt = policy_task_state(t, sizeof(*bt), b8_init);

        bt->al.link.data = t;
        return bt;
}

/* A successful cmpxchg: one atomic operation, charged to @t or @cpu. */
static void cas_task(struct b8_policy *p, struct b8_task *bt, enum b8_state to, struct task *t,
                     enum cost_path path)
{
        sim_charge_task(p->sim, t, COST_ATOMIC, 1, path);
        p->transitions[bt->state][to]++;
        bt->state = to;
}

static void cas_cpu(struct b8_policy *p, struct b8_task *bt, enum b8_state to, int cpu)
{
        sim_charge_cpu(p->sim, cpu, COST_ATOMIC, 1, COST_PATH_SCHED);
        p->transitions[bt->state][to]++;
        bt->state = to;
}

static void queue_blocked(struct b8_policy *p, struct task *t, struct b8_task *bt, struct task *payer)
{
        struct aging_elem *e = aging_current(&p->aging, t->cpu);

        if (payer) {
                sim_charge_task(p->sim, payer, COST_LOCK, 1, COST_PATH_BOOSTER);
                sim_charge_task(p->sim, payer, COST_LIST_OP, 1, COST_PATH_BOOSTER);
        } else {
                sim_charge_cpu(p->sim, t->cpu, COST_LOCK, 1, COST_PATH_SCHED);
                sim_charge_cpu(p->sim, t->cpu, COST_LIST_OP, 1, COST_PATH_SCHED);
        }
        aging_link_add(&bt->al, e, &e->toboost);
}

static void set_boost(struct b8_policy *p, struct task *t, struct b8_task *bt, struct task *payer,
                      enum cost_path path)
{
        (void)bt;
        sim_charge_task(p->sim, payer, COST_PRIO_CHANGE, 1, path);
        sched_set_boost_prio(p->sim, t, B8_BOOST_PRIO, p->aging.chain);
}

static void drop_boost(struct b8_policy *p, struct task *t, struct b8_task *bt, struct task *payer,
                       enum cost_path path)
{
        (void)bt;
        sim_charge_task(p->sim, payer, COST_PRIO_CHANGE, 1, path);
        sched_set_boost_prio(p->sim, t, PRIO_NONE, p->aging.chain);
}

/* aging_ops.boost: BLOCKED -> BOOSTING and rcu_boost_prio(), the element's
 * lock still held.  Only toboost is spliced, so a task here is BLOCKED or
 * one that queued itself again (UNBOOST_BLOCKED) and left its section since. */
static bool boost_one_b8(void *pol, struct task *t, struct aging_elem *e)
{
        struct b8_policy *p = pol;
        struct b8_task *bt = b8_of(t);
        struct task *booster = p->aging.booster;

        (void)e;
        if (bt->state != B8_BLOCKED)
                return false;
        cas_task(p, bt, B8_BOOSTING, booster, COST_PATH_BOOSTER);
        set_boost(p, t, bt, booster, COST_PATH_BOOSTER);
        return true;    /* finish() after the booster has done the work */
}

/* aging_ops.finish: BOOSTING -> BOOSTED, or clean up after a reader that
 * left its critical section while being boosted. */
static void finish_b8(void *pol, struct task *t, struct aging_elem *e)
{
        struct b8_policy *p = pol;
        struct b8_task *bt = b8_of(t);
        struct task *booster = p->aging.booster;

        if (bt->state == B8_BOOSTING) {
                /* Still under the element's lock taken at the pick. */
                cas_task(p, bt, B8_BOOSTED, booster, COST_PATH_BOOSTER);
                sim_charge_task(p->sim, booster, COST_LIST_OP, 1, COST_PATH_BOOSTER);
                aging_link_add(&bt->al, e, &e->boosted);
                return;
        }
        /* The cmpxchg BOOSTING -> BOOSTED failed: unboost after the fact. */
        p->failed_cmpxchg++;
        sim_charge_task(p->sim, booster, COST_ATOMIC, 1, COST_PATH_BOOSTER);
        drop_boost(p, t, bt, booster, COST_PATH_BOOSTER);
        switch (bt->state) {
        case B8_UNBOOST_IDLE:
                cas_task(p, bt, B8_IDLE, booster, COST_PATH_BOOSTER);
                break;
        case B8_UNBOOST_BLOCKED:
                /* It blocked in a new critical section and queued itself then. */
                cas_task(p, bt, B8_BLOCKED, booster, COST_PATH_BOOSTER);
                if (!bt->al.on)
                        queue_blocked(p, t, bt, booster);
                break;
        case B8_UNBOOST_EXITING:
                cas_task(p, bt, B8_EXIT_OK, booster, COST_PATH_BOOSTER);
                latency_stat_add(&p->exit_wait, p->sim->now - bt->exit_wait_since);
                sim_task_exit_release(p->sim, t);
                break;
        default:
                g_warn_if_reached();
        }
}

static const struct aging_ops b8_aging_ops = {
        .boost = boost_one_b8,
        .finish = finish_b8,
        .splice_boosted = false,        /* only rbs_toboost */
};

static void *create_b8(struct sim *sim, const struct policy_params *params, GError **error)
{
        struct b8_policy *p = g_new0(struct b8_policy, 1);

        p->sim = sim;
        if (!aging_create(&p->aging, sim, params, 1, &b8_aging_ops, p, error)) {
                g_free(p);
                return NULL;
        }
        latency_stat_init(&p->exit_wait);
        return p;
}

static void reader_blocked_b8(void *pol, struct task *t, enum rcu_block_reason why)
{
        struct b8_policy *p = pol;
        struct b8_task *bt = b8_of(t);

        (void)why;
        switch (bt->state) {
        case B8_IDLE:
                cas_cpu(p, bt, B8_BLOCKED, t->cpu);
                queue_blocked(p, t, bt, NULL);
                break;
        case B8_UNBOOST_IDLE:
                /* Still boosted from its last section: queue itself for this one. */
                cas_cpu(p, bt, B8_UNBOOST_BLOCKED, t->cpu);
                queue_blocked(p, t, bt, NULL);
                break;
        default:
                break;  /* already switched out once in this section */
        }
}

static void reader_unlock_b8(void *pol, struct task *t)
{
        struct b8_policy *p = pol;
        struct b8_task *bt = b8_of(t);
        enum b8_state was = bt->state;

        if (was == B8_IDLE)
                return;
        cas_task(p, bt, (enum b8_state)(was & ~3), t, COST_PATH_READ);
        if (bt->al.on) {        /* BLOCKED, BOOSTED or UNBOOST_BLOCKED: queued */
                sim_charge_task(p->sim, t, COST_LOCK, 1, COST_PATH_READ);
                sim_charge_task(p->sim, t, COST_LIST_OP, 1, COST_PATH_READ);
                aging_link_del(&bt->al);
        }
        if (was == B8_BOOSTED)
                drop_boost(p, t, bt, t, COST_PATH_READ);
        /* BOOSTING / UNBOOST_BLOCKED -> UNBOOST_IDLE: the booster cleans up. */
}

static bool task_exit_b8(void *pol, struct task *t)
{
        struct b8_policy *p = pol;
        struct b8_task *bt = t->policy_data;

        if (!bt)
                return true;
        switch (bt->state) {
        case B8_IDLE:
                cas_task(p, bt, B8_EXIT_OK, t, COST_PATH_READ);
                return true;
        case B8_UNBOOST_IDLE:
                /* The booster is working on it: wait for the handshake. */
                cas_task(p, bt, B8_UNBOOST_EXITING, t, COST_PATH_READ);
                bt->exit_wait_since = p->sim->now;
                p->exits_held++;
                return false;
        default:
                return true;
        }
}

static gboolean check_param_b8(const char *key, const char *value, GError **error)
{
        return aging_check_param(key, value, 1, error);
}

static gboolean set_param_b8(void *pol, const char *key, const char *value, GError **error)
{
        struct b8_policy *p = pol;

        /* Boosted readers stay at PREEMPT_RCU_BOOST_PRIO: nothing follows. */
        return aging_set_param(&p->aging, key, value, 1, error);
}

/* The eight-state machine's state (0..7), and whether the reader is inside
 * its section (+8): BOOSTED outside it is the Jan 2 races' mark. */
static int state_of_b8(void *pol, struct task *t)
{
        const struct b8_task *bt = t->policy_data;

        (void)pol;
        return (bt ? (int)bt->state : B8_IDLE) + B8_NSTATES * (t->rcu_nesting > 0);
}

static void describe_task_b8(void *pol, struct task *t, char *buf, size_t len)
{
        struct b8_policy *p = pol;
        struct b8_task *bt = b8_of(t);
        char where[64];

        aging_link_describe(&p->aging, &bt->al, where, sizeof(where));
        g_snprintf(buf, len, "%s %s", b8_names[bt->state], where);
}

static void report_b8(void *pol, struct report *r)
{
        struct b8_policy *p = pol;
        char key[96];

        report_int(r, "policy_stats.booster_passes", p->aging.passes);
        report_int(r, "policy_stats.failed_cmpxchg", p->failed_cmpxchg);
        report_int(r, "policy_stats.exits_held", p->exits_held);
        report_latency(r, "policy_stats.exit_wait", &p->exit_wait);
        for (size_t i = 0; i < G_N_ELEMENTS(b8_transitions); i++) {
                enum b8_state from = b8_transitions[i].from, to = b8_transitions[i].to;

                g_snprintf(key, sizeof(key), "policy_stats.transitions.%s_to_%s", b8_names[from], b8_names[to]);
                report_int(r, key, p->transitions[from][to]);
        }
}

static void destroy_b8(void *pol)
{
        struct b8_policy *p = pol;

        aging_finish(&p->aging);
        latency_stat_finish(&p->exit_wait);
        g_free(p);
}

const struct boost_policy_ops booster8_policy_ops = {
        .name = "booster-8state",
        .summary = "approach 2: the same aging and booster with an eight-state lock-free machine",
        .keys = b8_keys,
        .threads = (const char *const[]){ "rcu_booster", NULL },
        .written_for = "rcupreempt",
        .create = create_b8,
        .reader_blocked = reader_blocked_b8,
        .reader_unlock = reader_unlock_b8,
        .task_exit = task_exit_b8,
        .check_param = check_param_b8,
        .set_param = set_param_b8,
        .describe_task = describe_task_b8,
        .state_of = state_of_b8,
        .report = report_b8,
        .destroy = destroy_b8,
};
