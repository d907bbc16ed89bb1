/* scnedit.h - hunt's edits of scenario text it did not generate.
 *
 * hunt's grammar (hscn.h) covers what it generates; a corpus seed -- a
 * shipped scenario, a user's own -- is any scenario file, with mutexes,
 * [irq]s, [event]s, programs the grammar never writes.  Such a candidate
 * is varied as a fuzzer varies an input it cannot parse into its own
 * grammar: one edit of the text at a time, each one the scenario language
 * can still read more often than not (a length or a period scaled, a
 * priority, an affinity, a count or the number of CPUs changed, a task
 * dropped or copied, an RT hog added).  An edit the loader refuses makes a
 * bad candidate, which hunt skips.
 *
 * Every function draws from the caller's GSL stream and nothing else.
 */
#pragma once

#include <gsl/gsl_rng.h>
#include <stdint.h>

/* @text as a seed: its comments and [expect] section dropped (hunt checks
 * its own properties), its duration cut to @max_ns if longer. */
char *scnedit_seed(const char *text, int64_t max_ns);
/* @text with its [scenario] duration halved, or NULL when it is under 2 * @floor_ns. */
char *scnedit_halve_duration(const char *text, int64_t floor_ns);
/* @text with one random edit. */
char *scnedit_mutate(gsl_rng *r, const char *text);
