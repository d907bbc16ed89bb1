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

#endif
