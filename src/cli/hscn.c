/* hscn.c - hunt's grammar: generate, mutate, render and simplify a
 * scenario's syntax tree (hscn.h; docs/hunt.md "The grammar"). */
#include "hscn.h"

#include <glib.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/engine/eventq.h"
#include "../sim/scenario/units.h"

static const char *const kind_prefix[] = { "reader", "hog", "updater", "cyclic", "owner", "syncer", "irq" };

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
                /* never holding a mutex a reader takes: that deadlocks under every policy
                 * (a bug in the scenario, not the policy), and which policy's timing
                 * meets it first is luck -- a --versus hunt took it for a difference */
                break;
        case HT_IRQ:            /* a device interrupt's thread, FIFO 50 unless changed */
                t->rt_prio = gsl_rng_uniform_int(r, 2) ? 50 : 1 + (int)gsl_rng_uniform_int(r, 98);
                t->cpu = (int)gsl_rng_uniform_int(r, (unsigned long)s->cpus);
                t->gap_ns = pick_ns(r, 50 * NSEC_PER_USEC, 10 * NSEC_PER_MSEC);
                t->len_ns = MAX(NSEC_PER_USEC, t->gap_ns / (4 + (int64_t)gsl_rng_uniform_int(r, 40)));
                break;
        case HT_OWNER:
                t->rt_prio = 0;
                /* m0, which readers take; one in four holds m1 instead, the end of a chain
                 * that one in three owners of m0 begins by taking m1 inside m0 */
                t->mutex = gsl_rng_uniform_int(r, 4) == 0 ? 1 : 0;
                t->chain = t->mutex == 0 && gsl_rng_uniform_int(r, 3) == 0;
                t->len_ns = pick_ns(r, 100 * NSEC_PER_USEC, 50 * NSEC_PER_MSEC);
                t->gap_ns = pick_ns(r, 100 * NSEC_PER_USEC, 10 * NSEC_PER_MSEC);
                break;
        case HT_KINDS:
                break;
        }
}

/* After the CPUs went down: what was pinned to a CPU gone goes to the last. */
static void fit_cpus(struct hscn *s)
{
        for (int i = 0; i < s->ntasks; i++) {
                struct htask *t = &s->tasks[i];

                t->cpu = MIN(t->cpu, s->cpus - 1);
                t->event_cpu = MIN(t->event_cpu, s->cpus - 1);
        }
}

/* Append a random task of @kind (room permitting); an owner that begins a
 * chain brings the owner of m1 it will wait on. */
static void add_task(gsl_rng *r, struct hscn *s, enum htask_kind kind)
{
        struct htask *t;

        if (s->ntasks >= HSCN_MAX_TASKS)
                return;
        t = &s->tasks[s->ntasks++];
        task_random(r, s, kind, t);
        if (t->chain && s->ntasks < HSCN_MAX_TASKS) {
                struct htask *end = &s->tasks[s->ntasks++];

                task_random(r, s, HT_OWNER, end);
                end->mutex = 1;
                end->chain = false;
        }
}

/* A duration as the scenario language writes it, exactly: 3ms, 250us, 1234ns. */
char *hscn_format_ns(int64_t ns)
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
                v = hscn_format_ns(round_2sig(ns));
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

void hscn_random(gsl_rng *r, const struct boost_policy_ops *ops, const struct boost_policy_ops *versus,
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

                add_task(r, s, more[gsl_rng_uniform_int(r, G_N_ELEMENTS(more))]);
        }
}

/* One edit of the tree: a task added, removed or changed, or the CPUs. */
void hscn_mutate(gsl_rng *r, struct hscn *s)
{
        struct htask *t = &s->tasks[gsl_rng_uniform_int(r, (unsigned long)s->ntasks)];
        int step = gsl_rng_uniform_int(r, 2) ? 1 : -1;  /* drawn once: CLAMP() reads its argument thrice */

        switch (gsl_rng_uniform_int(r, 11)) {
        case 0:
                add_task(r, s, (enum htask_kind)gsl_rng_uniform_int(r, HT_KINDS));
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
        case 9:         /* an [event] changes the task's class, or moves it, at some time */
                if (t->kind == HT_READER || t->kind == HT_HOG) {
                        t->event_ns = t->event_ns ? 0 : pick_ns(r, 10 * NSEC_PER_MSEC, s->duration_ns);
                        t->event_prio = gsl_rng_uniform_int(r, 3) ? 1 + (int)gsl_rng_uniform_int(r, 98) : 0;
                        t->event_moves = s->cpus > 1 && gsl_rng_uniform_int(r, 3) == 0;
                        t->event_cpu = (int)gsl_rng_uniform_int(r, (unsigned long)s->cpus);
                }
                break;
        default:
                s->cpus = CLAMP(s->cpus + step, 1, 4);
                fit_cpus(s);
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

/* Does any task take mutex m@m? */
static bool uses_mutex(const struct hscn *s, int m)
{
        for (int i = 0; i < s->ntasks; i++)
                if (s->tasks[i].mutex == m || (m == 1 && s->tasks[i].chain))
                        return true;
        return false;
}

/* The scenario file for @s, with @expect (the [expect] section's lines) and @header (comment lines). */
char *hscn_render(const struct hscn *s, uint64_t seed, const char *header, const char *expect)
{
        GString *o = g_string_new(header ? header : "");
        int index[HT_KINDS] = { 0 };
        g_autofree char *dur = hscn_format_ns(s->duration_ns);

        g_string_append_printf(o, "[scenario]\ncpus=%d\nduration=%s\nseed=%" G_GUINT64_FORMAT "\n", s->cpus, dur,
                               seed);
        if (s->tick_hz)
                g_string_append_printf(o, "tick_hz=%d\n", s->tick_hz);
        g_string_append(o, "\n[rcu]\nmemory_limit=32MiB\n\n");
        if (s->prio_change_ns) {
                g_autofree char *pc = hscn_format_ns(s->prio_change_ns);

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
        for (int m = 0; m < 2; m++)
                if (uses_mutex(s, m))
                        g_string_append_printf(o, "[mutex:m%d]\n\n", m);
        for (int i = 0; i < s->ntasks; i++) {
                const struct htask *t = &s->tasks[i];
                g_autofree char *sched = sched_of(t->rt_prio);
                g_autofree char *len = hscn_format_ns(t->len_ns);
                g_autofree char *gap = hscn_format_ns(t->gap_ns);
                g_autofree char *start = hscn_format_ns(t->start_ns);

                if (t->kind == HT_IRQ) {
                        g_string_append_printf(o, "[irq:%s%d]\ncpu=%d\nsched=%s\ninterval=exp(%s)\nhandler=%s\n\n",
                                               kind_prefix[t->kind], index[t->kind]++, t->cpu, sched, gap, len);
                        continue;
                }
                /* the defaults go unsaid: SCHED_NORMAL nice 0, and any CPU of one */
                g_string_append_printf(o, "[task:%s%d]\n", kind_prefix[t->kind], index[t->kind]++);
                if (t->rt_prio)
                        g_string_append_printf(o, "sched=%s\n", sched);
                if (t->cpu >= 0 && s->cpus > 1)
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
                        if (t->chain)
                                g_string_append_printf(o, "program=loop { lock m0; lock m1; compute exp(%s); unlock m1; "
                                                       "unlock m0; sleep exp(%s) }\n", len, gap);
                        else
                                g_string_append_printf(o, "program=loop { lock m%d; compute exp(%s); unlock m%d; "
                                                       "sleep exp(%s) }\n", t->mutex, len, t->mutex, gap);
                        break;
                case HT_SYNCER:
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
                        g_autofree char *at = hscn_format_ns(t->event_ns);
                        g_autofree char *sched = sched_of(t->event_prio);

                        g_string_append_printf(o, "[event:e%d]\nat=%s\ntask=%s%d\n", i, at, kind_prefix[t->kind], n);
                        if (t->event_moves)
                                g_string_append_printf(o, "affinity=%d\n\n", t->event_cpu);
                        else
                                g_string_append_printf(o, "sched=%s\n\n", sched);
                }
        }
        if (expect)
                g_string_append_printf(o, "[expect]\n%s", expect);
        return g_string_free(o, FALSE);
}

/* ---- shrinking: the one-step simplifications ---- */

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


/* One significant digit (at least 1 us): 73 ms -> 70 ms, between 1-2-5 and two digits. */
static int64_t round_1sig(int64_t ns)
{
        int64_t p = NSEC_PER_USEC;

        while (ns / p >= 10)
                p *= 10;
        return MAX(NSEC_PER_USEC, (ns + p / 2) / p * p);
}

/* Every one-step simplification of @s, simplest first; returns how many. */
int hscn_reductions(const struct hscn *s, struct hscn *out, int max)
{
        int n = 0;

#define ADD(edit) do { if (n < max) { out[n] = *s; { struct hscn *c = &out[n]; edit; } n++; } } while (0)
#define ADD_ROUNDED(field) do { \
                if (t->field && round_1sig(t->field) != t->field && round_1sig(t->field) != round_125(t->field)) \
                        ADD({ c->tasks[i].field = round_1sig(t->field); }); \
                if (t->field && round_2sig(t->field) != t->field && round_2sig(t->field) != round_1sig(t->field)) \
                        ADD({ c->tasks[i].field = round_2sig(t->field); }); \
        } while (0)
        for (int i = s->ntasks - 1; i >= 0 && s->ntasks > 1; i--)
                ADD({ memmove(&c->tasks[i], &c->tasks[i + 1], (size_t)(c->ntasks - i - 1) * sizeof(c->tasks[0]));
                      c->ntasks--; });
        if (s->cpus > 1)
                ADD({ c->cpus--; fit_cpus(c); });
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
                if (t->chain)
                        ADD({ c->tasks[i].chain = false; });
                if ((t->kind == HT_READER || t->kind == HT_UPDATER) && t->rt_prio)
                        ADD({ c->tasks[i].rt_prio = 0; });
                if (t->rt_prio % 10 && t->rt_prio > 10)
                        ADD({ c->tasks[i].rt_prio = t->rt_prio / 10 * 10; });
                /* a pinned task set free (a hog or an interrupt stays where it is); never the
                 * other way too, or two edits would undo each other for ever */
                if (t->cpu >= 0 && s->cpus > 1 && t->kind != HT_HOG && t->kind != HT_IRQ)
                        ADD({ c->tasks[i].cpu = -1; });
                if (t->kind == HT_PERIODIC && (round_125(t->len_ns) != t->len_ns || round_125(t->gap_ns) != t->gap_ns))
                        ADD({ c->tasks[i].len_ns = round_125(t->len_ns); c->tasks[i].gap_ns = round_125(t->gap_ns); });
                if (t->len_ns && round_125(t->len_ns) != t->len_ns)
                        ADD({ c->tasks[i].len_ns = round_125(t->len_ns); });
                if (t->gap_ns && round_125(t->gap_ns) != t->gap_ns)
                        ADD({ c->tasks[i].gap_ns = round_125(t->gap_ns); });
                if (t->start_ns && round_125(t->start_ns) != t->start_ns)
                        ADD({ c->tasks[i].start_ns = round_125(t->start_ns); });
                if (t->event_ns && round_125(t->event_ns) != t->event_ns)
                        ADD({ c->tasks[i].event_ns = round_125(t->event_ns); });
                /* when 1-2-5 moves it too far: one digit, else two (any change re-rolls the
                 * run's timing, so each is another chance to keep the failure) */
                ADD_ROUNDED(len_ns);
                ADD_ROUNDED(gap_ns);
                ADD_ROUNDED(start_ns);
                ADD_ROUNDED(event_ns);
        }
#undef ADD_ROUNDED
#undef ADD
        return n;
}

/* ---- a tree as one line (hunt's corpus and saved state) ---- */

char *hscn_serialize(const struct hscn *s)
{
        GString *o = g_string_new(NULL);

        g_string_append_printf(o, "hscn1 %d %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %d %d %s %d", s->cpus,
                               (gint64)s->duration_ns, (gint64)s->prio_change_ns, s->tick_hz, s->key,
                               *s->value ? s->value : "-", s->ntasks);
        for (int i = 0; i < s->ntasks; i++) {
                const struct htask *t = &s->tasks[i];

                g_string_append_printf(o, " | %d %d %d %d %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT
                                       " %d %d %d %d %d %" G_GINT64_FORMAT " %d %d %d", t->kind, t->rt_prio, t->cpu,
                                       t->count, (gint64)t->start_ns, (gint64)t->len_ns, (gint64)t->gap_ns, t->mutex,
                                       t->chain, t->nested, t->kib, t->repeat, (gint64)t->event_ns, t->event_prio,
                                       t->event_moves, t->event_cpu);
        }
        return g_string_free(o, FALSE);
}

bool hscn_parse(const char *line, const struct boost_policy_ops *ops, const struct boost_policy_ops *versus,
                struct hscn *s)
{
        g_auto(GStrv) parts = g_strsplit(line, " | ", -1);
        char value[sizeof(s->value)];
        gint64 dur, pc;
        int n = 0;

        memset(s, 0, sizeof(*s));
        if (!parts[0] || sscanf(parts[0], "hscn1 %d %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %d %d %31s %d%n",
                                &s->cpus, &dur, &pc, &s->tick_hz, &s->key, value, &s->ntasks, &n) != 7 ||
            parts[0][n] || s->ntasks < 1 || s->ntasks > HSCN_MAX_TASKS || (int)g_strv_length(parts) != s->ntasks + 1 ||
            s->cpus < 1 || s->cpus > 64 || dur <= 0 || pc < 0 || s->key < -1 ||
            (s->key >= 0 && (!ops || !ops->keys)))
                return false;
        for (int k = 0; s->key >= 0 && k <= s->key; k++)
                if (!ops->keys[k].name)
                        return false;
        s->ops = ops;
        s->versus = versus;
        s->duration_ns = dur;
        s->prio_change_ns = pc;
        g_strlcpy(s->value, strcmp(value, "-") ? value : "", sizeof(s->value));
        for (int i = 0; i < s->ntasks; i++) {
                struct htask *t = &s->tasks[i];
                int kind, chain, nested, repeat, moves;
                gint64 start, len, gap, event;

                n = 0;
                if (sscanf(parts[i + 1], "%d %d %d %d %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT
                           " %d %d %d %d %d %" G_GINT64_FORMAT " %d %d %d%n", &kind, &t->rt_prio, &t->cpu, &t->count,
                           &start, &len, &gap, &t->mutex, &chain, &nested, &t->kib, &repeat, &event, &t->event_prio,
                           &moves, &t->event_cpu, &n) != 16 || parts[i + 1][n] || kind < 0 || kind >= HT_KINDS ||
                    t->rt_prio < 0 || t->rt_prio > 98 || t->cpu < -1 || t->cpu >= s->cpus || t->count < 1 ||
                    t->count > 64 || t->mutex < -1 || t->mutex > 1 || t->event_prio < 0 || t->event_prio > 98 ||
                    t->event_cpu < 0 || t->event_cpu >= s->cpus || start < 0 || len < 0 || gap < 0 || event < 0)
                        return false;
                t->kind = (enum htask_kind)kind;
                t->chain = chain, t->nested = nested, t->repeat = repeat, t->event_moves = moves;
                t->start_ns = start, t->len_ns = len, t->gap_ns = gap, t->event_ns = event;
        }
        return true;
}
