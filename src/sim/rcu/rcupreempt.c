/* rcupreempt.c - the 2007 -rt kernel's preemptible RCU ([rcu] flavour=rcupreempt,
 * the default); see rcupreempt.h.  Modelled on kernel/rcupreempt.c of
 * 2.6.25/2.6.26, function names the kernel's where it has one. */
#include "rcupreempt.h"

#include <string.h>

#include "../engine/engine.h"
#include "rcu.h"

/* ---- per-CPU callback lists: next -> wait[0] -> wait[1] -> done ---- */

static void cblist_init(struct rcu_cblist *l)
{
        l->head = NULL;
        l->tail = &l->head;
        l->count = 0;
}

static void cblist_append(struct rcu_cblist *l, struct rcu_callback *cb)
{
        cb->next = NULL;
        *l->tail = cb;
        l->tail = &cb->next;
        l->count++;
}

/* Move all of @src to the end of @dst, leaving @src empty. */
static void cblist_splice(struct rcu_cblist *dst, struct rcu_cblist *src)
{
        if (!src->head)
                return;
        *dst->tail = src->head;
        dst->tail = src->tail;
        dst->count += src->count;
        cblist_init(src);
}

static struct rcu_callback *cblist_pop(struct rcu_cblist *l)
{
        struct rcu_callback *cb = l->head;

        if (cb) {
                l->head = cb->next;
                if (!l->head)
                        l->tail = &l->head;
                l->count--;
        }
        return cb;
}

/* ---- set-up ---- */

static void init_rcupreempt(struct sim *sim)
{
        struct rcu *rcu = &sim->rcu;

        rcu->preempt = g_new0(struct rcu_preempt, 1);
        rcu->preempt->cpus = g_new0(struct rcu_cpu, sim->ncpus);
        for (int c = 0; c < sim->ncpus; c++) {
                struct rcu_cpu *rdp = &rcu->preempt->cpus[c];

                cblist_init(&rdp->next);
                cblist_init(&rdp->done);
                for (int i = 0; i < RCU_GP_STAGES; i++)
                        cblist_init(&rdp->wait[i]);
        }
}

static void finish_rcupreempt(struct sim *sim)
{
        struct rcu *rcu = &sim->rcu;

        if (!rcu->preempt)
                return;
        for (int c = 0; rcu->preempt->cpus && c < sim->ncpus; c++) {
                struct rcu_cpu *rdp = &rcu->preempt->cpus[c];

                rcu_free_callbacks(rdp->next.head);
                rcu_free_callbacks(rdp->done.head);
                for (int i = 0; i < RCU_GP_STAGES; i++)
                        rcu_free_callbacks(rdp->wait[i].head);
                g_free(rdp->inflight);
        }
        g_free(rcu->preempt->cpus);
        g_clear_pointer(&rcu->preempt, g_free);
}

/* ---- read side: the flip counters ---- */

static void read_lock_rcupreempt(struct sim *sim, struct task *t)
{
        struct rcu *rcu = &sim->rcu;

        t->rcu_idx = (int)(rcu->preempt->completed & 1);
        rcu->preempt->cpus[t->cpu].flipctr[t->rcu_idx]++;
        rcu->preempt->flipsum[t->rcu_idx]++;
        rcu_reader_begin(sim, t);
}

static void read_unlock_rcupreempt(struct sim *sim, struct task *t)
{
        struct rcu *rcu = &sim->rcu;

        /* The CPU it runs on now, not the one it started on. */
        rcu->preempt->cpus[t->cpu].flipctr[t->rcu_idx]--;
        rcu->preempt->flipsum[t->rcu_idx]--;
        rcu_reader_end(sim, t);
        if (t->rcu_preempted)
                sim_trace(sim, t->cpu, "rcu_unlock_preempted_task", "rcu_preempt %ld %d", (long)rcu->preempt->completed,
                          task_pid(t));
        rcu_reader_done(sim, t);
}

static void switch_out_rcupreempt(struct sim *sim, struct task *t, enum rcu_block_reason why)
{
        (void)why;
        sim_trace(sim, t->cpu, "rcu_preempt_task", "rcu_preempt %ld %d", (long)sim->rcu.preempt->completed, task_pid(t));
}

/* ---- callbacks ---- */

static void advance_callbacks(struct rcu *rcu, struct rcu_cpu *rdp);

/* call_rcu(): as rcupreempt.c, advance this CPU's lists first
 * (__rcu_advance_callbacks(), which also acknowledges a pending flip). */
static void enqueue_rcupreempt(struct sim *sim, struct task *t, struct rcu_callback *cb)
{
        struct rcu *rcu = &sim->rcu;

        advance_callbacks(rcu, &rcu->preempt->cpus[t->cpu]);
        cblist_append(&rcu->preempt->cpus[t->cpu].next, cb);
}

/* Does reader @r hold up the grace period @waiter waits for?  Surely if its
 * critical section began before the synchronize_rcu() call, or if it is on
 * the index the flip in progress waits to drain.  (A later reader on the
 * new index may not be: it is checked again when the next flip starts,
 * when every reader then in a critical section is on the old index.) */
static bool holds_up_rcupreempt(const struct sim *sim, const struct task *r, const struct task *waiter)
{
        const struct rcu *rcu = &sim->rcu;

        return r->rcu_read_start_ns <= waiter->sync_start_ns ||
               (rcu->preempt->state != RCU_FLIP_IDLE && r->rcu_idx == !(rcu->preempt->completed & 1));
}

/* The callback thread (rcu_cb/N): invoke `done` callbacks one at a time. */
static struct step cb_thread_step(struct sim *sim, struct task *t)
{
        struct rcu_cpu *rdp = t->step_data;
        struct rcu_callback *cb;

        if (rdp->inflight) {
                rcu_invoke(sim, rdp->inflight);
                rdp->inflight = NULL;
                if (sched_need_resched(&sim->cpus[t->cpu]))
                        return (struct step){ STEP_COMPUTE, 0 };
        }
        cb = cblist_pop(&rdp->done);
        if (!cb)
                return (struct step){ STEP_WAIT, 0 };
        /* Queued a grace period ago, long out of the cache: the next one
         * is invoked at this thread's next step. */
        __builtin_prefetch(rdp->done.head);
        rdp->inflight = cb;
        sim_charge_task(sim, t, COST_CALLBACK, 1, COST_PATH_CALLBACK);
        return (struct step){ STEP_COMPUTE, 0 };
}

static void start_rcupreempt(struct sim *sim)
{
        for (int c = 0; c < sim->ncpus; c++) {
                struct cpumask only;
                g_autofree char *name = g_strdup_printf("rcu_cb/%d", c);

                cpumask_clear(&only);
                cpumask_set(&only, c);
                sim->rcu.preempt->cpus[c].cb_thread = sim_kthread_create(sim, name, &sim->sc->callback_sched,
                                                                &only, cb_thread_step,
                                                                &sim->rcu.preempt->cpus[c], false);
        }
}

/* ---- the grace-period state machine ---- */

static bool cpu_has_callbacks(const struct rcu_cpu *rdp)
{
        return rdp->next.head || rdp->wait[0].head || rdp->wait[1].head || rdp->done.head;
}

static void enter_state(struct sim *sim, int cpu, enum rcu_flip_state s)
{
        struct rcu *rcu = &sim->rcu;

        /* As the kernel's rcu_grace_period: flavour, number, event. */
        sim_trace(sim, cpu, "rcu_grace_period", "rcu_preempt %ld %s", (long)rcu->preempt->completed,
                  s == RCU_FLIP_IDLE ? "end" : rcu_flip_state_name(s));

        rcu->preempt->phase_ns[rcu->preempt->state] += sim->now - rcu->preempt->phase_start_ns;
        rcu->preempt->phase_start_ns = sim->now;
        rcu->preempt->state = s;
        timeline_gp(sim->timeline, sim->now, rcu_flip_state_name(s));
}

/* Start of the grace period that flip cycle @flip completes: the first of
 * the RCU_GP_STAGES consecutive flips ending with @flip ("a single flip does
 * -not- constitute a grace period", rcupreempt.c), which callbacks waited
 * through; -1 when there is none (too few flips, or nothing waited). */
static sim_time_ns gp_start_of(const struct rcu *rcu, int64_t flip)
{
        int64_t first = flip - (RCU_GP_STAGES - 1);

        if (first < 1 || !rcu->preempt->flip_began_gp[first % RCU_GP_STAGES])
                return -1;
        return rcu->preempt->flip_start_ns[first % RCU_GP_STAGES];
}

/* Did callbacks enter wait[0] at the flip that is ending?  Every CPU has
 * acknowledged it (advanced its lists) by now. */
static bool callbacks_entered_wait(const struct sim *sim)
{
        for (int c = 0; c < sim->ncpus; c++)
                if (sim->rcu.preempt->cpus[c].wait[0].head)
                        return true;
        return false;
}

/* A flip cycle ended at waitmb: it completes the grace period that began
 * RCU_GP_STAGES - 1 flips earlier. */
static void flip_ended(struct sim *sim)
{
        struct rcu *rcu = &sim->rcu;
        int64_t len = sim->now - rcu->preempt->gp_start_ns;
        sim_time_ns gp_start = gp_start_of(rcu, rcu->preempt->completed);
        int64_t gp_len = gp_start >= 0 ? sim->now - gp_start : -1;

        rcu->preempt->flip_began_gp[rcu->preempt->completed % RCU_GP_STAGES] = callbacks_entered_wait(sim);
        rcu->flips_completed++;
        latency_stat_add(&rcu->flip_latency, len);
        if (gp_len >= 0)
                rcu_gp_ended(sim, gp_len);
        if (rcu->gp_csv) {
                fprintf(rcu->gp_csv, "%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                        ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                        ",%" G_GINT64_FORMAT ",",
                        (gint64)rcu->preempt->completed, (gint64)rcu->preempt->gp_start_ns, (gint64)sim->now, (gint64)len,
                        (gint64)rcu->preempt->phase_ns[RCU_FLIP_WAITACK], (gint64)rcu->preempt->phase_ns[RCU_FLIP_WAITZERO],
                        (gint64)rcu->preempt->phase_ns[RCU_FLIP_WAITMB]);
                if (gp_len >= 0)
                        fprintf(rcu->gp_csv, "%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT, (gint64)gp_start,
                                (gint64)gp_len);
                else
                        fputs(",", rcu->gp_csv);
                fputc('\n', rcu->gp_csv);
        }
        if (sim->policy->gp_end)
                SIM_POLICY_CALL(sim, gp_end, sim->pol, rcu->preempt->completed);
}

/* rcu_try_flip(): advance the global machine by at most one state. */
static void try_flip(struct sim *sim, int cpu)
{
        struct rcu *rcu = &sim->rcu;

        switch (rcu->preempt->state) {
        case RCU_FLIP_IDLE:
                if (!cpu_has_callbacks(&rcu->preempt->cpus[cpu]))
                        return;
                rcu->preempt->completed++;
                for (int c = 0; c < sim->ncpus; c++)
                        rcu->preempt->cpus[c].flip_pending = true;
                rcu->preempt->acks_pending = sim->ncpus;
                rcu->preempt->gp_start_ns = sim->now;
                rcu->preempt->flip_start_ns[rcu->preempt->completed % RCU_GP_STAGES] = sim->now;
                rcu->preempt->phase_start_ns = sim->now;
                memset(rcu->preempt->phase_ns, 0, sizeof(rcu->preempt->phase_ns));
                rcu->preempt->state = RCU_FLIP_WAITACK;
                sim_trace(sim, cpu, "rcu_grace_period", "rcu_preempt %ld start", (long)rcu->preempt->completed);
                timeline_gp(sim->timeline, sim->now, rcu_flip_state_name(rcu->preempt->state));
                rcu_check_deadlock(sim);
                if (sim->policy->gp_start)
                        SIM_POLICY_CALL(sim, gp_start, sim->pol, rcu->preempt->completed);
                break;
        case RCU_FLIP_WAITACK:
                if (rcu->preempt->acks_pending == 0)
                        enter_state(sim, cpu, RCU_FLIP_WAITZERO);
                break;
        case RCU_FLIP_WAITZERO:
                /* Readers that started before the flip used the other index. */
                if (rcu->preempt->flipsum[!(rcu->preempt->completed & 1)] != 0 && !sim->sc->break_grace_periods)
                        return;
                for (int c = 0; c < sim->ncpus; c++)
                        rcu->preempt->cpus[c].mb_pending = true;
                rcu->preempt->mbs_pending = sim->ncpus;
                enter_state(sim, cpu, RCU_FLIP_WAITMB);
                break;
        case RCU_FLIP_WAITMB:
                if (rcu->preempt->mbs_pending == 0) {
                        enter_state(sim, cpu, RCU_FLIP_IDLE);
                        flip_ended(sim);
                }
                break;
        }
}

/* __rcu_advance_callbacks(): move lists along when `completed` moved. */
static void advance_callbacks(struct rcu *rcu, struct rcu_cpu *rdp)
{
        if (rdp->completed != rcu->preempt->completed) {
                cblist_splice(&rdp->done, &rdp->wait[RCU_GP_STAGES - 1]);
                for (int i = RCU_GP_STAGES - 2; i >= 0; i--)
                        cblist_splice(&rdp->wait[i + 1], &rdp->wait[i]);
                cblist_splice(&rdp->wait[0], &rdp->next);
                rdp->completed = rcu->preempt->completed;
        }
        if (rdp->flip_pending) {
                rdp->flip_pending = false;
                rcu->preempt->acks_pending--;
        }
}

/* rcu_check_callbacks(), from the scheduling-clock tick of @cpu. */
static void tick_rcupreempt(struct sim *sim, int cpu)
{
        struct rcu *rcu = &sim->rcu;
        struct rcu_cpu *rdp = &rcu->preempt->cpus[cpu];

        if (rdp->mb_pending) {
                rdp->mb_pending = false;
                rcu->preempt->mbs_pending--;
        }
        if (rcu->preempt->completed == rdp->completed)
                try_flip(sim, cpu);
        advance_callbacks(rcu, rdp);
        if (rdp->done.head && rdp->cb_thread->state == TASK_WAITING)
                sched_wake(sim, rdp->cb_thread);
}

/* ---- what it reports ---- */

static int64_t gp_in_progress_rcupreempt(const struct sim *sim)
{
        const struct rcu *rcu = &sim->rcu;
        sim_time_ns gp_start = gp_start_of(rcu, rcu->preempt->completed);

        if (rcu->preempt->state == RCU_FLIP_IDLE)
                return 0;
        return gp_start >= 0 ? sim->now - gp_start : sim->now - rcu->preempt->gp_start_ns;
}

static void report_rcupreempt(struct sim *sim, struct report *r)
{
        struct rcu *rcu = &sim->rcu;
        struct rcu_report_state st = {
                /* the age of the flip in progress; gp_in_progress is that of
                 * the oldest grace period it would complete */
                .flip_age = rcu->preempt->state == RCU_FLIP_IDLE ? 0 : sim->now - rcu->preempt->gp_start_ns,
        };

        for (int c = 0; c < sim->ncpus; c++) {
                const struct rcu_cpu *rdp = &rcu->preempt->cpus[c];
                const struct rcu_cblist *lists[] = { &rdp->next, &rdp->wait[0], &rdp->wait[1], &rdp->done };

                for (size_t l = 0; l < G_N_ELEMENTS(lists); l++)
                        rcu_count_overdue(sim, lists[l]->head, &st);
                if (rdp->inflight)
                        rcu_count_overdue_one(sim, rdp->inflight, &st);
        }
        rcu_report_common(sim, r, &st);
        rcu_report_latencies(sim, r);
}

const char *rcu_flip_state_name(enum rcu_flip_state s)
{
        static const char *const names[] = { "idle", "waitack", "waitzero", "waitmb" };

        return names[s];
}

static const char *state_name_rcupreempt(const struct sim *sim)
{
        return rcu_flip_state_name(sim->rcu.preempt->state);
}

const struct rcu_flavour_ops rcu_rcupreempt_flavour = {
        .name = "rcupreempt",
        .init = init_rcupreempt,
        .start = start_rcupreempt,
        .finish = finish_rcupreempt,
        .read_lock = read_lock_rcupreempt,
        .read_unlock = read_unlock_rcupreempt,
        .switch_out = switch_out_rcupreempt,
        .enqueue = enqueue_rcupreempt,
        .tick = tick_rcupreempt,
        .holds_up = holds_up_rcupreempt,
        .report = report_rcupreempt,
        .state_name = state_name_rcupreempt,
        .gp_in_progress = gp_in_progress_rcupreempt,
};
