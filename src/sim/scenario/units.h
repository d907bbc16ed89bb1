/* units.h - the scenario file's value syntax.
 *
 * Durations carry a unit (`10ms`, `1.5s`, `250us`, `40ns`; a bare `0` is
 * allowed), sizes too (`4KiB`, `256MiB`, `100B`, `1GB`).  Scheduling specs
 * are written as chrt takes them (`fifo:50`, `rr:49`, `normal:19`) and
 * affinity as taskset's list form (`0-3,6`, or `all`).
 *
 * Parsers return FALSE with a GError in UNITS_ERROR saying what was wrong
 * and what is expected; callers add file, line and key.
 */
#ifndef RCUBOOST_UNITS_H
#define RCUBOOST_UNITS_H

#include <glib.h>
#include <stdint.h>

#include "../engine/cpumask.h"

#define UNITS_ERROR (units_error_quark())
GQuark units_error_quark(void);

enum units_error {
        UNITS_ERROR_INVALID,
};

enum sched_policy {
        SCHED_POLICY_NORMAL,
        SCHED_POLICY_FIFO,
        SCHED_POLICY_RR,
};

/* Internal priority, as the kernel keeps it: 0..98 for RT p = 99..1,
 * 100..139 for nice -20..19.  Lower is more urgent. */
#define PRIO_MAX_RT   100
#define PRIO_NICE_0   120
#define PRIO_MAX      140       /* MAX_PRIO: 0..99 real-time, 100..139 nice -20..19 */
#define PRIO_NONE     INT32_MAX
#define PRIO_IDLE     200   /* what an idle CPU "runs at", for comparisons */

struct sched_spec {
        enum sched_policy policy;
        int value;      /* rt priority 1..99, or nice -20..19 */
};

static inline int sched_spec_prio(const struct sched_spec *s)
{
        return s->policy == SCHED_POLICY_NORMAL ? PRIO_NICE_0 + s->value
                                                : 99 - s->value;
}

/* The largest duration (ns) or size (bytes) a value may have, loaded or
 * drawn: 2^61 (73 years, 2 EiB), so that a time plus a duration, or two
 * sizes, never overflow int64. */
#define UNITS_VALUE_MAX (INT64_C(1) << 61)

/* llround(@v) for 0 <= @v <= UNITS_VALUE_MAX, without a libm call (one
 * per random draw was 1.5% of a run): halves round away from zero, as
 * llround() does.  v - (double)n is exact (Sterbenz: n <= v < 2n, or n == 0,
 * or v an integer from 2^52 up), so 0.49999999999999994 stays below 0.5. */
static inline int64_t units_round_nonneg(double v)
{
        int64_t n = (int64_t)v;

        return v - (double)n >= 0.5 ? n + 1 : n;
}

gboolean units_parse_duration(const char *s, int64_t *out_ns, GError **error);
gboolean units_parse_size(const char *s, int64_t *out_bytes, GError **error);
/* A double in [min, max], rejecting NaN, infinities and trailing junk. */
gboolean units_parse_double(const char *s, double min, double max, double *out, GError **error);
/* An integer in [min, max]. */
gboolean units_parse_int(const char *s, int64_t min, int64_t max, int64_t *out, GError **error);
gboolean units_parse_bool(const char *s, gboolean *out, GError **error);
/* @s is one of @choices ('|'-separated, "timer|kthread"): its index in @out. */
gboolean units_parse_choice(const char *s, const char *choices, int *out, GError **error);
gboolean units_parse_sched(const char *s, struct sched_spec *out, GError **error);
/* Affinity list; CPUs must be below @ncpus. */
gboolean units_parse_affinity(const char *s, int ncpus, struct cpumask *out, GError **error);

/* "fifo:50" etc.; returns a static string for the policy name. */
const char *units_sched_policy_name(enum sched_policy p);
/* Human-readable duration ("1.5ms"); returns a newly allocated string. */
char *units_format_duration(int64_t ns);
char *units_format_size(int64_t bytes);

/* A kernel priority as the scenario writes a class: "rt:50", "normal:19", "idle". */
char *units_format_prio(int prio);

#endif
