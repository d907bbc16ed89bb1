/* output.c - result files that appear whole or not at all; see output.h. */
#include "output.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

struct outfile {
        char *final_path;
        char *tmp_path;
        FILE *f;
};

struct outfile *outfile_open(const char *dir, const char *name, GError **error)
{
        struct outfile *o;
        int fd;

        if (g_mkdir_with_parents(dir, 0755) != 0) {
                int e = errno;

                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
                            "cannot create output directory %s: %s", dir, g_strerror(e));
                return NULL;
        }
        o = g_new0(struct outfile, 1);
        o->final_path = g_build_filename(dir, name, NULL);
        o->tmp_path = g_strdup_printf("%s/.%s.tmp-XXXXXX", dir, name);
        fd = g_mkstemp(o->tmp_path);
        if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
                int e = errno;

                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
                            "cannot write %s: %s", o->final_path, g_strerror(e));
                if (fd >= 0) {
                        close(fd);
                        g_unlink(o->tmp_path);
                }
                g_free(o->final_path);
                g_free(o->tmp_path);
                g_free(o);
                return NULL;
        }
        /* mkstemp makes 0600 files; results are ordinary files. */
        fchmod(fd, 0644);
        return o;
}

FILE *outfile_stream(struct outfile *o)
{
        return o->f;
}

static void outfile_free(struct outfile *o)
{
        g_free(o->final_path);
        g_free(o->tmp_path);
        g_free(o);
}

gboolean outfile_commit(struct outfile *o, GError **error)
{
        gboolean ok = fflush(o->f) == 0 && !ferror(o->f);
        int e = errno;

        if (fclose(o->f) != 0 && ok) {
                ok = FALSE;
                e = errno;
        }
        if (ok && g_rename(o->tmp_path, o->final_path) != 0) {
                ok = FALSE;
                e = errno;
        }
        if (!ok) {
                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
                            "cannot write %s: %s", o->final_path, g_strerror(e));
                g_unlink(o->tmp_path);
        }
        outfile_free(o);
        return ok;
}

void outfile_abort(struct outfile *o)
{
        if (!o)
                return;
        fclose(o->f);
        g_unlink(o->tmp_path);
        outfile_free(o);
}
