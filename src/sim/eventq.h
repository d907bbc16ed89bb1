/* eventq.h - the discrete-event queue.
 *
 * Simulated time is an integer count of nanoseconds.  Events are ordered by
 * (time, sequence number): two events due at the same instant fire in the
 * order they were scheduled, so a run is a pure function of its inputs.
 *
 * An event is embedded in its owner (a task's timer, a CPU's tick) and
 * carries a handler; the owner finds itself again with container_of.
 * Scheduling an event that is already pending moves it (reschedule);
 * cancelling is O(log n).  Nothing here allocates per event.
 *
 * Most handlers schedule their own event again (a tick, a task burning its
 * next stretch of CPU).  So eventq_pop() leaves the event it returns at the
 * root of the heap, marked fired: rescheduling it then is a single sift
 * down instead of a removal plus an insertion.  It is really removed at the
 * next pop, or when the queue is looked at, if nobody rescheduled it.
 */
#ifndef RCUBOOST_EVENTQ_H
#define RCUBOOST_EVENTQ_H

#include <stddef.h>
#include <stdint.h>

#include "heap.h"

typedef int64_t sim_time_ns;

#define NSEC_PER_USEC INT64_C(1000)
#define NSEC_PER_MSEC INT64_C(1000000)
#define NSEC_PER_SEC  INT64_C(1000000000)
#define SIM_TIME_NEVER INT64_MAX

#define container_of(ptr, type, member) \
        ((type *)(void *)((char *)(ptr) - offsetof(type, member)))

struct sim;
struct event;

typedef void (*event_fn)(struct sim *sim, struct event *ev);

struct event {
        struct heap_node node;
        sim_time_ns when;
        event_fn fn;
        int fired;              /* popped, still physically at the heap's root */
};

struct eventq {
        struct heap heap;
        int64_t next_seq;
        uint64_t fired;         /* events handed out by eventq_pop() */
        struct event *last;     /* the fired event at the root, if any */
};

void eventq_init(struct eventq *q);
void eventq_finish(struct eventq *q);

void event_init(struct event *ev, event_fn fn);

static inline int event_pending(const struct event *ev)
{
        return heap_node_queued(&ev->node) && !ev->fired;
}

/* Make @ev fire at @when, whether or not it was pending. */
void eventq_schedule(struct eventq *q, struct event *ev, sim_time_ns when);
void eventq_cancel(struct eventq *q, struct event *ev);
/* The next event, removed from the queue, or NULL when none is left. */
struct event *eventq_pop(struct eventq *q);

/* Remove the last popped event if nobody rescheduled it. */
void eventq_settle(struct eventq *q);

static inline sim_time_ns eventq_next_time(struct eventq *q)
{
        eventq_settle(q);
        return heap_size(&q->heap) ? heap_peek_key(&q->heap) : SIM_TIME_NEVER;
}

static inline uint32_t eventq_size(struct eventq *q)
{
        eventq_settle(q);
        return heap_size(&q->heap);
}

#endif
