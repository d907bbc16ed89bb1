/* scnedit.c - hunt's edits of scenario text; see scnedit.h. */
#include "scnedit.h"
#include "hscn.h"

#include <glib.h>
#include <stdbool.h>
#include <string.h>

#include "../sim/scenario/units.h"

/* The text as lines, each with the section it is in ("task:reader", "" before any). */
struct lines {
        GPtrArray *line;        /* char * */
        GPtrArray *section;     /* char *, borrowed from line's "[...]" */
};

static void lines_split(const char *text, struct lines *l)
{
        g_auto(GStrv) v = g_strsplit(text, "\n", -1);
        const char *in = "";

        l->line = g_ptr_array_new_with_free_func(g_free);
        l->section = g_ptr_array_new_with_free_func(g_free);
        for (char **p = v; *p; p++) {
                if (**p == '[' && strchr(*p, ']'))
                        in = *p;
                g_ptr_array_add(l->line, g_strdup(*p));
                g_ptr_array_add(l->section, g_strndup(*in == '[' ? in + 1 : "", *in == '[' ? strcspn(in + 1, "]") : 0));
        }
}

static char *lines_join(struct lines *l)
{
        GString *s = g_string_new(NULL);

        for (guint i = 0; i < l->line->len; i++)
                g_string_append_printf(s, "%s%s", (char *)l->line->pdata[i], i + 1 < l->line->len ? "\n" : "");
        g_ptr_array_unref(l->line);
        g_ptr_array_unref(l->section);
        return g_string_free(s, FALSE);
}

static const char *section_of(const struct lines *l, guint i)
{
        return l->section->pdata[i];
}

static bool is_key(const struct lines *l, guint i, const char *key)
{
        const char *s = l->line->pdata[i];
        size_t n = strlen(key);

        return !strncmp(s, key, n) && s[n] == '=';
}

/* The value of [scenario] @key, or NULL. */
static const char *scenario_value(const struct lines *l, const char *key)
{
        for (guint i = 0; i < l->line->len; i++)
                if (!strcmp(section_of(l, i), "scenario") && is_key(l, i, key))
                        return strchr(l->line->pdata[i], '=') + 1;
        return NULL;
}

char *scnedit_seed(const char *text, int64_t max_ns)
{
        struct lines l;
        const char *dur;
        int64_t ns;

        lines_split(text, &l);
        /* its comments speak of the scenario as shipped, not as the hunt varies it */
        for (guint i = l.line->len; i-- > 0;)
                if (!strcmp(section_of(&l, i), "expect") || *(char *)l.line->pdata[i] == '#' ||
                    (!*(char *)l.line->pdata[i] && (i == 0 || !*(char *)l.line->pdata[i - 1]))) {
                        g_ptr_array_remove_index(l.line, i);
                        g_ptr_array_remove_index(l.section, i);
                }
        dur = scenario_value(&l, "duration");
        if (dur && units_parse_duration(dur, &ns, NULL) && ns > max_ns) {
                for (guint i = 0; i < l.line->len; i++)
                        if (!strcmp(section_of(&l, i), "scenario") && is_key(&l, i, "duration")) {
                                g_autofree char *d = hscn_format_ns(max_ns);

                                g_free(l.line->pdata[i]);
                                l.line->pdata[i] = g_strdup_printf("duration=%s", d);
                        }
        }
        return lines_join(&l);
}

char *scnedit_halve_duration(const char *text, int64_t floor_ns)
{
        struct lines l;
        const char *dur;
        int64_t ns;

        lines_split(text, &l);
        dur = scenario_value(&l, "duration");
        if (!dur || !units_parse_duration(dur, &ns, NULL) || ns < 2 * floor_ns) {
                g_free(lines_join(&l));
                return NULL;
        }
        for (guint i = 0; i < l.line->len; i++)
                if (!strcmp(section_of(&l, i), "scenario") && is_key(&l, i, "duration")) {
                        g_autofree char *d = hscn_format_ns(ns / 2);

                        g_free(l.line->pdata[i]);
                        l.line->pdata[i] = g_strdup_printf("duration=%s", d);
                }
        return lines_join(&l);
}

/* ---- the edits ---- */

static bool editable_section(const char *s)
{
        return g_str_has_prefix(s, "task:") || g_str_has_prefix(s, "irq:") || g_str_has_prefix(s, "event:");
}

/* A duration token in a task's, an interrupt's or an event's line ("20us"
 * in "compute exp(20us)", "at=1s") scaled by 1/10, 1/2, 2 or 10. */
static bool scale_duration(gsl_rng *r, struct lines *l)
{
        static const double factors[] = { 0.1, 0.5, 2, 10 };
        g_autoptr(GRegex) re = g_regex_new("(?<![A-Za-z0-9_.])[0-9]+(\\.[0-9]+)?(ns|us|ms|s)(?![A-Za-z0-9_])", 0, 0,
                                           NULL);
        g_autoptr(GArray) at = g_array_new(FALSE, FALSE, sizeof(int) * 3);     /* line, start, end */

        for (guint i = 0; i < l->line->len; i++) {
                g_autoptr(GMatchInfo) m = NULL;

                if (!editable_section(section_of(l, i)) || !strchr(l->line->pdata[i], '='))
                        continue;
                g_regex_match(re, l->line->pdata[i], 0, &m);
                for (; g_match_info_matches(m); g_match_info_next(m, NULL)) {
                        int s, e, v[3];

                        g_match_info_fetch_pos(m, 0, &s, &e);
                        v[0] = (int)i, v[1] = s, v[2] = e;
                        g_array_append_vals(at, v, 1);
                }
        }
        if (at->len == 0)
                return false;
        int *v = &g_array_index(at, int, 3 * gsl_rng_uniform_int(r, at->len));
        char *line = l->line->pdata[v[0]];
        g_autofree char *tok = g_strndup(line + v[1], (gsize)(v[2] - v[1]));
        int64_t ns;

        if (!units_parse_duration(tok, &ns, NULL))
                return false;
        ns = (int64_t)((double)ns * factors[gsl_rng_uniform_int(r, G_N_ELEMENTS(factors))]);
        g_autofree char *now = hscn_format_ns(MAX(ns, 1000));

        l->line->pdata[v[0]] = g_strdup_printf("%.*s%s%s", v[1], line, now, line + v[2]);
        g_free(line);
        return true;
}

/* A random line of sections @prefix with key @key, or -1. */
static int pick_line(gsl_rng *r, const struct lines *l, const char *prefix, const char *key)
{
        int n = 0, pick = -1;

        for (guint i = 0; i < l->line->len; i++)
                if (g_str_has_prefix(section_of(l, i), prefix) && is_key(l, i, key) &&
                    gsl_rng_uniform_int(r, (unsigned long)++n) == 0)
                        pick = (int)i;
        return pick;
}

static void set_line(struct lines *l, int i, char *text)
{
        g_free(l->line->pdata[i]);
        l->line->pdata[i] = text;
}

static int cpus_of(const struct lines *l)
{
        const char *c = scenario_value(l, "cpus");

        return c ? MAX(1, atoi(c)) : 1;
}

/* The first line of each [task:...] section, and how many. */
static int task_sections(const struct lines *l, int *first, int max)
{
        int n = 0;

        for (guint i = 0; i < l->line->len && n < max; i++)
                if (g_str_has_prefix(l->line->pdata[i], "[task:"))
                        first[n++] = (int)i;
        return n;
}

/* The line after @first's section: the next section's, or the end. */
static guint section_end(const struct lines *l, int first)
{
        guint j = (guint)first + 1;

        while (j < l->line->len && *(char *)l->line->pdata[j] != '[')
                j++;
        return j;
}

/* A name no section has yet: hunt0, hunt1, ... */
static char *fresh_name(const struct lines *l)
{
        for (int n = 0;; n++) {
                g_autofree char *task = g_strdup_printf("[task:hunt%d]", n);
                bool taken = false;

                for (guint i = 0; i < l->line->len && !taken; i++)
                        taken = !strcmp(l->line->pdata[i], task);
                if (!taken)
                        return g_strdup_printf("hunt%d", n);
        }
}

static bool edit(gsl_rng *r, struct lines *l, int what)
{
        int i, first[64], n;

        switch (what) {
        case 0:
        case 1:
                return scale_duration(r, l);
        case 2:         /* a task's class: FIFO 1..98, or SCHED_NORMAL one time in three */
                if ((i = pick_line(r, l, "task:", "sched")) < 0)
                        return false;
                set_line(l, i, gsl_rng_uniform_int(r, 3) == 0
                               ? g_strdup("sched=normal:0")
                               : g_strdup_printf("sched=fifo:%d", 1 + (int)gsl_rng_uniform_int(r, 98)));
                return true;
        case 3:         /* an affinity: another CPU, or none */
                if ((i = pick_line(r, l, "task:", "affinity")) < 0)
                        return false;
                if (gsl_rng_uniform_int(r, 2)) {
                        set_line(l, i, g_strdup_printf("affinity=%d",
                                                       (int)gsl_rng_uniform_int(r, (unsigned long)cpus_of(l))));
                } else {
                        g_ptr_array_remove_index(l->line, (guint)i);
                        g_ptr_array_remove_index(l->section, (guint)i);
                }
                return true;
        case 4:         /* the number of CPUs: 1..4 */
                for (guint j = 0; j < l->line->len; j++)
                        if (!strcmp(section_of(l, j), "scenario") && is_key(l, j, "cpus")) {
                                set_line(l, (int)j, g_strdup_printf("cpus=%d", 1 + (int)gsl_rng_uniform_int(r, 4)));
                                return true;
                        }
                return false;
        case 5:         /* a count: 1..4 */
                if ((i = pick_line(r, l, "task:", "count")) < 0)
                        return false;
                set_line(l, i, g_strdup_printf("count=%d", 1 + (int)gsl_rng_uniform_int(r, 4)));
                return true;
        case 6:         /* a task dropped (not the last) */
                if ((n = task_sections(l, first, G_N_ELEMENTS(first))) < 2)
                        return false;
                i = first[gsl_rng_uniform_int(r, (unsigned long)n)];
                {
                        guint len = section_end(l, i) - (guint)i;

                        g_ptr_array_remove_range(l->line, (guint)i, len);
                        g_ptr_array_remove_range(l->section, (guint)i, len);
                }
                return true;
        case 7:         /* a task copied under a new name */
                if ((n = task_sections(l, first, G_N_ELEMENTS(first))) < 1 || n >= HSCN_MAX_TASKS)
                        return false;
                i = first[gsl_rng_uniform_int(r, (unsigned long)n)];
                {
                        guint end = section_end(l, i);
                        g_autofree char *name = fresh_name(l);
                        g_autofree char *section = g_strdup_printf("task:%s", name);

                        g_ptr_array_add(l->line, g_strdup(""));
                        g_ptr_array_add(l->section, g_strdup(section));
                        g_ptr_array_add(l->line, g_strdup_printf("[%s]", section));
                        g_ptr_array_add(l->section, g_strdup(section));
                        for (guint j = (guint)i + 1; j < end; j++) {
                                if (!*(char *)l->line->pdata[j])
                                        continue;
                                g_ptr_array_add(l->line, g_strdup(l->line->pdata[j]));
                                g_ptr_array_add(l->section, g_strdup(section));
                        }
                }
                return true;
        default:        /* an RT hog: pinned, arriving in the run's first half, for 10 ms .. the run */
                {
                        const char *d = scenario_value(l, "duration");
                        int64_t run = 0;
                        g_autofree char *name = fresh_name(l);

                        if (!d || !units_parse_duration(d, &run, NULL) || run < 40 * 1000000LL)
                                return false;
                        g_autofree char *start = hscn_format_ns(10000000LL +
                                                                 (int64_t)gsl_rng_uniform_int(r, (unsigned long)(run / 2 / 1000)) * 1000);
                        g_autofree char *len = hscn_format_ns(10000000LL +
                                                               (int64_t)gsl_rng_uniform_int(r, (unsigned long)(run / 1000)) * 1000);
                        const char *add[] = { "", NULL, NULL, NULL, NULL, NULL };
                        g_autofree char *section = g_strdup_printf("task:%s", name);

                        add[1] = g_strdup_printf("[%s]", section);
                        add[2] = g_strdup_printf("sched=fifo:%d", 1 + (int)gsl_rng_uniform_int(r, 98));
                        add[3] = g_strdup_printf("affinity=%d", (int)gsl_rng_uniform_int(r, (unsigned long)cpus_of(l)));
                        add[4] = g_strdup_printf("start=%s", start);
                        add[5] = g_strdup_printf("program=compute %s", len);
                        for (size_t j = 0; j < G_N_ELEMENTS(add); j++) {
                                g_ptr_array_add(l->line, j ? (char *)add[j] : g_strdup(add[j]));
                                g_ptr_array_add(l->section, g_strdup(section));
                        }
                        return true;
                }
        }
}

char *scnedit_mutate(gsl_rng *r, const char *text)
{
        /* an edit that does not apply here (no affinity line to change), or that
         * changes nothing (a priority set to itself), draws again */
        for (int tries = 0; tries < 16; tries++) {
                struct lines l;
                bool applied;
                char *edited;

                lines_split(text, &l);
                applied = edit(r, &l, (int)gsl_rng_uniform_int(r, 9));
                edited = lines_join(&l);
                if (applied && strcmp(edited, text) != 0)
                        return edited;
                g_free(edited);
        }
        return g_strdup(text);
}
