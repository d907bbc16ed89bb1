/* tracedat.c - trace-cmd's trace.dat, version 6; see tracedat.h. */
#include "tracedat.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#define PAGE_SIZE 4096
#define PAGE_HEADER 16                  /* u64 timestamp, local_t commit */
#define PAGE_DATA (PAGE_SIZE - PAGE_HEADER)
#define TYPE_TIME_EXTEND 30
#define MAX_DELTA ((1u << 27) - 1)
#define MAX_SMALL_DATA (28 * 4)         /* type_len 1..28: the data is type_len words */
#define COMM_LEN 16                     /* TASK_COMM_LEN */

/* What the kernel exports as events/header_page and events/header_event. */
static const char header_page[] =
        "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
        "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
        "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
        "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";
static const char header_event[] =
        "# compressed entry header\n"
        "\ttype_len    :    5 bits\n"
        "\ttime_delta  :   27 bits\n"
        "\tarray       :   32 bits\n"
        "\n"
        "\tpadding     : type == 29\n"
        "\ttime_extend : type == 30\n"
        "\ttime_stamp : type == 31\n"
        "\tdata max type_len  == 28\n";

#define COMMON_FIELDS \
        "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
        "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
        "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
        "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* Event IDs in the file (the kernel's are its own; any will do). */
enum {
        EV_SWITCH = 1,
        EV_WAKEUP,
        EV_SETPRIO,
        EV_GRACE_PERIOD,
        EV_PREEMPT_TASK,
        EV_UNLOCK_TASK,
        EV_BOOST,
        EV_READ_SECTION,
        EV_CALLBACK,
};

/* Field layouts as the kernel's include/trace/events/{sched,rcu}.h give
 * them (the rcu names and events as dynamic strings, __data_loc, instead of
 * the kernel's pointers into its own text). */
static const struct event_format {
        const char *system, *name;
        int id;
        const char *fields, *print;
} formats[] = {
        { "sched", "sched_switch", EV_SWITCH,
          "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
          "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
          "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
          "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
          "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
          "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
          "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n",
          "\"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d\", "
          "REC->prev_comm, REC->prev_pid, REC->prev_prio, __print_symbolic(REC->prev_state, { 0, \"R\" }, "
          "{ 1, \"S\" }, { 2, \"D\" }, { 16, \"X\" }, { 256, \"R+\" }), REC->next_comm, REC->next_pid, REC->next_prio" },
        { "sched", "sched_wakeup", EV_WAKEUP,
          "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
          "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
          "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
          "\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n",
          "\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->target_cpu" },
        { "sched", "sched_pi_setprio", EV_SETPRIO,
          "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
          "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
          "\tfield:int oldprio;\toffset:28;\tsize:4;\tsigned:1;\n"
          "\tfield:int newprio;\toffset:32;\tsize:4;\tsigned:1;\n",
          "\"comm=%s pid=%d oldprio=%d newprio=%d\", REC->comm, REC->pid, REC->oldprio, REC->newprio" },
        { "rcu", "rcu_grace_period", EV_GRACE_PERIOD,
          "\tfield:__data_loc char[] rcuname;\toffset:8;\tsize:4;\tsigned:0;\n"
          "\tfield:long gp_seq;\toffset:16;\tsize:8;\tsigned:1;\n"
          "\tfield:__data_loc char[] gpevent;\toffset:24;\tsize:4;\tsigned:0;\n",
          "\"%s %ld %s\", __get_str(rcuname), REC->gp_seq, __get_str(gpevent)" },
        { "rcu", "rcu_preempt_task", EV_PREEMPT_TASK,
          "\tfield:__data_loc char[] rcuname;\toffset:8;\tsize:4;\tsigned:0;\n"
          "\tfield:long gp_seq;\toffset:16;\tsize:8;\tsigned:1;\n"
          "\tfield:int pid;\toffset:24;\tsize:4;\tsigned:1;\n",
          "\"%s %ld %d\", __get_str(rcuname), REC->gp_seq, REC->pid" },
        { "rcu", "rcu_unlock_preempted_task", EV_UNLOCK_TASK,
          "\tfield:__data_loc char[] rcuname;\toffset:8;\tsize:4;\tsigned:0;\n"
          "\tfield:long gp_seq;\toffset:16;\tsize:8;\tsigned:1;\n"
          "\tfield:int pid;\toffset:24;\tsize:4;\tsigned:1;\n",
          "\"%s %ld %d\", __get_str(rcuname), REC->gp_seq, REC->pid" },
        { "rcuboost", "rcuboost_boost", EV_BOOST,
          "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
          "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
          "\tfield:__data_loc char[] event;\toffset:28;\tsize:4;\tsigned:0;\n"
          "\tfield:int oldprio;\toffset:32;\tsize:4;\tsigned:1;\n"
          "\tfield:int newprio;\toffset:36;\tsize:4;\tsigned:1;\n",
          "\"comm=%s pid=%d event=%s oldprio=%d newprio=%d\", REC->comm, REC->pid, __get_str(event), "
          "REC->oldprio, REC->newprio" },
        /* the kernel's fields; rhp a sequence number and func none, printed as numbers */
        { "rcu", "rcu_callback", EV_CALLBACK,
          "\tfield:__data_loc char[] rcuname;\toffset:8;\tsize:4;\tsigned:0;\n"
          "\tfield:unsigned long rhp;\toffset:16;\tsize:8;\tsigned:0;\n"
          "\tfield:unsigned long func;\toffset:24;\tsize:8;\tsigned:0;\n"
          "\tfield:long qlen;\toffset:32;\tsize:8;\tsigned:1;\n",
          "\"%s rhp=0x%lx func=0x%lx %ld\", __get_str(rcuname), REC->rhp, REC->func, REC->qlen" },
        /* the real-kernel module's (src/kernel/rcuboost_trace.h), field for field */
        { "rcuboost", "rcuboost_read_section", EV_READ_SECTION,
          "\tfield:int enter;\toffset:8;\tsize:4;\tsigned:1;\n",
          "\"%s\", REC->enter ? \"enter\" : \"exit\"" },
};

struct cpu_buffer {
        GByteArray *pages;              /* whole pages */
        gsize page;                     /* offset of the current page, or G_MAXSIZE: none */
        int64_t last;                   /* time of the last event written */
};

struct tracedat {
        int ncpus;
        struct cpu_buffer *cpus;
        GHashTable *comms;              /* pid -> comm, for the cmdlines */
        guint unknown;                  /* events with no format here (skipped) */
};

struct tracedat *tracedat_new(int ncpus)
{
        struct tracedat *td = g_new0(struct tracedat, 1);

        td->ncpus = ncpus;
        td->cpus = g_new0(struct cpu_buffer, ncpus);
        for (int c = 0; c < ncpus; c++) {
                td->cpus[c].pages = g_byte_array_new();
                td->cpus[c].page = G_MAXSIZE;
        }
        td->comms = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
        return td;
}

void tracedat_free(struct tracedat *td)
{
        if (!td)
                return;
        for (int c = 0; c < td->ncpus; c++)
                g_byte_array_unref(td->cpus[c].pages);
        g_free(td->cpus);
        g_hash_table_destroy(td->comms);
        g_free(td);
}

/* ---- a record: the common header, fixed fields, then dynamic strings ---- */

struct record {
        guint8 b[MAX_SMALL_DATA];
        gsize fixed, len;               /* end of the fixed part; of everything */
};

static void put(struct record *r, gsize at, const void *v, gsize n)
{
        memcpy(r->b + at, v, n);
        r->len = MAX(r->len, at + n);
}

static void put_i32(struct record *r, gsize at, int32_t v) { put(r, at, &v, 4); }
static void put_i64(struct record *r, gsize at, int64_t v) { put(r, at, &v, 8); }

static void put_comm(struct record *r, gsize at, const char *s)
{
        char comm[COMM_LEN] = { 0 };

        g_strlcpy(comm, s, sizeof(comm));
        put(r, at, comm, COMM_LEN);
}

/* A __data_loc string: its (length << 16 | offset) at @at, the bytes at the end. */
static bool put_str(struct record *r, gsize at, const char *s)
{
        gsize n = strlen(s) + 1, off = MAX(r->len, r->fixed);

        if (off + n > sizeof(r->b))
                return false;
        put_i32(r, at, (int32_t)(n << 16 | off));
        put(r, off, s, n);
        return true;
}

static long prev_state_of(const char *s)
{
        return !strcmp(s, "S") ? 1 : !strcmp(s, "D") ? 2 : !strcmp(s, "X") ? 16 : !strcmp(s, "R+") ? 256 : 0;
}

/* Fill @r from the ftrace text payload of @f; false if it does not parse. */
static bool encode(const struct event_format *f, const char *fields, struct record *r)
{
        char a[128], b[128], st[8];
        int i1, i2, i3, i4;
        long l;

        switch (f->id) {
        case EV_SWITCH:
                r->fixed = 64;
                if (sscanf(fields, "prev_comm=%127s prev_pid=%d prev_prio=%d prev_state=%7s ==> next_comm=%127s "
                           "next_pid=%d next_prio=%d", a, &i1, &i2, st, b, &i3, &i4) != 7)
                        return false;
                put_comm(r, 8, a);
                put_i32(r, 24, i1);
                put_i32(r, 28, i2);
                put_i64(r, 32, prev_state_of(st));
                put_comm(r, 40, b);
                put_i32(r, 56, i3);
                put_i32(r, 60, i4);
                return true;
        case EV_WAKEUP:
        case EV_SETPRIO:
                r->fixed = 36;
                if (sscanf(fields, f->id == EV_WAKEUP ? "comm=%127s pid=%d prio=%d target_cpu=%d"
                                              : "comm=%127s pid=%d oldprio=%d newprio=%d", a, &i1, &i2, &i3) != 4)
                        return false;
                put_comm(r, 8, a);
                put_i32(r, 24, i1);
                put_i32(r, 28, i2);
                put_i32(r, 32, i3);
                return true;
        case EV_GRACE_PERIOD:
                r->fixed = 28;
                if (sscanf(fields, "%127s %ld %127s", a, &l, b) != 3)
                        return false;
                put_i64(r, 16, l);
                return put_str(r, 8, a) && put_str(r, 24, b);
        case EV_PREEMPT_TASK:
        case EV_UNLOCK_TASK:
                r->fixed = 28;
                if (sscanf(fields, "%127s %ld %d", a, &l, &i1) != 3)
                        return false;
                put_i64(r, 16, l);
                put_i32(r, 24, i1);
                return put_str(r, 8, a);
        case EV_BOOST:
                r->fixed = 40;
                if (sscanf(fields, "comm=%127s pid=%d event=%127s oldprio=%d newprio=%d", a, &i1, b, &i2, &i3) != 5)
                        return false;
                put_comm(r, 8, a);
                put_i32(r, 24, i1);
                put_i32(r, 32, i2);
                put_i32(r, 36, i3);
                return put_str(r, 28, b);
        case EV_CALLBACK: {
                unsigned long rhp, func;

                r->fixed = 40;
                if (sscanf(fields, "%127s rhp=0x%lx func=0x%lx %ld", a, &rhp, &func, &l) != 4)
                        return false;
                put_i64(r, 16, (int64_t)rhp);
                put_i64(r, 24, (int64_t)func);
                put_i64(r, 32, l);
                return put_str(r, 8, a);
        }
        case EV_READ_SECTION:
                r->fixed = 12;
                if (strcmp(fields, "enter") && strcmp(fields, "exit"))
                        return false;
                put_i32(r, 8, !strcmp(fields, "enter"));
                return true;
        }
        return false;
}

/* ---- the ring buffer ---- */

static void new_page(struct cpu_buffer *cb, int64_t now)
{
        guint8 zero[PAGE_SIZE] = { 0 };
        uint64_t ts = (uint64_t)now;

        cb->page = cb->pages->len;
        g_byte_array_append(cb->pages, zero, PAGE_SIZE);
        memcpy(cb->pages->data + cb->page, &ts, 8);
        cb->last = now;
}

static uint64_t *commit_of(struct cpu_buffer *cb)
{
        return (uint64_t *)(void *)(cb->pages->data + cb->page + 8);
}

static void append(struct cpu_buffer *cb, const void *data, gsize n)
{
        uint64_t *commit = commit_of(cb);

        memcpy(cb->pages->data + cb->page + PAGE_HEADER + *commit, data, n);
        *commit += n;
}

void tracedat_event(struct tracedat *td, int64_t now, int cpu, const char *comm, int pid, const char *event,
                    const char *fields)
{
        const struct event_format *f = NULL;
        struct cpu_buffer *cb = &td->cpus[cpu];
        struct record r = { .len = 0 };
        uint64_t delta;
        uint32_t words, header;
        int16_t type;

        for (gsize i = 0; i < G_N_ELEMENTS(formats) && !f; i++)
                if (!strcmp(formats[i].name, event))
                        f = &formats[i];
        if (!f || !encode(f, fields, &r)) {
                td->unknown++;
                return;
        }
        type = (int16_t)f->id;
        put(&r, 0, &type, 2);
        put_i32(&r, 4, pid);
        r.len = MAX(r.len, r.fixed);
        words = (uint32_t)((r.len + 3) / 4);
        if (pid && !g_hash_table_contains(td->comms, GINT_TO_POINTER(pid)))
                g_hash_table_insert(td->comms, GINT_TO_POINTER(pid), g_strdup(comm));

        /* the event (4 + words * 4 bytes) and perhaps a time extend (8) must fit */
        if (cb->page == G_MAXSIZE || *commit_of(cb) + 8 + 4 + words * 4 > PAGE_DATA)
                new_page(cb, now);
        delta = (uint64_t)(now - cb->last);
        if (delta > MAX_DELTA) {
                uint32_t ext[2] = { TYPE_TIME_EXTEND | (uint32_t)(delta & MAX_DELTA) << 5, (uint32_t)(delta >> 27) };

                append(cb, ext, sizeof(ext));
                delta = 0;
        }
        header = words | (uint32_t)delta << 5;
        append(cb, &header, 4);
        append(cb, r.b, words * 4);
        cb->last = now;
}

/* ---- the file ---- */

static void w(GByteArray *out, const void *p, gsize n)
{
        g_byte_array_append(out, p, (guint)n);
}

static void w32(GByteArray *out, uint32_t v) { w(out, &v, 4); }
static void w64(GByteArray *out, uint64_t v) { w(out, &v, 8); }

static void w_format(GByteArray *out, const struct event_format *f)
{
        g_autofree char *text = g_strdup_printf("name: %s\nID: %d\nformat:\n" COMMON_FIELDS "%s\nprint fmt: %s\n",
                                                f->name, f->id, f->fields, f->print);

        w64(out, strlen(text));
        w(out, text, strlen(text));
}

static gint by_pid(gconstpointer a, gconstpointer b)
{
        return GPOINTER_TO_INT(a) - GPOINTER_TO_INT(b);
}

gboolean tracedat_write(struct tracedat *td, FILE *f, GError **error)
{
        static const char *const systems[] = { "sched", "rcu", "rcuboost" };
        g_autoptr(GByteArray) out = g_byte_array_new();
        g_autoptr(GString) cmdlines = g_string_new(NULL);
        GList *pids = g_list_sort(g_hash_table_get_keys(td->comms), by_pid);
        gsize data_at, offset, header_len;

        w(out, "\027\010\104tracing6", 11);
        w(out, "", 1);
        w(out, (guint8[]){ G_BYTE_ORDER == G_BIG_ENDIAN, sizeof(long) }, 2);
        w32(out, PAGE_SIZE);
        w(out, "header_page", 12);
        w64(out, strlen(header_page));
        w(out, header_page, strlen(header_page));
        w(out, "header_event", 13);
        w64(out, strlen(header_event));
        w(out, header_event, strlen(header_event));
        w32(out, 0);                    /* no ftrace (function tracer) events */
        w32(out, G_N_ELEMENTS(systems));
        for (gsize s = 0; s < G_N_ELEMENTS(systems); s++) {
                uint32_t n = 0;

                for (gsize i = 0; i < G_N_ELEMENTS(formats); i++)
                        n += !strcmp(formats[i].system, systems[s]);
                w(out, systems[s], strlen(systems[s]) + 1);
                w32(out, n);
                for (gsize i = 0; i < G_N_ELEMENTS(formats); i++)
                        if (!strcmp(formats[i].system, systems[s]))
                                w_format(out, &formats[i]);
        }
        w32(out, 0);                    /* kallsyms */
        w32(out, 0);                    /* printk formats */
        for (GList *l = pids; l; l = l->next)
                g_string_append_printf(cmdlines, "%d %s\n", GPOINTER_TO_INT(l->data),
                                       (const char *)g_hash_table_lookup(td->comms, l->data));
        g_list_free(pids);
        w64(out, cmdlines->len);
        w(out, cmdlines->str, cmdlines->len);
        w32(out, (uint32_t)td->ncpus);
        w(out, "flyrecord", 10);
        /* CPU data starts at the first page boundary after the offsets */
        data_at = (out->len + 16 * (gsize)td->ncpus + PAGE_SIZE - 1) / PAGE_SIZE * PAGE_SIZE;
        offset = data_at;
        for (int c = 0; c < td->ncpus; c++) {
                w64(out, offset);
                w64(out, td->cpus[c].pages->len);
                offset += td->cpus[c].pages->len;
        }
        header_len = out->len;          /* zeros up to the boundary */
        g_byte_array_set_size(out, (guint)data_at);
        memset(out->data + header_len, 0, data_at - header_len);
        if (fwrite(out->data, 1, out->len, f) != out->len)
                goto fail;
        for (int c = 0; c < td->ncpus; c++)
                if (td->cpus[c].pages->len &&
                    fwrite(td->cpus[c].pages->data, 1, td->cpus[c].pages->len, f) != td->cpus[c].pages->len)
                        goto fail;
        return TRUE;
fail:
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_IO, "writing trace.dat: %s", g_strerror(errno));
        return FALSE;
}
