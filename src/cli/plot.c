/* plot.c - the gnuplot driver of compare, sweep and bench: a template
 * embedded in the binary is written where the plot goes (to edit and rerun
 * by hand), run with its variables as gnuplot literals, and its image
 * written through a temporary, so that no half-drawn plot is ever left. */
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "plot.h"
#include "cli.h"
#include "sim/output/output.h"

char *plot_literal(const char *s)
{
        GString *out = g_string_new("\"");

        for (const char *p = s; *p; p++) {
                if (*p == '"' || *p == '\\')
                        g_string_append_c(out, '\\');
                if (*p == '\n')
                        g_string_append(out, "\\n");
                else
                        g_string_append_c(out, *p);
        }
        g_string_append_c(out, '"');
        return g_string_free(out, FALSE);
}

void plot_var(GString *vars, const char *name, const char *value)
{
        g_autofree char *lit = plot_literal(value);

        g_string_append_printf(vars, "%s=%s; ", name, lit);
}

gboolean plot_gnuplot(const char *name, const char *script, const char *vars, GError **error)
{
        g_autoptr(GBytes) tpl = cli_plot_template(name);
        g_autofree char *err = NULL;
        const char *argv[] = { "gnuplot", "-e", vars, script, NULL };
        GError *why = NULL;
        int status;

        if (!tpl) {
                g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "no plot template %s", name);
                return FALSE;
        }
        if (!output_set_contents(script, g_bytes_get_data(tpl, NULL), (gssize)g_bytes_get_size(tpl), error))
                return FALSE;
        if (!g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL, NULL,
                          NULL, NULL, &err, &status, error))
                return FALSE;
        if (!g_spawn_check_wait_status(status, &why)) {
                /* gnuplot's own words, or how it ended (killed by a signal says nothing) */
                g_strstrip(err);
                g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED, "gnuplot failed on %s: %s", name,
                            err && *err ? err : why->message);
                g_error_free(why);
                return FALSE;
        }
        return TRUE;
}

const char *plot_terminal(const char *format, int height)
{
        static char buf[128];

        if (!strcmp(format, "svg"))
                g_snprintf(buf, sizeof(buf), "svg size 1100,%d dynamic font \"Sans,11\"", height);
        else if (!strcmp(format, "pdf"))
                g_snprintf(buf, sizeof(buf), "pdfcairo size 11in,%.2fin font \"Sans,10\"", height / 100.0);
        else
                g_snprintf(buf, sizeof(buf), "pngcairo size 1100,%d font \"Sans,10\"", height);
        return buf;
}

gboolean plot_draw(struct plotter *pl, const char *name, const char *script, const char *final, GString *vars,
                   int height)
{
        g_autofree char *scriptdir = g_path_get_dirname(script);
        g_autofree char *dir = g_path_get_dirname(final);
        g_autofree char *base = g_path_get_basename(final);
        g_autofree char *tmp = g_strdup_printf("%s/.%s.tmp", dir, base);
        GError *e = NULL;

        /* a signal stops the plotting too (gnuplot, in our process group, had it as well) */
        if (cli_interrupt_status()) {
                pl->skipped++;
                return FALSE;
        }
        if (pl->progress)
                fprintf(stderr, "\r\033[Kplotting %s (%d drawn)", base, pl->drawn);

        /* the image is listed (as its own, and so its temporary) before gnuplot writes it */
        if (!output_dir_make(scriptdir, &e) || !output_register(final, &e)) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                pl->failed++;
                return FALSE;
        }
        plot_var(vars, "datadir", pl->dir);
        plot_var(vars, "scenario", pl->scenario);
        plot_var(vars, "term", plot_terminal(pl->format, height));
        plot_var(vars, "outfile", tmp);
        if (!plot_gnuplot(name, script, vars->str, &e)) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                g_unlink(tmp);
                pl->failed++;
                return FALSE;
        }
        if (g_rename(tmp, final) != 0) {
                fprintf(stderr, "rcuboost: cannot write %s\n", final);
                g_unlink(tmp);
                pl->failed++;
                return FALSE;
        }
        pl->drawn++;
        return TRUE;
}
