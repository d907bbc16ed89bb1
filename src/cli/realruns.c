/* realruns.c - real-kernel runs read back; see realruns.h. */
#include "realruns.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sys/stat.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/output/report.h"
#include "../sim/scenario/scenario.h"

/* A figure compare can show: finite, within a 64-bit count of ns or bytes,
 * and not negative where it counts or measures something (a key ending in
 * _ns, _bytes, or a count).  A wait of -1 says "none" where the harness
 * writes it (oom_time_ns); trace_dat_from_ns is an offset from the run's start. */
static gboolean plausible(const char *key, double v, GError **error)
{
        static const char *const counts[] = { "run", "seed", "grace_periods", "n_boosts", "readers",
                                              "readers_boosted", "wall_seconds", "count" };
        const char *last = strrchr(key, '.') ? strrchr(key, '.') + 1 : key;
        bool measure = g_str_has_suffix(key, "_ns") || g_str_has_suffix(key, "_bytes");

        for (size_t i = 0; i < G_N_ELEMENTS(counts); i++)
                measure |= !strcmp(last, counts[i]);
        if (!isfinite(v) || fabs(v) > 9.2e18)
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID, "%s: %g is not a figure a run measures",
                            key, v);
        else if (measure && v < 0 && !(v == -1 && g_str_has_suffix(key, "oom_time_ns")) &&
                 strcmp(key, "trace_dat_from_ns"))  /* an offset: the trace began before the run */
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID, "%s: %g, below zero", key, v);
        return *error == NULL;
}

/* Objects become dotted keys, as report_write_json() nests them; arrays
 * (the list of what was not measured) are left out.  The first implausible
 * figure stops it, in *@error. */
static void flatten(struct report *r, const char *prefix, JsonNode *node, GError **error)
{
        if (*error)
                return;
        if (JSON_NODE_HOLDS_OBJECT(node)) {
                JsonObject *o = json_node_get_object(node);
                g_autoptr(GList) members = json_object_get_members(o);

                for (GList *m = members; m; m = m->next) {
                        g_autofree char *key = *prefix ? g_strconcat(prefix, ".", m->data, NULL) : g_strdup(m->data);

                        flatten(r, key, json_object_get_member(o, m->data), error);
                }
        } else if (JSON_NODE_HOLDS_NULL(node)) {
                report_null(r, prefix);
        } else if (JSON_NODE_HOLDS_VALUE(node)) {
                switch (json_node_get_value_type(node) == G_TYPE_INT64 ? 'i'
                        : json_node_get_value_type(node) == G_TYPE_DOUBLE ? 'd'
                        : json_node_get_value_type(node) == G_TYPE_BOOLEAN ? 'b' : 's') {
                case 'i':
                        if (plausible(prefix, (double)json_node_get_int(node), error))
                                report_int(r, prefix, json_node_get_int(node));
                        break;
                case 'd':
                        if (plausible(prefix, json_node_get_double(node), error))
                                report_double(r, prefix, json_node_get_double(node));
                        break;
                case 'b':
                        report_bool(r, prefix, json_node_get_boolean(node));
                        break;
                default:
                        report_string(r, prefix, json_node_get_string(node));
                        break;
                }
        }
}

struct report *real_summary_load(const char *path, GError **error)
{
        g_autoptr(JsonParser) parser = json_parser_new();
        GError *e = NULL;
        struct report *r;

        if (!json_parser_load_from_file(parser, path, &e)) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_IO, "%s: %s", path, e->message);
                g_error_free(e);
                return NULL;
        }
        if (!JSON_NODE_HOLDS_OBJECT(json_parser_get_root(parser))) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID, "%s: not a summary (no JSON object)", path);
                return NULL;
        }
        r = report_new();
        flatten(r, "", json_parser_get_root(parser), &e);
        if (e) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID, "%s: %s", path, e->message);
                g_error_free(e);
                report_free(r);
                return NULL;
        }
        if (!report_has(r, "real")) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                            "%s: not a real-kernel run (no \"real\" key: scripts/kernel-run writes them)", path);
                report_free(r);
                return NULL;
        }
        return r;
}

static gint by_run_number(gconstpointer a, gconstpointer b)
{
        long x = strtol(strrchr(*(char *const *)a, '-') + 1, NULL, 10);
        long y = strtol(strrchr(*(char *const *)b, '-') + 1, NULL, 10);

        return (x > y) - (x < y);
}

/* What compare reads of a real run: regular files of a sane size, else
 * refused naming the file -- a FIFO named memory.csv would block compare
 * forever, a link to /dev/zero would fill its memory. */
#define REAL_FILE_MAX ((goffset)256 << 20)

static gboolean real_files_sane(const char *rundir, GError **error)
{
        static const char *const files[] = { "summary.json", "memory.csv", "gp.csv", "distributions.csv",
                                             "boost.csv", "latency.csv" };

        for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
                g_autofree char *path = g_build_filename(rundir, files[i], NULL);
                GStatBuf st;

                if (g_stat(path, &st) != 0)
                        continue;       /* absent: compare does without it */
                if (!S_ISREG(st.st_mode)) {
                        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                                    "%s: not a regular file (a real run is files scripts/kernel-run wrote)", path);
                        return FALSE;
                }
                if (st.st_size > REAL_FILE_MAX) {
                        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                                    "%s: %" G_GINT64_FORMAT " bytes, more than a real run writes (%" G_GINT64_FORMAT
                                    ")", path, (gint64)st.st_size, (gint64)REAL_FILE_MAX);
                        return FALSE;
                }
        }
        return TRUE;
}

char **real_run_dirs(const char *dir, GError **error)
{
        g_autoptr(GDir) d = g_dir_open(dir, 0, error);
        g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func(g_free);
        const char *name;

        if (!d)
                return NULL;
        while ((name = g_dir_read_name(d))) {
                g_autofree char *path = g_build_filename(dir, name, "summary.json", NULL);
                char *end;

                if (!g_str_has_prefix(name, "run-") || strtol(name + 4, &end, 10) <= 0 || *end ||
                    !g_file_test(path, G_FILE_TEST_IS_REGULAR))
                        continue;
                g_ptr_array_add(runs, g_build_filename(dir, name, NULL));
        }
        if (runs->len == 0) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_IO,
                            "%s: no run-N/summary.json (the output of scripts/kernel-run --out DIR)", dir);
                return NULL;
        }
        for (guint i = 0; i < runs->len; i++)
                if (!real_files_sane(runs->pdata[i], error))
                        return NULL;
        g_ptr_array_sort(runs, by_run_number);
        g_ptr_array_add(runs, NULL);
        return (char **)g_ptr_array_steal(runs, NULL);
}

/* The data rows of a CSV file under @rundir, each split at commas; NULL if it cannot be read. */
static GPtrArray *csv_rows(const char *rundir, const char *name)
{
        g_autofree char *path = g_build_filename(rundir, name, NULL);
        g_autofree char *text = NULL;
        GPtrArray *rows;
        g_auto(GStrv) lines = NULL;

        if (!g_file_get_contents(path, &text, NULL, NULL))
                return NULL;
        rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
        lines = g_strsplit(text, "\n", -1);
        for (int i = 1; lines[0] && lines[i]; i++)      /* after the header */
                if (*lines[i])
                        g_ptr_array_add(rows, g_strsplit(lines[i], ",", -1));
        return rows;
}

double run_boost_from_gp(const char *rundir)
{
        g_autoptr(GPtrArray) boosts = csv_rows(rundir, "boost.csv");
        g_autoptr(GPtrArray) gps = NULL;
        double t = NAN;

        /* time_ns,event,...: the first boost */
        for (guint i = 0; boosts && i < boosts->len && isnan(t); i++) {
                char **f = boosts->pdata[i];

                if (g_strv_length(f) >= 2 && !strcmp(f[1], "boost"))
                        t = g_ascii_strtod(f[0], NULL);
        }
        if (isnan(t) || !(gps = csv_rows(rundir, "gp.csv")))
                return NAN;
        /* N,start_ns,end_ns,...: the grace period it came in */
        for (guint i = 0; i < gps->len; i++) {
                char **f = gps->pdata[i];

                if (g_strv_length(f) < 3)
                        continue;
                double start = g_ascii_strtod(f[1], NULL), end = g_ascii_strtod(f[2], NULL);

                if (start <= t && t <= end)
                        return t - start;
        }
        return NAN;
}
