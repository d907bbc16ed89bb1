/* rtapp.c - a workload from an rt-app JSON file.
 *
 * rt-app (doc/tutorial.txt of rt-app 1.0) describes each thread as a
 * scheduling policy and priority, its CPUs, and a list of events -- run,
 * sleep, a periodic timer, lock and unlock -- repeated `loop` times, or in
 * `phases` run one after another.  Each maps onto the scenario language:
 * run N as compute N us, sleep as sleep, lock/unlock as a [mutex:NAME], a
 * timer that ends the thread's only loop as its period, loop as loop or
 * repeat, instance as count, delay as start.  Anything else -- a barrier,
 * a signal, SCHED_DEADLINE, a timer in mid-loop -- the model cannot run:
 * it is refused with its JSON path, and nothing is written.
 */
#include <json-glib/json-glib.h>
#include <string.h>

#include "import.h"
#include "../../sim/scenario/units.h"

/* Global keys that say how rt-app itself runs: nothing of the workload. */
static const char *const global_ignored[] = {
        "calibration", "logdir", "log_basename", "lock_pages", "ftrace", "gnuplot", "pi_enabled",
        "io_device", "mem_buffer_size", "cumulative_slack", "log_size", NULL,
};

struct rtapp {
        struct import *im;
        const char *path;
        const char *default_policy;
        GError **error;
};

static gboolean refuse(struct rtapp *ra, const char *json_path, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static gboolean refuse(struct rtapp *ra, const char *json_path, const char *fmt, ...)
{
        va_list ap;
        g_autofree char *why = NULL;

        va_start(ap, fmt);
        why = g_strdup_vprintf(fmt, ap);
        va_end(ap);
        g_set_error(ra->error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT, "%s: %s: %s", ra->path, json_path, why);
        return FALSE;
}

static gboolean int_member(struct rtapp *ra, JsonNode *n, const char *json_path, int64_t lo, int64_t hi, int64_t *out)
{
        if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64)
                return refuse(ra, json_path, "expected a whole number");
        *out = json_node_get_int(n);
        if (*out < lo || *out > hi)
                return refuse(ra, json_path, "%" G_GINT64_FORMAT " is out of range (%" G_GINT64_FORMAT " to %"
                              G_GINT64_FORMAT ")", *out, lo, hi);
        return TRUE;
}

static gboolean string_member(struct rtapp *ra, JsonNode *n, const char *json_path, const char **out)
{
        if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING)
                return refuse(ra, json_path, "expected a string");
        *out = json_node_get_string(n);
        return TRUE;
}

/* rt-app names a repeated event with a suffix (run0, run1): its kind. */
static const char *event_kind(const char *key)
{
        static const char *const kinds[] = { "runtime", "run", "sleep", "timer", "unlock", "lock", NULL };

        for (const char *const *k = kinds; *k; k++)
                if (g_str_has_prefix(key, *k) && (!key[strlen(*k)] || g_ascii_isdigit(key[strlen(*k)])))
                        return *k;
        return NULL;
}

static void mutex_used(struct rtapp *ra, const char *name)
{
        for (guint i = 0; i < ra->im->mutexes->len; i++)
                if (!strcmp(ra->im->mutexes->pdata[i], name))
                        return;
        g_ptr_array_add(ra->im->mutexes, g_strdup(name));
}

/* The events of one loop body (a task or a phase) onto @p; a timer that is
 * the last event sets *@period_us (only where @period_us is given). */
static gboolean events_read(struct rtapp *ra, JsonObject *o, const char *json_path, const char *const *props,
                            GString *p, int64_t *period_us)
{
        g_autoptr(GList) members = json_object_get_members(o);
        guint n = g_list_length(members), i = 0;

        for (GList *l = members; l; l = l->next, i++) {
                const char *key = l->data, *kind = event_kind(key), *name;
                JsonNode *v = json_object_get_member(o, key);
                g_autofree char *at = g_strdup_printf("%s.%s", json_path, key);
                int64_t us;

                if (g_strv_contains(props, key))
                        continue;
                if (!kind)
                        return refuse(ra, at, "the model has no such event (it runs run, runtime, sleep, timer, "
                                      "lock and unlock)");
                if (!strcmp(kind, "timer")) {
                        JsonObject *t = JSON_NODE_HOLDS_OBJECT(v) ? json_node_get_object(v) : NULL;
                        g_autofree char *pat = g_strdup_printf("%s.period", at);

                        if (!t || !json_object_has_member(t, "period"))
                                return refuse(ra, at, "expected { \"ref\": ..., \"period\": US }");
                        if (!period_us || i != n - 1)
                                return refuse(ra, at, "a timer the model runs is the last event of a thread's only "
                                              "loop (its period): not in a phase or mid-loop");
                        if (!int_member(ra, json_object_get_member(t, "period"), pat, 1, G_MAXINT32, period_us))
                                return FALSE;
                } else if (!strcmp(kind, "lock") || !strcmp(kind, "unlock")) {
                        if (!string_member(ra, v, at, &name))
                                return FALSE;
                        if (!*name || strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
                            != strlen(name))
                                return refuse(ra, at, "'%s' is not a name the model takes (letters, digits, _, -)",
                                              name);
                        mutex_used(ra, name);
                        g_string_append_printf(p, "%s %s; ", kind, name);
                } else {
                        g_autofree char *q = NULL;

                        if (!int_member(ra, v, at, 0, G_MAXINT32, &us))
                                return FALSE;
                        q = units_format_duration(us * 1000);
                        /* runtime is wall-clock time running; on a CPU of its own it is CPU time */
                        g_string_append_printf(p, "%s %s; ", !strcmp(kind, "sleep") ? "sleep" : "compute", q);
                }
        }
        return TRUE;
}

static gboolean sched_read(struct rtapp *ra, JsonObject *o, const char *json_path, struct itask *t)
{
        const char *policy = ra->default_policy;
        int64_t prio = 0;
        g_autofree char *at = g_strdup_printf("%s.policy", json_path);
        g_autofree char *pat = g_strdup_printf("%s.priority", json_path);

        if (json_object_has_member(o, "policy") && !string_member(ra, json_object_get_member(o, "policy"), at, &policy))
                return FALSE;
        if (!strcmp(policy, "SCHED_OTHER")) {
                if (json_object_has_member(o, "priority") &&
                    !int_member(ra, json_object_get_member(o, "priority"), pat, -20, 19, &prio))
                        return FALSE;
                t->sched = g_strdup_printf("normal:%" G_GINT64_FORMAT, prio);
        } else if (!strcmp(policy, "SCHED_FIFO") || !strcmp(policy, "SCHED_RR")) {
                if (json_object_has_member(o, "priority") &&
                    !int_member(ra, json_object_get_member(o, "priority"), pat, 1, 99, &prio))
                        return FALSE;
                t->sched = g_strdup_printf("%s:%" G_GINT64_FORMAT, policy[6] == 'F' ? "fifo" : "rr", MAX(1, prio));
        } else {
                return refuse(ra, at, "'%s': the model schedules SCHED_OTHER, SCHED_FIFO and SCHED_RR", policy);
        }
        t->sched_note = g_strdup_printf("rt-app: %s", policy);
        return TRUE;
}

static gboolean cpus_read(struct rtapp *ra, JsonObject *o, const char *json_path, struct itask *t)
{
        JsonArray *a;
        g_autoptr(GString) list = g_string_new(NULL);
        g_autofree char *at = g_strdup_printf("%s.cpus", json_path);

        if (!json_object_has_member(o, "cpus"))
                return TRUE;
        if (!JSON_NODE_HOLDS_ARRAY(json_object_get_member(o, "cpus")))
                return refuse(ra, at, "expected an array of CPU numbers");
        a = json_object_get_array_member(o, "cpus");
        for (guint i = 0; i < json_array_get_length(a); i++) {
                g_autofree char *ai = g_strdup_printf("%s[%u]", at, i);
                int64_t c;

                if (!int_member(ra, json_array_get_element(a, i), ai, 0, 1023, &c))
                        return FALSE;
                ra->im->ncpus = MAX(ra->im->ncpus, (int)c + 1);
                g_string_append_printf(list, "%s%" G_GINT64_FORMAT, list->len ? "," : "", c);
        }
        if (list->len)
                t->affinity = g_strdup(list->str);
        return TRUE;
}

/* One thread: its scheduling, CPUs, start, copies and program. */
static gboolean task_read(struct rtapp *ra, const char *name, JsonNode *node)
{
        static const char *const props[] = { "instance", "loop", "policy", "priority", "cpus", "phases", "delay", NULL };
        g_autofree char *json_path = g_strdup_printf("tasks.%s", name);
        struct itask *t = import_task_new(name, -1);
        g_autoptr(GString) body = g_string_new(NULL);
        JsonObject *o;
        int64_t loop = -1, instance = 1, delay = 0, period_us = 0;

        g_ptr_array_add(ra->im->tasks, t);
        if (!JSON_NODE_HOLDS_OBJECT(node))
                return refuse(ra, json_path, "expected an object");
        o = json_node_get_object(node);
        if (strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") != strlen(name) ||
            strlen(name) > 64)
                return refuse(ra, json_path, "'%s' is not a task name the model takes (1-64 letters, digits, _, -)",
                              name);
#define MEMBER_INT(key, lo, hi, out)                                                                          \
        do {                                                                                                  \
                g_autofree char *at_ = g_strdup_printf("%s.%s", json_path, key);                              \
                if (json_object_has_member(o, key) && !int_member(ra, json_object_get_member(o, key), at_, lo, \
                                                                  hi, out))                                   \
                        return FALSE;                                                                         \
        } while (0)
        MEMBER_INT("loop", -1, G_MAXINT32, &loop);
        MEMBER_INT("instance", 1, 100000, &instance);
        MEMBER_INT("delay", 0, G_MAXINT32, &delay);
#undef MEMBER_INT
        if (loop == 0)
                return refuse(ra, json_path, "loop 0: the thread does nothing");
        if (!sched_read(ra, o, json_path, t) || !cpus_read(ra, o, json_path, t))
                return FALSE;
        if (json_object_has_member(o, "phases")) {
                JsonNode *ph = json_object_get_member(o, "phases");
                g_autoptr(GList) names = NULL;

                if (!JSON_NODE_HOLDS_OBJECT(ph))
                        return refuse(ra, json_path, "phases: expected an object");
                names = json_object_get_members(json_node_get_object(ph));
                for (GList *l = names; l; l = l->next) {
                        static const char *const phase_props[] = { "loop", NULL };
                        JsonNode *pn = json_object_get_member(json_node_get_object(ph), l->data);
                        g_autofree char *pat = g_strdup_printf("%s.phases.%s", json_path, (char *)l->data);
                        g_autofree char *lat = g_strdup_printf("%s.loop", pat);
                        g_autoptr(GString) pb = g_string_new(NULL);
                        int64_t ploop = 1;

                        if (!JSON_NODE_HOLDS_OBJECT(pn))
                                return refuse(ra, pat, "expected an object");
                        if (json_object_has_member(json_node_get_object(pn), "loop") &&
                            !int_member(ra, json_object_get_member(json_node_get_object(pn), "loop"), lat, 1,
                                        G_MAXINT32, &ploop))
                                return FALSE;
                        if (!events_read(ra, json_node_get_object(pn), pat, phase_props, pb, NULL))
                                return FALSE;
                        if (ploop == 1) {
                                g_string_append(body, pb->str);
                        } else {
                                g_string_truncate(pb, MAX(2, pb->len) - 2);     /* its last "; " */
                                g_string_append_printf(body, "repeat %" G_GINT64_FORMAT " { %s }; ", ploop, pb->str);
                        }
                }
        } else if (!events_read(ra, o, json_path, props, body, loop == -1 ? &period_us : NULL)) {
                return FALSE;
        }
        if (!body->len)
                return refuse(ra, json_path, "no event the model runs");
        while (body->len && (body->str[body->len - 1] == ' ' || body->str[body->len - 1] == ';'))
                g_string_truncate(body, body->len - 1);
        if (period_us) {
                t->period_ns = period_us * 1000;
                t->program = g_strdup(body->str);
                import_note(t->notes, "rt-app: its timer's period; the program once per release");
        } else if (loop == -1) {
                t->program = g_strdup_printf("loop { %s }", body->str);
        } else {
                t->program = g_strdup_printf("repeat %" G_GINT64_FORMAT " { %s }", loop, body->str);
        }
        t->start_ns = delay * 1000;
        if (instance > 1)
                import_note(t->notes, "rt-app: instance %" G_GINT64_FORMAT " (count=%" G_GINT64_FORMAT
                            ": copies %s.0 ..)", instance, instance, name);
        t->count = (int)instance;
        return TRUE;
}

gboolean import_rtapp(struct import *im, const char *path, GError **error)
{
        g_autoptr(JsonParser) parser = json_parser_new();
        struct rtapp ra = { .im = im, .path = path, .default_policy = "SCHED_OTHER", .error = error };
        JsonObject *root, *tasks, *global = NULL;
        g_autoptr(GList) names = NULL;
        GError *e = NULL;

        if (!json_parser_load_from_file(parser, path, &e)) {
                g_set_error(error, G_MARKUP_ERROR, G_MARKUP_ERROR_PARSE, "%s: not JSON rt-app reads: %s", path,
                            e->message);
                g_error_free(e);
                return FALSE;
        }
        if (!JSON_NODE_HOLDS_OBJECT(json_parser_get_root(parser)))
                return refuse(&ra, "(top)", "expected an object");
        root = json_node_get_object(json_parser_get_root(parser));
        if (!json_object_has_member(root, "tasks") || !JSON_NODE_HOLDS_OBJECT(json_object_get_member(root, "tasks")))
                return refuse(&ra, "tasks", "expected an object of threads");
        tasks = json_object_get_object_member(root, "tasks");
        im->ncpus = 1;
        im->duration_ns = 0;
        if (json_object_has_member(root, "global")) {
                g_autoptr(GList) keys = NULL;

                if (!JSON_NODE_HOLDS_OBJECT(json_object_get_member(root, "global")))
                        return refuse(&ra, "global", "expected an object");
                global = json_object_get_object_member(root, "global");
                keys = json_object_get_members(global);
                for (GList *l = keys; l; l = l->next) {
                        g_autofree char *at = g_strdup_printf("global.%s", (char *)l->data);
                        JsonNode *v = json_object_get_member(global, l->data);
                        int64_t s;

                        if (!strcmp(l->data, "duration")) {
                                if (!int_member(&ra, v, at, -1, 100000, &s))
                                        return FALSE;
                                if (s <= 0)
                                        return refuse(&ra, at, "%" G_GINT64_FORMAT ": a scenario runs for a time "
                                                      "(rcuboost import --duration sets it)", s);
                                im->duration_ns = s * 1000000000;
                        } else if (!strcmp(l->data, "default_policy")) {
                                if (!string_member(&ra, v, at, &ra.default_policy))
                                        return FALSE;
                        } else if (!g_strv_contains(global_ignored, l->data)) {
                                return refuse(&ra, at, "the model has no such setting");
                        }
                }
        }
        names = json_object_get_members(tasks);
        if (!names)
                return refuse(&ra, "tasks", "no threads");
        for (GList *l = names; l; l = l->next)
                if (!task_read(&ra, l->data, json_object_get_member(tasks, l->data)))
                        return FALSE;
        if (global)
                import_note(im->notes, "rt-app's global settings for itself (calibration, logs, ftrace) are not "
                            "the workload's: left out");
        return TRUE;
}
