/* cpupri.c - CPUs by the priority of what they run; see cpupri.h. */
#include "cpupri.h"

#define USED_BIT(r) CPUMASK_BIT(r)      /* ranks are bits as CPUs are */

void cpupri_init(struct cpupri *cp, int ncpus, int rank)
{
        *cp = (struct cpupri){ .ncpus = ncpus };
        for (int c = 0; c < ncpus; c++) {
                cp->rank_of[c] = CPUPRI_NONE;
                cpupri_set(cp, c, rank);
        }
}

void cpupri_move(struct cpupri *cp, int cpu, int to)
{
        int from = cp->rank_of[cpu];

        if (from != CPUPRI_NONE) {
                cpumask_clear_cpu(&cp->cpus[from], cpu);
                if (--cp->count[from] == 0)
                        cp->used[CPUMASK_WORD(from)] &= ~USED_BIT(from);
        }
        if (to != CPUPRI_NONE) {
                cpumask_set(&cp->cpus[to], cpu);
                if (cp->count[to]++ == 0)
                        cp->used[CPUMASK_WORD(to)] |= USED_BIT(to);
        }
        cp->rank_of[cpu] = to;
}

/* The lowest-numbered CPU in @m and @allowed but @skip, or -1. */
static int first_allowed(const struct cpupri *cp, const struct cpumask *m, const struct cpumask *allowed, int skip)
{
        for (int i = 0; i < (cp->ncpus + 63) / 64; i++) {
                uint64_t bits = m->w[i] & allowed->w[i];

                if (skip >= 0 && CPUMASK_WORD(skip) == (unsigned)i)
                        bits &= ~CPUMASK_BIT(skip);
                if (bits)
                        return i * 64 + __builtin_ctzll(bits);
        }
        return -1;
}

int cpupri_find(const struct cpupri *cp, const struct cpumask *allowed, int above, int prefer, int skip)
{
        for (int w = (CPUPRI_RANKS + 63) / 64 - 1; w >= 0; w--) {
                for (uint64_t used = cp->used[w]; used; ) {
                        int bit = 63 - __builtin_clzll(used);
                        int r = w * 64 + bit;
                        const struct cpumask *m = &cp->cpus[r];
                        int c;

                        used &= ~(UINT64_C(1) << bit);
                        if (r <= above)
                                return -1;
                        if (prefer >= 0 && prefer != skip && cpumask_test(m, prefer) &&
                            cpumask_test(allowed, prefer))
                                return prefer;
                        if ((c = first_allowed(cp, m, allowed, skip)) >= 0)
                                return c;
                }
        }
        return -1;
}

int cpupri_lowest(const struct cpupri *cp, const struct cpumask *allowed, int above, struct cpumask *out)
{
        cpumask_clear(out);
        for (int w = (CPUPRI_RANKS + 63) / 64 - 1; w >= 0; w--) {
                for (uint64_t used = cp->used[w]; used; ) {
                        int bit = 63 - __builtin_clzll(used);
                        int r = w * 64 + bit;
                        bool any = false;

                        used &= ~(UINT64_C(1) << bit);
                        if (r <= above)
                                return -1;
                        for (int i = 0; i < (cp->ncpus + 63) / 64; i++) {
                                out->w[i] = cp->cpus[r].w[i] & allowed->w[i];
                                any |= out->w[i] != 0;
                        }
                        if (any)
                                return r;
                }
        }
        return -1;
}

bool cpupri_consistent(const struct cpupri *cp)
{
        int total = 0;

        /* Each CPU in its own set, marked used; the used sets hold exactly
         * their count, and those add up to the CPUs: then no CPU is in a
         * wrong set that a search looks at. */
        for (int c = 0; c < cp->ncpus; c++) {
                int r = cp->rank_of[c];

                if (r == CPUPRI_NONE)
                        continue;
                if (!cpumask_test(&cp->cpus[r], c) || !(cp->used[CPUMASK_WORD(r)] & USED_BIT(r)))
                        return false;
                total++;
        }
        for (int w = 0; w < (CPUPRI_RANKS + 63) / 64; w++) {
                for (uint64_t used = cp->used[w]; used; used &= used - 1) {
                        int r = w * 64 + __builtin_ctzll(used);
                        int n = 0;

                        for (int i = 0; i < (cp->ncpus + 63) / 64; i++)
                                n += __builtin_popcountll(cp->cpus[r].w[i]);
                        if (n == 0 || n != cp->count[r])
                                return false;
                        total -= n;
                }
        }
        return total == 0;
}
