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
};

struct eventq {
        struct heap heap;
        int64_t next_seq;
        uint64_t fired;         /* events handed out by eventq_pop() */
};

void eventq_init(struct eventq *q);
void eventq_finish(struct eventq *q);

void event_init(struct event *ev, event_fn fn);

static inline int event_pending(const struct event *ev)
{
        return heap_node_queued(&ev->node);
}

/* Make @ev fire at @when, whether or not it was pending. */
void eventq_schedule(struct eventq *q, struct event *ev, sim_time_ns when);
void eventq_cancel(struct eventq *q, struct event *ev);
/* The next event, removed from the queue, or NULL when none is left. */
struct event *eventq_pop(struct eventq *q);

static inline sim_time_ns eventq_next_time(const struct eventq *q)
{
        return heap_size(&q->heap) ? heap_peek_key(&q->heap) : SIM_TIME_NEVER;
}

static inline uint32_t eventq_size(const struct eventq *q)
{
        return heap_size(&q->heap);
}

#endif
