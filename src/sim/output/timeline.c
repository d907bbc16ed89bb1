/* timeline.c - intervals in a window of the run; see timeline.h. */
#include "timeline.h"

#include <json-glib/json-glib.h>
#include <glib.h>

#include "tracedat.h"
#include <stdarg.h>
#include <string.h>

/* An interval being recorded; labels are static strings or task names,
 * which live as long as the simulation. */
struct open_interval {
        int64_t since;          /* -1: none open */
        const char *label;
};

struct timeline {
        FILE *f;
        enum timeline_format format;
        bool first_event;               /* JSON: no comma before it */
        GHashTable *named;              /* JSON: tracks already given a name */
        GHashTable *quoted;             /* JSON: a name -> its JSON string, as json-glib writes it */
        struct timeline *next;
        int64_t start, end;
        int ncpus;
        struct open_interval *cpu;      /* [ncpus] */
        struct open_interval gp;
        GArray *tasks[3];               /* per kind ("cs", "blocked", "boosted"), by task id */
        struct tracedat *td;            /* TIMELINE_TRACEDAT */
};

static const char *const task_kinds[] = { "cs", "blocked", "boosted" };

static int kind_index(const char *kind)
{
        for (int i = 0; i < 3; i++)
                if (!strcmp(kind, task_kinds[i]))
                        return i;
        g_return_val_if_reached(0);
}

/* Chrome trace processes: what a track belongs to. */
enum { PID_CPUS = 1, PID_GP = 2, PID_READERS = 3, PID_BOOSTS = 4 };

static void json_event(struct timeline *tl, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void json_event(struct timeline *tl, const char *fmt, ...)
{
        va_list ap;

        fputs(tl->first_event ? "\n" : ",\n", tl->f);
        tl->first_event = false;
        va_start(ap, fmt);
        vfprintf(tl->f, fmt, ap);
        va_end(ap);
}

/* @s as a JSON string ("..."), escaped by json-glib.  The trace streams
 * (hundreds of MB: no JsonGenerator over it all), and its strings are a few
 * names repeated on every event: each is encoded once. */
static const char *quoted(struct timeline *tl, const char *s)
{
        const char *q = g_hash_table_lookup(tl->quoted, s);

        if (!q) {
                g_autofree char *valid = g_utf8_make_valid(s, -1);
                g_autoptr(JsonNode) node = json_node_init_string(json_node_alloc(), valid);
                char *text = json_to_string(node, FALSE);

                g_hash_table_insert(tl->quoted, g_strdup(s), text);
                q = text;
        }
        return q;
}

static void json_name_track(struct timeline *tl, int pid, int tid, const char *name)
{
        gpointer key = GINT_TO_POINTER(pid << 24 | tid);

        if (g_hash_table_contains(tl->named, key))
                return;
        g_hash_table_add(tl->named, key);
        json_event(tl, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
                   "\"args\":{\"name\":%s}}", pid, tid, quoted(tl, name));
}

struct timeline *timeline_new(FILE *f, enum timeline_format format, int64_t start_ns, int64_t length_ns,
                              int ncpus)
{
        struct timeline *tl = g_new0(struct timeline, 1);
        static const char *const processes[] = { NULL, "CPUs", "RCU", "readers: critical sections",
                                                 "readers: boosts" };

        tl->f = f;
        tl->format = format;
        tl->first_event = true;
        tl->named = g_hash_table_new(g_direct_hash, g_direct_equal);
        tl->quoted = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
        tl->start = start_ns;
        tl->end = start_ns + length_ns;
        tl->ncpus = ncpus;
        tl->cpu = g_new0(struct open_interval, ncpus);
        for (int c = 0; c < ncpus; c++)
                tl->cpu[c].since = -1;
        tl->gp.since = -1;
        for (int i = 0; i < 3; i++)
                tl->tasks[i] = g_array_new(FALSE, FALSE, sizeof(struct open_interval));
        if (f && format == TIMELINE_CSV) {
                fputs("kind,lane,start_ns,end_ns,label\n", f);
        } else if (f && format == TIMELINE_TRACEDAT) {
                tl->td = tracedat_new(ncpus);
        } else if (f && format == TIMELINE_FTRACE) {
                fprintf(f, "# tracer: nop\n#\n# rcuboost: simulated, %d CPUs; timestamps in seconds (ns resolution)\n#\n"
                        "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
                        "#              | |         |   |||||     |         |\n", ncpus);
        } else if (f) {
                fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", f);
                for (int p = PID_CPUS; p <= PID_BOOSTS; p++)
                        json_event(tl, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":0,"
                                   "\"args\":{\"name\":%s}}", p, quoted(tl, processes[p]));
        }
        return tl;
}

void timeline_chain(struct timeline *tl, struct timeline *next)
{
        tl->next = next;
}

bool timeline_recording(const struct timeline *tl)
{
        return tl && (tl->f || timeline_recording(tl->next));
}

void timeline_free(struct timeline *tl)
{
        if (!tl)
                return;
        timeline_free(tl->next);
        tracedat_free(tl->td);
        g_hash_table_destroy(tl->named);
        g_hash_table_destroy(tl->quoted);
        g_free(tl->cpu);
        for (int i = 0; i < 3; i++)
                g_array_free(tl->tasks[i], TRUE);
        g_free(tl);
}

static void emit_json(struct timeline *tl, const char *kind, const char *lane, int lane_id,
                      const char *label, int64_t from, int64_t to)
{
        int pid, tid;
        const char *name;

        switch (kind[0]) {
        case 'r':       /* run */
                pid = PID_CPUS, tid = lane_id, name = label;
                break;
        case 'g':       /* gp */
                pid = PID_GP, tid = 0, name = label;
                break;
        case 'b':       /* blocked, boosted */
                if (kind[1] == 'o') {   /* boosted, not blocked */
                        pid = PID_BOOSTS, tid = lane_id, name = "boosted";
                } else {
                        pid = PID_READERS, tid = lane_id, name = "off CPU in critical section";
                }
                break;
        default:        /* cs */
                pid = PID_READERS, tid = lane_id, name = "read-side critical section";
                break;
        }
        json_name_track(tl, pid, tid, pid == PID_GP ? "grace-period machine" : lane);
        json_event(tl, "{\"name\":%s,\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,"
                   "\"pid\":%d,\"tid\":%d}", quoted(tl, name ? name : ""), kind, (double)from / 1e3,
                   (double)(to - from) / 1e3, pid, tid);
}

/* Close @iv at @now, writing the part of it inside the window.  A NULL
 * @lane is CPU @lane_id's, named only when written: this runs on every
 * context switch, mostly outside the window. */
static void emit(struct timeline *tl, struct open_interval *iv, int64_t now, const char *kind,
                 const char *lane, int lane_id)
{
        int64_t from = MAX(iv->since, tl->start), to = MIN(now, tl->end);
        char cpu_lane[32];

        if (iv->since >= 0 && to > from && tl->format != TIMELINE_FTRACE && tl->format != TIMELINE_TRACEDAT) {
                if (!lane) {
                        g_snprintf(cpu_lane, sizeof(cpu_lane), "cpu%d", lane_id);
                        lane = cpu_lane;
                }
                if (tl->format == TIMELINE_CSV)
                        fprintf(tl->f, "%s,%s,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%s\n", kind, lane,
                                (gint64)from, (gint64)to, iv->label ? iv->label : "");
                else
                        emit_json(tl, kind, lane, lane_id, iv->label, from, to);
        }
        iv->since = -1;
}

void timeline_cpu(struct timeline *tl, int64_t now, int cpu, const char *task)
{
        struct open_interval *iv;

        if (tl->next)
                timeline_cpu(tl->next, now, cpu, task);
        if (!tl->f)
                return;
        iv = &tl->cpu[cpu];
        emit(tl, iv, now, "run", NULL, cpu);
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
        if (tl->next)
                timeline_begin(tl->next, now, kind, id, task);
        if (tl->f)
                *task_interval(tl, kind, id) = (struct open_interval){ now, task };
}

void timeline_end(struct timeline *tl, int64_t now, const char *kind, int id)
{
        struct open_interval *iv;

        if (tl->next)
                timeline_end(tl->next, now, kind, id);
        if (!tl->f)
                return;
        iv = task_interval(tl, kind, id);
        emit(tl, iv, now, kind, iv->label, id);
}

void timeline_gp(struct timeline *tl, int64_t now, const char *phase)
{
        if (tl->next)
                timeline_gp(tl->next, now, phase);
        if (!tl->f)
                return;
        emit(tl, &tl->gp, now, "gp", "gp", 0);
        tl->gp = (struct open_interval){ now, phase };
}

void timeline_prio(struct timeline *tl, int64_t now, int cpu, const char *task, int old_prio, int new_prio)
{
        for (; tl; tl = tl->next) {
                if (!tl->f || tl->format != TIMELINE_CSV || now < tl->start || now >= tl->end)
                        continue;
                fprintf(tl->f, "prio,cpu%d,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%s %d->%d\n", cpu,
                        (gint64)now, (gint64)now, task, old_prio, new_prio);
        }
}

void timeline_counter(struct timeline *tl, int64_t now, const char *name, int64_t value)
{
        if (tl->next)
                timeline_counter(tl->next, now, name, value);
        if (!tl->f || tl->format != TIMELINE_CHROME_JSON || now < tl->start || now > tl->end)
                return;
        json_event(tl, "{\"name\":\"%s\",\"ph\":\"C\",\"ts\":%.3f,\"pid\":%d,\"args\":{\"bytes\":%"
                   G_GINT64_FORMAT "}}", name, (double)now / 1e3, PID_GP, (gint64)value);
}

void timeline_tracepoint(struct timeline *tl, int64_t now, int cpu, const char *comm, int pid,
                         const char *event, const char *fields)
{
        for (; tl; tl = tl->next) {
                if (!tl->f || (tl->format != TIMELINE_FTRACE && tl->format != TIMELINE_TRACEDAT) ||
                    now < tl->start || now >= tl->end)
                        continue;
                if (tl->td) {
                        tracedat_event(tl->td, now, cpu, comm, pid, event, fields);
                        continue;
                }
                /* As the kernel's trace file: comm right-aligned to 16,
                 * then -pid, the CPU, the irq/preempt flags (none here) and
                 * seconds, with nanoseconds as `trace-cmd report -t`. */
                fprintf(tl->f, "%16s-%-7d [%03d] ..... %5" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT ": %s: %s\n",
                        comm, pid, cpu, (gint64)(now / 1000000000), (gint64)(now % 1000000000), event,
                        fields);
        }
}

void timeline_flush(struct timeline *tl, int64_t now)
{
        if (tl->next)
                timeline_flush(tl->next, now);
        if (!tl->f)
                return;
        for (int c = 0; c < tl->ncpus; c++) {
                char lane[32];

                g_snprintf(lane, sizeof(lane), "cpu%d", c);
                emit(tl, &tl->cpu[c], now, "run", lane, c);
        }
        emit(tl, &tl->gp, now, "gp", "gp", 0);
        for (int k = 0; k < 3; k++) {
                for (guint i = 0; i < tl->tasks[k]->len; i++) {
                        struct open_interval *iv = task_interval(tl, task_kinds[k], (int)i);

                        emit(tl, iv, now, task_kinds[k], iv->label, (int)i);
                }
        }
        if (tl->format == TIMELINE_CHROME_JSON)
                fputs("\n]}\n", tl->f);
        if (tl->td)
                tracedat_write(tl->td, tl->f, NULL);    /* a failed write shows in the stream's error state */
        tl->f = NULL;   /* finished: nothing more is written */
}
