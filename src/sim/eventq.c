/* eventq.c - the discrete-event queue; see eventq.h. */
#include "eventq.h"

#include <glib.h>
#include <string.h>

#define WIDTH(q) (INT64_C(1) << (q)->shift)
#define SPAN(q) ((int64_t)EVENTQ_BUCKETS << (q)->shift)
#define MASK (EVENTQ_BUCKETS - 1)
#define MAX_SHIFT 40
/* A pour this large narrows the buckets.  Above 512 CPUs the aligned
 * scheduling-clock ticks alone pour more than 1024 events at once, and a
 * limit of 1024 resized the calendar ~1500 times per simulated second. */
#define RESIZE_CROWD 4096

void eventq_init(struct eventq *q)
{
        heap_init(&q->heap);
        q->run = NULL;
        q->buckets = g_new0(struct eventq_bucket, EVENTQ_BUCKETS);
        q->nonempty = g_new0(uint64_t, EVENTQ_BUCKETS / 64);
        q->disordered = g_new0(uint64_t, EVENTQ_BUCKETS / 64);
        q->listed = 0;
        heap_init(&q->overflow);
        q->noverflow = 0;
        q->base = 0;
        q->shift = EVENTQ_WIDTH_SHIFT;
        q->last_pop = 0;
        q->checked_at = 0;
        q->pops_since_check = 0;
        q->wanted = EVENTQ_WIDTH_SHIFT;
        q->next_seq = 0;
        q->fired = 0;
        q->last = NULL;
}

void eventq_finish(struct eventq *q)
{
        heap_finish(&q->heap);
        heap_finish(&q->overflow);
        g_clear_pointer(&q->buckets, g_free);
        g_clear_pointer(&q->nonempty, g_free);
        g_clear_pointer(&q->disordered, g_free);
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

static bool before(const struct event *a, const struct event *b)
{
        return a->when < b->when || (a->when == b->when && a->seq < b->seq);
}

#define BIT_SET(map, b) ((map)[(b) / 64] |= UINT64_C(1) << ((b) % 64))
#define BIT_CLEAR(map, b) ((map)[(b) / 64] &= ~(UINT64_C(1) << ((b) % 64)))
#define BIT_TEST(map, b) (((map)[(b) / 64] >> ((b) % 64)) & 1)

/* Buckets are singly linked intrusive lists, appended at the tail: O(1)
 * in and no allocation.  Events often arrive in (time, sequence) order: a
 * fresh sequence number (@newest) and a time no earlier than the tail's,
 * always so in a bucket 1 ns wide.  A bucket that stayed in order is
 * poured whole as the run without being looked at; the first event out
 * of order marks it disordered.  Taking an event out (cancelled or
 * moved) walks its list, which holds a few. */
static void bucket_add(struct eventq *q, int32_t b, struct event *ev, bool newest)
{
        struct eventq_bucket *bk = &q->buckets[b];

        ev->bucket = b;
        ev->cnext = NULL;
        if (bk->head) {
                if (ev->when < bk->tail_when ||
                    (ev->when == bk->tail_when && !newest && before(ev, bk->tail)))
                        BIT_SET(q->disordered, b);
                bk->tail->cnext = ev;
        } else {
                bk->head = ev;
                BIT_SET(q->nonempty, b);
        }
        bk->tail = ev;
        bk->tail_when = ev->when;
        q->listed++;
}

/* Events in the run keep the number of the bucket they came from; they
 * are due before the base, whereas everything in a bucket is due at or
 * after it. */
static void bucket_del(struct eventq *q, struct event *ev)
{
        int32_t b = ev->bucket;
        bool in_run = ev->when < q->base;
        struct event **pp, *prev = NULL;

        if (b == EVENTQ_OVERFLOW) {
                heap_remove(&q->overflow, &ev->node);
                ev->bucket = -1;
                q->noverflow--;
                return;
        }
        pp = in_run ? &q->run : &q->buckets[b].head;
        while (*pp != ev) {
                prev = *pp;
                pp = &prev->cnext;
        }
        *pp = ev->cnext;
        ev->bucket = -1;
        q->listed--;
        if (in_run)
                return;
        if (q->buckets[b].tail == ev) {
                q->buckets[b].tail = prev;
                if (prev)
                        q->buckets[b].tail_when = prev->when;
        }
        if (!q->buckets[b].head) {
                BIT_CLEAR(q->nonempty, b);
                BIT_CLEAR(q->disordered, b);
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
static void place(struct eventq *q, struct event *ev, bool newest)
{
        if (ev->when < q->base) {
                heap_push(&q->heap, &ev->node, ev->when, ev->seq);
        } else if (ev->when - q->base < SPAN(q)) {
                bucket_add(q, (int32_t)((uint64_t)ev->when >> q->shift & MASK), ev, newest);
        } else {
                ev->bucket = EVENTQ_OVERFLOW;
                heap_push(&q->overflow, &ev->node, ev->when, ev->seq);
                q->noverflow++;
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
                place(q, ev, false);
        }
}

/* Every pending event by its keys, so that sorting reads no event. */
static void gather(GArray *all, const struct heap *h)
{
        for (uint32_t i = 0; i < heap_size(h); i++)
                g_array_append_val(all, *heap_slot_at(h, i));
}

static void gather_list(GArray *all, struct event *ev)
{
        for (; ev; ev = ev->cnext) {
                struct heap_slot s = { .key = ev->when, .tie = ev->seq, .node = &ev->node };

                g_array_append_val(all, s);
        }
}

static gint by_time(gconstpointer a, gconstpointer b, gpointer unused)
{
        const struct heap_slot *x = a, *y = b;

        (void)unused;
        if (x->key != y->key)
                return x->key < y->key ? -1 : 1;
        return x->tie < y->tie ? -1 : x->tie > y->tie;
}

/* Often so already: buckets are mostly filled in order. */
static bool in_order(const struct heap_slot *v, uint32_t n)
{
        for (uint32_t i = 1; i < n; i++)
                if (by_time(&v[i - 1], &v[i], NULL) > 0)
                        return false;
        return true;
}

/* Put @all, sorted by (time, sequence) within each bucket, back. */
static void replace_all(struct eventq *q, const struct heap_slot *all, guint n)
{
        for (guint i = 0; i < n; i++) {
                struct event *ev = container_of(all[i].node, struct event, node);

                ev->bucket = -1;
                place(q, ev, false);
        }
}

/* Many events: a counting sort by bucket, then a sort of each bucket's
 * few events, costs far less than sorting them all. */
static void replace_many(struct eventq *q, GArray *all)
{
        g_autofree uint32_t *start = g_new0(uint32_t, EVENTQ_BUCKETS + 2);
        g_autofree struct heap_slot *by_bucket = g_new(struct heap_slot, all->len);
        uint32_t base_bucket = (uint32_t)((uint64_t)q->base >> q->shift) & MASK;

        /* Groups in calendar order from the base, the overflow last:
         * start[g + 1] counts group g, then start[g] becomes its start. */
#define GROUP(key) ((key) - q->base >= SPAN(q) ? EVENTQ_BUCKETS : \
                    (((uint32_t)((uint64_t)(key) >> q->shift) - base_bucket) & MASK))
        for (guint i = 0; i < all->len; i++)
                start[GROUP(g_array_index(all, struct heap_slot, i).key) + 1]++;
        for (uint32_t g = 1; g <= EVENTQ_BUCKETS + 1; g++)
                start[g] += start[g - 1];
        for (guint i = 0; i < all->len; i++) {
                const struct heap_slot *sl = &g_array_index(all, struct heap_slot, i);

                by_bucket[start[GROUP(sl->key)]++] = *sl;
        }
#undef GROUP
        /* Now start[g] is the end of group g. */
        for (uint32_t g = 0, from = 0; g < EVENTQ_BUCKETS; from = start[g++])
                if (!in_order(by_bucket + from, start[g] - from))
                        g_qsort_with_data(by_bucket + from, (gint)(start[g] - from),
                                          sizeof(struct heap_slot), by_time, NULL);
        replace_all(q, by_bucket, all->len);
}

/* Re-place every pending event (the heap's and the run's too: they are
 * empty afterwards, so the base restarts at the earliest event) for
 * buckets of 2^shift ns.  Each bucket is filled in (time, sequence)
 * order, so that it pours as a run. */
static void resize(struct eventq *q, int shift)
{
        g_autoptr(GArray) all = g_array_sized_new(FALSE, FALSE, sizeof(struct heap_slot),
                                                  (guint)(heap_size(&q->heap) + q->listed + q->noverflow));
        sim_time_ns first = SIM_TIME_NEVER;

        gather(all, &q->heap);
        heap_clear(&q->heap);
        gather(all, &q->overflow);
        heap_clear(&q->overflow);
        gather_list(all, q->run);
        q->run = NULL;
        for (uint32_t b = 0; b < EVENTQ_BUCKETS; b++) {
                gather_list(all, q->buckets[b].head);
                q->buckets[b].head = q->buckets[b].tail = NULL;
        }
        memset(q->nonempty, 0, EVENTQ_BUCKETS / 8);
        memset(q->disordered, 0, EVENTQ_BUCKETS / 8);
        q->listed = 0;
        q->noverflow = 0;
        q->shift = shift;
        for (guint i = 0; i < all->len; i++)
                first = MIN(first, g_array_index(all, struct heap_slot, i).key);
        /* The base must be a multiple of the new width.  With nothing
         * pending it may only move forward: later events earlier than it
         * simply go to the heap. */
        if (all->len)
                q->base = first & ~(WIDTH(q) - 1);
        else
                q->base = (q->base + WIDTH(q) - 1) & ~(WIDTH(q) - 1);
        if (all->len > EVENTQ_BUCKETS / 16) {
                replace_many(q, all);
                return;
        }
        if (!in_order((struct heap_slot *)(void *)all->data, all->len))
                g_array_sort_with_data(all, by_time, NULL);
        replace_all(q, (struct heap_slot *)(void *)all->data, all->len);
}

/* Width for the current density: about eight events per bucket, from the
 * mean time between pops since the last look, looked at no more often
 * than once per (number pending) pops, so that a resize costs O(1) per
 * event.  Bursts (every CPU's tick at once) average out over so many. */
static void maybe_resize(struct eventq *q)
{
        uint64_t pending = heap_size(&q->heap) + q->listed + q->noverflow;
        uint64_t per8;
        int want;

        if (q->pops_since_check < MAX(pending, 4096))
                return;
        per8 = (uint64_t)(q->last_pop - q->checked_at) * 8 / q->pops_since_check;
        q->checked_at = q->last_pop;
        q->pops_since_check = 0;
        want = (int)g_bit_storage((gulong)per8 + 1) - 1;
        want = CLAMP(want, 0, MAX_SHIFT);
        /* Only when two looks in a row agree: one burst is not a trend. */
        if (ABS(want - q->shift) >= 2 && ABS(q->wanted - q->shift) >= 2 &&
            (want > q->shift) == (q->wanted > q->shift))
                resize(q, (want + q->wanted) / 2);
        q->wanted = want;
}

/* Bucket @j, due next, leaves the calendar: whole, as the run, if it is
 * in order; otherwise into the heap. */
static void pour(struct eventq *q, int32_t j)
{
        struct eventq_bucket *bk = &q->buckets[j];
        struct event *ev = bk->head;
        sim_time_ns lo = SIM_TIME_NEVER, hi = 0;
        uint64_t count = 0;

        bk->head = bk->tail = NULL;
        BIT_CLEAR(q->nonempty, j);
        if (!BIT_TEST(q->disordered, j)) {
                q->run = ev;
                return;
        }
        BIT_CLEAR(q->disordered, j);
        for (struct event *next; ev; ev = next, count++) {
                next = ev->cnext;
                ev->bucket = -1;
                q->listed--;
                heap_push(&q->heap, &ev->node, ev->when, ev->seq);
                lo = MIN(lo, ev->when);
                hi = MAX(hi, ev->when);
        }
        /* A crowded bucket makes a big heap: narrow the buckets to about
         * eight events each and pour again.  A bucket this full cannot
         * recur until as many events have been scheduled, so the resize
         * stays cheap per event. */
        if (count > RESIZE_CROWD && q->shift > 0) {
                uint64_t per8 = (uint64_t)(hi - lo) * 8 / count;
                int want = (int)g_bit_storage((gulong)per8 + 1) - 1;

                if (want < q->shift)
                        resize(q, want);
        }
}

/* Make the heap or the run hold the next event, if there is one. */
static void refill(struct eventq *q)
{
        while (heap_size(&q->heap) == 0 && !q->run) {
                uint32_t i;
                int32_t j;

                maybe_resize(q);
                /* Whatever is due within the calendar's reach must be in it
                 * before we jump ahead. */
                if (q->noverflow && overflow_min(q) - q->base < SPAN(q))
                        migrate_overflow(q);
                if (q->listed == 0) {
                        if (q->noverflow == 0)
                                return;
                        /* Nothing within reach: jump to the first overflow event. */
                        q->base = overflow_min(q) & ~(WIDTH(q) - 1);
                        migrate_overflow(q);
                        continue;
                }
                i = (uint32_t)((uint64_t)q->base >> q->shift) & MASK;
                j = next_nonempty(q, i);
                q->base += (int64_t)((((uint32_t)j - i) & MASK) + 1) << q->shift;
                pour(q, j);
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
        place(q, ev, true);
}

void eventq_cancel(struct eventq *q, struct event *ev)
{
        unlink_event(q, ev);
}

/* The run's head when it is due before the heap's root, else NULL. */
static struct event *run_first(const struct eventq *q)
{
        struct event *r = q->run;
        const struct heap_slot *root;

        if (!r || !heap_size(&q->heap))
                return r;
        root = heap_slot_at(&q->heap, 0);
        return r->when < root->key || (r->when == root->key && r->seq < root->tie) ? r : NULL;
}

struct event *eventq_pop(struct eventq *q)
{
        struct heap_node *n;
        struct event *ev;

        eventq_settle(q);
        refill(q);
        if ((ev = run_first(q))) {
                q->run = ev->cnext;
                q->listed--;
                ev->bucket = -1;
                /* The run is a list: fetch the next one while this one is handled. */
                if (q->run)
                        __builtin_prefetch(q->run);
        } else {
                n = heap_peek(&q->heap);
                if (!n)
                        return NULL;
                /* Left at the root until rescheduled or settled (see
                 * eventq.h).  Anything pushed meanwhile sorts after it: it
                 * is due now, with an older sequence number. */
                ev = container_of(n, struct event, node);
                ev->fired = 1;
                q->last = ev;
        }
        q->fired++;
        /* For the density, in maybe_resize(). */
        q->last_pop = ev->when;
        q->pops_since_check++;
        return ev;
}

sim_time_ns eventq_next_time(struct eventq *q)
{
        struct event *r;

        eventq_settle(q);
        refill(q);
        if ((r = run_first(q)))
                return r->when;
        return heap_size(&q->heap) ? heap_peek_key(&q->heap) : SIM_TIME_NEVER;
}

uint64_t eventq_size(struct eventq *q)
{
        eventq_settle(q);
        return heap_size(&q->heap) + q->listed + q->noverflow;
}
