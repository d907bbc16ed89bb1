/* timeline.c - intervals in a window of the run; see timeline.h. */
#include "timeline.h"

#include <glib.h>
#include <string.h>

/* An interval being recorded; labels are static strings or task names,
 * which live as long as the simulation. */
struct open_interval {
        int64_t since;          /* -1: none open */
        const char *label;
};

struct timeline {
        FILE *f;
        int64_t start, end;
        int ncpus;
        struct open_interval *cpu;      /* [ncpus] */
        struct open_interval gp;
        GArray *tasks[3];               /* per kind ("cs", "blocked", "boosted"), by task id */
};

static const char *const task_kinds[] = { "cs", "blocked", "boosted" };

static int kind_index(const char *kind)
{
        for (int i = 0; i < 3; i++)
                if (!strcmp(kind, task_kinds[i]))
                        return i;
        g_return_val_if_reached(0);
}

struct timeline *timeline_new(FILE *f, int64_t start_ns, int64_t length_ns, int ncpus)
{
        struct timeline *tl = g_new0(struct timeline, 1);

        tl->f = f;
        tl->start = start_ns;
        tl->end = start_ns + length_ns;
        tl->ncpus = ncpus;
        tl->cpu = g_new0(struct open_interval, ncpus);
        for (int c = 0; c < ncpus; c++)
                tl->cpu[c].since = -1;
        tl->gp.since = -1;
        for (int i = 0; i < 3; i++)
                tl->tasks[i] = g_array_new(FALSE, FALSE, sizeof(struct open_interval));
        if (f)
                fputs("kind,lane,start_ns,end_ns,label\n", f);
        return tl;
}

void timeline_free(struct timeline *tl)
{
        if (!tl)
                return;
        g_free(tl->cpu);
        for (int i = 0; i < 3; i++)
                g_array_free(tl->tasks[i], TRUE);
        g_free(tl);
}

/* Close @iv at @now, writing the part of it inside the window. */
static void emit(struct timeline *tl, struct open_interval *iv, int64_t now, const char *kind,
                 const char *lane)
{
        int64_t from = MAX(iv->since, tl->start), to = MIN(now, tl->end);

        if (iv->since >= 0 && to > from)
                fprintf(tl->f, "%s,%s,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%s\n", kind, lane,
                        (gint64)from, (gint64)to, iv->label ? iv->label : "");
        iv->since = -1;
}

void timeline_cpu(struct timeline *tl, int64_t now, int cpu, const char *task)
{
        char lane[32];

        if (!tl->f)
                return;
        g_snprintf(lane, sizeof(lane), "cpu%d", cpu);
        emit(tl, &tl->cpu[cpu], now, "run", lane);
        if (task)
                tl->cpu[cpu] = (struct open_interval){ now, task };
}

static struct open_interval *task_interval(struct timeline *tl, const char *kind, int id)
{
        GArray *a = tl->tasks[kind_index(kind)];

        while ((int)a->len <= id) {
                struct open_interval none = { -1, NULL };

                g_array_append_val(a, none);
        }
        return &g_array_index(a, struct open_interval, id);
}

void timeline_begin(struct timeline *tl, int64_t now, const char *kind, int id, const char *task)
{
        if (tl->f)
                *task_interval(tl, kind, id) = (struct open_interval){ now, task };
}

void timeline_end(struct timeline *tl, int64_t now, const char *kind, int id)
{
        struct open_interval *iv;

        if (!tl->f)
                return;
        iv = task_interval(tl, kind, id);
        emit(tl, iv, now, kind, iv->label);
}

void timeline_gp(struct timeline *tl, int64_t now, const char *phase)
{
        if (!tl->f)
                return;
        emit(tl, &tl->gp, now, "gp", "gp");
        tl->gp = (struct open_interval){ now, phase };
}

void timeline_flush(struct timeline *tl, int64_t now)
{
        if (!tl->f)
                return;
        for (int c = 0; c < tl->ncpus; c++)
                timeline_cpu(tl, now, c, NULL);
        timeline_gp(tl, now, NULL);
        tl->gp.since = -1;
        for (int k = 0; k < 3; k++)
                for (guint i = 0; i < tl->tasks[k]->len; i++)
                        timeline_end(tl, now, task_kinds[k], (int)i);
}
