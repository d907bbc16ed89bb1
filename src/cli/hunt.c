/* hunt.c - `rcuboost hunt`: search scenario space for a run that breaks a
 * boosting policy, and shrink it to a small scenario file (docs/hunt.md).
 *
 * A candidate is a scenario's syntax tree (struct hscn: CPUs, readers,
 * hogs, updaters, periodic RT tasks, mutex owners), rendered to the
 * scenario language and run in this process under the policy -- and, with
 * --versus, the other one -- over a few seeds.  A *finding* is a property
 * (an [expect] line) that the policy fails in at least half of those seeds
 * while the other holds it in all of them.  The search keeps a small corpus
 * of the candidates nearest to failing (a property's margin: the measured
 * value over its bound) and mutates them, beside fresh random ones, so it
 * climbs toward a failure instead of only sampling.  A finding is shrunk by
 * delta debugging on the tree (drop a task, fewer copies, fewer CPUs,
 * shorter and rounder durations, plainer priorities) while it still fails,
 * and written as a readable .scn with the failing [expect] line.
 *
 * Determinism: candidates are made on the main thread from one GSL stream
 * (--seed), evaluated in fixed batches whatever -j is, and taken in batch
 * order; so the same --seed and run budget give the same findings.
 */
#include "cli.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>

#include "../policies/policy.h"
#include "../sim/expect.h"
#include "../sim/kernel.h"
#include "../sim/output.h"
#include "../sim/report.h"
#include "../sim/scenario.h"
#include "../sim/sim.h"
#include "../sim/units.h"

#define HUNT_BATCH 8            /* candidates per batch, whatever -j: results do not depend on -j */
#define HUNT_CORPUS 8           /* candidates kept for mutation: the nearest to failing ... */
#define HUNT_NOVEL 16           /* ... and the latest that took the policy somewhere new */
#define HUNT_MAX_TASKS 10
#define HUNT_MEMORY_LIMIT (32 * 1048576LL)

enum htask_kind { HT_READER, HT_HOG, HT_UPDATER, HT_PERIODIC, HT_OWNER, HT_SYNCER, HT_IRQ, HT_KINDS };

static const char *const kind_prefix[] = { "reader", "hog", "updater", "cyclic", "owner", "syncer", "irq" };

struct htask {
        enum htask_kind kind;
        int rt_prio;            /* 0: SCHED_NORMAL, else SCHED_FIFO priority */
        int cpu;                /* affinity, or -1: any CPU */
        int count;              /* copies */
        int64_t start_ns;       /* hog: when it arrives */
        int64_t len_ns;         /* reader: critical section (mean); hog: its burst; owner: hold; cyclic: work */
        int64_t gap_ns;         /* reader: sleep between sections (0: back to back); updater, cyclic: period */
        int mutex;              /* reader: taken inside its section; owner: the one it holds; -1: none */
        bool nested;            /* reader: its section nests a second rcu_read_lock() */
        int kib;                /* updater: each callback's size */
        bool repeat;            /* hog: again and again, sleeping gap_ns between bursts */
        int64_t event_ns;       /* reader, hog: an [event] at this time sets its class to event_prio; 0: none */
        int event_prio;         /* ... 0: SCHED_NORMAL, else FIFO */
};

struct hscn {
        const struct boost_policy_ops *ops;     /* P: whose [policy:NAME] key the candidate may set */
        const struct boost_policy_ops *versus;  /* Q, or NULL: a key Q has too is set for both */
        int key;                /* index in ops->keys, or -1: every key at its default */
        char value[32];         /* ... and its value */
        int cpus;
        int64_t duration_ns;
        int64_t prio_change_ns;         /* [costs] prio_change, or 0: the default (300 ns) */
        int tick_hz;                    /* [scenario] tick_hz, or 0: the kernel generation's */
        int ntasks;
        struct htask tasks[HUNT_MAX_TASKS];
};

/* ---- the grammar: generate, mutate, render ---- */

static int64_t pick_ns(gsl_rng *r, int64_t lo, int64_t hi)
{
        /* log-uniform: 10 us and 10 ms are as likely as each other */
        double v = exp(log((double)lo) + gsl_rng_uniform(r) * (log((double)hi) - log((double)lo)));

        return (int64_t)v;
}

static int pick_cpu(gsl_rng *r, int cpus)
{
        return gsl_rng_uniform_int(r, 4) == 0 ? -1 : (int)gsl_rng_uniform_int(r, (unsigned long)cpus);
}

static void task_random(gsl_rng *r, const struct hscn *s, enum htask_kind kind, struct htask *t)
{
        memset(t, 0, sizeof(*t));
        t->kind = kind;
        t->cpu = pick_cpu(r, s->cpus);
        t->count = 1;
        t->mutex = -1;
        switch (kind) {
        case HT_READER:
                t->rt_prio = gsl_rng_uniform_int(r, 3) == 0 ? 1 + (int)gsl_rng_uniform_int(r, 60) : 0;
                t->count = 1 + (int)gsl_rng_uniform_int(r, 4);
                t->len_ns = pick_ns(r, 10 * NSEC_PER_USEC, 2 * NSEC_PER_MSEC);
                t->gap_ns = gsl_rng_uniform_int(r, 2) ? 0 : pick_ns(r, 10 * NSEC_PER_USEC, 5 * NSEC_PER_MSEC);
                t->mutex = gsl_rng_uniform_int(r, 4) == 0 ? 0 : -1;
                t->nested = gsl_rng_uniform_int(r, 4) == 0;
                break;
        case HT_HOG:
                t->rt_prio = 1 + (int)gsl_rng_uniform_int(r, 98);
                t->start_ns = pick_ns(r, 10 * NSEC_PER_MSEC, s->duration_ns / 2);
                t->len_ns = pick_ns(r, 10 * NSEC_PER_MSEC, s->duration_ns);
                /* half the time on the CPU of a pinned reader: where a stall begins */
                for (int i = 0; i < s->ntasks && gsl_rng_uniform_int(r, 2); i++)
                        if (s->tasks[i].kind == HT_READER && s->tasks[i].cpu >= 0) {
                                t->cpu = s->tasks[i].cpu;
                                break;
                        }
                if (t->cpu < 0)
                        t->cpu = 0;
                /* or a hog that comes back: many preemptions, many boosts, many races */
                if (gsl_rng_uniform_int(r, 2)) {
                        t->repeat = true;
                        t->len_ns = pick_ns(r, NSEC_PER_MSEC, 100 * NSEC_PER_MSEC);
                        t->gap_ns = pick_ns(r, 100 * NSEC_PER_USEC, 20 * NSEC_PER_MSEC);
                }
                break;
        case HT_UPDATER:
                t->rt_prio = gsl_rng_uniform_int(r, 3) == 0 ? 1 + (int)gsl_rng_uniform_int(r, 60) : 0;
                /* 32 to 160 MB/s: 32 MiB fills behind a grace period held 0.2 to 1 s, never
                 * behind the few milliseconds of one that nothing holds */
                t->gap_ns = pick_ns(r, 100 * NSEC_PER_USEC, 500 * NSEC_PER_USEC);
                t->kib = 16;
                break;
        case HT_PERIODIC:
                t->rt_prio = 1 + (int)gsl_rng_uniform_int(r, 98);
                t->gap_ns = pick_ns(r, 500 * NSEC_PER_USEC, 20 * NSEC_PER_MSEC);
                t->len_ns = t->gap_ns / (2 + (int64_t)gsl_rng_uniform_int(r, 20));
                t->len_ns = MAX(NSEC_PER_USEC, t->len_ns);
                break;
        case HT_SYNCER:         /* synchronize_rcu(): an updater that waits for grace periods */
                t->rt_prio = gsl_rng_uniform_int(r, 3) == 0 ? 1 + (int)gsl_rng_uniform_int(r, 60) : 0;
                t->gap_ns = pick_ns(r, 100 * NSEC_PER_USEC, 20 * NSEC_PER_MSEC);
                t->mutex = gsl_rng_uniform_int(r, 4) == 0 ? 0 : -1;        /* holding m0 while it waits */
                break;
        case HT_IRQ:            /* a device interrupt's thread, FIFO 50 unless changed */
                t->rt_prio = gsl_rng_uniform_int(r, 2) ? 50 : 1 + (int)gsl_rng_uniform_int(r, 98);
                t->cpu = (int)gsl_rng_uniform_int(r, (unsigned long)s->cpus);
                t->gap_ns = pick_ns(r, 50 * NSEC_PER_USEC, 10 * NSEC_PER_MSEC);
                t->len_ns = MAX(NSEC_PER_USEC, t->gap_ns / (4 + (int64_t)gsl_rng_uniform_int(r, 40)));
                break;
        case HT_OWNER:
                t->rt_prio = 0;
                t->mutex = 0;
                t->len_ns = pick_ns(r, 100 * NSEC_PER_USEC, 50 * NSEC_PER_MSEC);
                t->gap_ns = pick_ns(r, 100 * NSEC_PER_USEC, 10 * NSEC_PER_MSEC);
                break;
        case HT_KINDS:
                break;
        }
}

/* A duration as the scenario language writes it, exactly: 3ms, 250us, 1234ns. */
static char *fmt_ns(int64_t ns)
{
        if (ns != 0 && ns % NSEC_PER_SEC == 0)
                return g_strdup_printf("%" G_GINT64_FORMAT "s", ns / NSEC_PER_SEC);
        if (ns % NSEC_PER_MSEC == 0)
                return g_strdup_printf("%" G_GINT64_FORMAT "ms", ns / NSEC_PER_MSEC);
        if (ns % NSEC_PER_USEC == 0)
                return g_strdup_printf("%" G_GINT64_FORMAT "us", ns / NSEC_PER_USEC);
        return g_strdup_printf("%" G_GINT64_FORMAT "ns", ns);
}

/* Two significant digits, in whole microseconds at least: 13415 ns -> 13 us. */
static int64_t round_2sig(int64_t ns)
{
        int64_t p = NSEC_PER_USEC;

        while (ns / p >= 100)
                p *= 10;
        return MAX(NSEC_PER_USEC, (ns + p / 2) / p * p);
}

/* One of P's [policy] keys set to a value of its type near its default
 * (durations and counts within a factor of ten or two, any RT class). */
static void param_random(gsl_rng *r, struct hscn *s)
{
        const struct policy_key *keys = s->ops ? s->ops->keys : NULL;
        const struct policy_key *k;
        int n = 0;

        s->key = -1;
        while (keys && keys[n].name)
                n++;
        if (n == 0)
                return;
        s->key = (int)gsl_rng_uniform_int(r, (unsigned long)n);
        k = &keys[s->key];
        switch (k->type) {
        case POLICY_KEY_DURATION: {
                int64_t ns = 0;
                g_autofree char *v = NULL;

                units_parse_duration(k->default_value, &ns, NULL);
                ns = (int64_t)(MAX(ns, NSEC_PER_MSEC) * pow(10, gsl_ran_flat(r, -1.0, 1.0)));
                v = fmt_ns(round_2sig(ns));
                g_strlcpy(s->value, v, sizeof(s->value));
                break;
        }
        case POLICY_KEY_INT: {
                int64_t i = 1;

                units_parse_int(k->default_value, INT64_MIN, INT64_MAX, &i, NULL);
                i = llround((double)MAX(i, 1) * pow(2, gsl_ran_flat(r, -1.0, 1.0)));
                g_snprintf(s->value, sizeof(s->value), "%" G_GINT64_FORMAT, MAX(i, 1));
                break;
        }
        case POLICY_KEY_SCHED: {
                const char *cls = gsl_rng_uniform_int(r, 2) ? "fifo" : "rr";

                g_snprintf(s->value, sizeof(s->value), "%s:%d", cls, 1 + (int)gsl_rng_uniform_int(r, 99));
                break;
        }
        case POLICY_KEY_BOOL: {
                gboolean b = FALSE;

                units_parse_bool(k->default_value, &b, NULL);
                g_strlcpy(s->value, b ? "false" : "true", sizeof(s->value));
                break;
        }
        case POLICY_KEY_ENUM: {
                g_auto(GStrv) each = g_strsplit(k->choices, "|", -1);

                g_strlcpy(s->value, each[gsl_rng_uniform_int(r, g_strv_length(each))], sizeof(s->value));
                break;
        }
        }
}

static void hscn_random(gsl_rng *r, const struct boost_policy_ops *ops, const struct boost_policy_ops *versus,
                        struct hscn *s)
{
        memset(s, 0, sizeof(*s));
        s->ops = ops;
        s->versus = versus;
        s->key = -1;
        if (gsl_rng_uniform_int(r, 3) == 0)
                param_random(r, s);
        s->cpus = 1 + (int)gsl_rng_uniform_int(r, 4);
        s->duration_ns = 2 * NSEC_PER_SEC;
        /* a slow priority change widens the windows of races around a boost */
        if (gsl_rng_uniform_int(r, 4) == 0)
                s->prio_change_ns = pick_ns(r, NSEC_PER_USEC, 50 * NSEC_PER_USEC);
        task_random(r, s, HT_READER, &s->tasks[s->ntasks++]);
        task_random(r, s, HT_UPDATER, &s->tasks[s->ntasks++]);
        if (gsl_rng_uniform_int(r, 6) == 0) {
                static const int hz[] = { 100, 250, 1000 };

                s->tick_hz = hz[gsl_rng_uniform_int(r, G_N_ELEMENTS(hz))];
        }
        for (int extra = (int)gsl_rng_uniform_int(r, 4); extra > 0; extra--) {
                static const enum htask_kind more[] = { HT_HOG, HT_HOG, HT_READER, HT_PERIODIC, HT_OWNER, HT_SYNCER,
                                                        HT_IRQ };

                task_random(r, s, more[gsl_rng_uniform_int(r, G_N_ELEMENTS(more))], &s->tasks[s->ntasks++]);
        }
}

/* One edit of the tree: a task added, removed or changed, or the CPUs. */
static void hscn_mutate(gsl_rng *r, struct hscn *s)
{
        struct htask *t = &s->tasks[gsl_rng_uniform_int(r, (unsigned long)s->ntasks)];
        int step = gsl_rng_uniform_int(r, 2) ? 1 : -1;  /* drawn once: CLAMP() reads its argument thrice */

        switch (gsl_rng_uniform_int(r, 11)) {
        case 0:
                if (s->ntasks < HUNT_MAX_TASKS) {
                        task_random(r, s, (enum htask_kind)gsl_rng_uniform_int(r, HT_KINDS), &s->tasks[s->ntasks]);
                        s->ntasks++;
                }
                break;
        case 1:
                if (s->ntasks > 2) {
                        int i = (int)(t - s->tasks);

                        memmove(&s->tasks[i], &s->tasks[i + 1], (size_t)(s->ntasks - i - 1) * sizeof(*t));
                        s->ntasks--;
                }
                break;
        case 2:
                t->rt_prio = t->kind == HT_HOG || t->kind == HT_PERIODIC || gsl_rng_uniform_int(r, 2)
                             ? 1 + (int)gsl_rng_uniform_int(r, 98) : 0;
                break;
        case 3:
                t->cpu = pick_cpu(r, s->cpus);
                if (t->kind == HT_HOG && t->cpu < 0)
                        t->cpu = 0;
                break;
        case 4:
                t->len_ns = (int64_t)(t->len_ns * exp(gsl_ran_flat(r, -1.0, 1.0)));
                t->len_ns = MAX(NSEC_PER_USEC, t->len_ns);
                break;
        case 5:
                t->gap_ns = t->gap_ns ? (int64_t)(t->gap_ns * exp(gsl_ran_flat(r, -1.0, 1.0))) : pick_ns(r, NSEC_PER_USEC,
                                                                                              NSEC_PER_MSEC);
                if (t->kind == HT_UPDATER)
                        t->gap_ns = CLAMP(t->gap_ns, 100 * NSEC_PER_USEC, 500 * NSEC_PER_USEC);
                break;
        case 6:
                t->count = CLAMP(t->count + step, 1, 8);
                if (t->kind == HT_READER && gsl_rng_uniform_int(r, 2))
                        t->mutex = t->mutex < 0 ? 0 : -1;
                break;
        case 7:
                s->prio_change_ns = s->prio_change_ns ? 0 : pick_ns(r, NSEC_PER_USEC, 50 * NSEC_PER_USEC);
                break;
        case 8:
                if (s->key >= 0 && gsl_rng_uniform_int(r, 2))
                        s->key = -1;
                else
                        param_random(r, s);
                break;
        case 9:         /* an [event] changes the task's class at some time */
                if (t->kind == HT_READER || t->kind == HT_HOG) {
                        t->event_ns = t->event_ns ? 0 : pick_ns(r, 10 * NSEC_PER_MSEC, s->duration_ns);
                        t->event_prio = gsl_rng_uniform_int(r, 3) ? 1 + (int)gsl_rng_uniform_int(r, 98) : 0;
                }
                break;
        default:
                s->cpus = CLAMP(s->cpus + step, 1, 4);
                for (int i = 0; i < s->ntasks; i++)
                        if (s->tasks[i].cpu >= s->cpus)
                                s->tasks[i].cpu = s->cpus - 1;
                break;
        }
        /* an interrupt is routed to a CPU: never "any" */
        for (int i = 0; i < s->ntasks; i++)
                if (s->tasks[i].kind == HT_IRQ && s->tasks[i].cpu < 0)
                        s->tasks[i].cpu = 0;
}


static char *sched_of(int rt_prio)
{
        return rt_prio ? g_strdup_printf("fifo:%d", rt_prio) : g_strdup("normal:0");
}

static bool uses_mutex(const struct hscn *s)
{
        for (int i = 0; i < s->ntasks; i++)
                if (s->tasks[i].mutex >= 0)
                        return true;
        return false;
}

/* The scenario file for @s, with @expect (the [expect] section's lines) and @header (comment lines). */
static char *hscn_render(const struct hscn *s, uint64_t seed, const char *header, const char *expect)
{
        GString *o = g_string_new(header ? header : "");
        int index[HT_KINDS] = { 0 };
        g_autofree char *dur = fmt_ns(s->duration_ns);

        g_string_append_printf(o, "[scenario]\ncpus=%d\nduration=%s\nseed=%" G_GUINT64_FORMAT "\n", s->cpus, dur,
                               seed);
        if (s->tick_hz)
                g_string_append_printf(o, "tick_hz=%d\n", s->tick_hz);
        g_string_append(o, "\n[rcu]\nmemory_limit=32MiB\n\n");
        if (s->prio_change_ns) {
                g_autofree char *pc = fmt_ns(s->prio_change_ns);

                g_string_append_printf(o, "[costs]\nprio_change=%s\n\n", pc);
        }
        if (s->key >= 0) {
                const char *key = s->ops->keys[s->key].name;

                /* a key both policies have is set for both: differences come from the policy alone */
                if (s->versus && policy_key_find(s->versus, key))
                        g_string_append_printf(o, "[policy]\n%s=%s\n\n", key, s->value);
                else
                        g_string_append_printf(o, "[policy:%s]\n%s=%s\n\n", s->ops->name, key, s->value);
        }
        if (uses_mutex(s))
                g_string_append(o, "[mutex:m0]\n\n");
        for (int i = 0; i < s->ntasks; i++) {
                const struct htask *t = &s->tasks[i];
                g_autofree char *sched = sched_of(t->rt_prio);
                g_autofree char *len = fmt_ns(t->len_ns);
                g_autofree char *gap = fmt_ns(t->gap_ns);
                g_autofree char *start = fmt_ns(t->start_ns);

                if (t->kind == HT_IRQ) {
                        g_string_append_printf(o, "[irq:%s%d]\ncpu=%d\nsched=%s\ninterval=exp(%s)\nhandler=%s\n\n",
                                               kind_prefix[t->kind], index[t->kind]++, t->cpu, sched, gap, len);
                        continue;
                }
                g_string_append_printf(o, "[task:%s%d]\nsched=%s\n", kind_prefix[t->kind], index[t->kind]++, sched);
                if (t->cpu >= 0)
                        g_string_append_printf(o, "affinity=%d\n", t->cpu);
                if (t->count > 1)
                        g_string_append_printf(o, "count=%d\n", t->count);
                switch (t->kind) {
                case HT_READER: {
                        g_autofree char *sleep = t->gap_ns ? g_strdup_printf("; sleep exp(%s)", gap) : g_strdup("");

                        g_string_append_printf(o, "program=loop { rcu_read_lock; %scompute exp(%s); %s%s"
                                               "rcu_read_unlock%s }\n",
                                               t->nested ? "rcu_read_lock; " : "", len,
                                               t->mutex >= 0 ? "lock m0; compute 10us; unlock m0; " : "",
                                               t->nested ? "rcu_read_unlock; " : "", sleep);
                        break;
                }
                case HT_HOG:
                        if (t->repeat)
                                g_string_append_printf(o, "start=%s\nprogram=loop { compute exp(%s); sleep exp(%s) }\n",
                                                       start, len, gap);
                        else
                                g_string_append_printf(o, "start=%s\nprogram=compute %s\n", start, len);
                        break;
                case HT_UPDATER:
                        g_string_append_printf(o, "program=loop { call_rcu %dKiB; sleep %s }\n", t->kib, gap);
                        break;
                case HT_PERIODIC:
                        g_string_append_printf(o, "period=%s\nprogram=compute %s\n", gap, len);
                        break;
                case HT_OWNER:
                        g_string_append_printf(o, "program=loop { lock m0; compute exp(%s); unlock m0; sleep exp(%s) }\n",
                                               len, gap);
                        break;
                case HT_SYNCER:
                        if (t->mutex >= 0)
                                g_string_append_printf(o, "program=loop { sleep exp(%s); lock m0; synchronize_rcu; "
                                                       "unlock m0 }\n", gap);
                        else
                                g_string_append_printf(o, "program=loop { sleep exp(%s); synchronize_rcu }\n", gap);
                        break;
                case HT_IRQ:
                case HT_KINDS:
                        break;
                }
                g_string_append_c(o, '\n');
        }
        /* the [event]s, after every task they name */
        memset(index, 0, sizeof(index));
        for (int i = 0; i < s->ntasks; i++) {
                const struct htask *t = &s->tasks[i];
                int n = index[t->kind]++;

                if (t->event_ns && t->kind != HT_IRQ) {
                        g_autofree char *at = fmt_ns(t->event_ns);
                        g_autofree char *sched = sched_of(t->event_prio);

                        g_string_append_printf(o, "[event:e%d]\nat=%s\ntask=%s%d\nsched=%s\n\n", i, at,
                                               kind_prefix[t->kind], n, sched);
                }
        }
        if (expect)
                g_string_append_printf(o, "[expect]\n%s", expect);
        return g_string_free(o, FALSE);
}

/* ---- properties ---- */

struct hprop {
        char *name;                     /* in findings' file names: "oom", "gp_max_at_least" */
        char *line;                     /* the [expect] line without its policy: "oom=false" */
        struct expectation *x;          /* policy "*"; NULL: the run must not deadlock */
        bool per_tick;                  /* the bound is the policy's scheduling-clock tick */
        bool correctness;               /* one failing seed proves it (a race): no rate needed */
};

static void hprop_free(void *data)
{
        struct hprop *p = data;

        g_free(p->name);
        g_free(p->line);
        expect_free(p->x);
}

/* "gp_max_at_least<=100ms" as an [expect] line would say it for any policy. */
static gboolean hprop_parse(const char *text, struct hprop *p, GError **error)
{
        const char *eq = strchr(text, '=');
        g_autofree char *key = NULL;
        g_autofree char *name = NULL;

        memset(p, 0, sizeof(*p));
        if (!eq || eq == text) {
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "--property '%s': expected METRIC OP VALUE, as an [expect] line without its policy "
                            "(e.g. gp_max_at_least<=100ms)", text);
                return FALSE;
        }
        {
                g_autofree char *metric = g_strndup(text, (gsize)(eq - text));

                key = g_strconcat("*.", metric, NULL);
        }
        p->x = expect_parse(key, eq + 1, error);
        if (!p->x) {
                g_prefix_error(error, "--property '%s': ", text);
                return FALSE;
        }
        if (p->x->rate >= 0) {
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "--property '%s': a rate over seeds is what hunt measures itself (--seeds); give the "
                            "outcome per run (e.g. oom=false)", text);
                expect_free(p->x);
                return FALSE;
        }
        name = g_strdup(p->x->metric);
        g_strcanon(name, "abcdefghijklmnopqrstuvwxyz0123456789_", '_');
        p->name = g_steal_pointer(&name);
        p->line = g_strdup(text);
        return TRUE;
}

/* The defaults: no safety violation, no OOM under the scenario's limit, no
 * deadlock, no task boosted outside its critical section for more than a tick. */
static GArray *default_props(void)
{
        GArray *props = g_array_new(FALSE, TRUE, sizeof(struct hprop));
        static const char *const lines[] = { "safety_violations=0", "oom=false" };
        struct hprop p;

        g_array_set_clear_func(props, hprop_free);
        for (size_t i = 0; i < G_N_ELEMENTS(lines); i++) {
                hprop_parse(lines[i], &p, NULL);
                p.correctness = i == 0;         /* safety */
                g_array_append_val(props, p);
        }
        memset(&p, 0, sizeof(p));
        p.name = g_strdup("deadlock");
        p.line = g_strdup("(no deadlock)");
        p.correctness = true;
        g_array_append_val(props, p);
        hprop_parse("boosted_outside_cs_ns<=1ms", &p, NULL);
        g_free(p.name);
        p.name = g_strdup("boosted_outside_cs");
        p.per_tick = true;
        p.correctness = true;
        g_array_append_val(props, p);
        return props;
}

/* ---- evaluating a candidate ---- */

/* How a run failed, for telling findings apart: the state of the first
 * reader its stall report names ("preempted", "blocked on a mutex"), or a
 * kernel thread that could not run, or "-". */
static const char *mechanism_of(const struct report *r)
{
        const char *state = report_lookup_string(r, "stall_report.readers.0.state");
        double kthreads = 0;

        if (state)
                return state;
        if (report_lookup(r, "stall_report.kthread_count", &kthreads) && kthreads > 0)
                return "a kernel thread starved";
        return "-";
}

struct hunt;

struct heval {
        struct hscn s;
        char *text;                     /* the scenario, without [expect] */
        gboolean bad;                   /* did not load or start (a grammar bug: said once) */
        char *why;
        int fails[2][16];               /* [P, Q][property]: failing seeds */
        uint64_t first_fail[16];        /* P's first failing seed per property */
        char mechanism[16][24];         /* ... and how it failed there (mechanism_of()) */
        double margin;                  /* P's nearest approach to failing (1: at the bound), less Q's */
        uint64_t cov[64];               /* P's policy state transitions over its runs (sim_policy_coverage()) */
        int runs;
};

struct hunt {
        const char *policy[2];          /* P, and Q or NULL */
        GArray *props;                  /* struct hprop */
        int nseeds;
        int64_t tick_ns[2];             /* each policy's scheduling-clock tick, for per_tick */
        gsl_rng *rng;
        guint64 runs;                   /* simulations run so far */
        guint64 max_runs;               /* 0: no run budget */
        gint64 deadline_us;             /* 0: no time budget */
        int jobs;
        const char *given;              /* the --property options, as a command line repeats them, or "" */
        GThreadPool *pool;
        GMutex lock;
        GCond done;
        int pending;
        bool tty;                       /* progress on a terminal */
};

/* How near @x came to failing on @r, where it measured @actual (@outcome,
 * from expect_eval()): 1 at the bound, above 1 past it. */
static double margin_of(const struct expectation *x, const struct report *r, enum expect_outcome outcome,
                        double actual)
{
        if (!strcmp(x->metric, "oom")) {
                double peak;

                return report_lookup(r, "memory.peak_bytes", &peak) ? peak / (double)HUNT_MEMORY_LIMIT : 0;
        }
        if (outcome != EXPECT_PASS && outcome != EXPECT_FAIL)
                return 0;
        switch (x->op) {
        case EXPECT_LE:
        case EXPECT_LT:
                return x->value > 0 ? actual / x->value : actual > x->value;
        case EXPECT_GE:
        case EXPECT_GT:
                return actual > 0 ? x->value / actual : 1;
        default:
                return 0;
        }
}

static void eval_candidate(struct hunt *h, struct heval *ev)
{
        GError *e = NULL;
        struct scenario *sc = scenario_load_data(ev->text, "hunt.scn", NULL, &e);
        double worst[2][16] = { { 0 } };       /* per policy, per property: the nearest approach */

        if (!sc) {
                ev->bad = TRUE;
                ev->why = g_strdup(e->message);
                g_error_free(e);
                return;
        }
        for (int p = 0; p < 2 && h->policy[p]; p++) {
                for (int i = 0; i < h->nseeds; i++) {
                        uint64_t seed = 1 + (uint64_t)i;
                        struct sim *sim = sim_new(sc, &(struct sim_options){ .policy = h->policy[p],
                                                                             .seed = seed, .seed_set = true,
                                                                             .coverage = p == 0 }, &e);
                        gboolean finished;

                        if (!sim) {
                                ev->bad = TRUE;
                                ev->why = g_strdup(e->message);
                                g_clear_error(&e);
                                scenario_free(sc);
                                return;
                        }
                        sim_run(sim);
                        finished = sim_finish(sim, &e);
                        ev->runs++;
                        for (guint k = 0; k < h->props->len; k++) {
                                struct hprop *pr = &g_array_index(h->props, struct hprop, k);
                                bool fail;

                                if (!pr->x) {
                                        fail = !finished && e && strstr(e->message, "deadlock");
                                } else if (!sim_report(sim)) {
                                        fail = false;
                                } else if (pr->per_tick) {
                                        double v = 0;

                                        report_lookup(sim_report(sim), "policy_stats.boosted_outside_cs_ns", &v);
                                        fail = v > h->tick_ns[p];
                                        worst[p][k] = MAX(worst[p][k], v / (double)h->tick_ns[p]);
                                } else {
                                        double actual = 0, margin;
                                        gboolean at_least;
                                        const char *key;
                                        enum expect_outcome outcome = expect_eval(pr->x, sim_report(sim), &actual,
                                                                                  &at_least, &key);

                                        fail = outcome == EXPECT_FAIL;
                                        margin = margin_of(pr->x, sim_report(sim), outcome, actual);
                                        worst[p][k] = MAX(worst[p][k], margin);
                                }
                                if (fail && !ev->fails[p][k]++ && p == 0) {
                                        ev->first_fail[k] = seed;
                                        g_strlcpy(ev->mechanism[k], sim_report(sim) ? mechanism_of(sim_report(sim))
                                                                                    : "-", sizeof(ev->mechanism[k]));
                                }
                        }
                        if (p == 0)
                                for (int w = 0; w < 64; w++)
                                        ev->cov[w] |= sim_policy_coverage(sim)[w];
                        g_clear_error(&e);
                        sim_free(sim);
                }
        }
        scenario_free(sc);
        /* how much nearer P came than Q, on the property where that is most */
        ev->margin = 0;
        for (guint k = 0; k < h->props->len; k++)
                ev->margin = MAX(ev->margin, worst[0][k] - worst[1][k]);
}

/* The property @ev is a finding for, or -1: P fails it in at least half the
 * seeds and Q (if any) in none. */
/* P fails property @k: in one seed for a correctness property (a safety
 * violation, a deadlock, a boost left behind: one occurrence is the bug),
 * else in at least half -- and Q in none. */
static bool fails_prop(const struct hunt *h, const struct heval *ev, int k)
{
        const struct hprop *pr = &g_array_index(h->props, struct hprop, k);

        return !ev->bad && ev->fails[0][k] > 0 && (pr->correctness || 2 * ev->fails[0][k] >= h->nseeds) &&
               (!h->policy[1] || ev->fails[1][k] == 0);
}


static void pool_work(gpointer data, gpointer user)
{
        struct hunt *h = user;

        eval_candidate(h, data);
        g_mutex_lock(&h->lock);
        h->pending--;
        g_cond_signal(&h->done);
        g_mutex_unlock(&h->lock);
}

/* Evaluate @n candidates, on -j threads; results in place. */
static void eval_batch(struct hunt *h, struct heval *evs, int n)
{
        h->pending = n;
        for (int i = 0; i < n; i++)
                g_thread_pool_push(h->pool, &evs[i], NULL);
        g_mutex_lock(&h->lock);
        while (h->pending > 0)
                g_cond_wait(&h->done, &h->lock);
        g_mutex_unlock(&h->lock);
        for (int i = 0; i < n; i++)
                h->runs += (guint64)evs[i].runs;
}

static void heval_set(struct heval *ev, const struct hscn *s)
{
        memset(ev, 0, sizeof(*ev));
        ev->s = *s;
        ev->text = hscn_render(s, 1, NULL, NULL);
}

static void heval_clear(struct heval *ev)
{
        g_free(ev->text);
        g_free(ev->why);
        ev->text = ev->why = NULL;
}

static bool out_of_budget(const struct hunt *h)
{
        return (h->max_runs && h->runs >= h->max_runs) ||
               (h->deadline_us && g_get_monotonic_time() >= h->deadline_us) || cli_interrupt_status();
}

/* ---- shrinking ---- */

/* The nearest of 1, 2, 5 x 10^k ns (at least 1 us): what a person would write. */
static int64_t round_125(int64_t ns)
{
        int64_t best = NSEC_PER_USEC;

        for (int64_t p = NSEC_PER_USEC; p <= 100 * NSEC_PER_SEC; p *= 10)
                for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) {
                        int64_t v = p * m;

                        if (llabs(v - ns) < llabs(best - ns))
                                best = v;
                }
        return best;
}


/* Every one-step simplification of @s, simplest first; returns how many. */
static int reductions(const struct hscn *s, struct hscn *out, int max)
{
        int n = 0;

#define ADD(edit) do { if (n < max) { out[n] = *s; { struct hscn *c = &out[n]; edit; } n++; } } while (0)
        for (int i = s->ntasks - 1; i >= 0 && s->ntasks > 1; i--)
                ADD({ memmove(&c->tasks[i], &c->tasks[i + 1], (size_t)(c->ntasks - i - 1) * sizeof(c->tasks[0]));
                      c->ntasks--; });
        if (s->cpus > 1)
                ADD({ c->cpus--; for (int i = 0; i < c->ntasks; i++)
                                if (c->tasks[i].cpu >= c->cpus) c->tasks[i].cpu = c->cpus - 1; });
        if (s->duration_ns > 200 * NSEC_PER_MSEC)
                ADD({ c->duration_ns /= 2; });
        if (s->key >= 0)
                ADD({ c->key = -1; });
        if (s->tick_hz)
                ADD({ c->tick_hz = 0; });
        if (s->prio_change_ns)
                ADD({ c->prio_change_ns = 0; });
        if (s->prio_change_ns && round_2sig(s->prio_change_ns) != s->prio_change_ns)
                ADD({ c->prio_change_ns = round_2sig(s->prio_change_ns); });
        for (int i = 0; i < s->ntasks; i++) {
                const struct htask *t = &s->tasks[i];

                if (t->count > 1)
                        ADD({ c->tasks[i].count = 1; });
                if (t->nested)
                        ADD({ c->tasks[i].nested = false; });
                if (t->kind == HT_READER && t->mutex >= 0)
                        ADD({ c->tasks[i].mutex = -1; });
                if (t->kind == HT_READER && t->gap_ns)
                        ADD({ c->tasks[i].gap_ns = 0; });
                if (t->kind == HT_HOG && t->repeat)
                        ADD({ c->tasks[i].repeat = false; });
                if (t->event_ns)
                        ADD({ c->tasks[i].event_ns = 0; });
                if (t->kind == HT_SYNCER && t->mutex >= 0)
                        ADD({ c->tasks[i].mutex = -1; });
                if ((t->kind == HT_READER || t->kind == HT_UPDATER) && t->rt_prio)
                        ADD({ c->tasks[i].rt_prio = 0; });
                if (t->rt_prio % 10 && t->rt_prio > 10)
                        ADD({ c->tasks[i].rt_prio = t->rt_prio / 10 * 10; });
                if (t->cpu < 0 && s->cpus > 1)
                        ADD({ c->tasks[i].cpu = 0; });
                if (t->kind == HT_PERIODIC && (round_125(t->len_ns) != t->len_ns || round_125(t->gap_ns) != t->gap_ns))
                        ADD({ c->tasks[i].len_ns = round_125(t->len_ns); c->tasks[i].gap_ns = round_125(t->gap_ns); });
                if (t->len_ns && round_125(t->len_ns) != t->len_ns)
                        ADD({ c->tasks[i].len_ns = round_125(t->len_ns); });
                if (t->gap_ns && round_125(t->gap_ns) != t->gap_ns)
                        ADD({ c->tasks[i].gap_ns = round_125(t->gap_ns); });
                /* when 1-2-5 moves it too far: two digits */
                if (t->len_ns && round_2sig(t->len_ns) != t->len_ns)
                        ADD({ c->tasks[i].len_ns = round_2sig(t->len_ns); });
                if (t->gap_ns && round_2sig(t->gap_ns) != t->gap_ns)
                        ADD({ c->tasks[i].gap_ns = round_2sig(t->gap_ns); });
                if (t->start_ns && round_125(t->start_ns) != t->start_ns)
                        ADD({ c->tasks[i].start_ns = round_125(t->start_ns); });
        }
#undef ADD
        return n;
}

/* Shrink @best while it stays a finding for property @k, failing the same
 * way; @best gets the last failing evaluation. */
static void shrink(struct hunt *h, struct heval *best, int k)
{
        char mechanism[sizeof(best->mechanism[0])];
        struct hscn cand[64];
        struct heval evs[HUNT_BATCH];
        guint64 spent = 0;
        bool progress = true;

        g_strlcpy(mechanism, best->mechanism[k], sizeof(mechanism));
        while (progress && spent < 4000 && !cli_interrupt_status()) {
                int n = reductions(&best->s, cand, (int)G_N_ELEMENTS(cand));

                progress = false;
                for (int from = 0; from < n && !progress; from += HUNT_BATCH) {
                        int m = MIN(HUNT_BATCH, n - from);
                        guint64 before = h->runs;

                        for (int i = 0; i < m; i++)
                                heval_set(&evs[i], &cand[from + i]);
                        eval_batch(h, evs, m);
                        spent += h->runs - before;
                        for (int i = 0; i < m; i++) {
                                if (!progress && fails_prop(h, &evs[i], k) && !strcmp(evs[i].mechanism[k], mechanism)) {
                                        heval_clear(best);
                                        *best = evs[i];
                                        progress = true;
                                } else {
                                        heval_clear(&evs[i]);
                                }
                        }
                }
        }
}

/* ---- findings ---- */

static gboolean write_finding(struct hunt *h, const char *dir, int number, const struct heval *ev, int k,
                              uint64_t hunt_seed, GError **error)
{
        struct hprop *pr = &g_array_index(h->props, struct hprop, k);
        g_autofree char *stem = g_strdup_printf("%03d-%s", number, pr->name);
        g_autofree char *scn_name = g_strconcat(stem, ".scn", NULL);
        g_autofree char *txt_name = g_strconcat(stem, ".txt", NULL);
        g_autofree char *path = g_build_filename(dir, scn_name, NULL);
        GString *head = g_string_new(NULL);
        GString *expect = g_string_new(NULL);
        g_autofree char *text = NULL;
        char *line[2] = { NULL, NULL };
        uint64_t seed = ev->first_fail[k] ? ev->first_fail[k] : 1;
        struct outfile *o;

        for (int p = 0; p < 2 && h->policy[p]; p++) {
                if (!pr->x)
                        continue;
                if (pr->per_tick) {
                        g_autofree char *tick = fmt_ns(h->tick_ns[p]);

                        line[p] = g_strdup_printf("%s.boosted_outside_cs_ns<=%s", h->policy[p], tick);
                } else {
                        line[p] = g_strdup_printf("%s.%s", h->policy[p], pr->line);
                }
        }
        g_string_append_printf(head, "# %s -- found by `rcuboost hunt --policy %s%s%s%s --seed %" G_GUINT64_FORMAT
                               "`, then shrunk.\n", scn_name, h->policy[0], h->policy[1] ? " --versus " : "",
                               h->policy[1] ? h->policy[1] : "", h->given, hunt_seed);
        g_string_append_printf(head, "# %s fails %s in %d of %d seeds (the first: seed %" G_GUINT64_FORMAT
                               "; the stall report's first reader: %s)", h->policy[0], pr->line, ev->fails[0][k],
                               h->nseeds, seed, ev->mechanism[k]);
        if (h->policy[1])
                g_string_append_printf(head, "; %s holds it in all %d", h->policy[1], h->nseeds);
        g_string_append_printf(head, ".\n# `rcuboost check --policies %s%s%s %s` replays it: the %s line fails.\n"
                               "# %s: the failing run's summary and stall report.\n\n",
                               h->policy[0], h->policy[1] ? "," : "", h->policy[1] ? h->policy[1] : "", scn_name,
                               h->policy[0], txt_name);
        g_string_append_printf(expect, "seeds=%d\n", h->nseeds);
        if (line[0])
                g_string_append_printf(expect, "%s\n", line[0]);
        else
                g_string_append(expect, "# the run deadlocks: check reports it as a failed run\n");
        if (line[1])
                g_string_append_printf(expect, "%s\n", line[1]);
        g_free(line[0]);
        g_free(line[1]);
        text = hscn_render(&ev->s, 1, head->str, expect->str);
        g_string_free(head, TRUE);
        g_string_free(expect, TRUE);
        if (!output_set_contents(path, text, -1, error))
                return FALSE;
        /* the failing run again, for its summary and stall report */
        o = outfile_open(dir, txt_name, error);
        if (!o)
                return FALSE;
        {
                GError *e = NULL;
                struct scenario *sc = scenario_load_data(ev->text, path, NULL, &e);
                struct sim *sim = sc ? sim_new(sc, &(struct sim_options){ .policy = h->policy[0], .seed = seed,
                                                                          .seed_set = true }, &e) : NULL;

                if (sim) {
                        sim_run(sim);
                        if (!sim_finish(sim, &e))
                                fprintf(outfile_stream(o), "the run failed: %s\n\n", e->message);
                        if (sim_report(sim))
                                sim_print_summary(sim, outfile_stream(o));
                        sim_free(sim);
                } else {
                        fprintf(outfile_stream(o), "cannot replay: %s\n", e ? e->message : "?");
                }
                g_clear_error(&e);
                scenario_free(sc);
        }
        return outfile_commit(o, error);
}

/* ---- the search ---- */

/* "500runs" / "500": a number of simulations; else a duration ("10min"). */
static gboolean parse_budget(const char *s, guint64 *runs, gint64 *wall_us, GError **error)
{
        g_autofree char *t = g_strstrip(g_strdup(s));
        char *end = NULL;
        guint64 n = g_ascii_strtoull(t, &end, 10);
        int64_t ns;

        if (end != t && (!*end || !strcmp(end, "runs") || !strcmp(end, " runs"))) {
                if (n == 0) {
                        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--budget %s: at least one run",
                                    s);
                        return FALSE;
                }
                *runs = n;
                return TRUE;
        }
        if (!units_parse_duration(t, &ns, NULL) || ns <= 0) {
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "--budget %s: expected a number of runs (500 or 500runs) or a wall-clock time (90s, "
                            "10min)", s);
                return FALSE;
        }
        *wall_us = ns / NSEC_PER_USEC;
        return TRUE;
}

/* Keep the HUNT_CORPUS candidates nearest to failing, best first; a tie
 * keeps the earlier (deterministic). */
static void corpus_offer(GArray *corpus, struct heval *ev)
{
        guint at = corpus->len;

        while (at > 0 && g_array_index(corpus, struct heval, at - 1).margin < ev->margin)
                at--;
        if (at >= HUNT_CORPUS) {
                heval_clear(ev);
                return;
        }
        g_array_insert_val(corpus, at, *ev);
        if (corpus->len > HUNT_CORPUS) {
                heval_clear(&g_array_index(corpus, struct heval, corpus->len - 1));
                g_array_set_size(corpus, HUNT_CORPUS);
        }
}

static int64_t policy_tick(const char *policy)
{
        struct hscn s = { .key = -1, .cpus = 1, .duration_ns = NSEC_PER_SEC, .ntasks = 0 };
        g_autofree char *text = hscn_render(&s, 1, NULL, NULL);
        struct scenario *sc = scenario_load_data(text, "hunt.scn", NULL, NULL);
        struct kernel_env env;
        int64_t tick = NSEC_PER_MSEC;

        if (sc && sim_kernel_env(sc, policy, &env, NULL))
                tick = NSEC_PER_SEC / env.tick_hz;
        scenario_free(sc);
        return tick;
}

int cli_hunt(int argc, char **argv)
{
        g_autofree char *policy = NULL, *versus = NULL, *budget = NULL, *seed_text = NULL;
        g_autofree char *out = NULL;
        g_auto(GStrv) property = NULL;
        int seeds = 3, jobs = 0, max_findings = 5;
        gboolean quiet = FALSE;
        const GOptionEntry entries[] = {
                { "policy", 'p', 0, G_OPTION_ARG_STRING, &policy, "The policy to break (a name or a module path)",
                  "P" },
                { "versus", 0, 0, G_OPTION_ARG_STRING, &versus,
                  "Find only where P fails a property that Q holds on the same scenario and seeds", "Q" },
                { "property", 0, 0, G_OPTION_ARG_STRING_ARRAY, &property,
                  "A property to break, as an [expect] line without its policy (repeatable; e.g. "
                  "gp_max_at_least<=100ms); the defaults are always checked", "EXPR" },
                { "budget", 'b', 0, G_OPTION_ARG_STRING, &budget,
                  "Runs (500, 500runs) or wall-clock time (90s, 10min) to spend (default 1000runs)", "B" },
                { "seed", 's', 0, G_OPTION_ARG_STRING, &seed_text, "The search's own seed (default 1)", "S" },
                { "seeds", 'n', 0, G_OPTION_ARG_INT, &seeds, "Seeds each candidate runs under (default 3)", "N" },
                { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "Runs in parallel (default: one per CPU)", "J" },
                { "max-findings", 0, 0, G_OPTION_ARG_INT, &max_findings, "Stop after this many (default 5)", "N" },
                { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out,
                  "Output directory (default out/hunt-P, or out/hunt-P-vs-Q)", "DIR" },
                { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "No progress on stderr", NULL },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("- search generated scenarios for one that breaks a "
                                                             "policy, and shrink it");
        const struct boost_policy_ops *ops[2] = { NULL, NULL };
        struct hunt h = { 0 };
        g_autoptr(GArray) corpus = g_array_new(FALSE, TRUE, sizeof(struct heval));
        struct hscn novel[HUNT_NOVEL];
        int nnovel = 0, novel_next = 0;
        uint64_t seen[64] = { 0 };
        int edges = 0;
        g_autofree char *findings_dir = NULL;
        static const char *const ours[] = { "hunt.txt", "findings/", NULL };
        static const char *const finding_files[] = { "*.scn", "*.txt", NULL };
        g_autoptr(GHashTable) found = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        int nfound = 0, lock, status = EXIT_OK;
        uint64_t hunt_seed = 1;
        guint64 batches = 0;
        double best_margin = 0;
        GString *log = g_string_new(NULL);
        GError *e = NULL;

        g_option_context_add_main_entries(ctx, entries, NULL);
        g_option_context_set_description(ctx,
                "Generates scenarios from a grammar of the scenario language (CPUs, tick, readers with\n"
                "classes, affinities, section lengths, nesting and mutexes; RT hogs; call_rcu updaters and\n"
                "synchronize_rcu callers; periodic RT tasks; mutex owners; device interrupts; [event]s that\n"
                "change a class; P's own [policy] keys), runs each under P (and Q) over --seeds seeds, and\n"
                "checks the properties:\n"
                "no safety violation, no OOM (32 MiB), no deadlock, no task boosted outside its critical\n"
                "section for more than a tick, and each --property.  A finding fails P in at least half\n"
                "the seeds (and holds under Q in all); it is shrunk and written to DIR/findings/NNN-PROPERTY.scn\n"
                "with the failing [expect] line, beside NNN-PROPERTY.txt (the failing run's summary and stall\n"
                "report).  The same --seed and run budget give the same findings, whatever -j.\n"
                "docs/hunt.md explains the grammar, the guidance and the shrinker.\n\n"
                "Exit status: 0 nothing found; 1 findings written; 2 bad input; 130/143 interrupted\n"
                "(what was found is kept).");
        if (!cli_parse_options(ctx, &argc, &argv, &status))
                return status;
        if (argc > 1)
                return cli_usage_error(ctx, "hunt: unexpected argument '%s' (it generates its own scenarios)",
                                       argv[1]);
        if (!policy)
                return cli_usage_error(ctx, "hunt: which policy? --policy P (rcuboost policies lists them)");
        for (int p = 0; p < 2; p++) {
                const char *name = p ? versus : policy;

                if (!name || (ops[p] = cli_find_policy(name, &status)))
                        continue;
                if (status != EXIT_OK)
                        return status;
                g_autofree char *near = cli_policy_suggest(name);

                return cli_usage_error(ctx, "hunt: %s: unknown policy '%s' (%s%s%sexpected one of: %s, or a policy "
                                       "module's path)", p ? "--versus" : "--policy", name, near ? "did you mean " : "",
                                       near ? near : "", near ? "? " : "", policy_names());
        }
        if (ops[1] == ops[0])
                return cli_usage_error(ctx, "hunt: --versus %s is the policy hunted", versus);
        if (seeds < 1 || seeds > 100)
                return cli_usage_error(ctx, "hunt: --seeds %d: expected 1..100", seeds);
        if (max_findings < 1)
                return cli_usage_error(ctx, "hunt: --max-findings %d: at least 1", max_findings);
        if (seed_text && !cli_parse_seed(seed_text, &hunt_seed))
                return cli_usage_error(ctx, "hunt: --seed '%s': expected a non-negative integer", seed_text);
        h.policy[0] = ops[0]->name;
        h.policy[1] = ops[1] ? ops[1]->name : NULL;
        h.nseeds = seeds;
        g_autoptr(GArray) props = default_props();

        h.props = props;
        for (char **p = property; p && *p; p++) {
                struct hprop pr;

                if (h.props->len >= 16)
                        return cli_usage_error(ctx, "hunt: at most 12 --property");
                if (!hprop_parse(*p, &pr, &e)) {
                        status = cli_usage_error(ctx, "hunt: %s", e->message);
                        g_error_free(e);
                        return status;
                }
                g_array_append_val(h.props, pr);
        }
        h.max_runs = 1000;
        if (budget) {
                h.max_runs = 0;
                if (!parse_budget(budget, &h.max_runs, &h.deadline_us, &e)) {
                        status = cli_usage_error(ctx, "hunt: %s", e->message);
                        g_error_free(e);
                        return status;
                }
                if (h.deadline_us)
                        h.deadline_us += g_get_monotonic_time();
        }
        for (int p = 0; p < 2 && h.policy[p]; p++)
                h.tick_ns[p] = policy_tick(h.policy[p]);
        g_autofree char *props_given = property ? g_strjoinv("' --property '", property) : NULL;
        g_autofree char *props_shown = props_given ? g_strdup_printf(" --property '%s'", props_given) : g_strdup("");

        h.given = props_shown;
        if (!out)
                out = h.policy[1] ? g_strdup_printf("out/hunt-%s-vs-%s", h.policy[0], h.policy[1])
                                  : g_strdup_printf("out/hunt-%s", h.policy[0]);
        findings_dir = g_build_filename(out, "findings", NULL);
        cli_catch_signals();
        (void)cli_interrupt_flag();     /* armed: a signal ends the batch in progress, then the hunt */
        lock = output_dir_claim(out, "hunt", ours, &e);
        if (lock < 0 || (g_file_test(findings_dir, G_FILE_TEST_IS_DIR) &&
                         !output_dir_remove(findings_dir, "hunt-findings", finding_files, &e))) {
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                return EXIT_USAGE;
        }
        h.rng = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(h.rng, hunt_seed);
        h.jobs = jobs > 0 ? jobs : (int)g_get_num_processors();
        g_mutex_init(&h.lock);
        g_cond_init(&h.done);
        h.pool = g_thread_pool_new(pool_work, &h, h.jobs, TRUE, NULL);
        h.tty = !quiet && isatty(fileno(stderr));
        if (!quiet)
                fprintf(stderr, "rcuboost: hunting %s%s%s over %d seed%s per candidate, %s%s (%d at a time)\n",
                        h.policy[0], h.policy[1] ? " versus " : "", h.policy[1] ? h.policy[1] : "", seeds,
                        seeds == 1 ? "" : "s", budget ? "budget " : "budget 1000runs",
                        budget ? budget : "", h.jobs);

        gint64 started_us = g_get_monotonic_time();

        while (!out_of_budget(&h) && nfound < max_findings) {
                struct heval evs[HUNT_BATCH];

                for (int i = 0; i < HUNT_BATCH; i++) {
                        struct hscn s;

                        unsigned long how = gsl_rng_uniform_int(h.rng, 4);

                        if (how < 2 || (how == 2 && corpus->len == 0) || (how == 3 && nnovel == 0)) {
                                hscn_random(h.rng, ops[0], ops[1], &s);
                        } else {
                                s = how == 2 ? g_array_index(corpus, struct heval,
                                                             gsl_rng_uniform_int(h.rng, corpus->len)).s
                                             : novel[gsl_rng_uniform_int(h.rng, (unsigned long)nnovel)];
                                for (int m = 1 + (int)gsl_rng_uniform_int(h.rng, 3); m > 0; m--)
                                        hscn_mutate(h.rng, &s);
                        }
                        heval_set(&evs[i], &s);
                }
                eval_batch(&h, evs, HUNT_BATCH);
                batches++;
                for (int i = 0; i < HUNT_BATCH; i++) {
                        struct heval *ev = &evs[i];
                        int k = -1;
                        char *what = NULL;

                        /* one finding per property and mechanism: a stall behind a preempted
                         * reader and one behind a mutex owner are two bugs */
                        for (guint j = 0; j < h.props->len && k < 0; j++) {
                                if (!fails_prop(&h, ev, (int)j))
                                        continue;
                                what = g_strdup_printf("%u:%s", j, ev->mechanism[j]);
                                if (g_hash_table_contains(found, what))
                                        g_clear_pointer(&what, g_free);
                                else
                                        k = (int)j;
                        }
                        if (ev->bad) {
                                g_string_append_printf(log, "a generated candidate was refused: %s\n",
                                                       ev->why);
                                heval_clear(ev);
                                continue;
                        }
                        {
                                bool new_edge = false;

                                for (int w = 0; w < 64; w++)
                                        if (ev->cov[w] & ~seen[w]) {
                                                edges += __builtin_popcountll(ev->cov[w] & ~seen[w]);
                                                seen[w] |= ev->cov[w];
                                                new_edge = true;
                                        }
                                if (new_edge) {         /* kept, whatever its margin */
                                        novel[novel_next] = ev->s;
                                        novel_next = (novel_next + 1) % HUNT_NOVEL;
                                        nnovel = MIN(nnovel + 1, HUNT_NOVEL);
                                }
                        }
                        if (k < 0 || nfound >= max_findings) {
                                best_margin = MAX(best_margin, ev->margin);
                                corpus_offer(corpus, ev);
                                continue;
                        }
                        struct hprop *pr = &g_array_index(h.props, struct hprop, k);
                        guint64 found_at = h.runs;

                        if (!quiet)
                                fprintf(stderr, "%srcuboost: found: %s fails %s (%d of %d seeds); shrinking...\n",
                                        h.tty ? "\r\033[K" : "", h.policy[0], pr->line, ev->fails[0][k], seeds);
                        shrink(&h, ev, k);
                        g_hash_table_add(found, what);
                        nfound++;
                        if (!write_finding(&h, findings_dir, nfound, ev, k, hunt_seed, &e)) {
                                fprintf(stderr, "rcuboost: %s\n", e->message);
                                g_clear_error(&e);
                                status = EXIT_FAILED;
                        }
                        g_string_append_printf(log, "finding %03d: %s fails %s in %d of %d seeds (%s); found after %"
                                               G_GUINT64_FORMAT " runs, shrunk to %d tasks on %d CPU%s in %"
                                               G_GUINT64_FORMAT " more\n", nfound, h.policy[0], pr->line,
                                               ev->fails[0][k], seeds, ev->mechanism[k], found_at, ev->s.ntasks, ev->s.cpus,
                                               ev->s.cpus == 1 ? "" : "s", h.runs - found_at);
                        if (!quiet)
                                fprintf(stderr, "rcuboost: wrote %s/%03d-%s.scn\n", findings_dir, nfound, pr->name);
                        heval_clear(ev);
                }
                if (h.tty) {
                        gint64 now = g_get_monotonic_time();
                        double left_s = h.deadline_us ? (h.deadline_us - now) / 1e6
                                        : h.runs ? (now - started_us) / 1e6 * ((double)h.max_runs - (double)h.runs) /
                                                   (double)h.runs : 0;

                        fprintf(stderr, "\r\033[Krcuboost: %" G_GUINT64_FORMAT " runs, %d finding%s, best margin %.2f, "
                                "%d policy transitions, about %.0f s left", h.runs, nfound, nfound == 1 ? "" : "s",
                                best_margin, edges, MAX(0, left_s));
                }
        }
        if (h.tty)
                fputs("\r\033[K", stderr);
        g_thread_pool_free(h.pool, FALSE, TRUE);
        {
                g_autofree char *summary_path = g_build_filename(out, "hunt.txt", NULL);
                g_autofree char *summary = g_strdup_printf(
                        "rcuboost hunt --policy %s%s%s%s --seed %" G_GUINT64_FORMAT " --seeds %d --budget %s\n"
                        "%" G_GUINT64_FORMAT " runs in %" G_GUINT64_FORMAT " batches; %d finding%s%s\n"
                        "nearest approach to failing among the rest: %.3f of the bound\n"
                        "policy state transitions seen: %d\n%s",
                        h.policy[0], h.policy[1] ? " --versus " : "", h.policy[1] ? h.policy[1] : "", props_shown,
                        hunt_seed, seeds, budget ? budget : "1000runs", h.runs, batches, nfound, nfound == 1 ? "" : "s",
                        cli_interrupt_status() ? " (interrupted)" : "", best_margin, edges, log->str);

                if (!output_set_contents(summary_path, summary, -1, &e)) {
                        fprintf(stderr, "rcuboost: %s\n", e->message);
                        g_clear_error(&e);
                        status = EXIT_FAILED;
                }
        }
        if (!quiet || nfound == 0) {
                if (nfound)
                        fprintf(stderr, "rcuboost: %d finding%s in %s/ (%" G_GUINT64_FORMAT " runs)\n", nfound,
                                nfound == 1 ? "" : "s", findings_dir, h.runs);
                else
                        printf("rcuboost: nothing found in %" G_GUINT64_FORMAT " runs: %s held every property "
                               "(nearest approach: %.2f of a bound)\n", h.runs, h.policy[0], best_margin);
        }
        for (guint i = 0; i < corpus->len; i++)
                heval_clear(&g_array_index(corpus, struct heval, i));
        g_string_free(log, TRUE);
        gsl_rng_free(h.rng);
        g_mutex_clear(&h.lock);
        g_cond_clear(&h.done);
        output_dir_unlock(lock);
        if (cli_interrupt_status())
                return cli_interrupt_status();
        return status != EXIT_OK ? status : nfound ? EXIT_FAILED : EXIT_OK;
}
