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
 * A run's coverage is the events it saw, and for each task the pairs of
 * one event and the next (a boost of a preempted reader, then its unlock
 * leaving the boost in place): the engine's own state transitions, which
 * steer as a policy's do.  Counts of each event, AFL's hit-count buckets,
 * were tried first: they made many more edges, most of them everyday
 * events at another count, and steered no better than nothing (measured:
 * docs/hunt.md).  Counting costs one test per event when a run does not
 * count coverage.
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

#define COVERAGE_PAIR_WORDS ((EE_EVENTS * EE_EVENTS + 63) / 64)
/* A run's engine coverage: word 0, bit E: event E seen; then, in the
 * COVERAGE_PAIR_WORDS words after it, bit A * EE_EVENTS + B: a task's
 * event B right after its event A. */
#define COVERAGE_ENGINE_WORDS (1 + COVERAGE_PAIR_WORDS)

/* "a reader's unlock leaving its boost in place": for hunt.txt. */
const char *coverage_event_name(enum engine_event e);

#endif
