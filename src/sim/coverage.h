/* coverage.h - what the engine itself saw happen in a run, for `rcuboost hunt`.
 *
 * A policy may report its own states (state_of() in its ops table); most
 * modules do not.  So the engine counts events every policy goes through --
 * a boost of a preempted reader, of one blocked on a mutex, a boost that
 * travels through a mutex to its owner, a reader that leaves its section
 * still boosted, a boosted task that migrates or changes class, an unboost
 * that comes late, a kernel thread kept waiting at a tick -- and hunt steers
 * toward the rare ones as it does toward a policy's rare transitions (#50).
 *
 * A run's coverage is a set of (event, how often) pairs: each event's count
 * falls in one of eight buckets (1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+),
 * as AFL buckets branch hit counts, so that "the boost came late twice"
 * differs from "once" and the search has a slope to climb.  Counting costs
 * one test per event when a run does not count coverage.
 */
#ifndef RCUBOOST_COVERAGE_H
#define RCUBOOST_COVERAGE_H

#include <stdint.h>

enum engine_event {
        /* a boost begins: of a reader switched out by preemption, blocked on a
         * mutex, running in its section, outside any section; of an RT task;
         * or decided through a mutex (a policy's lock inherited) */
        EE_BOOST_PREEMPTED,
        EE_BOOST_ON_MUTEX,
        EE_BOOST_RUNNING,
        EE_BOOST_OUTSIDE,
        EE_BOOST_RT,
        EE_BOOST_THROUGH_LOCK,
        EE_REBOOST_UP,
        EE_REBOOST_DOWN,
        /* a boost ends: inside the section, at its unlock, after it within a
         * tick, later; a reader's unlock that leaves its boost in place */
        EE_UNBOOST_IN_SECTION,
        EE_UNBOOST_AT_UNLOCK,
        EE_UNBOOST_OUTSIDE,
        EE_UNBOOST_LATE,
        EE_LEAVE_SECTION_BOOSTED,
        /* a reader switched out inside its section */
        EE_BLOCK_PREEMPTED,
        EE_BLOCK_ON_MUTEX,
        EE_BLOCK_AGAIN,
        EE_BLOCK_BOOSTED,
        EE_BLOCK_NESTED,
        EE_BLOCK_HOLDING_MUTEX,
        /* priority inheritance through a scenario's mutex: from a boosted
         * waiter (the boost travels), and along a chain of owners */
        EE_PI_INHERIT,
        EE_PI_FROM_BOOST,
        EE_PI_CHAIN,
        /* what happens to a boosted task, or a reader in its section */
        EE_MIGRATE_BOOSTED,
        EE_MIGRATE_IN_SECTION,
        EE_CLASS_CHANGE_BOOSTED,
        EE_CLASS_CHANGE_IN_SECTION,
        EE_AFFINITY_CHANGE_BOOSTED,
        /* a kernel thread runnable but not running at its CPU's tick: the
         * policy's own, RCU's, any other (a timer or softirq thread) */
        EE_KTHREAD_WAITS_POLICY,
        EE_KTHREAD_WAITS_RCU,
        EE_KTHREAD_WAITS_OTHER,
        /* the run's stall report: a reader held the grace period; a kernel thread could not run */
        EE_STALL_READER,
        EE_STALL_KTHREAD,
        EE_OOM,
        EE_EVENTS
};

#define COVERAGE_BUCKETS 8
/* A run's engine coverage: bit COVERAGE_BUCKETS * event + bucket. */
#define COVERAGE_ENGINE_WORDS ((EE_EVENTS * COVERAGE_BUCKETS + 63) / 64)

/* "a reader left its section still boosted": for hunt.txt. */
const char *coverage_event_name(enum engine_event e);
/* The bucket of @count (> 0): 0 for 1, ... 7 for 128 and more. */
int coverage_bucket(uint32_t count);
/* @counts, one per event, as bits into @bits (COVERAGE_ENGINE_WORDS words, cleared first). */
void coverage_engine_bits(const uint32_t *counts, uint64_t *bits);

#endif
