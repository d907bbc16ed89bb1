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

/* Make @dir ready for a new set of outputs, so that it never mixes two
 * runs.  @ours lists what a run writes there (glob patterns; a trailing
 * '/' names a directory).  A missing @dir is fine (outfile_open() makes
 * it).  If @dir holds any of @ours, or hidden temporaries of them (".NAME.tmp-XXXXXX",
 * left by a killed run), it is an earlier output: those files are removed
 * (directories are kept).  If it holds other things and none of @ours, it is
 * somebody else's: FALSE with @error (G_OPTION_ERROR), nothing touched. */
gboolean output_dir_prepare(const char *dir, const char *const *ours, GError **error);

/* Hold @dir (made if needed) for one run: a second run into it while this
 * one lives is refused, so two runs never mix their files.  An flock() on
 * DIR/.rcuboost.lock, released by output_dir_unlock() or when the process
 * ends.  Returns the lock (>= 0), or -1 with @error. */
int output_dir_lock(const char *dir, GError **error);
void output_dir_unlock(int lock);
/* All of it for a run: refuse a foreign @dir untouched, lock it, then
 * output_dir_prepare() it.  Returns the lock, or -1 with @error. */
int output_dir_claim(const char *dir, const char *const *ours, GError **error);

#endif
