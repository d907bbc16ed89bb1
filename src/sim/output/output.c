/* output.c - result files that appear whole or not at all; see output.h. */
#define _GNU_SOURCE     /* O_TMPFILE */
#include "output.h"

#include <signal.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

struct outfile {
        char *final_path;
        char *dir, *name;       /* NULL: written in place (a device or FIFO) */
        char *tmp_path;         /* a named temporary, where O_TMPFILE is not supported */
        int fd;                 /* the O_TMPFILE file, to link into place; else -1 */
        FILE *f;
};

static void outfile_free(struct outfile *o);

/* ---- the manifest: what rcuboost wrote in a directory ----
 *
 * DIR/.rcuboost-manifest lists, one per line, the files ("NAME") and
 * directories ("NAME/") rcuboost made in DIR; a directory rcuboost made
 * has one from the start.  A name is listed before its file is created,
 * so a run killed at any moment leaves nothing unlisted.  Only listed
 * files are ever removed, and a directory holding anything unlisted is
 * refused untouched.  Edits are whole-file replacements (tmp + rename,
 * by g_file_set_contents()), serialised within the process; across
 * processes the directory's lock (output_dir_lock()) keeps one writer. */
#define MANIFEST_NAME ".rcuboost-manifest"
#define MANIFEST_HEAD "# rcuboost: the files (NAME) and directories (NAME/) rcuboost wrote here\n"
#define LOCK_NAME ".rcuboost.lock"
/* which command's outputs a directory holds: one kind per directory */
#define KIND_PREFIX "#kind="

static gboolean scan_dir(const char *dir, const char *kind, const char *const *ours, gboolean clean,
                         GError **error);

/* The names a manifest's @text lists. */
static GHashTable *manifest_parse(const char *text)
{
        GHashTable *names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

        /* "#kind=K" is listed as it is: no output name starts with '#' */
        for (char **l = lines; *l; l++)
                if (**l && (**l != '#' || g_str_has_prefix(*l, KIND_PREFIX)))
                        g_hash_table_add(names, g_strdup(*l));
        return names;
}

/* The names DIR's manifest lists, or NULL if it has none. */
static GHashTable *manifest_read(const char *dir)
{
        g_autofree char *path = g_build_filename(dir, MANIFEST_NAME, NULL);
        g_autofree char *text = NULL;

        if (!g_file_get_contents(path, &text, NULL, NULL))
                return NULL;
        return manifest_parse(text);
}

static gint by_name(gconstpointer a, gconstpointer b)
{
        return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Edit DIR's manifest under an flock() of it (threads and processes --
 * a sweep's --only jobs -- edit one manifest side by side): add @add,
 * drop @drop, or with @files_gone drop every file and keep the
 * directories.  Without a manifest nothing happens, unless @create. */
static gboolean manifest_edit(const char *dir, const char *add, const char *drop, gboolean files_gone,
                              gboolean create, GError **error)
{
        g_autofree char *path = g_build_filename(dir, MANIFEST_NAME, NULL);
        g_autoptr(GString) text = g_string_new(NULL);
        g_autoptr(GHashTable) names = NULL;
        g_autofree gpointer *keys = NULL;
        char buf[4096];
        ssize_t n;
        guint count;
        int fd = open(path, O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0644);
        int e;

        if (fd < 0 && errno == ENOENT && !create)
                return TRUE;
        if (fd < 0 || flock(fd, LOCK_EX) != 0)
                goto fail;
        while ((n = read(fd, buf, sizeof(buf))) > 0)
                g_string_append_len(text, buf, n);
        if (n < 0)
                goto fail;
        names = manifest_parse(text->str);
        if (add && g_hash_table_contains(names, add) && text->len)
                goto done;      /* listed already: nothing to write */
        if (add)
                g_hash_table_add(names, g_strdup(add));
        if (drop)
                g_hash_table_remove(names, drop);
        if (files_gone) {
                GHashTableIter it;
                gpointer key;

                g_hash_table_iter_init(&it, names);
                while (g_hash_table_iter_next(&it, &key, NULL))
                        if (!g_str_has_suffix(key, "/") && !g_str_has_prefix(key, KIND_PREFIX))
                                g_hash_table_iter_remove(&it);
        }
        keys = g_hash_table_get_keys_as_array(names, &count);
        qsort(keys, count, sizeof(*keys), by_name);
        g_string_assign(text, MANIFEST_HEAD);
        for (guint i = 0; i < count; i++)
                g_string_append_printf(text, "%s\n", (const char *)keys[i]);
        /* in place (a rename would leave the other waiters locking a stale file) */
        if (pwrite(fd, text->str, text->len, 0) != (ssize_t)text->len || ftruncate(fd, (off_t)text->len) != 0)
                goto fail;
done:
        close(fd);
        return TRUE;
fail:
        e = errno;
        if (fd >= 0)
                close(fd);
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "cannot write %s: %s", path, g_strerror(e));
        return FALSE;
}

/* List @name in @dir's manifest, if @dir has one (a directory of the
 * user's, as a --trace elsewhere writes into, gets none). */
static gboolean manifest_add(const char *dir, const char *name, GError **error)
{
        return manifest_edit(dir, name, NULL, FALSE, FALSE, error);
}

static void manifest_remove(const char *dir, const char *name)
{
        manifest_edit(dir, NULL, name, FALSE, FALSE, NULL);
}

gboolean output_dir_adopt(const char *dir, const char *kind, const char *const *ours, GError **error)
{
        g_autofree char *kind_line = g_strconcat(KIND_PREFIX, kind, NULL);

        return scan_dir(dir, kind, ours, FALSE, error) && output_dir_make(dir, error) &&
               manifest_edit(dir, kind_line, NULL, FALSE, TRUE, error);
}

gboolean output_dir_make(const char *dir, GError **error)
{
        g_autofree char *parent = g_path_get_dirname(dir);
        g_autofree char *base = g_path_get_basename(dir);
        int e;

        if (g_file_test(dir, G_FILE_TEST_IS_DIR))
                return TRUE;
        g_autofree char *as_dir = g_strconcat(base, "/", NULL);

        if (strcmp(parent, dir) != 0 && !output_dir_make(parent, error))
                return FALSE;
        /* listed in the parent before it exists, as a file is: another
         * process scanning the parent meanwhile (a sweep's --only jobs)
         * never sees it unlisted */
        if (!manifest_add(parent, as_dir, error))
                return FALSE;
        if (g_mkdir(dir, 0755) != 0 && !(errno == EEXIST && g_file_test(dir, G_FILE_TEST_IS_DIR))) {
                e = errno;
                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
                            "cannot create output directory %s: %s", dir, g_strerror(e));
                return FALSE;
        }
        return manifest_edit(dir, NULL, NULL, FALSE, TRUE, error);
}

gboolean output_name_check(const char *name, const char *what, GError **error)
{
        const char *why = NULL;

        if (!*name)
                why = "it is empty";
        else if (!strcmp(name, ".") || !strcmp(name, ".."))
                why = "it names a directory itself";
        else if (name[0] == '.' || name[0] == '#')
                why = "it starts with '.' or '#'";
        else if (!g_utf8_validate(name, -1, NULL))
                why = "it is not UTF-8";
        for (const char *c = name; !why && *c; c++) {
                if (*c == '/' || *c == ',' || *c == '\\')
                        why = "it has a '/', ',' or '\\'";
                else if (g_ascii_isspace(*c) || g_ascii_iscntrl(*c))
                        why = "it has a blank or a control character";
        }
        if (why) {
                g_autofree char *shown = g_strescape(name, NULL);

                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "%s '%s' cannot name an output directory: %s", what, shown, why);
                return FALSE;
        }
        return TRUE;
}

gboolean output_register(const char *path, GError **error)
{
        g_autofree char *dir = g_path_get_dirname(path);
        g_autofree char *base = g_path_get_basename(path);

        return output_dir_make(dir, error) && manifest_add(dir, base, error);
}

gboolean output_set_contents(const char *path, const char *contents, gssize len, GError **error)
{
        return output_register(path, error) && g_file_set_contents(path, contents, len, error);
}

/* An existing @path that is a device, FIFO or socket (/dev/null, a pipe,
 * /dev/stdout's target) is written in place, as a stream: renaming over
 * it would turn a device into a file. */
static struct outfile *open_in_place(const char *path, GError **error)
{
        struct outfile *o;
        int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        int e = errno;

        if (fd < 0) {
                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "cannot write %s: %s%s", path,
                            g_strerror(e), e == ENXIO ? " (a FIFO with nobody reading it)" : "");
                return NULL;
        }
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        o = g_new0(struct outfile, 1);
        o->final_path = g_strdup(path);
        o->fd = -1;
        o->f = fdopen(fd, "w");
        return o;
}

/* What may be at an output's path before it is written: nothing, a
 * regular file (replaced whole), or a stream (written in place).  A
 * directory is an error, and so is a symbolic link to anything but a
 * stream: writing through it would change a file elsewhere, replacing it
 * would lose the link.  @in_place is set for a stream. */
gboolean output_path_check(const char *path, gboolean *in_place, GError **error)
{
        GStatBuf st, target;

        *in_place = FALSE;
        if (g_lstat(path, &st) != 0)
                return TRUE;
        if (S_ISDIR(st.st_mode)) {
                g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_ISDIR, "cannot write %s: it is a directory", path);
                return FALSE;
        }
        if (S_ISLNK(st.st_mode)) {
                if (g_stat(path, &target) == 0 && (S_ISCHR(target.st_mode) || S_ISFIFO(target.st_mode) ||
                                                   S_ISSOCK(target.st_mode))) {
                        *in_place = TRUE;
                        return TRUE;
                }
                /* a usage error (exit 2): the path given, not the machine, is wrong */
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "cannot write %s: it is a symbolic link, and rcuboost neither writes through a link "
                            "nor replaces one (give the path it points to, or remove it)", path);
                return FALSE;
        }
        *in_place = !S_ISREG(st.st_mode);
        return TRUE;
}

struct outfile *outfile_open(const char *dir, const char *name, GError **error)
{
        g_autofree char *path = g_build_filename(dir, name, NULL);
        struct outfile *o;
        gboolean in_place;
        int fd;

        if (!output_path_check(path, &in_place, error))
                return NULL;
        if (!output_dir_make(dir, error))
                return NULL;
        if (in_place)
                return open_in_place(path, error);
        /* listed before it exists: a run killed from here on leaves nothing unlisted */
        if (!manifest_add(dir, name, error))
                return NULL;
        o = g_new0(struct outfile, 1);
        o->final_path = g_steal_pointer(&path);
        o->dir = g_strdup(dir);
        o->name = g_strdup(name);
        /* An unnamed file while it is written: a run killed meanwhile
         * leaves nothing behind (where the file system cannot, a hidden
         * temporary that the next run into a directory of ours removes). */
        fd = g_file_test("/proc/self/fd", G_FILE_TEST_IS_DIR) ? open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644)
                                                                : -1;
        o->fd = fd;
        if (fd < 0) {
                o->tmp_path = g_strdup_printf("%s/.%s.tmp-XXXXXX", dir, name);
                fd = g_mkstemp(o->tmp_path);
                if (fd >= 0)
                        fchmod(fd, 0644);       /* mkstemp makes 0600 files; results are ordinary files */
        }
        if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
                int e = errno;

                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
                            "cannot write %s: %s", o->final_path, g_strerror(e));
                if (fd >= 0)
                        close(fd);
                if (o->tmp_path && fd >= 0)
                        g_unlink(o->tmp_path);
                outfile_free(o);
                return NULL;
        }
        return o;
}

FILE *outfile_stream(struct outfile *o)
{
        return o->f;
}

static void outfile_free(struct outfile *o)
{
        g_free(o->final_path);
        g_free(o->dir);
        g_free(o->name);
        g_free(o->tmp_path);
        g_free(o);
}

/* Give the unnamed file @o->fd a hidden name in its directory, to rename
 * over the final one (linkat() cannot replace a file). */
static int link_tmpfile(struct outfile *o)
{
        g_autofree char *proc = g_strdup_printf("/proc/self/fd/%d", o->fd);

        for (int tries = 0; tries < 100; tries++) {
                g_free(o->tmp_path);
                o->tmp_path = g_strdup_printf("%s/.%s.tmp-%06x", o->dir, o->name, g_random_int() & 0xffffff);
                if (linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp_path, AT_SYMLINK_FOLLOW) == 0)
                        return 0;
                if (errno != EEXIST)
                        break;
        }
        g_clear_pointer(&o->tmp_path, g_free);
        return -1;
}

gboolean outfile_commit(struct outfile *o, GError **error)
{
        /* Fault injection for tests/test_outputs.c: die as a SIGKILL would,
         * just before this file is published (documented in docs/outputs.md). */
        const char *kill_before = g_getenv("RCUBOOST_TEST_KILL_BEFORE");

        if (kill_before && *kill_before && g_str_has_suffix(o->final_path, kill_before))
                raise(SIGKILL);

        gboolean ok = fflush(o->f) == 0 && !ferror(o->f);
        int e = errno;

        if (ok && o->fd >= 0 && link_tmpfile(o) != 0) {
                ok = FALSE;
                e = errno;
        }
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

/* scripts/kernel-run's default --out, out/NAME/real/, sits in compare's
 * default one, out/NAME/ (docs/kernel-run.md): a directory "real" that holds
 * its kernel-run.tsv is the real kernel's boots, which compare --real reads
 * -- neither an rcuboost output nor a stranger's file. */
static gboolean is_kernel_run_out(const char *dir, const char *name)
{
        g_autofree char *tsv = NULL, *tmp = NULL;

        if (strcmp(name, "real") != 0)
                return FALSE;
        tsv = g_build_filename(dir, name, "kernel-run.tsv", NULL);
        tmp = g_build_filename(dir, name, "kernel-run.tsv.tmp", NULL);
        return g_file_test(tsv, G_FILE_TEST_IS_REGULAR) || g_file_test(tmp, G_FILE_TEST_IS_REGULAR);
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


gboolean output_dir_prepare(const char *dir, const char *kind, const char *const *ours, GError **error)
{
        return scan_dir(dir, kind, ours, TRUE, error);
}

gboolean output_dir_check(const char *dir, const char *kind, const char *const *ours, GError **error)
{
        return scan_dir(dir, kind, ours, FALSE, error);
}

int output_dir_claim(const char *dir, const char *kind, const char *const *ours, GError **error)
{
        int lock;

        /* Refuse somebody else's directory before making anything in it;
         * lock before removing anything, so as not to pull another run's
         * temporaries from under it. */
        if (!scan_dir(dir, kind, ours, FALSE, error) || (lock = output_dir_lock(dir, error)) < 0)
                return -1;
        if (!scan_dir(dir, kind, ours, TRUE, error)) {
                output_dir_unlock(lock);
                return -1;
        }
        return lock;
}

/* `run`'s default directory, out/SCENARIO/POLICY/, is also compare's
 * directory of that policy: the one takes it over from the other (their
 * files are rcuboost's, listed; compare's runs are in seed-S/, which a run
 * leaves). */
static gboolean kinds_share(const char *a, const char *b)
{
        return (!strcmp(a, "run") && !strcmp(b, "compare-policy")) ||
               (!strcmp(a, "compare-policy") && !strcmp(b, "run"));
}

/* Is @name, in a directory whose manifest is @listed, a file rcuboost
 * wrote (or a hidden temporary of one, left by a killed run)? */
static gboolean listed_file(const char *name, GHashTable *listed, const char *const *ours)
{
        g_autofree char *of = temporary_of(name);

        if (g_hash_table_contains(listed, name))
                return TRUE;
        if (g_str_has_prefix(name, MANIFEST_NAME "."))
                return TRUE;    /* g_file_set_contents()'s temporary of the manifest */
        return of && (g_hash_table_contains(listed, of) || is_ours(of, FALSE, ours));
}

static gboolean scan_dir(const char *dir, const char *kind, const char *const *ours, gboolean clean,
                         GError **error)
{
        g_autofree char *kind_line = g_strconcat(KIND_PREFIX, kind, NULL);
        g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
        g_autoptr(GPtrArray) doomed = g_ptr_array_new_with_free_func(g_free);
        g_autoptr(GHashTable) listed = NULL;
        g_autofree char *foreign = NULL, *old_kind = NULL;
        gboolean has_manifest, looks_ours = TRUE;
        const char *name;

        if (!d)
                return TRUE;    /* missing (or unreadable: outfile_open() will say) */
        listed = manifest_read(dir);
        has_manifest = listed != NULL;
        if (!listed)
                listed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        while ((name = g_dir_read_name(d))) {
                g_autofree char *path = g_build_filename(dir, name, NULL);
                g_autofree char *as_dir = g_strconcat(name, "/", NULL);
                GStatBuf st;

                if (!strcmp(name, LOCK_NAME) || !strcmp(name, MANIFEST_NAME))
                        continue;
                if (g_lstat(path, &st) != 0)
                        continue;       /* gone meanwhile */
                if (S_ISDIR(st.st_mode) && is_kernel_run_out(dir, name))
                        continue;       /* a neighbour's: read, never removed */
                if (S_ISDIR(st.st_mode) && g_hash_table_contains(listed, as_dir))
                        continue;       /* ours: its own manifest says what is in it */
                if (S_ISREG(st.st_mode) && listed_file(name, listed, ours)) {
                        g_ptr_array_add(doomed, g_steal_pointer(&path));
                        continue;
                }
                if (!foreign)
                        foreign = g_strdup(name);
                if (!is_ours(name, S_ISDIR(st.st_mode), ours))
                        looks_ours = FALSE;
        }
        if (has_manifest && !g_hash_table_contains(listed, kind_line)) {
                GHashTableIter it;
                gpointer key;

                g_hash_table_iter_init(&it, listed);
                while (g_hash_table_iter_next(&it, &key, NULL)) {
                        const char *other = (const char *)key + strlen(KIND_PREFIX);

                        if (!g_str_has_prefix(key, KIND_PREFIX))
                                continue;
                        if (kinds_share(kind, other)) {
                                old_kind = g_strdup(key);
                                continue;
                        }
                        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                                    "%s holds the outputs of rcuboost %s, not of %s: give each its own --out", dir,
                                    other, kind);
                        return FALSE;
                }
        }
        if (foreign) {
                if (has_manifest)
                        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                                    "%s holds '%s', which rcuboost did not write there: move it away, or give "
                                    "another --out (rcuboost removes only what %s/" MANIFEST_NAME " lists)",
                                    dir, foreign, dir);
                else if (looks_ours)
                        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                                    "%s has no " MANIFEST_NAME " (it has '%s'): it looks like the outputs of an "
                                    "earlier rcuboost, which listed nothing, but rcuboost removes only what it "
                                    "listed: remove it yourself, or give another --out", dir, foreign);
                else
                        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                                    "%s is not empty and holds no rcuboost outputs (it has '%s'): give another "
                                    "--out, or empty it (rcuboost writes only into an empty directory or one "
                                    "it lists in its " MANIFEST_NAME ")", dir, foreign);
                return FALSE;
        }
        if (!clean)
                return TRUE;
        for (guint i = 0; i < doomed->len; i++)
                g_unlink(doomed->pdata[i]);
        /* what is gone is no longer listed (directories stay); an empty
         * directory, claimed, gets its manifest and kind here */
        return manifest_edit(dir, kind_line, old_kind, TRUE, TRUE, error);
}

gboolean output_dir_remove(const char *dir, const char *kind, const char *const *ours, GError **error)
{
        g_autofree char *parent = g_path_get_dirname(dir);
        g_autofree char *base = g_path_get_basename(dir);
        g_autofree char *as_dir = g_strconcat(base, "/", NULL);
        g_autofree char *lockfile = g_build_filename(dir, LOCK_NAME, NULL);
        g_autofree char *manifest = g_build_filename(dir, MANIFEST_NAME, NULL);
        int lock = output_dir_claim(dir, kind, ours, error);

        if (lock < 0)
                return FALSE;
        g_unlink(manifest);
        g_unlink(lockfile);
        output_dir_unlock(lock);
        if (g_rmdir(dir) != 0) {
                int e = errno;

                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "cannot remove %s: %s", dir,
                            g_strerror(e));
                return FALSE;
        }
        manifest_remove(parent, as_dir);
        return TRUE;
}

int output_dir_lock(const char *dir, GError **error)
{
        g_autofree char *path = g_build_filename(dir, LOCK_NAME, NULL);
        int fd, e;

        if (!output_dir_make(dir, error))
                return -1;
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

char *output_dir_hold(const char *dir, const int *locks, const char *const *lock_dirs, int nlocks, int *held,
                      GError **error)
{
        int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
        int e = errno;

        *held = -1;
        if (fd < 0) {
                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "cannot open %s: %s", dir, g_strerror(e));
                return NULL;
        }
        /* the directory opened is the one the locks are in: nothing was
         * swapped between the claim and here */
        for (int i = 0; i < nlocks; i++) {
                g_autofree char *rel = g_build_filename(lock_dirs[i], LOCK_NAME, NULL);
                struct stat locked, there;

                if (fstat(locks[i], &locked) != 0 || fstatat(fd, rel, &there, AT_SYMLINK_NOFOLLOW) != 0 ||
                    locked.st_dev != there.st_dev || locked.st_ino != there.st_ino) {
                        close(fd);
                        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s was replaced while it was being "
                                    "claimed: not written", dir);
                        return NULL;
                }
        }
        *held = fd;
        if (!g_file_test("/proc/self/fd", G_FILE_TEST_IS_DIR))
                return g_strdup(dir);   /* no /proc: by the name, as everywhere else */
        return g_strdup_printf("/proc/self/fd/%d", fd);
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
        fclose(o->f);           /* an unnamed file goes with its last descriptor */
        if (o->tmp_path)
                g_unlink(o->tmp_path);
        outfile_free(o);
}
