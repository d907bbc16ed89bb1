/* output.h - result files that appear whole or not at all.
 *
 * Each output is written under a hidden temporary name in its final
 * directory and renamed over the final name only when complete, so a reader
 * (or a resumed sweep) never mistakes a half-written file for a result.
 */
#ifndef RCUBOOST_OUTPUT_H
#define RCUBOOST_OUTPUT_H

#include <glib.h>
#include <stdio.h>

struct outfile;

/* Create DIR (and parents) if needed and open a temporary file for DIR/NAME. */
struct outfile *outfile_open(const char *dir, const char *name, GError **error);
FILE *outfile_stream(struct outfile *o);
/* Flush, check for write errors, rename into place; frees @o either way. */
gboolean outfile_commit(struct outfile *o, GError **error);
/* Remove the temporary file; frees @o.  Accepts NULL. */
void outfile_abort(struct outfile *o);

/* The output directory contract (docs/outputs.md): every directory
 * rcuboost makes carries DIR/.rcuboost-manifest, the files and
 * directories rcuboost wrote there, each listed before it is created.
 * Only listed files are ever removed, and a directory that holds anything
 * else is refused untouched.  A directory holds one @kind of output (a
 * command's: "run", "compare", "sweep", "compare-policy"); a directory of
 * another kind is refused too. */

/* Make @dir (and its parents) as output directories: each one made gets a
 * manifest and is listed in its parent's, if the parent has one.  An
 * existing directory is left as it is. */
gboolean output_dir_make(const char *dir, GError **error);
/* May @name (a scenario's or a policy's, @what says which) be a file or
 * directory name under an output directory?  Not empty, "." or "..", no
 * '/', ',', '\\', blank or control character, no leading '.' or '#'
 * (hidden, or a manifest's comment), UTF-8. */
gboolean output_name_check(const char *name, const char *what, GError **error);
/* List @path's file in its directory's manifest (making the directory if
 * needed) before writing it by other means (gnuplot's output). */
gboolean output_register(const char *path, GError **error);
/* output_register(), then g_file_set_contents(). */
gboolean output_set_contents(const char *path, const char *contents, gssize len, GError **error);
/* May @path be written?  A directory or a symbolic link to anything but a
 * device or FIFO cannot; @in_place says a device or FIFO is there. */
gboolean output_path_check(const char *path, gboolean *in_place, GError **error);

/* Make @dir ready for a new set of outputs, so that it never mixes two
 * runs.  A missing @dir is fine (outfile_open() makes it).  The files
 * its manifest lists, and hidden temporaries of them or of @ours (glob
 * patterns, ".NAME.tmp-XXXXXX", left by a killed run), are removed;
 * listed directories are kept.  Anything else there: FALSE with @error
 * (G_OPTION_ERROR), nothing touched. */
gboolean output_dir_prepare(const char *dir, const char *kind, const char *const *ours, GError **error);

/* output_dir_prepare() without removing anything: is @dir empty, missing
 * or rcuboost's?  (A sweep resumes with what is there.) */
gboolean output_dir_check(const char *dir, const char *kind, const char *const *ours, GError **error);

/* output_dir_check(), then make @dir an output directory (with a
 * manifest) if it is not one: for a directory written by several
 * processes (a sweep's --only jobs) or before its lock is taken. */
gboolean output_dir_adopt(const char *dir, const char *kind, const char *const *ours, GError **error);

/* Remove @dir, an output directory of an earlier run, with what its
 * manifest lists; refused (FALSE, nothing touched) if it holds anything
 * else. */
gboolean output_dir_remove(const char *dir, const char *kind, const char *const *ours, GError **error);

/* Hold @dir (made if needed) for one run: a second run into it while this
 * one lives is refused, so two runs never mix their files.  An flock() on
 * DIR/.rcuboost.lock, released by output_dir_unlock() or when the process
 * ends.  Returns the lock (>= 0), or -1 with @error. */
int output_dir_lock(const char *dir, GError **error);
void output_dir_unlock(int lock);
/* Hold @dir open, checked to be where @locks[i] (output_dir_lock()'s, of
 * @dir/@lock_dirs[i]) are, and return a path that names the directory
 * held, not whatever @dir names later ("/proc/self/fd/N"; @dir itself
 * without /proc): a run that writes below it keeps writing where it
 * locked, if a parent of @dir is swapped for a symbolic link meanwhile
 * (#49).  @held: the descriptor, to close() at the end. */
char *output_dir_hold(const char *dir, const int *locks, const char *const *lock_dirs, int nlocks, int *held,
                      GError **error);
/* All of it for a run: refuse a foreign @dir untouched, lock it, then
 * output_dir_prepare() it.  Returns the lock, or -1 with @error. */
int output_dir_claim(const char *dir, const char *kind, const char *const *ours, GError **error);

#endif
