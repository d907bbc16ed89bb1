/* cpumask.h - fixed-size CPU sets for affinity masks.
 *
 * Fixed size keeps a task's mask inline (no allocation, trivially copied);
 * SIM_MAX_CPUS bounds what a scenario may ask for.
 */
#ifndef RCUBOOST_CPUMASK_H
#define RCUBOOST_CPUMASK_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define SIM_MAX_CPUS 1024
#define CPUMASK_WORDS (SIM_MAX_CPUS / 64)

struct cpumask {
        uint64_t w[CPUMASK_WORDS];
};

/* A CPU's word and bit.  Unsigned: a CPU number is never negative, and
 * dividing a signed int by 64 costs a fix-up for negatives on every test. */
#define CPUMASK_WORD(cpu) ((unsigned)(cpu) / 64)
#define CPUMASK_BIT(cpu) (UINT64_C(1) << ((unsigned)(cpu) % 64))

static inline void cpumask_clear(struct cpumask *m)
{
        memset(m, 0, sizeof(*m));
}

static inline void cpumask_set(struct cpumask *m, int cpu)
{
        m->w[CPUMASK_WORD(cpu)] |= CPUMASK_BIT(cpu);
}

static inline bool cpumask_test(const struct cpumask *m, int cpu)
{
        return m->w[CPUMASK_WORD(cpu)] & CPUMASK_BIT(cpu);
}

/* Word @i of the set of CPUs 0 .. @ncpus - 1. */
static inline uint64_t cpumask_fill_word(int i, int ncpus)
{
        int bits = ncpus - i * 64;

        return bits >= 64 ? ~UINT64_C(0) : bits <= 0 ? 0 : (UINT64_C(1) << bits) - 1;
}

static inline void cpumask_fill(struct cpumask *m, int ncpus)
{
        for (int i = 0; i < CPUMASK_WORDS; i++)
                m->w[i] = cpumask_fill_word(i, ncpus);
}

/* Does @m hold exactly the CPUs 0 .. @ncpus - 1? */
static inline bool cpumask_full(const struct cpumask *m, int ncpus)
{
        for (int i = 0; i < CPUMASK_WORDS; i++)
                if (m->w[i] != cpumask_fill_word(i, ncpus))
                        return false;
        return true;
}

static inline int cpumask_first(const struct cpumask *m)
{
        for (int i = 0; i < CPUMASK_WORDS; i++)
                if (m->w[i])
                        return i * 64 + __builtin_ctzll(m->w[i]);
        return -1;
}

static inline void cpumask_clear_cpu(struct cpumask *m, int cpu)
{
        m->w[CPUMASK_WORD(cpu)] &= ~CPUMASK_BIT(cpu);
}

/* First CPU below @ncpus set in both @a and @b, or -1. */
static inline int cpumask_first_and(const struct cpumask *a, const struct cpumask *b, int ncpus)
{
        for (int i = 0; i < (ncpus + 63) / 64; i++) {
                uint64_t w = a->w[i] & b->w[i];

                if (w)
                        return i * 64 + __builtin_ctzll(w);
        }
        return -1;
}

/* The first CPU in @m at or after @from, wrapping round below @ncpus
 * (find_next_bit_wrap()), or -1 if @m is empty. */
static inline int cpumask_next_wrap(const struct cpumask *m, int from, int ncpus)
{
        for (int k = 0; k < ncpus; k++) {
                int c = (from + k) % ncpus;

                if (cpumask_test(m, c))
                        return c;
        }
        return -1;
}

/* Is any CPU below @ncpus other than @cpu set in @m? */
static inline bool cpumask_any_but(const struct cpumask *m, int cpu, int ncpus)
{
        for (int i = 0; i < (ncpus + 63) / 64; i++) {
                uint64_t w = m->w[i];

                if ((unsigned)i == CPUMASK_WORD(cpu))
                        w &= ~CPUMASK_BIT(cpu);
                if (w)
                        return true;
        }
        return false;
}

/* for_each_cpu(c, mask, ncpus) { ... }: the set CPUs below ncpus, in order. */
#define for_each_cpu(c, mask, ncpus) \
        for (int _w = 0; _w < ((ncpus) + 63) / 64; _w++) \
                for (uint64_t _b = (mask)->w[_w]; _b && ((c) = _w * 64 + __builtin_ctzll(_b), 1); \
                     _b &= _b - 1)

#endif
