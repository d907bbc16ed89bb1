/* bareheap.c - the baseline: a bare 4-ary heap of (time, seq), as
 * ../shared/bench/bare-heap.c, with its code and random draws.
 *
 * meson.build compiles this file alone as that reference says to build it
 * (cc -O2, no link-time optimisation), whatever the engine's own flags:
 * a ratio to a baseline that moves with our build options would measure
 * the options, not the engine.  (At 1e6 pending, -O3 with LTO made this
 * loop 20% slower here, and every ratio at 1e6 as much larger.)
 */
#include "bareheap.h"

#include <glib.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

struct bare_key {
        uint64_t t, seq;
};

static inline bool bare_lt(struct bare_key a, struct bare_key b)
{
        return a.t < b.t || (a.t == b.t && a.seq < b.seq);
}

static void bare_push(struct bare_key *h, size_t *n, struct bare_key k)
{
        size_t i = (*n)++;

        while (i) {
                size_t p = (i - 1) / 4;

                if (!bare_lt(k, h[p]))
                        break;
                h[i] = h[p];
                i = p;
        }
        h[i] = k;
}

static struct bare_key bare_pop(struct bare_key *h, size_t *n)
{
        struct bare_key top = h[0], last = h[--*n];
        size_t i = 0;

        for (;;) {
                size_t c = 4 * i + 1, best = c;

                if (c >= *n)
                        break;
                for (size_t k = c + 1; k < c + 4 && k < *n; k++)
                        if (bare_lt(h[k], h[best]))
                                best = k;
                if (!bare_lt(h[best], last))
                        break;
                h[i] = h[best];
                i = best;
        }
        h[i] = last;
        return top;
}

/* exp(mean 100 ns) from xorshift64, exactly as bare-heap.c draws it. */
static inline uint64_t bare_expo(uint64_t *x)
{
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        return (uint64_t)(-100.0 * log(1.0 - (double)(*x >> 11) * 0x1.0p-53));
}

double bare_heap_run(int population, double *events)
{
        enum { EVENTS = 1000000 };
        struct bare_key *h = g_new(struct bare_key, population + 1);
        uint64_t x = 88172645463325252ull, seq = 0;
        size_t n = 0;
        gint64 t0;
        double wall_s;

        for (int i = 0; i < population; i++)
                bare_push(h, &n, (struct bare_key){ bare_expo(&x), seq++ });
        t0 = g_get_monotonic_time();
        for (int i = 0; i < EVENTS; i++) {
                struct bare_key k = bare_pop(h, &n);

                bare_push(h, &n, (struct bare_key){ k.t + bare_expo(&x), seq++ });
        }
        wall_s = (double)(g_get_monotonic_time() - t0) / 1e6;
        *events = EVENTS;
        g_free(h);
        return wall_s;
}
