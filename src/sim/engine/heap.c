/* heap.c - indexed binary min-heap; see heap.h. */
#include "heap.h"

#include <glib.h>

void heap_init(struct heap *h)
{
        h->v = NULL;
        h->n = 0;
        h->cap = 0;
}

void heap_finish(struct heap *h)
{
        g_free(h->v);
        heap_init(h);
}

void heap_node_init(struct heap_node *node)
{
        node->slot = HEAP_NOT_QUEUED;
}

static inline bool slot_less(const struct heap_slot *a, const struct heap_slot *b)
{
        return a->key < b->key || (a->key == b->key && a->tie < b->tie);
}

static inline void place(struct heap *h, uint32_t i, struct heap_slot s)
{
        h->v[i] = s;
        s.node->slot = i;
}

/* A 4-ary heap: half the depth of a binary one, and the four children of
 * a slot share a cache line or two, so a sift touches fewer lines. */
#define ARITY 4

/* The sifts take the slot being placed by value and fill the hole at @i:
 * written to the array first and read back, it made the load wait for
 * the stores that had just written it (a 16-byte load from three stores
 * is not forwarded; it was half of sift_up()'s samples). */
static void sift_up(struct heap *h, uint32_t i, struct heap_slot s)
{
        while (i > 0) {
                uint32_t parent = (i - 1) / ARITY;

                if (!slot_less(&s, &h->v[parent]))
                        break;
                place(h, i, h->v[parent]);
                i = parent;
        }
        place(h, i, s);
}

static void sift_down(struct heap *h, uint32_t i, struct heap_slot s)
{
        for (;;) {
                uint32_t first = ARITY * i + 1;
                uint32_t last = MIN(first + ARITY, h->n);
                uint32_t child = first;

                if (first >= h->n)
                        break;
                for (uint32_t c = first + 1; c < last; c++)
                        if (slot_less(&h->v[c], &h->v[child]))
                                child = c;
                if (!slot_less(&h->v[child], &s))
                        break;
                place(h, i, h->v[child]);
                i = child;
        }
        place(h, i, s);
}

/* Put @s in the hole at @i, above or below as its keys say. */
static void sift(struct heap *h, uint32_t i, struct heap_slot s)
{
        if (i > 0 && slot_less(&s, &h->v[(i - 1) / ARITY]))
                sift_up(h, i, s);
        else
                sift_down(h, i, s);
}

void heap_push(struct heap *h, struct heap_node *node, int64_t key, int64_t tie)
{
        g_return_if_fail(!heap_node_queued(node));

        if (h->n == h->cap) {
                h->cap = h->cap ? h->cap * 2 : 64;
                h->v = g_renew(struct heap_slot, h->v, h->cap);
        }
        sift_up(h, h->n++, (struct heap_slot){ .key = key, .tie = tie, .node = node });
}

void heap_remove(struct heap *h, struct heap_node *node)
{
        uint32_t i = node->slot;

        g_return_if_fail(i < h->n && h->v[i].node == node);

        node->slot = HEAP_NOT_QUEUED;
        if (--h->n == i)
                return;
        /* The last slot fills the hole; it may belong above or below. */
        sift(h, i, h->v[h->n]);
}

struct heap_node *heap_pop(struct heap *h)
{
        struct heap_node *top = heap_peek(h);

        if (top)
                heap_remove(h, top);
        return top;
}

void heap_rekey(struct heap *h, struct heap_node *node, int64_t key, int64_t tie)
{
        uint32_t i = node->slot;

        g_return_if_fail(i < h->n && h->v[i].node == node);

        sift(h, i, (struct heap_slot){ .key = key, .tie = tie, .node = node });
}

void heap_clear(struct heap *h)
{
        for (uint32_t i = 0; i < h->n; i++)
                h->v[i].node->slot = HEAP_NOT_QUEUED;
        h->n = 0;
}
