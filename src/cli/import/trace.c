/* trace.c - a workload from a trace-cmd recording (trace.dat).
 *
 * libtracecmd reads the file and libtraceevent its events' fields; this
 * file only follows the scheduler through them, thread by thread:
 * sched_switch says when each thread ran, where, at what priority, and
 * whether it left its CPU to sleep (prev_state S or D) or was preempted
 * (R, R+); sched_wakeup ends a sleep.  A thread's CPU time from one wake-up
 * to its next sleep is a run ("burst"); the time asleep is a sleep.  From
 * those comes its program: a period where its wake-ups keep time, else a
 * loop of a fitted run and a fitted sleep (fit.c).
 *
 * What a trace cannot show is taken from elsewhere, said in the scenario's
 * comments, and never made up: read-side sections from rcuboost's own
 * rcuboost_read_section events (scripts/kernel-run records them) or from
 * --reader; callbacks from rcu:rcu_callback (a kernel with RCU_TRACE) or
 * --call-rcu.  The kernel threads the model has its own of (ktimers/N,
 * rcu_preempt, rcuc/N, rcub/N) become its keys, not tasks.
 */
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>
#include <trace-cmd/trace-cmd.h>

#include "import.h"
#include "../../sim/engine/costs.h"
#include "../../sim/output/output.h"
#include "../../sim/scenario/scenario.h"
#include "../../sim/scenario/units.h"

/* A thread as the scheduler saw it, while the trace is read. */
struct thread {
        struct itask *t;
        int cpu;                /* where it runs now, or -1 */
        int run_prio;           /* the priority it took its CPU at */
        int64_t run_since;      /* when it last took a CPU */
        int64_t burst_ns;       /* CPU time since its last wake-up */
        int64_t burst_switches; /* times it took a CPU since then */
        int64_t sleep_since;    /* when it went to sleep, or -1: it is not asleep */
        bool in_section;        /* inside a read-side section (rcuboost_read_section) */
        int64_t section_at;     /* when the current section began, from the workload's start */
        int64_t section_ns;     /* CPU time inside the current section */
        int64_t section_start;  /* burst_ns when the current section began */
        int64_t burst_sections; /* sections begun in the current burst */
        int64_t burst_section_ns; /* their CPU time */
        int64_t burst_pre_ns;   /* CPU time before the burst's first section */
        GArray *pre;            /* int64_t: burst_pre_ns of each burst that held a section */
        GArray *in;             /* int64_t: burst_section_ns of each such burst */
        GArray *post;           /* int64_t: the rest of each such burst */
};

struct reader {
        struct import *im;
        const struct import_opts *o;
        struct tep_handle *tep;
        GHashTable *threads;    /* pid -> struct thread * */
        int64_t origin;         /* trace time of the workload's start, ns */
        int64_t last;           /* trace time of the last event, ns */
        int64_t switches;
        bool any_section;       /* rcuboost_read_section seen */
        bool any_callback;      /* rcu:rcu_callback seen */
};

static void thread_free(struct thread *th)
{
        g_array_unref(th->pre);
        g_array_unref(th->in);
        g_array_unref(th->post);
        g_free(th);
}

static char *field_comm(struct tep_event *ev, struct tep_record *rec, const char *name)
{
        int len = 0;
        const char *raw = tep_get_field_raw(NULL, ev, name, rec, &len, 0);

        return raw ? g_strndup(raw, (gsize)MAX(0, len)) : g_strdup("?");
}

static int64_t field_int(struct tep_event *ev, struct tep_record *rec, const char *name)
{
        unsigned long long v = 0;

        tep_get_field_val(NULL, ev, name, rec, &v, 0);
        return (int64_t)v;
}

static struct thread *thread_of(struct reader *r, int pid, const char *comm)
{
        struct thread *th = g_hash_table_lookup(r->threads, GINT_TO_POINTER(pid));

        if (!th) {
                th = g_new0(struct thread, 1);
                th->t = import_task_new(comm, pid);
                th->cpu = -1;
                th->sleep_since = -1;
                th->pre = g_array_new(FALSE, FALSE, sizeof(int64_t));
                th->in = g_array_new(FALSE, FALSE, sizeof(int64_t));
                th->post = g_array_new(FALSE, FALSE, sizeof(int64_t));
                th->t->start_ns = -1;
                g_hash_table_insert(r->threads, GINT_TO_POINTER(pid), th);
        } else if (comm && strcmp(th->t->comm, comm) != 0) {
                /* exec() renames a thread: the last name is the one it ran under */
                g_free(th->t->comm);
                th->t->comm = g_strdup(comm);
        }
        return th;
}

/* @th's time on its CPU up to @now counts, at @prio; it keeps the CPU. */
static void ran_until(struct thread *th, int64_t now, int prio)
{
        int64_t ran = now - th->run_since;
        int64_t *at = g_hash_table_lookup(th->t->prio_ns, GINT_TO_POINTER(prio));

        th->t->cpu_ns += ran;
        th->burst_ns += ran;
        if (th->in_section)
                th->section_ns += ran;
        if (!at) {
                at = g_new0(int64_t, 1);
                g_hash_table_insert(th->t->prio_ns, GINT_TO_POINTER(prio), at);
        }
        *at += ran;
        th->run_since = now;
}

/* @th leaves its CPU at @now. */
static void switched_out(struct thread *th, int64_t now, int prio)
{
        if (th->cpu < 0)
                return;
        ran_until(th, now, prio);
        th->cpu = -1;
}

/* @th goes to sleep at @now: its burst ends.  The model charges each
 * switch to a task (costs.context_switch) on top of what it computes: that
 * much of each switch-in's time is left to it. */
static void burst_ended(struct thread *th, int64_t now)
{
        const int64_t cs = cost_table[COST_CONTEXT_SWITCH].default_ns;
        int64_t net = MAX(0, th->burst_ns - th->burst_switches * cs);

        g_array_append_val(th->t->bursts, net);
        th->t->bursts_ns += th->burst_ns;
        if (th->burst_sections > 0) {
                int64_t pre = MAX(0, th->burst_pre_ns - (th->burst_switches ? cs : 0));
                int64_t post = MAX(0, th->burst_ns - th->burst_pre_ns - th->burst_section_ns -
                                      MAX(0, th->burst_switches - 1) * cs);

                g_array_append_val(th->pre, pre);
                g_array_append_val(th->in, th->burst_section_ns);
                g_array_append_val(th->post, post);
        }
        th->burst_ns = th->burst_sections = th->burst_section_ns = th->burst_pre_ns = th->burst_switches = 0;
        th->sleep_since = now;
}

static void on_switch(struct reader *r, struct tep_event *ev, struct tep_record *rec, int cpu, int64_t now)
{
        int prev = (int)field_int(ev, rec, "prev_pid"), next = (int)field_int(ev, rec, "next_pid");
        int64_t state = field_int(ev, rec, "prev_state");

        r->switches++;
        if (prev > 0) {
                g_autofree char *comm = field_comm(ev, rec, "prev_comm");
                struct thread *th = thread_of(r, prev, comm);

                switched_out(th, now, (int)field_int(ev, rec, "prev_prio"));
                /* S, D, ... : it sleeps; 0 (R) or the preempted mark (R+, 0x100): it waits to run */
                if (state & 0xff)
                        burst_ended(th, now);
        }
        if (next > 0) {
                g_autofree char *comm = field_comm(ev, rec, "next_comm");
                struct thread *th = thread_of(r, next, comm);

                /* asleep, and back on a CPU with no sched_wakeup seen (a trace
                 * recorded without it): its sleep ends here, waiting and all */
                if (th->sleep_since >= 0) {
                        int64_t slept = now - th->sleep_since;

                        g_array_append_val(th->t->sleeps, slept);
                        th->sleep_since = -1;
                }
                th->cpu = cpu;
                th->run_since = now;
                th->burst_switches++;
                th->run_prio = (int)field_int(ev, rec, "next_prio");
                th->t->cpus_used |= cpu < 64 ? UINT64_C(1) << cpu : 0;
                if (th->t->start_ns < 0)
                        th->t->start_ns = MAX(0, now - r->origin);
        }
}

static void on_wakeup(struct reader *r, struct tep_event *ev, struct tep_record *rec, int64_t now)
{
        int pid = (int)field_int(ev, rec, "pid");
        g_autofree char *comm = field_comm(ev, rec, "comm");
        struct thread *th, *waker;
        int64_t at = now - r->origin;

        if (pid <= 0)
                return;
        th = thread_of(r, pid, comm);
        if (th->t->start_ns < 0)
                th->t->start_ns = MAX(0, at);
        /* woken by a reader from inside its section: the scenario's start_in */
        waker = g_hash_table_lookup(r->threads, GINT_TO_POINTER(tep_data_pid(r->tep, rec)));
        if (waker && waker != th && waker->in_section && !th->t->start_in) {
                th->t->start_in = waker->t;
                th->t->start_in_at = waker->section_at;
                th->t->start_in_run = th->t->bursts->len;
        }
        if (th->sleep_since >= 0) {
                int64_t slept = now - th->sleep_since;

                g_array_append_val(th->t->sleeps, slept);
                th->sleep_since = -1;
        }
        th->t->wakeups++;
        g_array_append_val(th->t->wake_times, at);
}

/* rcuboost_read_section: the running thread's outermost rcu_read_lock() or unlock. */
static void on_section(struct reader *r, struct tep_event *ev, struct tep_record *rec, int64_t now)
{
        int pid = tep_data_pid(r->tep, rec);
        struct thread *th = g_hash_table_lookup(r->threads, GINT_TO_POINTER(pid));
        bool enter = field_int(ev, rec, "enter") != 0;

        r->any_section = true;
        if (!th || th->cpu < 0)
                return;
        ran_until(th, now, th->run_prio);
        if (enter && !th->in_section) {
                th->in_section = true;
                th->section_at = now - r->origin;
                th->section_ns = 0;
                if (th->burst_sections++ == 0)
                        th->burst_pre_ns = th->burst_ns;
        } else if (!enter && th->in_section) {
                th->in_section = false;
                th->burst_section_ns += th->section_ns;
        }
}

static int on_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
        struct reader *r = data;
        struct tep_event *ev = tep_find_event_by_record(r->tep, rec);
        int64_t now = (int64_t)rec->ts;

        (void)h;
        if (!ev)
                return 0;
        if (r->origin < 0)
                r->origin = r->o->start_ns >= 0 ? r->o->start_ns : now;
        if (now < r->origin)
                return 0;
        r->last = now;
        if (!strcmp(ev->name, "sched_switch"))
                on_switch(r, ev, rec, cpu, now);
        else if (!strcmp(ev->name, "sched_wakeup") || !strcmp(ev->name, "sched_wakeup_new"))
                on_wakeup(r, ev, rec, now);
        else if (!strcmp(ev->name, "rcuboost_read_section"))
                on_section(r, ev, rec, now);
        else if (!strcmp(ev->name, "rcu_callback")) {
                struct thread *th = g_hash_table_lookup(r->threads, GINT_TO_POINTER(tep_data_pid(r->tep, rec)));

                r->any_callback = true;
                if (th)
                        th->t->callbacks++;
        }
        return 0;
}

/* ---- what the threads become ---- */

/* The model's own kernel threads: their scheduling becomes its keys. */
enum kthread_kind { KT_NONE, KT_KTIMERS, KT_RCU_GP, KT_RCUC, KT_RCUB, KT_KSOFTIRQD, KT_IDLE };

static enum kthread_kind kthread_kind(const char *comm)
{
        if (g_str_has_prefix(comm, "ktimers/") || g_str_has_prefix(comm, "sirq-timer/"))
                return KT_KTIMERS;
        if (!strcmp(comm, "rcu_preempt"))
                return KT_RCU_GP;
        if (g_str_has_prefix(comm, "rcuc/"))
                return KT_RCUC;
        if (g_str_has_prefix(comm, "rcub/"))
                return KT_RCUB;
        if (g_str_has_prefix(comm, "ksoftirqd/"))
                return KT_KSOFTIRQD;
        if (g_str_has_prefix(comm, "swapper"))
                return KT_IDLE;
        return KT_NONE;
}

/* The priority @t ran at longest (a boost is short beside its own). */
static int usual_prio(const struct itask *t)
{
        GHashTableIter it;
        gpointer k, v;
        int best = 120;
        int64_t most = -1;

        g_hash_table_iter_init(&it, t->prio_ns);
        while (g_hash_table_iter_next(&it, &k, &v))
                if (*(int64_t *)v > most || (*(int64_t *)v == most && GPOINTER_TO_INT(k) < best)) {
                        most = *(int64_t *)v;
                        best = GPOINTER_TO_INT(k);
                }
        return best;
}

/* The kernel's prio as a scenario's sched: 0-98 are SCHED_FIFO/RR 99-prio, 100-139 nice prio-120. */
static char *sched_of(int prio)
{
        if (prio >= 0 && prio < 99)
                return g_strdup_printf("fifo:%d", 99 - prio);
        return g_strdup_printf("normal:%d", CLAMP(prio - 120, -20, 19));
}

static void sched_chosen(struct itask *t)
{
        int prio = usual_prio(t);
        g_autoptr(GString) others = g_string_new(NULL);
        GHashTableIter it;
        gpointer k, v;

        /* the others: a boost, or a kernel thread's start-up before it took its class */
        g_hash_table_iter_init(&it, t->prio_ns);
        while (g_hash_table_iter_next(&it, &k, &v))
                if (GPOINTER_TO_INT(k) != prio)
                        g_string_append_printf(others, "%s prio %d for %.3g ms", others->len ? "," : "; it also ran at",
                                               GPOINTER_TO_INT(k), *(int64_t *)v / 1e6);
        t->sched = sched_of(prio);
        t->sched_note = g_strdup_printf("sched_switch: prio %d, the one it ran at longest%s%s", prio,
                                        prio < 99 ? " (SCHED_FIFO or RR: the trace shows the priority, not which)" : "",
                                        others->str);
}

static void affinity_chosen(struct itask *t, int ncpus)
{
        g_autoptr(GString) list = g_string_new(NULL);
        int n = 0;

        for (int c = 0; c < MIN(ncpus, 64); c++)
                if (t->cpus_used & (UINT64_C(1) << c)) {
                        g_string_append_printf(list, "%s%d", list->len ? "," : "", c);
                        n++;
                }
        if (n == 0 || n == ncpus)
                return;
        t->affinity = g_strdup(list->str);
        t->affinity_note = g_strdup_printf(n == 1 ? "it ran on CPU %s only: pinned there (a trace cannot tell "
                                           "pinned from never moved)" : "the CPUs it ran on: %s", list->str);
}

/* The median of int64_t lengths @a (0 when there are none). */
static int64_t median_ns(GArray *a)
{
        g_autofree double *x = g_new(double, MAX(1, a->len));

        if (!a->len)
                return 0;
        for (guint i = 0; i < a->len; i++)
                x[i] = (double)g_array_index(a, int64_t, i);
        gsl_sort(x, 1, a->len);
        return (int64_t)llround(gsl_stats_median_from_sorted_data(x, 1, a->len));
}

/* The fitted quantity of @a, and a note of how it fits, for @what. */
static char *fitted(struct itask *t, GArray *a, const char *what)
{
        g_autofree char *how = NULL;
        char *q = import_fit((const int64_t *)(void *)a->data, a->len, &how);

        import_note(t->notes, "%s: %s", what, how);
        return q;
}

/* A compute of the lengths @a, or nothing where they are under a microsecond. */
static void compute_of(GString *p, struct itask *t, GArray *a, const char *what)
{
        g_autofree char *q = NULL;

        if (median_ns(a) < 1000)
                return;
        q = fitted(t, a, what);
        g_string_append_printf(p, "compute %s; ", q);
}

/* --reader TASK=LENGTH or --call-rcu TASK=SIZE for @t, or NULL. */
static const char *option_for(char **pairs, const struct itask *t)
{
        size_t n = strlen(t->name);

        for (char **p = pairs; p && *p; p++)
                if (!strncmp(*p, t->name, n) && (*p)[n] == '=')
                        return *p + n + 1;
        return NULL;
}

/* One burst's work: its read-side section (recorded, or --reader), its
 * computing, its callbacks (recorded, or --call-rcu). */
static void burst_program(GString *p, struct reader *r, struct thread *th)
{
        struct itask *t = th->t;
        const char *reader = option_for(r->o->readers, t);
        const char *size = option_for(r->o->call_rcus, t);
        int64_t per_burst = t->bursts->len ? llround((double)t->callbacks / t->bursts->len) : 0;

        if (th->in->len * 2 >= t->bursts->len && th->in->len > 0) {
                compute_of(p, t, th->pre, "computing before the section");
                g_string_append(p, "rcu_read_lock; ");
                compute_of(p, t, th->in, "read-side sections (rcuboost_read_section)");
                g_string_append(p, "rcu_read_unlock; ");
                compute_of(p, t, th->post, "computing after the section");
                if (th->in->len < t->bursts->len)
                        import_note(t->notes, "%u of its %u runs held a read-side section: written in every one",
                                    th->in->len, t->bursts->len);
        } else if (reader) {
                int64_t len = 0;
                g_autoptr(GArray) rest = g_array_new(FALSE, FALSE, sizeof(int64_t));

                units_parse_duration(reader, &len, NULL);
                for (guint i = 0; i < t->bursts->len; i++) {
                        int64_t b = MAX(0, g_array_index(t->bursts, int64_t, i) - len);

                        g_array_append_val(rest, b);
                }
                import_note(t->notes, "read-side section: %s at the start of each run (--reader, not in the trace)",
                            reader);
                g_string_append_printf(p, "rcu_read_lock; compute %s; rcu_read_unlock; ", reader);
                compute_of(p, t, rest, "the rest of each run");
        } else {
                if (th->in->len)
                        import_note(t->notes, "%u read-side sections in %u runs: too few to write in each; "
                                    "--reader %s=LENGTH writes one", th->in->len, t->bursts->len, t->name);
                compute_of(p, t, t->bursts, "runs (CPU time from a wake-up to the next sleep)");
        }
        if (size) {
                import_note(t->notes, "call_rcu: %s at the end of each run (--call-rcu, not in the trace)", size);
                g_string_append_printf(p, "call_rcu %s; ", size);
        } else if (per_burst > 0) {
                import_note(t->notes, "call_rcu: %" G_GINT64_FORMAT " rcu:rcu_callback in %u runs, %" G_GINT64_FORMAT
                            " a run; the trace has no sizes: 1KiB each (--call-rcu %s=SIZE sets it)", t->callbacks,
                            t->bursts->len, per_burst, t->name);
                if (per_burst == 1)
                        g_string_append(p, "call_rcu 1KiB; ");
                else
                        g_string_append_printf(p, "repeat %" G_GINT64_FORMAT " { call_rcu 1KiB }; ", per_burst);
        }
}

/* Fewer runs than this say nothing of a distribution: they are written as recorded. */
#define FEW_RUNS 6

/* A thread that ran a few times -- a hog, a one-shot job -- does what it did,
 * in order: each run and each sleep as recorded, and what it was still
 * running when the trace ended. */
static void sequence_program(GString *p, struct itask *t)
{
        int64_t before = 0;
        guint first = 0;

        /* Woken from inside a reader's section, after runs of under a
         * millisecond (a thread's start-up): it waits for that section, as
         * start_in does, and its earlier runs are left out. */
        for (guint i = 0; t->start_in && i < t->start_in_run; i++)
                before += g_array_index(t->bursts, int64_t, i);
        if (t->start_in && before < 1000000) {
                first = t->start_in_run;
                t->start_ns = t->start_in_at;
                import_note(t->notes, "%s woke it from inside a read-side section that began at %.6g s: start_in "
                            "(its %u earlier runs, %.3g ms in all, left out)", t->start_in->name,
                            t->start_in_at / 1e9, first, before / 1e6);
        } else {
                t->start_in = NULL;
        }
        for (guint i = first; i < t->bursts->len; i++) {
                int64_t b = g_array_index(t->bursts, int64_t, i);

                if (b >= 1000) {
                        g_autofree char *q = units_format_duration(b);

                        g_string_append_printf(p, "compute %s; ", q);
                }
                if (i < t->sleeps->len) {
                        g_autofree char *q = units_format_duration(MAX(1000, g_array_index(t->sleeps, int64_t, i)));

                        g_string_append_printf(p, "sleep %s; ", q);
                }
        }
        /* still running when the trace ended: what it ran since its last wake-up */
        if (t->cpu_ns - t->bursts_ns >= 1000) {
                g_autofree char *q = units_format_duration(t->cpu_ns - t->bursts_ns);

                g_string_append_printf(p, "compute %s; ", q);
        }
        import_note(t->notes, "%u run%s and %u sleep%s, as recorded in order (too few to fit)",
                    t->bursts->len - first, t->bursts->len - first == 1 ? "" : "s", t->sleeps->len - first,
                    t->sleeps->len - first == 1 ? "" : "s");
        if (!p->len)
                g_string_append(p, "compute 1us; ");
}

/* @t's program: what it did (few runs), a period, or a loop of runs and sleeps. */
static void program_made(struct reader *r, struct thread *th)
{
        struct itask *t = th->t;
        g_autoptr(GString) p = g_string_new(NULL);
        int64_t period, jitter;

        if (t->bursts->len < FEW_RUNS) {
                sequence_program(p, t);
        } else if (import_periodic((const int64_t *)(void *)t->wake_times->data, t->wake_times->len,
                                   (const int64_t *)(void *)t->sleeps->data, t->sleeps->len,
                                   g_str_has_prefix(t->sched, "fifo"), &period, &jitter)) {
                g_autofree char *ps = units_format_duration(period);
                g_autofree char *js = units_format_duration(jitter);

                t->start_in = NULL;
                t->period_ns = period;
                import_note(t->notes, "periodic: its %u wake-ups kept a period of %s, spread %s (the model "
                            "releases it exactly on time)", t->wake_times->len, ps, js);
                burst_program(p, r, th);
        } else {
                g_autofree char *sleep = NULL;

                t->start_in = NULL;
                g_string_append(p, "loop { ");
                burst_program(p, r, th);
                sleep = fitted(t, t->sleeps, "sleeps (from going to sleep to the wake-up that ends it)");
                g_string_append_printf(p, "sleep %s }", sleep);
        }
        /* "compute X; " ends without its separator */
        while (p->len && (p->str[p->len - 1] == ' ' || p->str[p->len - 1] == ';'))
                g_string_truncate(p, p->len - 1);
        t->program = g_strdup(p->str);
}

/* The model's kernel threads, seen: their scheduling as its keys. */
static void kthreads_mapped(struct reader *r, GPtrArray *seen[KT_IDLE])
{
        struct import *im = r->im;
        g_autoptr(GString) sched = g_string_new(NULL);
        g_autoptr(GString) rcu = g_string_new(NULL);
        static const char *const what[KT_IDLE] = {
                [KT_KTIMERS] = "the timer softirq threads", [KT_RCU_GP] = "the grace-period thread",
                [KT_RCUC] = "the per-CPU callback threads", [KT_RCUB] = "the boost threads",
                [KT_KSOFTIRQD] = "the softirq threads",
        };

        for (int k = KT_KTIMERS; k < KT_IDLE; k++) {
                g_autoptr(GString) names = g_string_new(NULL);
                int prio = -1;
                bool same = true;

                for (guint i = 0; i < seen[k]->len; i++) {
                        const struct itask *t = seen[k]->pdata[i];
                        int p = usual_prio(t);

                        g_string_append_printf(names, "%s%s", names->len ? ", " : "", t->comm);
                        same &= prio < 0 || p == prio;
                        prio = prio < 0 ? p : MIN(prio, p);
                }
                if (!seen[k]->len)
                        continue;
                g_autofree char *s = sched_of(prio);

                switch (k) {
                case KT_KTIMERS:
                        g_string_append_printf(sched, "# %s (%s) ran at %s%s\ntimer_softirq_thread=%s\n", what[k],
                                               names->str, s, same ? "" : " (the most urgent of theirs)", s);
                        break;
                case KT_RCU_GP:
                        g_string_append_printf(rcu, "# %s (%s) ran at %s: rcutree.kthread_prio\nkthread_prio=%d\n",
                                               what[k], names->str, s, prio < 99 ? 99 - prio : 0);
                        break;
                case KT_RCUC:
                        g_string_append_printf(rcu, "# %s (%s) ran at %s%s\nrcuc_thread=%s\n", what[k], names->str, s,
                                               same ? "" : " (the most urgent of theirs)", s);
                        break;
                case KT_RCUB:
                        g_string_append_printf(rcu, "# %s (%s) ran at %s (kthread_prio sets theirs too)\n", what[k],
                                               names->str, s);
                        break;
                default: {
                        int64_t cpu = 0;

                        for (guint i = 0; i < seen[k]->len; i++)
                                cpu += ((const struct itask *)seen[k]->pdata[i])->cpu_ns;
                        import_note(im->notes, "%s (%s) ran %.3g ms: left out, the model has none (it expires "
                                    "timers in ktimers/N and invokes callbacks in rcuc/N)", what[k], names->str,
                                    cpu / 1e6);
                        break;
                }
                }
        }
        if (sched->len)
                g_ptr_array_add(im->sections, g_strdup_printf("[sched]\n%s", sched->str));
        if (seen[KT_RCU_GP]->len || seen[KT_RCUC]->len || seen[KT_RCUB]->len)
                g_ptr_array_add(im->sections, g_strdup_printf("[rcu]\n# rcu_preempt, rcuc/N or rcub/N ran: "
                                                              "preemptible Tree RCU\nflavour=tree\n%s", rcu->str));
}

/* Threads under --fold-below of a CPU, as one task: their runs and sleeps
 * pooled.  Left out, and said, when together they are under a tenth of it. */
static void folded_added(struct reader *r, GPtrArray *small)
{
        struct import *im = r->im;
        struct itask *f;
        g_autoptr(GString) names = g_string_new(NULL);
        int64_t cpu = 0;
        double share;

        if (!small->len)
                return;
        for (guint i = 0; i < small->len; i++) {
                const struct itask *t = small->pdata[i];

                cpu += t->cpu_ns;
                if (i < 12)
                        g_string_append_printf(names, "%s%s", names->len ? ", " : "", t->comm);
        }
        if (small->len > 12)
                g_string_append_printf(names, " and %u more", small->len - 12);
        share = (double)cpu / (double)im->duration_ns;
        if (share < r->o->fold_below / 10 || !r->o->fold_below) {
                import_note(im->notes, "left out: %u threads under %.2g%% of a CPU each, %.3g%% together (%s)",
                            small->len, 100 * r->o->fold_below, 100 * share, names->str);
                return;
        }
        f = import_task_new("folded", -1);
        for (guint i = 0; i < small->len; i++) {
                const struct itask *t = small->pdata[i];

                g_array_append_vals(f->bursts, t->bursts->data, t->bursts->len);
                g_array_append_vals(f->sleeps, t->sleeps->data, t->sleeps->len);
        }
        f->cpu_ns = cpu;
        f->sched = g_strdup("normal:0");
        f->sched_note = g_strdup("folded threads run as one SCHED_NORMAL task on any CPU");
        import_note(f->notes, "%u threads under %.2g%% of a CPU each, %.3g%% together: %s", small->len,
                    100 * r->o->fold_below, 100 * share, names->str);
        if (f->bursts->len && f->sleeps->len) {
                g_autofree char *run = fitted(f, f->bursts, "their runs, pooled");
                g_autofree char *sleep = fitted(f, f->sleeps, "their sleeps, pooled");

                f->program = g_strdup_printf("loop { compute %s; sleep %s }", run, sleep);
        } else {
                g_autofree char *total = units_format_duration(MAX(1000, cpu));

                f->program = g_strdup_printf("compute %s", total);
        }
        g_ptr_array_add(im->tasks, f);
}

/* A name a scenario takes: letters, digits, _ and -; the pid where two threads share one. */
static void names_given(GPtrArray *threads)
{
        g_autoptr(GHashTable) count = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

        for (guint i = 0; i < threads->len; i++) {
                struct itask *t = ((struct thread *)threads->pdata[i])->t;
                char *n = g_strndup(t->comm, 48);

                g_strcanon(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-", '_');
                g_free(t->name);
                t->name = n;
                g_hash_table_insert(count, g_strdup(n),
                                    GINT_TO_POINTER(GPOINTER_TO_INT(g_hash_table_lookup(count, n)) + 1));
        }
        for (guint i = 0; i < threads->len; i++) {
                struct itask *t = ((struct thread *)threads->pdata[i])->t;

                if (GPOINTER_TO_INT(g_hash_table_lookup(count, t->name)) > 1 && t->pid >= 0) {
                        char *n = g_strdup_printf("%s-%d", t->name, t->pid);

                        g_free(t->name);
                        t->name = n;
                }
        }
}

static gint by_start(gconstpointer a, gconstpointer b)
{
        const struct itask *x = *(struct itask *const *)a, *y = *(struct itask *const *)b;

        return x->start_ns != y->start_ns ? (x->start_ns < y->start_ns ? -1 : 1) : g_strcmp0(x->comm, y->comm);
}

gboolean import_trace(struct import *im, const char *path, const struct import_opts *o, GError **error)
{
        struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
        struct reader r = {
                .im = im, .o = o, .origin = -1,
                .threads = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, (GDestroyNotify)thread_free),
        };
        GPtrArray *seen[KT_IDLE];
        g_autoptr(GPtrArray) small = g_ptr_array_new();
        g_autoptr(GPtrArray) all = g_ptr_array_new();
        g_autoptr(GPtrArray) workload = g_ptr_array_new();   /* struct thread *: not the model's own */
        GHashTableIter it;
        gpointer v;
        gboolean ok = FALSE;

        if (!h) {
                g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                            "%s: not a trace-cmd recording that libtracecmd can read", path);
                goto out;
        }
        r.tep = tracecmd_get_tep(h);
        im->ncpus = MAX(1, tep_get_cpus(r.tep));
        tracecmd_iterate_events(h, NULL, 0, on_record, &r);
        if (r.switches == 0) {
                g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                            "%s: no sched:sched_switch events%s (record with trace-cmd record -e sched)", path,
                            o->start_ns >= 0 ? " after --start" : "");
                goto out;
        }
        im->duration_ns = MAX(1, r.last - r.origin);
        for (int k = 0; k < KT_IDLE; k++)
                seen[k] = g_ptr_array_new();
        g_hash_table_iter_init(&it, r.threads);
        while (g_hash_table_iter_next(&it, NULL, &v)) {
                struct thread *th = v;

                /* still on a CPU at the end: its time runs to the last event */
                switched_out(th, r.last, th->run_prio);
                if (th->t->cpu_ns > 0)
                        g_ptr_array_add(all, th);
        }
        /* the model's kernel threads apart; the others named as the scenario will name them */
        for (guint i = 0; i < all->len; i++) {
                struct thread *th = all->pdata[i];
                enum kthread_kind k = kthread_kind(th->t->comm);

                if (k == KT_IDLE)
                        continue;
                if (k != KT_NONE && !o->keep_all)
                        g_ptr_array_add(seen[k], th->t);
                else
                        g_ptr_array_add(workload, th);
        }
        names_given(workload);
        for (guint i = 0; i < workload->len; i++) {
                struct thread *th = workload->pdata[i];
                struct itask *t = th->t;

                /* a thread that reads, or calls call_rcu(), is RCU's business whatever its share */
                if (!o->keep_all && (double)t->cpu_ns / (double)im->duration_ns < o->fold_below &&
                    !th->in->len && !t->callbacks && !option_for(o->readers, t) && !option_for(o->call_rcus, t)) {
                        g_ptr_array_add(small, t);
                        continue;
                }
                sched_chosen(t);
                affinity_chosen(t, im->ncpus);
                program_made(&r, th);
                g_ptr_array_add(im->tasks, t);
                th->t = NULL;   /* the import's now */
        }
        kthreads_mapped(&r, seen);
        folded_added(&r, small);
        g_ptr_array_sort(im->tasks, by_start);
        import_note(im->notes, "each run's CPU time is written less the model's own charge for a context switch "
                    "([costs] context_switch, %" G_GINT64_FORMAT " ns a switch-in), which it adds back",
                    cost_table[COST_CONTEXT_SWITCH].default_ns);
        if (!r.any_section && !o->readers)
                import_note(im->notes, "no read-side section is in the trace (only rcuboost's own module records "
                            "them): none is written; --reader TASK=LENGTH gives a task's");
        if (!r.any_callback && !o->call_rcus)
                import_note(im->notes, "no rcu:rcu_callback in the trace (a kernel without RCU_TRACE): no call_rcu "
                            "is written; --call-rcu TASK=SIZE gives a task's");
        for (int k = 0; k < KT_IDLE; k++)
                g_ptr_array_unref(seen[k]);
        ok = TRUE;
out:
        /* threads the import did not take are freed with their state */
        g_hash_table_iter_init(&it, r.threads);
        while (g_hash_table_iter_next(&it, NULL, &v)) {
                struct thread *th = v;

                if (th->t)
                        import_task_free(th->t);
        }
        g_hash_table_destroy(r.threads);
        if (h)
                tracecmd_close(h);
        return ok;
}
