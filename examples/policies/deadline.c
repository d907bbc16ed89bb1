/* deadline.c - an out-of-tree rcuboost policy: boost a reader preempted too long.
 *
 * The middle road between boosting at once (immediate.c) and boosting from
 * a thread that scans every 10 ms (booster): a reader switched out inside
 * its critical section arms a timer for `grace`; if it is still off its CPU
 * and still inside that section when the timer fires, it is boosted to
 * `prio`, and the boost is dropped at its outermost rcu_read_unlock().  A
 * reader that gets its CPU back within `grace` costs one timer arm and one
 * cancel and is never boosted.  An [event] may change `grace` during the run.
 *
 * `timer` chooses where the deadline fires (ptimer.h), and so who can
 * delay it: `hardirq` is an hrtimer in hard interrupt context, which
 * nothing starves; `softirq` is a timer-wheel timer, run by the timer
 * softirq thread of the reader's CPU -- ktimers/N at FIFO 1 on 6.x-rt, so
 * the very RT hog that preempted the reader also holds back its rescue.
 *
 * Build against an installed rcuboost (docs/policies.md, "Writing a policy"):
 *
 *     cc -shared -fPIC -O2 -o libdeadline.so deadline.c $(pkg-config --cflags rcuboost-policy)
 *     rcuboost check --policies ./libdeadline.so deadline.scn
 */
#include <rcuboost/policies/policy.h>
#include <rcuboost/sim/engine/engine.h>

enum { TIMER_HARDIRQ, TIMER_SOFTIRQ };  /* the order of the `timer` key's choices */

struct deadline {
        struct sim *sim;
        int64_t grace_ns;
        int boost_prio;
        enum ptimer_context timer_context;
        int64_t timers_armed, timers_cancelled, deadlines_missed;
};

/* Per reader; the engine frees it with the task, and the timer with the run. */
struct deadline_task {
        struct deadline *p;
        struct task *t;
        struct ptimer *timer;
        bool boosted;           /* by us, in this critical section */
};

static const struct policy_key deadline_keys[] = {
        { .name = "grace", .type = POLICY_KEY_DURATION, .default_value = "2ms",
          .doc = "how long a reader may stay switched out inside its critical section before it is boosted" },
        { .name = "prio", .type = POLICY_KEY_SCHED, .default_value = "fifo:50",
          .doc = "the priority a reader is boosted to (a real-time one)" },
        { .name = "timer", .type = POLICY_KEY_ENUM, .default_value = "hardirq", .choices = "hardirq|softirq",
          .doc = "where the deadline fires: an hrtimer in hard irq context, or the timer softirq thread" },
        { .name = NULL },
};

static void *create_deadline(struct sim *sim, const struct policy_params *params, GError **error)
{
        struct deadline *p;
        int64_t grace;
        struct sched_spec prio;
        int timer;

        if (!policy_param_duration(params, "grace", &grace, error) ||
            !policy_param_sched(params, "prio", &prio, error) ||
            !policy_param_enum(params, "timer", &timer, error))
                return NULL;
        if (grace < 0) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID, "[policy] grace: must not be negative");
                return NULL;
        }
        if (prio.policy == SCHED_POLICY_NORMAL) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                            "[policy] prio: a reader is boosted to a real-time priority (fifo:N or rr:N)");
                return NULL;
        }
        p = g_new0(struct deadline, 1);
        p->sim = sim;
        p->grace_ns = grace;
        p->boost_prio = sched_spec_prio(&prio);
        p->timer_context = timer == TIMER_SOFTIRQ ? PTIMER_SOFTIRQ : PTIMER_HARDIRQ;
        return p;
}

/* The deadline passed: boost the reader if it is still switched out in the
 * same critical section (the timer is cancelled when it resumes or ends it). */
static void deadline_expired(struct sim *sim, void *data, struct task *thread, int cpu)
{
        struct deadline_task *dt = data;
        struct deadline *p = dt->p;
        struct task *t = dt->t;

        if (thread)
                sim_charge_task(sim, thread, COST_PRIO_CHANGE, 1, COST_PATH_BOOSTER);
        else
                sim_charge_cpu(sim, cpu, COST_PRIO_CHANGE, 1, COST_PATH_BOOSTER);
        if (t->prio <= p->boost_prio)
                return;         /* already at least that urgent */
        p->deadlines_missed++;
        /* the engine counts it (readers_boosted, boost_delay) and logs it in boost.csv */
        sched_set_boost_prio(sim, t, p->boost_prio, BOOST_ADJUST_PI);
        dt->boosted = true;
}

static struct deadline_task *task_state(struct deadline *p, struct task *t)
{
        struct deadline_task *dt = policy_task_state(t, sizeof(*dt), NULL);

        if (!dt->timer) {
                dt->p = p;
                dt->t = t;
                dt->timer = policy_timer_new(p->sim, p->timer_context, deadline_expired, dt);
        }
        return dt;
}

/* Scheduler path: arm the deadline at the first switch-out, or again after
 * the reader ran in between (reader_resumed cancelled it). */
static void reader_blocked_deadline(void *pol, struct task *t, enum rcu_block_reason why)
{
        struct deadline *p = pol;
        struct deadline_task *dt = task_state(p, t);

        (void)why;
        if (dt->boosted || policy_timer_pending(dt->timer))
                return;
        sim_charge_cpu(p->sim, t->cpu, COST_LOCK, 1, COST_PATH_SCHED);  /* the timer base's lock */
        policy_timer_arm(p->sim, dt->timer, t->cpu, p->sim->now + p->grace_ns);
        p->timers_armed++;
}

/* Back on a CPU within the grace period: no boost needed this time. */
static void reader_resumed_deadline(void *pol, struct task *t)
{
        struct deadline *p = pol;
        struct deadline_task *dt = task_state(p, t);

        if (!policy_timer_pending(dt->timer))
                return;
        sim_charge_cpu(p->sim, t->cpu, COST_LOCK, 1, COST_PATH_SCHED);
        policy_timer_cancel(p->sim, dt->timer);
        p->timers_cancelled++;
}

static void reader_unlock_deadline(void *pol, struct task *t)
{
        struct deadline *p = pol;
        struct deadline_task *dt = task_state(p, t);

        if (policy_timer_cancel(p->sim, dt->timer))
                p->timers_cancelled++;
        if (!dt->boosted)
                return;
        sim_charge_task(p->sim, t, COST_PRIO_CHANGE, 1, COST_PATH_READ);
        sched_set_boost_prio(p->sim, t, PRIO_NONE, BOOST_ADJUST_PI);
        dt->boosted = false;
}

/* An [event] may change grace during the run (policy.grace=5ms); timers
 * already armed keep their expiry. */
static gboolean check_param_deadline(const char *key, const char *value, GError **error)
{
        int64_t ns;

        if (strcmp(key, "grace") != 0) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                            "%s cannot change during a run (only grace can)", key);
                return FALSE;
        }
        if (!units_parse_duration(value, &ns, error))
                return FALSE;
        if (ns >= 0)
                return TRUE;
        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID, "must not be negative");
        return FALSE;
}

static gboolean set_param_deadline(void *pol, const char *key, const char *value, GError **error)
{
        struct deadline *p = pol;

        if (!check_param_deadline(key, value, error))
                return FALSE;
        return units_parse_duration(value, &p->grace_ns, error);
}

static void report_deadline(void *pol, struct report *r)
{
        struct deadline *p = pol;

        report_int(r, "policy_stats.timers_armed", p->timers_armed);
        report_int(r, "policy_stats.timers_cancelled", p->timers_cancelled);
        report_int(r, "policy_stats.deadlines_missed", p->deadlines_missed);
}

static void destroy_deadline(void *pol)
{
        g_free(pol);
}

static const struct boost_policy_ops deadline_policy_ops = {
        .name = "deadline-boost",
        .summary = "out-of-tree example: boost a reader switched out longer than grace, from a timer",
        .keys = deadline_keys,
        .create = create_deadline,
        .reader_blocked = reader_blocked_deadline,
        .reader_resumed = reader_resumed_deadline,
        .reader_unlock = reader_unlock_deadline,
        .check_param = check_param_deadline,
        .set_param = set_param_deadline,
        .report = report_deadline,
        .destroy = destroy_deadline,
};

RCUBOOST_POLICY(deadline_policy_ops);
