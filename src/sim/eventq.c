/* eventq.c - the discrete-event queue; see eventq.h. */
#include "eventq.h"

#include <glib.h>
#include <string.h>

#define WIDTH(q) (INT64_C(1) << (q)->shift)
#define SPAN(q) ((int64_t)EVENTQ_BUCKETS << (q)->shift)
#define MASK (EVENTQ_BUCKETS - 1)
#define MAX_SHIFT 40
#define RESIZE_CROWD 1024               /* a pour this large narrows the buckets */

void eventq_init(struct eventq *q)
{
        heap_init(&q->heap);
        q->buckets = g_new0(struct event *, EVENTQ_BUCKETS);
        q->nonempty = g_new0(uint64_t, EVENTQ_BUCKETS / 64);
        q->noverflow = 0;
        q->base = 0;
        q->in_calendar = 0;
        heap_init(&q->overflow);
        q->shift = EVENTQ_WIDTH_SHIFT;
        q->gap_ns = (double)(INT64_C(1) << EVENTQ_WIDTH_SHIFT) / 8;
        q->last_pop = 0;
        q->pops_since_resize = 0;
        q->next_seq = 0;
        q->fired = 0;
        q->last = NULL;
}

void eventq_finish(struct eventq *q)
{
        heap_finish(&q->heap);
        heap_finish(&q->overflow);
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
        if (b == EVENTQ_OVERFLOW) {
                ev->bucket = b;
                heap_push(&q->overflow, &ev->node, ev->when, ev->seq);
                q->noverflow++;
                return;
        }
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
        struct event **pp;

        if (b == EVENTQ_OVERFLOW) {
                heap_remove(&q->overflow, &ev->node);
                ev->bucket = -1;
                q->noverflow--;
                return;
        }
        pp = &q->buckets[b];
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
        } else if (ev->when - q->base < SPAN(q)) {
                bucket_add(q, (int32_t)((uint64_t)ev->when >> q->shift & MASK), ev);
        } else {
                bucket_add(q, EVENTQ_OVERFLOW, ev);
        }
}

static sim_time_ns overflow_min(const struct eventq *q)
{
        return heap_size(&q->overflow) ? heap_peek_key(&q->overflow) : SIM_TIME_NEVER;
}

/* Move the overflow events the calendar now covers into it: the earliest
 * ones, so this costs O(log n) per event moved, whatever stays behind. */
static void migrate_overflow(struct eventq *q)
{
        while (heap_size(&q->overflow) && heap_peek_key(&q->overflow) - q->base < SPAN(q)) {
                struct event *ev = container_of(heap_pop(&q->overflow), struct event, node);

                ev->bucket = -1;
                q->noverflow--;
                place(q, ev);
        }
}

/* Re-place every pending event (the heap's too: it is empty afterwards,
 * so the base restarts at the earliest event) for buckets of 2^shift ns. */
static void resize(struct eventq *q, int shift)
{
        struct event *all = NULL;
        struct heap_node *n;
        sim_time_ns first = SIM_TIME_NEVER;

        while ((n = heap_pop(&q->heap))) {
                struct event *ev = container_of(n, struct event, node);

                ev->cnext = all;
                all = ev;
        }
        while ((n = heap_pop(&q->overflow))) {
                struct event *ev = container_of(n, struct event, node);

                ev->cnext = all;
                all = ev;
        }
        for (uint32_t b = 0; b < EVENTQ_BUCKETS; b++) {
                for (struct event *ev = q->buckets[b], *next; ev; ev = next) {
                        next = ev->cnext;
                        ev->cnext = all;
                        all = ev;
                }
                q->buckets[b] = NULL;
        }
        memset(q->nonempty, 0, EVENTQ_BUCKETS / 8);
        q->in_calendar = 0;
        q->noverflow = 0;
        q->shift = shift;
        for (struct event *ev = all; ev; ev = ev->cnext)
                first = MIN(first, ev->when);
        /* The base must be a multiple of the new width.  With nothing
         * pending it may only move forward: later events earlier than it
         * simply go to the heap. */
        if (all)
                q->base = first & ~(WIDTH(q) - 1);
        else
                q->base = (q->base + WIDTH(q) - 1) & ~(WIDTH(q) - 1);
        while (all) {
                struct event *next = all->cnext;

                all->bucket = -1;
                place(q, all);
                all = next;
        }
}

/* Width for the current density: about eight events per bucket, looked at
 * no more often than once per (number pending) pops, so that a resize
 * costs O(1) per event. */
static void maybe_resize(struct eventq *q)
{
        uint64_t pending = heap_size(&q->heap) + q->in_calendar + q->noverflow;
        int want;

        if (q->pops_since_resize < MAX(pending, 4096))
                return;
        q->pops_since_resize = 0;
        want = (int)g_bit_storage((gulong)(8 * q->gap_ns + 1)) - 1;
        want = CLAMP(want, 0, MAX_SHIFT);
        if (ABS(want - q->shift) >= 2)
                resize(q, want);
}

/* Make the heap hold the next event, if there is one. */
static void refill(struct eventq *q)
{
        while (heap_size(&q->heap) == 0) {
                uint32_t i;
                int32_t j;

                maybe_resize(q);
                /* Whatever is due within the calendar's reach must be in it
                 * before we jump ahead. */
                if (q->noverflow && overflow_min(q) - q->base < SPAN(q))
                        migrate_overflow(q);
                if (q->in_calendar == 0) {
                        if (q->noverflow == 0)
                                return;
                        /* Nothing within reach: jump to the first overflow event. */
                        q->base = overflow_min(q) & ~(WIDTH(q) - 1);
                        migrate_overflow(q);
                        continue;
                }
                i = (uint32_t)((uint64_t)q->base >> q->shift) & MASK;
                j = next_nonempty(q, i);
                q->base += (int64_t)(((uint32_t)j - i) & MASK) << q->shift;
                sim_time_ns lo = SIM_TIME_NEVER, hi = 0;

                for (struct event *ev = q->buckets[j], *next; ev; ev = next) {
                        next = ev->cnext;
                        ev->bucket = -1;
                        heap_push(&q->heap, &ev->node, ev->when, ev->seq);
                        q->in_calendar--;
                        lo = MIN(lo, ev->when);
                        hi = MAX(hi, ev->when);
                }
                q->buckets[j] = NULL;
                q->nonempty[j / 64] &= ~(UINT64_C(1) << (j % 64));
                q->base += WIDTH(q);
                /* A crowded bucket makes a big heap: narrow the buckets to
                 * about eight events each and pour again.  A bucket this full
                 * cannot recur until as many events have been scheduled, so
                 * the O(n) resize stays O(1) per event. */
                if (heap_size(&q->heap) > RESIZE_CROWD && q->shift > 0) {
                        uint64_t per8 = (uint64_t)(hi - lo) * 8 / heap_size(&q->heap);
                        int want = (int)g_bit_storage((gulong)per8 + 1) - 1;

                        if (want < q->shift)
                                resize(q, want);
                }
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

        if (when < q->base && (ev == q->last || (ev->bucket < 0 && heap_node_queued(&ev->node) && !ev->fired))) {
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
        /* Density estimate for the bucket width. */
        q->gap_ns += ((double)(ev->when - q->last_pop) - q->gap_ns) / 1024;
        q->last_pop = ev->when;
        q->pops_since_resize++;
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
