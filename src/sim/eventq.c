/* eventq.c - the discrete-event queue; see eventq.h. */
#include "eventq.h"

#include <glib.h>

#define WIDTH (INT64_C(1) << EVENTQ_WIDTH_SHIFT)
#define SPAN ((int64_t)EVENTQ_BUCKETS << EVENTQ_WIDTH_SHIFT)
#define MASK (EVENTQ_BUCKETS - 1)

void eventq_init(struct eventq *q)
{
        heap_init(&q->heap);
        q->buckets = g_new0(struct event *, EVENTQ_BUCKETS + 1);
        q->nonempty = g_new0(uint64_t, EVENTQ_BUCKETS / 64);
        q->noverflow = 0;
        q->base = 0;
        q->in_calendar = 0;
        q->overflow_min = SIM_TIME_NEVER;
        q->next_seq = 0;
        q->fired = 0;
        q->last = NULL;
}

void eventq_finish(struct eventq *q)
{
        heap_finish(&q->heap);
        g_free(q->buckets);
        g_free(q->nonempty);
        q->buckets = NULL;
        q->nonempty = NULL;
}

void event_init(struct event *ev, event_fn fn)
{
        heap_node_init(&ev->node);
        ev->when = SIM_TIME_NEVER;
        ev->fn = fn;
        ev->seq = 0;
        ev->bucket = -1;
        ev->fired = 0;
        ev->cnext = NULL;
}

/* Buckets are unordered, singly linked intrusive lists: O(1) in, no
 * allocation, and an insertion touches no other event.  Taking one out
 * (a cancelled or moved event) walks its bucket, which holds a few. */
static void bucket_add(struct eventq *q, int32_t b, struct event *ev)
{
        ev->cnext = q->buckets[b];
        q->buckets[b] = ev;
        ev->bucket = b;
        if (b == EVENTQ_OVERFLOW) {
                q->noverflow++;
        } else {
                q->in_calendar++;
                q->nonempty[b / 64] |= UINT64_C(1) << (b % 64);
        }
}

static void bucket_del(struct eventq *q, struct event *ev)
{
        int32_t b = ev->bucket;
        struct event **pp = &q->buckets[b];

        while (*pp != ev)
                pp = &(*pp)->cnext;
        *pp = ev->cnext;
        ev->bucket = -1;
        if (b == EVENTQ_OVERFLOW) {
                q->noverflow--;
        } else {
                q->in_calendar--;
                if (!q->buckets[b])
                        q->nonempty[b / 64] &= ~(UINT64_C(1) << (b % 64));
        }
}

/* The first non-empty bucket at or after @from, going round; -1 if none. */
static int32_t next_nonempty(const struct eventq *q, uint32_t from)
{
        uint32_t w = from / 64;
        uint64_t bits = q->nonempty[w] & (~UINT64_C(0) << (from % 64));

        for (uint32_t k = 0; k <= EVENTQ_BUCKETS / 64; k++) {
                if (bits)
                        return (int32_t)(w * 64 + (uint32_t)__builtin_ctzll(bits));
                w = (w + 1) % (EVENTQ_BUCKETS / 64);
                bits = q->nonempty[w];
        }
        return -1;
}

/* Put @ev where its time says: the heap, a bucket or the overflow list. */
static void place(struct eventq *q, struct event *ev)
{
        if (ev->when < q->base) {
                heap_push(&q->heap, &ev->node, ev->when, ev->seq);
        } else if (ev->when - q->base < SPAN) {
                bucket_add(q, (int32_t)((uint64_t)ev->when >> EVENTQ_WIDTH_SHIFT & MASK), ev);
        } else {
                bucket_add(q, EVENTQ_OVERFLOW, ev);
                if (ev->when < q->overflow_min)
                        q->overflow_min = ev->when;
        }
}

/* Move overflow events the calendar now covers into it. */
static void migrate_overflow(struct eventq *q)
{
        struct event **pp = &q->buckets[EVENTQ_OVERFLOW];

        q->overflow_min = SIM_TIME_NEVER;
        while (*pp) {
                struct event *ev = *pp;

                if (ev->when - q->base < SPAN) {
                        *pp = ev->cnext;        /* unlink here: no walk from the head */
                        ev->bucket = -1;
                        q->noverflow--;
                        place(q, ev);
                } else {
                        if (ev->when < q->overflow_min)
                                q->overflow_min = ev->when;
                        pp = &ev->cnext;
                }
        }
}

/* Make the heap hold the next event, if there is one. */
static void refill(struct eventq *q)
{
        while (heap_size(&q->heap) == 0) {
                uint32_t i = (uint32_t)((uint64_t)q->base >> EVENTQ_WIDTH_SHIFT) & MASK;
                int32_t j;

                /* Whatever is due within the calendar's reach must be in it
                 * before we jump ahead. */
                if (q->noverflow && q->overflow_min - q->base < SPAN)
                        migrate_overflow(q);
                if (q->in_calendar == 0) {
                        if (q->noverflow == 0)
                                return;
                        /* Nothing within 67 ms: jump to the first overflow event. */
                        q->base = q->overflow_min & ~(WIDTH - 1);
                        migrate_overflow(q);
                        continue;
                }
                j = next_nonempty(q, i);
                q->base += (int64_t)(((uint32_t)j - i) & MASK) << EVENTQ_WIDTH_SHIFT;
                for (struct event *ev = q->buckets[j], *next; ev; ev = next) {
                        next = ev->cnext;
                        ev->bucket = -1;
                        heap_push(&q->heap, &ev->node, ev->when, ev->seq);
                        q->in_calendar--;
                }
                q->buckets[j] = NULL;
                q->nonempty[j / 64] &= ~(UINT64_C(1) << (j % 64));
                q->base += WIDTH;
        }
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

static void unlink_event(struct eventq *q, struct event *ev)
{
        if (ev == q->last) {
                q->last = NULL;
                ev->fired = 0;
                heap_remove(&q->heap, &ev->node);
        } else if (ev->bucket >= 0) {
                bucket_del(q, ev);
        } else if (heap_node_queued(&ev->node)) {
                heap_remove(&q->heap, &ev->node);
        }
}

void eventq_schedule(struct eventq *q, struct event *ev, sim_time_ns when)
{
        /* A fresh sequence number even on reschedule: a moved event goes
         * behind those already due at the same instant. */
        int64_t seq = q->next_seq++;

        if (when < q->base && (ev == q->last || (heap_node_queued(&ev->node) && !ev->fired))) {
                /* Staying in the heap (e.g. the event that just fired): one sift. */
                if (ev == q->last) {
                        q->last = NULL;
                        ev->fired = 0;
                }
                ev->when = when;
                ev->seq = seq;
                heap_rekey(&q->heap, &ev->node, when, seq);
                return;
        }
        unlink_event(q, ev);
        ev->when = when;
        ev->seq = seq;
        place(q, ev);
}

void eventq_cancel(struct eventq *q, struct event *ev)
{
        unlink_event(q, ev);
}

struct event *eventq_pop(struct eventq *q)
{
        struct heap_node *n;
        struct event *ev;

        eventq_settle(q);
        refill(q);
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

sim_time_ns eventq_next_time(struct eventq *q)
{
        eventq_settle(q);
        refill(q);
        return heap_size(&q->heap) ? heap_peek_key(&q->heap) : SIM_TIME_NEVER;
}

uint64_t eventq_size(struct eventq *q)
{
        eventq_settle(q);
        return heap_size(&q->heap) + q->in_calendar + q->noverflow;
}
