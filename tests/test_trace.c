/* The Chrome trace-event JSON of `run --trace`: it parses, line by line and
 * whole, and holds the tracks Perfetto shows. */
#include <json-glib/json-glib.h>

#include "testutil.h"

static char *trace_of(const char *text, const char *policy)
{
        g_autofree char *dir = g_dir_make_tmp("rcuboost-trace-XXXXXX", NULL);
        char *path = g_build_filename(dir, "trace.json", NULL);
        GError *e = NULL;
        struct scenario *sc = scenario_load_data(text, "trace.scn", NULL, &e);
        struct sim *sim;

        ck_assert_ptr_nonnull(sc);
        sim = sim_new(sc, &(struct sim_options){ .policy = policy, .trace = path }, &e);
        ck_assert_msg(sim != NULL, "%s", e ? e->message : "");
        sim_run(sim);
        ck_assert(sim_finish(sim, NULL));
        sim_free(sim);
        scenario_free(sc);
        return path;
}

#define OOM "[scenario]\ncpus=2\nduration=1500ms\n[rcu]\nmemory_limit=off\n" \
        "[task:updater]\nsched=fifo:20\naffinity=1\nprogram=loop { compute exp(20us); call_rcu 4KiB; sleep exp(200us) }\n" \
        "[task:reader]\nsched=normal:19\naffinity=0\nprogram=loop { rcu_read_lock; compute exp(300us); rcu_read_unlock; sleep exp(50us) }\n" \
        "[task:hog]\nsched=fifo:10\naffinity=0\nstart=1s\nprogram=compute 3s\n"

START_TEST(trace_is_chrome_trace_json)
{
        g_autofree char *path = trace_of(OOM, "booster");
        g_autofree char *text = NULL;
        g_auto(GStrv) lines = NULL;
        g_autoptr(JsonParser) parser = json_parser_new();
        GError *e = NULL;
        JsonArray *events;
        int x = 0, boosted = 0, counters = 0, gp = 0, names = 0;
        double last_end[2] = { 0, 0 };

        ck_assert(g_file_get_contents(path, &text, NULL, NULL));
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
        g_autofree char *path = trace_of(OOM, "none");
        g_autoptr(JsonParser) parser = json_parser_new();
        JsonArray *events;
        GArray *spans[2] = { g_array_new(FALSE, FALSE, sizeof(double) * 2), g_array_new(FALSE, FALSE, sizeof(double) * 2) };

        ck_assert(json_parser_load_from_file(parser, path, NULL));
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

static Suite *trace_suite(void)
{
        Suite *s = suite_create("trace");
        TCase *tc = tcase_create("chrome-json");

        tcase_add_test(tc, trace_is_chrome_trace_json);
        tcase_add_test(tc, run_intervals_on_a_cpu_do_not_overlap);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return run_suite(trace_suite());
}
