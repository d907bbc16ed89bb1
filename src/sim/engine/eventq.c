/* eventq.c - the discrete-event queue; see eventq.h. */
#include "eventq.h"

#include <glib.h>
#include <string.h>

#define WIDTH(q) (INT64_C(1) << (q)->shift)
#define SPAN(q) ((int64_t)(q)->nbuckets << (q)->shift)
#define MASK(q) ((q)->nbuckets - 1)
#define MAX_SHIFT 40
/* A pour this large narrows the buckets.  Above 512 CPUs the aligned
 * scheduling-clock ticks alone pour more than 1024 events at once, and a
 * limit of 1024 resized the calendar ~1500 times per simulated second. */
#define RESIZE_CROWD 4096

/* How far ahead of the pops the run's events are fetched: a pop and its
 * handler take tens of ns, a miss to memory about a hundred. */
#define RUN_PREFETCH 8

static void bucket_reset(struct eventq_bucket *bk)
{
        bk->head = bk->tail = EVENTQ_NIL;
        bk->fill = bk->live = 0;
        bk->tail_when = 0;
        bk->tail_seq = 0;
}

void eventq_init(struct eventq *q)
{
        heap_init(&q->heap);
        /* All zeros is empty: the calendar's pages are touched only as
         * buckets are used. */
        q->buckets = g_new0(struct eventq_bucket, EVENTQ_BUCKETS_MAX);
        q->nbuckets = EVENTQ_BUCKETS_MIN;
        bucket_reset(&q->run);
        q->run_pos = 0;
        q->chunks = NULL;
        q->nchunks = 1;         /* chunk 0 is EVENTQ_NIL */
        q->chunks_cap = 0;
        q->free_chunk = EVENTQ_NIL;
        q->scratch = NULL;
        q->scratch_cap = 0;
        q->sort_keys = NULL;
        q->sort_keys_cap = 0;
        q->nonempty = g_new0(uint64_t, EVENTQ_BUCKETS_MAX / 64);
        q->disordered = g_new0(uint64_t, EVENTQ_BUCKETS_MAX / 64);
        q->listed = 0;
        heap_init(&q->overflow);
        q->noverflow = 0;
        q->base = 0;
        q->shift = EVENTQ_WIDTH_SHIFT;
        q->last_pop = 0;
        q->checked_at = 0;
        q->pops_since_check = 0;
        q->wanted = EVENTQ_WIDTH_SHIFT;
        q->migrated = 0;
        q->next_seq = 0;
        q->fired = 0;
        q->last = NULL;
}

void eventq_finish(struct eventq *q)
{
        heap_finish(&q->heap);
        heap_finish(&q->overflow);
        g_clear_pointer(&q->buckets, g_free);
        g_clear_pointer(&q->chunks, g_free);
        g_clear_pointer(&q->scratch, g_free);
        g_clear_pointer(&q->sort_keys, g_free);
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
        ev->slot = 0;
}

/* Bucket numbers are never negative here: unsigned division is a shift. */
#define BIT_SET(map, b) ((map)[(uint32_t)(b) / 64] |= UINT64_C(1) << ((uint32_t)(b) % 64))
#define BIT_CLEAR(map, b) ((map)[(uint32_t)(b) / 64] &= ~(UINT64_C(1) << ((uint32_t)(b) % 64)))
#define BIT_TEST(map, b) (((map)[(uint32_t)(b) / 64] >> ((uint32_t)(b) % 64)) & 1)

/* Chunks come from one array, by index, and go back to a free list whose
 * head is the chunk freed last, still warm in the cache. */
static uint32_t chunk_alloc(struct eventq *q)
{
        uint32_t c = q->free_chunk;

        if (c != EVENTQ_NIL) {
                q->free_chunk = q->chunks[c].next;
        } else {
                if (q->nchunks >= q->chunks_cap) {
                        /* An event's slot holds the chunk's index. */
                        g_assert(q->chunks_cap < 1u << (31 - EVENTQ_CHUNK_SHIFT));
                        q->chunks_cap = q->chunks_cap ? q->chunks_cap * 2 : 64;
                        q->chunks = g_renew(struct eventq_chunk, q->chunks, q->chunks_cap);
                }
                c = q->nchunks++;
        }
        q->chunks[c].next = EVENTQ_NIL;
        return c;
}

/* Give @bk's whole chain back, in O(1), and leave it empty. */
static void chain_free(struct eventq *q, struct eventq_bucket *bk)
{
        if (bk->head != EVENTQ_NIL) {
                q->chunks[bk->tail].next = q->free_chunk;
                q->free_chunk = bk->head;
        }
        bucket_reset(bk);
}

static struct event **slot_ref(struct eventq *q, uint32_t slot)
{
        return &q->chunks[EVENTQ_SLOT_CHUNK(slot)].ev[EVENTQ_SLOT_INDEX(slot)];
}

/* Slots used in chunk @c of @bk's chain. */
static uint32_t chunk_end(const struct eventq_bucket *bk, uint32_t c)
{
        return c == bk->tail ? bk->fill : EVENTQ_CHUNK_SLOTS;
}

/* Append @ev at @bk's tail: O(1), and reads no other event. */
static inline void chain_append(struct eventq *q, struct eventq_bucket *bk, struct event *ev)
{
        if (bk->head == EVENTQ_NIL) {
                bk->head = bk->tail = chunk_alloc(q);
        } else if (bk->fill == EVENTQ_CHUNK_SLOTS) {
                uint32_t c = chunk_alloc(q);

                q->chunks[bk->tail].next = c;
                bk->tail = c;
                bk->fill = 0;
        }
        ev->slot = bk->tail << EVENTQ_CHUNK_SHIFT | bk->fill;
        q->chunks[bk->tail].ev[bk->fill++] = ev;
        bk->live++;
        bk->tail_when = ev->when;
        bk->tail_seq = ev->seq;
        q->listed++;
}

/* Would @ev, appended to @bk, come after every event in it? */
static inline bool after_tail(const struct eventq_bucket *bk, const struct event *ev)
{
        return ev->when > bk->tail_when || (ev->when == bk->tail_when && ev->seq > bk->tail_seq);
}

/* Each bucket keeps its last arrival's keys.  Events often arrive in
 * (time, sequence) order (always so in a bucket 1 ns wide), and a bucket
 * that stayed in order is poured whole as the run without being looked
 * at; the first event out of order marks it disordered.  The last arrival
 * may have been cancelled since: its keys still bound those before it, so
 * the mark stays safe. */
static void bucket_add(struct eventq *q, int32_t b, struct event *ev)
{
        struct eventq_bucket *bk = &q->buckets[b];

        if (bk->head == EVENTQ_NIL)
                BIT_SET(q->nonempty, b);
        else if (!after_tail(bk, ev))
                BIT_SET(q->disordered, b);
        ev->bucket = b;
        chain_append(q, bk, ev);
}

/* Events in the run keep the number of the bucket they came from; they
 * are due before the base, whereas everything in a bucket is due at or
 * after it.  Taking one out leaves a hole; the last one out frees the
 * chain. */
static void bucket_del(struct eventq *q, struct event *ev)
{
        int32_t b = ev->bucket;
        bool in_run = ev->when < q->base;
        struct eventq_bucket *bk;

        if (b == EVENTQ_OVERFLOW) {
                heap_remove(&q->overflow, &ev->node);
                ev->bucket = -1;
                q->noverflow--;
                return;
        }
        bk = in_run ? &q->run : &q->buckets[b];
        *slot_ref(q, ev->slot) = NULL;
        ev->bucket = -1;
        q->listed--;
        if (--bk->live)
                return;
        chain_free(q, bk);
        if (in_run) {
                q->run_pos = 0;
        } else {
                BIT_CLEAR(q->nonempty, b);
                BIT_CLEAR(q->disordered, b);
        }
}

/* The first non-empty bucket at or after @from, going round; -1 if none. */
static int32_t next_nonempty(const struct eventq *q, uint32_t from)
{
        uint32_t w = from / 64;
        uint64_t bits = q->nonempty[w] & (~UINT64_C(0) << (from % 64));

        for (uint32_t k = 0; k <= q->nbuckets / 64; k++) {
                if (bits)
                        return (int32_t)(w * 64 + (uint32_t)__builtin_ctzll(bits));
                w = (w + 1) & (q->nbuckets / 64 - 1);  /* a power of two */
                bits = q->nonempty[w];
        }
        return -1;
}

/* Events pending: in the heap, the run and buckets, or the overflow. */
static uint64_t npending(const struct eventq *q)
{
        return heap_size(&q->heap) + q->listed + q->noverflow;
}

/* Beyond the calendar's reach: into the overflow heap (rare). */
static G_GNUC_NO_INLINE void place_overflow(struct eventq *q, struct event *ev)
{
        ev->bucket = EVENTQ_OVERFLOW;
        heap_push(&q->overflow, &ev->node, ev->when, ev->seq);
        q->noverflow++;
}

/* Put @ev where its time says: the run or the heap, a bucket, or the
 * overflow heap. */
static inline void place(struct eventq *q, struct event *ev)
{
        if (ev->when < q->base) {
                /* Due after everything in the run (e.g. a burn of a few us
                 * that starts now), it joins the run's tail, in order, and
                 * is popped from there without a sift in and a sift out.
                 * Its bucket number only says it is listed: the run is
                 * told apart by the time (bucket_del()). */
                if (!q->run.live || after_tail(&q->run, ev)) {
                        ev->bucket = 0;
                        chain_append(q, &q->run, ev);
                } else {
                        heap_push(&q->heap, &ev->node, ev->when, ev->seq);
                }
        } else if (ev->when - q->base < SPAN(q)) {
                bucket_add(q, (int32_t)((uint64_t)ev->when >> q->shift & MASK(q)), ev);
        } else {
                place_overflow(q, ev);
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
                q->migrated++;
                place(q, ev);
        }
}

/* Every pending event, from the earliest part of the queue to the latest,
 * so that events which land in one bucket mostly come in order. */
static struct event **gather_heap(struct event **to, const struct heap *h)
{
        for (uint32_t i = 0; i < heap_size(h); i++)
                *to++ = container_of(heap_slot_at(h, i)->node, struct event, node);
        return to;
}

/* The events of @bk's chain from slot @pos of its head chunk. */
static struct event **gather_chain(struct event **to, const struct eventq *q,
                                   const struct eventq_bucket *bk, uint32_t pos)
{
        for (uint32_t c = bk->head; c != EVENTQ_NIL; c = q->chunks[c].next, pos = 0)
                for (uint32_t i = pos; i < chunk_end(bk, c); i++)
                        if (q->chunks[c].ev[i])
                                *to++ = q->chunks[c].ev[i];
        return to;
}

/* Room for @n event pointers, kept from one resize to the next: on a
 * large queue fresh pages cost more than the resize's own work. */
static struct event **scratch(struct eventq *q, uint64_t n)
{
        if (n > q->scratch_cap) {
                q->scratch_cap = MAX(n, 2 * q->scratch_cap);
                g_free(q->scratch);
                q->scratch = g_new(struct event *, q->scratch_cap);
        }
        return q->scratch;
}

/* Re-place every pending event (the heap's and the run's too: they are
 * empty afterwards, so the base restarts at the earliest event) for
 * buckets of 2^shift ns, earliest part of the queue first, so that few
 * buckets are filled out of (time, sequence) order; pour() sorts those. */
static void resize(struct eventq *q, int shift, uint32_t nbuckets)
{
        struct event **all = scratch(q, npending(q));
        struct event **end = all;
        uint32_t base_bucket = (uint32_t)((uint64_t)q->base >> q->shift) & MASK(q);
        sim_time_ns first = SIM_TIME_NEVER;
        uint32_t n;

        end = gather_heap(end, &q->heap);
        heap_clear(&q->heap);
        end = gather_chain(end, q, &q->run, q->run_pos);
        bucket_reset(&q->run);
        q->run_pos = 0;
        for (uint32_t k = 0; k < q->nbuckets; k++) {
                uint32_t b = (base_bucket + k) & MASK(q);

                if (q->buckets[b].head == EVENTQ_NIL)
                        continue;
                end = gather_chain(end, q, &q->buckets[b], 0);
                bucket_reset(&q->buckets[b]);
        }
        end = gather_heap(end, &q->overflow);
        heap_clear(&q->overflow);
        /* Every chunk is free again: start the array afresh. */
        q->nchunks = 1;
        q->free_chunk = EVENTQ_NIL;
        memset(q->nonempty, 0, q->nbuckets / 8);
        memset(q->disordered, 0, q->nbuckets / 8);
        q->listed = 0;
        q->noverflow = 0;
        q->shift = shift;
        q->nbuckets = nbuckets;
        n = (uint32_t)(end - all);
        for (uint32_t i = 0; i < n; i++)
                first = MIN(first, all[i]->when);
        /* The base must be a multiple of the new width.  With nothing
         * pending it may only move forward: later events earlier than it
         * simply go to the heap. */
        if (n)
                q->base = first & ~(WIDTH(q) - 1);
        else
                q->base = (q->base + WIDTH(q) - 1) & ~(WIDTH(q) - 1);
        for (uint32_t i = 0; i < n; i++) {
                all[i]->bucket = -1;
                place(q, all[i]);
        }
}

/* About a bucket per pending event.  At eight events per bucket's width
 * the calendar then reaches eight times as far ahead as the mean pending
 * event (Little's law): few go to the overflow heap, and a calendar no
 * larger than that keeps the buckets in use in the cache and the TLB. */
static uint32_t buckets_for(uint64_t pending)
{
        if (pending <= EVENTQ_BUCKETS_MIN)
                return EVENTQ_BUCKETS_MIN;
        if (pending >= EVENTQ_BUCKETS_MAX)
                return EVENTQ_BUCKETS_MAX;
        return 1u << g_bit_storage((gulong)pending - 1);
}

/* Width for the current density: about eight events per bucket, from the
 * mean time between pops since the last look, looked at no more often
 * than once per (number pending) pops, so that a resize costs O(1) per
 * event.  Bursts (every CPU's tick at once) average out over so many.
 * The number of buckets follows the number pending, when that has moved
 * fourfold; and doubles, up to twice that, while more than one pop in 32
 * came back from the overflow: the pending events' mean lead is no guide
 * when many wait far longer (1,024 CPUs: 13% of the events went through
 * the overflow heap, O(log n) each, with a reach of 4 ms and 5 ms sleeps). */
static void maybe_resize(struct eventq *q)
{
        uint64_t pending = npending(q);
        uint32_t count;
        uint64_t per8;
        bool far;
        int want;

        if (q->pops_since_check < MAX(pending, 4096))
                return;
        count = buckets_for(pending);
        per8 = (uint64_t)(q->last_pop - q->checked_at) * 8 / q->pops_since_check;
        far = (uint64_t)q->migrated * 32 > q->pops_since_check;
        q->checked_at = q->last_pop;
        q->pops_since_check = 0;
        q->migrated = 0;
        want = (int)g_bit_storage((gulong)per8 + 1) - 1;
        want = CLAMP(want, 0, MAX_SHIFT);
        /* Only when two looks in a row agree: one burst is not a trend. */
        if (ABS(want - q->shift) >= 2 && ABS(q->wanted - q->shift) >= 2 &&
            (want > q->shift) == (q->wanted > q->shift))
                resize(q, (want + q->wanted) / 2, count);
        else if (count >= 4 * q->nbuckets || 4 * count <= q->nbuckets)
                resize(q, q->shift, count);
        else if (far && q->nbuckets < 2 * count && q->nbuckets < EVENTQ_BUCKETS_MAX)
                resize(q, q->shift, 2 * q->nbuckets);
        q->wanted = want;
}

/* The earliest and latest times in @bk's chain. */
static void chain_span(const struct eventq *q, const struct eventq_bucket *bk,
                       sim_time_ns *lo, sim_time_ns *hi)
{
        *lo = SIM_TIME_NEVER;
        *hi = 0;
        for (uint32_t c = bk->head; c != EVENTQ_NIL; c = q->chunks[c].next) {
                for (uint32_t i = 0; i < chunk_end(bk, c); i++) {
                        const struct event *ev = q->chunks[c].ev[i];

                        if (ev) {
                                *lo = MIN(*lo, ev->when);
                                *hi = MAX(*hi, ev->when);
                        }
                }
        }
}

/* A crowded bucket would make a big heap: rather narrow the buckets to
 * about eight events each, and pour again.  A bucket this full cannot
 * recur until as many events have been scheduled, so the resize stays
 * cheap per event; and it re-places the events straight from the bucket,
 * in arrival order, so that they need no sorting where they land.  True
 * if it did. */
static bool narrow_for(struct eventq *q, const struct eventq_bucket *bk)
{
        sim_time_ns lo, hi;
        uint64_t per8;
        int want;

        if (bk->live <= RESIZE_CROWD || q->shift == 0)
                return false;
        chain_span(q, bk, &lo, &hi);
        per8 = (uint64_t)(hi - lo) * 8 / bk->live;
        want = (int)g_bit_storage((gulong)per8 + 1) - 1;
        if (want >= q->shift)
                return false;
        resize(q, want, buckets_for(npending(q)));
        return true;
}

/* An event's keys, copied out for sorting. */
struct eventq_sort_key {
        sim_time_ns when;
        int64_t seq;
        struct event *ev;
};

static inline bool key_after(const struct eventq_sort_key *x, const struct eventq_sort_key *y)
{
        return x->when > y->when || (x->when == y->when && x->seq > y->seq);
}

/* The same order for qsort(). */
static int by_key(const void *a, const void *b)
{
        return key_after(a, b) - key_after(b, a);
}

/* Sort @bk's chain in (time, sequence) order where it stands: its live
 * events packed from the head chunk's first slot, the chunks left over
 * freed.  The keys are copied out first: the events are long unread, and
 * loads in one pass with nothing between them overlap their misses, where
 * the comparisons of a sort would wait for each in turn.  By insertion,
 * which costs a step per event and per pair out of order: a bucket holds
 * about eight events, or else mostly arrivals in order (every CPU's tick)
 * with a few others among them. */
static void chain_sort(struct eventq *q, struct eventq_bucket *bk)
{
        struct eventq_sort_key *key;
        uint32_t c = bk->head, i = 0, n = 0, rest;

        if (bk->live > q->sort_keys_cap) {
                q->sort_keys_cap = MAX(bk->live, 2 * q->sort_keys_cap);
                g_free(q->sort_keys);
                q->sort_keys = g_new(struct eventq_sort_key, q->sort_keys_cap);
        }
        key = q->sort_keys;
        for (uint32_t k = bk->head; k != EVENTQ_NIL; k = q->chunks[k].next) {
                for (uint32_t j = 0; j < chunk_end(bk, k); j++) {
                        struct event *ev = q->chunks[k].ev[j];

                        if (ev)
                                key[n++] = (struct eventq_sort_key){ ev->when, ev->seq, ev };
                }
        }
        if (n > 256) {
                qsort(key, n, sizeof(*key), by_key);
        } else {
                for (uint32_t k = 1; k < n; k++) {
                        struct eventq_sort_key x = key[k];
                        uint32_t m = k;

                        for (; m && key_after(&key[m - 1], &x); m--)
                                key[m] = key[m - 1];
                        key[m] = x;
                }
        }
        for (uint32_t k = 0; k < n; k++, i++) {
                if (i == EVENTQ_CHUNK_SLOTS) {
                        c = q->chunks[c].next;
                        i = 0;
                }
                q->chunks[c].ev[i] = key[k].ev;
                key[k].ev->slot = c << EVENTQ_CHUNK_SHIFT | i;
        }
        rest = q->chunks[c].next;
        if (rest != EVENTQ_NIL) {
                q->chunks[bk->tail].next = q->free_chunk;
                q->free_chunk = rest;
                q->chunks[c].next = EVENTQ_NIL;
        }
        bk->tail = c;
        bk->fill = i;
        bk->live = n;
        bk->tail_when = key[n - 1].when;
        bk->tail_seq = key[n - 1].seq;
}

/* Fetch the first RUN_PREFETCH events of @bk (not empty). */
static void prefetch_first(const struct eventq *q, const struct eventq_bucket *bk)
{
        uint32_t n = MIN(chunk_end(bk, bk->head), RUN_PREFETCH);

        for (uint32_t k = 0; k < n; k++)
                __builtin_prefetch(q->chunks[bk->head].ev[k]);
}

/* Bucket @j, due next, leaves the calendar whole, as the run: sorted
 * first if it is out of order.  (Through the heap instead, every event
 * would cost a sift in and a sift out, and its reschedule another.) */
static void pour(struct eventq *q, int32_t j)
{
        struct eventq_bucket *bk = &q->buckets[j];

        if (BIT_TEST(q->disordered, j)) {
                if (narrow_for(q, bk))
                        return;
                chain_sort(q, bk);
                BIT_CLEAR(q->disordered, j);
        } else {
                /* Unsorted, its events are unread: fetch the first ones,
                 * run_take() fetches the rest as they come nearer. */
                prefetch_first(q, bk);
        }
        BIT_CLEAR(q->nonempty, j);
        q->run = *bk;
        q->run_pos = 0;
        bucket_reset(bk);
}

/* The bucket after @j, poured next unless earlier events come: fetch
 * its first events now, a run's worth of pops before they are read. */
static void prefetch_next_bucket(const struct eventq *q, int32_t j)
{
        int32_t nx = next_nonempty(q, ((uint32_t)j + 1) & MASK(q));

        if (nx >= 0)
                prefetch_first(q, &q->buckets[nx]);
}

/* Pour buckets until the heap or the run holds the next event, if there
 * is one. */
static G_GNUC_NO_INLINE void pour_next(struct eventq *q)
{
        while (heap_size(&q->heap) == 0 && !q->run.live) {
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
                i = (uint32_t)((uint64_t)q->base >> q->shift) & MASK(q);
                j = next_nonempty(q, i);
                q->base += (int64_t)((((uint32_t)j - i) & MASK(q)) + 1) << q->shift;
                pour(q, j);
                prefetch_next_bucket(q, j);
        }
}

/* Make the heap or the run hold the next event, if there is one: most
 * pops find one there, without a call. */
static inline void refill(struct eventq *q)
{
        if (heap_size(&q->heap) == 0 && !q->run.live)
                pour_next(q);
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

/* eventq_schedule() of an event that may be pending. */
static G_GNUC_NO_INLINE void reschedule(struct eventq *q, struct event *ev, sim_time_ns when, int64_t seq)
{
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

void eventq_schedule(struct eventq *q, struct event *ev, sim_time_ns when)
{
        /* A fresh sequence number even on reschedule: a moved event goes
         * behind those already due at the same instant. */
        int64_t seq = q->next_seq++;

        /* Most often the event is idle (a burn or a sleep that begins):
         * this path alone is inline, with few registers to save. */
        if (ev->bucket >= 0 || heap_node_queued(&ev->node)) {
                reschedule(q, ev, when, seq);
                return;
        }
        ev->when = when;
        ev->seq = seq;
        place(q, ev);
}

void eventq_cancel(struct eventq *q, struct event *ev)
{
        unlink_event(q, ev);
}

/* The run's first event past holes and whole chunks of them (freeing the
 * chunks left behind); the run is not empty. */
static G_GNUC_NO_INLINE struct event *run_skip_holes(struct eventq *q)
{
        for (;;) {
                const struct eventq_chunk *c = &q->chunks[q->run.head];
                uint32_t end = chunk_end(&q->run, q->run.head), next;

                for (; q->run_pos < end; q->run_pos++)
                        if (c->ev[q->run_pos])
                                return c->ev[q->run_pos];
                /* live > 0: a later chunk holds it. */
                next = c->next;
                q->chunks[q->run.head].next = q->free_chunk;
                q->free_chunk = q->run.head;
                q->run.head = next;
                q->run_pos = 0;
        }
}

/* The run's first event; NULL when the run is empty.  Most often the
 * slot at run_pos holds it, found without a call. */
static inline struct event *run_head(struct eventq *q)
{
        struct event *ev;

        if (!q->run.live)
                return NULL;
        if (q->run_pos < chunk_end(&q->run, q->run.head) &&
            (ev = q->chunks[q->run.head].ev[q->run_pos]))
                return ev;
        return run_skip_holes(q);
}

/* The run's head when it is due before the heap's root, else NULL. */
static inline struct event *run_first(struct eventq *q)
{
        struct event *r = run_head(q);
        const struct heap_slot *root;

        if (!r || !heap_size(&q->heap))
                return r;
        root = heap_slot_at(&q->heap, 0);
        return r->when < root->key || (r->when == root->key && r->seq < root->tie) ? r : NULL;
}

/* Take the run's head (run_first() found it). */
static void run_take(struct eventq *q, struct event *ev)
{
        uint32_t ahead;

        ev->bucket = -1;
        q->listed--;
        q->run_pos++;
        if (!--q->run.live) {
                chain_free(q, &q->run);
                q->run_pos = 0;
                return;
        }
        /* Slots past a chain's fill hold stale pointers: never read them. */
        ahead = q->run_pos + RUN_PREFETCH;
        if (ahead < EVENTQ_CHUNK_SLOTS) {
                if (ahead < chunk_end(&q->run, q->run.head))
                        __builtin_prefetch(q->chunks[q->run.head].ev[ahead]);
        } else {
                uint32_t next = q->chunks[q->run.head].next;

                ahead -= EVENTQ_CHUNK_SLOTS;
                if (next != EVENTQ_NIL && ahead < chunk_end(&q->run, next))
                        __builtin_prefetch(q->chunks[next].ev[ahead]);
        }
}

struct event *eventq_pop_until(struct eventq *q, sim_time_ns limit)
{
        struct heap_node *n;
        struct event *ev;

        eventq_settle(q);
        refill(q);
        if ((ev = run_first(q))) {
                if (ev->when > limit)
                        return NULL;
                run_take(q, ev);
        } else {
                n = heap_peek(&q->heap);
                if (!n || heap_peek_key(&q->heap) > limit)
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

struct event *eventq_pop(struct eventq *q)
{
        return eventq_pop_until(q, SIM_TIME_NEVER);
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
        return npending(q);
}
