/* output.c - result files that appear whole or not at all; see output.h. */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

struct outfile {
        char *final_path;
        char *tmp_path;         /* NULL: written in place (a device, FIFO or symlink) */
        FILE *f;
};

/* An existing @path that is not a regular file (/dev/null, a FIFO, a
 * symlink) is written in place, as a stream: renaming over it would turn a
 * device into a file, or replace the link instead of writing where it points. */
static struct outfile *open_in_place(const char *path, GError **error)
{
        struct outfile *o;
        int fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0644);
        int e = errno;

        if (fd < 0) {
                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "cannot write %s: %s%s", path,
                            g_strerror(e), e == ENXIO ? " (a FIFO with nobody reading it)" : "");
                return NULL;
        }
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        o = g_new0(struct outfile, 1);
        o->final_path = g_strdup(path);
        o->f = fdopen(fd, "w");
        return o;
}

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
        {
                g_autofree char *path = g_build_filename(dir, name, NULL);
                GStatBuf st;

                if (g_lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
                        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_ISDIR, "cannot write %s: it is a directory",
                                    path);
                        return NULL;
                }
                if (g_lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
                        return open_in_place(path, error);
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
        if (ok && o->tmp_path && g_rename(o->tmp_path, o->final_path) != 0) {
                ok = FALSE;
                e = errno;
        }
        if (!ok) {
                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
                            "cannot write %s: %s", o->final_path, g_strerror(e));
                if (o->tmp_path)
                        g_unlink(o->tmp_path);
        }
        outfile_free(o);
        return ok;
}

static gboolean is_ours(const char *name, gboolean is_dir, const char *const *ours)
{
        for (const char *const *p = ours; *p; p++) {
                size_t n = strlen(*p);
                gboolean dir_pattern = n && (*p)[n - 1] == '/';
                g_autofree char *pat = g_strndup(*p, dir_pattern ? n - 1 : n);

                if (dir_pattern == is_dir && g_pattern_match_simple(pat, name))
                        return TRUE;
        }
        return FALSE;
}

/* ".summary.json.tmp-Ab12Cd" -> "summary.json", or NULL. */
static char *temporary_of(const char *name)
{
        const char *tmp = g_strrstr(name, ".tmp");

        if (name[0] != '.' || !tmp || tmp <= name + 1)       /* ".tmp" alone, or at the start: not ours */
                return NULL;
        return g_strndup(name + 1, (gsize)(tmp - name - 1));
}

static gboolean scan_dir(const char *dir, const char *const *ours, gboolean clean, GError **error);

gboolean output_dir_prepare(const char *dir, const char *const *ours, GError **error)
{
        return scan_dir(dir, ours, TRUE, error);
}

int output_dir_claim(const char *dir, const char *const *ours, GError **error)
{
        int lock;

        /* Refuse somebody else's directory before making anything in it;
         * lock before removing anything, so as not to pull another run's
         * temporaries from under it. */
        if (!scan_dir(dir, ours, FALSE, error) || (lock = output_dir_lock(dir, error)) < 0)
                return -1;
        if (!scan_dir(dir, ours, TRUE, error)) {
                output_dir_unlock(lock);
                return -1;
        }
        return lock;
}

static gboolean scan_dir(const char *dir, const char *const *ours, gboolean clean, GError **error)
{
        g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
        g_autoptr(GPtrArray) doomed = g_ptr_array_new_with_free_func(g_free);
        g_autofree char *foreign = NULL;
        gboolean any_ours = FALSE;
        const char *name;

        if (!d)
                return TRUE;    /* missing (or unreadable: outfile_open() will say) */
        while ((name = g_dir_read_name(d))) {
                if (!strcmp(name, ".rcuboost.lock"))
                        continue;       /* held by the run preparing the directory: kept */
                g_autofree char *path = g_build_filename(dir, name, NULL);
                g_autofree char *of = temporary_of(name);
                gboolean is_dir = g_file_test(path, G_FILE_TEST_IS_DIR);
                GStatBuf st;

                if (is_ours(name, is_dir, ours) || (of && !is_dir && is_ours(of, FALSE, ours))) {
                        any_ours = TRUE;
                        /* only regular files: a symlink or FIFO there is the user's */
                        if (g_lstat(path, &st) == 0 && S_ISREG(st.st_mode))
                                g_ptr_array_add(doomed, g_steal_pointer(&path));
                } else if (!foreign) {
                        foreign = g_strdup(name);
                }
        }
        if (foreign && !any_ours) {
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "%s is not empty and holds no rcuboost outputs (it has '%s'): give another "
                            "--out, or empty it", dir, foreign);
                return FALSE;
        }
        for (guint i = 0; clean && i < doomed->len; i++)
                g_unlink(doomed->pdata[i]);
        return TRUE;
}

#define LOCK_NAME ".rcuboost.lock"

int output_dir_lock(const char *dir, GError **error)
{
        g_autofree char *path = g_build_filename(dir, LOCK_NAME, NULL);
        int fd, e;

        if (g_mkdir_with_parents(dir, 0755) != 0) {
                e = errno;
                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
                            "cannot create output directory %s: %s", dir, g_strerror(e));
                return -1;
        }
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) {
                e = errno;
                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "cannot write %s: %s", path,
                            g_strerror(e));
                return -1;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
                e = errno;
                close(fd);
                if (e == EWOULDBLOCK) {
                        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                                    "%s is in use by another rcuboost run (give each run its own --out)", dir);
                } else {
                        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "cannot lock %s: %s",
                                    path, g_strerror(e));
                }
                return -1;
        }
        return fd;
}

void output_dir_unlock(int lock)
{
        if (lock >= 0)
                close(lock);
}

void outfile_abort(struct outfile *o)
{
        if (!o)
                return;
        fclose(o->f);
        if (o->tmp_path)
                g_unlink(o->tmp_path);
        outfile_free(o);
}
