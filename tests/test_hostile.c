/* Hostile scenarios (every .scn in tests/hostile/): each says in its header what
 * rcuboost must do with it, and is run under every policy it names:
 *
 *     # expect-status: 2
 *     # expect-stderr: deadlock: reader, ...     (a substring; repeatable)
 *     # expect-summary: "complete" : false       (a substring of summary.json)
 *     # policies: none booster
 */
#include "cliutil.h"

struct expectations {
        int status;
        GPtrArray *stderr_has;
        GPtrArray *summary_has;
        GStrv policies;
};

static void read_header(const char *text, struct expectations *x)
{
        g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

        x->status = -1;
        x->stderr_has = g_ptr_array_new_with_free_func(g_free);
        x->summary_has = g_ptr_array_new_with_free_func(g_free);
        for (char **l = lines; *l; l++) {
                const char *s = g_str_has_prefix(*l, "\xEF\xBB\xBF") ? *l + 3 : *l;

                if (g_str_has_prefix(s, "# expect-status: "))
                        x->status = atoi(s + strlen("# expect-status: "));
                else if (g_str_has_prefix(s, "# expect-stderr: "))
                        g_ptr_array_add(x->stderr_has, g_strdup(s + strlen("# expect-stderr: ")));
                else if (g_str_has_prefix(s, "# expect-summary: "))
                        g_ptr_array_add(x->summary_has, g_strdup(s + strlen("# expect-summary: ")));
                else if (g_str_has_prefix(s, "# policies: "))
                        x->policies = g_strsplit(s + strlen("# policies: "), " ", -1);
        }
}

START_TEST(hostile_scenarios_behave_as_their_headers_say)
{
        g_autofree char *hostile = g_build_filename(g_getenv("RCUBOOST_SRCDIR"), "tests", "hostile", NULL);
        g_autoptr(GDir) d = g_dir_open(hostile, 0, NULL);
        const char *name;
        int cases = 0;

        ck_assert_ptr_nonnull(d);
        while ((name = g_dir_read_name(d))) {
                g_autofree char *path = g_build_filename(hostile, name, NULL);
                g_autofree char *rel = g_build_filename("tests", "hostile", name, NULL);
                g_autofree char *text = NULL;
                struct expectations x = { 0 };

                if (!g_str_has_suffix(name, ".scn"))
                        continue;
                ck_assert(g_file_get_contents(path, &text, NULL, NULL));
                read_header(text, &x);
                ck_assert_msg(x.status >= 0 && x.policies, "%s: no expect-status or policies line", name);
                for (char **p = x.policies; *p; p++) {
                        g_autofree char *out = temp_dir();
                        struct result r = run_cli("run", rel, "--policy", *p, "--out", out, NULL);

                        ck_assert_msg(r.status == x.status, "%s under %s: exit %d, not %d: %s", name, *p, r.status,
                                      x.status, r.err);
                        for (guint i = 0; i < x.stderr_has->len; i++)
                                ck_assert_msg(strstr(r.err, x.stderr_has->pdata[i]) != NULL, "%s under %s: stderr "
                                              "lacks '%s': %s", name, *p, (char *)x.stderr_has->pdata[i], r.err);
                        if (x.summary_has->len) {
                                g_autofree char *summary = file_contents(out, "summary.json");

                                for (guint i = 0; i < x.summary_has->len; i++)
                                        ck_assert_msg(strstr(summary, x.summary_has->pdata[i]) != NULL,
                                                      "%s under %s: summary.json lacks '%s'", name, *p,
                                                      (char *)x.summary_has->pdata[i]);
                        }
                        result_clear(&r);
                        cases++;
                }
                g_ptr_array_unref(x.stderr_has);
                g_ptr_array_unref(x.summary_has);
                g_strfreev(x.policies);
        }
        ck_assert_int_ge(cases, 10);
}
END_TEST

static Suite *hostile_suite(void)
{
        Suite *s = suite_create("hostile");
        TCase *tc = tcase_create("scenarios");

        tcase_add_test(tc, hostile_scenarios_behave_as_their_headers_say);
        tcase_set_timeout(tc, 300);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return run_cli_suite(hostile_suite());
}
