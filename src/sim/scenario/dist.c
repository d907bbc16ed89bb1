/* dist.c - random quantities; see dist.h. */
#include "dist.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <string.h>

#include "units.h"

static gboolean parse_param(const char *s, enum dist_unit unit, gboolean with_unit, double *out,
                            GError **error)
{
        int64_t v;

        if (!with_unit)
                return units_parse_double(s, -1e300, 1e300, out, error);
        if (unit == DIST_UNIT_DURATION ? !units_parse_duration(s, &v, error)
                                       : !units_parse_size(s, &v, error))
                return FALSE;
        *out = (double)v;
        return TRUE;
}

struct dist_syntax {
        const char *name;
        enum dist_kind kind;
        int nparams;
        gboolean unit_a, unit_b;
        const char *usage;
};

static const struct dist_syntax syntaxes[] = {
        { "exp", DIST_EXP, 1, TRUE, FALSE, "exp(MEAN)" },
        { "uniform", DIST_UNIFORM, 2, TRUE, TRUE, "uniform(LO,HI)" },
        { "normal", DIST_NORMAL, 2, TRUE, TRUE, "normal(MEAN,STDDEV)" },
        { "lognormal", DIST_LOGNORMAL, 2, TRUE, FALSE, "lognormal(MEDIAN,SIGMA)" },
        { "pareto", DIST_PARETO, 2, FALSE, TRUE, "pareto(SHAPE,SCALE)" },
};

gboolean dist_parse(const char *s, enum dist_unit unit, struct dist *out, GError **error)
{
        const char *open = strchr(s, '(');
        g_autofree char *name = NULL;
        g_autofree char *args = NULL;
        g_auto(GStrv) parts = NULL;
        const struct dist_syntax *syn = NULL;

        if (!open) {
                int64_t v;

                if (unit == DIST_UNIT_DURATION ? !units_parse_duration(s, &v, error)
                                               : !units_parse_size(s, &v, error))
                        return FALSE;
                *out = (struct dist){ .kind = DIST_CONST, .a = (double)v };
                return TRUE;
        }
        name = g_strstrip(g_strndup(s, open - s));
        for (size_t i = 0; i < G_N_ELEMENTS(syntaxes); i++)
                if (!strcmp(name, syntaxes[i].name))
                        syn = &syntaxes[i];
        if (!syn) {
                g_set_error(error, UNITS_ERROR, UNITS_ERROR_INVALID,
                            "'%s' is not a distribution (expected exp, uniform, normal, "
                            "lognormal or pareto)", name);
                return FALSE;
        }
        const char *close = strrchr(open, ')');

        if (!close || close[1] != '\0') {
                g_set_error(error, UNITS_ERROR, UNITS_ERROR_INVALID,
                            "'%s': missing ')' (expected %s)", s, syn->usage);
                return FALSE;
        }
        args = g_strndup(open + 1, close - open - 1);
        parts = g_strsplit(args, ",", -1);
        if ((int)g_strv_length(parts) != syn->nparams) {
                g_set_error(error, UNITS_ERROR, UNITS_ERROR_INVALID,
                            "'%s': %s takes %d parameter%s (expected %s)", s, name,
                            syn->nparams, syn->nparams > 1 ? "s" : "", syn->usage);
                return FALSE;
        }
        out->kind = syn->kind;
        out->b = 0;
        if (!parse_param(g_strstrip(parts[0]), unit, syn->unit_a, &out->a, error))
                return FALSE;
        if (syn->nparams > 1 && !parse_param(g_strstrip(parts[1]), unit, syn->unit_b, &out->b, error))
                return FALSE;

        const char *bad = NULL;

        switch (out->kind) {
        case DIST_EXP:
                if (out->a <= 0)
                        bad = "the mean must be positive";
                break;
        case DIST_UNIFORM:
                if (out->a > out->b)
                        bad = "LO must not exceed HI";
                break;
        case DIST_NORMAL:
                if (out->a <= 0)
                        bad = "the mean must be positive";
                break;
        case DIST_LOGNORMAL:
                if (out->a <= 0)
                        bad = "the median must be positive";
                else if (out->b <= 0 || out->b > 20)
                        bad = "SIGMA must be in (0, 20]";
                break;
        case DIST_PARETO:
                if (out->a <= 0 || out->a > 1e6)
                        bad = "SHAPE must be positive";
                else if (out->b <= 0)
                        bad = "SCALE must be positive";
                break;
        case DIST_CONST:
                break;
        }
        if (bad) {
                g_set_error(error, UNITS_ERROR, UNITS_ERROR_INVALID, "'%s': %s (expected %s)",
                            s, bad, syn->usage);
                return FALSE;
        }
        return TRUE;
}

/* Heavy tails can exceed any useful horizon: cap where a time plus a draw
 * still fits (UNITS_VALUE_MAX, 73 years or 2 EiB). */
static int64_t draw_to_units(double v)
{
        if (!(v > 0))
                return 0;
        if (v > (double)UNITS_VALUE_MAX)
                return UNITS_VALUE_MAX;
        return units_round_nonneg(v);
}

/* draw_to_units(gsl_ran_exponential(rng, mu)), with log() for log1p():
 * glibc's log1p() was 9% of the reference run, log() costs a third of it.
 * The stream is GSL's (one gsl_rng_uniform() per draw) and so is every
 * result.  With 1 - u exact, log(1 - u) and log1p(-u) are one value and
 * the two libm results a few ulps (2^-50) apart; only a product within
 * 2^-40 of itself of a rounding edge (k + 0.5 ns) could round otherwise,
 * and that one (about 1 draw in 10^5 at 5 ms) is computed as GSL does. */
static int64_t exponential_units(double mu, gsl_rng *rng)
{
        double u = gsl_rng_uniform(rng), w = 1.0 - u;
        double v = -mu * log(w);

        /* v < 2^52 first: the cast below is then exact and in range. */
        if (1.0 - w == u && v < 0x1p52 && fabs(v - (double)(int64_t)v - 0.5) > v * 0x1p-40)
                return draw_to_units(v);
        return draw_to_units(-mu * log1p(-u));
}

int64_t dist_sample(const struct dist *d, gsl_rng *rng)
{
        double v;

        switch (d->kind) {
        case DIST_CONST:
                return (int64_t)d->a;
        case DIST_EXP:
                return exponential_units(d->a, rng);
        case DIST_UNIFORM:
                v = gsl_ran_flat(rng, d->a, d->b);
                break;
        case DIST_NORMAL:
                v = d->a + gsl_ran_gaussian_ziggurat(rng, d->b);
                break;
        case DIST_LOGNORMAL:
                v = gsl_ran_lognormal(rng, log(d->a), d->b);
                break;
        case DIST_PARETO:
                v = gsl_ran_pareto(rng, d->a, d->b);
                break;
        default:
                g_assert_not_reached();
        }
        return draw_to_units(v);
}

int64_t dist_quantile(const struct dist *d, double p)
{
        switch (d->kind) {
        case DIST_CONST:
                return (int64_t)d->a;
        case DIST_EXP:
                return draw_to_units(gsl_cdf_exponential_Pinv(p, d->a));
        case DIST_UNIFORM:
                return draw_to_units(gsl_cdf_flat_Pinv(p, d->a, d->b));
        case DIST_NORMAL:
                return draw_to_units(d->a + gsl_cdf_gaussian_Pinv(p, d->b));
        case DIST_LOGNORMAL:
                return draw_to_units(gsl_cdf_lognormal_Pinv(p, log(d->a), d->b));
        case DIST_PARETO:
                return draw_to_units(gsl_cdf_pareto_Pinv(p, d->a, d->b));
        }
        g_assert_not_reached();
}

double dist_mean(const struct dist *d)
{
        switch (d->kind) {
        case DIST_CONST:
        case DIST_EXP:
        case DIST_NORMAL:
                return d->a;
        case DIST_UNIFORM:
                return (d->a + d->b) / 2;
        case DIST_LOGNORMAL:
                return d->a * exp(d->b * d->b / 2);
        case DIST_PARETO:
                return d->a > 1 ? d->a * d->b / (d->a - 1) : INFINITY;
        }
        return 0;
}

/* splitmix64: spreads a 64-bit input over all output bits. */
static uint64_t mix64(uint64_t z)
{
        z += UINT64_C(0x9e3779b97f4a7c15);
        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        return z ^ (z >> 31);
}

gsl_rng *dist_rng_new(uint64_t scenario_seed, const char *owner_name)
{
        /* FNV-1a of the name: stable across GLib versions, unlike g_str_hash. */
        uint64_t h = UINT64_C(0xcbf29ce484222325);
        gsl_rng *rng = gsl_rng_alloc(gsl_rng_taus2);

        for (const unsigned char *p = (const unsigned char *)owner_name; *p; p++)
                h = (h ^ *p) * UINT64_C(0x100000001b3);
        /* taus2 takes an unsigned long seed; keep 32 bits so that results do
         * not depend on the platform's long. */
        gsl_rng_set(rng, (unsigned long)(mix64(h ^ mix64(scenario_seed)) & 0xffffffffu) | 1);
        return rng;
}
