/* The command line: exit codes, messages, outputs, determinism. */
#include <glib/gstdio.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cliutil.h"

START_TEST(help_and_version)
{
        struct result r = run_cli("--version", NULL);

        ck_assert_int_eq(r.status, 0);
        ck_assert(g_str_has_prefix(r.out, "rcuboost "));
        result_clear(&r);
        r = run_cli("--help", NULL);
        ck_assert_int_eq(r.status, 0);
        ck_assert_ptr_nonnull(strstr(r.out, "run"));
        result_clear(&r);
        r = run_cli("run", "--help", NULL);
        ck_assert_int_eq(r.status, 0);
        ck_assert_ptr_nonnull(strstr(r.out, "--policy"));
        ck_assert_ptr_nonnull(strstr(r.out, "Examples"));
        {
                /* #48: run --help names every file a run writes */
                g_autofree char *dir = temp_dir();
                struct result w = run_cli("run", "scenarios/quiet.scn", "--set", "scenario.duration=50ms", "--out", dir,
                                          "-q", NULL);
                g_autoptr(GDir) d = NULL;
                const char *name;
                int files = 0;

                ck_assert_msg(w.status == 0, "%s", w.err);
                result_clear(&w);
                d = g_dir_open(dir, 0, NULL);
                while ((name = g_dir_read_name(d)))
                        if (name[0] != '.') {
                                files++;
                                ck_assert_msg(strstr(r.out, name), "run --help does not name %s", name);
                        }
                ck_assert_int_ge(files, 7);
        }
        result_clear(&r);
}
END_TEST

START_TEST(usage_errors_exit_2)
{
        struct result r = run_cli(NULL);

        ck_assert_int_eq(r.status, 2);
        result_clear(&r);
        r = run_cli("frobnicate", NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_ptr_nonnull(strstr(r.err, "unknown command 'frobnicate'"));
        ck_assert_ptr_null(strstr(r.err, "did you mean"));
        result_clear(&r);
        /* a slip of the keyboard gets the nearest command */
        r = run_cli("compre", NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_ptr_nonnull(strstr(r.err, "unknown command 'compre' (did you mean 'compare'?)"));
        result_clear(&r);
        r = run_cli("run", NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_ptr_nonnull(strstr(r.err, "which scenario"));
        result_clear(&r);
        r = run_cli("run", "scenarios/quiet.scn", "--policy", "magic", NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_ptr_nonnull(strstr(r.err, "unknown policy 'magic'"));
        result_clear(&r);
        r = run_cli("run", "scenarios/quiet.scn", "--seed", "-3", NULL);
        ck_assert_int_eq(r.status, 2);
        result_clear(&r);
        r = run_cli("run", "scenarios/quiet.scn", "--bogus", NULL);
        ck_assert_int_eq(r.status, 2);
        result_clear(&r);
        r = run_cli("run", "scenarios/quiet.scn", "--trace", "t.txt", "--trace-format", "ctf", NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_ptr_nonnull(strstr(r.err, "'ctf' is not json, ftrace or dat"));
        result_clear(&r);
        r = run_cli("compare", "--window", "5xs,1ms", NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_ptr_nonnull(strstr(r.err, "--window: expected START,LENGTH with units"));
        result_clear(&r);
        r = run_cli("compare", "--trace-format", "ftrace", NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_ptr_nonnull(strstr(r.err, "needs --trace"));
        result_clear(&r);
}
END_TEST

START_TEST(bad_scenario_exits_2_naming_file_line_key)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *path = write_temp_scenario(dir, "bad.scn",
                "[scenario]\ncpus=2\n[task:r]\nprogram=rcu_read_lock; sleep 1ms; rcu_read_unlock\n");
        g_autofree char *out = g_build_filename(dir, "out", NULL);
        struct result r = run_cli("run", path, "--out", out, NULL);

        ck_assert_int_eq(r.status, 2);
        ck_assert_ptr_nonnull(strstr(r.err, "bad.scn:4: [task:r] program: column 16: sleep inside"));
        ck_assert(!g_file_test(out, G_FILE_TEST_EXISTS));
        result_clear(&r);
        r = run_cli("validate", path, "scenarios/quiet.scn", NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_ptr_nonnull(strstr(r.out, "quiet.scn: ok"));
        result_clear(&r);
}
END_TEST

START_TEST(oom_scenario_runs_out_of_memory_safely)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *summary = g_build_filename(dir, "summary.json", NULL);
        g_autofree char *json = NULL;
        struct result r = run_cli("run", "scenarios/oom.scn", "--policy", "none", "--out", dir, NULL);
        static const char *const files[] = { "summary.json", "memory.csv", "gp.csv", "latency.csv" };

        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert_ptr_nonnull(strstr(r.out, "OUT OF MEMORY"));
        for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
                g_autofree char *f = g_build_filename(dir, files[i], NULL);

                ck_assert_msg(g_file_test(f, G_FILE_TEST_IS_REGULAR), "%s missing", files[i]);
        }
        ck_assert(g_file_get_contents(summary, &json, NULL, NULL));
        ck_assert_ptr_nonnull(strstr(json, "\"oom\" : true"));
        ck_assert_ptr_nonnull(strstr(json, "\"safety_violations\" : 0"));
        ck_assert_ptr_nonnull(strstr(json, "\"complete\" : true"));
        result_clear(&r);
}
END_TEST

START_TEST(safety_violation_exits_3)
{
        g_autofree char *dir = temp_dir();
        struct result r = run_cli("run", "scenarios/oom.scn", "--out", dir, "--set",
                                  "debug.break_grace_periods=true", NULL);

        ck_assert_int_eq(r.status, 3);
        ck_assert_ptr_nonnull(strstr(r.err, "SAFETY VIOLATION"));
        ck_assert_ptr_nonnull(strstr(r.err, "invoked while reader reader"));
        result_clear(&r);
}
END_TEST

START_TEST(same_seed_gives_identical_outputs)
{
        g_autofree char *a = temp_dir();
        g_autofree char *b = temp_dir();
        g_autofree char *c = temp_dir();
        static const char *const files[] = { "summary.json", "memory.csv", "gp.csv", "boost.csv", "latency.csv" };
        struct result r;

        r = run_cli("run", "scenarios/quiet.scn", "--policy", "pi-lock", "--out", a, "-q", NULL);
        ck_assert_int_eq(r.status, 0);
        result_clear(&r);
        r = run_cli("run", "scenarios/quiet.scn", "--policy", "pi-lock", "--out", b, "-q", NULL);
        ck_assert_int_eq(r.status, 0);
        result_clear(&r);
        r = run_cli("run", "scenarios/quiet.scn", "--policy", "pi-lock", "--out", c, "-q", "--seed", "2", NULL);
        ck_assert_int_eq(r.status, 0);
        result_clear(&r);
        for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
                g_autofree char *x = file_contents(a, files[i]);
                g_autofree char *y = file_contents(b, files[i]);

                ck_assert_msg(strcmp(x, y) == 0, "%s differs between identical runs", files[i]);
        }
        g_autofree char *s1 = file_contents(a, "summary.json");
        g_autofree char *s3 = file_contents(c, "summary.json");

        ck_assert_msg(strcmp(s1, s3) != 0, "a different seed should change the results");
}
END_TEST

START_TEST(check_reports_a_wrong_expectation)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *path = write_temp_scenario(dir, "wrong.scn",
                "[scenario]\ncpus=1\nduration=50ms\n"
                "[task:r]\nprogram=loop { rcu_read_lock; compute 100us; rcu_read_unlock; call_rcu 1KiB; sleep 1ms }\n"
                "[expect]\n*.safety_violations=0\nbooster.grace_periods>=1\nnone.oom=true\n");
        struct result r = run_cli("check", path, NULL);

        ck_assert_int_eq(r.status, 1);
        ck_assert_msg(strstr(r.out, "FAIL wrong none: memory.oom = true (actual false) at ") != NULL, "%s", r.out);
        ck_assert_ptr_nonnull(strstr(r.out, "wrong.scn:9: [expect] none.oom"));
        ck_assert_ptr_nonnull(strstr(r.out, "ok   wrong booster: rcu.grace_periods >= 1"));
        ck_assert_ptr_nonnull(strstr(r.out, "check: 7 passed, 1 failed"));
        result_clear(&r);
        r = run_cli("check", "--tap", path, NULL);
        ck_assert_int_eq(r.status, 1);
        ck_assert_ptr_nonnull(strstr(r.out, "not ok 2 - wrong none: memory.oom"));
        ck_assert_ptr_nonnull(strstr(r.out, "1..8"));
        result_clear(&r);
}
END_TEST

/* [expect] seeds=N: a metric must hold in every run, and a failure names
 * the seed that replays it; OUTCOME_rate lines count over the runs.  The
 * rt-readers scenario as it was before its sections went back to back: its
 * stall is the seed's luck (out of memory in seeds 1 and 3 of 1-4). */
START_TEST(check_over_seeds_names_the_failing_seed)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *legacy = g_build_filename(g_getenv("RCUBOOST_SRCDIR"), "tests", "legacy", "scenarios",
                                                   "rt-readers.scn", NULL);
        g_autofree char *text = NULL;
        struct result r;

        ck_assert(g_file_get_contents(legacy, &text, NULL, NULL));
        *strstr(text, "[expect]") = '\0';
        g_autofree char *lucky = g_strconcat(text, "[expect]\nseeds=4\nnone.oom=true\nnone.oom_rate>=0.75\n"
                                             "none.oom_rate<=0.5\nbooster.oom_rate=0\n", NULL);
        g_autofree char *path = write_temp_scenario(dir, "lucky.scn", lucky);

        r = run_cli("check", path, NULL);
        ck_assert_int_eq(r.status, 1);
        /* one line an assertion: the first failing run, then every failing seed */
        ck_assert_msg(strstr(r.out, "FAIL lucky none: memory.oom = true (actual false in seed 2) at ") &&
                      strstr(r.out, "; fails in 2 of 4 runs (seeds 2, 4)\n") && !strstr(r.out, "in seed 1)"),
                      "%s", r.out);
        ck_assert_msg(strstr(r.out, "FAIL lucky none: oom_rate >= 0.75 (actual 2 of 4 runs; 95% Wilson interval "
                             "15-85%) at ") != NULL, "%s", r.out);
        ck_assert_msg(strstr(r.out, "ok   lucky none: oom_rate <= 0.5 (actual 2 of 4 runs;") != NULL, "%s", r.out);
        ck_assert_msg(strstr(r.out, "ok   lucky booster: oom_rate = 0 (actual 0 of 4 runs;") != NULL, "%s", r.out);
        /* assertions counted, not runs: two failing assertions, not three */
        ck_assert_msg(strstr(r.out, "check: 2 passed, 2 failed") != NULL, "%s", r.out);
        result_clear(&r);
        /* the pairs run in parallel; the report keeps its order */
        {
                g_autofree char *quiet = g_build_filename(g_getenv("RCUBOOST_SRCDIR"), "scenarios", "quiet.scn", NULL);
                struct result one = run_cli("check", "-j", "1", "--seeds", "2", path, quiet, NULL);
                struct result three = run_cli("check", "-j", "3", "--seeds", "2", path, quiet, NULL);

                ck_assert_str_eq(one.out, three.out);
                ck_assert_int_eq(one.status, three.status);
                result_clear(&one);
                result_clear(&three);
        }
        /* --seeds 2: the first two seeds; rates written for four are not judged on two */
        r = run_cli("check", "--seeds", "2", path, NULL);
        ck_assert_int_eq(r.status, 1);
        ck_assert_msg(strstr(r.out, "(actual false in seed 2)") && !strstr(r.out, "in seed 4)"), "%s", r.out);
        ck_assert_msg(strstr(r.out, "skip lucky none: oom_rate >= 0.75 (--seeds 2: a rate over 2 of the 4 seeds") != NULL,
                      "%s", r.out);
        ck_assert_msg(strstr(r.out, "check: 0 passed, 1 failed, 3 skipped") != NULL, "%s", r.out);
        result_clear(&r);
        /* a rate is a fraction of the runs, and seeds a count */
        for (const char *const *bad = (const char *const[]){ "none.oom_rate=2", "none.stall_rate>=5ms", "seeds=0",
                                                              "seeds=many", NULL }; *bad; bad++) {
                g_autofree char *t = g_strconcat(text, "[expect]\n", *bad, "\n", NULL);
                g_autofree char *p = write_temp_scenario(dir, "bad.scn", t);

                r = run_cli("check", p, NULL);
                ck_assert_int_eq(r.status, 2);
                ck_assert_msg(strstr(r.err, "bad.scn:") && strstr(r.err, "[expect]"), "%s: %s", *bad, r.err);
                ck_assert_msg(strstr(r.err, g_str_has_prefix(*bad, "seeds") ? "whole number of runs" : "a rate is a fraction"),
                              "%s: %s", *bad, r.err);
                result_clear(&r);
        }
}
END_TEST

START_TEST(compare_writes_table_and_plots)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *tsv = NULL;
        struct result r = run_cli("compare", "scenarios/rt-latency.scn", "--policies", "none,booster",
                                  "--out", dir, "--set", "scenario.duration=1500ms", NULL);
        static const char *const plots[] = {
                "memory.png", "gp-latency.png", "callback-latency.png", "rt-latency.png",
                "boost-delay.png", "boosted-time.png", "timeline-none.png", "timeline-booster.png",
        };

        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert_ptr_nonnull(strstr(r.out, "RT wake-up max"));
        ck_assert_ptr_nonnull(strstr(r.out, "booster"));
        for (size_t i = 0; i < G_N_ELEMENTS(plots); i++)
                ck_assert_msg(exists(dir, plots[i]), "%s not drawn", plots[i]);
        /* No synchronize_rcu() in this scenario: no empty plot for it. */
        ck_assert(!exists(dir, "sync-latency.png"));
        ck_assert(exists(dir, "none/seed-1/summary.json") && exists(dir, "booster/seed-1/timeline.csv"));
        ck_assert(exists(dir, "comparison.md") && exists(dir, "plots/cdf.gp"));
        g_autofree char *path = g_build_filename(dir, "comparison.tsv", NULL);

        ck_assert(g_file_get_contents(path, &tsv, NULL, NULL));
        ck_assert(g_str_has_prefix(tsv, "policy\tseed\tstatus\trcu.flavour\toom\tstall\tstalled_at_end\tstall_unknown\t"
                                        "memory.oom_time_ns"));
        /* a row per run: ten seeds by default */
        ck_assert_ptr_nonnull(strstr(tsv, "\nnone\t1\t"));
        ck_assert_ptr_nonnull(strstr(tsv, "\nbooster\t10\t"));
        ck_assert_ptr_null(strstr(tsv, "\nbooster\t11\t"));
        result_clear(&r);
}
END_TEST

START_TEST(compare_without_gnuplot_still_writes_numbers)
{
        g_autofree char *dir = temp_dir();
        char *env[] = { "PATH=/nonexistent", NULL };
        struct result r;

        cli_env = env;
        r = run_cli("compare", "-n", "2", "--policies", "booster", "--out", dir, "--set", "scenario.duration=1200ms", NULL);
        cli_env = NULL;
        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert_ptr_nonnull(strstr(r.err, "gnuplot not found"));
        ck_assert(exists(dir, "comparison.tsv"));
        ck_assert(exists(dir, "booster/seed-1/summary.json"));
        ck_assert(!exists(dir, "memory.png"));
        /* The built-in default scenario is oom.scn. */
        ck_assert_ptr_nonnull(strstr(r.err, "running default with booster"));
        result_clear(&r);
}
END_TEST

static guint count_lines(const char *text)
{
        g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

        return g_strv_length(lines);
}

static char *read_file(const char *dir, const char *name)
{
        g_autofree char *path = g_build_filename(dir, name, NULL);
        char *s = NULL;

        ck_assert_msg(g_file_get_contents(path, &s, NULL, NULL), "cannot read %s", path);
        return s;
}

/* Runs that split by an outcome are two populations: each figure is given
 * per group, never as one median across both (a figure no run had), and the
 * memory plot's data carries each group's median. */
START_TEST(compare_splits_figures_by_outcome)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *md = NULL, *band = NULL;
        /* qhimark 15000: the overload kick comes at 30,000 callbacks, past the
         * 128 MiB limit in three seeds of four and before it in one */
        struct result r = run_cli("compare", "scenarios/booster-starvation.scn", "--policies", "rcu-boost",
                                  "--seeds", "4", "--set", "rcu.qhimark=15000", "--out", dir, NULL);

        ck_assert_msg(r.status == 0, "%s", r.err);
        md = read_file(dir, "comparison.md");
        ck_assert_msg(strstr(md, "| 3/4 (30-95%) |") && strstr(md, "| OOM 3/4: 128.0 MiB; no OOM 1/4: "),
                      "%s", md);
        /* the boost delay: none in the runs out of memory */
        ck_assert_ptr_nonnull(strstr(md, "| OOM 3/4: -; no OOM 1/4: "));
        band = read_file(dir, "rcu-boost/memory-band.dat");
        ck_assert(g_str_has_prefix(band, "time_s,median_mib,min_mib,max_mib,other_median_mib\n"));
        /* both medians on every line */
        ck_assert_ptr_null(strstr(band, ",\n"));
        result_clear(&r);
}
END_TEST

#define SWEEP_ARGS "scenarios/oom.scn", "--vary", "policy.booster_period=5ms,20ms", \
        "--policies", "booster,pi-lock", "--seeds", "3", "--set", "scenario.duration=1500ms", "--quiet"

/* sweep's plot says what a mean would hide: the default metric counts a
 * grace period still pending at the end, runs out of memory are counted at
 * their point, a run that failed keeps its row, one seed draws no interval. */
#define DEADLOCK_AT_4_CPUS "[scenario]\ncpus=2\nduration=300ms\n[mutex:a]\n[mutex:b]\n" \
        "[task:x]\naffinity=0\nprogram=loop { lock a; compute 1ms; lock b; unlock b; unlock a }\n" \
        "[task:y]\naffinity=1\nprogram=loop { lock b; compute 1ms; lock a; unlock a; unlock b }\n"

START_TEST(sweep_marks_stalls_and_failures)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *out = g_build_filename(dir, "sw", NULL);
        g_autofree char *dl = write_temp_scenario(dir, "dl.scn", DEADLOCK_AT_4_CPUS);
        g_autofree char *dlout = g_build_filename(dir, "dl", NULL);
        g_autofree char *dat = NULL, *csv = NULL;
        struct result r = run_cli("sweep", "scenarios/oom.scn", "--vary", "rcu.memory_limit=64MiB,1GiB", "--policies",
                                  "none", "--seeds", "2", "--set", "scenario.duration=2s", "--out", out, NULL);

        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert_ptr_nonnull(strstr(r.out, "plot "));
        result_clear(&r);
        /* a bad --vary value is named as the option it came from */
        r = run_cli("sweep", "scenarios/oom.scn", "--vary", "rcu.memory_limit=64MiB,lots", "--policies", "none",
                    "--out", dlout, NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(g_str_has_prefix(r.err, "rcuboost: --vary rcu.memory_limit: 'lots' is not a size"), "%s", r.err);
        result_clear(&r);
        dat = read_file(out, "sweep-plot.dat");
        {
                /* 64 MiB: both seeds out of memory, and the mean is the stall still
                 * pending (at least ~600 ms), not a short completed grace period;
                 * 1 GiB: nobody ran out of memory */
                g_auto(GStrv) rows = g_strsplit(dat, "\n", -1);
                g_auto(GStrv) small = g_strsplit(rows[1], " ", -1);
                g_auto(GStrv) big = g_strsplit(rows[2], " ", -1);

                ck_assert_str_eq(rows[0], "\"none\" x mean lo hi n oom failed");
                ck_assert_msg(g_strv_length(small) == 7 && g_ascii_strtod(small[1], NULL) > 500, "%s", dat);
                ck_assert_msg(!strcmp(small[4], "2") && !strcmp(small[5], "2") && !strcmp(small[6], "0"), "%s", dat);
                ck_assert_msg(g_strv_length(big) == 7 && !strcmp(big[5], "0"), "%s", dat);
        }
        /* a deadlock: the failed run's row says so, and the sweep fails */
        r = run_cli("sweep", dl, "--vary", "scenario.duration=100ms,200ms", "--policies", "none", "--out", dlout, NULL);
        ck_assert_int_eq(r.status, 1);
        result_clear(&r);
        csv = read_file(dlout, "sweep.csv");
        ck_assert_msg(strstr(csv, "\n0,none,1,failed,100ms,") != NULL, "%s", csv);
}
END_TEST

START_TEST(sweep_is_the_same_serial_parallel_resumed_and_distributed)
{
        g_autofree char *serial = temp_dir();
        g_autofree char *par = temp_dir();
        g_autofree char *jobsdir = temp_dir();
        g_autofree char *jobs = g_build_filename(jobsdir, "jobs.txt", NULL);
        g_autofree char *a = NULL;
        struct result r;

        r = run_cli("sweep", SWEEP_ARGS, "-j", "1", "--out", serial, NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        a = read_file(serial, "sweep.csv");
        ck_assert(g_str_has_prefix(a, "run,policy,seed,status,policy.booster_period,memory.oom_time_ns"));
        ck_assert_int_eq(count_lines(a), 1 + 12 + 1);
        ck_assert(exists(serial, "sweep.png") && exists(serial, "runs/000011/summary.json"));

        /* Two workers: the same file, byte for byte. */
        r = run_cli("sweep", SWEEP_ARGS, "-j", "2", "--out", par, NULL);
        ck_assert_int_eq(r.status, 0);
        result_clear(&r);
        g_autofree char *b = read_file(par, "sweep.csv");
        ck_assert_str_eq(a, b);

        /* Interrupted: a run without its row is run again, the others are kept. */
        g_autofree char *row = g_build_filename(par, "runs", "000005", "row.csv", NULL);
        g_autofree char *kept = g_build_filename(par, "runs", "000004", "row.csv", NULL);
        GStatBuf before, after;

        ck_assert_int_eq(g_unlink(row), 0);
        ck_assert_int_eq(g_stat(kept, &before), 0);
        r = run_cli("sweep", SWEEP_ARGS, "-j", "2", "--out", par, NULL);
        ck_assert_int_eq(r.status, 0);
        result_clear(&r);
        ck_assert_int_eq(g_stat(kept, &after), 0);
        ck_assert_int_eq(before.st_mtime, after.st_mtime);
        g_autofree char *c = read_file(par, "sweep.csv");
        ck_assert_str_eq(a, c);

        /* As a job list run by GNU parallel, then merged. */
        r = run_cli("sweep", SWEEP_ARGS, "--out", jobsdir, "--emit-jobs", jobs, NULL);
        ck_assert_int_eq(r.status, 0);
        result_clear(&r);
        g_autofree char *list = read_file(jobsdir, "jobs.txt");
        ck_assert_int_eq(count_lines(list), 12 + 1);
        g_autofree char *parallel = g_find_program_in_path("parallel");

        if (parallel) {
                g_autofree char *cmd = g_strdup_printf("sh -c 'parallel -j 2 < %s'", jobs);
                int st = 0;

                ck_assert(g_spawn_command_line_sync(cmd, NULL, NULL, &st, NULL));
                ck_assert(g_spawn_check_wait_status(st, NULL));
        } else {
                g_autofree char *cmd = g_strdup_printf("sh %s", jobs);
                int st = 0;

                ck_assert(g_spawn_command_line_sync(cmd, NULL, NULL, &st, NULL));
        }
        r = run_cli("sweep", SWEEP_ARGS, "--out", jobsdir, "--merge", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        g_autofree char *d = read_file(jobsdir, "sweep.csv");
        ck_assert_str_eq(a, d);
}
END_TEST

/* Start rcuboost, signal it after @delay_ms, return its exit status. */
static int run_and_signal(int signo, int delay_ms, ...)
{
        GPtrArray *argv = g_ptr_array_new();
        GPid pid;
        int wait_status = 0;
        va_list ap;

        g_ptr_array_add(argv, (char *)g_getenv("RCUBOOST_BIN"));
        va_start(ap, delay_ms);
        for (const char *a = va_arg(ap, const char *); a; a = va_arg(ap, const char *))
                g_ptr_array_add(argv, (char *)a);
        va_end(ap);
        g_ptr_array_add(argv, NULL);
        ck_assert(g_spawn_async(g_getenv("RCUBOOST_SRCDIR"), (char **)argv->pdata, NULL,
                                G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                                NULL, NULL, &pid, NULL));
        g_usleep(delay_ms * 1000);
        kill(pid, signo);
        ck_assert_int_eq(waitpid(pid, &wait_status, 0), pid);
        g_ptr_array_free(argv, TRUE);
        ck_assert(WIFEXITED(wait_status));
        return WEXITSTATUS(wait_status);
}

START_TEST(signals_stop_a_run_with_incomplete_outputs)
{
        g_autofree char *dir = temp_dir();
        int status = run_and_signal(SIGTERM, 300, "run", "scenarios/rcutorture-boost.scn", "--set",
                                    "scenario.duration=100000s", "--out", dir, NULL);
        g_autofree char *summary = NULL;

        ck_assert_int_eq(status, 143);
        summary = read_file(dir, "summary.json");
        ck_assert_ptr_nonnull(strstr(summary, "\"complete\" : false"));
        ck_assert_ptr_nonnull(strstr(summary, "\"end_reason\" : \"interrupted\""));
        ck_assert(exists(dir, "memory.csv") && exists(dir, "gp.csv"));

        g_autofree char *dir2 = temp_dir();

        status = run_and_signal(SIGINT, 300, "run", "scenarios/rcutorture-boost.scn", "--set",
                                "scenario.duration=100000s", "--out", dir2, NULL);
        ck_assert_int_eq(status, 130);
}
END_TEST

START_TEST(signals_stop_commands_outside_runs_at_once)
{
        /* check runs without an interrupt flag: a signal ends it at once, not after 100000 s */
        g_autofree char *dir = temp_dir();
        g_autofree char *path = write_temp_scenario(dir, "long.scn",
                "[scenario]\ncpus=1\nduration=100000s\n[output]\nmemory_sample=1s\n"
                "[task:r]\nprogram=loop { rcu_read_lock; compute 100us; rcu_read_unlock; call_rcu 1KiB; sleep 1ms }\n"
                "[expect]\nnone.safety_violations=0\n");
        int status = run_and_signal(SIGINT, 300, "check", path, NULL);

        ck_assert_int_eq(status, 130);
        status = run_and_signal(SIGTERM, 300, "check", path, NULL);
        ck_assert_int_eq(status, 143);
}


START_TEST(budgets_stop_cleanly)
{
        g_autofree char *dir = temp_dir();
        struct result r = run_cli("run", "scenarios/quiet.scn", "--out", dir, "--set", "output.max_events=5000", NULL);
        g_autofree char *summary = NULL;

        ck_assert_int_eq(r.status, 1);
        ck_assert_ptr_nonnull(strstr(r.err, "event budget ([output] max_events) was reached"));
        summary = read_file(dir, "summary.json");
        ck_assert_ptr_nonnull(strstr(summary, "\"complete\" : false"));
        ck_assert_ptr_nonnull(strstr(summary, "\"events\" : 5000,"));
        result_clear(&r);
        r = run_cli("run", "scenarios/quiet.scn", "--out", dir, "--set", "output.max_memory=1MiB", NULL);
        ck_assert_int_eq(r.status, 1);
        ck_assert_ptr_nonnull(strstr(r.err, "host-memory budget ([output] max_memory) was reached"));
        result_clear(&r);
}
END_TEST

START_TEST(interrupted_sweep_resumes_to_the_same_result)
{
        g_autofree char *whole = temp_dir();
        g_autofree char *broken = temp_dir();
        struct result r = run_cli("sweep", SWEEP_ARGS, "-j", "2", "--out", whole, NULL);
        int status;

        ck_assert_int_eq(r.status, 0);
        result_clear(&r);
        status = run_and_signal(SIGINT, 150, "sweep", SWEEP_ARGS, "-j", "2", "--out", broken, NULL);
        ck_assert_msg(status == 130 || status == 0, "status %d", status);
        r = run_cli("sweep", SWEEP_ARGS, "-j", "2", "--out", broken, NULL);
        ck_assert_int_eq(r.status, 0);
        result_clear(&r);
        g_autofree char *a = read_file(whole, "sweep.csv");
        g_autofree char *b = read_file(broken, "sweep.csv");

        ck_assert_str_eq(a, b);
}
END_TEST

/* Every error class of the fuzz corpus: exit 2, one message naming the file. */
START_TEST(every_error_class_exits_2_with_a_located_message)
{
        g_autofree char *corpus = g_build_filename(g_getenv("RCUBOOST_SRCDIR"), "tests", "fuzz", "corpus",
                                                   "scenario", NULL);
        g_autoptr(GDir) d = g_dir_open(corpus, 0, NULL);
        const char *name;
        int n = 0;

        ck_assert_ptr_nonnull(d);
        while ((name = g_dir_read_name(d))) {
                g_autofree char *path = NULL;
                struct result r;

                if (!g_str_has_prefix(name, "error-"))
                        continue;
                path = g_build_filename(corpus, name, NULL);
                r = run_cli("validate", path, NULL);
                ck_assert_msg(r.status == 2, "%s: status %d", name, r.status);
                ck_assert_msg(g_str_has_prefix(r.err, "rcuboost: ") && strstr(r.err, name), "%s: %s", name, r.err);
                ck_assert_msg(strchr(r.err, '\n') == r.err + strlen(r.err) - 1, "%s: one line: %s", name, r.err);
                result_clear(&r);
                n++;
        }
        ck_assert_int_ge(n, 40);

        /* Files that are too large are refused before they are read. */
        g_autofree char *dir = temp_dir();
        g_autofree char *big = g_build_filename(dir, "big.scn", NULL);
        FILE *f = fopen(big, "w");
        struct result r;

        ck_assert_ptr_nonnull(f);
        ck_assert_int_eq(ftruncate(fileno(f), 100 * 1024 * 1024), 0);
        fclose(f);
        r = run_cli("validate", big, NULL);
        ck_assert_int_eq(r.status, 2);
        ck_assert_ptr_nonnull(strstr(r.err, "is too large for a scenario file"));
        result_clear(&r);
}
END_TEST

START_TEST(progress_bar_on_a_terminal_only)
{
        g_autofree char *tty_dir = temp_dir();
        g_autofree char *pipe_dir = temp_dir();
        g_autofree char *cmd = g_strdup_printf("script -qec '%s run %s/scenarios/quiet.scn --out %s' /dev/null",
                                               g_getenv("RCUBOOST_BIN"), g_getenv("RCUBOOST_SRCDIR"), tty_dir);
        g_autofree char *tty_out = NULL;
        g_autofree char *script = g_find_program_in_path("script");
        int st = 0;
        struct result r;

        if (!script)
                return;         /* util-linux's script(1) gives us a terminal */
        ck_assert(g_spawn_command_line_sync(cmd, &tty_out, NULL, &st, NULL));
        ck_assert(g_spawn_check_wait_status(st, NULL));
        ck_assert_msg(strstr(tty_out, "% ") && strstr(tty_out, "s simulated") && strstr(tty_out, "ETA"),
                      "no progress bar on a terminal: %s", tty_out);
        r = run_cli("run", "scenarios/quiet.scn", "--out", pipe_dir, NULL);
        ck_assert_int_eq(r.status, 0);
        ck_assert_ptr_null(strstr(r.err, "ETA"));
        ck_assert_ptr_null(strstr(r.out, "ETA"));
        result_clear(&r);
        /* Drawing progress runs the engine in steps: the results must not change
         * (but for the scenario's path, which was given differently). */
        g_autofree char *a = read_file(tty_dir, "gp.csv");
        g_autofree char *b = read_file(pipe_dir, "gp.csv");

        ck_assert_str_eq(a, b);

        /* compare: one line, how far each policy got; its runs as run's */
        g_autofree char *cmp_dir = temp_dir();
        g_autofree char *cmp_cmd = g_strdup_printf("script -qec '%s compare -n 2 %s/scenarios/quiet.scn --policies "
                                                   "none,booster --out %s' /dev/null", g_getenv("RCUBOOST_BIN"),
                                                   g_getenv("RCUBOOST_SRCDIR"), cmp_dir);
        g_autofree char *cmp_out = NULL;
        g_autofree char *none_dir = g_build_filename(cmp_dir, "none", "seed-1", NULL);
        g_autofree char *c = NULL;

        ck_assert(g_spawn_command_line_sync(cmp_cmd, &cmp_out, NULL, &st, NULL));
        ck_assert(g_spawn_check_wait_status(st, NULL));
        ck_assert_msg(strstr(cmp_out, "none 100%") && strstr(cmp_out, "booster 100%"),
                      "no per-policy progress on a terminal: %s", cmp_out);
        c = read_file(none_dir, "gp.csv");
        ck_assert_str_eq(c, b);
}
END_TEST

START_TEST(trace_window_limits_the_trace)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *traces = temp_dir();   /* a trace in --out is the run's: the next run replaces it */
        g_autofree char *whole = g_build_filename(traces, "whole.json", NULL);
        g_autofree char *part = g_build_filename(traces, "part.json", NULL);
        struct result r = run_cli("run", "scenarios/oom.scn", "--set", "scenario.duration=1200ms", "--out", dir,
                                  "-q", "--trace", whole, NULL);
        GStatBuf a, b;
        g_autofree char *text = NULL;
        g_auto(GStrv) lines = NULL;

        ck_assert_int_eq(r.status, 0);
        result_clear(&r);
        r = run_cli("run", "scenarios/oom.scn", "--set", "scenario.duration=1200ms", "--out", dir, "-q",
                    "--trace", part, "--trace-window", "1s,50ms", NULL);
        ck_assert_int_eq(r.status, 0);
        result_clear(&r);
        ck_assert(g_stat(whole, &a) == 0 && g_stat(part, &b) == 0);
        ck_assert_int_lt(b.st_size * 5, a.st_size);
        ck_assert(g_file_get_contents(part, &text, NULL, NULL));
        lines = g_strsplit(text, "\n", -1);
        for (int i = 0; lines[i]; i++) {
                const char *ts = strstr(lines[i], "\"ts\":");

                if (ts) {
                        double t = g_ascii_strtod(ts + 5, NULL);

                        ck_assert_msg(t >= 1000000 - 0.001 && t <= 1050000 + 0.001, "%s", lines[i]);
                }
        }
        r = run_cli("run", "scenarios/oom.scn", "--trace-window", "1s", NULL);
        ck_assert_int_eq(r.status, 2);
        result_clear(&r);
}
END_TEST

/* #58: a 2007 policy on Tree RCU runs in a kernel that never existed: said
 * once per command, in summary.json's warnings too, with what the model does
 * (rcuc/N SCHED_NORMAL); not for none (a kernel without RCU_BOOST is real)
 * nor for rcu-boost. */
START_TEST(a_2007_policy_on_tree_rcu_is_said)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *out = g_build_filename(dir, "b", NULL);
        g_autofree char *summary = NULL;
        const char *const quiet_policies[] = { "none", "rcu-boost" };
        struct result r = run_cli("run", "scenarios/oom.scn", "--policy", "booster", "--set", "rcu.flavour=tree",
                                  "--set", "scenario.duration=200ms", "--out", out, NULL);
        const char *says = "policy booster was written for rcupreempt (2.6.22-rt, 2007), not Tree RCU";

        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert_msg(strstr(r.err, says) && strstr(r.err, "rcuc/N callback threads SCHED_NORMAL"), "%s", r.err);
        ck_assert_msg(strstr(r.err, says) == g_strrstr(r.err, says), "said twice: %s", r.err);
        result_clear(&r);
        summary = file_contents(out, "summary.json");
        ck_assert_msg(strstr(summary, "was written for rcupreempt"), "%s", summary);
        for (size_t i = 0; i < G_N_ELEMENTS(quiet_policies); i++) {
                r = run_cli("run", "scenarios/oom.scn", "--policy", quiet_policies[i], "--set", "rcu.flavour=tree",
                            "--set", "scenario.duration=200ms", "--out", out, NULL);
                ck_assert_msg(r.status == 0 && !strstr(r.err, "written for"), "%s: %s", quiet_policies[i], r.err);
                result_clear(&r);
        }
        r = run_cli("run", "scenarios/oom.scn", "--policy", "booster", "--set", "scenario.duration=200ms", "--out",
                    out, NULL);
        ck_assert_msg(r.status == 0 && !strstr(r.err, "written for"), "on rcupreempt: %s", r.err);
        result_clear(&r);
        /* sweep says it once before it runs, check once per scenario and policy */
        g_autofree char *sw = g_build_filename(dir, "sw", NULL);

        r = run_cli("sweep", "scenarios/oom.scn", "--set", "rcu.flavour=tree", "--policies", "booster", "--vary",
                    "scenario.duration=100ms,200ms", "--seeds", "2", "--out", sw, "-q", NULL);
        ck_assert_msg(r.status == 0 && strstr(r.err, says) && strstr(r.err, says) == g_strrstr(r.err, says), "%s",
                      r.err);
        result_clear(&r);
        g_autofree char *scn = write_temp_scenario(dir, "t.scn", "[scenario]\nduration=100ms\n[rcu]\nflavour=tree\n"
                                                   "[task:r]\nprogram=loop { rcu_read_lock; compute 1ms; rcu_read_unlock }\n"
                                                   "[expect]\nseeds=2\nbooster.safety_violations=0\n");

        r = run_cli("check", scn, NULL);
        ck_assert_msg(r.status == 0 && strstr(r.err, says) && strstr(r.err, says) == g_strrstr(r.err, says), "%s",
                      r.err);
        result_clear(&r);
}
END_TEST

/* #59 (8): --vary of an [rcu] key no policy of the sweep reads is said
 * before the sweep runs, named as the --vary it is. */
START_TEST(sweep_warns_of_a_varied_key_nobody_reads)
{
        g_autofree char *dir = temp_dir();
        g_autofree char *sw = g_build_filename(dir, "sw", NULL);
        struct result r = run_cli("sweep", "scenarios/oom.scn", "--policies", "booster", "--vary",
                                  "rcu.qhimark=5000,10000", "--set", "scenario.duration=100ms", "--out", sw, "-q",
                                  NULL);

        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert_msg(strstr(r.err, "warning: --vary rcu.qhimark: has no effect under policy booster (RCU "
                             "rcupreempt): only tree reads it"), "%s", r.err);
        result_clear(&r);
}
END_TEST

START_TEST(policies_lists_none)
{
        struct result r = run_cli("policies", NULL);

        ck_assert_int_eq(r.status, 0);
        ck_assert_ptr_nonnull(strstr(r.out, "none "));
        ck_assert_ptr_nonnull(strstr(r.out, "booster "));
        ck_assert_ptr_nonnull(strstr(r.out, "booster-8state "));
        ck_assert_ptr_nonnull(strstr(r.out, "pi-lock "));
        ck_assert_ptr_nonnull(strstr(r.out, "booster_prio=rr:49"));
        result_clear(&r);
        r = run_cli("validate", "--keys", NULL);
        ck_assert_int_eq(r.status, 0);
        ck_assert_ptr_nonnull(strstr(r.out, "[task:NAME]"));
        ck_assert_ptr_nonnull(strstr(r.out, "memory_limit"));
        result_clear(&r);
}
END_TEST

static Suite *cli_suite(void)
{
        Suite *s = suite_create("cli");
        TCase *usage = tcase_create("usage");
        TCase *runs = tcase_create("runs");

        tcase_add_test(usage, help_and_version);
        tcase_add_test(usage, usage_errors_exit_2);
        tcase_add_test(usage, bad_scenario_exits_2_naming_file_line_key);
        tcase_add_test(usage, policies_lists_none);
        tcase_add_test(usage, every_error_class_exits_2_with_a_located_message);
        tcase_add_test(runs, oom_scenario_runs_out_of_memory_safely);
        tcase_add_test(runs, safety_violation_exits_3);
        tcase_add_test(runs, same_seed_gives_identical_outputs);
        tcase_add_test(runs, check_reports_a_wrong_expectation);
        tcase_add_test(runs, check_over_seeds_names_the_failing_seed);
        tcase_add_test(runs, compare_writes_table_and_plots);
        tcase_add_test(runs, compare_without_gnuplot_still_writes_numbers);
        tcase_add_test(runs, compare_splits_figures_by_outcome);
        tcase_add_test(runs, sweep_is_the_same_serial_parallel_resumed_and_distributed);
        tcase_add_test(runs, sweep_marks_stalls_and_failures);
        tcase_add_test(runs, signals_stop_a_run_with_incomplete_outputs);
        tcase_add_test(runs, signals_stop_commands_outside_runs_at_once);
        tcase_add_test(runs, budgets_stop_cleanly);
        tcase_add_test(runs, progress_bar_on_a_terminal_only);
        tcase_add_test(runs, trace_window_limits_the_trace);
        tcase_add_test(runs, a_2007_policy_on_tree_rcu_is_said);
        tcase_add_test(runs, sweep_warns_of_a_varied_key_nobody_reads);
        tcase_add_test(runs, interrupted_sweep_resumes_to_the_same_result);
        tcase_set_timeout(runs, 300);
        suite_add_tcase(s, usage);
        suite_add_tcase(s, runs);
        return s;
}

int main(void)
{
        return run_cli_suite(cli_suite());
}
