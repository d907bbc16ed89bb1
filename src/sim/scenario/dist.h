/* dist.h - random quantities: durations and sizes drawn from distributions.
 *
 * A quantity is a constant or one of GSL's distributions, written in the
 * scenario as `exp(20us)`, `uniform(10us,50us)`, `normal(100us,10us)`,
 * `lognormal(100us,0.5)` (median, shape), `pareto(2.5,10us)` (shape, scale
 * = minimum).  Parameters with units take the quantity's unit (time or
 * size).  Draws are rounded to whole units and never negative: a normal
 * draw below zero is taken as zero.
 *
 * Each task draws from its own gsl_rng, so adding a task or changing the
 * policy does not shift anybody else's stream.
 */
#ifndef RCUBOOST_DIST_H
#define RCUBOOST_DIST_H

#include <glib.h>
#include <gsl/gsl_rng.h>
#include <stdint.h>

enum dist_kind {
        DIST_CONST,
        DIST_EXP,
        DIST_UNIFORM,
        DIST_NORMAL,
        DIST_LOGNORMAL,
        DIST_PARETO,
};

enum dist_unit {
        DIST_UNIT_DURATION,
        DIST_UNIT_SIZE,
};

struct dist {
        enum dist_kind kind;
        double a, b;    /* parameters, in ns or bytes where they carry a unit */
};

/* Parse @s (a constant or a distribution) as a quantity of @unit. */
gboolean dist_parse(const char *s, enum dist_unit unit, struct dist *out, GError **error);
int64_t dist_sample(const struct dist *d, gsl_rng *rng);
/* The @p-quantile (0 < p < 1) as dist_sample() would return it: negative
 * values are 0, heavy tails capped as draws are.  For the real-kernel
 * module's inverse-transform tables (kernel-program). */
int64_t dist_quantile(const struct dist *d, double p);
/* The distribution's mean (for documentation, checks and `validate`). */
double dist_mean(const struct dist *d);

/* A task's private stream: seeded from the scenario seed and its name. */
gsl_rng *dist_rng_new(uint64_t scenario_seed, const char *owner_name);

#endif
