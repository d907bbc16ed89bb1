/* compare_table.h - the table of `rcuboost compare` (compare_table.c). */
#ifndef RCUBOOST_COMPARE_TABLE_H
#define RCUBOOST_COMPARE_TABLE_H

#include "comparison.h"

/* Where a policy's runs split by outcome, its figures are shown per group. */
enum split { SPLIT_NONE, SPLIT_OOM, SPLIT_STALL };

/* @pr's outcome counts and its worst run. */
void compare_summarise(struct policy_runs *pr);
enum split compare_split_of(const struct policy_runs *pr);
/* @r is in the group of runs with (@outcome) or without the split's outcome. */
bool compare_in_group(const struct result *r, enum split split, bool outcome);
/* The runs the memory plot draws as two median lines: by outcome where
 * they split by one, else by peak memory where it falls in two groups far
 * apart.  Sets @first[i] for the runs of the first (solid) line and @what to
 * a key's words for it; returns their count, 0 (and @what NULL) for one group. */
int compare_memory_groups(const struct policy_runs *pr, bool *first, char **what);
/* A run's status as the tables say it ("out of memory", ...). */
const char *compare_status_shown(const char *status);
/* The periodic classes ("rt:90") of the runs, most urgent first. */
GPtrArray *compare_rt_classes(const struct policy_runs *prs, int np);
/* comparison.md, comparison-summary.tsv, comparison.tsv, comparison-paired.tsv in @dir. */
gboolean compare_write_tables(const char *dir, const struct policy_runs *prs, int np, int64_t thr_ns, GError **error);
/* Runs that ran out of memory before a wait could pass @stall_threshold_ns: said on stderr. */
void compare_warn_stall_unknown(const struct policy_runs *prs, int np, int64_t stall_threshold_ns);

/* --real: a warning when a real run kept under GUEST_PACE_MIN_PCT of the
 * scenario's pace (its summary.json pace_pct). */
void compare_warn_slow_guest(const struct policy_runs *prs, int np);
/* Columns stdout's tables keep within: $COLUMNS, else 160. */
int compare_terminal_width(void);
void compare_print_table(const struct policy_runs *prs, int np, int64_t thr_ns);
/* oom-events.csv and pending-gp.csv: the marks drawn beside the memory plot and the tails. */
gboolean compare_write_events(const char *dir, const struct policy_runs *prs, int np, GError **error);

#endif
