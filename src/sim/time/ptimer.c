/* ptimer.c - timers for boosting policies; see ptimer.h. */
#include "ptimer.h"

#include "../engine/engine.h"

struct ptimer {
        struct event ev;
        struct sim *sim;
        enum ptimer_context ctx;
        ptimer_fn fn;
        void *data;
        int cpu;                /* armed on */
        GList link;             /* in sirq-timer/N's expired timers while queued */
        bool queued;
        sim_time_ns fired_ns;   /* when it last fired, and how often at that instant */
        int fired_then;
};

/* A timer that re-arms itself for the instant it fires at fires again and
 * again with no time passing: the run would hang without a word (#49). */
#define PTIMER_MAX_FIRINGS_AT_ONCE 1000

static void ptimer_call(struct sim *sim, struct ptimer *tm, struct task *thread)
{
        const char *saved = sim->policy_hook;

        sim->policy_hook = "timer";
        if (tm->fired_ns == sim->now && tm->fired_then > 0) {
                if (++tm->fired_then > PTIMER_MAX_FIRINGS_AT_ONCE) {
                        sim_policy_breach(sim, "a timer fired %d times at %" G_GINT64_FORMAT " ns: re-armed for "
                                          "the instant it fires, time would never pass", PTIMER_MAX_FIRINGS_AT_ONCE,
                                          (gint64)sim->now);
                        sim->policy_hook = saved;
                        return;
                }
        } else {
                tm->fired_ns = sim->now;
                tm->fired_then = 1;
        }
        tm->fn(sim, tm->data, thread, tm->cpu);
        sim->policy_hook = saved;
}

/* The hrtimer's interrupt, or the tick that expires the timer-wheel slot. */
static void ptimer_fire(struct sim *sim, struct event *ev)
{
        struct ptimer *tm = container_of(ev, struct ptimer, ev);
        struct softirq_cpu *sc;

        if (tm->ctx == PTIMER_HARDIRQ || !sim->softirq) {
                ptimer_call(sim, tm, NULL);
                return;
        }
        /* raise_softirq(TIMER_SOFTIRQ): run when sirq-timer/N runs. */
        sc = &sim->softirq[tm->cpu];
        tm->queued = true;
        g_queue_push_tail_link(&sc->timers, &tm->link);
        if (sc->thread->state == TASK_WAITING)
                sched_wake(sim, sc->thread);
}

struct ptimer *policy_timer_new(struct sim *sim, enum ptimer_context ctx, ptimer_fn fn, void *data)
{
        struct ptimer *tm;

        if (ctx != PTIMER_HARDIRQ && ctx != PTIMER_SOFTIRQ) {
                sim_policy_breach(sim, "policy_timer_new() with context %d: PTIMER_HARDIRQ or PTIMER_SOFTIRQ",
                                  (int)ctx);
                ctx = PTIMER_HARDIRQ;
        }
        if (!fn)
                sim_policy_breach(sim, "policy_timer_new() without a function");
        tm = g_new0(struct ptimer, 1);
        event_init(&tm->ev, ptimer_fire);
        tm->sim = sim;
        tm->ctx = ctx;
        tm->fn = fn;
        tm->data = data;
        tm->link.data = tm;
        g_ptr_array_add(sim->ptimers, tm);
        return tm;
}

static bool ptimer_ours(struct sim *sim, const struct ptimer *tm, const char *what)
{
        if (tm && tm->sim == sim && tm->fn)
                return true;
        sim_policy_breach(sim, "%s() of %p, not a timer of this run with a function", what, (const void *)tm);
        return false;
}

void policy_timer_arm(struct sim *sim, struct ptimer *tm, int cpu, sim_time_ns expires)
{
        if (!ptimer_ours(sim, tm, "policy_timer_arm"))
                return;
        if (cpu < 0 || cpu >= sim->ncpus) {
                sim_policy_breach(sim, "policy_timer_arm() on CPU %d: the run has CPUs 0..%d", cpu, sim->ncpus - 1);
                return;
        }
        if (expires < sim->now) {
                sim_policy_breach(sim, "policy_timer_arm() to expire at %" G_GINT64_FORMAT " ns, before now (%"
                                  G_GINT64_FORMAT " ns)", expires, sim->now);
                return;
        }
        policy_timer_cancel(sim, tm);
        tm->cpu = cpu;
        if (tm->ctx == PTIMER_SOFTIRQ)          /* jiffies, the wheel's rounding, the CPU's tick */
                expires = timer_wheel_on_cpu(sim, cpu, timer_wheel_fires_at_ns(sim, expires));
        eventq_schedule(&sim->q, &tm->ev, expires);
}

bool policy_timer_cancel(struct sim *sim, struct ptimer *tm)
{
        bool was = false;

        if (!ptimer_ours(sim, tm, "policy_timer_cancel"))
                return false;
        if (event_pending(&tm->ev)) {
                eventq_cancel(&sim->q, &tm->ev);
                was = true;
        }
        if (tm->queued) {
                g_queue_unlink(&sim->softirq[tm->cpu].timers, &tm->link);
                tm->queued = false;
                was = true;
        }
        return was;
}

bool policy_timer_pending(const struct ptimer *tm)
{
        return tm && (event_pending(&tm->ev) || tm->queued);
}

void ptimer_run_expired(struct sim *sim, struct task *thread, int cpu)
{
        GList *l;

        /* call_timer_fn() for each, in expiry order; one may re-arm itself. */
        while ((l = g_queue_pop_head_link(&sim->softirq[cpu].timers))) {
                struct ptimer *tm = l->data;

                tm->queued = false;
                ptimer_call(sim, tm, thread);
                if (sim->stopping)
                        break;
        }
}

void ptimer_free_all(struct sim *sim)
{
        if (!sim->ptimers)
                return;
        for (guint i = 0; i < sim->ptimers->len; i++) {
                struct ptimer *tm = g_ptr_array_index(sim->ptimers, i);

                if (event_pending(&tm->ev))
                        eventq_cancel(&sim->q, &tm->ev);
                if (tm->queued)
                        g_queue_unlink(&sim->softirq[tm->cpu].timers, &tm->link);
        }
        g_clear_pointer(&sim->ptimers, g_ptr_array_unref);
}
