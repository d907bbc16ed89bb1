/* eventq.c - the discrete-event queue; see eventq.h. */
#include "eventq.h"

void eventq_init(struct eventq *q)
{
        heap_init(&q->heap);
        q->next_seq = 0;
        q->fired = 0;
        q->last = NULL;
}

void eventq_finish(struct eventq *q)
{
        heap_finish(&q->heap);
}

void event_init(struct event *ev, event_fn fn)
{
        heap_node_init(&ev->node);
        ev->when = SIM_TIME_NEVER;
        ev->fn = fn;
        ev->fired = 0;
}

void eventq_settle(struct eventq *q)
{
        struct event *ev = q->last;

        if (!ev)
                return;
        q->last = NULL;
        ev->fired = 0;
        heap_remove(&q->heap, &ev->node);
}

void eventq_schedule(struct eventq *q, struct event *ev, sim_time_ns when)
{
        ev->when = when;
        if (ev == q->last) {
                /* The event just fired, still at the root: one sift down. */
                q->last = NULL;
                ev->fired = 0;
        }
        /* A fresh sequence number even on reschedule: a moved event goes
         * behind those already due at the same instant. */
        if (event_pending(ev))
                heap_rekey(&q->heap, &ev->node, when, q->next_seq++);
        else
                heap_push(&q->heap, &ev->node, when, q->next_seq++);
}

void eventq_cancel(struct eventq *q, struct event *ev)
{
        if (ev == q->last)
                eventq_settle(q);
        else if (event_pending(ev))
                heap_remove(&q->heap, &ev->node);
}

struct event *eventq_pop(struct eventq *q)
{
        struct heap_node *n;
        struct event *ev;

        eventq_settle(q);
        n = heap_peek(&q->heap);
        if (!n)
                return NULL;
        /* Left at the root until rescheduled or settled (see eventq.h).
         * Anything pushed meanwhile sorts after it: it is due now, with an
         * older sequence number. */
        ev = container_of(n, struct event, node);
        ev->fired = 1;
        q->last = ev;
        q->fired++;
        return ev;
}
