/* coverage.c - the engine's events as coverage; see coverage.h. */
#include "coverage.h"

#include <glib.h>

static const char *const names[EE_EVENTS] = {
        [EE_BOOST_PREEMPTED] = "a boost of a preempted reader",
        [EE_BOOST_ON_MUTEX] = "a boost of a reader blocked on a mutex",
        [EE_BOOST_RUNNING] = "a boost of a reader running in its section",
        [EE_BOOST_OUTSIDE] = "a boost of a task outside any section",
        [EE_BOOST_RT] = "a boost of an RT task",
        [EE_BOOST_THROUGH_LOCK] = "a boost inherited through the policy's lock",
        [EE_REBOOST_UP] = "a boost raised",
        [EE_REBOOST_DOWN] = "a boost lowered",
        [EE_UNBOOST_IN_SECTION] = "an unboost inside the section",
        [EE_UNBOOST_AT_UNLOCK] = "an unboost at the section's end",
        [EE_UNBOOST_OUTSIDE] = "an unboost within a tick after the section's end",
        [EE_UNBOOST_LATE] = "an unboost over a tick after the section's end",
        [EE_LEAVE_SECTION_BOOSTED] = "a reader's unlock leaving its boost in place",
        [EE_BLOCK_PREEMPTED] = "a reader preempted in its section",
        [EE_BLOCK_ON_MUTEX] = "a reader blocked on a mutex in its section",
        [EE_BLOCK_AGAIN] = "a reader switched out again in one section",
        [EE_BLOCK_BOOSTED] = "a boosted reader switched out",
        [EE_BLOCK_NESTED] = "a reader switched out in a nested section",
        [EE_BLOCK_HOLDING_MUTEX] = "a reader switched out holding a mutex",
        [EE_PI_INHERIT] = "an owner inheriting through a mutex",
        [EE_PI_FROM_BOOST] = "an owner inheriting a boost through a mutex",
        [EE_PI_CHAIN] = "an owner inheriting while it waits on another mutex",
        [EE_MIGRATE_BOOSTED] = "a boosted task moving to another CPU",
        [EE_MIGRATE_IN_SECTION] = "a reader moving to another CPU in its section",
        [EE_CLASS_CHANGE_BOOSTED] = "a class change of a boosted task",
        [EE_CLASS_CHANGE_IN_SECTION] = "a class change of a reader in its section",
        [EE_AFFINITY_CHANGE_BOOSTED] = "an affinity change of a boosted task",
        [EE_KTHREAD_WAITS_POLICY] = "the policy's thread waiting at a tick",
        [EE_KTHREAD_WAITS_RCU] = "an RCU kernel thread waiting at a tick",
        [EE_KTHREAD_WAITS_OTHER] = "another kernel thread waiting at a tick",
        [EE_STALL_READER] = "a stall behind a reader",
        [EE_STALL_KTHREAD] = "a stall behind a kernel thread",
        [EE_OOM] = "out of memory",
};

const char *coverage_event_name(enum engine_event e)
{
        return e < EE_EVENTS ? names[e] : "?";
}
