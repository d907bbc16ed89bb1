/* plot.h - the gnuplot driver of compare, sweep and bench (plot.c). */
#ifndef RCUBOOST_PLOT_H
#define RCUBOOST_PLOT_H

#include <glib.h>
#include <stdbool.h>

/* Where a command's plots go, and how many it drew. */
struct plotter {
        const char *dir;        /* the command's output directory: the templates' datadir */
        const char *format;     /* png, svg or pdf */
        const char *scenario;   /* for titles */
        bool progress;          /* say each plot on the terminal as it is drawn */
        int drawn, failed, skipped;
};

/* @s as a gnuplot string literal ("..." with \\ and \" escaped): a path,
 * title or --vary value can never be read as gnuplot code. */
char *plot_literal(const char *s);
/* Append "NAME=LITERAL; " to @vars. */
void plot_var(GString *vars, const char *name, const char *value);
/* Write the embedded template @name to @script and run gnuplot on it with
 * the variable assignments @vars; FALSE with @error (gnuplot's own message)
 * if it fails.  The caller checks gnuplot exists. */
gboolean plot_gnuplot(const char *name, const char *script, const char *vars, GError **error);
/* gnuplot's terminal for @format, 1100 wide and @height high. */
const char *plot_terminal(const char *format, int height);
/* Draw template @name (written to @script) into @final through a temporary,
 * setting datadir, scenario, term and outfile beside @vars; counted in @pl,
 * an error said on stderr.  A signal received skips it. */
gboolean plot_draw(struct plotter *pl, const char *name, const char *script, const char *final, GString *vars,
                   int height);

#endif
