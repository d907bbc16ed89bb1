/* cpupri.h - CPUs by the priority of what they run, as Linux's cpupri.
 *
 * Placing a waking or pushed RT task means finding the allowed CPU that
 * runs the least urgent thing.  Scanning every CPU costs O(CPUs) per
 * wakeup; instead each CPU sits in the set of its rank (the priority of
 * its current task, PRIO_IDLE when idle; in none while RT-throttled), and
 * a bitmap says which sets are not empty, so a search looks at the ranks
 * in use from idle up.  The scheduler calls cpupri_set() whenever what a
 * CPU runs, that task's priority or the CPU's throttling changes.
 */
#ifndef RCUBOOST_CPUPRI_H
#define RCUBOOST_CPUPRI_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/cpumask.h"
#include "../scenario/units.h"

#define CPUPRI_RANKS (PRIO_IDLE + 1)
#define CPUPRI_NONE (-1)                /* in no set: throttled */

struct cpupri {
        struct cpumask cpus[CPUPRI_RANKS];
        int count[CPUPRI_RANKS];
        uint64_t used[(CPUPRI_RANKS + 63) / 64];
        int rank_of[SIM_MAX_CPUS];      /* each CPU's rank, or CPUPRI_NONE */
        int ncpus;
};

/* Every CPU at rank @rank (PRIO_IDLE: idle; CPUPRI_NONE: in no set). */
void cpupri_init(struct cpupri *cp, int ncpus, int rank);
void cpupri_move(struct cpupri *cp, int cpu, int to);

/* Put @cpu in the set of rank @to (CPUPRI_NONE: in none). */
static inline void cpupri_set(struct cpupri *cp, int cpu, int to)
{
        if (cp->rank_of[cpu] != to)
                cpupri_move(cp, cpu, to);
}

static inline int cpupri_rank(const struct cpupri *cp, int cpu)
{
        return cp->rank_of[cpu];
}

/* The lowest rank at or above @from whose set is not empty, or -1: to walk
 * the sets from the most urgent rank up. */
static inline int cpupri_next_rank(const struct cpupri *cp, int from)
{
        for (unsigned w = CPUMASK_WORD(from); from >= 0 && w < (CPUPRI_RANKS + 63) / 64; w++) {
                uint64_t used = cp->used[w];

                if (w == CPUMASK_WORD(from))
                        used &= ~(CPUMASK_BIT(from) - 1);
                if (used)
                        return (int)(w * 64) + __builtin_ctzll(used);
        }
        return -1;
}

/* An allowed CPU other than @skip (or -1) whose rank is the highest and
 * above @above: @prefer if it is among them, else the lowest-numbered;
 * -1 if none. */
int cpupri_find(const struct cpupri *cp, const struct cpumask *allowed, int above, int prefer, int skip);

/* cpupri_find() as 6.1 has it: the allowed CPUs at the highest rank (the
 * least urgent) above @above, into @out; that rank, or -1 (@out empty). */
int cpupri_lowest(const struct cpupri *cp, const struct cpumask *allowed, int above, struct cpumask *out);
/* For the invariant checks: do the sets a search looks at agree with
 * the CPUs' ranks? */
bool cpupri_consistent(const struct cpupri *cp);

#endif
