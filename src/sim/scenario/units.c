/* units.c - the scenario file's value syntax; see units.h. */
#include "units.h"

#include <errno.h>
#include <math.h>
#include <string.h>

G_DEFINE_QUARK(rcuboost-units-error-quark, units_error)

static gboolean fail(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static gboolean fail(GError **error, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        if (error)
                *error = g_error_new_valist(UNITS_ERROR, UNITS_ERROR_INVALID, fmt, ap);
        va_end(ap);
        return FALSE;
}

/* Leading number of @s; *end points past it.  Rejects NaN/inf/overflow. */
static gboolean leading_number(const char *s, double *out, const char **end)
{
        char *e;

        while (g_ascii_isspace(*s))
                s++;
        /* g_ascii_strtod accepts "nan", "inf" and hex; a scenario never means those. */
        if (!g_ascii_isdigit(*s) && !(*s == '.' && g_ascii_isdigit(s[1])) && *s != '-' && *s != '+')
                return FALSE;
        errno = 0;
        *out = g_ascii_strtod(s, &e);
        if (e == s || errno == ERANGE || !isfinite(*out))
                return FALSE;
        for (const char *p = s; p < e; p++)
                if (*p == 'x' || *p == 'X' || *p == 'p' || *p == 'P')
                        return FALSE;
        *end = e;
        return TRUE;
}

struct unit {
        const char *name;
        double scale;
};

static gboolean parse_with_units(const char *s, const struct unit *units, const char *what,
                                 const char *expect, int64_t *out, GError **error)
{
        double v;
        const char *rest;

        if (!s || !leading_number(s, &v, &rest))
                return fail(error, "'%s' is not a %s (expected %s)", s ? s : "", what, expect);
        while (g_ascii_isspace(*rest))
                rest++;
        char *unit = g_strchomp(g_strdup(rest));
        double scale = -1;

        if (*unit == '\0' && v == 0)
                scale = 1;
        for (const struct unit *u = units; u->name && scale < 0; u++)
                if (strcmp(unit, u->name) == 0)
                        scale = u->scale;
        if (scale < 0) {
                gboolean missing = *unit == '\0';

                g_free(unit);
                return fail(error, "'%s': %s unit (expected %s)", s,
                            missing ? "missing" : "unknown", expect);
        }
        g_free(unit);
        if (v < 0)
                return fail(error, "'%s': a %s cannot be negative", s, what);
        v *= scale;
        /* Two such values (a time and a draw) must add without overflow. */
        if (v > (double)UNITS_VALUE_MAX)
                return fail(error, "'%s': %s too large (at most 2^61: %s)", s, what,
                            scale >= 1e6 || !strcmp(what, "duration") ? "about 73 years" : "2 EiB");
        *out = (int64_t)llround(v);
        return TRUE;
}

static const struct unit duration_units[] = {
        { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
        { "min", 60e9 }, { NULL, 0 },
};

static const struct unit size_units[] = {
        { "B", 1 }, { "KiB", 1024.0 }, { "MiB", 1048576.0 }, { "GiB", 1073741824.0 },
        { "TiB", 1099511627776.0 }, { "kB", 1e3 }, { "KB", 1e3 }, { "MB", 1e6 },
        { "GB", 1e9 }, { "TB", 1e12 }, { NULL, 0 },
};

gboolean units_parse_duration(const char *s, int64_t *out_ns, GError **error)
{
        return parse_with_units(s, duration_units, "duration",
                                "a number and a unit: ns, us, ms, s, min; e.g. 10ms", out_ns, error);
}

gboolean units_parse_size(const char *s, int64_t *out_bytes, GError **error)
{
        return parse_with_units(s, size_units, "size",
                                "a number and a unit: B, KiB, MiB, GiB, kB, MB, GB; e.g. 4KiB",
                                out_bytes, error);
}

gboolean units_parse_double(const char *s, double min, double max, double *out, GError **error)
{
        double v;
        const char *rest;

        if (!s || !leading_number(s, &v, &rest))
                return fail(error, "'%s' is not a number", s ? s : "");
        while (g_ascii_isspace(*rest))
                rest++;
        if (*rest)
                return fail(error, "'%s': unexpected '%s' after the number", s, rest);
        if (v < min || v > max)
                return fail(error, "'%s' is out of range (expected %g to %g)", s, min, max);
        *out = v;
        return TRUE;
}

gboolean units_parse_int(const char *s, int64_t min, int64_t max, int64_t *out, GError **error)
{
        gint64 v;
        GError *e = NULL;
        g_autofree char *trimmed = s ? g_strstrip(g_strdup(s)) : NULL;

        if (!s || !g_ascii_string_to_signed(trimmed, 10, min, max, &v, &e)) {
                gboolean range = e && e->code == G_NUMBER_PARSER_ERROR_OUT_OF_BOUNDS;

                g_clear_error(&e);
                if (range)
                        return fail(error, "'%s' is out of range (expected %" G_GINT64_FORMAT
                                    " to %" G_GINT64_FORMAT ")", s, (gint64)min, (gint64)max);
                return fail(error, "'%s' is not a whole number", s ? s : "");
        }
        *out = v;
        return TRUE;
}

gboolean units_parse_bool(const char *s, gboolean *out, GError **error)
{
        if (s && (!g_ascii_strcasecmp(s, "true") || !strcmp(s, "1") || !g_ascii_strcasecmp(s, "yes")))
                *out = TRUE;
        else if (s && (!g_ascii_strcasecmp(s, "false") || !strcmp(s, "0") || !g_ascii_strcasecmp(s, "no")))
                *out = FALSE;
        else
                return fail(error, "'%s' is not a boolean (expected true or false)", s ? s : "");
        return TRUE;
}

gboolean units_parse_choice(const char *s, const char *choices, int *out, GError **error)
{
        g_auto(GStrv) each = g_strsplit(choices ? choices : "", "|", -1);
        g_autofree char *listed = g_strjoinv(", ", each);

        for (int i = 0; each[i]; i++)
                if (s && each[i][0] && !strcmp(s, each[i])) {
                        *out = i;
                        return TRUE;
                }
        return fail(error, "'%s' is not one of %s", s ? s : "", listed);
}

gboolean units_parse_sched(const char *s, struct sched_spec *out, GError **error)
{
        static const char expect[] = "fifo:1..99, rr:1..99, rt:1..99 (as fifo) or normal:-20..19";
        const char *colon = s ? strchr(s, ':') : NULL;
        g_autofree char *name = colon ? g_strndup(s, colon - s) : g_strdup(s ? s : "");
        int64_t v = 0;

        g_strstrip(name);
        /* rt:P is how rcuboost writes an RT priority (boost.csv, summary.json):
         * read back, it is SCHED_FIFO P (#48) */
        if (!strcmp(name, "fifo") || !strcmp(name, "rr") || !strcmp(name, "rt")) {
                out->policy = !strcmp(name, "rr") ? SCHED_POLICY_RR : SCHED_POLICY_FIFO;
                if (!colon || !units_parse_int(colon + 1, 1, 99, &v, NULL))
                        return fail(error, "'%s': real-time priority must be 1..99 (expected %s)", s, expect);
        } else if (!strcmp(name, "normal") || !strcmp(name, "other")) {
                out->policy = SCHED_POLICY_NORMAL;
                if (colon && !units_parse_int(colon + 1, -20, 19, &v, NULL))
                        return fail(error, "'%s': nice must be -20..19 (expected %s)", s, expect);
        } else {
                return fail(error, "'%s' is not a scheduling class (expected %s)", s ? s : "", expect);
        }
        out->value = (int)v;
        return TRUE;
}

gboolean units_parse_affinity(const char *s, int ncpus, struct cpumask *out, GError **error)
{
        static const char expect[] = "a CPU list such as 0-3,6 or all";
        g_auto(GStrv) parts = NULL;
        g_autofree char *trimmed = s ? g_strstrip(g_strdup(s)) : NULL;

        cpumask_clear(out);
        if (!s || !*trimmed)
                return fail(error, "empty affinity (expected %s)", expect);
        if (!strcmp(trimmed, "all")) {
                cpumask_fill(out, ncpus);
                return TRUE;
        }
        parts = g_strsplit(s, ",", -1);
        for (char **p = parts; *p; p++) {
                char *dash = strchr(*p, '-');
                int64_t lo, hi;

                if (dash) {
                        *dash = '\0';
                        if (!units_parse_int(*p, 0, INT32_MAX, &lo, NULL) ||
                            !units_parse_int(dash + 1, 0, INT32_MAX, &hi, NULL) || lo > hi)
                                return fail(error, "'%s' is not a CPU list (expected %s)", s, expect);
                } else if (!units_parse_int(*p, 0, INT32_MAX, &lo, NULL)) {
                        return fail(error, "'%s' is not a CPU list (expected %s)", s, expect);
                } else {
                        hi = lo;
                }
                if (hi >= ncpus)
                        return fail(error, "'%s': CPU %" G_GINT64_FORMAT " does not exist "
                                    "(the scenario has %d CPUs: 0-%d)", s, (gint64)hi, ncpus, ncpus - 1);
                for (int64_t c = lo; c <= hi; c++)
                        cpumask_set(out, (int)c);
        }
        return TRUE;
}

const char *units_sched_policy_name(enum sched_policy p)
{
        switch (p) {
        case SCHED_POLICY_FIFO: return "fifo";
        case SCHED_POLICY_RR: return "rr";
        case SCHED_POLICY_NORMAL: break;
        }
        return "normal";
}

char *units_format_duration(int64_t ns)
{
        int64_t a = ns < 0 ? -ns : ns;

        /* three digits: 999.6 ms is "1s", not "1e+03ms" */
        if (a >= 999500000)
                return g_strdup_printf("%.3gs", ns / 1e9);
        if (a >= 999500)
                return g_strdup_printf("%.3gms", ns / 1e6);
        if (a >= 1000)
                return g_strdup_printf("%.3gus", ns / 1e3);
        return g_strdup_printf("%" G_GINT64_FORMAT "ns", (gint64)ns);
}

char *units_format_size(int64_t bytes)
{
        g_autofree char *s = g_format_size_full((guint64)bytes, G_FORMAT_SIZE_IEC_UNITS);
        g_auto(GStrv) parts = g_strsplit(s, "\u00a0", -1);

        /* GLib puts a no-break space before the unit: plain ASCII for grep,
         * awk and column alignment. */
        return g_strjoinv(" ", parts);
}

char *units_format_prio(int prio)
{
        if (prio < PRIO_MAX_RT)
                return g_strdup_printf("rt:%d", 99 - prio);
        if (prio == PRIO_IDLE)
                return g_strdup("idle");
        return g_strdup_printf("normal:%d", prio - PRIO_NICE_0);
}
