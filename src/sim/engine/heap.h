/* heap.h - indexed 4-ary min-heap.
 *
 * The engine keeps two kinds of ordered sets: the event queue (by time, then
 * sequence number) and each CPU's run queue (by priority, then FIFO order or
 * virtual runtime).  Both need O(log n) insert, remove-from-the-middle and
 * re-key, so both use this heap.  Nodes are embedded in their owners (an
 * event in a task, a task's run-queue link) and remember their slot, so no
 * allocation happens on the hot path and cancelling is a sift, not a search.
 *
 * Keys are stored inline in the slot array next to the node pointer, so a
 * sift compares without touching the owners' cache lines.
 */
#ifndef RCUBOOST_HEAP_H
#define RCUBOOST_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HEAP_NOT_QUEUED UINT32_MAX

struct heap_node {
        uint32_t slot;          /* index in heap->v, or HEAP_NOT_QUEUED */
};

struct heap_slot {
        int64_t key;            /* primary order */
        int64_t tie;            /* secondary order */
        struct heap_node *node;
};

struct heap {
        struct heap_slot *v;
        uint32_t n;
        uint32_t cap;
};

void heap_init(struct heap *h);
void heap_finish(struct heap *h);
void heap_node_init(struct heap_node *node);

static inline bool heap_node_queued(const struct heap_node *node)
{
        return node->slot != HEAP_NOT_QUEUED;
}

static inline uint32_t heap_size(const struct heap *h)
{
        return h->n;
}

/* The smallest node, or NULL when empty. */
static inline struct heap_node *heap_peek(const struct heap *h)
{
        return h->n ? h->v[0].node : NULL;
}

static inline int64_t heap_peek_key(const struct heap *h)
{
        return h->v[0].key;
}

void heap_push(struct heap *h, struct heap_node *node, int64_t key, int64_t tie);
struct heap_node *heap_pop(struct heap *h);
void heap_remove(struct heap *h, struct heap_node *node);
/* Empty the heap at once, in no order (read it with heap_slot_at first). */
void heap_clear(struct heap *h);
/* Change the keys of a queued node and restore the order. */
void heap_rekey(struct heap *h, struct heap_node *node, int64_t key, int64_t tie);
/* Slot @i, for callers that must scan every queued node (rare paths). */
static inline const struct heap_slot *heap_slot_at(const struct heap *h, uint32_t i)
{
        return &h->v[i];
}

#endif
