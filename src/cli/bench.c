/* bench.c - `rcuboost bench`: how fast the engine is, and how its cost grows.
 *
 * Three workloads, each run in a fresh child process (so that its peak RSS
 * is its own) --repeat times, reported as medians:
 *   null-events  the raw event queue, as ns-3's utils/bench-scheduler.cc
 *                measures it: 1e5 pending events, 1e6 events, each
 *                scheduling its successor exp(mean 100 ns) ahead (also
 *                with 1e6 pending: null-events:1000000);
 *   reference    scenarios/bench-large.scn (64 CPUs, 2,000 tasks, HZ=1000,
 *                10 s) under booster;
 *   scaling      generated scenarios: CPUs 1..1024 (32 tasks per CPU) and
 *                tasks 10..10,000 (on 16 CPUs), 1 s simulated each.
 * Machines here differ 2-3x and are shared, so every case is also given as a
 * ratio to a baseline measured in the same loop: the barest engine there is
 * (../shared/bench/bare-heap.c: a 4-ary min-heap of (time, seq) keys, no
 * payload) on the null-event workload, run alternately with the case in
 * each repeat so that a change of load hits both.  Ratios are medians of
 * the per-repeat ratios.  Every child runs on one CPU (--cpu; the first
 * this process may use by default): on a virtual machine whose CPUs run
 * at different speeds, the baseline and the case would otherwise not see
 * the same one.  Results go to DIR/bench.json and, with gnuplot,
 * DIR/scaling.png.
 */
#define _GNU_SOURCE     /* sched_setaffinity */
#include <json-glib/json-glib.h>
#include <sched.h>

#include <gio/gio.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bareheap.h"
#include "cli.h"
#include "plot.h"
#include "sim/engine/eventq.h"
#include "sim/output/output.h"
#include "sim/output/report.h"
#include "sim/scenario/scenario.h"
#include "sim/sim.h"

struct sample {
        double events;
        double wall_s;
        double sim_s;
        double rss_kib;
};

static double peak_rss_kib(void)
{
        g_autofree char *status = NULL;
        const char *p;

        if (!g_file_get_contents("/proc/self/status", &status, NULL, NULL) ||
            !(p = strstr(status, "VmHWM:")))
                return 0;
        return g_ascii_strtod(p + 6, NULL);
}

/* ---- the workloads (run in the child) ---- */

static void null_handler(struct sim *sim, struct event *ev)
{
        (void)sim;
        (void)ev;
}

/* The baseline (bareheap.c, built as the reference is: -O2, no LTO). */
static struct sample run_bare_heap(int population)
{
        struct sample s = { 0 };

        s.wall_s = bare_heap_run(population, &s.events);
        return s;
}

static struct sample run_null_events(int population)
{
        enum { EVENTS = 1000000 };
        struct eventq q;
        struct event *evs = g_new(struct event, population);
        gsl_rng *rng = gsl_rng_alloc(gsl_rng_taus2);
        struct sample s = { 0 };
        gint64 t0;

        eventq_init(&q);
        gsl_rng_set(rng, 1);
        for (int i = 0; i < population; i++) {
                event_init(&evs[i], null_handler);
                eventq_schedule(&q, &evs[i], (int64_t)gsl_ran_exponential(rng, 100.0));
        }
        t0 = g_get_monotonic_time();
        for (int i = 0; i < EVENTS; i++) {
                struct event *ev = eventq_pop(&q);

                ev->fn(NULL, ev);
                /* As ns-3's bench-scheduler: each event schedules its
                 * successor an exponential time, mean 100 ns, ahead. */
                eventq_schedule(&q, ev, ev->when + (int64_t)gsl_ran_exponential(rng, 100.0));
        }
        s.wall_s = (double)(g_get_monotonic_time() - t0) / 1e6;
        s.events = EVENTS;
        eventq_finish(&q);
        g_free(evs);
        gsl_rng_free(rng);
        return s;
}

static struct sample run_scenario_text(const char *text, const char *name, const char *policy)
{
        GError *e = NULL;
        g_autoptr(RcbScenario) sc = scenario_load_data(text, name, NULL, &e);
        g_autoptr(RcbSim) sim = NULL;
        struct sample s = { 0 };
        gint64 t0;
        double v = 0;

        if (!sc || !(sim = sim_new(sc, &(struct sim_options){ .policy = policy }, &e))) {
                fprintf(stderr, "rcuboost: bench: %s\n", e->message);
                exit(EXIT_FAILED);
        }
        t0 = g_get_monotonic_time();
        sim_run(sim);
        s.wall_s = (double)(g_get_monotonic_time() - t0) / 1e6;
        sim_finish(sim, NULL);
        report_lookup(sim_report(sim), "events", &v);
        s.events = v;
        s.sim_s = sim_now(sim) / 1e9;
        return s;
}

/* A generated scenario: @tasks tasks on @cpus CPUs, one second long. */
static char *scaling_scenario(int cpus, int tasks)
{
        int cyclic = MAX(1, tasks / 20), hogs = MAX(1, cpus / 4), updaters = MAX(1, tasks / 8);
        int readers = MAX(1, tasks - cyclic - hogs - updaters);

        return g_strdup_printf(
                "[scenario]\ncpus=%d\nduration=1s\nseed=1\n[output]\nmemory_sample=10ms\n"
                "[rcu]\nmemory_limit=off\n"
                "[task:reader]\ncount=%d\nprogram=loop { rcu_read_lock; compute exp(200us); rcu_read_unlock; sleep exp(5ms) }\n"
                "[task:updater]\ncount=%d\nprogram=loop { compute exp(50us); call_rcu 1KiB; sleep exp(2ms) }\n"
                "[task:cyclic]\nsched=fifo:80\ncount=%d\nperiod=1ms\nprogram=compute 10us\n"
                "[task:hog]\nsched=fifo:10\ncount=%d\nstart=200ms\nprogram=loop { compute 300ms; sleep 200ms }\n",
                cpus, readers, updaters, cyclic, hogs);
}

/* "null-events[:POP]", "bare-heap[:POP]", "reference", "cpus:N:T" or "tasks:N:T" */
static int run_case(const char *name)
{
        struct sample s;
        int pop = strchr(name, ':') ? atoi(strchr(name, ':') + 1) : 100000;

        if (g_str_has_prefix(name, "null-events") && pop >= 1 && pop <= 10000000) {
                s = run_null_events(pop);
        } else if (g_str_has_prefix(name, "bare-heap") && pop >= 1 && pop <= 10000000) {
                s = run_bare_heap(pop);
        } else if (!strcmp(name, "reference")) {
                g_autoptr(GBytes) text = g_resources_lookup_data("/rcuboost/scenarios/bench-large.scn", 0, NULL);

                s = run_scenario_text(g_bytes_get_data(text, NULL), "bench-large.scn", "booster");
        } else {
                int cpus = 0, tasks = 0;

                if (sscanf(strchr(name, ':') ? strchr(name, ':') + 1 : "", "%d:%d", &cpus, &tasks) != 2 ||
                    cpus < 1 || tasks < 1) {
                        fprintf(stderr, "rcuboost: bench: unknown case '%s'\n", name);
                        return EXIT_USAGE;
                }
                g_autofree char *text = scaling_scenario(cpus, tasks);

                s = run_scenario_text(text, "scaling.scn", "booster");
        }
        s.rss_kib = peak_rss_kib();
        printf("%.0f %.9f %.9f %.0f\n", s.events, s.wall_s, s.sim_s, s.rss_kib);
        return EXIT_OK;
}

/* ---- the parent: repeat in children, take medians ---- */

struct result {
        char *name;
        char *series;           /* "", "cpus" or "tasks" */
        const char *baseline;   /* the bare-heap case it is measured against */
        int cpus, tasks;
        double events, events_per_s, wall_s, sim_per_wall, rss_kib;
        double baseline_events_per_s, ratio;    /* medians; ratio of events/s, per repeat */
};

static double median(double *v, int n)
{
        gsl_sort(v, 1, (size_t)n);
        return gsl_stats_median_from_sorted_data(v, 1, (size_t)n);
}

static gboolean run_child(const char *self, const char *name, struct sample *s)
{
        const char *argv[] = { self, "bench", "--case", name, NULL };
        g_autofree char *out = NULL;
        int status;

        if (!g_spawn_sync(NULL, (char **)argv, NULL, 0, NULL, NULL, &out, NULL, &status, NULL) ||
            !g_spawn_check_wait_status(status, NULL) ||
            sscanf(out, "%lf %lf %lf %lf", &s->events, &s->wall_s, &s->sim_s, &s->rss_kib) != 4) {
                fprintf(stderr, "rcuboost: bench: case %s failed\n", name);
                return FALSE;
        }
        return TRUE;
}

static gboolean measure(const char *self, struct result *r, int repeat)
{
        double eps[repeat], wall[repeat], ratio[repeat], rss[repeat], base[repeat], rel[repeat];

        for (int i = 0; i < repeat; i++) {
                struct sample s, b;

                /* Baseline and case back to back: a load change hits both. */
                if (!run_child(self, r->baseline, &b) || !run_child(self, r->name, &s))
                        return FALSE;
                eps[i] = s.events / s.wall_s;
                base[i] = b.events / b.wall_s;
                rel[i] = eps[i] / base[i];
                wall[i] = s.wall_s;
                ratio[i] = s.sim_s / s.wall_s;
                rss[i] = s.rss_kib;
                r->events = s.events;
        }
        r->events_per_s = median(eps, repeat);
        r->baseline_events_per_s = median(base, repeat);
        r->ratio = median(rel, repeat);
        r->wall_s = median(wall, repeat);
        r->sim_per_wall = median(ratio, repeat);
        r->rss_kib = median(rss, repeat);
        return TRUE;
}

/* "model name" of /proc/cpuinfo, and the 1-minute load average. */
static char *cpu_model(void)
{
        g_autofree char *info = NULL;
        const char *p;

        if (!g_file_get_contents("/proc/cpuinfo", &info, NULL, NULL) || !(p = strstr(info, "model name")) ||
            !(p = strchr(p, ':')))
                return g_strdup("unknown");
        return g_strstrip(g_strndup(p + 1, strcspn(p + 1, "\n")));
}

static double load_average(void)
{
        g_autofree char *s = NULL;

        return g_file_get_contents("/proc/loadavg", &s, NULL, NULL) ? g_ascii_strtod(s, NULL) : -1;
}

/* Pin this process, and so every child, to @cpu; -1: leave placement to
 * the kernel.  By default (-2) the first CPU it may use.  The CPU pinned
 * to, -1 if none, or -2 if @cpu may not be used. */
static int pin_to_cpu(int cpu)
{
        cpu_set_t allowed, one;

        if (cpu == -1)
                return -1;
        /* Unknown affinity: by default run unpinned (and say so); a CPU
         * asked for by number cannot be checked, so it is refused. */
        if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
                return cpu == -2 ? -1 : -2;
        if (cpu == -2) {
                for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &allowed); cpu++)
                        ;
        }
        if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &allowed))
                return -2;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        return sched_setaffinity(0, sizeof(one), &one) == 0 ? cpu : -2;
}

static void member_int(JsonBuilder *b, const char *name, int64_t v)
{
        json_builder_set_member_name(b, name);
        json_builder_add_int_value(b, v);
}

static void member_double(JsonBuilder *b, const char *name, double v)
{
        json_builder_set_member_name(b, name);
        json_builder_add_double_value(b, v);
}

static void member_string(JsonBuilder *b, const char *name, const char *v)
{
        g_autofree char *valid = g_utf8_make_valid(v, -1);      /* /proc/cpuinfo is not promised UTF-8 */

        json_builder_set_member_name(b, name);
        json_builder_add_string_value(b, valid);
}

/* Counts are integers; ratios and times are doubles, unrounded. */
static gboolean write_json(const char *dir, struct result *res, int n, int repeat, int pinned, GError **error)
{
        struct outfile *o = outfile_open(dir, "bench.json", error);
        g_autoptr(JsonBuilder) b = json_builder_new();
        g_autoptr(JsonGenerator) gen = json_generator_new();
        g_autoptr(JsonNode) root = NULL;
        g_autofree char *model = cpu_model();
        g_autofree char *text = NULL;

        if (!o)
                return FALSE;
        json_builder_begin_object(b);
        member_int(b, "repeat", repeat);
        member_string(b, "statistic", "median");
        json_builder_set_member_name(b, "machine");
        json_builder_begin_object(b);
        member_string(b, "cpu_model", model);
        member_int(b, "online_cpus", g_get_num_processors());
        member_double(b, "load_average_1min", load_average());
        member_int(b, "pinned_cpu", pinned);
        json_builder_end_object(b);
        member_string(b, "baseline", "bare 4-ary heap of (time, seq) keys on the null-event workload, run "
                      "alternately with each case; ratio = events_per_s / baseline_events_per_s, median of "
                      "per-repeat ratios");
        json_builder_set_member_name(b, "results");
        json_builder_begin_array(b);
        for (int i = 0; i < n; i++) {
                json_builder_begin_object(b);
                member_string(b, "case", res[i].name);
                member_string(b, "series", res[i].series);
                member_int(b, "cpus", res[i].cpus);
                member_int(b, "tasks", res[i].tasks);
                member_int(b, "events", llround(res[i].events));
                member_int(b, "events_per_s", llround(res[i].events_per_s));
                member_string(b, "baseline_case", res[i].baseline);
                member_int(b, "baseline_events_per_s", llround(res[i].baseline_events_per_s));
                member_double(b, "ratio_to_baseline", res[i].ratio);
                member_double(b, "wall_s", res[i].wall_s);
                member_double(b, "sim_s_per_wall_s", res[i].sim_per_wall);
                member_int(b, "peak_rss_kib", llround(res[i].rss_kib));
                json_builder_end_object(b);
        }
        json_builder_end_array(b);
        json_builder_end_object(b);
        root = json_builder_get_root(b);
        json_generator_set_root(gen, root);
        json_generator_set_pretty(gen, TRUE);
        json_generator_set_indent(gen, 2);
        text = json_generator_to_data(gen, NULL);
        fputs(text, outfile_stream(o));
        fputc('\n', outfile_stream(o));
        return outfile_commit(o, error);
}

static void plot_scaling(const char *dir, struct result *res, int n)
{
        g_autofree char *data = g_build_filename(dir, "scaling.dat", NULL);
        g_autofree char *script = g_build_filename(dir, "scaling.gp", NULL);
        g_autofree char *png = g_build_filename(dir, "scaling.png", NULL);
        GString *s = g_string_new("# series size events_per_s ns_per_event rss_mib\n");
        g_autoptr(GString) vars = g_string_new(NULL);

        for (int i = 0; i < n; i++)
                if (*res[i].series)
                        g_string_append_printf(s, "%s %d %.0f %.2f %.3f\n", res[i].series,
                                               !strcmp(res[i].series, "cpus") ? res[i].cpus : res[i].tasks,
                                               res[i].events_per_s, 1e9 / res[i].events_per_s,
                                               res[i].rss_kib / 1024);
        output_set_contents(data, s->str, -1, NULL);
        g_string_free(s, TRUE);
        g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
        if (!gnuplot) {
                fprintf(stderr, "rcuboost: gnuplot not found: no scaling plot (numbers in bench.json)\n");
                return;
        }
        struct plotter pl = { .dir = dir, .format = "png", .scenario = "bench" };

        plot_var(vars, "datafile", data);
        plot_draw(&pl, "scaling.gp", script, png, vars, 600);
}

int cli_bench(int argc, char **argv)
{
        g_autofree char *one = NULL;
        g_autofree char *out = NULL;
        gint repeat = 5, cpu = G_MININT, pinned;     /* G_MININT: --cpu not given */
        gboolean quick = FALSE, quiet = FALSE;
        const GOptionEntry entries[] = {
                { "repeat", 'r', 0, G_OPTION_ARG_INT, &repeat, "Runs per case; medians are reported (default 5)", "N" },
                { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Output directory (default: out/bench)", "DIR" },
                { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "Fewer cases and repeats (for CI)", NULL },
                { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing but errors (results in bench.json)", NULL },
                { "cpu", 0, 0, G_OPTION_ARG_INT, &cpu, "Run every case on CPU N (default: the first this process may use; -1: anywhere)", "N" },
                { "case", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &one, "Run one case (internal)", "NAME" },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("- measure engine throughput and scaling");
        g_autoptr(GPtrArray) cases = g_ptr_array_new();
        struct result *res;
        int status = EXIT_OK;
        GError *e = NULL;
        static const int cpu_steps[] = { 1, 4, 16, 64, 256, 1024 };
        static const int task_steps[] = { 10, 100, 1000, 10000 };

        g_option_context_add_main_entries(ctx, entries, NULL);
        g_option_context_set_description(ctx,
                "Runs each case in a fresh process --repeat times and reports medians: events per\n"
                "second, simulated seconds per wall-clock second and peak RSS.  Writes\n"
                "DIR/bench.json and DIR/scaling.png.  See docs/performance.md.\n\n"
                "Example:\n  rcuboost bench --repeat 5\n\n" CLI_EXIT_HELP);
        if (!cli_parse_options(ctx, &argc, &argv, &status))
                return status;
        if (one)
                return run_case(one);
        if (repeat < 1 || repeat > 100)
                return cli_usage_error(ctx, "--repeat: expected 1 to 100");
        if (quick)
                repeat = MIN(repeat, 3);
        if (!out)
                out = g_strdup("out/bench");
        if (cpu != G_MININT && cpu < -1)
                return cli_usage_error(ctx, "--cpu: expected a CPU number, or -1");
        if ((pinned = pin_to_cpu(cpu == G_MININT ? -2 : cpu)) == -2)
                return cli_usage_error(ctx, "--cpu: CPU %d is not one this process may run on", cpu);

        g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
        int n = 0;

        res = g_new0(struct result, 3 + G_N_ELEMENTS(cpu_steps) + G_N_ELEMENTS(task_steps));
        res[n++] = (struct result){ .name = g_strdup("null-events"), .series = "" };
        res[n++] = (struct result){ .name = g_strdup("null-events:1000000"), .series = "",
                                    .baseline = "bare-heap:1000000" };
        res[n++] = (struct result){ .name = g_strdup("reference"), .series = "", .cpus = 64, .tasks = 2000 };
        for (size_t i = 0; i < G_N_ELEMENTS(cpu_steps); i++) {
                if (quick && cpu_steps[i] > 64)
                        continue;
                res[n] = (struct result){ .series = "cpus", .cpus = cpu_steps[i], .tasks = 32 * cpu_steps[i] };
                res[n].name = g_strdup_printf("cpus:%d:%d", res[n].cpus, res[n].tasks);
                n++;
        }
        for (size_t i = 0; i < G_N_ELEMENTS(task_steps); i++) {
                if (quick && task_steps[i] > 1000)
                        continue;
                res[n] = (struct result){ .series = "tasks", .cpus = 16, .tasks = task_steps[i] };
                res[n].name = g_strdup_printf("tasks:%d:%d", res[n].cpus, res[n].tasks);
                n++;
        }
        g_autofree char *model = cpu_model();

        if (!quiet) {
                printf("machine: %s, %d CPUs online, load average %.2f; ratios are to a bare 4-ary heap on the\n"
                       "null-event workload, measured alternately in the same loop (bare-heap.c)%s\n",
                       model, g_get_num_processors(), load_average(), pinned >= 0 ? "; every run on one CPU" : "");
                printf("%-20s %14s %10s %12s %14s %10s\n", "case", "events/s", "x bare", "wall (s)", "sim s/wall s",
                       "peak RSS");
        }
        for (int i = 0; i < n; i++) {
                if (!res[i].baseline)
                        res[i].baseline = "bare-heap";
                if (!measure(self, &res[i], repeat)) {
                        status = EXIT_FAILED;
                        continue;
                }
                if (quiet)
                        continue;
                printf("%-20s %14.0f %9.2fx %12.3f %14.2f %7.1f MiB\n", res[i].name, res[i].events_per_s,
                       res[i].ratio, res[i].wall_s, res[i].sim_per_wall, res[i].rss_kib / 1024);
                fflush(stdout);
        }
        if (!write_json(out, res, n, repeat, pinned, &e)) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                status = EXIT_FAILED;
        } else {
                plot_scaling(out, res, n);
                if (!quiet)
                        printf("medians of %d runs in %s/bench.json; scaling plot %s/scaling.png\n", repeat, out, out);
        }
        for (int i = 0; i < n; i++)
                g_free(res[i].name);
        g_free(res);
        return status;
}
