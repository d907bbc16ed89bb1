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

#include "cpumask.h"
#include "units.h"

#define CPUPRI_RANKS (PRIO_IDLE + 1)
#define CPUPRI_NONE (-1)                /* in no set: throttled */

struct cpupri {
        struct cpumask cpus[CPUPRI_RANKS];
        int count[CPUPRI_RANKS];
        uint64_t used[(CPUPRI_RANKS + 63) / 64];
        int ncpus;
};

/* Every CPU idle. */
void cpupri_init(struct cpupri *cp, int ncpus);
/* Move @cpu from rank @from to rank @to (either may be CPUPRI_NONE). */
void cpupri_set(struct cpupri *cp, int cpu, int from, int to);
/* An allowed CPU other than @skip (or -1) whose rank is the highest and
 * above @above: @prefer if it is among them, else the lowest-numbered;
 * -1 if none. */
int cpupri_find(const struct cpupri *cp, const struct cpumask *allowed, int above, int prefer, int skip);
/* For the invariant checks: do the sets a search looks at agree with
 * @rank_of (each CPU's rank, or CPUPRI_NONE)? */
bool cpupri_consistent(const struct cpupri *cp, const int *rank_of);

#endif
