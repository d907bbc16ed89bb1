/* rcupreempt.h - the 2007 -rt kernel's preemptible RCU ([rcu] flavour=rcupreempt).
 *
 * Modelled on kernel/rcupreempt.c of 2.6.25/2.6.26, the code the 2007
 * boosting patches sat on (docs/design.md has what differs).
 *
 * Readers: the outermost rcu_read_lock() increments this CPU's
 * flipctr[completed & 1] and remembers the index; the outermost
 * rcu_read_unlock() decrements flipctr[idx] of whatever CPU it runs on then
 * (one CPU's counter may go negative; only the sum matters).
 *
 * Grace periods: a state machine advanced from each CPU's scheduling-clock
 * tick -- idle (flip: completed++ when this CPU has callbacks) -> waitack
 * (every CPU acknowledged the flip at one of its ticks) -> waitzero (the
 * old counters sum to zero: a preempted reader holds the machine here) ->
 * waitmb (every CPU did its memory barrier at a tick) -> idle.
 *
 * Callbacks: per CPU next -> wait[0] -> wait[1] -> done (GP_STAGES = 2),
 * advanced at the CPU's tick when it sees `completed` changed; done
 * callbacks are invoked by the CPU's callback thread (rcu_cb/N, the -rt
 * sirq-rcu thread) at the scenario's priority, each costing [costs]
 * callback.  Memory waiting on RCU is the bytes of callbacks registered and
 * not yet invoked; crossing [rcu] memory_limit is an out-of-memory event.
 */
#ifndef RCUBOOST_RCUPREEMPT_H
#define RCUBOOST_RCUPREEMPT_H

#include "rcu.h"

/* The flavour's state, sim->rcu.preempt (what is shared lives in struct rcu). */
struct rcu_preempt {
        int64_t completed;
        enum rcu_flip_state state;
        int64_t flipsum[2];             /* sum of all CPUs' flipctr[i] */
        int acks_pending;               /* CPUs yet to see the flip */
        int mbs_pending;                /* CPUs yet to do their barrier */
        sim_time_ns gp_start_ns;        /* of the flip cycle in progress (or last) */
        /* Starts of the last RCU_GP_STAGES flip cycles, by flip number mod
         * RCU_GP_STAGES: a grace period is RCU_GP_STAGES consecutive flips. */
        sim_time_ns flip_start_ns[RCU_GP_STAGES];
        /* ... and whether callbacks entered wait[0] at that flip: only then
         * does anything wait for the grace period that flip began (after an
         * idle spell with no callbacks, two flips in a row are no grace
         * period anybody waited for). */
        bool flip_began_gp[RCU_GP_STAGES];
        sim_time_ns phase_start_ns;
        sim_time_ns phase_ns[4];        /* time spent in each state this GP */
        struct rcu_cpu *cpus;
};

extern const struct rcu_flavour_ops rcu_rcupreempt_flavour;

#endif
