/* What a user quotes: every output file is well formed, says how it was
 * made, and never shows a number that is not there (issue #11). */
#include <json-glib/json-glib.h>

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

                /* The name of the policy, not its counters. */
                ck_assert_str_eq(json_object_get_string_member(root, "policy"), "booster");
                ck_assert(JSON_NODE_HOLDS_OBJECT(json_object_get_member(root, "policy_stats")));
        }
        g_object_unref(parse_json_file(trace));

        r = run_cli("compare", "scenarios/quiet.scn", "--policies", "none,pi-lock", "--set",
                    "scenario.duration=300ms", "--out", cmp, "-q", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        for (const char *const *pol = (const char *const[]){ "none", "pi-lock", NULL }; *pol; pol++) {
                g_autofree char *path = g_build_filename(cmp, *pol, "summary.json", NULL);
                g_autoptr(JsonParser) p = parse_json_file(path);

                ck_assert_str_eq(json_object_get_string_member(json_root(p), "policy"), *pol);
        }

        r = run_cli("bench", "--quick", "--repeat", "1", "--out", bench, NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        result_clear(&r);
        g_object_unref(parse_json_file(bench_json));
}
END_TEST

static Suite *outputs_suite(void)
{
        Suite *s = suite_create("outputs");
        TCase *json = tcase_create("json");

        tcase_add_test(json, json_outputs_have_each_key_once);
        tcase_set_timeout(json, 120);
        suite_add_tcase(s, json);
        return s;
}

int main(void)
{
        return run_cli_suite(outputs_suite());
}
