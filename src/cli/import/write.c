/* write.c - the imported workload as a scenario file's text.
 *
 * An ordinary scenario: [scenario], the keys the kernel threads gave, then a
 * [task:NAME] per thread, each figure with a comment saying where it came
 * from.  import.c checks that it loads before it is written.
 */
#include "import.h"
#include "../../sim/scenario/units.h"

static void comment_lines(GString *s, const GPtrArray *notes)
{
        for (guint i = 0; i < notes->len; i++)
                g_string_append_printf(s, "# %s\n", (const char *)notes->pdata[i]);
}

static void task_text(GString *s, const struct itask *t)
{
        g_string_append_printf(s, "\n[task:%s]\n", t->name);
        if (t->pid >= 0 && g_strcmp0(t->name, t->comm) != 0)
                g_string_append_printf(s, "# thread %s, pid %d\n", t->comm, t->pid);
        else if (t->pid >= 0)
                g_string_append_printf(s, "# pid %d\n", t->pid);
        if (t->sched_note)
                g_string_append_printf(s, "# %s\n", t->sched_note);
        g_string_append_printf(s, "sched=%s\n", t->sched);
        if (t->count > 1)
                g_string_append_printf(s, "count=%d\n", t->count);
        if (t->affinity) {
                if (t->affinity_note)
                        g_string_append_printf(s, "# %s\n", t->affinity_note);
                g_string_append_printf(s, "affinity=%s\n", t->affinity);
        }
        if (t->start_ns > 0) {
                g_autofree char *start = units_format_duration(t->start_ns);

                g_string_append_printf(s, "# %s\nstart=%s\n", t->start_in ? "the section it was woken from began"
                                                                          : "its first wake-up", start);
        }
        if (t->start_in)
                g_string_append_printf(s, "start_in=%s\n", t->start_in->name);
        if (t->period_ns > 0) {
                g_autofree char *period = units_format_duration(t->period_ns);

                g_string_append_printf(s, "period=%s\n", period);
        }
        comment_lines(s, t->notes);
        if (t->cpu_ns > 0) {
                g_autofree char *cpu = units_format_duration(t->cpu_ns);

                g_string_append_printf(s, "# recorded: %s of CPU time, %" G_GINT64_FORMAT " wake-up%s\n", cpu,
                                       t->wakeups, t->wakeups == 1 ? "" : "s");
        }
        g_string_append_printf(s, "program=%s\n", t->program);
}

char *import_scenario_text(const struct import *im)
{
        GString *s = g_string_new(NULL);
        g_autofree char *duration = units_format_duration(im->duration_ns);
        g_autofree char *base = g_path_get_basename(im->source);

        g_string_append_printf(s, "# Imported by `rcuboost import` from %s (%s).\n", base, im->format);
        comment_lines(s, im->notes);
        g_string_append_printf(s, "\n[scenario]\ndescription=imported from %s\n# the CPUs %s had\ncpus=%d\n", base,
                               im->format, im->ncpus);
        g_string_append_printf(s, "# %s\nduration=%s\n",
                               g_str_equal(im->format, "rt-app") ? "rt-app's global.duration"
                                                                 : "from the first event to the last",
                               duration);
        if (im->imported_from)
                g_string_append_printf(s, "# the scenario whose real run was recorded: compare --real takes its "
                                       "runs\nimported_from=%s\n", im->imported_from);
        for (guint i = 0; i < im->sections->len; i++)
                g_string_append_printf(s, "\n%s", (const char *)im->sections->pdata[i]);
        for (guint i = 0; i < im->mutexes->len; i++)
                g_string_append_printf(s, "\n[mutex:%s]\n", (const char *)im->mutexes->pdata[i]);
        for (guint i = 0; i < im->tasks->len; i++)
                task_text(s, im->tasks->pdata[i]);
        return g_string_free(s, FALSE);
}
