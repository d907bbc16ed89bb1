/* rostedt.c - Steven Rostedt's 2007 rcupreempt boosting for the -rt tree:
 * readers are boosted by whoever waits for them, to its own priority.
 *
 * kernel/rcupreempt-boost.c ("Read-Copy Update preempt priority boosting",
 * Copyright Red Hat 2007, Steven Rostedt, "based on the original work by
 * Paul McKenney"; 2.6.24-rt), modelled here:
 *
 *  - Scheduler path, __rcu_preempt_boost(): a reader switched out inside a
 *    critical section, not yet on a list (rcub_rbdp), takes this CPU's
 *    rcu_boost_dat lock and its pi_lock, joins the CPU's rbs_toboost list
 *    and, if the CPU's boost level rbs_prio is more urgent than its own
 *    priority (rt_mutex_getprio()), is boosted to it at once.
 *  - synchronize_rcu() calls rcu_boost_readers(): a caller more urgent than
 *    the global rcu_boost_prio makes its own priority the level, marks
 *    itself the one to unboost (rcu_boost_counter) and, CPU by CPU, sets
 *    rbs_prio, splices rbs_boosted back onto rbs_toboost and boosts every
 *    reader there to its priority, moving each to rbs_boosted.
 *  - When that caller's grace period is over, rcu_unboost_readers() puts
 *    the level back to MAX_PRIO on every CPU; it "DOES NOT change the
 *    priority of any RCU reader that was boosted".
 *  - Read side, __rcu_preempt_unboost(): the outermost rcu_read_unlock() of
 *    a reader on a list takes that list's lock, unlinks itself and drops to
 *    rt_mutex_getprio() (rt_mutex_setprio(): no PI chain walk).
 *  - krcupreemptd, SCHED_FIFO 1, calls synchronize_rcu() every
 *    rcu_preempt_thread_secs (3 s): with no other caller, that is what
 *    boosts readers -- to FIFO 1, "If there are RT tasks above priority 1
 *    that are hogging the system ... the system is flawed regardless."
 *
 * So nothing boosts for a callback-only updater but krcupreemptd, and the
 * boost is as strong as the most urgent synchronize_rcu() caller.  The
 * patch drops its locks between readers (cpu_relax()) so that a more urgent
 * caller can take over; hooks run at one instant here, so a pass is never
 * overtaken (docs/policies.md).
 */
#include "policy.h"

#include "../sim/engine/engine.h"

struct rostedt_task {
        int cpu;                        /* the rcu_boost_dat it is on (rcub_rbdp), or -1 */
        bool on_boosted;                /* on its rbs_boosted list, not rbs_toboost */
        GList link;                     /* rcub_entry; data = the task */
        int rcu_prio;                   /* what it was last boosted to, or PRIO_NONE */
        uint64_t counter;               /* rcu_preempt_counter, as a synchronize_rcu() caller */
};

struct rostedt_cpu {                    /* struct rcu_boost_dat */
        int prio;                       /* rbs_prio */
        GQueue toboost, boosted;
};

struct rostedt_policy {
        struct sim *sim;
        struct rostedt_cpu *cpus;
        int boost_prio;                 /* rcu_boost_prio */
        uint64_t counter;               /* rcu_boost_counter */
        struct task *daemon;            /* krcupreemptd */
        sim_time_ns period_ns;          /* rcu_preempt_thread_secs */
        bool daemon_syncs_next;         /* krcupreemptd slept: synchronize_rcu() now */
        uint64_t boost_passes, passes_skipped, daemon_syncs;
};

static const struct policy_key rostedt_keys[] = {
        { .name = "krcupreemptd_prio", .type = POLICY_KEY_SCHED, .default_value = "fifo:1",
          .doc = "scheduling of krcupreemptd, which calls synchronize_rcu() periodically" },
        { .name = "krcupreemptd_period", .type = POLICY_KEY_DURATION, .default_value = "3s",
          .doc = "how long krcupreemptd sleeps between calls (rcu_preempt_thread_secs * HZ)" },
        { .name = NULL },
};

static void rt_init(void *state)
{
        struct rostedt_task *rt = state;

        rt->cpu = -1;
        rt->rcu_prio = PRIO_NONE;
}

static struct rostedt_task *rt_of(struct task *t)
{
        struct rostedt_task *rt = policy_task_state(t, sizeof(*rt), rt_init);

        rt->link.data = t;
        return rt;
}

/* rcu_boost_task(): raise @t to rcu_prio if that is more urgent. */
static void boost_task(struct rostedt_policy *p, struct task *t, struct rostedt_task *rt, int prio,
                       struct task *payer, enum cost_path path)
{
        rt->rcu_prio = prio;
        if (prio >= t->prio)
                return;
        if (payer)
                sim_charge_task(p->sim, payer, COST_PRIO_CHANGE, 1, path);
        else
                sim_charge_cpu(p->sim, t->cpu, COST_PRIO_CHANGE, 1, path);
        sched_set_boost_prio(p->sim, t, prio, BOOST_SETPRIO);
}

/* krcupreemptd: schedule_timeout(rcu_preempt_thread_secs * HZ), then
 * synchronize_rcu(), for ever. */
static struct step daemon_step(struct sim *sim, struct task *self)
{
        struct rostedt_policy *p = self->step_data;

        p->daemon_syncs_next = !p->daemon_syncs_next;
        if (!p->daemon_syncs_next) {
                p->daemon_syncs++;
                rcu_synchronize(sim, self);
                return (struct step){ STEP_WAIT, 0 };
        }
        return softirq_schedule_timeout(sim, p->period_ns / sim->tick_ns);
}

static void *create_rostedt(struct sim *sim, const struct policy_params *params, GError **error)
{
        struct rostedt_policy *p = g_new0(struct rostedt_policy, 1);
        struct sched_spec sched;
        struct cpumask all;

        p->sim = sim;
        if (!policy_param_sched(params, "krcupreemptd_prio", &sched, error) ||
            !policy_param_duration(params, "krcupreemptd_period", &p->period_ns, error)) {
                g_free(p);
                return NULL;
        }
        if (p->period_ns <= 0) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                            "[policy] krcupreemptd_period: must be greater than zero");
                g_free(p);
                return NULL;
        }
        sim_note_jiffies(sim, "krcupreemptd_period", p->period_ns, false);
        p->boost_prio = PRIO_NONE;
        p->cpus = g_new0(struct rostedt_cpu, sim->ncpus);
        for (int c = 0; c < sim->ncpus; c++) {
                p->cpus[c].prio = PRIO_NONE;
                g_queue_init(&p->cpus[c].toboost);
                g_queue_init(&p->cpus[c].boosted);
        }
        cpumask_fill(&all, sim->ncpus);
        p->daemon = sim_kthread_create(sim, "krcupreemptd", &sched, &all, daemon_step, p, true);
        return p;
}

static void reader_blocked_rostedt(void *pol, struct task *t, enum rcu_block_reason why)
{
        struct rostedt_policy *p = pol;
        struct rostedt_task *rt = rt_of(t);
        struct rostedt_cpu *rbd;

        (void)why;
        if (rt->cpu >= 0)
                return;         /* already on a list: one check */
        rbd = &p->cpus[t->cpu];
        sim_charge_cpu(p->sim, t->cpu, COST_LOCK, 2, COST_PATH_SCHED);         /* rbs_lock, pi_lock */
        sim_charge_cpu(p->sim, t->cpu, COST_LIST_OP, 1, COST_PATH_SCHED);
        rt->cpu = t->cpu;
        rt->on_boosted = false;
        g_queue_push_tail_link(&rbd->toboost, &rt->link);
        if (t->prio <= rbd->prio)
                return;
        boost_task(p, t, rt, rbd->prio, NULL, COST_PATH_SCHED);
}

static void reader_unlock_rostedt(void *pol, struct task *t)
{
        struct rostedt_policy *p = pol;
        struct rostedt_task *rt = rt_of(t);
        struct rostedt_cpu *rbd;
        if (rt->cpu < 0)
                return;         /* the fast path */
        rbd = &p->cpus[rt->cpu];
        sim_charge_task(p->sim, t, COST_LOCK, 2, COST_PATH_READ);
        sim_charge_task(p->sim, t, COST_LIST_OP, 1, COST_PATH_READ);
        sim_charge_task(p->sim, t, COST_PRIO_CHANGE, 1, COST_PATH_READ);
        g_queue_unlink(rt->on_boosted ? &rbd->boosted : &rbd->toboost, &rt->link);
        rt->cpu = -1;
        rt->on_boosted = false;
        rt->rcu_prio = PRIO_NONE;
        sched_set_boost_prio(p->sim, t, PRIO_NONE, BOOST_SETPRIO);
}

/* rcu_boost_readers(), at the start of @t's synchronize_rcu(). */
static void sync_start_rostedt(void *pol, struct task *t)
{
        struct rostedt_policy *p = pol;
        int prio = t->prio;

        sim_charge_task(p->sim, t, COST_LOCK, 1, COST_PATH_BOOSTER);          /* rcu_boost_wake_lock */
        if (prio >= p->boost_prio) {
                p->passes_skipped++;    /* "already boosted" */
                return;
        }
        p->boost_prio = prio;
        rt_of(t)->counter = ++p->counter;
        p->boost_passes++;
        for (int c = 0; c < p->sim->ncpus; c++) {
                struct rostedt_cpu *rbd = &p->cpus[c];
                GList *link;

                sim_charge_task(p->sim, t, COST_LOCK, 1, COST_PATH_BOOSTER);
                rbd->prio = prio;
                /* "Move the already boosted readers onto the list and reboost
                 * them": list_splice_init() puts them at the front. */
                while ((link = g_queue_pop_tail_link(&rbd->boosted)))
                        g_queue_push_head_link(&rbd->toboost, link);
                while ((link = g_queue_pop_head_link(&rbd->toboost))) {
                        struct task *r = link->data;

                        g_queue_push_tail_link(&rbd->boosted, link);
                        rt_of(r)->on_boosted = true;
                        sim_charge_task(p->sim, t, COST_LIST_OP, 1, COST_PATH_BOOSTER);
                        sim_charge_task(p->sim, t, COST_LOCK, 1, COST_PATH_BOOSTER);  /* its pi_lock */
                        boost_task(p, r, rt_of(r), prio, t, COST_PATH_BOOSTER);
                }
        }
}

/* rcu_unboost_readers(), as @t returns from synchronize_rcu(). */
static void sync_end_rostedt(void *pol, struct task *t)
{
        struct rostedt_policy *p = pol;

        sim_charge_task(p->sim, t, COST_LOCK, 1, COST_PATH_BOOSTER);
        if (rt_of(t)->counter != p->counter)
                return;         /* another caller took over: it unboosts */
        p->boost_prio = PRIO_NONE;
        for (int c = 0; c < p->sim->ncpus; c++) {
                sim_charge_task(p->sim, t, COST_LOCK, 1, COST_PATH_BOOSTER);
                p->cpus[c].prio = PRIO_NONE;
        }
}

/* on a toboost list, on a boosted list, boosted above its own priority,
 * and inside its section. */
static int state_of_rostedt(void *pol, struct task *t)
{
        const struct rostedt_task *rt = t->policy_data;
        int on = rt && rt->cpu >= 0 ? (rt->on_boosted ? 2 : 1) : 0;

        (void)pol;
        return on | (t->boost_prio != PRIO_NONE) << 2 | (t->rcu_nesting > 0) << 3;
}

static void describe_task_rostedt(void *pol, struct task *t, char *buf, size_t len)
{
        struct rostedt_task *rt = rt_of(t);

        (void)pol;
        if (rt->cpu < 0)
                g_snprintf(buf, len, "IDLE none");
        else
                g_snprintf(buf, len, "%s cpu%d", rt->on_boosted ? "boosted" : "toboost", rt->cpu);
}

static void report_rostedt(void *pol, struct report *r)
{
        struct rostedt_policy *p = pol;

        report_int(r, "policy_stats.boost_passes", (int64_t)p->boost_passes);
        report_int(r, "policy_stats.passes_already_boosted", (int64_t)p->passes_skipped);
        report_int(r, "policy_stats.krcupreemptd_syncs", (int64_t)p->daemon_syncs);
}

static void destroy_rostedt(void *pol)
{
        struct rostedt_policy *p = pol;

        g_free(p->cpus);        /* the links live in the tasks' state */
        g_free(p);
}

const struct boost_policy_ops rostedt_policy_ops = {
        .name = "rostedt-2007",
        .summary = "Rostedt's 2007 -rt rcupreempt-boost: synchronize_rcu() callers boost preempted readers to their own priority",
        .keys = rostedt_keys,
        .threads = (const char *const[]){ "krcupreemptd", NULL },
        .written_for = "rcupreempt",
        .create = create_rostedt,
        .reader_blocked = reader_blocked_rostedt,
        .reader_unlock = reader_unlock_rostedt,
        .sync_start = sync_start_rostedt,
        .sync_end = sync_end_rostedt,
        .describe_task = describe_task_rostedt,
        .state_of = state_of_rostedt,
        .report = report_rostedt,
        .destroy = destroy_rostedt,
};
