/* import.c - `rcuboost import`: the options, the reader for the file, and
 * the scenario written whole or not at all (see import.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "import.h"
#include "../cli.h"
#include "../realruns.h"
#include "../../sim/output/report.h"
#include "../../sim/output/output.h"
#include "../../sim/scenario/scenario.h"
#include "../../sim/scenario/units.h"

/* Threads under this share of one CPU fold into one task by default. */
#define IMPORT_FOLD_BELOW 0.01

struct import *import_new(const char *source, const char *format)
{
        struct import *im = g_new0(struct import, 1);

        im->source = g_strdup(source);
        im->format = format;
        im->tasks = g_ptr_array_new_with_free_func((GDestroyNotify)import_task_free);
        im->sections = g_ptr_array_new_with_free_func(g_free);
        im->notes = g_ptr_array_new_with_free_func(g_free);
        im->mutexes = g_ptr_array_new_with_free_func(g_free);
        return im;
}

void import_free(struct import *im)
{
        if (!im)
                return;
        g_free(im->source);
        g_free(im->imported_from);
        g_ptr_array_unref(im->tasks);
        g_ptr_array_unref(im->sections);
        g_ptr_array_unref(im->notes);
        g_ptr_array_unref(im->mutexes);
        g_free(im);
}

struct itask *import_task_new(const char *comm, int pid)
{
        struct itask *t = g_new0(struct itask, 1);

        t->name = g_strdup(comm);
        t->comm = g_strdup(comm);
        t->pid = pid;
        t->notes = g_ptr_array_new_with_free_func(g_free);
        t->bursts = g_array_new(FALSE, FALSE, sizeof(int64_t));
        t->sleeps = g_array_new(FALSE, FALSE, sizeof(int64_t));
        t->wake_times = g_array_new(FALSE, FALSE, sizeof(int64_t));
        t->prio_ns = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
        return t;
}

void import_task_free(struct itask *t)
{
        g_free(t->name);
        g_free(t->comm);
        g_free(t->sched);
        g_free(t->sched_note);
        g_free(t->affinity);
        g_free(t->affinity_note);
        g_free(t->program);
        g_ptr_array_unref(t->notes);
        g_array_unref(t->bursts);
        g_array_unref(t->sleeps);
        g_array_unref(t->wake_times);
        g_hash_table_destroy(t->prio_ns);
        g_free(t);
}

void import_note(GPtrArray *notes, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        g_ptr_array_add(notes, g_strdup_vprintf(fmt, ap));
        va_end(ap);
}

/* What the command line asked for. */
struct import_cli {
        char *out;
        char *format;
        char *fold_below;
        char *start;
        char *duration;
        char **readers;
        char **call_rcus;
        gboolean keep_all;
        gboolean quiet;
};

static GOptionContext *options_context(struct import_cli *c)
{
        const GOptionEntry entries[] = {
                { "out", 'o', 0, G_OPTION_ARG_FILENAME, &c->out,
                  "Write the scenario to FILE (default: standard output)", "FILE" },
                { "format", 'f', 0, G_OPTION_ARG_STRING, &c->format,
                  "trace (trace-cmd's trace.dat) or rt-app (its JSON); default: by the file's first bytes", "FORMAT" },
                { "reader", 0, 0, G_OPTION_ARG_STRING_ARRAY, &c->readers,
                  "Each run of TASK begins with a read-side section of LENGTH (a trace cannot show them; "
                  "repeatable)", "TASK=LENGTH" },
                { "call-rcu", 0, 0, G_OPTION_ARG_STRING_ARRAY, &c->call_rcus,
                  "Each run of TASK ends with a call_rcu() of SIZE (repeatable)", "TASK=SIZE" },
                { "fold-below", 0, 0, G_OPTION_ARG_STRING, &c->fold_below,
                  "trace: threads under this share of a CPU become one task 'folded' (default 1%; 0: none)", "PCT" },
                { "keep-all", 0, 0, G_OPTION_ARG_NONE, &c->keep_all,
                  "trace: every thread a task of its own, kernel threads too (no folding, no mapping)", NULL },
                { "start", 0, 0, G_OPTION_ARG_STRING, &c->start,
                  "trace: the workload starts at this trace time, in seconds as trace-cmd report prints it "
                  "(default: the first event)", "SECONDS" },
                { "duration", 'd', 0, G_OPTION_ARG_STRING, &c->duration,
                  "The scenario's duration (default: the trace's length; rt-app's global.duration)", "TIME" },
                { "quiet", 'q', 0, G_OPTION_ARG_NONE, &c->quiet, "Print nothing but errors", NULL },
                { NULL },
        };
        GOptionContext *ctx = g_option_context_new("FILE - a scenario from a trace-cmd recording or an rt-app "
                                                   "workload");

        g_option_context_add_main_entries(ctx, entries, NULL);
        g_option_context_set_description(ctx,
                "From trace.dat (trace-cmd record -e sched [-e rcu]): a task per thread that used a CPU --\n"
                "its priority and CPUs from sched_switch, its program from its runs and sleeps: a period\n"
                "where its wake-ups keep time, else a loop of fitted run and sleep lengths (exp, normal,\n"
                "lognormal or uniform, the nearest by Kolmogorov-Smirnov distance; the comments say which\n"
                "and how well).  ktimers/N, rcu_preempt, rcuc/N and rcub/N become [sched] and [rcu] keys.\n"
                "Read-side sections are in a trace only where rcuboost's module recorded them\n"
                "(scripts/kernel-run); give others with --reader.  Callbacks from rcu:rcu_callback, or\n"
                "--call-rcu.  From rt-app JSON: its threads' policies, priorities, CPUs, run, sleep,\n"
                "timer, lock and unlock events, loops and phases; anything else is refused with its JSON\n"
                "path.  The scenario is checked to load before it is written (docs/usage.md, \"Your own\n"
                "box as a scenario\").\n\n"
                "Examples:\n"
                "  rcuboost import trace.dat --reader reader=100us --call-rcu updater=4KiB -o mybox.scn\n"
                "  rcuboost import workload.json -o mybox.scn\n\n" CLI_EXIT_HELP);
        return ctx;
}

/* TASK=VALUE pairs whose VALUE @parse reads; -1, or the exit status (said). */
static int pairs_checked(GOptionContext *ctx, char **pairs, const char *option,
                         gboolean (*parse)(const char *, int64_t *, GError **))
{
        for (char **p = pairs; p && *p; p++) {
                const char *eq = strchr(*p, '=');
                int64_t v;
                GError *e = NULL;

                if (!eq || eq == *p || !eq[1])
                        return cli_usage_error(ctx, "--%s %s: expected TASK=VALUE", option, *p);
                if (!parse(eq + 1, &v, &e)) {
                        int status = cli_usage_error(ctx, "--%s %s: %s", option, *p, e->message);

                        g_error_free(e);
                        return status;
                }
        }
        return -1;
}

/* Every TASK a pair names is one the import made; -1, or the exit status. */
static int pairs_found(const struct import *im, char **pairs, const char *option)
{
        for (char **p = pairs; p && *p; p++) {
                g_autofree char *name = g_strndup(*p, strcspn(*p, "="));
                g_autoptr(GString) names = g_string_new(NULL);
                bool found = false;

                for (guint i = 0; i < im->tasks->len; i++) {
                        const struct itask *t = im->tasks->pdata[i];

                        found |= !strcmp(t->name, name);
                        g_string_append_printf(names, "%s%s", names->len ? ", " : "", t->name);
                }
                if (!found) {
                        fprintf(stderr, "rcuboost: --%s %s: no task '%s' in the import (its tasks: %s)\n", option,
                                *p, name, names->str);
                        return EXIT_USAGE;
                }
        }
        return -1;
}

/* "trace" or "rt-app", by --format or the file's first bytes (a JSON object). */
static const char *format_of(const char *format, const char *path, GError **error)
{
        char head[64] = { 0 };
        FILE *f;
        size_t n;

        if (format)
                return format;
        f = fopen(path, "rb");
        if (!f) {
                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno), "%s: %s", path, g_strerror(errno));
                return NULL;
        }
        n = fread(head, 1, sizeof(head) - 1, f);
        fclose(f);
        for (size_t i = 0; i < n; i++)
                if (!g_ascii_isspace(head[i]))
                        return head[i] == '{' ? "rt-app" : "trace";
        return "trace";
}

/* The seconds trace-cmd report prints (2.356500), or a duration with its unit. */
static gboolean trace_time(const char *s, int64_t *ns)
{
        char *end;
        double v = g_ascii_strtod(s, &end);

        if (end != s && !*end && v >= 0 && v < 1e9) {
                *ns = (int64_t)(v * 1e9 + 0.5);
                return TRUE;
        }
        return units_parse_duration(s, ns, NULL);
}

/* A trace.dat in a run directory of scripts/kernel-run: the scenario it was
 * a run of, from the summary.json beside it (compare --real takes its runs). */
static void run_found(struct import *im, const char *path)
{
        g_autofree char *dir = g_path_get_dirname(path);
        g_autofree char *summary = g_build_filename(dir, "summary.json", NULL);
        struct report *r;
        const char *name, *sha;

        if (!g_file_test(summary, G_FILE_TEST_IS_REGULAR) || !(r = real_summary_load(summary, NULL)))
                return;
        name = report_lookup_string(r, "scenario");
        sha = report_lookup_string(r, "scenario_sha256");
        if (name && sha && strlen(sha) == 64) {
                im->imported_from = g_strdup_printf("%s@%s", name, sha);
                import_note(im->notes, "a real-kernel run of scenario %s (the summary.json beside it): "
                            "compare --real takes that scenario's runs as this one's", name);
        }
        report_free(r);
}

/* The text loads as a scenario (else the import is wrong: a bug), then is
 * written whole to --out, or to standard output. */
static int import_written(const struct import_cli *c, const char *path, const char *text, const struct import *im)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(RcbScenario) sc = scenario_load_data(text, c->out ? c->out : "imported.scn", NULL, &e);

        if (!sc) {
                fprintf(stderr, "rcuboost: %s: the scenario made from it does not load (a bug in import): %s\n",
                        path, e->message);
                return EXIT_FAILED;
        }
        if (!c->out) {
                fputs(text, stdout);
                return EXIT_OK;
        }
        if (!output_set_contents(c->out, text, -1, &e)) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                return EXIT_FAILED;
        }
        if (!c->quiet)
                fprintf(stderr, "rcuboost: %s: %u tasks on %d CPUs -> %s (its comments say where each figure "
                        "came from)\n", path, im->tasks->len, im->ncpus, c->out);
        return EXIT_OK;
}

static int import_run(GOptionContext *ctx, struct import_cli *c, const char *path)
{
        struct import_opts o = {
                .fold_below = IMPORT_FOLD_BELOW, .start_ns = -1, .readers = c->readers,
                .call_rcus = c->call_rcus, .keep_all = c->keep_all,
        };
        g_autoptr(GError) e = NULL;
        const char *format = format_of(c->format, path, &e);
        struct import *im = NULL;
        g_autofree char *text = NULL;
        int64_t duration = 0;
        int status;
        gboolean ok;

        if (!format) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                return EXIT_USAGE;
        }
        if (strcmp(format, "trace") && strcmp(format, "rt-app"))
                return cli_usage_error(ctx, "--format: '%s' is not trace or rt-app", format);
        if (c->fold_below) {
                char *end;
                double pct = g_ascii_strtod(c->fold_below, &end);

                if (end == c->fold_below || (*end && strcmp(end, "%")) || pct < 0 || pct > 100)
                        return cli_usage_error(ctx, "--fold-below: '%s' is not a share from 0%% to 100%%",
                                               c->fold_below);
                o.fold_below = pct / 100;
        }
        if (c->start && !trace_time(c->start, &o.start_ns))
                return cli_usage_error(ctx, "--start: '%s' is not a trace time (seconds, e.g. 2.3565)", c->start);
        if (c->duration && (!units_parse_duration(c->duration, &duration, NULL) || duration <= 0))
                return cli_usage_error(ctx, "--duration: '%s' is not a duration, e.g. 3s", c->duration);
        if ((status = pairs_checked(ctx, c->readers, "reader", units_parse_duration)) >= 0 ||
            (status = pairs_checked(ctx, c->call_rcus, "call-rcu", units_parse_size)) >= 0)
                return status;
        if (!strcmp(format, "rt-app") && (c->readers || c->call_rcus || c->start || c->fold_below || c->keep_all))
                return cli_usage_error(ctx, "--reader, --call-rcu, --start, --fold-below and --keep-all are for a "
                                       "trace; an rt-app workload says what its threads do");
        im = import_new(path, !strcmp(format, "trace") ? "trace.dat" : "rt-app");
        ok = !strcmp(format, "trace") ? import_trace(im, path, &o, &e) : import_rtapp(im, path, &e);
        if (!ok) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                import_free(im);
                return EXIT_USAGE;
        }
        if (duration)
                im->duration_ns = duration;
        if (!strcmp(format, "trace"))
                run_found(im, path);
        if (!im->duration_ns) {
                import_free(im);
                fprintf(stderr, "rcuboost: %s: no global.duration: give --duration\n", path);
                return EXIT_USAGE;
        }
        if ((status = pairs_found(im, c->readers, "reader")) >= 0 ||
            (status = pairs_found(im, c->call_rcus, "call-rcu")) >= 0) {
                import_free(im);
                return status;
        }
        text = import_scenario_text(im);
        status = import_written(c, path, text, im);
        import_free(im);
        return status;
}

int cli_import(int argc, char **argv)
{
        struct import_cli c = { 0 };
        g_autoptr(GOptionContext) ctx = options_context(&c);
        int status = EXIT_OK;

        if (cli_parse_options(ctx, &argc, &argv, &status)) {
                if (argc != 2)
                        status = cli_usage_error(ctx, argc < 2 ? "import: which file? (a trace.dat or an rt-app "
                                                 "JSON)" : "import: one file at a time");
                else
                        status = import_run(ctx, &c, argv[1]);
        }
        g_free(c.out);
        g_free(c.format);
        g_free(c.fold_below);
        g_free(c.start);
        g_free(c.duration);
        g_strfreev(c.readers);
        g_strfreev(c.call_rcus);
        return status;
}
