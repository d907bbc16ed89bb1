/* tree.c - preemptible Tree RCU (kernel/rcu/tree.c, tree_plugin.h); see tree.h. */
#include "tree.h"

#include <limits.h>
#include <string.h>

#include "../engine/engine.h"

/* kernel/rcu/rcu.h: a grace-period sequence number, counter << 2 | state. */
#define RCU_SEQ_CTR_SHIFT 2
#define RCU_SEQ_STATE_MASK ((1UL << RCU_SEQ_CTR_SHIFT) - 1)
#define ULONG_CMP_GE(a, b) (ULONG_MAX / 2 >= (a) - (b))
#define ULONG_CMP_LT(a, b) (ULONG_MAX / 2 < (a) - (b))

static unsigned long rcu_seq_state(unsigned long s)
{
        return s & RCU_SEQ_STATE_MASK;
}

static void rcu_seq_start(unsigned long *sp)
{
        *sp += 1;
}

static void rcu_seq_end(unsigned long *sp)
{
        *sp = (*sp | RCU_SEQ_STATE_MASK) + 1;
}

/* The number a grace period that starts after now will end with. */
static unsigned long rcu_seq_snap(const unsigned long *sp)
{
        return (*sp + 2 * RCU_SEQ_STATE_MASK + 1) & ~RCU_SEQ_STATE_MASK;
}

static bool rcu_seq_completed_gp(unsigned long old, unsigned long new)
{
        return ULONG_CMP_LT(old, new & ~RCU_SEQ_STATE_MASK);
}

static bool rcu_seq_new_gp(unsigned long old, unsigned long new)
{
        return ULONG_CMP_LT((old + RCU_SEQ_STATE_MASK) & ~RCU_SEQ_STATE_MASK, new);
}

#define RCU_GP_FLAG_INIT 0x1            /* a grace period is wanted */
#define RCU_GP_FLAG_FQS 0x2             /* force quiescent states now */

/* Per CPU (struct rcu_data). */
struct rcu_data {
        int cpu;
        struct rcu_node *mynode;
        uint64_t grpmask;               /* this CPU's bit in mynode->qsmask */
        unsigned long gp_seq;           /* the grace period this CPU knows of */
        bool cpu_no_qs;                 /* cpu_no_qs.b.norm: no QS yet in this GP */
        bool core_needs_qs;             /* this GP waits for this CPU */
        struct rcu_segcblist cblist;
        struct rcu_callback *batch;     /* rcu_do_batch()'s extracted DONE callbacks */
        struct rcu_callback *inflight;  /* being invoked */
        bool in_core;                   /* rcuc is inside rcu_core() */
        bool has_work;                  /* rcu_cpu_has_work */
        int spincnt;
        struct task *rcuc;
        int64_t qlen_last_fqs_check;    /* callbacks at the last qhimark check */
        int64_t n_force_qs_snap;        /* rcu_state.n_force_qs then */
        /* [scenario] nohz_idle: ->dynticks, even while in the idle loop's
         * extended quiescent state; the FQS scan's snapshot of it. */
        unsigned long dynticks;
        unsigned long dynticks_snap;
};

struct rcu_tree {
        struct rcu_node *nodes;         /* breadth first: root, level 1, ..., leaves */
        int nnodes;
        int nlevels;
        int level_first[RCU_TREE_MAX_LEVELS];
        int level_count[RCU_TREE_MAX_LEVELS];
        struct rcu_data *rda;

        unsigned long gp_seq;           /* rcu_state.gp_seq */
        unsigned long gp_seq_needed;    /* the funnel lock's, kept once at the root */
        unsigned gp_flags;
        enum rcu_gp_state gp_state;
        struct task *gp_kthread;        /* rcu_preempt */
        int64_t jiffies_force_qs;
        int64_t fqs_j;                  /* jiffies rcu_gp_fqs_loop() waits */
        bool fqs_keep_timing;           /* ret = 1: a wake-up before the FQS time */
        bool fqs_first;                 /* rcu_gp_fqs_loop()'s first_gp_fqs */
        bool fqs_ovld;                  /* its gf & RCU_GP_FLAG_OVLD: the next scan at once */
        bool cbovld, cbovldnext;
        int64_t jiffies_till_first_fqs;
        int64_t jiffies_till_next_fqs;
        int kthread_prio;
        sim_time_ns gp_start_ns;        /* rcu_gp_init() of the current/last GP */
        /* gp_latency is the kernel's GP duration (rcu_gp_init() to
         * rcu_gp_cleanup()); what came before it -- the request
         * (rcu_start_this_gp() raising ->gp_seq_needed) waiting for a
         * starved rcu_preempt kthread -- shows in gp_start_delay and in
         * rcu.gp_in_progress_ns. */
        sim_time_ns gp_req_ns;          /* of the current/last GP */
        sim_time_ns next_req_ns;        /* first request since, or -1 */
        struct latency_stat start_delay; /* request -> rcu_gp_init() */

        int64_t gps_started;
        int64_t n_force_qs;             /* FQS scans */
        int64_t qs_reports;             /* rcu_report_qs_rdp() that cleared a bit */
        int64_t tasks_queued;           /* rcu_preempt_ctxt_queue() */
        int64_t rcuc_wakeups;
        int64_t dynticks_qs;            /* quiescent states FQS reported for idle CPUs */
};

static int64_t jiffies(const struct sim *sim)
{
        return timer_wheel_jiffies(sim);
}

static struct rcu_node *rcu_get_root(struct rcu_tree *rt)
{
        return &rt->nodes[0];
}

static bool rcu_is_leaf_node(const struct rcu_tree *rt, const struct rcu_node *rnp)
{
        return rnp->level == rt->nlevels - 1;
}

static bool rcu_gp_in_progress(const struct rcu_tree *rt)
{
        return rcu_seq_state(rt->gp_seq) != 0;
}

/* rcu_preempt_blocked_readers_cgp() */
static bool blocked_readers_cgp(const struct rcu_node *rnp)
{
        return rnp->gp_tasks != NULL;
}

static void charge_lock(struct sim *sim, struct task *t, enum cost_path path)
{
        sim_charge_task(sim, t, COST_LOCK, 1, path);
}

/* ---- the segmented callback list (kernel/rcu/rcu_segcblist.c) ---- */

static void segcblist_init(struct rcu_segcblist *l)
{
        memset(l, 0, sizeof(*l));
        for (int i = 0; i < RCU_CBLIST_NSEGS; i++)
                l->tails[i] = &l->head;
}

static bool segempty(const struct rcu_segcblist *l, int seg)
{
        return seg == RCU_DONE_TAIL ? l->tails[RCU_DONE_TAIL] == &l->head
                                    : l->tails[seg] == l->tails[seg - 1];
}

/* rcu_segcblist_restempty(): nothing after segment @seg. */
static bool restempty(const struct rcu_segcblist *l, int seg)
{
        return *l->tails[seg] == NULL;
}

static bool ready_cbs(const struct rcu_segcblist *l)
{
        return l->tails[RCU_DONE_TAIL] != &l->head;
}

static void segcblist_enqueue(struct rcu_segcblist *l, struct rcu_callback *cb)
{
        cb->next = NULL;
        *l->tails[RCU_NEXT_TAIL] = cb;
        l->tails[RCU_NEXT_TAIL] = &cb->next;
        l->seglen[RCU_NEXT_TAIL]++;
        l->len++;
}

static void move_seglen(struct rcu_segcblist *l, int from, int to)
{
        l->seglen[to] += l->seglen[from];
        l->seglen[from] = 0;
}

/* rcu_segcblist_advance(): segments whose grace period @seq has ended move to DONE. */
static void segcblist_advance(struct rcu_segcblist *l, unsigned long seq)
{
        int i, j;

        if (restempty(l, RCU_DONE_TAIL))
                return;
        for (i = RCU_WAIT_TAIL; i < RCU_NEXT_TAIL; i++) {
                if (ULONG_CMP_LT(seq, l->gp_seq[i]))
                        break;
                l->tails[RCU_DONE_TAIL] = l->tails[i];
                move_seglen(l, i, RCU_DONE_TAIL);
        }
        if (i == RCU_WAIT_TAIL)
                return;
        for (j = RCU_WAIT_TAIL; j < i; j++)
                l->tails[j] = l->tails[RCU_DONE_TAIL];
        /* Close the gap the ready segments left. */
        for (j = RCU_WAIT_TAIL; i < RCU_NEXT_TAIL; i++, j++) {
                if (l->tails[j] == l->tails[RCU_NEXT_TAIL])
                        break;
                l->tails[j] = l->tails[i];
                move_seglen(l, i, j);
                l->gp_seq[j] = l->gp_seq[i];
        }
}

/* rcu_segcblist_accelerate(): callbacks not yet numbered wait for @seq. */
static bool segcblist_accelerate(struct rcu_segcblist *l, unsigned long seq)
{
        int i, j;

        if (restempty(l, RCU_DONE_TAIL))
                return false;
        for (i = RCU_NEXT_READY_TAIL; i > RCU_DONE_TAIL; i--)
                if (!segempty(l, i) && ULONG_CMP_LT(l->gp_seq[i], seq))
                        break;
        if (restempty(l, i) || ++i >= RCU_NEXT_TAIL)
                return false;
        for (j = i + 1; j <= RCU_NEXT_TAIL; j++)
                move_seglen(l, j, i);
        for (; i < RCU_NEXT_TAIL; i++) {
                l->tails[i] = l->tails[RCU_NEXT_TAIL];
                l->gp_seq[i] = seq;
        }
        return true;
}

/* rcu_segcblist_extract_done_cbs() */
static struct rcu_callback *extract_done(struct rcu_segcblist *l)
{
        struct rcu_callback *done = l->head;

        if (!ready_cbs(l))
                return NULL;
        l->head = *l->tails[RCU_DONE_TAIL];
        *l->tails[RCU_DONE_TAIL] = NULL;
        for (int i = RCU_CBLIST_NSEGS - 1; i >= RCU_DONE_TAIL; i--)
                if (l->tails[i] == l->tails[RCU_DONE_TAIL])
                        l->tails[i] = &l->head;
        l->len -= l->seglen[RCU_DONE_TAIL];
        l->seglen[RCU_DONE_TAIL] = 0;
        return done;
}

/* ---- grace-period requests and the kthread's wake-ups ---- */

/* rcu_gp_kthread_wake() */
static void gp_kthread_wake(struct sim *sim)
{
        struct rcu_tree *rt = sim->rcu.tree;
        struct task *t = rt->gp_kthread;

        if (!rt->gp_flags || sim->cpus[t->cpu].curr == t)
                return;
        if (t->state == TASK_SLEEPING)
                softirq_timeout_cancel(sim, t); /* swake_up_one() ends the timed wait */
        if (t->state == TASK_WAITING || t->state == TASK_SLEEPING)
                sched_wake(sim, t);
}

/* rcu_start_this_gp(), without the funnel lock: one ->gp_seq_needed. */
static bool rcu_start_this_gp(struct rcu_tree *rt, unsigned long gp_seq_req, sim_time_ns now)
{
        if (ULONG_CMP_GE(rt->gp_seq_needed, gp_seq_req))
                return false;           /* already asked for */
        rt->gp_seq_needed = gp_seq_req;
        if (rt->next_req_ns < 0)
                rt->next_req_ns = now;
        if (rcu_gp_in_progress(rt))
                return false;           /* rcu_gp_cleanup() will start it */
        rt->gp_flags |= RCU_GP_FLAG_INIT;
        return true;
}

/* rcu_accelerate_cbs(): number the new callbacks; true: wake the kthread. */
static bool rcu_accelerate_cbs(struct rcu_tree *rt, struct rcu_data *rdp, sim_time_ns now)
{
        unsigned long req;

        if (restempty(&rdp->cblist, RCU_DONE_TAIL))
                return false;
        req = rcu_seq_snap(&rt->gp_seq);
        return segcblist_accelerate(&rdp->cblist, req) && rcu_start_this_gp(rt, req, now);
}

/* rcu_advance_cbs() */
static bool rcu_advance_cbs(struct rcu_tree *rt, struct rcu_node *rnp, struct rcu_data *rdp, sim_time_ns now)
{
        segcblist_advance(&rdp->cblist, rnp->gp_seq);
        return rcu_accelerate_cbs(rt, rdp, now);
}

/* check_cb_ovld_locked(): qovld callbacks on one CPU mark its leaf. */
static void check_cb_ovld(const struct sim *sim, struct rcu_data *rdp)
{
        if (rdp->cblist.len >= sim->sc->qovld)
                rdp->mynode->cbovldmask |= rdp->grpmask;
        else
                rdp->mynode->cbovldmask &= ~rdp->grpmask;
}

/* __note_gp_changes(): this CPU catches up with its leaf's ->gp_seq. */
static bool note_gp_changes(struct rcu_tree *rt, struct rcu_data *rdp, sim_time_ns now)
{
        struct rcu_node *rnp = rdp->mynode;
        bool ret;

        if (rdp->gp_seq == rnp->gp_seq)
                return false;
        if (rcu_seq_completed_gp(rdp->gp_seq, rnp->gp_seq)) {
                ret = rcu_advance_cbs(rt, rnp, rdp, now);
                rdp->core_needs_qs = false;
        } else {
                ret = rcu_accelerate_cbs(rt, rdp, now);
                if (rdp->core_needs_qs)
                        rdp->core_needs_qs = !!(rnp->qsmask & rdp->grpmask);
        }
        if (rcu_seq_new_gp(rdp->gp_seq, rnp->gp_seq)) {
                bool need_qs = !!(rnp->qsmask & rdp->grpmask);

                rdp->cpu_no_qs = need_qs;
                rdp->core_needs_qs = need_qs;
        }
        rdp->gp_seq = rnp->gp_seq;
        return ret;
}

/* ---- quiescent states, up the tree ---- */

/* rcu_report_qs_rsp(): the last report of the grace period. */
static void rcu_report_qs_rsp(struct sim *sim)
{
        sim->rcu.tree->gp_flags |= RCU_GP_FLAG_FQS;
        gp_kthread_wake(sim);
}

/* rcu_report_qs_rnp(): clear @mask in @rnp, and upwards while nodes empty. */
static void rcu_report_qs_rnp(struct sim *sim, uint64_t mask, struct rcu_node *rnp, unsigned long gps)
{
        for (;;) {
                if ((!(rnp->qsmask & mask) && mask) || rnp->gp_seq != gps)
                        return;         /* already cleared, or another GP */
                rnp->qsmask &= ~mask;
                if (rnp->qsmask != 0 || blocked_readers_cgp(rnp))
                        return;
                rnp->completedqs = rnp->gp_seq;
                mask = rnp->grpmask;
                if (!rnp->parent)
                        break;
                rnp = rnp->parent;
        }
        rcu_report_qs_rsp(sim);
}

/* rcu_report_unblock_qs_rnp(): the last blocked task of @rnp's GP left. */
static void rcu_report_unblock_qs_rnp(struct sim *sim, struct rcu_node *rnp)
{
        if (blocked_readers_cgp(rnp) || rnp->qsmask != 0)
                return;
        rnp->completedqs = rnp->gp_seq;
        if (!rnp->parent) {
                rcu_report_qs_rsp(sim);
                return;
        }
        rcu_report_qs_rnp(sim, rnp->grpmask, rnp->parent, rnp->gp_seq);
}

/* rcu_report_qs_rdp() */
static void rcu_report_qs_rdp(struct sim *sim, struct rcu_data *rdp)
{
        struct rcu_tree *rt = sim->rcu.tree;
        struct rcu_node *rnp = rdp->mynode;
        bool needwake;

        if (rdp->cpu_no_qs || rdp->gp_seq != rnp->gp_seq) {
                rdp->cpu_no_qs = true;  /* that QS was in an earlier GP */
                return;
        }
        rdp->core_needs_qs = false;
        if (!(rnp->qsmask & rdp->grpmask))
                return;
        needwake = rcu_accelerate_cbs(rt, rdp, sim->now);
        rt->qs_reports++;
        rcu_report_qs_rnp(sim, rdp->grpmask, rnp, rnp->gp_seq);
        if (needwake)
                gp_kthread_wake(sim);
}

/* rcu_qs(): a quiescent state on this CPU, to be reported by rcu_core(). */
static void rcu_qs(struct rcu_data *rdp)
{
        rdp->cpu_no_qs = false;
}

/* invoke_rcu_core() with use_softirq=0: wake rcuc/N. */
static void invoke_rcu_core(struct sim *sim, struct rcu_data *rdp)
{
        rdp->has_work = true;
        /* rcu_wake_cond(): not while it yields (schedule_timeout_idle(2)). */
        if (rdp->rcuc->state == TASK_WAITING) {
                sim->rcu.tree->rcuc_wakeups++;
                sched_wake(sim, rdp->rcuc);
        }
}

/* rcu_pending(): does rcu_core() have work on this CPU? */
static bool rcu_pending(const struct rcu_tree *rt, const struct rcu_data *rdp)
{
        bool gp_in_progress = rcu_gp_in_progress(rt);

        if (rdp->core_needs_qs && !rdp->cpu_no_qs && gp_in_progress)
                return true;
        if (ready_cbs(&rdp->cblist))
                return true;
        if (!gp_in_progress && !restempty(&rdp->cblist, RCU_NEXT_READY_TAIL))
                return true;
        return rdp->mynode->gp_seq != rdp->gp_seq;
}

/* rcu_core(), in rcuc/N: note GP changes, report the QS, ask for a GP,
 * take the ready callbacks for rcu_do_batch(). */
static void rcu_core(struct sim *sim, struct rcu_data *rdp, struct task *self)
{
        struct rcu_tree *rt = sim->rcu.tree;

        /* rcu_check_quiescent_state() */
        if (rdp->gp_seq != rdp->mynode->gp_seq) {
                charge_lock(sim, self, COST_PATH_CALLBACK);
                if (note_gp_changes(rt, rdp, sim->now))
                        gp_kthread_wake(sim);
        }
        if (rdp->core_needs_qs && !rdp->cpu_no_qs) {
                charge_lock(sim, self, COST_PATH_CALLBACK);
                rcu_report_qs_rdp(sim, rdp);
        }
        /* No grace period and callbacks nobody asked one for? */
        if (!rcu_gp_in_progress(rt) && !restempty(&rdp->cblist, RCU_NEXT_READY_TAIL)) {
                charge_lock(sim, self, COST_PATH_CALLBACK);
                if (rcu_accelerate_cbs(rt, rdp, sim->now))
                        gp_kthread_wake(sim);
        }
        rdp->batch = extract_done(&rdp->cblist);
}

/* The end of rcu_do_batch(): the qhimark check counts on from what is left. */
static void batch_done(struct sim *sim, struct rcu_data *rdp)
{
        int64_t count = rdp->cblist.len;

        if (count == 0 && rdp->qlen_last_fqs_check != 0) {
                rdp->qlen_last_fqs_check = 0;
                rdp->n_force_qs_snap = sim->rcu.tree->n_force_qs;
        } else if (count < rdp->qlen_last_fqs_check - sim->sc->qhimark) {
                rdp->qlen_last_fqs_check = count;
        }
}

/* rcu_cpu_kthread(): rcu_core() while there is work, ten rounds at most,
 * then schedule_timeout_idle(2); callbacks one at a time with
 * cond_resched() between (rcu_do_batch() outside softirq). */
static struct step rcuc_step(struct sim *sim, struct task *t)
{
        struct rcu_data *rdp = t->step_data;
        struct rcu_callback *cb;

        if (rdp->inflight) {
                rcu_invoke(sim, rdp->inflight);
                rdp->inflight = NULL;
                if (!rdp->batch)
                        batch_done(sim, rdp);
                if (sched_need_resched(&sim->cpus[t->cpu]))
                        return (struct step){ STEP_COMPUTE, 0 };
        }
        cb = rdp->batch;
        if (cb) {
                rdp->batch = cb->next;
                rdp->inflight = cb;
                sim_charge_task(sim, t, COST_CALLBACK, 1, COST_PATH_CALLBACK);
                return (struct step){ STEP_COMPUTE, 0 };
        }
        if (rdp->in_core) {
                rdp->in_core = false;
                if (ready_cbs(&rdp->cblist))
                        rdp->has_work = true;   /* invoke_rcu_core() */
                if (!rdp->has_work) {
                        rdp->spincnt = 0;
                        return (struct step){ STEP_WAIT, 0 };
                }
                if (++rdp->spincnt >= 10) {
                        rdp->spincnt = 0;
                        return softirq_schedule_timeout(sim, 2);
                }
        }
        if (!rdp->has_work)
                return (struct step){ STEP_WAIT, 0 };
        rdp->has_work = false;
        rdp->in_core = true;
        rcu_core(sim, rdp, t);
        return (struct step){ STEP_COMPUTE, 0 };
}

/* ---- the grace-period kthread ---- */

static void set_gp_state(struct sim *sim, enum rcu_gp_state s, const char *event)
{
        struct rcu_tree *rt = sim->rcu.tree;
        static const char *const lane[] = { "idle", "init", "fqswait", "cleanup" };

        rt->gp_state = s;
        if (event)
                sim_trace(sim, rt->gp_kthread->cpu, "rcu_grace_period", "rcu_preempt %ld %s", (long)rt->gp_seq,
                          event);
        timeline_gp(sim->timeline, sim->now, lane[s]);
}

/* rcu_preempt_check_blocked_tasks() + the ->qsmask set-up of rcu_gp_init(). */
static void rcu_gp_init(struct sim *sim, struct task *self)
{
        struct rcu_tree *rt = sim->rcu.tree;
        struct rcu_data *rdp = &rt->rda[self->cpu];

        rt->gp_flags = 0;
        rcu_seq_start(&rt->gp_seq);
        rt->gp_start_ns = sim->now;
        rt->gp_req_ns = rt->next_req_ns >= 0 ? rt->next_req_ns : sim->now;
        rt->next_req_ns = -1;
        latency_stat_add(&rt->start_delay, sim->now - rt->gp_req_ns);
        rt->gps_started++;
        set_gp_state(sim, RCU_GP_INIT, "start");
        for (int i = 0; i < rt->nnodes; i++) {
                struct rcu_node *rnp = &rt->nodes[i];

                charge_lock(sim, self, COST_PATH_CALLBACK);
                /* Tasks already queued block the new grace period. */
                if (rnp->blkd_tasks.head)
                        rnp->gp_tasks = rnp->blkd_tasks.head;
                rnp->qsmask = rnp->qsmaskinit;
                rnp->gp_seq = rt->gp_seq;
                if (rnp == rdp->mynode)
                        (void)note_gp_changes(rt, rdp, sim->now);
        }
        rcu_check_deadlock(sim);
        if (sim->policy->gp_start)
                SIM_POLICY_CALL(sim, gp_start, sim->pol, (int64_t)(rt->gp_seq >> RCU_SEQ_CTR_SHIFT));
}

/* ---- tickless idle: the dynticks counter ---- */

static bool rcu_dynticks_in_eqs(unsigned long snap)
{
        return !(snap & 1);
}

/* ct_idle_enter() / ct_idle_exit(): the counter moves at each crossing. */
static void eqs_enter_tree(struct sim *sim, int cpu)
{
        sim->rcu.tree->rda[cpu].dynticks++;
}

static void eqs_exit_tree(struct sim *sim, int cpu)
{
        sim->rcu.tree->rda[cpu].dynticks++;
}

/* rcu_needs_cpu(): a CPU with callbacks keeps its tick. */
static bool needs_cpu_tree(const struct sim *sim, int cpu)
{
        const struct rcu_data *rdp = &sim->rcu.tree->rda[cpu];

        return rdp->cblist.len > 0 || rdp->batch || rdp->inflight;
}

/* dyntick_save_progress_counter(): the first scan of a grace period
 * snapshots each CPU it waits for; one in the idle loop reports at once. */
static bool dyntick_save_progress_counter(struct rcu_data *rdp)
{
        rdp->dynticks_snap = rdp->dynticks;
        return rcu_dynticks_in_eqs(rdp->dynticks_snap);
}

/* rcu_implicit_dynticks_qs(): later scans -- idle now, or idle since. */
static bool rcu_implicit_dynticks_qs(const struct rcu_data *rdp)
{
        return rdp->dynticks != rdp->dynticks_snap || rcu_dynticks_in_eqs(rdp->dynticks);
}

/* force_qs_rnp(): with [scenario] nohz_idle, the CPUs a leaf still waits
 * for that are (or were) in the idle loop's extended quiescent state report
 * for themselves; without it every CPU ticks, so none is.  A leaf that owes
 * only blocked tasks is RCU_BOOST's entry, rcu_initiate_boost(). */
static void force_qs_rnp(struct sim *sim, struct task *self, bool first)
{
        struct rcu_tree *rt = sim->rcu.tree;

        rt->cbovld = rt->cbovldnext;
        rt->cbovldnext = false;
        for (int i = rt->level_first[rt->nlevels - 1]; i < rt->nnodes; i++) {
                struct rcu_node *rnp = &rt->nodes[i];
                uint64_t mask = 0;

                charge_lock(sim, self, COST_PATH_CALLBACK);
                rt->cbovldnext |= rnp->cbovldmask != 0;
                if (rnp->qsmask == 0) {
                        if (blocked_readers_cgp(rnp) && sim->policy->fqs_blocked)
                                SIM_POLICY_CALL(sim, fqs_blocked, sim->pol, rnp, self);
                        continue;
                }
                if (!sim->env.nohz_idle)
                        continue;
                for (int c = rnp->grplo; c <= rnp->grphi; c++) {
                        struct rcu_data *rdp = &rt->rda[c];

                        if ((rnp->qsmask & rdp->grpmask) &&
                            (first ? dyntick_save_progress_counter(rdp) : rcu_implicit_dynticks_qs(rdp)))
                                mask |= rdp->grpmask;
                }
                if (mask) {
                        rt->dynticks_qs += __builtin_popcountll(mask);
                        rcu_report_qs_rnp(sim, mask, rnp, rnp->gp_seq);
                }
        }
}

/* rcu_gp_cleanup() */
static void rcu_gp_cleanup(struct sim *sim, struct task *self)
{
        struct rcu_tree *rt = sim->rcu.tree;
        struct rcu_data *rdp = &rt->rda[self->cpu];
        unsigned long new_gp_seq = rt->gp_seq;
        bool needgp = false;
        int64_t len = sim->now - rt->gp_start_ns, waited = sim->now - rt->gp_req_ns;

        set_gp_state(sim, RCU_GP_CLEANUP, NULL);
        rcu_seq_end(&new_gp_seq);
        for (int i = 0; i < rt->nnodes; i++) {
                struct rcu_node *rnp = &rt->nodes[i];

                charge_lock(sim, self, COST_PATH_CALLBACK);
                rnp->gp_seq = new_gp_seq;
                if (rnp == rdp->mynode)
                        needgp = note_gp_changes(rt, rdp, sim->now) || needgp;
                if (rcu_is_leaf_node(rt, rnp))
                        for (int c = rnp->grplo; c <= rnp->grphi; c++)
                                if (rnp->cbovldmask & rt->rda[c].grpmask)
                                        check_cb_ovld(sim, &rt->rda[c]);
        }
        sim_trace(sim, self->cpu, "rcu_grace_period", "rcu_preempt %ld end", (long)rt->gp_seq);
        rcu_seq_end(&rt->gp_seq);
        if (ULONG_CMP_LT(rt->gp_seq, rt->gp_seq_needed))
                needgp = true;          /* rcu_future_gp_cleanup() */
        if (!rcu_accelerate_cbs(rt, rdp, sim->now) && needgp)
                rt->gp_flags = RCU_GP_FLAG_INIT;
        else
                rt->gp_flags &= RCU_GP_FLAG_INIT;
        rcu_gp_ended(sim, len);
        /* flip = the GP's number; start/duration: rcu_gp_init() to the end,
         * the kernel's gp_max; gp_start/gp: from the request. */
        if (sim->rcu.gp_csv)
                fprintf(sim->rcu.gp_csv, "%lu,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",,,,%"
                        G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n", rt->gp_seq >> RCU_SEQ_CTR_SHIFT,
                        (gint64)rt->gp_start_ns, (gint64)sim->now, (gint64)len, (gint64)rt->gp_req_ns,
                        (gint64)waited);
        set_gp_state(sim, RCU_GP_IDLE, NULL);
        if (sim->policy->gp_end)
                SIM_POLICY_CALL(sim, gp_end, sim->pol, (int64_t)(rt->gp_seq >> RCU_SEQ_CTR_SHIFT));
}

/* rcu_gp_fqs_check_wake(): stop waiting early? */
static bool fqs_check_wake(struct rcu_tree *rt)
{
        struct rcu_node *root = rcu_get_root(rt);

        return (rt->gp_flags & RCU_GP_FLAG_FQS) || (!root->qsmask && !blocked_readers_cgp(root));
}

/* rcu_gp_kthread() with rcu_gp_fqs_loop() unrolled into states: between
 * steps it is idle (waiting for RCU_GP_FLAG_INIT) or in RCU_GP_WAIT_FQS;
 * init and cleanup happen within a step. */
static struct step gp_kthread_step(struct sim *sim, struct task *t)
{
        struct rcu_tree *rt = sim->rcu.tree;
        struct rcu_node *root = rcu_get_root(rt);

        for (;;) {
                if (rt->gp_state == RCU_GP_WAIT_FQS) {
                        /* RCU_GP_DOING_FQS: woken by the timeout, or early. */
                        if (!root->qsmask && !blocked_readers_cgp(root)) {
                                rcu_gp_cleanup(sim, t);
                                continue;
                        }
                        if (jiffies(sim) >= rt->jiffies_force_qs || (rt->gp_flags & RCU_GP_FLAG_FQS) ||
                            rt->fqs_ovld) {
                                bool first = rt->fqs_first;

                                sim_trace(sim, t->cpu, "rcu_grace_period", "rcu_preempt %ld fqsstart",
                                          (long)rt->gp_seq);
                                rt->n_force_qs++;
                                force_qs_rnp(sim, t, rt->fqs_first);
                                rt->fqs_first = false;
                                /* overloaded: the scan after the first comes at once too */
                                rt->fqs_ovld = first && sim->env.fqs_ovld && rt->cbovld;
                                rt->gp_flags &= ~RCU_GP_FLAG_FQS;
                                rt->fqs_keep_timing = false;
                                rt->fqs_j = rt->jiffies_till_next_fqs;
                        } else {
                                /* Woken before its time: keep the old FQS timing. */
                                rt->fqs_keep_timing = true;
                                rt->fqs_j = MAX(1, rt->jiffies_force_qs - jiffies(sim));
                        }
                } else {
                        if (!(rt->gp_flags & RCU_GP_FLAG_INIT))
                                return (struct step){ STEP_WAIT, 0 };       /* RCU_GP_WAIT_GPS */
                        rcu_gp_init(sim, t);
                        rt->fqs_first = true;
                        rt->fqs_ovld = sim->env.fqs_ovld && rt->cbovld;
                        rt->fqs_keep_timing = false;
                        rt->fqs_j = rt->jiffies_till_first_fqs;
                        set_gp_state(sim, RCU_GP_WAIT_FQS, NULL);
                }
                /* The top of rcu_gp_fqs_loop()'s for (;;): wait for the FQS time. */
                int64_t j = rt->fqs_j;

                if (rt->cbovld)
                        j = MAX(1, (j + 2) / 3);
                if (!rt->fqs_keep_timing)
                        rt->jiffies_force_qs = jiffies(sim) + j;
                if (rt->fqs_ovld || fqs_check_wake(rt) || j == 0) {
                        /* swait_event_idle_timeout_exclusive() returns at once */
                        rt->jiffies_force_qs = MIN(rt->jiffies_force_qs, jiffies(sim));
                        continue;
                }
                return softirq_schedule_timeout(sim, j);
        }
}

/* ---- the scheduler's and readers' side ---- */

/* rcu_preempt_ctxt_queue(): where @t goes on @rnp->blkd_tasks. */
static void rcu_preempt_ctxt_queue(struct rcu_node *rnp, struct rcu_data *rdp, struct task *t)
{
        bool gp_blkd = (rnp->qsmask & rdp->grpmask) != 0;   /* this GP waits for this CPU */
        GList *link = &t->rcu_node_entry;

        link->data = t;
        if (gp_blkd && rnp->gp_tasks)
                /* Second or later task blocking the GP: just after the first. */
                g_queue_insert_after_link(&rnp->blkd_tasks, rnp->gp_tasks, link);
        else if (gp_blkd)
                /* The first task blocking this GP: at the tail, behind those that do not. */
                g_queue_push_tail_link(&rnp->blkd_tasks, link);
        else
                /* Blocks no GP yet: at the head, so that the GP does not wait for it. */
                g_queue_push_head_link(&rnp->blkd_tasks, link);
        if (!rnp->gp_tasks && gp_blkd)
                rnp->gp_tasks = link;
        rnp->blocked_max = MAX(rnp->blocked_max, rnp->blkd_tasks.length);
}

/* rcu_note_context_switch(), for a reader leaving its CPU: queue it once. */
static void switch_out_tree(struct sim *sim, struct task *t, enum rcu_block_reason why)
{
        struct rcu_tree *rt = sim->rcu.tree;
        struct rcu_data *rdp = &rt->rda[t->cpu];
        struct rcu_node *rnp = rdp->mynode;

        (void)why;
        if (t->rcu_blocked_node)
                return;                 /* rcu_read_unlock_special.b.blocked */
        t->rcu_blocked_node = rnp;
        sim_trace(sim, t->cpu, "rcu_preempt_task", "rcu_preempt %ld %d",
                  (long)((rnp->qsmask & rdp->grpmask) ? rnp->gp_seq : rcu_seq_snap(&rnp->gp_seq)), task_pid(t));
        rcu_preempt_ctxt_queue(rnp, rdp, t);
        rt->tasks_queued++;
        sim_charge_cpu(sim, t->cpu, COST_LOCK, 1, COST_PATH_SCHED);
        sim_charge_cpu(sim, t->cpu, COST_LIST_OP, 1, COST_PATH_SCHED);
}

/* ... and for every task: the switch is a quiescent state (rcu_qs()). */
static void context_switch_tree(struct sim *sim, int cpu)
{
        rcu_qs(&sim->rcu.tree->rda[cpu]);
}

/* rcu_read_unlock_special(): leave ->blkd_tasks, maybe end the leaf's wait. */
static void rcu_read_unlock_special(struct sim *sim, struct task *t)
{
        struct rcu_node *rnp = t->rcu_blocked_node;
        GList *link = &t->rcu_node_entry;
        GList *np = link->next;         /* rcu_next_node_entry() */
        bool empty_norm = !blocked_readers_cgp(rnp);

        g_queue_unlink(&rnp->blkd_tasks, link);
        t->rcu_blocked_node = NULL;
        sim_trace(sim, t->cpu, "rcu_unlock_preempted_task", "rcu_preempt %ld %d", (long)rnp->gp_seq, task_pid(t));
        if (rnp->gp_tasks == link)
                rnp->gp_tasks = np;
        if (rnp->boost_tasks == link)
                rnp->boost_tasks = np;
        sim_charge_task(sim, t, COST_LOCK, 1, COST_PATH_READ);
        sim_charge_task(sim, t, COST_LIST_OP, 1, COST_PATH_READ);
        if (!empty_norm && !blocked_readers_cgp(rnp))
                rcu_report_unblock_qs_rnp(sim, rnp);
}

static void read_lock_tree(struct sim *sim, struct task *t)
{
        rcu_reader_begin(sim, t);       /* __rcu_read_lock(): only the nesting count */
}

static void read_unlock_tree(struct sim *sim, struct task *t)
{
        rcu_reader_end(sim, t);
        if (t->rcu_blocked_node)
                rcu_read_unlock_special(sim, t);
        rcu_reader_done(sim, t);
}

/* rcu_force_quiescent_state(): ask the grace-period kthread for an FQS scan now. */
static void rcu_force_quiescent_state(struct sim *sim)
{
        struct rcu_tree *rt = sim->rcu.tree;

        if (rt->gp_flags & RCU_GP_FLAG_FQS)
                return;
        rt->gp_flags |= RCU_GP_FLAG_FQS;
        gp_kthread_wake(sim);
}

/* __call_rcu_core(): a CPU whose callbacks grew by qhimark since its last
 * check does not wait for the FQS timer: with no grace period in progress
 * it asks for one, else it forces a quiescent-state scan -- once per scan
 * (n_force_qs_snap), and not for its first pending callback. */
static void call_rcu_core(struct sim *sim, struct rcu_data *rdp, const struct rcu_callback *cb)
{
        struct rcu_tree *rt = sim->rcu.tree;

        if (note_gp_changes(rt, rdp, sim->now))
                gp_kthread_wake(sim);
        if (!rcu_gp_in_progress(rt)) {
                if (rcu_accelerate_cbs(rt, rdp, sim->now))      /* rcu_accelerate_cbs_unlocked() */
                        gp_kthread_wake(sim);
                return;
        }
        if (rt->n_force_qs == rdp->n_force_qs_snap && *rdp->cblist.tails[RCU_DONE_TAIL] != cb)
                rcu_force_quiescent_state(sim);
        rdp->n_force_qs_snap = rt->n_force_qs;
        rdp->qlen_last_fqs_check = rdp->cblist.len;
}

/* __call_rcu_common(): onto RCU_NEXT_TAIL; the tick's rcu_pending() sees it. */
static void enqueue_tree(struct sim *sim, struct task *t, struct rcu_callback *cb)
{
        struct rcu_data *rdp = &sim->rcu.tree->rda[t->cpu];

        segcblist_enqueue(&rdp->cblist, cb);
        if ((rdp->cblist.len >= sim->sc->qovld) != !!(rdp->mynode->cbovldmask & rdp->grpmask))
                check_cb_ovld(sim, rdp);
        if (sim->sc->qhimark && rdp->cblist.len > rdp->qlen_last_fqs_check + sim->sc->qhimark)
                call_rcu_core(sim, rdp, cb);
}

/* rcu_sched_clock_irq() */
static void tick_tree(struct sim *sim, int cpu)
{
        struct rcu_tree *rt = sim->rcu.tree;
        struct rcu_data *rdp = &rt->rda[cpu];
        const struct task *curr = sim->cpus[cpu].curr;

        /* rcu_flavor_sched_clock_irq(): idle, or outside a critical section. */
        if (!curr || curr->rcu_nesting == 0)
                rcu_qs(rdp);
        if (rcu_pending(rt, rdp))
                invoke_rcu_core(sim, rdp);
}

static bool holds_up_tree(const struct sim *sim, const struct task *r, const struct task *waiter)
{
        (void)sim;
        return r->rcu_read_start_ns <= waiter->sync_start_ns;
}

/* ---- building the tree ---- */

/* rcu_init_geometry() + rcu_init_levelspread() (rcu_fanout_exact=false)
 * + rcu_init_one(): as few levels as hold the CPUs, children spread
 * evenly; node j of level l has parent j / spread[l - 1] one level up. */
static void build_tree(struct sim *sim, struct rcu_tree *rt)
{
        int leaf = sim->sc->fanout_leaf, n = sim->ncpus;
        int64_t cap = leaf;
        int count[RCU_TREE_MAX_LEVELS], spread[RCU_TREE_MAX_LEVELS], stride[RCU_TREE_MAX_LEVELS];

        rt->nlevels = 1;
        while (cap < n && rt->nlevels < RCU_TREE_MAX_LEVELS) {
                cap *= RCU_FANOUT;
                rt->nlevels++;
        }
        /* Nodes per level, from the leaves up (rcu_init_geometry()). */
        count[rt->nlevels - 1] = (n + leaf - 1) / leaf;
        for (int l = rt->nlevels - 2; l >= 0; l--)
                count[l] = (count[l + 1] + RCU_FANOUT - 1) / RCU_FANOUT;
        /* Children per node (rcu_init_levelspread()), CPUs per node. */
        for (int l = rt->nlevels - 1, below = n; l >= 0; below = count[l], l--)
                spread[l] = (below + count[l] - 1) / count[l];
        for (int l = rt->nlevels - 1, s = 1; l >= 0; l--)
                stride[l] = s *= spread[l];
        rt->nnodes = 0;
        for (int l = 0; l < rt->nlevels; l++) {
                rt->level_first[l] = rt->nnodes;
                rt->level_count[l] = count[l];
                rt->nnodes += count[l];
        }
        rt->nodes = g_new0(struct rcu_node, rt->nnodes);
        for (int l = 0; l < rt->nlevels; l++) {
                for (int j = 0; j < count[l]; j++) {
                        struct rcu_node *rnp = &rt->nodes[rt->level_first[l] + j];

                        rnp->index = rt->level_first[l] + j;
                        rnp->level = l;
                        rnp->grplo = j * stride[l];
                        rnp->grphi = MIN(n, (j + 1) * stride[l]) - 1;
                        g_queue_init(&rnp->blkd_tasks);
                        if (l > 0) {
                                rnp->parent = &rt->nodes[rt->level_first[l - 1] + j / spread[l - 1]];
                                rnp->grpmask = 1ULL << (j % spread[l - 1]);
                                rnp->parent->qsmaskinit |= rnp->grpmask;
                        }
                }
        }
        for (int c = 0; c < n; c++) {
                struct rcu_data *rdp = &rt->rda[c];
                struct rcu_node *rnp = &rt->nodes[rt->level_first[rt->nlevels - 1] + c / spread[rt->nlevels - 1]];

                rdp->cpu = c;
                rdp->mynode = rnp;
                rdp->grpmask = 1ULL << (c - rnp->grplo);
                rnp->qsmaskinit |= rdp->grpmask;
        }
}

/* rcu_init_geometry(): RCU_JIFFIES_TILL_FORCE_QS + nr_cpu_ids / RCU_JIFFIES_FQS_DIV,
 * at most HZ (adjust_jiffies_till_sched_qs() and the parameters' setters). */
static int64_t default_fqs_jiffies(const struct sim *sim)
{
        int hz = sim->env.tick_hz;

        return 1 + (hz > 250) + (hz > 500) + sim->ncpus / 256;
}

/* CONFIG_RCU_BOOST: the policy needs flavour=tree (rcu-boost). */
static bool tree_rcu_boost(const struct sim *sim)
{
        return sim->policy && sim->policy->rcu_flavour;
}

/* The 2007 policies were written for rcupreempt; on Tree RCU (a user's
 * flavour=tree for a 6.1 box) the model runs them all the same, in a kernel
 * that never existed: said once, with what the model does (#58: rcuc/N
 * stayed SCHED_NORMAL, and such a run did worse than none). */
static void note_policy_off_its_flavour(struct sim *sim, const struct rcu_tree *rt)
{
        if (!sim->policy || !sim->policy->written_for || !strcmp(sim->policy->written_for, "tree"))
                return;
        g_autofree char *rcuc = sim->sc->rcuc_sched_set ? g_strdup("as [rcu] rcuc_thread sets")
                                                        : g_strdup("SCHED_NORMAL (set [rcu] rcuc_thread to change it)");
        g_autofree char *gp = rt->kthread_prio ? g_strdup_printf("SCHED_FIFO %d", rt->kthread_prio)
                                               : g_strdup("SCHED_NORMAL");

        g_ptr_array_add(sim->warnings, g_strdup_printf(
                "policy %s was written for %s (2.6.22-rt, 2007), not Tree RCU: with flavour=tree the model runs "
                "its hooks and threads as written on Tree RCU's grace periods, in a kernel without "
                "CONFIG_RCU_BOOST -- the rcuc/N callback threads %s, rcu_preempt %s. No kernel had this "
                "combination; rcu-boost is Tree RCU's own boosting", sim->policy->name, sim->policy->written_for,
                rcuc, gp));
}

static void init_tree(struct sim *sim)
{
        struct rcu_tree *rt = g_new0(struct rcu_tree, 1);
        const struct scenario *sc = sim->sc;
        int64_t d = default_fqs_jiffies(sim);

        sim->rcu.tree = rt;
        rt->rda = g_new0(struct rcu_data, sim->ncpus);
        for (int c = 0; c < sim->ncpus; c++) {
                segcblist_init(&rt->rda[c].cblist);
                rt->rda[c].dynticks = 1;        /* not idle: the CPUs boot running */
                /* rcutree_prepare_cpu() took this snapshot when the CPU came
                 * up; the FQS scans of the boot (idle CPUs report only through
                 * them) have moved rcu_state.n_force_qs on since.  So the
                 * first qhimark crossing of a run only takes a fresh snapshot,
                 * and the second forces the scan (seen on 6.1-rt: no kick at
                 * 10,000 callbacks, a boost at 20,000; docs/validation.md).
                 * [rcu] fqs_snapshot=fresh: CPUs 1 and up came online as the
                 * run began and hold the count as it is (0). */
                if (sim->env.fqs_snap_from_boot && (c == 0 || !sc->fqs_snapshot_fresh))
                        rt->rda[c].n_force_qs_snap = -1;
        }
        build_tree(sim, rt);
        rt->jiffies_till_first_fqs = MIN(sim->env.tick_hz, sc->jiffies_till_first_fqs >= 0 ? sc->jiffies_till_first_fqs : d);
        rt->jiffies_till_next_fqs = MIN(sim->env.tick_hz, sc->jiffies_till_next_fqs >= 0 ? sc->jiffies_till_next_fqs : d);
        /* kthread_prio = IS_ENABLED(CONFIG_RCU_BOOST) ? 1 : 0, and with
         * RCU_BOOST at least 1 (rcu_spawn_gp_kthread()).  A policy that
         * needs flavour=tree is CONFIG_RCU_BOOST. */
        bool rcu_boost = tree_rcu_boost(sim);

        rt->kthread_prio = sc->kthread_prio >= 0 ? sc->kthread_prio : rcu_boost ? 1 : 0;
        if (rcu_boost && rt->kthread_prio < 1)
                rt->kthread_prio = 1;
        rt->gp_state = RCU_GP_IDLE;
        rt->next_req_ns = -1;
        latency_stat_init(&rt->start_delay);
        note_policy_off_its_flavour(sim, rt);
}

static void start_tree(struct sim *sim)
{
        struct rcu_tree *rt = sim->rcu.tree;
        struct sched_spec sp = rt->kthread_prio ? (struct sched_spec){ SCHED_POLICY_FIFO, rt->kthread_prio }
                                                : (struct sched_spec){ SCHED_POLICY_NORMAL, 0 };
        /* rcu_cpu_kthread_setup(): SCHED_FIFO kthread_prio only with
         * CONFIG_RCU_BOOST (a policy that needs flavour=tree), else the
         * rcuc threads stay SCHED_NORMAL; rcu_spawn_gp_kthread() sets
         * rcu_preempt's kthread_prio either way. */
        struct sched_spec rcuc_sp = sim->sc->rcuc_sched_set ? sim->sc->rcuc_sched
                                    : tree_rcu_boost(sim) ? sp : (struct sched_spec){ SCHED_POLICY_NORMAL, 0 };
        struct cpumask all;

        cpumask_clear(&all);
        for (int c = 0; c < sim->ncpus; c++)
                cpumask_set(&all, c);
        rt->gp_kthread = sim_kthread_create(sim, "rcu_preempt", &sp, &all, gp_kthread_step, NULL, false);
        for (int c = 0; c < sim->ncpus; c++) {
                struct cpumask only;
                g_autofree char *name = g_strdup_printf("rcuc/%d", c);

                cpumask_clear(&only);
                cpumask_set(&only, c);
                rt->rda[c].rcuc = sim_kthread_create(sim, name, &rcuc_sp, &only, rcuc_step, &rt->rda[c], false);
        }
}

static void free_cbs(struct rcu_callback *cb)
{
        while (cb) {
                struct rcu_callback *next = cb->next;

                g_free(cb);
                cb = next;
        }
}

static void finish_tree(struct sim *sim)
{
        struct rcu_tree *rt = sim->rcu.tree;

        if (!rt)
                return;
        for (int c = 0; c < sim->ncpus; c++) {
                free_cbs(rt->rda[c].cblist.head);
                free_cbs(rt->rda[c].batch);
                g_free(rt->rda[c].inflight);
        }
        g_free(rt->rda);
        g_free(rt->nodes);
        latency_stat_finish(&rt->start_delay);
        g_free(rt);
        sim->rcu.tree = NULL;
}

static int64_t gp_in_progress_tree(const struct sim *sim)
{
        const struct rcu_tree *rt = sim->rcu.tree;

        if (rcu_gp_in_progress(rt))
                return sim->now - rt->gp_start_ns;
        return rt->next_req_ns >= 0 ? sim->now - rt->next_req_ns : 0;  /* asked for, not started */
}

static void report_tree(struct sim *sim, struct report *r)
{
        struct rcu_tree *rt = sim->rcu.tree;
        struct rcu_report_state st = { 0 };
        uint64_t blocked_max = 0;

        for (int c = 0; c < sim->ncpus; c++) {
                const struct rcu_data *rdp = &rt->rda[c];

                rcu_count_overdue(sim, rdp->cblist.head, &st);
                rcu_count_overdue(sim, rdp->batch, &st);
                if (rdp->inflight)
                        rcu_count_overdue_one(sim, rdp->inflight, &st);
        }
        rcu_report_common(sim, r, &st);
        for (int i = 0; i < rt->nnodes; i++)
                blocked_max = MAX(blocked_max, rt->nodes[i].blocked_max);
        report_int(r, "rcu.tree.levels", rt->nlevels);
        report_int(r, "rcu.tree.leaves", rt->level_count[rt->nlevels - 1]);
        report_int(r, "rcu.tree.kthread_prio", rt->kthread_prio);
        report_int(r, "rcu.tree.jiffies_till_first_fqs", rt->jiffies_till_first_fqs);
        report_int(r, "rcu.tree.jiffies_till_next_fqs", rt->jiffies_till_next_fqs);
        if (sim->sc->fqs_snapshot_fresh)     /* only where set: every other summary as before */
                report_string(r, "rcu.tree.fqs_snapshot", "fresh");
        report_int(r, "rcu.tree.grace_periods_started", rt->gps_started);
        report_int(r, "rcu.tree.fqs_scans", rt->n_force_qs);
        report_int(r, "rcu.tree.qs_reports", rt->qs_reports);
        report_int(r, "rcu.tree.tasks_queued", rt->tasks_queued);
        report_int(r, "rcu.tree.blkd_tasks_max", (int64_t)blocked_max);
        report_int(r, "rcu.tree.rcuc_wakeups", rt->rcuc_wakeups);
        report_int(r, "rcu.tree.dynticks_qs", rt->dynticks_qs);
        rcu_report_latencies(sim, r);
        /* a starved rcu_preempt kthread shows here */
        report_latency(r, "gp_start_delay", &rt->start_delay);
}

static const char *state_name_tree(const struct sim *sim)
{
        static const char *const names[] = {
                [RCU_GP_IDLE] = "idle", [RCU_GP_INIT] = "init",
                [RCU_GP_WAIT_FQS] = "wait_fqs", [RCU_GP_CLEANUP] = "cleanup",
        };

        return names[sim->rcu.tree->gp_state];
}

const struct rcu_flavour_ops rcu_tree_flavour = {
        .name = "tree",
        .init = init_tree,
        .start = start_tree,
        .finish = finish_tree,
        .read_lock = read_lock_tree,
        .read_unlock = read_unlock_tree,
        .switch_out = switch_out_tree,
        .context_switch = context_switch_tree,
        .enqueue = enqueue_tree,
        .tick = tick_tree,
        .eqs_enter = eqs_enter_tree,
        .eqs_exit = eqs_exit_tree,
        .needs_cpu = needs_cpu_tree,
        .holds_up = holds_up_tree,
        .report = report_tree,
        .state_name = state_name_tree,
        .gp_in_progress = gp_in_progress_tree,
};

int rcu_tree_nleaves(const struct sim *sim)
{
        const struct rcu_tree *rt = sim->rcu.tree;

        return rt ? rt->level_count[rt->nlevels - 1] : 0;
}

struct rcu_node *rcu_tree_leaf(const struct sim *sim, int i)
{
        const struct rcu_tree *rt = sim->rcu.tree;

        return &rt->nodes[rt->level_first[rt->nlevels - 1] + i];
}

bool rcu_tree_cbovld(const struct sim *sim)
{
        return sim->rcu.tree->cbovld;
}

struct rcu_node *rcu_tree_blocked_node(const struct task *t)
{
        return t->rcu_blocked_node;
}

int rcu_tree_kthread_prio(const struct sim *sim)
{
        return sim->rcu.tree->kthread_prio;
}
