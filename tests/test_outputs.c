/* What a user quotes: every output file is well formed, says how it was
 * made, and never shows a number that is not there (issue #11). */
#define _GNU_SOURCE     /* memmem */
#include <json-glib/json-glib.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cliutil.h"

/* ---- JSON: parses, and no object has a key twice ---- */

static void note_member(JsonParser *parser, JsonObject *object, const char *name, gpointer data)
{
        GHashTable *seen = data;
        char *key = g_strdup_printf("%p/%s", (void *)object, name);

        /* A reader keeps one of two equal keys and silently drops the other. */
        ck_assert_msg(!g_hash_table_contains(seen, key), "duplicate key \"%s\"", name);
        g_hash_table_add(seen, key);
}

static JsonParser *parse_json_file(const char *path)
{
        JsonParser *parser = json_parser_new();
        g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        GError *e = NULL;

        g_signal_connect(parser, "object-member", G_CALLBACK(note_member), seen);
        ck_assert_msg(json_parser_load_from_file(parser, path, &e), "%s: %s", path, e ? e->message : "");
        g_signal_handlers_disconnect_by_data(parser, seen);
        return parser;
}

static JsonObject *json_root(JsonParser *parser)
{
        return json_node_get_object(json_parser_get_root(parser));
}

START_TEST(json_outputs_have_each_key_once)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *trace = g_build_filename(dir, "trace.json", NULL);
        g_autofree char *summary = g_build_filename(dir, "summary.json", NULL);
        g_autofree char *cmp = g_build_filename(dir, "cmp", NULL);
        g_autofree char *bench = g_build_filename(dir, "bench", NULL);
        g_autofree char *bench_json = g_build_filename(bench, "bench.json", NULL);
        struct result r;

        r = run_cli("run", "scenarios/quiet.scn", "--policy", "booster", "--set", "scenario.duration=300ms",
                    "--out", dir, "--trace", trace, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        {
                g_autoptr(JsonParser) p = parse_json_file(summary);
                JsonObject *root = json_root(p);

                g_autofree char *scn = NULL;
                gsize len;
                g_autofree char *sha = NULL;
                JsonObject *params = json_object_get_object_member(root, "policy_params");
                JsonObject *over = json_object_get_object_member(root, "overrides");

                /* The name of the policy, not its counters. */
                ck_assert_str_eq(json_object_get_string_member(root, "policy"), "booster");
                ck_assert(JSON_NODE_HOLDS_OBJECT(json_object_get_member(root, "policy_stats")));
                /* How it was made: binary, scenario text, overrides, every parameter in effect. */
                ck_assert_str_eq(json_object_get_string_member(root, "rcuboost_version"), RCUBOOST_VERSION);
                g_autofree char *scn_path = g_build_filename(g_getenv("RCUBOOST_SRCDIR"), "scenarios", "quiet.scn", NULL);

                ck_assert(g_file_get_contents(scn_path, &scn, &len, NULL));
                sha = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)scn, len);
                ck_assert_str_eq(json_object_get_string_member(root, "scenario_sha256"), sha);
                ck_assert_str_eq(json_object_get_string_member(json_object_get_object_member(over, "scenario"),
                                                               "duration"), "300ms");
                ck_assert_str_eq(json_object_get_string_member(params, "booster_prio"), "rr:49");
                ck_assert_str_eq(json_object_get_string_member(params, "booster_period"), "10ms");
                ck_assert_str_eq(json_object_get_string_member(params, "adjust_pi"), "false");
        }
        g_object_unref(parse_json_file(trace));

        r = run_cli("compare", "-n", "3", "scenarios/quiet.scn", "--policies", "none,pi-lock", "--set",
                    "scenario.duration=300ms", "--out", cmp, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        for (const char *const *pol = (const char *const[]){ "none", "pi-lock", NULL }; *pol; pol++) {
                g_autofree char *path = g_build_filename(cmp, *pol, "seed-1", "summary.json", NULL);
                g_autoptr(JsonParser) p = parse_json_file(path);

                ck_assert_str_eq(json_object_get_string_member(json_root(p), "policy"), *pol);
        }

        r = run_cli("bench", "--quick", "--repeat", "1", "--out", bench, NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert_msg(strstr(r.out, "x bare") != NULL, "%s", r.out);
        result_clear(&r);
        {
                g_autoptr(JsonParser) p = parse_json_file(bench_json);
                JsonObject *root = json_root(p);
                JsonArray *results = json_object_get_array_member(root, "results");

                /* every case as a ratio to the baseline measured beside it, on a named machine */
                ck_assert(strlen(json_object_get_string_member(json_object_get_object_member(root, "machine"),
                                                               "cpu_model")) > 0);
                /* baseline and case on one CPU, the first this process may use */
                ck_assert_int_ge(json_object_get_int_member(json_object_get_object_member(root, "machine"),
                                                            "pinned_cpu"), 0);
                ck_assert_int_ge(json_array_get_length(results), 3);
                for (guint i = 0; i < json_array_get_length(results); i++) {
                        JsonObject *c = json_array_get_object_element(results, i);

                        ck_assert(json_object_get_double_member(c, "ratio_to_baseline") > 0);
                        ck_assert(json_object_get_double_member(c, "baseline_events_per_s") > 0);
                        ck_assert(g_str_has_prefix(json_object_get_string_member(c, "baseline_case"), "bare-heap"));
                }
        }
        /* A CPU it may not run on, or nonsense, is a usage error. */
        r = run_cli("bench", "--quick", "--cpu", "100000", "--out", bench, NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "--cpu: CPU 100000 is not one this process may run on") != NULL, "%s", r.err);
        result_clear(&r);
        r = run_cli("bench", "--quick", "--cpu", "-5", "--out", bench, NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "--cpu: expected") != NULL, "%s", r.err);
        result_clear(&r);
}
END_TEST

/* ---- runs that cannot be quoted are refused or marked ---- */

#define TUNED_SCN "[scenario]\ncpus=1\nduration=300ms\n" \
        "[task:r]\nprogram=loop { rcu_read_lock; compute 100us; rcu_read_unlock; call_rcu 1KiB; sleep 1ms }\n" \
        "[event:faster]\nat=200ms\npolicy.booster_prio=rr:60\n"

START_TEST(a_policy_that_cannot_run_the_scenario_is_refused_before_anything_runs)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *path = write_temp_scenario(dir, "tuned.scn", TUNED_SCN);
        g_autofree char *zero = write_temp_scenario(dir, "zero.scn",
                "[scenario]\ncpus=1\nduration=300ms\n[task:r]\nprogram=compute 1ms\n"
                "[event:stop]\nat=10ms\npolicy.booster_period=0\n");
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        struct result r;

        /* compare runs every policy by default, none among them */
        r = run_cli("compare", "-n", "3", path, "--out", out, "-q", NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "tuned.scn:8: [event:faster] policy.booster_prio: policy none has no "
                                    "parameters to change at run time") != NULL, "%s", r.err);
        ck_assert(!g_file_test(out, G_FILE_TEST_EXISTS));
        result_clear(&r);
        r = run_cli("validate", path, NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_ptr_nonnull(strstr(r.err, "policy none has no parameters"));
        result_clear(&r);
        r = run_cli("sweep", path, "--policies", "booster,none", "--out", out, "-q", NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert(!g_file_test(out, G_FILE_TEST_EXISTS));
        result_clear(&r);
        /* the policies that can, can */
        r = run_cli("validate", "--policies", "booster,pi-lock", path, NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        r = run_cli("compare", "-n", "3", path, "--policies", "booster,booster-8state", "--out", out, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        /* a value refused in [policy] is refused in an [event] (it would hang the booster) */
        r = run_cli("validate", "--policies", "booster", zero, NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "zero.scn:8: [event:stop] policy.booster_period: policy booster: must be "
                                    "greater than zero") != NULL, "%s", r.err);
        result_clear(&r);
        r = run_cli("run", zero, "--policy", "pi-lock", "--out", out, "-q", NULL);
        ck_assert_int_eq(r.status, 2);
        result_clear(&r);
}
END_TEST

#define DEADLOCK_SCN "[scenario]\ncpus=2\nduration=1s\n[mutex:a]\n[mutex:b]\n" \
        "[task:t1]\nstart=100ms\nprogram=lock a; compute 1ms; lock b; unlock b; unlock a\n" \
        "[task:t2]\nstart=100ms\nprogram=lock b; compute 1ms; lock a; unlock a; unlock b\n" \
        "[task:r]\nprogram=loop { rcu_read_lock; compute 100us; rcu_read_unlock; call_rcu 1KiB; sleep 1ms }\n"

START_TEST(compare_marks_a_failed_run_as_failed)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *path = write_temp_scenario(dir, "deadlock.scn", DEADLOCK_SCN);
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *tsv = NULL, *md = NULL, *svg = NULL;
        struct result r = run_cli("compare", "-n", "3", path, "--policies", "none,booster", "--out", out, "--format", "svg",
                                  NULL);

        ck_assert_int_ne(r.status, 0);
        ck_assert_ptr_nonnull(strstr(r.err, "none, seed 1: deadlock: "));
        ck_assert_msg(strstr(r.out, "FAILED") != NULL, "%s", r.out);
        tsv = file_contents(out, "comparison.tsv");
        ck_assert(g_str_has_prefix(tsv, "policy\tseed\tstatus\t"));
        ck_assert_ptr_nonnull(strstr(tsv, "\nnone\t1\tfailed\t"));
        ck_assert_ptr_nonnull(strstr(tsv, "\nbooster\t3\tfailed\t"));
        md = file_contents(out, "comparison.md");
        ck_assert_ptr_nonnull(strstr(md, "| none | 3 (3 FAILED) |"));
        svg = file_contents(out, "memory.svg");
        ck_assert_msg(strstr(svg, "none (3 FAILED)") != NULL, "legend does not mark the failed runs");
        result_clear(&r);
}
END_TEST

/* ---- numbers that are not there are not shown as 0 ---- */

#define NO_SYNC_SCN "[scenario]\ncpus=1\nduration=200ms\n" \
        "[task:r]\nprogram=loop { rcu_read_lock; compute 100us; rcu_read_unlock; call_rcu 1KiB; sleep 1ms }\n"

START_TEST(absent_distributions_are_null_and_dash)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *path = write_temp_scenario(dir, "nosync.scn", NO_SYNC_SCN);
        g_autofree char *run = g_build_filename(dir, "run", NULL);
        g_autofree char *summary = g_build_filename(run, "summary.json", NULL);
        g_autofree char *cmp = g_build_filename(dir, "cmp", NULL);
        g_autofree char *tsv = NULL;
        struct result r = run_cli("run", path, "--policy", "none", "--out", run, "-q", NULL);

        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        {
                g_autoptr(JsonParser) p = parse_json_file(summary);
                JsonObject *sync = json_object_get_object_member(json_root(p), "sync_latency");

                /* nobody called synchronize_rcu(): a count of 0 and no statistics */
                ck_assert_int_eq(json_object_get_int_member(sync, "count"), 0);
                ck_assert(json_object_get_null_member(sync, "max_ns"));
                ck_assert(json_object_get_null_member(sync, "p99_ns"));
        }
        r = run_cli("compare", "-n", "3", path, "--policies", "none,booster", "--out", cmp, NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        /* none boosted nobody: no boost delay, not 0 */
        ck_assert_msg(g_regex_match_simple("\\nboost delay max +- +\\S", r.out, 0, 0), "%s", r.out);
        tsv = file_contents(cmp, "comparison.tsv");
        {
                g_auto(GStrv) rows = g_strsplit(tsv, "\n", -1);
                g_auto(GStrv) head = g_strsplit(rows[0], "\t", -1);
                g_auto(GStrv) none = g_strsplit(rows[1], "\t", -1);
                int col = -1;

                for (int i = 0; head[i]; i++)
                        if (!strcmp(head[i], "sync_latency.p99_ns"))
                                col = i;
                ck_assert_int_ge(col, 0);
                ck_assert_str_eq(none[col], "-");
        }
        result_clear(&r);
}
END_TEST

/* #48: a task has one colour in every timeline of a compare (the reader was
 * purple in one, pink in the next): the keys' "CPU runs TASK" entries, read
 * from each policy's SVG. */
START_TEST(a_task_keeps_its_colour_across_timelines)
{
        g_autofree char *dir = temp_dir();
        g_autoptr(GHashTable) colour = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
        static const char *const policies[] = { "none", "booster", "pi-lock" };
        struct result r = run_cli("compare", "-n", "1", "scenarios/oom.scn", "--policies", "none,booster,pi-lock",
                                  "--format", "svg", "--out", dir, "-q", NULL);
        int shared = 0;

        if (r.status == 0 && strstr(r.err, "gnuplot not found")) {
                result_clear(&r);
                return;         /* no plots without gnuplot (scripts/deps installs it) */
        }
        ck_assert_msg(r.status == 0, "%s", r.err);
        for (size_t i = 0; i < G_N_ELEMENTS(policies); i++) {
                g_autofree char *name = g_strdup_printf("timeline-%s.svg", policies[i]);
                g_autofree char *svg = file_contents(dir, name);
                g_autoptr(GRegex) re = g_regex_new("<text>CPU runs (\\S+)</text>.*?fill = '(rgb\\([^)]*\\))'",
                                                   G_REGEX_DOTALL, 0, NULL);
                g_autoptr(GMatchInfo) m = NULL;
                int keys = 0;

                for (g_regex_match(re, svg, 0, &m); g_match_info_matches(m); g_match_info_next(m, NULL)) {
                        g_autofree char *task = g_match_info_fetch(m, 1), *rgb = g_match_info_fetch(m, 2);
                        const char *before = g_hash_table_lookup(colour, task);

                        keys++;
                        if (before) {
                                ck_assert_msg(!strcmp(before, rgb), "%s: %s in %s, %s before", name, task, rgb,
                                              before);
                                shared++;
                        } else {
                                g_hash_table_insert(colour, g_steal_pointer(&task), g_steal_pointer(&rgb));
                        }
                }
                ck_assert_msg(keys >= 3, "%s: %d task keys", name, keys);
        }
        ck_assert_int_ge(shared, 6);    /* reader, hog, updater in the second and third */
        result_clear(&r);
}
END_TEST

/* #48: a sweep plots an outcome's rate (-m stall_rate, with its Wilson
 * interval), plots it of itself where the runs of a point split (rcu-boost
 * on booster-starvation.scn with the overload kick at 30,000 callbacks: 6 of
 * 10 out of memory at 128 MiB), and re-plots another metric of a finished
 * sweep without running anything again. */
START_TEST(sweep_plots_rates_and_replots)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *out = g_build_filename(dir, "sw", NULL);
        g_autofree char *row = g_build_filename(out, "runs", "000000", "row.csv", NULL);
        g_autofree char *dat = NULL, *csv = NULL;
        const char *grid[] = { "sweep", "scenarios/booster-starvation.scn", "--vary", "rcu.memory_limit=128MiB,256MiB",
                               "--set", "rcu.qhimark=15000", "--policies", "rcu-boost", "--seeds", "10", "--out", out };
        struct result r = run_cli(grid[0], grid[1], grid[2], grid[3], grid[4], grid[5], grid[6], grid[7], grid[8],
                                  grid[9], grid[10], grid[11], NULL);
        GStatBuf before, after;

        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert_msg(strstr(r.err, "split into out of memory and not: plotting oom_rate"), "%s", r.err);
        /* #58: the points, as a table on stdout, not just the files' names */
        ck_assert_msg(strstr(r.out, "oom rate (fraction of the seeds) against rcu.memory_limit") &&
                      strstr(r.out, "\n  rcu-boost                    128MiB         6/10 (31-83%)\n"), "%s", r.out);
        result_clear(&r);
        dat = file_contents(out, "sweep-plot.dat");
        ck_assert_msg(strstr(dat, "\n1.34218e+08 0.6 0.312674 0.83182 10 6 0\n"), "%s", dat);
        csv = file_contents(out, "sweep.csv");
        ck_assert_ptr_nonnull(strstr(csv, ",oom,stall,stalled_at_end,unsafe,stall_unknown\n"));
        ck_assert(g_stat(row, &before) == 0);
        g_usleep(20000);
        r = run_cli(grid[0], grid[1], grid[2], grid[3], grid[4], grid[5], grid[6], grid[7], grid[8], grid[9], grid[10],
                    grid[11], "-m", "stall_rate", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        g_free(dat);
        dat = file_contents(out, "sweep-plot.dat");
        ck_assert_msg(strstr(dat, "\n1.34218e+08 1 0.722467 1 10 6 0\n"), "%s", dat);
        /* the mean, asked for, with a warning where the point splits */
        r = run_cli(grid[0], grid[1], grid[2], grid[3], grid[4], grid[5], grid[6], grid[7], grid[8], grid[9], grid[10],
                    grid[11], "-m", "gp_max_at_least", NULL);
        ck_assert_msg(r.status == 0 && strstr(r.err, "warning: the runs of a point split"), "%s", r.err);
        result_clear(&r);
        ck_assert(g_stat(row, &after) == 0);
        ck_assert_msg(after.st_mtime == before.st_mtime && after.st_ino == before.st_ino,
                      "a run was run again for a new metric");
}
END_TEST

/* #48: out of memory before the pending grace period could pass the
 * threshold is "stall unknown", said in the table, in comparison.tsv and
 * by a warning; and comparison.tsv's callback maximum, which counts the
 * callbacks still waiting, does not take summary.json's name for the one
 * that does not. */
START_TEST(out_of_memory_first_is_a_stall_unknown)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *tsv = NULL, *summary = NULL;
        struct result r = run_cli("compare", "-n", "2", "scenarios/oom.scn", "--policies", "none", "--set",
                                  "rcu.stall_threshold=10s", "--out", dir, NULL);

        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert_msg(g_regex_match_simple("\\nstall unknown \\(out of memory first\\) +2/2 ", r.out, 0, 0), "%s",
                      r.out);
        ck_assert_msg(strstr(r.err, "warning: none: 2 of 2 runs ran out of memory while a grace period or "
                                    "callback waited, before the wait could pass stall_threshold (10s)"), "%s", r.err);
        tsv = file_contents(dir, "comparison.tsv");
        ck_assert_ptr_nonnull(strstr(tsv, "\tstalled_at_end\tstall_unknown\t"));
        ck_assert_ptr_nonnull(strstr(tsv, "\tcallback_latency.max_at_least_ns\t"));
        ck_assert_ptr_nonnull(strstr(tsv, "\tcallback_latency.max_is_pending\n"));
        ck_assert_ptr_null(strstr(tsv, "\tcallback_latency.max_ns"));
        summary = file_contents(dir, "comparison-summary.tsv");
        ck_assert_ptr_nonnull(strstr(summary, "\tstall_unknown\tstall_unknown_lo\t"));
        ck_assert_ptr_nonnull(strstr(summary, "\tcallback_latency.max_at_least_ns.median\t"));
        result_clear(&r);
}
END_TEST

START_TEST(expect_lines_are_checked_before_running)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *typo = write_temp_scenario(dir, "typo.scn", NO_SYNC_SCN "[expect]\nbooster.gp_latncy.max<=80ms\n");
        g_autofree char *bare = write_temp_scenario(dir, "bare.scn", NO_SYNC_SCN "[expect]\n*.gp_latency.max<=35\n");
        g_autofree char *count = write_temp_scenario(dir, "count.scn", NO_SYNC_SCN "[expect]\n*.readers_boosted>=5ms\n");
        g_autofree char *absent = write_temp_scenario(dir, "absent.scn",
                                                      NO_SYNC_SCN "[expect]\nnone.sync_latency.max<=10ms\n"
                                                      "none.gp_latency.max<=80ms\n");
        struct result r;

        r = run_cli("validate", typo, NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "typo.scn:7: [expect] booster.gp_latncy.max<=80ms: no metric 'gp_latncy.max' "
                                    "in summary.json (did you mean gp_latency.max?)") != NULL, "%s", r.err);
        result_clear(&r);
        r = run_cli("check", typo, NULL);
        ck_assert_int_eq(r.status, 2);
        result_clear(&r);
        r = run_cli("validate", bare, NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "'35': missing unit (gp_latency.max_ns is a duration") != NULL, "%s", r.err);
        result_clear(&r);
        r = run_cli("validate", count, NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "policy_stats.readers_boosted is a count, not a duration") != NULL, "%s", r.err);
        result_clear(&r);
        /* a metric with nothing measured fails, and says so; the line is shown as written */
        r = run_cli("check", absent, NULL);
        ck_assert_int_eq(r.status, 1);
        ck_assert_msg(strstr(r.out, "FAIL absent none: sync_latency.max_ns <= 10ms (no value: nothing was "
                                    "measured in this run) at ") != NULL, "%s", r.out);
        ck_assert_ptr_nonnull(strstr(r.out, "absent.scn:7: [expect] none.sync_latency.max<=10ms"));
        ck_assert_ptr_nonnull(strstr(r.out, "ok   absent none: gp_latency.max_ns <= 80ms"));
        result_clear(&r);
}
END_TEST

START_TEST(sweep_metric_takes_expect_names_and_is_checked_first)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *path = write_temp_scenario(dir, "s.scn", NO_SYNC_SCN);
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *csv = NULL;
        struct result r;

        r = run_cli("sweep", path, "--vary", "policy.booster_period=5ms,20ms", "--policies", "booster",
                    "--metric", "gp_latncy.max", "--out", out, "-q", NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "no metric 'gp_latncy.max' in the summary of policy booster (did you mean "
                                    "gp_latency.max?)") != NULL, "%s", r.err);
        ck_assert(!g_file_test(out, G_FILE_TEST_EXISTS));
        result_clear(&r);
        r = run_cli("sweep", path, "--vary", "policy.booster_period=5ms,20ms", "--policies", "booster",
                    "--metric", "callback_latency.p90", "--out", out, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        csv = file_contents(out, "sweep.csv");
        ck_assert_msg(strstr(csv, ",callback_latency.p90_ns\n") != NULL, "%s", csv);
        result_clear(&r);
}
END_TEST

/* ---- text outputs are plain ASCII ---- */

static void assert_ascii(const char *what, const char *text)
{
        for (const unsigned char *p = (const unsigned char *)text; *p; p++)
                ck_assert_msg(*p < 0x80, "%s: byte 0x%02x at offset %td is not ASCII", what, *p,
                              (const char *)p - text);
}

START_TEST(text_outputs_are_ascii)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *cmp = g_build_filename(dir, "cmp", NULL);
        g_autofree char *md = NULL, *tsv = NULL;
        struct result r = run_cli("run", "scenarios/oom.scn", "--policy", "none", "--out", dir, NULL);

        ck_assert_msg(r.status == 0, "%s", r.err);
        assert_ascii("run", r.out);
        ck_assert_ptr_nonnull(strstr(r.out, "peak "));
        ck_assert_ptr_nonnull(strstr(r.out, " MiB"));
        result_clear(&r);
        r = run_cli("compare", "-n", "3", "scenarios/quiet.scn", "--policies", "none,booster", "--set", "scenario.duration=300ms",
                    "--out", cmp, NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        assert_ascii("compare", r.out);
        md = file_contents(cmp, "comparison.md");
        tsv = file_contents(cmp, "comparison.tsv");
        assert_ascii("comparison.md", md);
        assert_ascii("comparison.tsv", tsv);
        result_clear(&r);
        r = run_cli("check", "scenarios/quiet.scn", NULL);
        assert_ascii("check", r.out);
        result_clear(&r);
}
END_TEST

/* ---- exit statuses: as documented ---- */

static char *end_reason_of(const char *dir)
{
        g_autofree char *path = g_build_filename(dir, "summary.json", NULL);
        g_autoptr(JsonParser) p = parse_json_file(path);

        return g_strdup(json_object_get_string_member(json_root(p), "end_reason"));
}

START_TEST(exit_statuses_and_end_reasons_are_as_documented)
{
        static const struct {
                const char *scenario;   /* text, or NULL: a shipped one with @set */
                const char *set;
                int status;
                const char *end_reason; /* NULL: no outputs */
        } cases[] = {
                { NULL, "scenario.duration=200ms", 0, "duration" },
                { NULL, "rcu.stop_on_oom=true", 0, "oom" },
                { NULL, "output.max_events=5000", 1, "event-budget" },
                { NULL, "output.max_memory=1KiB", 1, "memory-budget" },
                { NULL, "scenario.bogus=1", 2, NULL },
                { DEADLOCK_SCN, "scenario.duration=1s", 2, "error" },
                { NULL, "debug.break_grace_periods=true", 3, "duration" },
        };
        g_autofree char *doc = NULL;
        g_autofree char *docpath = g_build_filename(g_getenv("RCUBOOST_SRCDIR"), "docs", "outputs.md", NULL);
        g_autofree char *dir = temp_dir();
        g_autofree char *file = write_temp_scenario(dir, "plain-file", "x");
        g_autofree char *under = g_build_filename(file, "out", NULL);
        g_autofree char *deadlock = write_temp_scenario(dir, "deadlock.scn", DEADLOCK_SCN);
        struct result r;

        ck_assert(g_file_get_contents(docpath, &doc, NULL, NULL));
        for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
                g_autofree char *out = temp_dir();
                const char *scn = cases[i].scenario ? deadlock : "scenarios/oom.scn";
                g_autofree char *row = g_strdup_printf("| %d |", cases[i].status);

                r = run_cli("run", scn, "--set", cases[i].set, "--out", out, "-q", NULL);
                ck_assert_msg(r.status == cases[i].status, "%s: exit %d, not %d: %s", cases[i].set, r.status,
                              cases[i].status, r.err);
                ck_assert_msg(strstr(doc, row) != NULL, "docs/outputs.md has no row for status %d", r.status);
                if (cases[i].end_reason) {
                        g_autofree char *reason = end_reason_of(out);
                        g_autofree char *quoted = g_strdup_printf("`%s`", reason);

                        ck_assert_str_eq(reason, cases[i].end_reason);
                        ck_assert_msg(strstr(doc, quoted) != NULL, "docs/outputs.md does not list end_reason %s",
                                      reason);
                }
                result_clear(&r);
        }
        /* an output that cannot be written is 1, not 2: the input was fine */
        r = run_cli("run", "scenarios/quiet.scn", "--out", under, "-q", NULL);
        ck_assert_int_eq(r.status, 1);
        ck_assert_ptr_nonnull(strstr(r.err, "cannot create output directory"));
        result_clear(&r);
        r = run_cli("compare", "-n", "3", deadlock, "--policies", "none", "--out", dir, "-q", NULL);
        ck_assert_int_eq(r.status, 2);
        result_clear(&r);
        for (const char *const *cmd = (const char *const[]){ "run", "compare", "sweep", "bench", NULL }; *cmd; cmd++) {
                r = run_cli(*cmd, "--help", NULL);
                ck_assert_msg(strstr(r.out, "Exit status: 0 ok; 1 a run did not finish") != NULL, "%s --help", *cmd);
                result_clear(&r);
        }
}
END_TEST

/* ---- an output directory never mixes two runs ---- */

static void touch(const char *dir, const char *name)
{
        g_autofree char *path = g_build_filename(dir, name, NULL);

        ck_assert(g_file_set_contents(path, "old\n", -1, NULL));
}

/* The output directory contract (docs/outputs.md): rcuboost removes only
 * the files its manifest lists, and refuses a directory holding anything
 * else, or another command's outputs, untouched. */
START_TEST(an_output_directory_holds_one_run)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *foreign = temp_dir();
        g_autofree char *cmp = temp_dir();
        g_autofree char *cmp_booster = g_build_filename(cmp, "booster", NULL);
        g_autofree char *manifest = NULL;
        struct result r;

        r = run_cli("run", "scenarios/quiet.scn", "--set", "scenario.duration=200ms", "--out", dir, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        manifest = file_contents(dir, ".rcuboost-manifest");
        ck_assert_msg(strstr(manifest, "\nsummary.json\n") && strstr(manifest, "#kind=run\n"), "%s", manifest);
        /* what a SIGKILLed run leaves (a hidden temporary) goes with the earlier outputs */
        touch(dir, ".gp.csv.tmp-Ab12Cd");
        r = run_cli("run", "scenarios/quiet.scn", "--set", "scenario.duration=200ms", "--out", dir, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        ck_assert(!exists(dir, ".gp.csv.tmp-Ab12Cd") && exists(dir, "summary.json"));

        /* a file of the user's among the outputs -- even one named as an output
         * rcuboost writes, or hidden names that look like temporaries -- means refuse,
         * and nothing is touched */
        const char *users[] = { "trace.json", "notes.txt", ".tmp", ".tmpfoo", "holiday.png" };

        for (size_t i = 0; i < G_N_ELEMENTS(users); i++) {
                g_autofree char *before = file_contents(dir, "summary.json");
                g_autofree char *after = NULL;

                touch(dir, users[i]);
                r = run_cli("run", "scenarios/quiet.scn", "--set", "scenario.duration=100ms", "--out", dir, "-q",
                            NULL);
                ck_assert_msg(r.status == 2, "%s: exit %d", users[i], r.status);
                ck_assert_msg(strstr(r.err, "which rcuboost did not write there") != NULL, "%s", r.err);
                after = file_contents(dir, "summary.json");
                ck_assert_str_eq(before, after);
                ck_assert(exists(dir, users[i]));
                result_clear(&r);
                g_autofree char *path = g_build_filename(dir, users[i], NULL);
                g_unlink(path);
        }

        /* a directory that is somebody else's is left alone */
        touch(foreign, "thesis.tex");
        r = run_cli("run", "scenarios/quiet.scn", "--out", foreign, "-q", NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "is not empty and holds no rcuboost outputs (it has 'thesis.tex')") != NULL,
                      "%s", r.err);
        ck_assert(!exists(foreign, "summary.json"));
        result_clear(&r);

        /* images that merely look like compare's are the user's */
        {
                g_autofree char *photos = temp_dir();

                touch(photos, "holiday.png");
                touch(photos, "thesis.pdf");
                r = run_cli("compare", "scenarios/quiet.scn", "-p", "none", "--set", "scenario.duration=100ms",
                            "--out", photos, "-q", NULL);
                ck_assert_int_eq(r.status, 2);
                ck_assert(exists(photos, "holiday.png") && exists(photos, "thesis.pdf"));
                result_clear(&r);
        }

        /* compare: the runs and plots of policies no longer compared go */
        r = run_cli("compare", "-n", "3", "scenarios/quiet.scn", "--policies", "none,booster", "--set", "scenario.duration=200ms",
                    "--out", cmp, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        ck_assert(exists(cmp, "timeline-booster.png") && g_file_test(cmp_booster, G_FILE_TEST_IS_DIR));
        r = run_cli("compare", "-n", "3", "scenarios/quiet.scn", "--policies", "none", "--set", "scenario.duration=200ms",
                    "--out", cmp, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        ck_assert(!exists(cmp, "timeline-booster.png"));
        ck_assert(!g_file_test(cmp_booster, G_FILE_TEST_EXISTS));
        ck_assert(exists(cmp, "timeline-none.png"));
        /* a module's policy too, once it is no longer compared */
        {
                g_autofree char *module = g_build_filename(g_getenv("RCUBOOST_TEST_MODULES"), "libnoop.so", NULL);
                g_autofree char *list = g_strconcat("none,", module, NULL);
                g_autofree char *noop = g_build_filename(cmp, "noop", NULL);

                r = run_cli("compare", "-n", "3", "scenarios/quiet.scn", "--policies", list, "--set",
                            "scenario.duration=200ms", "--out", cmp, "-q", NULL);
                ck_assert_msg(r.status == 0, "%s", r.err);
                result_clear(&r);
                ck_assert(g_file_test(noop, G_FILE_TEST_IS_DIR) && exists(cmp, "timeline-noop.png"));
                r = run_cli("compare", "-n", "3", "scenarios/quiet.scn", "--policies", "none", "--set",
                            "scenario.duration=200ms", "--out", cmp, "-q", NULL);
                ck_assert_msg(r.status == 0, "%s", r.err);
                result_clear(&r);
                ck_assert(!g_file_test(noop, G_FILE_TEST_EXISTS) && !exists(cmp, "timeline-noop.png"));
        }

        /* one kind of output per directory: a run or a sweep into a compare's
         * directory is refused, and the compare's images stay */
        r = run_cli("run", "scenarios/quiet.scn", "--set", "scenario.duration=100ms", "--out", cmp, "-q", NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "holds the outputs of rcuboost compare, not of run") != NULL, "%s", r.err);
        result_clear(&r);
        r = run_cli("sweep", "scenarios/quiet.scn", "--vary", "scenario.duration=100ms,200ms", "-p", "none",
                    "--out", cmp, "-q", NULL);
        ck_assert_int_eq(r.status, 2);
        result_clear(&r);
        ck_assert(exists(cmp, "timeline-none.png"));
        /* nor can a run replace one of a compare's runs, or its policy's directory */
        {
                g_autofree char *pol = g_build_filename(cmp, "none", NULL);
                g_autofree char *seed = g_build_filename(cmp, "none", "seed-1", NULL);
                g_autofree char *before = file_contents(seed, "summary.json");
                g_autofree char *after = NULL;

                r = run_cli("run", "scenarios/quiet.scn", "--set", "scenario.duration=100ms", "--out", seed, "-q",
                            NULL);
                ck_assert_msg(r.status == 2 && strstr(r.err, "not of run"), "%s", r.err);
                result_clear(&r);
                after = file_contents(seed, "summary.json");
                ck_assert_str_eq(before, after);
                /* run's default directory is compare's directory of the policy (out/SCENARIO/POLICY):
                 * a run there takes it over, and leaves the compare's runs */
                r = run_cli("run", "scenarios/quiet.scn", "--set", "scenario.duration=100ms", "--out", pol, "-q",
                            NULL);
                ck_assert_msg(r.status == 0, "%s", r.err);
                result_clear(&r);
                ck_assert(exists(pol, "summary.json") && exists(seed, "summary.json"));
        }
        /* and a compare into a sweep's directory keeps the sweep's plot */
        {
                g_autofree char *sw = temp_dir();

                r = run_cli("sweep", "scenarios/quiet.scn", "--vary", "scenario.duration=100ms,200ms", "-p",
                            "none", "--out", sw, "-q", NULL);
                ck_assert_msg(r.status == 0, "%s", r.err);
                result_clear(&r);
                r = run_cli("compare", "scenarios/quiet.scn", "-p", "none", "--set", "scenario.duration=100ms",
                            "--out", sw, "-q", NULL);
                ck_assert_int_eq(r.status, 2);
                ck_assert_msg(strstr(r.err, "holds the outputs of rcuboost sweep, not of compare") != NULL, "%s",
                              r.err);
                result_clear(&r);
                ck_assert(exists(sw, "sweep.csv"));
        }
}
END_TEST

START_TEST(two_runs_never_share_a_directory)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        char *argv[] = { (char *)g_getenv("RCUBOOST_BIN"), "run", "scenarios/rcutorture-boost.scn", "--set",
                         "scenario.duration=100000s", "--out", out, "-q", NULL };
        GPid pid;
        int wait_status;
        struct result r;

        ck_assert(g_spawn_async(g_getenv("RCUBOOST_SRCDIR"), argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                &pid, NULL));
        /* wait until the first run holds the directory */
        for (int i = 0; i < 200 && !exists(out, "summary.json") && !g_file_test(out, G_FILE_TEST_IS_DIR); i++)
                g_usleep(10000);
        g_usleep(200000);
        r = run_cli("run", "scenarios/quiet.scn", "--set", "scenario.duration=100ms", "--out", out, "-q", NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "is in use by another rcuboost run") != NULL, "%s", r.err);
        result_clear(&r);
        kill(pid, SIGTERM);
        ck_assert_int_eq(waitpid(pid, &wait_status, 0), pid);
        g_spawn_close_pid(pid);
        /* the first run's (interrupted) outputs are whole and its own */
        {
                g_autofree char *summary = file_contents(out, "summary.json");

                ck_assert_ptr_nonnull(strstr(summary, "\"scenario\" : \"rcutorture-boost\""));
        }
        /* and once it is gone, the directory is free again */
        r = run_cli("run", "scenarios/quiet.scn", "--set", "scenario.duration=100ms", "--out", out, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
}
END_TEST

START_TEST(a_full_disk_leaves_nothing_and_says_so)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *mount = g_strdup_printf("mount -t tmpfs -o size=64k tmpfs '%s'", dir);
        g_autofree char *umount = g_strdup_printf("umount '%s'", dir);
        gint wait_status = -1;
        struct result r;

        /* A small tmpfs where we may mount one (root); else a file-size limit. */
        g_spawn_command_line_sync(mount, NULL, NULL, &wait_status, NULL);
        if (wait_status == 0) {
                r = run_cli("run", "scenarios/oom.scn", "--out", out, NULL);
                g_spawn_command_line_sync(umount, NULL, NULL, NULL, NULL);
        } else {
                g_autofree char *cmd = g_strdup_printf("trap '' XFSZ; ulimit -f 64; exec '%s' run scenarios/oom.scn "
                                                       "--out '%s'", g_getenv("RCUBOOST_BIN"), out);

                r = run_cli_sh(cmd);
        }
        ck_assert_int_eq(r.status, 1);
        ck_assert_msg(strstr(r.err, "cannot write") != NULL, "%s", r.err);
        ck_assert_msg(strstr(r.out, "outputs in") == NULL, "claims outputs after a failed write: %s", r.out);
        ck_assert_ptr_nonnull(strstr(r.out, "no outputs written"));
        {
                g_autoptr(GDir) d = g_dir_open(out, 0, NULL);

                ck_assert_msg(!d || !g_dir_read_name(d), "files left in %s", out);
        }
        result_clear(&r);
}
END_TEST

/* ---- the figures an RT engineer expects ---- */

#define TWO_RT_SCN "[scenario]\ncpus=1\nduration=2s\n[rcu]\nmemory_limit=off\n" \
        "[task:hi]\nsched=fifo:90\nperiod=1ms\nprogram=compute 10us\n" \
        "[task:lo]\nsched=fifo:45\nperiod=1ms\nprogram=compute 20us\n" \
        "[task:reader]\nsched=normal:0\nprogram=loop { rcu_read_lock; compute exp(1ms); rcu_read_unlock; " \
        "call_rcu 1KiB; sleep exp(1ms) }\n"

START_TEST(per_task_rt_figures_as_cyclictest)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *path = write_temp_scenario(dir, "tworl.scn", TWO_RT_SCN);
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *summary = g_build_filename(out, "summary.json", NULL);
        g_autofree char *csv = NULL;
        struct result r = run_cli("run", path, "--policy", "none", "--out", out, NULL);
        g_autoptr(GRegex) line = g_regex_new("T: ?0 \\( *\\d+\\) P:90 I:1000 C: +2000 Min: +\\d+ Act: +\\d+ "
                                             "Avg: +\\d+ Max: +\\d+  hi\\n", 0, 0, NULL);

        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert_msg(g_regex_match(line, r.out, 0, NULL), "%s", r.out);
        ck_assert_msg(strstr(r.out, "P:45 I:1000 C:   2000") != NULL, "%s", r.out);
        {
                g_autoptr(JsonParser) p = parse_json_file(summary);
                JsonObject *root = json_root(p);
                JsonObject *top = json_object_get_object_member(root, "rt_wakeup_top");
                JsonObject *tasks = json_object_get_object_member(root, "rt_tasks");
                JsonObject *hi = json_object_get_object_member(tasks, "0");
                JsonObject *lo = json_object_get_object_member(tasks, "1");
                gint64 hi_max = json_object_get_int_member(json_object_get_object_member(hi, "latency"), "max_ns");
                gint64 lo_max = json_object_get_int_member(json_object_get_object_member(lo, "latency"), "max_ns");

                /* the headline RT figure is the FIFO 90 class's, and says so; FIFO 45 waits behind it */
                ck_assert_str_eq(json_object_get_string_member(top, "class"), "rt:90");
                ck_assert_int_eq(json_object_get_int_member(top, "count"), 2000);
                ck_assert_int_eq(json_object_get_int_member(top, "max_ns"), hi_max);
                ck_assert_str_eq(json_object_get_string_member(lo, "name"), "lo");
                ck_assert_int_gt(lo_max, hi_max);
        }
        /* cyclictest -h: 1 us buckets per task, counts adding up */
        csv = file_contents(out, "latency.csv");
        {
                g_auto(GStrv) rows = g_strsplit(csv, "\n", -1);
                gint64 sum[2] = { 0 };

                ck_assert_str_eq(rows[0], "task,latency_us,count");
                for (int i = 1; rows[i] && rows[i][0]; i++) {
                        g_auto(GStrv) f = g_strsplit(rows[i], ",", 3);

                        sum[strcmp(f[0], "hi") != 0] += g_ascii_strtoll(f[2], NULL, 10);
                }
                ck_assert_int_eq(sum[0], 2000);
                ck_assert_int_eq(sum[1], 2000);
        }
        result_clear(&r);
}
END_TEST

START_TEST(stalls_are_counted_and_the_pending_gp_is_a_lower_bound)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *run = g_build_filename(dir, "run", NULL);
        g_autofree char *summary = g_build_filename(run, "summary.json", NULL);
        struct result r = run_cli("compare", "-n", "3", "scenarios/oom.scn", "--policies", "none,booster", "--set",
                                  "rcu.stall_threshold=1s", "--out", out, NULL);

        ck_assert_msg(r.status == 0, "%s", r.err);
        /* none: the reader stalls the grace period from 1 s to the OOM at about 3.67 s, in every seed */
        ck_assert_msg(g_regex_match_simple("\\nGP max +>= 2\\.6\\ds \\(>= 2\\.6\\ds \\.\\. >= 2\\.6\\ds\\) +\\d",
                                           r.out, 0, 0), "%s", r.out);
        ck_assert_msg(g_regex_match_simple("\\nstall \\(a GP or callback > 1s\\) +3/3 \\(44-100%\\) +0/3 \\(0-56%\\)\\n",
                                           r.out, 0, 0), "%s", r.out);
        ck_assert_msg(g_regex_match_simple("\\nstalled at the end +3/3 \\(44-100%\\) +0/3", r.out, 0, 0), "%s",
                      r.out);
        result_clear(&r);
        r = run_cli("run", "scenarios/oom.scn", "--policy", "none", "--set", "rcu.stall_threshold=1s", "--out", run, NULL);
        /* the grace period max counts the pending one */
        ck_assert_msg(g_regex_match_simple("grace period +p50 6ms +p99 6ms +max >= 2\\.67s  \\(332; one still pending "
                                           "at the end\\)", r.out, 0, 0), "%s", r.out);
        {
                g_autoptr(JsonParser) p = parse_json_file(summary);
                JsonObject *rcu = json_object_get_object_member(json_root(p), "rcu");

                ck_assert_int_eq(json_object_get_int_member(rcu, "stall_threshold_ns"), 1000000000);
                ck_assert_int_eq(json_object_get_int_member(rcu, "gp_over_threshold"), 1);
                ck_assert_int_gt(json_object_get_int_member(rcu, "callbacks_over_threshold"), 1000);
                ck_assert_int_eq(json_object_get_int_member(rcu, "gp_max_at_least_ns"),
                                 json_object_get_int_member(rcu, "gp_in_progress_ns"));
        }
        ck_assert_msg(strstr(r.out, "boosting (none): 0 of 1 blocked readers boosted\n") != NULL, "%s", r.out);
        result_clear(&r);
        r = run_cli("run", "scenarios/oom.scn", "--policy", "booster", "--out", run, NULL);
        ck_assert_msg(g_regex_match_simple("boosting \\(booster\\): 1 of \\d+ blocked readers boosted, boost delay "
                                           "p50 \\S+ max \\S+, booster CPU \\S+", r.out, 0, 0), "%s", r.out);
        result_clear(&r);
}
END_TEST

/* ---- hostile strings stay data ---- */

START_TEST(no_user_string_is_gnuplot_code)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *pwned = g_build_filename(dir, "PWNED", NULL);
        g_autofree char *out = g_strdup_printf("%s/it's x\"; system \"touch %s\"; print \"x", dir, pwned);
        g_autofree char *sweep = g_build_filename(dir, "sweep", NULL);
        g_autofree char *vary = g_strdup_printf("scenario.description=a\"; system \"touch %s\"; print \"b,c", pwned);
        g_autofree char *bench = g_strdup_printf("%s/b'\"; system \"touch %s\"; print \"", dir, pwned);
        struct result r;

        r = run_cli("compare", "-n", "3", "scenarios/quiet.scn", "--policies", "none,booster", "--set", "scenario.duration=300ms",
                    "--out", out, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        /* and a ' in the path no longer breaks the plots */
        ck_assert(exists(out, "memory.png") && exists(out, "gp-latency.png") && exists(out, "timeline-booster.png"));
        result_clear(&r);
        r = run_cli("sweep", "scenarios/quiet.scn", "--vary", vary, "--policies", "none", "--set",
                    "scenario.duration=200ms", "--out", sweep, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert(exists(sweep, "sweep.png"));
        result_clear(&r);
        r = run_cli("bench", "--quick", "--repeat", "1", "--out", bench, NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert(exists(bench, "scaling.png"));
        result_clear(&r);
        ck_assert_msg(!g_file_test(pwned, G_FILE_TEST_EXISTS), "a path or value ran as gnuplot code");
}
END_TEST

/* ---- outputs never replace what is not a regular file ---- */

START_TEST(a_device_or_fifo_is_written_in_place_a_symlink_refused)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *dev = g_build_filename(dir, "null", NULL);
        g_autofree char *link = g_build_filename(dir, "trace.json", NULL);
        g_autofree char *target = g_build_filename(dir, "real.json", NULL);
        g_autofree char *fifo = g_build_filename(dir, "fifo.txt", NULL);
        g_autofree char *mknod = g_strdup_printf("mknod '%s' c 1 3", dev);
        g_autofree char *text = NULL;
        gint wait_status = -1;
        GStatBuf st;
        struct result r;

        /* a character device (a /dev/null of our own, where we may make one) */
        g_spawn_command_line_sync(mknod, NULL, NULL, &wait_status, NULL);
        if (wait_status == 0) {
                r = run_cli("run", "scenarios/quiet.scn", "--set", "scenario.duration=100ms", "--out", out, "-q",
                            "--trace", dev, "--trace-format", "json", NULL);
                ck_assert_msg(r.status == 0, "%s", r.err);
                ck_assert(g_lstat(dev, &st) == 0 && S_ISCHR(st.st_mode));
                result_clear(&r);
        }
        /* a symlink to a file: refused -- writing through it changed a file
         * elsewhere (without truncating it), replacing it lost the link */
        ck_assert(g_file_set_contents(target, "the user's\n", -1, NULL));
        ck_assert(symlink("real.json", link) == 0);
        r = run_cli("run", "scenarios/quiet.scn", "--set", "scenario.duration=100ms", "--out", out, "-q",
                    "--trace", link, NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "is a symbolic link") != NULL, "%s", r.err);
        ck_assert(g_lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
        ck_assert(g_file_get_contents(target, &text, NULL, NULL) && !strcmp(text, "the user's\n"));
        result_clear(&r);
        /* and so is an output in --out that is a link */
        {
                g_autofree char *summary = g_build_filename(out, "summary.json", NULL);

                g_unlink(summary);
                ck_assert(symlink(target, summary) == 0);
                r = run_cli("run", "scenarios/quiet.scn", "--set", "scenario.duration=100ms", "--out", out, "-q",
                            NULL);
                ck_assert_int_ne(r.status, 0);
                g_free(text);
                ck_assert(g_file_get_contents(target, &text, NULL, NULL) && !strcmp(text, "the user's\n"));
                result_clear(&r);
                g_unlink(summary);
        }
        /* a link to a stream (/dev/stdout's kind) is written in place */
        {
                g_autofree char *to_null = g_build_filename(dir, "to-null.json", NULL);

                ck_assert(symlink("/dev/null", to_null) == 0);
                r = run_cli("run", "scenarios/quiet.scn", "--set", "scenario.duration=100ms", "-q", "--trace",
                            to_null, NULL);
                ck_assert_msg(r.status == 0, "%s", r.err);
                ck_assert(g_lstat(to_null, &st) == 0 && S_ISLNK(st.st_mode));
                result_clear(&r);
        }
        /* a FIFO nobody reads: refused at once, not a hang, and still a FIFO */
        ck_assert(mkfifo(fifo, 0644) == 0);
        r = run_cli("run", "scenarios/quiet.scn", "--out", out, "-q", "--trace", fifo, NULL);
        ck_assert_int_eq(r.status, 1);
        ck_assert_msg(strstr(r.err, "a FIFO with nobody reading it") != NULL, "%s", r.err);
        ck_assert(g_lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
        result_clear(&r);
}
END_TEST

/* ---- numbers do not follow the locale ---- */

START_TEST(numbers_are_the_same_under_a_comma_locale)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *c_out = g_build_filename(dir, "c", NULL);
        g_autofree char *de_out = g_build_filename(dir, "de", NULL);
        g_autofree char *cmp = g_build_filename(dir, "cmp", NULL);
        g_autofree char *def = g_strdup_printf("localedef -i de_DE -f UTF-8 '%s/de_DE.UTF-8'", dir);
        g_autofree char *out_c = NULL;
        gint wait_status = -1;
        struct result r;

        /* A German locale of our own (no root needed); scripts/deps installs `locales`. */
        g_spawn_command_line_sync(def, NULL, NULL, &wait_status, NULL);
        ck_assert_msg(wait_status == 0, "localedef failed: install Debian's locales (scripts/deps)");
        r = run_cli("run", "scenarios/quiet.scn", "--set", "scenario.duration=300ms", "--out", c_out, NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        out_c = g_strdup(r.out);
        result_clear(&r);
        cli_env = g_environ_setenv(g_get_environ(), "LOCPATH", dir, TRUE);
        cli_env = g_environ_setenv(cli_env, "LC_ALL", "de_DE.UTF-8", TRUE);
        r = run_cli("run", "scenarios/quiet.scn", "--set", "scenario.duration=300ms", "--out", de_out, NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        /* the same text but for where the outputs went */
        {
                g_auto(GStrv) a = g_strsplit(out_c, "outputs in", 2);
                g_auto(GStrv) b = g_strsplit(r.out, "outputs in", 2);

                ck_assert_msg(!strcmp(a[0], b[0]), "stdout differs under de_DE.UTF-8:\n%s\n%s", b[0], a[0]);
        }
        result_clear(&r);
        for (const char *const *f = (const char *const[]){ "summary.json", "memory.csv", "gp.csv", "latency.csv",
                                                          "distributions.csv", NULL }; *f; f++) {
                g_autofree char *a = file_contents(c_out, *f);
                g_autofree char *b = file_contents(de_out, *f);

                ck_assert_msg(!strcmp(a, b), "%s differs under de_DE.UTF-8", *f);
        }
        r = run_cli("compare", "-n", "3", "scenarios/quiet.scn", "--policies", "none,booster", "--set", "scenario.duration=300ms",
                    "--out", cmp, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert(exists(cmp, "memory.png"));
        result_clear(&r);
        g_strfreev(cli_env);
        cli_env = NULL;
}
END_TEST

/* ---- a sweep resumes only its own rows ---- */

#define GRID "--vary", "policy.booster_period=5ms,20ms", "--policies", "booster", "--seeds", "2", \
        "--set", "scenario.duration=300ms", "-q"

START_TEST(sweep_resumes_only_whole_rows_of_its_own_grid)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *clean = g_build_filename(dir, "clean", NULL);
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *want = NULL, *got = NULL;
        static const char *const damage[] = { "", "1,booster,2,5ms,-1,1234", "0,booster,1,5ms,NOTANUMBER\n" };
        struct result r;

        r = run_cli("sweep", "scenarios/quiet.scn", GRID, "--out", clean, NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        want = file_contents(clean, "sweep.csv");
        result_clear(&r);
        r = run_cli("sweep", "scenarios/quiet.scn", GRID, "--out", out, NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        /* an empty row, one cut before its newline, one with a value that is not a number */
        for (int i = 0; i < 3; i++) {
                g_autofree char *row = g_strdup_printf("%s/runs/%06d/row.csv", out, i);

                ck_assert(g_file_set_contents(row, damage[i], -1, NULL));
        }
        r = run_cli("sweep", "scenarios/quiet.scn", GRID, "--out", out, NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        got = file_contents(out, "sweep.csv");
        ck_assert_str_eq(got, want);
        result_clear(&r);
        /* another grid in the same directory is refused, not fed these rows */
        r = run_cli("sweep", "scenarios/quiet.scn", "--vary", "policy.booster_period=5ms,40ms", "--policies", "booster",
                    "--seeds", "2", "--set", "scenario.duration=300ms", "-q", "--out", out, NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "holds a sweep of another grid") != NULL, "%s", r.err);
        result_clear(&r);
        g_free(got);
        got = file_contents(out, "sweep.csv");
        ck_assert_str_eq(got, want);
}
END_TEST

/* A sweep means what it says: keys it sets itself, a key or a value given
 * twice and a grid too large to count are refused; the scenario is read
 * once, so an edit during the sweep cannot mix two scenarios. */
START_TEST(sweep_refuses_what_it_cannot_mean)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *scn = g_build_filename(dir, "s.scn", NULL);
        g_autofree char *a = g_build_filename(dir, "a", NULL);
        g_autofree char *b = g_build_filename(dir, "b", NULL);
        g_autofree char *quiet = g_build_filename(g_getenv("RCUBOOST_SRCDIR"), "scenarios", "quiet.scn", NULL);
        g_autofree char *text = NULL, *want = NULL, *got = NULL;
        g_autofree char *many = NULL, *more = NULL;
        GString *values = g_string_new("scenario.duration="), *limits = g_string_new("rcu.memory_limit=");
        struct result r;
        const char *bad[][3] = {
                { "--vary", "scenario.seed=1,2", "a sweep sets scenario.seed itself" },
                { "--vary", "scenario.policy=none,booster", "use --policies" },
                { "--vary", "scenario.duration=100ms,100ms", "the rows would be the same run" },
        };

        for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
                r = run_cli("sweep", "scenarios/quiet.scn", bad[i][0], bad[i][1], "-p", "none", "--out", a, NULL);
                ck_assert_msg(r.status == 2 && strstr(r.err, bad[i][2]), "%s: exit %d: %s", bad[i][1], r.status,
                              r.err);
                result_clear(&r);
        }
        r = run_cli("sweep", "scenarios/quiet.scn", "--vary", "scenario.duration=100ms", "--vary",
                    "scenario.duration=200ms", "-p", "none", "--out", a, NULL);
        ck_assert_msg(r.status == 2 && strstr(r.err, "given twice"), "%s", r.err);
        result_clear(&r);
        r = run_cli("sweep", "scenarios/quiet.scn", "--vary", "scenario.duration=5ms", "10ms", "--out", a, NULL);
        ck_assert_msg(r.status == 2 && strstr(r.err, "separated by commas"), "%s", r.err);
        result_clear(&r);
        /* 2^32 runs (4096 x 4096 values x 256 seeds): refused by its count, not run as "0 runs" */
        for (int i = 0; i < 4096; i++) {
                g_string_append_printf(values, "%s%dms", i ? "," : "", i + 1);
                g_string_append_printf(limits, "%s%dMiB", i ? "," : "", i + 1);
        }
        many = g_string_free(values, FALSE);
        more = g_string_free(limits, FALSE);
        r = run_cli("sweep", "scenarios/quiet.scn", "--vary", many, "--vary", more, "--seeds", "256", "-p", "none",
                    "--out", a, NULL);
        ck_assert_msg(r.status == 2 && strstr(r.err, "4294967296 runs"), "%s", r.err);
        result_clear(&r);
        ck_assert(!g_file_test(a, G_FILE_TEST_EXISTS));

        /* edited as the sweep runs: every row is of the scenario as it was read */
        ck_assert(g_file_get_contents(quiet, &text, NULL, NULL));
        ck_assert(g_file_set_contents(scn, text, -1, NULL));
        /* long enough that the edit below lands mid-sweep (the sanitized build is ~20x slower) */
        const char *durations = g_strcmp0(g_getenv("RCUBOOST_SANITIZED"), "1") == 0
                                ? "scenario.duration=2s,2100ms,2200ms,2300ms" : "scenario.duration=30s,31s,32s,33s";

        r = run_cli("sweep", scn, "--vary", durations, "--seeds", "4", "-p", "none", "-j", "1", "-q", "--out", a,
                    NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        want = file_contents(a, "sweep.csv");
        {
                g_autofree char *cmd = g_strdup_printf(
                        "'%s' sweep '%s' --vary %s --seeds 4 -p none -j 1 -q "
                        "--out '%s' & sleep 0.3; printf '[scenario]\\ncpus=3\\n[task:x]\\nprogram=compute 1ms\\n' > '%s'; wait",
                        g_getenv("RCUBOOST_BIN"), scn, durations, b, scn);

                r = run_cli_sh(cmd);
                ck_assert_msg(r.status == 0, "%s", r.err);
                result_clear(&r);
        }
        got = file_contents(b, "sweep.csv");
        ck_assert_str_eq(got, want);
}
END_TEST

START_TEST(check_of_nothing_is_an_error)
{
        g_autofree char *dir = temp_dir();
        struct result r = run_cli("check", dir, NULL);

        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "no .scn scenario files in this directory") != NULL, "%s", r.err);
        result_clear(&r);
}
END_TEST

START_TEST(a_run_that_would_take_days_is_announced)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *path = write_temp_scenario(dir, "days.scn",
                "[scenario]\ncpus=1024\ntick_hz=100000\nduration=1000000s\n[output]\nmemory_sample=1s\n"
                "[task:t]\nprogram=loop { compute 1ns }\n");
        struct result r = run_cli("validate", path, NULL);

        ck_assert_int_eq(r.status, 0);
        ck_assert_msg(strstr(r.err, "warning: this run needs about 1.1e+15 events") != NULL, "%s", r.err);
        ck_assert_ptr_nonnull(strstr(r.err, "[output] max_events"));
        result_clear(&r);
        /* bounded: nothing to say */
        r = run_cli("validate", path, "--set", "output.max_events=1000000", NULL);
        ck_assert_int_eq(r.status, 0);
        ck_assert_msg(strstr(r.err, "warning") == NULL, "%s", r.err);
        result_clear(&r);
        /* the shipped scenarios are all quick */
        r = run_cli("validate", "scenarios/bench-large.scn", "scenarios/oom.scn", NULL);
        ck_assert_msg(strstr(r.err, "warning") == NULL, "%s", r.err);
        result_clear(&r);
        /* #48: oom.scn sets kthread_prio for rcu-boost and callback_thread for the 2007 policies:
         * a key is warned of only when none of the policies run reads it */
        r = run_cli("validate", "scenarios/oom.scn", "--policies", "none,booster", NULL);
        ck_assert_int_eq(r.status, 0);
        ck_assert_msg(strstr(r.err, "oom.scn:37: [rcu] kthread_prio: has no effect under policies none, booster "
                             "(RCU rcupreempt): only tree reads it") != NULL, "%s", r.err);
        ck_assert_msg(strstr(r.err, "callback_thread") == NULL, "%s", r.err);
        result_clear(&r);
        r = run_cli("validate", "scenarios/oom.scn", "--policies", "rcu-boost", NULL);
        ck_assert_msg(strstr(r.err, "[rcu] callback_thread: has no effect under policy rcu-boost (RCU tree): "
                             "only rcupreempt reads it") != NULL, "%s", r.err);
        result_clear(&r);
        /* #59 8: and in the run's summary.json, as the scenario's other warnings are -- under -q too */
        g_autofree char *out = g_build_filename(dir, "q", NULL);
        r = run_cli("run", "scenarios/oom.scn", "--policy", "booster", "--set", "scenario.duration=200ms", "--out", out,
                    "-q", NULL);
        ck_assert_msg(r.status == 0 && !*r.err, "exit %d: %s", r.status, r.err);
        result_clear(&r);
        g_autofree char *summary = file_contents(out, "summary.json");
        ck_assert_msg(strstr(summary, "oom.scn:37: [rcu] kthread_prio: has no effect under policy booster (RCU "
                                      "rcupreempt): only tree reads it"), "%s", summary);
        /* ... and from check, once, for the policies its [expect] lines run */
        g_autofree char *unread = write_temp_scenario(dir, "unread.scn",
                "[scenario]\ncpus=1\nduration=50ms\n[rcu]\nqhimark=5000\n"
                "[task:r]\nprogram=loop { rcu_read_lock; compute 1ms; rcu_read_unlock }\n"
                "[expect]\nbooster.oom=false\nnone.oom=false\n");
        r = run_cli("check", unread, NULL);
        ck_assert_msg(r.status == 0 && strstr(r.err, "unread.scn:5: [rcu] qhimark: has no effect under policies "
                                              "none, booster (RCU rcupreempt): only tree reads it"), "%s%s", r.out, r.err);
        ck_assert_msg(strstr(r.err, "qhimark") == g_strrstr(r.err, "qhimark"), "said twice: %s", r.err);
        result_clear(&r);
}
END_TEST

START_TEST(plot_templates_render_underscores_as_written)
{
        /* enhanced text would make call_rcu() a subscript: every template turns it off */
        static const char *const templates[] = { "cdf.gp", "memory.gp", "timeline.gp", "sweep.gp", "scaling.gp" };

        for (size_t i = 0; i < G_N_ELEMENTS(templates); i++) {
                g_autofree char *path = g_build_filename(g_getenv("RCUBOOST_SRCDIR"), "plots", templates[i], NULL);
                g_autofree char *text = NULL;

                ck_assert(g_file_get_contents(path, &text, NULL, NULL));
                ck_assert_msg(strstr(text, "noenhanced") != NULL, "%s renders _ as a subscript", templates[i]);
        }
}
END_TEST

/* #58: the keys of the plots with data under them sit below the plot, never
 * over a curve; a curve flat at zero on the memory plot stays off the x axis;
 * its x axis is named for a real kernel's runs too (compare --real). */
START_TEST(plot_keys_stay_off_the_data)
{
        static const char *const keyed[] = { "cdf.gp", "memory.gp", "sweep.gp" };

        for (size_t i = 0; i < G_N_ELEMENTS(keyed); i++) {
                g_autofree char *path = g_build_filename(g_getenv("RCUBOOST_SRCDIR"), "plots", keyed[i], NULL);
                g_autofree char *text = NULL;

                ck_assert(g_file_get_contents(path, &text, NULL, NULL));
                ck_assert_msg(g_regex_match_simple("^set key below", text, G_REGEX_MULTILINE, 0),
                              "%s: its key is not below the plot", keyed[i]);
                if (i == 1) {
                        ck_assert_msg(strstr(text, "\nset offsets 0, 0, graph 0.05,") && !strstr(text, "yrange [0:"),
                                      "memory.gp: a zero curve lies on the x axis");
                        ck_assert_msg(strstr(text, "\nset xlabel timelabel"), "memory.gp: a fixed x label");
                }
        }
}
END_TEST

/* A long run's memory plot is drawn from at most ~4,000 points that keep
 * every peak, not from every sample (a minute of gnuplot for 300 s). */
START_TEST(a_long_memory_series_is_decimated_keeping_its_peaks)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *pol = g_build_filename(dir, "none", NULL);
        g_autofree char *seed = g_build_filename(dir, "none", "seed-1", NULL);
        g_autofree char *band = NULL, *mem = NULL;
        double band_max = 0, mem_max = 0;
        int rows = 0;
        struct result r = run_cli("compare", "scenarios/quiet.scn", "-n", "1", "-p", "none", "--set",
                                  "scenario.duration=10s", "--out", dir, "-q", NULL);

        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        band = file_contents(pol, "memory-band.dat");
        mem = file_contents(seed, "memory.csv");
        g_auto(GStrv) bl = g_strsplit(band, "\n", -1);
        g_auto(GStrv) ml = g_strsplit(mem, "\n", -1);

        for (int i = 1; bl[i] && *bl[i]; i++) {
                g_auto(GStrv) f = g_strsplit(bl[i], ",", -1);

                band_max = MAX(band_max, g_ascii_strtod(f[1], NULL));
                rows++;
        }
        for (int i = 1; ml[i] && *ml[i]; i++) {
                g_auto(GStrv) f = g_strsplit(ml[i], ",", -1);

                mem_max = MAX(mem_max, g_ascii_strtod(f[1], NULL) / 1048576.0);
        }
        ck_assert_msg(g_strv_length(ml) > 9000 && rows <= 4001, "%u samples, %d plotted", g_strv_length(ml), rows);
        ck_assert_msg(fabs(band_max - mem_max) < 1e-5, "peak %.6f MiB plotted as %.6f", mem_max, band_max);
}
END_TEST

START_TEST(latency_plots_show_the_tail)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *none = g_build_filename(dir, "none", NULL);
        g_autofree char *booster = g_build_filename(dir, "booster", NULL);
        g_autofree char *tail = NULL;
        struct result r = run_cli("compare", "-n", "3", "scenarios/rt-latency.scn", "--policies", "none,booster", "--set",
                                  "scenario.duration=2s", "--out", dir, "-q", NULL);

        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        ck_assert(exists(dir, "rt-latency.png") && exists(dir, "boost-delay.png"));
        /* none boosted nobody: not in the boost-delay plot or its key */
        ck_assert(!exists(none, "tail-boost-delay.dat") && exists(booster, "tail-boost-delay.dat"));
        /* the tail ends at the slowest sample, 1/N high: booster's worst RT wake-up shows */
        tail = file_contents(booster, "tail-rt-latency.dat");
        {
                g_auto(GStrv) rows = g_strsplit(g_strstrip(tail), "\n", -1);
                guint n = g_strv_length(rows);
                g_auto(GStrv) last = g_strsplit(rows[n - 1], ",", 2);
                g_auto(GStrv) first = g_strsplit(rows[1], ",", 2);

                ck_assert_str_eq(rows[0], "x_ns,fraction_at_or_above");
                ck_assert_double_eq_tol(g_ascii_strtod(first[1], NULL), 1.0, 1e-9);
                /* pooled over the three seeds' 2,000 wake-ups each */
                ck_assert_double_eq_tol(g_ascii_strtod(last[1], NULL), 1.0 / 6000, 1e-12);
                ck_assert_double_gt(g_ascii_strtod(last[0], NULL), 1e6);   /* the stall: over 1 ms */
        }
}
END_TEST

/* ---- one command line ---- */

START_TEST(options_mean_one_thing_everywhere)
{
        static const char *const commands[] = { "run", "validate", "compare", "sweep", "bench", "check" };

        for (size_t i = 0; i < G_N_ELEMENTS(commands); i++) {
                struct result r = run_cli(commands[i], "--help", NULL);
                const char *v = strstr(r.out, "  -v, --");
                const char *j = strstr(r.out, "  -j, --jobs=J");

                ck_assert_int_eq(r.status, 0);
                /* every command that prints progress or results can be quiet */
                ck_assert_msg(strstr(r.out, "  -q, --quiet") != NULL, "%s has no -q", commands[i]);
                /* -v is --verbose wherever it exists */
                ck_assert_msg(!v || g_str_has_prefix(v, "  -v, --verbose"), "%s: -v is not --verbose", commands[i]);
                /* the same -j default everywhere */
                ck_assert_msg(!j || strstr(j, "(default: one per CPU)"), "%s: another -j default", commands[i]);
                result_clear(&r);
        }
}
END_TEST

START_TEST(trace_format_by_extension_in_any_case)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *upper = g_build_filename(dir, "TRACE.TXT", NULL);
        g_autofree char *text = NULL;
        struct result r = run_cli("run", "scenarios/quiet.scn", "--set", "scenario.duration=50ms", "--out", out,
                                  "--trace", upper, "-q", NULL);

        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert(g_file_get_contents(upper, &text, NULL, NULL));
        ck_assert(g_str_has_prefix(text, "# tracer: nop"));
        ck_assert_ptr_nonnull(strstr(text, "timestamps in seconds"));
        result_clear(&r);
}
END_TEST

START_TEST(trace_dat_by_extension_and_in_compare)
{
        /* FILE.DAT and compare --trace-format dat write trace-cmd data files:
         * the v6 magic, the event formats, one CPU offset/size pair per CPU
         * after "flyrecord" and page-aligned CPU data (tests/tracedat/compare
         * reads them back with trace-cmd). */
        g_autofree char *dir = temp_dir();
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *upper = g_build_filename(dir, "OOM.DAT", NULL);
        g_autofree char *cmp = g_build_filename(dir, "cmp", NULL);
        const char *paths[2] = { upper, NULL };
        g_autofree char *in_compare = g_build_filename(cmp, "booster", "seed-1", "trace.dat", NULL);
        struct result r = run_cli("run", "scenarios/oom.scn", "--policy", "booster", "--set", "scenario.duration=1100ms",
                                  "--out", out, "--trace", upper, "-q", NULL);

        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        r = run_cli("compare", "-n", "3", "scenarios/oom.scn", "--policies", "booster", "--set", "scenario.duration=1100ms",
                    "--trace", "--trace-format", "dat", "--out", cmp, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        paths[1] = in_compare;
        for (int i = 0; i < 2; i++) {
                g_autofree char *data = NULL;
                gsize len = 0;
                const char *fly;
                uint64_t off0, size0;

                ck_assert_msg(g_file_get_contents(paths[i], &data, &len, NULL), "no %s", paths[i]);
                ck_assert_int_eq(memcmp(data, "\027\010\104tracing6", 12), 0);
                ck_assert_ptr_nonnull(memmem(data, len, "name: sched_switch", 18));
                ck_assert_ptr_nonnull(memmem(data, len, "name: rcu_preempt_task", 22));
                fly = memmem(data, len, "flyrecord", 10);
                ck_assert_ptr_nonnull(fly);
                memcpy(&off0, fly + 10, 8);
                memcpy(&size0, fly + 18, 8);
                ck_assert_int_eq(off0 % 4096, 0);
                ck_assert_int_gt(size0, 0);
                ck_assert_int_eq(size0 % 4096, 0);
                ck_assert_uint_le(off0 + size0, len);
        }
}
END_TEST

START_TEST(sweep_plot_reads_as_compare)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *script = NULL, *dat = NULL;
        struct result r = run_cli("sweep", "scenarios/oom.scn", "--vary", "policy.booster_period=1ms,5ms,80ms",
                                  "--policies", "booster,pi-lock", "--seeds", "3", "--set", "scenario.duration=1200ms",
                                  "--out", dir, "-q", NULL);

        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert(exists(dir, "sweep.png"));
        result_clear(&r);
        dat = file_contents(dir, "sweep-plot.dat");
        /* no interval below zero */
        {
                g_auto(GStrv) rows = g_strsplit(dat, "\n", -1);

                for (int i = 0; rows[i]; i++) {
                        double x, mean, lo, hi;

                        if (sscanf(rows[i], "%lf %lf %lf %lf", &x, &mean, &lo, &hi) == 4)
                                ck_assert_msg(lo >= 0, "interval below zero: %s", rows[i]);
                }
        }
}
END_TEST

START_TEST(an_event_on_another_policys_thread_is_skipped_with_a_note)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *summary = NULL;
        struct result r = run_cli("run", "tests/hostile/event-on-policy-thread.scn", "--policy", "none", "--out", dir,
                                  NULL);

        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert_msg(strstr(r.err, "no thread 'rcu_booster' under policy none (RCU rcupreempt, kernel 2.6.22-rt): "
                             "the event is skipped") != NULL, "%s", r.err);
        summary = file_contents(dir, "summary.json");
        ck_assert_ptr_nonnull(strstr(summary, "no thread 'rcu_booster' under policy none"));
        result_clear(&r);
        /* one rule for every kernel thread: the flavours' and the generations' timer threads too,
         * each skipped, said and named, where this run has none (#37) */
        {
                const char *threads[] = { "rcub/0", "rcuc/0", "rcu_preempt", "ktimers/0" };

                for (size_t i = 0; i < G_N_ELEMENTS(threads); i++) {
                        g_autofree char *text = g_strdup_printf("[scenario]\ncpus=1\n[task:r]\nprogram=compute 1ms\n"
                                                                "[event:x]\nat=1ms\ntask=%s\nsched=fifo:5\n",
                                                                threads[i]);
                        g_autofree char *scn = write_temp_scenario(dir, "k.scn", text);
                        g_autofree char *out3 = g_build_filename(dir, "o3", NULL);
                        g_autofree char *want = g_strdup_printf("no thread '%s' under policy booster (RCU rcupreempt, "
                                                                "kernel 2.6.22-rt)", threads[i]);

                        g_autofree char *said = NULL;

                        r = run_cli("run", scn, "--policy", "booster", "--out", out3, "-q", NULL);
                        ck_assert_msg(r.status == 0, "%s: exit %d: %s", threads[i], r.status, r.err);
                        result_clear(&r);
                        said = file_contents(out3, "summary.json");
                        ck_assert_msg(strstr(said, want), "%s: %s", threads[i], said);
                }
        }
        /* a thread nobody has is still an error */
        {
                g_autofree char *scn = write_temp_scenario(dir, "typo.scn",
                        "[scenario]\ncpus=1\n[task:r]\nprogram=compute 1ms\n"
                        "[event:x]\nat=1ms\ntask=rcu_boosterr\nsched=fifo:5\n");
                g_autofree char *out2 = g_build_filename(dir, "o2", NULL);

                r = run_cli("run", scn, "--policy", "booster", "--out", out2, "-q", NULL);
                ck_assert_int_eq(r.status, 2);
                ck_assert_msg(strstr(r.err, "no task named 'rcu_boosterr'") != NULL, "%s", r.err);
                result_clear(&r);
        }
}
END_TEST

/* What the completion offers for @line (words as typed, the last being completed). */
static char *complete_line(const char *line)
{
        g_autofree char *bindir = g_path_get_dirname(g_getenv("RCUBOOST_BIN"));
        g_autofree char *script = g_strdup_printf(
                "PATH='%s':$PATH; source completions/rcuboost.bash; read -ra COMP_WORDS <<< '%s'; "
                "[[ '%s' == *' ' ]] && COMP_WORDS+=(''); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _rcuboost; "
                "printf '%%s\\n' \"${COMPREPLY[@]}\"", bindir, line, line);
        /* --norc: no bash-completion package, no _init_completion */
        char *argv[] = { "/bin/bash", "--norc", "--noprofile", "-c", script, NULL };
        char *out = NULL;
        int status;

        ck_assert(g_spawn_sync(g_getenv("RCUBOOST_SRCDIR"), argv, NULL, 0, NULL, NULL, &out, NULL, &status, NULL));
        ck_assert_msg(g_spawn_check_wait_status(status, NULL), "completion failed for '%s'", line);
        return out;
}

START_TEST(completion_works_in_plain_bash_for_every_command)
{
        static const char *const commands[] = { "run", "validate", "compare", "sweep", "bench", "check", "policies",
                                                "hunt" };

        for (size_t i = 0; i < G_N_ELEMENTS(commands); i++) {
                g_autofree char *line = g_strdup_printf("rcuboost %s --", commands[i]);
                g_autofree char *got = complete_line(line);
                struct result r = run_cli(commands[i], "--help", NULL);
                g_autoptr(GRegex) re = g_regex_new("  (-\\w, )?(--[a-z-]+)", 0, 0, NULL);
                g_autoptr(GMatchInfo) m = NULL;

                /* every long option --help lists is offered */
                g_regex_match(re, r.out, 0, &m);
                for (; g_match_info_matches(m); g_match_info_next(m, NULL)) {
                        g_autofree char *opt = g_match_info_fetch(m, 2);
                        g_autofree char *want = g_strdup_printf("%s\n", opt);

                        ck_assert_msg(strstr(got, want) != NULL, "%s: %s not completed: %s", commands[i], opt, got);
                }
                result_clear(&r);
        }
        {
                g_autofree char *cmds = complete_line("rcuboost ");
                g_autofree char *pol = complete_line("rcuboost run --policy boo");
                g_autofree char *after_v = complete_line("rcuboost run -v --tr");
                g_autofree char *scn = complete_line("rcuboost run scenarios/qu");

                ck_assert_ptr_nonnull(strstr(cmds, "compare\n"));
                ck_assert_str_eq(pol, "booster\nbooster-8state\n");
                /* #48: every trace format; only policy names (not rcu-boost's indented note) */
                g_autofree char *fmt = complete_line("rcuboost run --trace-format d");
                g_autofree char *all = complete_line("rcuboost run --policy ");

                ck_assert_str_eq(fmt, "dat\n");
                /* #50: hunt's coverage and corpus */
                g_autofree char *cov = complete_line("rcuboost hunt --coverage e");
                g_autofree char *corpus = complete_line("rcuboost hunt --corpus sh");

                ck_assert_str_eq(cov, "engine\n");
                ck_assert_str_eq(corpus, "shipped\n");
                ck_assert_str_eq(all, "none\nbooster\nbooster-8state\npi-lock\nrostedt-2007\nrcu-boost\n");
                /* -v is --verbose: it takes no value, so options follow as for run */
                ck_assert_ptr_nonnull(strstr(after_v, "--trace\n"));
                ck_assert_str_eq(scn, "scenarios/quiet.scn\n");
        }
}
END_TEST

static void assert_trace_within(const char *path, double from_us, double to_us)
{
        g_autofree char *text = NULL;
        g_auto(GStrv) lines = NULL;
        int seen = 0;

        ck_assert_msg(g_file_get_contents(path, &text, NULL, NULL), "no %s", path);
        lines = g_strsplit(text, "\n", -1);
        for (int i = 0; lines[i]; i++) {
                const char *ts = strstr(lines[i], "\"ts\":");

                if (!ts)
                        continue;
                seen++;
                ck_assert_msg(g_ascii_strtod(ts + 5, NULL) >= from_us - 0.001 &&
                              g_ascii_strtod(ts + 5, NULL) <= to_us + 0.001, "%s: %s", path, lines[i]);
        }
        ck_assert_int_gt(seen, 10);
}

START_TEST(compare_traces_a_window)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *a = g_build_filename(dir, "a", NULL);
        g_autofree char *b = g_build_filename(dir, "b", NULL);
        /* the first seed's run is traced, the one the timeline draws */
        g_autofree char *ta = g_build_filename(a, "booster", "seed-1", "trace.json", NULL);
        g_autofree char *tb = g_build_filename(b, "booster", "seed-1", "trace.json", NULL);
        g_autofree char *tc = g_build_filename(b, "booster", "seed-2", "trace.json", NULL);
        struct result r;

        /* by default the timeline's window, so that a big run's traces stay small */
        r = run_cli("compare", "-n", "3", "scenarios/quiet.scn", "--policies", "none,booster", "--set", "scenario.duration=400ms",
                    "--set", "output.timeline_start=100ms", "--set", "output.timeline_length=50ms", "--trace",
                    "--out", a, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        assert_trace_within(ta, 100000, 150000);
        r = run_cli("compare", "-n", "3", "scenarios/quiet.scn", "--policies", "none,booster", "--set", "scenario.duration=400ms",
                    "--trace", "--trace-window", "200ms,20ms", "--out", b, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        assert_trace_within(tb, 200000, 220000);
        ck_assert(!g_file_test(tc, G_FILE_TEST_EXISTS));
        r = run_cli("compare", "scenarios/quiet.scn", "--trace-window", "1ms,1ms", "--out", b, "-q", NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_ptr_nonnull(strstr(r.err, "--trace-window needs --trace"));
        result_clear(&r);
}
END_TEST

START_TEST(timeline_names_the_tasks_and_marks_priority_changes)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *run = g_build_filename(dir, "booster", "seed-1", NULL);
        g_autofree char *marks = NULL, *plot = NULL, *csv = NULL;
        struct result r = run_cli("compare", "-n", "3", "scenarios/pi-mutex-readers.scn", "--policies", "booster", "--set",
                                  "scenario.duration=1100ms", "--out", dir, "-q", NULL);

        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert(exists(dir, "timeline-booster.png"));
        result_clear(&r);
        csv = file_contents(run, "timeline.csv");
        ck_assert_ptr_nonnull(strstr(csv, "\nprio,cpu0,"));
        marks = file_contents(run, "timeline-marks.dat");
        ck_assert_msg(marks[0] != '-', "no priority change marked: %s", marks);
        /* the mutex owner and the hog preempting it each have a colour of their own */
        plot = file_contents(run, "timeline-plot.dat");
        {
                g_auto(GStrv) rows = g_strsplit(plot, "\n", -1);
                g_autoptr(GHashTable) cpu0 = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

                for (int i = 0; rows[i]; i++) {
                        g_auto(GStrv) f = g_strsplit(rows[i], " ", 5);

                        if (g_strv_length(f) == 5 && !strcmp(f[0], "0") && !strcmp(f[3], "0.40"))
                                g_hash_table_add(cpu0, g_strdup(f[4]));
                }
                ck_assert_int_ge(g_hash_table_size(cpu0), 3);   /* readers, maintenance, hog */
        }
}
END_TEST

START_TEST(output_level_leaves_out_what_grows)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *full = g_build_filename(dir, "full", NULL);
        g_autofree char *summary = g_build_filename(dir, "summary", NULL);
        static const char *const growing[] = { "memory.csv", "gp.csv", "boost.csv", "timeline.csv" };
        static const char *const fixed[] = { "summary.json", "latency.csv", "distributions.csv" };
        struct result r;

        r = run_cli("run", "scenarios/rt-latency.scn", "--set", "scenario.duration=500ms", "--out", full, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        r = run_cli("run", "scenarios/rt-latency.scn", "--set", "scenario.duration=500ms", "--set",
                    "output.level=summary", "--out", summary, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        for (size_t i = 0; i < G_N_ELEMENTS(growing); i++)
                ck_assert_msg(exists(full, growing[i]) && !exists(summary, growing[i]), "%s", growing[i]);
        for (size_t i = 0; i < G_N_ELEMENTS(fixed); i++) {
                g_autofree char *a = file_contents(full, fixed[i]);
                g_autofree char *b = file_contents(summary, fixed[i]);

                /* the same results, but for the override that asked for it */
                if (strcmp(fixed[i], "summary.json") != 0)
                        ck_assert_msg(!strcmp(a, b), "%s differs between levels", fixed[i]);
                else    /* overrides come before "complete"; the results after it */
                        ck_assert_str_eq(strstr(a, "\"complete\""), strstr(b, "\"complete\""));
        }
        r = run_cli("run", "scenarios/quiet.scn", "--set", "output.level=everything", "--out", summary, "-q", NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_ptr_nonnull(strstr(r.err, "'everything' is not full, series or summary"));
        result_clear(&r);
}
END_TEST

/* compare's runs are paired: seed S is the same run for every policy's
 * random streams, DIR/POLICY/seed-S/ is exactly `rcuboost run --seed S`, and
 * the worst run it names replays byte for byte. */
START_TEST(compare_seeds_are_paired_and_replayable)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *cmp = g_build_filename(dir, "cmp", NULL);
        g_autofree char *run = g_build_filename(dir, "run", NULL);
        g_autofree char *summary = NULL;
        struct result r = run_cli("compare", "scenarios/many-readers.scn", "--policies", "none,rcu-boost", "--seeds",
                                  "4", "-s", "3", "--set", "scenario.duration=1600ms", "--out", cmp, "-q", NULL);
        const char *worst = NULL;

        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        for (int seed = 3; seed <= 6; seed++)
                for (const char *const *pol = (const char *const[]){ "none", "rcu-boost", NULL }; *pol; pol++) {
                        g_autofree char *sub = g_strdup_printf("seed-%d", seed);
                        g_autofree char *path = g_build_filename(cmp, *pol, sub, "summary.json", NULL);
                        g_autoptr(JsonParser) p = parse_json_file(path);

                        ck_assert_int_eq(json_object_get_int_member(json_root(p), "seed"), seed);
                }
        ck_assert(!exists(cmp, "none/seed-2/summary.json") && !exists(cmp, "none/seed-7/summary.json"));
        /* the summary names rcu-boost's worst seed */
        summary = file_contents(cmp, "comparison-summary.tsv");
        g_auto(GStrv) rows = g_strsplit(g_strstrip(summary), "\n", -1);
        g_auto(GStrv) head = g_strsplit(rows[0], "\t", -1);
        g_auto(GStrv) boost = g_strsplit(rows[2], "\t", -1);

        ck_assert_str_eq(boost[0], "rcu-boost");
        for (int i = 0; head[i]; i++)
                if (!strcmp(head[i], "worst_seed"))
                        worst = boost[i];
        ck_assert_ptr_nonnull(worst);
        r = run_cli("run", "scenarios/many-readers.scn", "--policy", "rcu-boost", "--seed", worst, "--set",
                    "scenario.duration=1600ms", "--out", run, "-q", NULL);
        ck_assert_int_eq(r.status, 0);
        result_clear(&r);
        g_autofree char *sub = g_strdup_printf("rcu-boost/seed-%s", worst);
        g_autofree char *in_cmp = g_build_filename(cmp, sub, NULL);

        for (const char *const *f = (const char *const[]){ "memory.csv", "gp.csv", "boost.csv", "distributions.csv",
                                                           NULL }; *f; f++) {
                g_autofree char *a = file_contents(in_cmp, *f);
                g_autofree char *b = file_contents(run, *f);

                ck_assert_msg(!strcmp(a, b), "%s of seed %s differs from rcuboost run --seed %s", *f, worst, worst);
        }
        /* fewer seeds the next time: the runs of seeds no longer compared go */
        r = run_cli("compare", "scenarios/many-readers.scn", "--policies", "none,rcu-boost", "--seeds", "2", "-s", "3",
                    "--set", "scenario.duration=1200ms", "--out", cmp, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        ck_assert(exists(cmp, "none/seed-4/summary.json") && !exists(cmp, "none/seed-5/summary.json") &&
                  !exists(cmp, "rcu-boost/seed-6/summary.json"));
        /* --seeds is checked */
        r = run_cli("compare", "--seeds", "0", "--out", cmp, NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_ptr_nonnull(strstr(r.err, "--seeds: expected 1 to"));
        result_clear(&r);
}
END_TEST

/* Why it stalled: the reader that holds the grace period, and who runs on
 * its CPU instead, as the kernel's stall warning names the blocking tasks. */
#define STALL_SCN "[scenario]\ncpus=1\nduration=200ms\n[rcu]\nstall_threshold=20ms\n" \
        "[task:reader]\nsched=normal:19\n" \
        "program=loop { rcu_read_lock; compute exp(100us); rcu_read_unlock; call_rcu 1KiB }\n" \
        "[task:hog]\nsched=fifo:10\nstart=10ms\nprogram=compute 100ms\n"

START_TEST(the_stall_report_names_the_hog)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *path = write_temp_scenario(dir, "stall.scn", STALL_SCN);
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *summary = g_build_filename(out, "summary.json", NULL);
        g_autofree char *pi = g_build_filename(dir, "pi", NULL);
        struct result r = run_cli("run", path, "--policy", "none", "--out", out, NULL);

        ck_assert_msg(r.status == 0, "%s", r.err);
        /* which moment it is: the threshold's crossing, not the run's end (#58) */
        ck_assert_msg(strstr(r.out, ", as the grace period in progress passed stall_threshold (") &&
                      strstr(r.out, "blocked by the readers:\n"
                      "    reader (normal:19): preempted on CPU 0, inside a read-side critical section for ") &&
                      strstr(r.out, "      CPU 0 runs hog (rt:10)\n"), "%s", r.out);
        {
                g_autoptr(JsonParser) p = parse_json_file(summary);
                JsonObject *st = json_object_get_object_member(json_root(p), "stall_report");
                JsonObject *rd = json_object_get_object_member(json_object_get_object_member(st, "readers"), "0");

                /* the hog ends at 110 ms and the grace period with it: the look taken at the threshold */
                ck_assert_str_eq(json_object_get_string_member(st, "when"), "threshold");
                ck_assert_int_gt(json_object_get_int_member(st, "gp_age_ns"), 20000000);
                ck_assert_str_eq(json_object_get_string_member(rd, "task"), "reader");
                ck_assert_str_eq(json_object_get_string_member(rd, "state"), "preempted");
                ck_assert_str_eq(json_object_get_string_member(rd, "cpu_runs"), "hog (rt:10)");
        }
        result_clear(&r);
        /* a reader blocked on a mutex: the chain down to the preempted owner */
        r = run_cli("run", "scenarios/pi-mutex-readers.scn", "--policy", "booster", "--out", pi, NULL);
        ck_assert_msg(strstr(r.out, "it waits on mutex table, held by maintenance (normal:0, preempted on CPU 0, "
                             "which runs hog (rt:10))") != NULL, "%s", r.out);
        result_clear(&r);
        /* a starved booster: the timer thread that should wake it, and the hog above both */
        r = run_cli("run", "scenarios/booster-starvation.scn", "--policy", "booster", "--out", pi, NULL);
        ck_assert_msg(strstr(r.out, "rcu_booster (rt:49): its schedule_timeout() expired ") &&
                      strstr(r.out, "sirq-timer/0 has not run to wake it; CPU 0 runs hog0 (rt:60)"), "%s", r.out);
        result_clear(&r);
        /* no stall, no report */
        r = run_cli("run", "scenarios/quiet.scn", "--policy", "none", "--set", "scenario.duration=300ms", "--out", pi,
                    NULL);
        ck_assert_ptr_null(strstr(r.out, "stall"));
        result_clear(&r);
}
END_TEST

/* Every RT class gets its figures: a FIFO 45 task that boosting delays is
 * not hidden behind a FIFO 90 one that nothing delays. */
#define TWO_CLASSES_SCN "[scenario]\ncpus=2\nduration=1500ms\n[rcu]\nkthread_prio=50\n" \
        "[task:rt90]\nsched=fifo:90\nperiod=1ms\nprogram=compute 20us\n" \
        "[task:rt45]\nsched=fifo:45\naffinity=0\nperiod=1ms\nprogram=compute 20us\n" \
        "[task:reader]\nsched=normal:19\naffinity=0\n" \
        "program=loop { rcu_read_lock; compute exp(2ms); rcu_read_unlock; call_rcu 1KiB }\n" \
        "[task:hog]\nsched=fifo:10\naffinity=0\nstart=500ms\nprogram=compute 1s\n"

START_TEST(rt_latency_per_class)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *path = write_temp_scenario(dir, "two.scn", TWO_CLASSES_SCN);
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *tsv = NULL;
        struct result r = run_cli("compare", path, "-n", "2", "--policies", "none,pi-lock", "--out", out, NULL);

        ck_assert_msg(r.status == 0, "%s", r.err);
        /* a row per class, most urgent first; pi-lock's boosts delay the FIFO 45 task by milliseconds */
        ck_assert_msg(g_regex_match_simple("\\nRT wake-up max \\(rt:90\\) +\\S+\\n  its worst waited for \\(rt:90\\) [^\\n]+\\n"
                                           "RT wake-up max \\(rt:45\\) +\\S+.*\\d+(\\.\\d+)?ms", r.out, 0, 0),
                      "%s", r.out);
        ck_assert(exists(out, "rt-latency-rt-90.png") && exists(out, "rt-latency-rt-45.png") &&
                  exists(out, "rt-latency.png"));
        tsv = file_contents(out, "comparison-summary.tsv");
        ck_assert_ptr_nonnull(strstr(tsv, "\trt_wakeup_max.rt:90.median_ns\t"));
        ck_assert_ptr_nonnull(strstr(tsv, "\trt_wakeup_max.rt:45.median_ns\t"));
        result_clear(&r);
}
END_TEST

/* ---- the third hostile campaign (#37): data loss ---- */

/* Everything that can be checked is checked before an earlier run's outputs
 * go; an output is never an input or another output of the same run. */
START_TEST(a_bad_trace_path_keeps_the_earlier_outputs)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *scn = g_build_filename(dir, "q.scn", NULL);
        g_autofree char *sub = g_build_filename(dir, "adir", NULL);
        g_autofree char *own = g_build_filename(out, "summary.json", NULL);
        g_autofree char *text = NULL, *before = NULL, *after = NULL;
        struct result r;

        g_autofree char *quiet = g_build_filename(g_getenv("RCUBOOST_SRCDIR"), "scenarios", "quiet.scn", NULL);

        ck_assert(g_file_get_contents(quiet, &text, NULL, NULL));
        ck_assert(g_file_set_contents(scn, text, -1, NULL));
        r = run_cli("run", scn, "--set", "scenario.duration=100ms", "--out", out, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        before = file_contents(out, "summary.json");
        ck_assert_int_eq(g_mkdir(sub, 0755), 0);
        /* --trace a directory, the scenario itself, one of the run's own outputs */
        const char *bad[] = { sub, scn, own };
        const char *says[] = { "it is a directory", "is the scenario file", "is one of the run's own outputs" };

        for (int i = 0; i < 3; i++) {
                r = run_cli("run", scn, "--set", "scenario.duration=100ms", "--out", out, "-q", "--trace", bad[i],
                            NULL);
                ck_assert_msg(r.status != 0 && strstr(r.err, says[i]), "%s: exit %d: %s", bad[i], r.status, r.err);
                result_clear(&r);
                g_free(after);
                after = file_contents(out, "summary.json");
                ck_assert_str_eq(before, after);
        }
        g_free(after);
        ck_assert(g_file_get_contents(scn, &after, NULL, NULL));
        ck_assert_str_eq(after, text);
}
END_TEST

/* #58: where a figure's runs fall in two groups far apart -- the hog finds
 * the reader inside its section in 7 of 10 seeds, between sections in 3 --
 * compare shows the groups with their counts in the terminal, comparison.md
 * and the summary TSV, never a median between them, and the memory plot
 * draws a median per group.  pi-lock, one group, keeps its median.  The
 * terminal table keeps within 160 columns. */
START_TEST(a_figure_in_two_groups_is_shown_as_two)
{
        static const char text[] =
                "[scenario]\ncpus=2\nduration=1500ms\nseed=1\n"
                "[rcu]\nstall_threshold=2s\nmemory_limit=256MiB\n"
                "[task:updater]\nsched=fifo:20\naffinity=1\n"
                "program=loop { compute exp(20us); call_rcu 4KiB; sleep exp(200us) }\n"
                "[task:reader]\nsched=normal:19\naffinity=0\n"
                "program=loop { rcu_read_lock; compute exp(300us); rcu_read_unlock; sleep exp(300us) }\n"
                "[task:hog]\nsched=fifo:10\naffinity=0\nstart=1s\nprogram=compute 400ms\n";
        g_autofree char *dir = temp_dir();
        g_autofree char *scn = write_temp_scenario(dir, "twogroups.scn", text);
        g_autofree char *out = g_build_filename(dir, "cmp", NULL);
        g_autofree char *md = NULL, *tsv = NULL, *band = NULL;
        struct result r;

        r = run_cli("compare", scn, "--policies", "none,pi-lock", "--seeds", "10", "--out", out, NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        /* none: 7 runs held the grace period through the hog, 3 did not */
        ck_assert_msg(strstr(r.out, "7/10: 405ms; 3/10: 6ms (6ms .. 7ms)"), "%s", r.out);
        ck_assert_msg(g_regex_match_simple("peak memory +7/10: 7\\.[0-9] MiB \\([^)]*\\); 3/10: 2[0-9.]+ KiB", r.out,
                                           0, 0), "%s", r.out);
        ck_assert_msg(!strstr(r.out, "405ms (6ms .. 405ms)"), "a median between the groups: %s", r.out);
        /* no stall in 10 runs of 1.5 s: a bound per simulated hour (Garwood: 3.689 / 15 s) */
        ck_assert_msg(g_regex_match_simple("stalls per simulated hour +0 in 15 s \\(< 885/h\\) +0 in 15 s", r.out, 0, 0),
                      "%s", r.out);
        result_clear(&r);
        /* six policies keep within a 160-column terminal, in blocks (they took 253) */
        g_autofree char *six = g_build_filename(dir, "six", NULL);

        g_unsetenv("COLUMNS");
        r = run_cli("compare", "scenarios/oom.scn", "--seeds", "2", "--set", "scenario.duration=1500ms", "--out", six,
                    NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        g_auto(GStrv) lines = g_strsplit(r.out, "\n", -1);
        int blocks = 0;

        for (int i = 0; lines[i] && !g_str_has_prefix(lines[i], "against "); i++) {
                ck_assert_msg(strlen(lines[i]) <= 160, "wider than 160: %s", lines[i]);
                blocks += g_regex_match_simple("^ +none +booster", lines[i], 0, 0) ||
                          g_regex_match_simple("^ +pi-lock +rostedt-2007 +rcu-boost$", lines[i], 0, 0);
        }
        ck_assert_int_eq(blocks, 2);
        result_clear(&r);
        md = file_contents(out, "comparison.md");
        ck_assert_msg(strstr(md, "| 7/10: 405ms; 3/10: 6ms (6ms .. 7ms) |"), "%s", md);
        tsv = file_contents(out, "comparison-summary.tsv");
        g_auto(GStrv) rows = g_strsplit(g_strstrip(tsv), "\n", -1);
        g_auto(GStrv) head = g_strsplit(rows[0], "\t", -1);
        g_auto(GStrv) none = g_strsplit(rows[1], "\t", -1);
        g_auto(GStrv) pilock = g_strsplit(rows[2], "\t", -1);
        int med = -1, groups = -1;

        for (int i = 0; head[i]; i++) {
                med = !strcmp(head[i], "rcu.gp_max_at_least_ns.median") ? i : med;
                groups = !strcmp(head[i], "rcu.gp_max_at_least_ns.groups") ? i : groups;
        }
        ck_assert(med >= 0 && groups >= 0);
        ck_assert_str_eq(none[0], "none");
        ck_assert_str_eq(none[med], "-");
        ck_assert_str_eq(none[groups], "7/10 405000000 405000000 405000000;3/10 6000000 6000000 7000000");
        ck_assert_str_eq(pilock[groups], "-");
        ck_assert_str_ne(pilock[med], "-");
        /* the memory plot: the second median line, of the 3 low runs, is drawn */
        band = file_contents(out, "none/memory-band.dat");
        g_auto(GStrv) bl = g_strsplit(band, "\n", -1);
        g_auto(GStrv) at_1300 = NULL;

        for (int i = 1; bl[i]; i++)
                if (g_str_has_prefix(bl[i], "1.300000000,"))
                        at_1300 = g_strsplit(bl[i], ",", -1);
        ck_assert_ptr_nonnull(at_1300);
        ck_assert_msg(g_strv_length(at_1300) == 5 && g_ascii_strtod(at_1300[1], NULL) > 4 &&
                      g_ascii_strtod(at_1300[4], NULL) < 1, "at 1.3 s: %s %s", at_1300[1], at_1300[4]);
}
END_TEST

/* #58: what each periodic task's worst wake-up waited for, named as a
 * kernel engineer would act on it: the more urgent task that ran (and its
 * priority), a reader a booster lent a priority above the task's, RT
 * throttling (with the windows counted per CPU) -- in run's report,
 * summary.json and compare's table. */
START_TEST(an_rt_wake_up_says_what_it_waited_for)
{
        static const char text[] = "[scenario]\ncpus=1\nduration=100ms\n"
                                   "[task:blocker]\nsched=fifo:60\nperiod=10ms\nprogram=compute 3ms\n"
                                   "[task:cyclic]\nsched=fifo:40\nperiod=10ms\nprogram=compute 10us\n";
        g_autofree char *dir = temp_dir();
        g_autofree char *scn = write_temp_scenario(dir, "blocked.scn", text);
        g_autofree char *out = g_build_filename(dir, "b", NULL), *rl = g_build_filename(dir, "rl", NULL);
        g_autofree char *cmp = g_build_filename(dir, "cmp", NULL);
        g_autofree char *path = NULL;
        struct result r = run_cli("run", scn, "--out", out, NULL);

        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert_msg(strstr(r.out, "T: 1 cyclic: 3ms late at 0ns, on CPU 0: 3ms blocker (rt:60)"), "%s", r.out);
        result_clear(&r);
        path = g_build_filename(out, "summary.json", NULL);
        g_autoptr(JsonParser) parser = parse_json_file(path);
        JsonObject *wait = json_object_get_object_member(json_object_get_object_member(json_root(parser), "rt_wait"), "1");
        JsonObject *cause = json_object_get_object_member(
                json_object_get_object_member(json_object_get_object_member(json_object_get_object_member(wait, "worst"),
                                                                            "0"), "causes"), "0");
        JsonObject *thr = json_object_get_object_member(json_object_get_object_member(json_object_get_object_member(
                json_root(parser), "rt_throttling"), "cpu"), "0");

        ck_assert_str_eq(json_object_get_string_member(wait, "task"), "cyclic");
        ck_assert_str_eq(json_object_get_string_member(cause, "what"), "blocker (rt:60)");
        ck_assert_int_eq(json_object_get_int_member(cause, "ns"), 3001000);
        ck_assert_int_eq(json_object_get_int_member(thr, "windows"), 0);
        /* rt-latency: under rcu-boost the FIFO 45 task waits out RT throttling */
        r = run_cli("run", "scenarios/rt-latency.scn", "--policy", "rcu-boost", "--out", rl, NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert_msg(g_regex_match_simple("cyclictest: 5[0-9.]+ms late at [0-9.]+s, on CPU 0: 5[0-9.]+ms RT throttling on CPU 0",
                                           r.out, 0, 0), "%s", r.out);
        ck_assert_msg(g_regex_match_simple("RT throttling windows: CPU 0: [1-9][0-9]* CPU 1: 0", r.out, 0, 0), "%s", r.out);
        result_clear(&r);
        /* compare: under booster a reader ran boosted above the task, its own priority said */
        r = run_cli("compare", "scenarios/rt-latency.scn", "--policies", "booster,rcu-boost", "--seeds", "2", "--out",
                    cmp, NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert_msg(g_regex_match_simple("its worst waited for \\(rt:45\\) +reader\\.[0-9] \\(rt:4[6-9], boosted; its "
                                           "own normal:10\\): [0-9.]+ms of [0-9.]+ms \\(seed [12]\\) +RT throttling on "
                                           "CPU 0: [0-9.]+ms of [0-9.]+ms \\(seed [12]\\)", r.out, 0, 0), "%s", r.out);
        result_clear(&r);
}
END_TEST

/* A run killed while it writes a --trace outside --out leaves nothing: the
 * trace is an unnamed file until it is whole. */
START_TEST(a_killed_trace_leaves_no_temporary)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *traces = temp_dir();
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *trace = g_build_filename(traces, "t.json", NULL);
        char *argv[] = { (char *)g_getenv("RCUBOOST_BIN"), "run", "scenarios/rcutorture-boost.scn", "--set",
                         "scenario.duration=100000s", "--out", out, "-q", "--trace", trace, NULL };
        g_autoptr(GDir) d = NULL;
        GPid pid;
        int wait_status;

        ck_assert(g_spawn_async(g_getenv("RCUBOOST_SRCDIR"), argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                &pid, NULL));
        g_usleep(1500000);      /* well into the run: the trace is being written */
        kill(pid, SIGKILL);
        ck_assert_int_eq(waitpid(pid, &wait_status, 0), pid);
        g_spawn_close_pid(pid);
        d = g_dir_open(traces, 0, NULL);
        ck_assert_ptr_nonnull(d);
        const char *left = g_dir_read_name(d);

        ck_assert_msg(left == NULL, "a killed run left %s in the trace's directory", left);
}
END_TEST

/* Every signal that ends a process quietly stops a run as SIGTERM does:
 * outputs written, marked incomplete, exit 128 + N. */
START_TEST(terminating_signals_are_handled_alike)
{
        const int sigs[] = { SIGHUP, SIGUSR1, SIGALRM, SIGQUIT };

        for (size_t i = 0; i < G_N_ELEMENTS(sigs); i++) {
                g_autofree char *dir = temp_dir();
                g_autofree char *out = g_build_filename(dir, "out", NULL);
                char *argv[] = { (char *)g_getenv("RCUBOOST_BIN"), "run", "scenarios/rcutorture-boost.scn", "--set",
                                 "scenario.duration=100000s", "--out", out, "-q", NULL };
                g_autofree char *summary = NULL;
                GPid pid;
                int wait_status;

                ck_assert(g_spawn_async(g_getenv("RCUBOOST_SRCDIR"), argv, NULL,
                                        G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &pid,
                                        NULL));
                g_usleep(700000);
                kill(pid, sigs[i]);
                ck_assert_int_eq(waitpid(pid, &wait_status, 0), pid);
                g_spawn_close_pid(pid);
                ck_assert_msg(WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 128 + sigs[i],
                              "signal %d: not an exit with %d", sigs[i], 128 + sigs[i]);
                summary = file_contents(out, "summary.json");
                ck_assert_msg(strstr(summary, "\"complete\" : false"), "signal %d: %s", sigs[i], summary);
                ck_assert(!exists(out, ".summary.json.tmp"));
        }
}
END_TEST

/* Output names derived from a scenario's file name are checked: "...scn"
 * would make out/.. of the working directory. */
START_TEST(derived_output_names_are_checked)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *text = NULL;
        g_autofree char *quiet = g_build_filename(g_getenv("RCUBOOST_SRCDIR"), "scenarios", "quiet.scn", NULL);
        const char *names[] = { "...scn", "a b.scn", "x,y.scn" };

        ck_assert(g_file_get_contents(quiet, &text, NULL, NULL));
        for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
                g_autofree char *scn = g_build_filename(dir, names[i], NULL);
                struct result r;

                ck_assert(g_file_set_contents(scn, text, -1, NULL));
                for (int c = 0; c < 3; c++) {
                        const char *verb[] = { "run", "compare", "sweep" };
                        g_autofree char *script = g_strdup_printf(
                                "cd '%s' && '%s' %s '%s' %s -q", dir, g_getenv("RCUBOOST_BIN"), verb[c], scn,
                                c == 2 ? "--vary scenario.duration=100ms,200ms -p none" : "-p none");

                        r = run_cli_sh(script);
                        ck_assert_msg(r.status == 2 && strstr(r.err, "cannot name an output directory"),
                                      "%s %s: exit %d: %s", verb[c], names[i], r.status, r.err);
                        result_clear(&r);
                }
        }
        /* and nothing was written next to them */
        {
                g_autofree char *outdir = g_build_filename(dir, "out", NULL);

                ck_assert(!g_file_test(outdir, G_FILE_TEST_EXISTS));
        }
}
END_TEST

/* --emit-jobs checks every write: a full disk is a failure. */
START_TEST(emit_jobs_to_a_full_disk_fails)
{
        g_autofree char *dir = temp_dir();
        struct result r;

        if (!g_file_test("/dev/full", G_FILE_TEST_EXISTS))
                return;
        r = run_cli("sweep", "scenarios/quiet.scn", "--vary", "scenario.duration=100ms,200ms", "-p", "none",
                    "--out", dir, "--emit-jobs", "/dev/full", NULL);
        ck_assert_msg(r.status == 1 && strstr(r.err, "/dev/full"), "exit %d: %s", r.status, r.err);
        result_clear(&r);
}
END_TEST

/* A policy module that breaks the engine's contract stops the run with an
 * error naming the module and the hook (exit 2), never a crash. */
START_TEST(a_contract_breach_is_an_error_not_a_crash)
{
        const char *modules = g_getenv("RCUBOOST_TEST_MODULES");
        const char *cases[][2] = {
                { "libbreach-null.so", "policy breach-null (module %s), in create: returned NULL" },
                { "libbreach-prio.so", "policy breach-prio (module %s), in reader_blocked: "
                                       "sched_set_boost_prio(reader, -1000): a priority is 0..139" },
                { "libbreach-minprio.so", "in reader_blocked: sched_set_boost_prio(reader, -2147483648)" },
                { "libbreach-block.so", "policy breach-block (module %s), in reader_blocked: sched_block(reader): "
                                        "a hook cannot block a task" },
                { "libbreach-undeclared.so", "policy breach-undeclared (module %s), in create: "
                                             "policy_param_*(\"nosuch\"): a key its keys table does not declare" },
        };

        ck_assert_ptr_nonnull(modules);
        for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
                g_autofree char *dir = temp_dir();
                g_autofree char *module = g_build_filename(modules, cases[i][0], NULL);
                g_autofree char *want = g_strdup_printf(cases[i][1], module);
                struct result r = run_cli("run", "scenarios/real-rescue.scn", "--policy", module, "--out", dir, "-q",
                                          NULL);

                ck_assert_msg(r.status == 2 && strstr(r.err, want), "%s: exit %d: %s", cases[i][0], r.status,
                              r.err);
                result_clear(&r);
        }
}
END_TEST

/* More of the contract (#38): a timer armed in the past, a boost that
 * outlives its task, an enum key whose default is not one of its choices. */
START_TEST(timer_and_unboost_breaches_name_the_module_and_hook)
{
        const char *modules = g_getenv("RCUBOOST_TEST_MODULES");
        g_autofree char *dir = temp_dir();
        /* one reader that ends: preempted inside its section, then exits */
        g_autofree char *scn = write_temp_scenario(dir, "exits.scn", "[scenario]\ncpus=1\nduration=100ms\n"
                                                   "[task:reader]\nsched=normal:0\n"
                                                   "program=rcu_read_lock; compute 5ms; rcu_read_unlock\n"
                                                   "[task:hog]\nsched=fifo:10\nstart=1ms\nprogram=compute 1ms\n");
        const char *cases[][2] = {
                { "libbreach-unboost.so", "policy breach-unboost (module %s), in task_exit: reader exits with the "
                                          "boost to priority 90 still set" },
                { "libbreach-timer.so", "policy breach-timer (module %s), in reader_blocked: policy_timer_arm() to "
                                        "expire at 999999 ns, before now" },
                { "libbreach-enum.so", "%s: policy breach-enum: key 'mode' has a default its type refuses: "
                                       "'sometimes' is not one of timer, kthread" },
                /* #49 finding 9: a boost after the task exited, as one held at its exit */
                { "libbreach-lateboost.so", "policy breach-lateboost (module %s), in timer: "
                                            "sched_set_boost_prio(reader, 90): the task has exited" },
                /* finding 14: what hung the run without a word */
                { "libbreach-rearm.so", "policy breach-rearm (module %s), in timer: a timer fired 1000 times at "
                                        "11000000 ns: re-armed for the instant it fires" },
                { "libbreach-badstep.so", "policy breach-badstep (module %s), in its own thread or timer: badstep's "
                                          "step returned a step of no kind the engine knows (kind 99" },
                { "libbreach-negstep.so", "policy breach-negstep (module %s), in its own thread or timer: badstep's "
                                          "step returned a negative compute (kind 0, -1 ns)" },
        };

        ck_assert_ptr_nonnull(modules);
        for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
                g_autofree char *out = g_build_filename(dir, cases[i][0], NULL);
                g_autofree char *module = g_build_filename(modules, cases[i][0], NULL);
                g_autofree char *want = g_strdup_printf(cases[i][1], module);
                struct result r = run_cli("run", scn, "--policy", module, "--out", out, "-q", NULL);

                ck_assert_msg(r.status == 2 && strstr(r.err, want), "%s: exit %d: %s", cases[i][0], r.status,
                              r.err);
                result_clear(&r);
        }
}
END_TEST

/* #49 finding 8: a module that ends the process from a hook -- `run`, and
 * `check --tap`, which printed "TAP version 13" and exited 0 -- fails, and
 * says so. */
START_TEST(a_module_that_exits_is_a_failure)
{
        g_autofree char *module = g_build_filename(g_getenv("RCUBOOST_TEST_MODULES"), "libbreach-exit.so", NULL);
        g_autofree char *dir = temp_dir();
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *scn = write_temp_scenario(dir, "exits.scn", "[scenario]\ncpus=1\nduration=100ms\n"
                                                   "[task:reader]\nsched=normal:0\n"
                                                   "program=rcu_read_lock; compute 5ms; rcu_read_unlock\n"
                                                   "[task:hog]\nsched=fifo:10\nstart=1ms\nprogram=compute 1ms\n"
                                                   "[expect]\n*.rcu.grace_periods>=1\n");
        struct result r = run_cli("run", scn, "--policy", module, "--out", out, "-q", NULL);

        ck_assert_msg(r.status == 2 && strstr(r.err, "the process was ended from inside a run"), "exit %d: %s",
                      r.status, r.err);
        result_clear(&r);
        r = run_cli("check", "--tap", "--policies", module, scn, NULL);
        ck_assert_msg(r.status == 2 && strstr(r.err, "the process was ended from inside a run"), "exit %d: %s",
                      r.status, r.err);
        result_clear(&r);
}
END_TEST

static gint64 deadline_run(const char *dir, const char *name, const char *timer, const char *softirq_prio,
                           gint64 *boost_delay_max, gint64 *cancelled)
{
        g_autofree char *module = g_build_filename(g_getenv("RCUBOOST_TEST_MODULES"), "libdeadline.so", NULL);
        g_autofree char *out = g_build_filename(dir, name, NULL);
        g_autofree char *set_timer = g_strconcat("policy:deadline-boost.timer=", timer, NULL);
        g_autofree char *set_prio = g_strconcat("sched.timer_softirq_thread=", softirq_prio, NULL);
        g_autofree char *summary = g_build_filename(out, "summary.json", NULL);
        struct result r = run_cli("run", "examples/policies/deadline.scn", "--policy", module, "--set", set_timer,
                                  "--set", set_prio, "--out", out, "-q", NULL);
        gint64 gp_max;

        ck_assert_msg(r.status == 0, "%s: exit %d: %s", name, r.status, r.err);
        result_clear(&r);
        {
                g_autoptr(JsonParser) p = parse_json_file(summary);
                JsonObject *root = json_root(p);
                JsonObject *ps = json_object_get_object_member(root, "policy_stats");

                gp_max = json_object_get_int_member(json_object_get_object_member(root, "gp_latency"), "max_ns");
                *boost_delay_max = json_object_get_int_member(json_object_get_object_member(ps, "boost_delay"),
                                                              "max_ns");
                *cancelled = json_object_get_int_member(ps, "timers_cancelled");
        }
        return gp_max;
}

/* The timer API's two contexts (ptimer.h), through the example module:
 * an hrtimer fires under the FIFO 10 hog; a timer-wheel timer waits for
 * the timer softirq thread, which the hog starves when it is below it. */
START_TEST(policy_timers_fire_in_their_context)
{
        g_autofree char *dir = temp_dir();
        gint64 delay, cancelled, gp;

        gp = deadline_run(dir, "hard", "hardirq", "fifo:1", &delay, &cancelled);
        ck_assert_msg(gp < 20 * 1000000 && delay >= 2000000 && delay < 3000000, "hardirq: gp %" G_GINT64_FORMAT
                      " delay %" G_GINT64_FORMAT, gp, delay);
        /* reader_resumed: the cyclic task's short preemptions cancel their timers */
        ck_assert_int_ge(cancelled, 100);
        gp = deadline_run(dir, "soft-above", "softirq", "fifo:50", &delay, &cancelled);
        ck_assert_msg(gp < 20 * 1000000 && delay >= 2000000 && delay < 6000000, "softirq above the hog: gp %"
                      G_GINT64_FORMAT " delay %" G_GINT64_FORMAT, gp, delay);
        gp = deadline_run(dir, "soft-below", "softirq", "fifo:1", &delay, &cancelled);
        ck_assert_msg(gp > 1000 * 1000000 && delay > 1000 * 1000000, "softirq below the hog: gp %" G_GINT64_FORMAT
                      " delay %" G_GINT64_FORMAT, gp, delay);
}
END_TEST

/* A module's key changed by an [event], as a built-in policy's is (#38):
 * checked before anything runs, applied at its time. */
START_TEST(module_keys_change_in_events)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *module = g_build_filename(g_getenv("RCUBOOST_TEST_MODULES"), "libdeadline.so", NULL);
        g_autofree char *base = NULL;
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *summary = g_build_filename(out, "summary.json", NULL);
        struct result r;

        g_autofree char *src = g_build_filename(g_getenv("RCUBOOST_SRCDIR"), "examples", "policies", "deadline.scn",
                                                NULL);

        ck_assert(g_file_get_contents(src, &base, NULL, NULL));
        {
                g_autofree char *text = g_strconcat(base, "\n[event:slower]\nat=500ms\npolicy.grace=50ms\n", NULL);
                g_autofree char *scn = write_temp_scenario(dir, "slower.scn", text);
                g_autoptr(JsonParser) p = NULL;

                r = run_cli("run", scn, "--policy", module, "--out", out, "-q", NULL);
                ck_assert_msg(r.status == 0, "%s", r.err);
                result_clear(&r);
                p = parse_json_file(summary);
                /* the hog comes at 1 s: the boost waits the new grace */
                ck_assert_int_ge(json_object_get_int_member(json_object_get_object_member(
                        json_object_get_object_member(json_root(p), "policy_stats"), "boost_delay"), "min_ns"),
                        50 * 1000000);
        }
        {
                g_autofree char *text = g_strconcat(base, "\n[event:bad]\nat=500ms\npolicy.timer=softirq\n", NULL);
                g_autofree char *scn = write_temp_scenario(dir, "bad.scn", text);

                r = run_cli("validate", scn, "--policies", module, NULL);
                ck_assert_msg(r.status != 0 && strstr(r.err, "policy.timer") &&
                              strstr(r.err, "policy deadline-boost: timer cannot change during a run"), "%s", r.err);
                result_clear(&r);
        }
}
END_TEST

/* SIGKILL while a run publishes its files leaves a set without summary.json
 * (written last: its absence marks the set incomplete), no temporary, and a
 * directory the next run takes over by its manifest (#37). */
START_TEST(a_kill_while_publishing_leaves_no_half_set_behind)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *script = g_strdup_printf("RCUBOOST_TEST_KILL_BEFORE=summary.json \"$RCUBOOST_BIN\" run "
                                                  "scenarios/quiet.scn --set scenario.duration=200ms --out '%s' -q; "
                                                  "echo status=$?", out);
        struct result r = run_cli_sh(script);
        g_autoptr(GDir) d = NULL;
        const char *name;
        int files = 0;

        ck_assert_msg(strstr(r.out, "status=137"), "%s%s", r.out, r.err);
        result_clear(&r);
        ck_assert(g_file_test(out, G_FILE_TEST_IS_DIR));
        d = g_dir_open(out, 0, NULL);
        while ((name = g_dir_read_name(d))) {
                ck_assert_msg(strcmp(name, "summary.json") != 0, "summary.json published before the kill");
                ck_assert_msg(!strstr(name, "tmp"), "a temporary left behind: %s", name);
                files++;
        }
        ck_assert_msg(files >= 3, "the files published before summary.json: %d", files);    /* + the manifest */
        r = run_cli("run", "scenarios/quiet.scn", "--set", "scenario.duration=200ms", "--out", out, "-q", NULL);
        ck_assert_msg(r.status == 0, "the next run into it: %s", r.err);
        result_clear(&r);
        {
                g_autofree char *summary = g_build_filename(out, "summary.json", NULL);

                ck_assert(g_file_test(summary, G_FILE_TEST_EXISTS));
        }
}
END_TEST

/* Input that changed nothing, or that a user mistyped, is said (#37). */
START_TEST(what_changes_nothing_is_said)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *cmp = g_build_filename(dir, "cmp", NULL);
        g_autofree char *scn = write_temp_scenario(dir, "lt.scn", "[scenario]\n[task:t]\nprogram=compute 1ms\n"
                                                   "[expect]\nnone.memory.peak_bytes<5MiB\n");
        g_autofree char *summary = NULL;
        struct result r;

        /* a [policy] key the one policy run does not have: refused; over several, said and recorded */
        r = run_cli("run", "scenarios/quiet.scn", "--policy", "booster", "--set", "policy.boost_delay=10ms", "--out",
                    out, "-q", NULL);
        ck_assert_msg(r.status == 2 && strstr(r.err, "policy booster has no key 'boost_delay'"), "%s", r.err);
        result_clear(&r);
        r = run_cli("compare", "scenarios/quiet.scn", "-n", "1", "-p", "booster,rcu-boost", "--set",
                    "policy.boost_delay=10ms", "--set", "scenario.duration=100ms", "--out", cmp, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        {
                g_autofree char *run = g_build_filename(cmp, "booster", "seed-1", NULL);

                summary = file_contents(run, "summary.json");
                ck_assert_msg(strstr(summary, "policy booster has no key 'boost_delay': ignored in its runs"), "%s",
                              summary);
        }
        /* near misses */
        r = run_cli("run", "scenarios/quiet.scn", "--policy", "rcu_boost", "--out", out, "-q", NULL);
        ck_assert_msg(r.status == 2 && strstr(r.err, "did you mean rcu-boost?"), "%s", r.err);
        result_clear(&r);
        r = run_cli("compare", "scenarios/quiet.scn", "-p", "none,none", "--out", cmp, "-q", NULL);
        ck_assert_msg(r.status == 2 && strstr(r.err, "'none' twice"), "%s", r.err);
        result_clear(&r);
        r = run_cli("validate", scn, NULL);
        ck_assert_msg(r.status == 2 && strstr(r.err, "lt.scn:5:") && strstr(r.err, "written <= or >="), "%s", r.err);
        result_clear(&r);
        /* "--" ends the options (a file may then start with '-'); it is not a file name */
        {
                g_autofree char *quiet = g_build_filename(g_getenv("RCUBOOST_SRCDIR"), "scenarios", "quiet.scn", NULL);
                g_autofree char *text = NULL;
                g_autofree char *cmd = NULL;

                ck_assert(g_file_get_contents(quiet, &text, NULL, NULL));
                g_free(write_temp_scenario(dir, "-dash.scn", text));
                cmd = g_strdup_printf("cd '%s' && '%s' validate -- -dash.scn", dir, g_getenv("RCUBOOST_BIN"));
                r = run_cli_sh(cmd);
                ck_assert_msg(r.status == 0 && !strstr(r.err, "--: cannot read"), "exit %d: %s", r.status, r.err);
                result_clear(&r);
        }
        /* a policy.KEY event some policies cannot take: compare names those that can */
        {
                g_autofree char *pe = write_temp_scenario(dir, "pe.scn", "[scenario]\nduration=100ms\n[task:x]\n"
                                                          "program=compute 1ms\n[event:e]\nat=1ms\n"
                                                          "policy.booster_period=5ms\n");

                r = run_cli("compare", pe, "--out", cmp, "-q", NULL);
                ck_assert_msg(r.status == 2 && strstr(r.err, "--policies booster,booster-8state,pi-lock"), "%s",
                              r.err);
                result_clear(&r);
        }
        /* a duration the kernel counts in jiffies: the rounding said, the value in effect recorded */
        r = run_cli("run", "scenarios/rcutorture-boost.scn", "--policy", "rcu-boost", "--set", "policy.boost_delay=1ms",
                    "--set", "scenario.duration=100ms", "--out", out, NULL);
        ck_assert_msg(r.status == 0 && strstr(r.err, "boost_delay=1 ms: the kernel counts it in jiffies, rounded up "
                                              "to 1 (4 ms at HZ=250)"), "%s", r.err);
        result_clear(&r);
        g_free(summary);
        summary = file_contents(out, "summary.json");
        ck_assert_msg(strstr(summary, "\"boost_delay_in_effect_ns\" : 4000000"), "%s", summary);
        /* a trace window wholly after the end */
        {
                g_autofree char *trace = g_build_filename(dir, "t.json", NULL);

                r = run_cli("run", "scenarios/quiet.scn", "--out", out, "-q", "--trace", trace, "--trace-window",
                            "100s,1ms", NULL);
                ck_assert_msg(r.status == 0 && strstr(r.err, "the trace will hold no event"), "%s", r.err);
                result_clear(&r);
        }
}
END_TEST

/* check --tap: a file name cannot make a failure a TODO or add lines;
 * check --out: two scenarios of one name are not written over each other. */
START_TEST(check_reports_cannot_be_forged)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *a = g_build_filename(dir, "a", NULL);
        g_autofree char *b = g_build_filename(dir, "b", NULL);
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        const char *failing = "[scenario]\nduration=100ms\n[task:t]\nprogram=compute 1ms\n[expect]\n"
                              "none.rcu.grace_periods>=1000000\n";
        g_autofree char *hash = write_temp_scenario(dir, "x # TODO later.scn", failing);
        g_autofree char *nl = write_temp_scenario(dir, "y\nok 7 - forged.scn", failing);
        struct result r;

        r = run_cli("check", "--tap", hash, nl, NULL);
        ck_assert_int_eq(r.status, 1);
        {
                g_auto(GStrv) lines = g_strsplit(r.out, "\n", -1);
                int not_ok = 0;

                for (char **l = lines; *l; l++) {
                        ck_assert_msg(!g_str_has_prefix(*l, "ok 7 - forged"), "a forged line: %s", r.out);
                        if (g_str_has_prefix(*l, "not ok")) {
                                not_ok++;
                                ck_assert_msg(!strstr(*l, " # TODO") && !strstr(*l, " # SKIP"), "%s", *l);
                        }
                }
                ck_assert_msg(not_ok == 2, "%s", r.out);
                ck_assert_msg(strstr(r.out, "x \\# TODO later") && strstr(r.out, "y\\nok 7 - forged"), "%s", r.out);
        }
        result_clear(&r);

        ck_assert_int_eq(g_mkdir(a, 0755), 0);
        ck_assert_int_eq(g_mkdir(b, 0755), 0);
        g_autofree char *ax = write_temp_scenario(a, "x.scn", failing);
        g_autofree char *bx = write_temp_scenario(b, "x.scn", failing);

        r = run_cli("check", "--out", out, ax, bx, NULL);
        ck_assert_msg(r.status == 2 && strstr(r.err, "would both write"), "exit %d: %s", r.status, r.err);
        result_clear(&r);
}
END_TEST

/* A file name that is not UTF-8 cannot make summary.json invalid JSON. */
START_TEST(a_non_utf8_file_name_gives_valid_json)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *quiet = g_build_filename(g_getenv("RCUBOOST_SRCDIR"), "scenarios", "quiet.scn", NULL);
        g_autofree char *text = NULL;
        g_autofree char *scn = g_build_filename(dir, "q\xff\xfe.scn", NULL);
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *summary = NULL;
        g_autoptr(JsonParser) parser = json_parser_new();
        GError *e = NULL;
        struct result r;

        ck_assert(g_file_get_contents(quiet, &text, NULL, NULL));
        ck_assert(g_file_set_contents(scn, text, -1, NULL));
        r = run_cli("run", scn, "--set", "scenario.duration=100ms", "--out", out, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        summary = file_contents(out, "summary.json");
        ck_assert_msg(g_utf8_validate(summary, -1, NULL), "summary.json is not UTF-8");
        ck_assert_msg(json_parser_load_from_data(parser, summary, -1, &e), "%s", e ? e->message : "");
}
END_TEST

/* Memory is estimated before a run: 10,000 periodic tasks with 100 ms
 * histograms (7.5 GiB) are refused by validate and run, before anything is
 * written or removed; raising [output] max_memory asks for it.  An
 * allocation that fails anyway is a clean exit, not GLib's abort. */
START_TEST(a_run_too_large_for_memory_is_refused_first)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *big = write_temp_scenario(dir, "big.scn", "[scenario]\nduration=100ms\n[output]\n"
                                                   "rt_histogram=100ms\n[task:c]\ncount=10000\nsched=fifo:50\n"
                                                   "period=10ms\nprogram=compute 1us\n");
        g_autofree char *mid = write_temp_scenario(dir, "mid.scn", "[scenario]\nduration=100ms\n[output]\n"
                                                   "rt_histogram=100ms\n[task:c]\ncount=2000\nsched=fifo:50\n"
                                                   "period=10ms\nprogram=compute 1us\n");
        struct result r;

        r = run_cli("validate", big, NULL);
        ck_assert_msg(r.status == 2 && strstr(r.err, "would take 7.5 GiB"), "%s", r.err);
        result_clear(&r);
        r = run_cli("run", "scenarios/quiet.scn", "--set", "scenario.duration=100ms", "--out", out, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        r = run_cli("run", big, "--out", out, "-q", NULL);
        ck_assert_msg(r.status == 2 && strstr(r.err, "raise [output] max_memory"), "%s", r.err);
        result_clear(&r);
        ck_assert(exists(out, "summary.json"));         /* the earlier run's, untouched */
        r = run_cli("validate", big, "--set", "output.max_memory=16GiB", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        if (g_strcmp0(g_getenv("RCUBOOST_SANITIZED"), "1") != 0) {     /* ASan needs its virtual memory */
                g_autofree char *cmd = g_strdup_printf("ulimit -v 1000000; '%s' run '%s' --out '%s/m' -q",
                                                       g_getenv("RCUBOOST_BIN"), mid, dir);

                r = run_cli_sh(cmd);
                ck_assert_msg(r.status == 1 && strstr(r.err, "cannot allocate the cyclictest histogram"), "exit %d: %s",
                              r.status, r.err);
                result_clear(&r);
        }
}
END_TEST

/* A sweep's grid names its modules by content: a module rebuilt between a
 * sweep and its resume refuses the resume (#37). */
START_TEST(a_rebuilt_module_refuses_the_resume)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *src = g_build_filename(g_getenv("RCUBOOST_TEST_MODULES"), "libnoop.so", NULL);
        g_autofree char *module = g_build_filename(dir, "libnoop.so", NULL);
        g_autofree char *out = g_build_filename(dir, "sw", NULL);
        g_autofree char *bytes = NULL, *grid = NULL;
        gsize len;
        struct result r;

        ck_assert(g_file_get_contents(src, &bytes, &len, NULL));
        ck_assert(g_file_set_contents(module, bytes, (gssize)len, NULL));
        r = run_cli("sweep", "scenarios/quiet.scn", "--vary", "scenario.duration=100ms,200ms", "-p", module, "-q",
                    "--out", out, NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        grid = file_contents(out, "grid.txt");
        ck_assert_msg(strstr(grid, "\nmodule=noop sha256="), "%s", grid);
        /* "rebuilt": the same policy, other bytes */
        {
                FILE *f = fopen(module, "ab");

                ck_assert_ptr_nonnull(f);
                fputs("rebuilt", f);
                fclose(f);
        }
        r = run_cli("sweep", "scenarios/quiet.scn", "--vary", "scenario.duration=100ms,200ms", "-p", module, "-q",
                    "--out", out, NULL);
        ck_assert_msg(r.status == 2 && strstr(r.err, "holds a sweep of another grid"), "exit %d: %s", r.status, r.err);
        result_clear(&r);
}
END_TEST

/* gnuplot that dies without a word: the error says how it ended (#37). */
START_TEST(a_silent_gnuplot_failure_says_how_it_ended)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *bin = g_build_filename(dir, "bin", NULL);
        g_autofree char *fake = g_build_filename(bin, "gnuplot", NULL);
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *cmd = NULL;
        struct result r;

        ck_assert_int_eq(g_mkdir(bin, 0755), 0);
        ck_assert(g_file_set_contents(fake, "#!/bin/sh\nkill -9 $$\n", -1, NULL));
        ck_assert_int_eq(g_chmod(fake, 0755), 0);
        cmd = g_strdup_printf("PATH='%s':$PATH '%s' compare scenarios/quiet.scn -n 1 -p none --set "
                              "scenario.duration=100ms --out '%s' -q", bin, g_getenv("RCUBOOST_BIN"), out);
        r = run_cli_sh(cmd);
        ck_assert_msg(r.status == 1 && strstr(r.err, "gnuplot failed on") && strstr(r.err, "signal"), "exit %d: %s",
                      r.status, r.err);
        result_clear(&r);
}
END_TEST

/* #38: a module is loaded before the scenario is read, so its keys work
 * as a built-in policy's in [policy:NAME], [policy] and --set, in run and
 * compare, and a key it does not have is refused naming it. */
START_TEST(a_modules_keys_work_like_a_built_ins)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *module = g_build_filename(g_getenv("RCUBOOST_TEST_MODULES"), "libnoop.so", NULL);
        g_autofree char *scn = write_temp_scenario(dir, "mk.scn", "[scenario]\nduration=100ms\n[policy:noop]\n"
                                                   "grace=2ms\n[task:t]\nprogram=compute 1ms\n[expect]\n"
                                                   "noop.safety_violations=0\nnoop.oom_rate=0\n");
        g_autofree char *bad = write_temp_scenario(dir, "bad.scn", "[scenario]\nduration=100ms\n[policy:noop]\n"
                                                   "grance=2ms\n[task:t]\nprogram=compute 1ms\n");
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        g_autofree char *cmp = g_build_filename(dir, "cmp", NULL);
        g_autofree char *list = g_strconcat("none,", module, NULL);
        g_autofree char *summary = NULL;
        struct result r;

        r = run_cli("run", scn, "--policy", module, "--out", out, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        summary = file_contents(out, "summary.json");
        ck_assert_msg(strstr(summary, "\"policy_params\" : {\n    \"grace\" : \"2ms\""), "%s", summary);
        r = run_cli("run", scn, "--policy", module, "--set", "policy:noop.grace=3ms", "--out", out, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        g_free(summary);
        summary = file_contents(out, "summary.json");
        ck_assert_msg(strstr(summary, "\"policy_params\" : {\n    \"grace\" : \"3ms\""), "%s", summary);
        r = run_cli("run", scn, "--policy", module, "--set", "policy.grace=4ms", "--out", out, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        r = run_cli("compare", scn, "-n", "1", "-p", list, "--out", cmp, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        r = run_cli("run", bad, "--policy", module, "--out", out, "-q", NULL);
        ck_assert_msg(r.status == 2 && strstr(r.err, "grance"), "exit %d: %s", r.status, r.err);
        result_clear(&r);
        /* and its regression tests are written as the shipped ones: check --policies */
        r = run_cli("check", "--policies", module, scn, NULL);
        ck_assert_msg(r.status == 0 && strstr(r.out, "ok   mk noop: safety_violations = 0") &&
                      strstr(r.out, "2 passed, 0 failed"), "exit %d: %s%s", r.status, r.out, r.err);
        result_clear(&r);
}
END_TEST

static Suite *outputs_suite(void)
{
        Suite *s = suite_create("outputs");
        TCase *json = tcase_create("json");

        tcase_add_test(json, json_outputs_have_each_key_once);
        tcase_add_test(json, a_policy_that_cannot_run_the_scenario_is_refused_before_anything_runs);
        tcase_add_test(json, compare_marks_a_failed_run_as_failed);
        tcase_add_test(json, absent_distributions_are_null_and_dash);
        tcase_add_test(json, text_outputs_are_ascii);
        tcase_add_test(json, exit_statuses_and_end_reasons_are_as_documented);
        tcase_add_test(json, an_output_directory_holds_one_run);
        tcase_add_test(json, a_bad_trace_path_keeps_the_earlier_outputs);
        tcase_add_test(json, a_killed_trace_leaves_no_temporary);
        tcase_add_test(json, terminating_signals_are_handled_alike);
        tcase_add_test(json, derived_output_names_are_checked);
        tcase_add_test(json, emit_jobs_to_a_full_disk_fails);
        tcase_add_test(json, a_contract_breach_is_an_error_not_a_crash);
        tcase_add_test(json, timer_and_unboost_breaches_name_the_module_and_hook);
        tcase_add_test(json, policy_timers_fire_in_their_context);
        tcase_add_test(json, module_keys_change_in_events);
        tcase_add_test(json, a_kill_while_publishing_leaves_no_half_set_behind);
        tcase_add_test(json, a_full_disk_leaves_nothing_and_says_so);
        tcase_add_test(json, two_runs_never_share_a_directory);
        tcase_add_test(json, per_task_rt_figures_as_cyclictest);
        tcase_add_test(json, stalls_are_counted_and_the_pending_gp_is_a_lower_bound);
        tcase_add_test(json, no_user_string_is_gnuplot_code);
        tcase_add_test(json, a_device_or_fifo_is_written_in_place_a_symlink_refused);
        tcase_add_test(json, numbers_are_the_same_under_a_comma_locale);
        tcase_add_test(json, sweep_resumes_only_whole_rows_of_its_own_grid);
        tcase_add_test(json, check_of_nothing_is_an_error);
        tcase_add_test(json, sweep_refuses_what_it_cannot_mean);
        tcase_add_test(json, what_changes_nothing_is_said);
        tcase_add_test(json, check_reports_cannot_be_forged);
        tcase_add_test(json, a_non_utf8_file_name_gives_valid_json);
        tcase_add_test(json, a_run_too_large_for_memory_is_refused_first);
        tcase_add_test(json, a_rebuilt_module_refuses_the_resume);
        tcase_add_test(json, a_silent_gnuplot_failure_says_how_it_ended);
        tcase_add_test(json, a_modules_keys_work_like_a_built_ins);
        tcase_add_test(json, a_run_that_would_take_days_is_announced);
        tcase_add_test(json, plot_templates_render_underscores_as_written);
        tcase_add_test(json, latency_plots_show_the_tail);
        tcase_add_test(json, a_long_memory_series_is_decimated_keeping_its_peaks);
        tcase_add_test(json, options_mean_one_thing_everywhere);
        tcase_add_test(json, trace_format_by_extension_in_any_case);
        tcase_add_test(json, trace_dat_by_extension_and_in_compare);
        tcase_add_test(json, sweep_plot_reads_as_compare);
        tcase_add_test(json, an_event_on_another_policys_thread_is_skipped_with_a_note);
        tcase_add_test(json, completion_works_in_plain_bash_for_every_command);
        tcase_add_test(json, compare_traces_a_window);
        tcase_add_test(json, compare_seeds_are_paired_and_replayable);
        tcase_add_test(json, the_stall_report_names_the_hog);
        tcase_add_test(json, rt_latency_per_class);
        tcase_add_test(json, timeline_names_the_tasks_and_marks_priority_changes);
        tcase_add_test(json, output_level_leaves_out_what_grows);
        tcase_add_test(json, out_of_memory_first_is_a_stall_unknown);
        tcase_add_test(json, a_task_keeps_its_colour_across_timelines);
        tcase_add_test(json, sweep_plots_rates_and_replots);
        tcase_add_test(json, a_figure_in_two_groups_is_shown_as_two);
        tcase_add_test(json, plot_keys_stay_off_the_data);
        tcase_add_test(json, an_rt_wake_up_says_what_it_waited_for);
        tcase_add_test(json, a_module_that_exits_is_a_failure);
        tcase_add_test(json, expect_lines_are_checked_before_running);
        tcase_add_test(json, sweep_metric_takes_expect_names_and_is_checked_first);
        tcase_set_timeout(json, 300);
        suite_add_tcase(s, json);
        return s;
}

int main(void)
{
        return run_cli_suite(outputs_suite());
}
