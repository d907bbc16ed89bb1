/* The traces of `run --trace`: Chrome trace-event JSON parses, line by line
 * and whole, and holds the tracks Perfetto shows; ftrace text has the
 * kernel's line format and tells a consistent story. */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "testutil.h"

/* The trace's text; the file and its directory are removed. */
static char *trace_as(const char *text, const char *policy, bool ftrace)
{
        g_autofree char *dir = g_dir_make_tmp("rcuboost-trace-XXXXXX", NULL);
        g_autofree char *path = g_build_filename(dir, ftrace ? "trace.txt" : "trace.json", NULL);
        char *trace = NULL;
        GError *e = NULL;
        struct scenario *sc = scenario_load_data(text, "trace.scn", NULL, &e);
        struct sim *sim;

        ck_assert_ptr_nonnull(sc);
        sim = sim_new(sc, &(struct sim_options){ .policy = policy, .trace = path, .trace_format = ftrace ? SIM_TRACE_FTRACE : SIM_TRACE_JSON }, &e);
        ck_assert_msg(sim != NULL, "%s", e ? e->message : "");
        sim_run(sim);
        ck_assert(sim_finish(sim, NULL));
        sim_free(sim);
        scenario_free(sc);
        ck_assert(g_file_get_contents(path, &trace, NULL, NULL));
        ck_assert_int_eq(g_remove(path), 0);
        ck_assert_int_eq(g_rmdir(dir), 0);
        return trace;
}

static char *trace_of(const char *text, const char *policy)
{
        return trace_as(text, policy, false);
}

#define OOM "[scenario]\ncpus=2\nduration=1500ms\n[rcu]\nmemory_limit=off\n" \
        "[task:updater]\nsched=fifo:20\naffinity=1\nprogram=loop { compute exp(20us); call_rcu 4KiB; sleep exp(200us) }\n" \
        "[task:reader]\nsched=normal:19\naffinity=0\nprogram=loop { rcu_read_lock; compute exp(300us); rcu_read_unlock; sleep exp(50us) }\n" \
        "[task:hog]\nsched=fifo:10\naffinity=0\nstart=1s\nprogram=compute 3s\n"

START_TEST(trace_is_chrome_trace_json)
{
        g_autofree char *text = trace_of(OOM, "booster");
        g_auto(GStrv) lines = NULL;
        g_autoptr(JsonParser) parser = json_parser_new();
        GError *e = NULL;
        JsonArray *events;
        int x = 0, boosted = 0, counters = 0, gp = 0, names = 0;
        double last_end[2] = { 0, 0 };

        /* Line by line: a header, one event object per line, a footer. */
        lines = g_strsplit(text, "\n", -1);
        ck_assert_str_eq(lines[0], "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
        for (int i = 1; lines[i] && lines[i + 1] && lines[i + 2]; i++) {
                g_autoptr(JsonParser) one = json_parser_new();
                g_autofree char *obj = g_strdup(lines[i]);
                size_t n = strlen(obj);

                if (n && obj[n - 1] == ',')
                        obj[n - 1] = '\0';
                ck_assert_msg(obj[0] == '{' && json_parser_load_from_data(one, obj, -1, &e),
                              "line %d: %s", i + 1, lines[i]);
        }
        /* Whole. */
        ck_assert_msg(json_parser_load_from_data(parser, text, -1, &e), "%s", e ? e->message : "");
        events = json_object_get_array_member(json_node_get_object(json_parser_get_root(parser)), "traceEvents");
        ck_assert_ptr_nonnull(events);
        for (guint i = 0; i < json_array_get_length(events); i++) {
                JsonObject *ev = json_array_get_object_element(events, i);
                const char *ph = json_object_get_string_member(ev, "ph");

                ck_assert(json_object_has_member(ev, "name") && json_object_has_member(ev, "pid"));
                if (!strcmp(ph, "M")) {
                        names++;
                } else if (!strcmp(ph, "X")) {
                        double ts = json_object_get_double_member(ev, "ts");
                        double dur = json_object_get_double_member(ev, "dur");
                        const char *cat = json_object_get_string_member(ev, "cat");
                        gint64 pid = json_object_get_int_member(ev, "pid");

                        ck_assert(ts >= 0 && dur > 0 && ts + dur <= 1500000.001);
                        ck_assert(pid >= 1 && pid <= 4);
                        x++;
                        gp += !strcmp(cat, "gp");
                        boosted += !strcmp(cat, "boosted");
                        if (!strcmp(cat, "run")) {
                                gint64 cpu = json_object_get_int_member(ev, "tid");

                                /* A CPU runs one task at a time. */
                                ck_assert(cpu == 0 || cpu == 1);
                                last_end[cpu] = ts + dur;
                        }
                } else {
                        ck_assert_str_eq(ph, "C");
                        ck_assert(json_object_has_member(json_object_get_object_member(ev, "args"), "bytes"));
                        counters++;
                }
        }
        ck_assert_int_ge(names, 4 + 2);         /* processes, CPU tracks */
        ck_assert_int_gt(x, 1000);
        ck_assert_int_gt(gp, 100);
        ck_assert_int_ge(boosted, 1);           /* the reader behind the hog */
        ck_assert_int_ge(counters, 1400);       /* memory every ms */
        ck_assert(last_end[0] > 0 && last_end[1] > 0);
}
END_TEST

START_TEST(run_intervals_on_a_cpu_do_not_overlap)
{
        g_autofree char *text = trace_of(OOM, "none");
        g_autoptr(JsonParser) parser = json_parser_new();
        JsonArray *events;
        GArray *spans[2] = { g_array_new(FALSE, FALSE, sizeof(double) * 2), g_array_new(FALSE, FALSE, sizeof(double) * 2) };

        ck_assert(json_parser_load_from_data(parser, text, -1, NULL));
        events = json_object_get_array_member(json_node_get_object(json_parser_get_root(parser)), "traceEvents");
        for (guint i = 0; i < json_array_get_length(events); i++) {
                JsonObject *ev = json_array_get_object_element(events, i);

                if (strcmp(json_object_get_string_member(ev, "ph"), "X") ||
                    strcmp(json_object_get_string_member(ev, "cat"), "run"))
                        continue;
                double span[2] = { json_object_get_double_member(ev, "ts"), 0 };

                span[1] = span[0] + json_object_get_double_member(ev, "dur");
                g_array_append_vals(spans[json_object_get_int_member(ev, "tid")], span, 1);
        }
        for (int c = 0; c < 2; c++) {
                double *v = (double *)(void *)spans[c]->data;

                ck_assert_uint_gt(spans[c]->len, 10);
                for (guint i = 1; i < spans[c]->len; i++)
                        ck_assert_msg(v[2 * i] >= v[2 * (i - 1) + 1] - 1e-6 || v[2 * i + 1] <= v[2 * (i - 1)] + 1e-6,
                                      "cpu%d: overlapping run intervals", c);
                g_array_free(spans[c], TRUE);
        }
}
END_TEST

/* Each line as the kernel prints it, each event's fields as its
 * TP_printk; and per CPU each switch starts from the task the previous
 * one switched to, a preempted reader unlocks only after it was preempted,
 * and the boosts the policy made show up. */
/* The same in 400 ms, the hog from 200 ms: a line-by-line check costs. */
#define OOM_SHORT "[scenario]\ncpus=2\nduration=400ms\n[rcu]\nmemory_limit=off\n" \
        "[task:updater]\nsched=fifo:20\naffinity=1\nprogram=loop { compute exp(20us); call_rcu 4KiB; sleep exp(200us) }\n" \
        "[task:reader]\nsched=normal:19\naffinity=0\nprogram=loop { rcu_read_lock; compute exp(300us); rcu_read_unlock; sleep exp(50us) }\n" \
        "[task:hog]\nsched=fifo:10\naffinity=0\nstart=200ms\nprogram=compute 3s\n"

START_TEST(ftrace_text_has_the_kernel_format)
{
        g_autofree char *text = trace_as(OOM_SHORT, "booster", true);
        g_auto(GStrv) lines = NULL;
        g_autoptr(GRegex) line_re = g_regex_new("^ *(\\S+)-(\\d+) +\\[(\\d{3})\\] \\.{5} +(\\d+)\\.(\\d{9}): (\\w+): (.*)$",
                                                G_REGEX_OPTIMIZE, 0, NULL);
        static const char *const fields[][2] = {
                { "sched_switch", "^prev_comm=(\\S+) prev_pid=(\\d+) prev_prio=\\d+ prev_state=(R\\+?|S|D|X) ==> "
                                  "next_comm=(\\S+) next_pid=(\\d+) next_prio=\\d+$" },
                { "sched_wakeup", "^comm=\\S+ pid=\\d+ prio=\\d+ target_cpu=\\d{3}$" },
                { "sched_pi_setprio", "^comm=\\S+ pid=\\d+ oldprio=\\d+ newprio=\\d+$" },
                { "rcu_grace_period", "^rcu_preempt \\d+ (start|waitack|waitzero|waitmb|end)$" },
                { "rcu_preempt_task", "^rcu_preempt \\d+ (\\d+)$" },
                { "rcu_unlock_preempted_task", "^rcu_preempt \\d+ (\\d+)$" },
                { "rcuboost_boost", "^comm=\\S+ pid=\\d+ event=\\w+ oldprio=\\d+ newprio=\\d+$" },
                /* the real-kernel module's own event, so that both traces read alike (#57) */
                { "rcuboost_read_section", "^(enter|exit)$" },
                /* each call_rcu(): rhp a sequence number, no function, the callbacks waiting (#61) */
                { "rcu_callback", "^rcu_preempt rhp=0x[0-9a-f]+ func=0x0 \\d+$" },
        };
        GRegex *field_re[G_N_ELEMENTS(fields)];
        g_autoptr(GHashTable) preempted = g_hash_table_new(g_direct_hash, g_direct_equal);
        char running[2][64] = { "swapper/0-0", "swapper/1-0" };
        int count[G_N_ELEMENTS(fields)] = { 0 };
        int64_t last_ns = 0;

        for (size_t k = 0; k < G_N_ELEMENTS(fields); k++)
                field_re[k] = g_regex_new(fields[k][1], G_REGEX_OPTIMIZE, 0, NULL);
        lines = g_strsplit(text, "\n", -1);
        ck_assert_str_eq(lines[0], "# tracer: nop");
        for (int i = 0; lines[i] && lines[i][0]; i++) {
                g_autoptr(GMatchInfo) m = NULL;
                g_autofree char *event = NULL, *rest = NULL, *sec = NULL, *nsec = NULL, *cpu_s = NULL;
                size_t k;
                int64_t ns;
                int cpu;

                if (lines[i][0] == '#')
                        continue;
                ck_assert_msg(g_regex_match(line_re, lines[i], 0, &m), "line %d: %s", i + 1, lines[i]);
                g_autofree char *comm = g_match_info_fetch(m, 1), *pid_s = g_match_info_fetch(m, 2);
                g_autofree char *who = g_strdup_printf("%s-%s", comm, pid_s);
                cpu_s = g_match_info_fetch(m, 3);
                sec = g_match_info_fetch(m, 4);
                nsec = g_match_info_fetch(m, 5);
                event = g_match_info_fetch(m, 6);
                rest = g_match_info_fetch(m, 7);
                cpu = atoi(cpu_s);
                ck_assert_int_lt(cpu, 2);
                ns = g_ascii_strtoll(sec, NULL, 10) * 1000000000 + g_ascii_strtoll(nsec, NULL, 10);
                ck_assert_msg(ns >= last_ns, "line %d goes back in time", i + 1);
                last_ns = ns;
                for (k = 0; k < G_N_ELEMENTS(fields) && strcmp(event, fields[k][0]); k++)
                        ;
                ck_assert_msg(k < G_N_ELEMENTS(fields), "line %d: unknown event %s", i + 1, event);

                g_autoptr(GMatchInfo) f = NULL;

                ck_assert_msg(g_regex_match(field_re[k], rest, 0, &f), "line %d: %s fields: %s", i + 1, event, rest);
                count[k]++;
                /* Every line is in the context of the task running on its
                 * CPU at that instant (ftrace shows swapper as <idle>-0). */
                ck_assert_msg(!strcmp(who, g_str_has_prefix(running[cpu], "swapper/") ? "<idle>-0" : running[cpu]),
                              "line %d: %s on cpu %d while %s runs there: %s", i + 1, who, cpu, running[cpu],
                              lines[i]);
                if (!strcmp(event, "sched_switch")) {
                        g_autofree char *pc = g_match_info_fetch(f, 1), *pp = g_match_info_fetch(f, 2);
                        g_autofree char *nc = g_match_info_fetch(f, 4), *np = g_match_info_fetch(f, 5);
                        g_autofree char *prev = g_strdup_printf("%s-%s", pc, pp);

                        ck_assert_msg(!strcmp(prev, running[cpu]), "line %d: cpu %d switches from %s, ran %s",
                                      i + 1, cpu, prev, running[cpu]);
                        g_snprintf(running[cpu], sizeof(running[cpu]), "%s-%s", nc, np);
                } else if (!strcmp(event, "rcu_preempt_task")) {
                        g_autofree char *pid = g_match_info_fetch(f, 1);

                        g_hash_table_add(preempted, GINT_TO_POINTER(atoi(pid)));
                } else if (!strcmp(event, "rcu_unlock_preempted_task")) {
                        g_autofree char *pid = g_match_info_fetch(f, 1);

                        ck_assert_msg(g_hash_table_remove(preempted, GINT_TO_POINTER(atoi(pid))),
                                      "line %d: pid %s was not preempted", i + 1, pid);
                }
        }
        ck_assert_int_gt(count[0], 100);        /* switches */
        ck_assert_int_gt(count[1], 100);        /* wakeups */
        ck_assert_int_gt(count[2], 0);          /* boosting is a priority change */
        ck_assert_int_gt(count[3], 10);         /* grace periods */
        ck_assert_int_gt(count[4], 0);          /* the hog preempts the reader */
        ck_assert_int_gt(count[5], 0);
        ck_assert_int_gt(count[6], 0);          /* and the booster boosts it */
        ck_assert_int_gt(count[7], 10);         /* the reader's sections */
        ck_assert_int_gt(count[8], 10);         /* the updater's callbacks */
        for (size_t k = 0; k < G_N_ELEMENTS(fields); k++)
                g_regex_unref(field_re[k]);
}
END_TEST

static Suite *trace_suite(void)
{
        Suite *s = suite_create("trace");
        TCase *tc = tcase_create("chrome-json");

        tcase_add_test(tc, trace_is_chrome_trace_json);
        tcase_add_test(tc, run_intervals_on_a_cpu_do_not_overlap);
        tcase_add_test(tc, ftrace_text_has_the_kernel_format);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return run_suite(trace_suite());
}
