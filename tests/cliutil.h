/* cliutil.h - helpers for the suites that drive the rcuboost binary. */
#ifndef RCUBOOST_CLIUTIL_H
#define RCUBOOST_CLIUTIL_H

#include <glib/gstdio.h>
#include <sys/wait.h>

#include "testutil.h"

struct result {
        int status;
        char *out;
        char *err;
};

static G_GNUC_UNUSED char **cli_env;  /* NULL: inherit */

static inline struct result run_cli(const char *first, ...)
{
        GPtrArray *argv = g_ptr_array_new();
        struct result r = { 0 };
        GError *e = NULL;
        int wait_status;
        va_list ap;

        g_ptr_array_add(argv, (char *)g_getenv("RCUBOOST_BIN"));
        va_start(ap, first);
        for (const char *a = first; a; a = va_arg(ap, const char *))
                g_ptr_array_add(argv, (char *)a);
        va_end(ap);
        g_ptr_array_add(argv, NULL);
        ck_assert_msg(g_spawn_sync(g_getenv("RCUBOOST_SRCDIR"), (char **)argv->pdata, cli_env, 0, NULL,
                                   NULL, &r.out, &r.err, &wait_status, &e), "%s", e ? e->message : "");
        ck_assert(WIFEXITED(wait_status));
        r.status = WEXITSTATUS(wait_status);
        g_ptr_array_free(argv, TRUE);
        return r;
}

/* @script run by /bin/sh in the source directory. */
static inline struct result run_cli_sh(const char *script)
{
        char *argv[] = { "/bin/sh", "-c", (char *)script, NULL };
        struct result r = { 0 };
        GError *e = NULL;
        int wait_status;

        ck_assert_msg(g_spawn_sync(g_getenv("RCUBOOST_SRCDIR"), argv, cli_env, 0, NULL, NULL, &r.out, &r.err,
                                   &wait_status, &e), "%s", e ? e->message : "");
        ck_assert(WIFEXITED(wait_status));
        r.status = WEXITSTATUS(wait_status);
        return r;
}

static inline void result_clear(struct result *r)
{
        g_free(r->out);
        g_free(r->err);
}

/* Scratch space for the whole suite, made and removed by main(). */
static G_GNUC_UNUSED char *scratch;

/* A fresh directory under the scratch directory. */
static inline char *temp_dir(void)
{
        char *d = g_build_filename(scratch, "XXXXXX", NULL);

        ck_assert_ptr_nonnull(g_mkdtemp(d));
        return d;
}

static inline char *write_temp_scenario(const char *dir, const char *name, const char *text)
{
        char *path = g_build_filename(dir, name, NULL);

        ck_assert(g_file_set_contents(path, text, -1, NULL));
        return path;
}

static inline char *file_contents(const char *dir, const char *name)
{
        g_autofree char *path = g_build_filename(dir, name, NULL);
        char *s = NULL;

        ck_assert_msg(g_file_get_contents(path, &s, NULL, NULL), "cannot read %s", path);
        return s;
}

static inline gboolean exists(const char *dir, const char *name)
{
        g_autofree char *path = g_build_filename(dir, name, NULL);

        return g_file_test(path, G_FILE_TEST_IS_REGULAR);
}

/* Run @s with a scratch directory made and removed around it. */
static inline int run_cli_suite(Suite *s)
{
        int status;
        g_autofree char *cmd = NULL;

        scratch = g_dir_make_tmp("rcuboost-test-XXXXXX", NULL);
        if (!scratch)
                return 1;
        cmd = g_strdup_printf("rm -rf '%s'", scratch);
        status = run_suite(s);
        g_spawn_command_line_sync(cmd, NULL, NULL, NULL, NULL);
        return status;
}

#endif
