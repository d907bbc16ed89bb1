/* compare_plots.h - the plots of `rcuboost compare` (compare_plots.c). */
#ifndef RCUBOOST_COMPARE_PLOTS_H
#define RCUBOOST_COMPARE_PLOTS_H

#include "comparison.h"
#include "plot.h"

/* Every plot of the comparison into pl->dir: memory (with the scenario's
 * limit, @limit_bytes), the tails, a timeline per policy. */
void compare_draw_all(struct plotter *pl, struct policy_runs *prs, int np, int64_t limit_bytes);

#endif
