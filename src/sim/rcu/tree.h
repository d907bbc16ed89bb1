/* tree.h - preemptible Tree RCU, as mainline Linux ships it ([rcu] flavour=tree).
 *
 * Modelled on kernel/rcu/tree.c, tree_plugin.h, tree.h and rcu_segcblist.c
 * (torvalds/linux, v5.15-v6.x); function names below are the kernel's.
 *
 * Tree: leaf rcu_nodes of fanout_leaf CPUs (CONFIG_RCU_FANOUT_LEAF, 16),
 * fanout 64 above, spread evenly as rcu_init_levelspread() does.  Each node
 * has ->qsmask: the children (CPUs at a leaf) that still owe the current
 * grace period a quiescent state.
 *
 * Quiescent states: every context switch (rcu_note_context_switch() ->
 * rcu_qs()) and every scheduling-clock tick that finds the CPU idle or its
 * task outside a read-side critical section (rcu_flavor_sched_clock_irq())
 * note one in the CPU's rcu_data; rcu_core(), run by the CPU's rcuc/N
 * kthread (use_softirq=0, as on PREEMPT_RT) when the tick sees work
 * (rcu_pending()), reports it up the tree (rcu_report_qs_rdp() ->
 * rcu_report_qs_rnp()).  So an rcuc kthread starved by an RT task holds
 * the grace period up, as on a real PREEMPT_RT kernel.
 *
 * Readers: the outermost rcu_read_unlock() has no fast-path work; a reader
 * switched out inside its critical section is queued once on its CPU's leaf
 * ->blkd_tasks (rcu_preempt_ctxt_queue(): head, tail, or behind ->gp_tasks,
 * as the node's state says), and its outermost unlock takes the slow path
 * (rcu_read_unlock_special()) to leave it.  ->gp_tasks is the first queued
 * task that blocks the current grace period; tasks from it to the list's
 * tail all do, and the leaf cannot report while any remain.
 *
 * Grace periods: the rcu_preempt kthread (SCHED_FIFO kthread_prio when set)
 * sleeps until a CPU asks for a grace period (rcu_start_this_gp()), then
 * rcu_gp_init() (->gp_tasks from the queued tasks, ->qsmask of every node),
 * waits jiffies_till_first_fqs and then jiffies_till_next_fqs at a time,
 * forcing quiescent states between (rcu_gp_fqs() -> force_qs_rnp(), where
 * RCU_BOOST is started for leaves that owe only blocked tasks), until the
 * root is clear; rcu_gp_cleanup() ends it and starts the next if asked.
 *
 * Callbacks: per CPU a segmented list (DONE, WAIT, NEXT_READY, NEXT) whose
 * segments carry the grace-period number they wait for
 * (rcu_segcblist_accelerate() / rcu_segcblist_advance()); rcuc/N invokes
 * the DONE segment, rescheduling between callbacks (rcu_do_batch() outside
 * softirq: blimit does not bound an rcuc batch).
 *
 * Not modelled: expedited grace periods (->exp_tasks), CPU hotplug, NO_HZ
 * (every CPU ticks; an idle CPU reports from its tick), the funnel lock of
 * rcu_start_this_gp() (one ->gp_seq_needed), nocb offloading, the qhimark
 * forcing in __call_rcu_core(), urgent/heavy quiescent-state requests
 * (resched_cpu()) from force_qs_rnp().
 */
#ifndef RCUBOOST_TREE_H
#define RCUBOOST_TREE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "../engine/cpumask.h"
#include "../engine/eventq.h"

struct sim;
struct task;
struct report;
struct rcu_callback;

#define RCU_FANOUT 64                   /* CONFIG_RCU_FANOUT on 64-bit */
#define RCU_FANOUT_LEAF 16              /* CONFIG_RCU_FANOUT_LEAF */
#define RCU_TREE_MAX_LEVELS 4

struct rcu_node {
        int index;                      /* in breadth-first order: root = 0 */
        int level;
        int grplo, grphi;               /* CPUs covered, inclusive */
        struct rcu_node *parent;
        uint64_t grpmask;               /* this node's bit in parent->qsmask */
        uint64_t qsmask;                /* children still to report */
        uint64_t qsmaskinit;
        unsigned long gp_seq;           /* as this node sees it */
        unsigned long gp_seq_needed;
        unsigned long completedqs;
        /* Leaves only.  Tasks switched out in a critical section that
         * started on one of this leaf's CPUs, via task->rcu_node_entry. */
        GQueue blkd_tasks;
        GList *gp_tasks;                /* first one blocking this GP, or NULL */
        /* CONFIG_RCU_BOOST (read and written by the rcu-boost policy). */
        GList *boost_tasks;             /* next one to boost, or NULL */
        uint64_t cbovldmask;            /* CPUs with >= qovld callbacks */
        uint64_t blocked_max;           /* longest blkd_tasks seen */
};

enum rcu_gp_state {
        RCU_GP_IDLE,                    /* waiting for a request (RCU_GP_WAIT_GPS) */
        RCU_GP_INIT,
        RCU_GP_WAIT_FQS,
        RCU_GP_CLEANUP,
};

/* Callbacks of one CPU: one list, cut into segments by tail pointers. */
enum { RCU_DONE_TAIL, RCU_WAIT_TAIL, RCU_NEXT_READY_TAIL, RCU_NEXT_TAIL, RCU_CBLIST_NSEGS };

struct rcu_segcblist {
        struct rcu_callback *head;
        struct rcu_callback **tails[RCU_CBLIST_NSEGS];
        unsigned long gp_seq[RCU_CBLIST_NSEGS];
        int64_t seglen[RCU_CBLIST_NSEGS];
        int64_t len;
};

/* Build the tree and its kthreads; the flavour ops of rcu.c call the rest. */
extern const struct rcu_flavour_ops rcu_tree_flavour;

/* The leaves, for CONFIG_RCU_BOOST. */
int rcu_tree_nleaves(const struct sim *sim);
struct rcu_node *rcu_tree_leaf(const struct sim *sim, int i);
/* rcu_state.cbovld: some CPU had qovld callbacks at the last FQS scan. */
bool rcu_tree_cbovld(const struct sim *sim);
/* The leaf @t is queued on (t->rcu_blocked_node), or NULL. */
struct rcu_node *rcu_tree_blocked_node(const struct task *t);
/* rcutree.kthread_prio as in effect (0: SCHED_NORMAL). */
int rcu_tree_kthread_prio(const struct sim *sim);

#endif
