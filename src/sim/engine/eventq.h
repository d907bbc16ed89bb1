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
 * Only the near future is sorted.  Events due at or after `base` wait in a
 * calendar of buckets of 2^k ns (about one bucket per pending event, up to
 * two while many come back from beyond its reach; 4,096 to 65,536 of
 * them), or beyond its reach in an overflow heap; when
 * nothing before `base` is left, the next bucket is poured.  A bucket is a
 * chain of chunks of event pointers, appended at its tail, and events
 * often arrive in (time, sequence) order -- always in a bucket 1 ns wide,
 * where every event is due at the same instant and the sequence number is
 * the newest.  A bucket that stayed in order becomes the run, popped from
 * its front in O(1) without being sorted; any other is sorted where it
 * stands first (it holds about eight events).  An event scheduled before
 * `base` joins the run's tail when it comes after it, else goes into a
 * 4-ary heap; pops take the earlier of the run's head and the heap's root.
 * Chunks, not lists threaded through the events: the run's next events
 * are known without reading this one, so they are fetched from memory
 * ahead of their turn instead of one dependent miss at a time.  A
 * cancelled event leaves a hole (NULL) in its chunk.
 *
 * As in Brown's calendar queue the width follows the density of events:
 * narrowed at once when a bucket out of order holds more than 4,096
 * events, and otherwise re-chosen (about eight times the mean time between
 * pops) at most once per (number pending) pops, as is the number of
 * buckets.  A resize re-places every event, earliest first, so that few
 * buckets are left out of order (they are sorted when poured).
 * So most insertions, cancellations and pops are O(1), and the heap holds
 * a few events and stays in cache, whatever the number pending.  Order is
 * still exactly (time, sequence): everything in the heap and the run is
 * due before everything in the calendar.
 *
 * Most handlers schedule their own event again (a tick, a task burning its
 * next stretch of CPU).  So eventq_pop() leaves an event it takes from the
 * heap at the root, marked fired: rescheduling it then is a single sift
 * down instead of a removal plus an insertion.  It is really removed at the
 * next pop, or when the queue is looked at, if nobody rescheduled it.  (An
 * event from the run is simply stepped over.)
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
        struct heap_node node;  /* in the heap */
        int32_t bucket;         /* calendar bucket (or the one it came from, in the
                                 * run), EVENTQ_OVERFLOW (node is then in the
                                 * overflow heap), or -1 */
        sim_time_ns when;
        event_fn fn;
        int64_t seq;
        uint32_t slot;          /* in a bucket or the run: chunk << EVENTQ_CHUNK_SHIFT | index */
        int fired;              /* popped, still physically at the heap's root */
};

#define EVENTQ_WIDTH_SHIFT 10                   /* to start with: 1024 ns per bucket */
#define EVENTQ_BUCKETS_MIN (1u << 12)
#define EVENTQ_BUCKETS_MAX (1u << 16)
#define EVENTQ_OVERFLOW ((int32_t)EVENTQ_BUCKETS_MAX)
#define EVENTQ_CHUNK_SHIFT 5
#define EVENTQ_CHUNK_SLOTS ((1u << EVENTQ_CHUNK_SHIFT) - 1)     /* 31: a chunk is 256 bytes */
#define EVENTQ_SLOT_INDEX(slot) ((slot) & ((1u << EVENTQ_CHUNK_SHIFT) - 1))   /* the index part of a slot */
#define EVENTQ_SLOT_CHUNK(slot) ((slot) >> EVENTQ_CHUNK_SHIFT)                /* its chunk */
#define EVENTQ_NIL 0u                            /* no chunk: chunk 0 is never used */

struct eventq_chunk {
        uint32_t next;                          /* in its chain, or the free list */
        struct event *ev[EVENTQ_CHUNK_SLOTS];   /* in arrival order; NULL: a hole */
};

/* A bucket, or the run: a chain of chunks. */
struct eventq_bucket {
        uint32_t head, tail;            /* chunk indices; EVENTQ_NIL when empty */
        uint32_t fill;                  /* slots used in the tail chunk */
        uint32_t live;                  /* events in the chain, holes not counted */
        sim_time_ns tail_when;          /* the last appended event's keys, so that */
        int64_t tail_seq;               /* appending need not look at it */
};

struct eventq_sort_key;

struct eventq {
        struct heap heap;               /* events due before base ... */
        struct eventq_bucket run;       /* ... and more of them, in order, from run_pos */
        uint32_t run_pos;               /* in the run's head chunk */
        struct eventq_bucket *buckets;  /* the calendar: room for EVENTQ_BUCKETS_MAX */
        uint32_t nbuckets;              /* in use, a power of two */
        struct eventq_chunk *chunks;    /* every chunk, by index (so they may move) */
        uint32_t nchunks, chunks_cap;
        uint32_t free_chunk;            /* head of the free list, or EVENTQ_NIL */
        struct event **scratch;         /* resize()'s, kept for the next one */
        uint64_t scratch_cap;
        struct eventq_sort_key *sort_keys;      /* chain_sort()'s, likewise */
        uint32_t sort_keys_cap;
        uint64_t *nonempty;             /* bitmap of non-empty buckets */
        uint64_t *disordered;           /* bitmap of buckets not in (time, seq) order */
        uint64_t listed;                /* events in buckets or the run */
        struct heap overflow;           /* events beyond the calendar's reach, by time */
        uint64_t noverflow;
        sim_time_ns base;               /* start of the next bucket to pour */
        int shift;                      /* bucket width is 2^shift ns */
        sim_time_ns last_pop;           /* when the last popped event was due */
        sim_time_ns checked_at;         /* last_pop when the width was last looked at */
        uint64_t pops_since_check;
        int wanted;                     /* the width that look asked for */
        uint32_t migrated;              /* events in from the overflow since then */
        int64_t next_seq;
        uint64_t fired;                 /* events handed out by eventq_pop() */
        struct event *last;             /* the fired event at the root, if any */
};

void eventq_init(struct eventq *q);
void eventq_finish(struct eventq *q);

void event_init(struct event *ev, event_fn fn);

static inline int event_pending(const struct event *ev)
{
        return (heap_node_queued(&ev->node) && !ev->fired) || ev->bucket >= 0;
}

/* Make @ev fire at @when, whether or not it was pending. */
void eventq_schedule(struct eventq *q, struct event *ev, sim_time_ns when);
void eventq_cancel(struct eventq *q, struct event *ev);
/* The next event, removed from the queue, or NULL when none is left. */
struct event *eventq_pop(struct eventq *q);
/* The same if it is due at or before @limit, else NULL (and nothing
 * removed): the engine's loop, without a separate look ahead. */
struct event *eventq_pop_until(struct eventq *q, sim_time_ns limit);

/* Remove the last popped event if nobody rescheduled it. */
void eventq_settle(struct eventq *q);

/* When the next event is due (SIM_TIME_NEVER if none). */
sim_time_ns eventq_next_time(struct eventq *q);
uint64_t eventq_size(struct eventq *q);

#endif
