/* hunt/eval.c - evaluating a candidate: its runs under each policy and seed,
 * in a batch of parallel jobs (docs/hunt.md). */
#include "../cli.h"
#include "../hscn.h"
#include "../scnedit.h"
#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>
#include "../../policies/policy.h"
#include "../../sim/engine/coverage.h"
#include "../../sim/scenario/expect.h"
#include "../../sim/scenario/kernel.h"
#include "../../sim/output/output.h"
#include "../../sim/output/report.h"
#include "../../sim/scenario/scenario.h"
#include "../../sim/sim.h"
#include "../../sim/scenario/units.h"

#include "hunt.h"

/* The stall report's first kernel thread that could not run and is the
 * policy's own (its booster), or else one whose schedule_timeout() expired
 * unseen (a timer's thread starved): its index, or -1; @policy says which. */
static int starved_kthread(const struct report *r, const struct sim *sim, bool *policy)
{
        double n = 0;
        int timer = -1;

        report_lookup(r, "stall_report.kthread_count", &n);
        for (int i = 0; i < (int)n; i++) {
                char key[64];
                const char *task, *why;

                g_snprintf(key, sizeof(key), "stall_report.kthreads.%d.task", i);
                task = report_lookup_string(r, key);
                g_snprintf(key, sizeof(key), "stall_report.kthreads.%d.why", i);
                why = report_lookup_string(r, key);
                if (task && sim && sim_is_policy_thread(sim, task)) {
                        *policy = true;
                        return i;
                }
                if (timer < 0 && why && strstr(why, "schedule_timeout() expired"))
                        timer = i;
        }
        *policy = false;
        return timer;
}

/* How a run failed @pr, for telling findings apart, in @buf (#50: the
 * cause, not only the reader's state).  A boost left behind was never
 * undone or was undone late.  A stall: the policy's own thread could not
 * run (whatever state the reader was left in: one hog above the booster is
 * one finding), or a timer it waits on expired in a thread that could not
 * run; else the first reader the stall report names, its state
 * ("preempted", "blocked on a mutex"), " (RT)" for a reader of an RT class
 * (a hole of its own: the Nov 2006 code boosts none), and whether it was
 * boosted then -- boosted and still kept off its CPU is another fault than
 * never boosted; or another kernel thread that could not run, or "no
 * stall". */
static void mechanism_of(const struct hprop *pr, const struct report *r, const struct sim *sim, char *buf,
                         size_t size)
{
        const char *state = report_lookup_string(r, "stall_report.readers.0.state");
        const char *normal = report_lookup_string(r, "stall_report.readers.0.normal_prio");
        const char *prio = report_lookup_string(r, "stall_report.readers.0.prio");
        double kthreads = 0, still = 0;
        bool policy = false;

        if (pr->per_tick)
                g_strlcpy(buf, report_lookup(r, "policy_stats.readers_still_boosted", &still) && still > 0
                               ? "never unboosted" : "unboosted late", size);
        else if (starved_kthread(r, sim, &policy) >= 0)
                g_strlcpy(buf, policy ? "the policy's thread starved" : "a timer's thread starved", size);
        else if (state)
                g_snprintf(buf, size, "%s%s%s", state, normal && g_str_has_prefix(normal, "rt:") ? " (RT)" : "",
                           !strcmp(state, "running") ? ""      /* on its CPU: a boost is beside the point */
                           : prio && normal && strcmp(prio, normal) != 0 ? ", boosted" : ", not boosted");
        else if (report_lookup(r, "stall_report.kthread_count", &kthreads) && kthreads > 0)
                g_strlcpy(buf, "a kernel thread starved", size);
        else
                g_strlcpy(buf, "no stall", size);
}

/* The finding's story, from its failing run @sim: who held the grace
 * period and what kept it, or which boost stayed and what happened to the
 * boosted task first (@bits: the run's engine events, coverage.h). */
char *hunt_cause_of(const struct hprop *pr, const struct report *r, const struct sim *sim, const uint64_t *bits)
{
        GString *s = g_string_new(NULL);
        bool policy = false;
        int k = starved_kthread(r, sim, &policy);
        char key[64];
        double kthreads = 0;

        if (pr->per_tick) {
                static const struct {
                        enum engine_event e;
                        const char *what;
                } after[] = {
                        { EE_MIGRATE_BOOSTED, "a boosted task moved to another CPU" },
                        { EE_CLASS_CHANGE_BOOSTED, "a boosted task's class changed" },
                        { EE_AFFINITY_CHANGE_BOOSTED, "a boosted task's affinity changed" },
                        { EE_PI_FROM_BOOST, "a boost travelled through a mutex to its owner" },
                        { EE_BOOST_OUTSIDE, "a task was boosted outside any section" },
                        { EE_BOOST_RUNNING, "a boost landed on a reader already back on its CPU" },
                        { EE_LEAVE_SECTION_BOOSTED, "a reader's unlock left its boost in place" },
                        { EE_UNBOOST_LATE, "an unboost came over a tick after the section's end" },
                };
                int n = 0;

                for (size_t i = 0; i < G_N_ELEMENTS(after); i++)
                        if (bits[0] >> after[i].e & 1)
                                g_string_append_printf(s, "%s%s", n++ ? "; " : "In the failing run ", after[i].what);
                if (!n)
                        g_string_append(s, "In the failing run no boost outlived its section at the unlock");
                return g_string_free(s, FALSE);
        }
        /* no reader to tell of: the first kernel thread that could not run */
        if (k < 0 && !report_lookup_string(r, "stall_report.readers.0.task") &&
            report_lookup(r, "stall_report.kthread_count", &kthreads) && kthreads > 0)
                k = 0;
        if (k >= 0) {
                g_snprintf(key, sizeof(key), "stall_report.kthreads.%d.task", k);
                const char *task = report_lookup_string(r, key);

                g_snprintf(key, sizeof(key), "stall_report.kthreads.%d.prio", k);
                const char *prio = report_lookup_string(r, key);

                g_snprintf(key, sizeof(key), "stall_report.kthreads.%d.cpu_runs", k);
                const char *runs = report_lookup_string(r, key);

                g_snprintf(key, sizeof(key), "stall_report.kthreads.%d.cpu", k);
                double cpu = 0;

                report_lookup(r, key, &cpu);
                g_snprintf(key, sizeof(key), "stall_report.kthreads.%d.why", k);
                const char *why = report_lookup_string(r, key);

                if (policy)
                        g_string_append_printf(s, "The policy's thread %s (%s) could not run: CPU %.0f runs %s",
                                               task ? task : "?", prio ? prio : "?", cpu, runs ? runs : "?");
                else
                        g_string_append_printf(s, "%s (%s) could not run: %s; CPU %.0f runs %s", task ? task : "?",
                                               prio ? prio : "?", why ? why : "?", cpu, runs ? runs : "?");
        } else if (report_lookup_string(r, "stall_report.readers.0.task")) {
                const char *task = report_lookup_string(r, "stall_report.readers.0.task");
                const char *runs = report_lookup_string(r, "stall_report.readers.0.cpu_runs");
                const char *chain = report_lookup_string(r, "stall_report.readers.0.mutex_chain");
                double cpu = 0;

                report_lookup(r, "stall_report.readers.0.cpu", &cpu);
                g_string_append_printf(s, "The grace period waits for %s on CPU %.0f, which runs %s", task, cpu,
                                       runs ? runs : "?");
                if (chain && *chain)
                        g_string_append_printf(s, "; it %s", chain);
        }
        return g_string_free(s, FALSE);
}

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

/* P fails property @k: in one seed for a correctness property (a safety
 * violation, a deadlock, a boost left behind: one occurrence is the bug),
 * else in at least half -- and Q in none. */
bool hunt_fails_prop(const struct hunt *h, const struct heval *ev, int k)
{
        const struct hprop *pr = &g_array_index(h->props, struct hprop, k);

        return !ev->bad && ev->fails[0][k] > 0 && (pr->correctness || 2 * ev->fails[0][k] >= ev->seed_hi) &&
               (!h->policy[1] || ev->fails[1][k] == 0);
}

/* The property of @kind (every hunt has them all). */
int hunt_prop_of_kind(const struct hunt *h, enum hkind kind)
{
        for (guint k = 0; k < h->props->len; k++)
                if (g_array_index(h->props, struct hprop, k).kind == kind)
                        return (int)k;
        g_assert_not_reached();
}

/* Policy @p failed property @k at @seed: counted; P's first failure
 * says how, from its report @r (mechanism_of()), else @how. */
void hunt_note_fail(const struct hunt *h, struct heval *ev, int p, int k, uint64_t seed, const struct sim *sim,
                    const struct report *r, const char *how)
{
        if (ev->fails[p][k]++ || p != 0)
                return;
        ev->first_fail[k] = seed;
        if (r)
                mechanism_of(&g_array_index(h->props, struct hprop, k), r, sim, ev->mechanism[k],
                             sizeof(ev->mechanism[k]));
        else
                g_strlcpy(ev->mechanism[k], how, sizeof(ev->mechanism[k]));
}

/* "policy X, in reader_blocked: ..." -> "in reader_blocked": where a contract breach was. */
static void hook_of(const char *msg, char *buf, size_t size)
{
        const char *in = strstr(msg, ", in ");
        const char *colon = in ? strchr(in, ':') : NULL;

        if (in && colon)
                g_snprintf(buf, size, "%.*s", (int)(colon - in - 2), in + 2);
        else
                g_strlcpy(buf, "a contract breach", size);
}

void hunt_eval_in_process(struct hunt *h, struct heval *ev)
{
        GError *e = NULL;
        struct scenario *sc = scenario_load_data(ev->text, "hunt.scn", NULL, &e);
        double worst[2][HUNT_MAX_PROPS] = { { 0 } };       /* per policy, per property: the nearest approach */
        double nearer = 0;

        ev->runs = 0;
        if (ev->seed_hi == 0) {         /* first asked: the --seeds seeds */
                ev->seed_lo = 1;
                ev->seed_hi = h->nseeds;
        }
        if (!sc) {
                ev->bad = TRUE;
                ev->why = g_strdup(e->message);
                g_error_free(e);
                return;
        }
        for (int p = 0; p < 2 && h->policy[p]; p++) {
                /* shrinking asks one question: Q matters only if P still fails, and only until Q fails too */
                if (p == 1 && ev->only && !hunt_fails_prop(h, ev, ev->only - 1))
                        break;
                for (int i = ev->seed_lo; i <= ev->seed_hi && !(p == 1 && ev->only && ev->fails[1][ev->only - 1]);
                     i++) {
                        uint64_t seed = (uint64_t)i;
                        char hook[32];
                        struct sim *sim = sim_new(sc, &(struct sim_options){ .policy = h->policy[p],
                                                                             .seed = seed, .seed_set = true,
                                                                             .coverage = p == 0 }, &e);
                        gboolean finished;

                        if (!sim && g_error_matches(e, POLICY_ERROR, POLICY_ERROR_CREATE)) {
                                /* the policy cannot run this scenario: a finding, not a bad candidate */
                                hunt_note_fail(h, ev, p, hunt_prop_of_kind(h, HPROP_CREATE), seed, NULL, NULL, "create() failed");
                                ev->runs++;
                                g_clear_error(&e);
                                continue;
                        }
                        if (!sim) {
                                ev->bad = TRUE;
                                ev->why = g_strdup(e->message);
                                g_clear_error(&e);
                                scenario_free(sc);
                                return;
                        }
                        /* the candidate's tick_hz, else the kernel generation's */
                        ev->tick_ns[p] = NSEC_PER_SEC / sim_kernel(sim)->tick_hz;
                        if (h->in_child) {      /* the parent pins a crash or a hang on this run */
                                printf("run %d %" G_GUINT64_FORMAT "\n", p, seed);
                                fflush(stdout);
                        }
                        sim_run(sim);
                        finished = sim_finish(sim, &e);
                        ev->runs++;
                        for (guint k = 0; k < h->props->len; k++) {
                                struct hprop *pr = &g_array_index(h->props, struct hprop, k);
                                bool fail;

                                if (pr->kind == HPROP_DEADLOCK) {
                                        fail = !finished && e && strstr(e->message, "deadlock");
                                } else if (pr->kind == HPROP_CONTRACT) {
                                        fail = !finished && g_error_matches(e, POLICY_ERROR, POLICY_ERROR_CONTRACT);
                                        if (fail) {
                                                hook_of(e->message, hook, sizeof(hook));
                                                hunt_note_fail(h, ev, p, (int)k, seed, NULL, NULL, hook);
                                                continue;
                                        }
                                } else if (pr->kind != HPROP_EXPECT) {
                                        fail = false;   /* create, crash, hang: said where they happen */
                                } else if (!sim_report(sim)) {
                                        fail = false;
                                } else if (pr->per_tick) {
                                        double v = 0;

                                        report_lookup(sim_report(sim), "policy_stats.boosted_outside_cs_ns", &v);
                                        fail = v > ev->tick_ns[p];
                                        worst[p][k] = MAX(worst[p][k], v / (double)ev->tick_ns[p]);
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
                                if (fail)
                                        hunt_note_fail(h, ev, p, (int)k, seed, sim, sim_report(sim), "-");
                        }
                        if (p == 0 && h->cover_policy)
                                for (int w = 0; w < 64; w++)
                                        ev->cov[w] |= sim_policy_coverage(sim)[w];
                        if (p == 0 && h->cover_engine) {
                                uint64_t bits[COVERAGE_ENGINE_WORDS];

                                sim_engine_coverage(sim, bits);
                                for (int w = 0; w < COVERAGE_ENGINE_WORDS; w++)
                                        ev->cov[64 + w] |= bits[w];
                        }
                        g_clear_error(&e);
                        sim_free(sim);
                }
        }
        scenario_free(sc);
        /* how much nearer P came than Q, on the property where that is most (over every seed asked) */
        for (guint k = 0; k < h->props->len; k++)
                nearer = MAX(nearer, worst[0][k] - worst[1][k]);
        ev->margin = ev->seed_lo == 1 ? nearer : MAX(ev->margin, nearer);
}

static void eval_candidate(struct hunt *h, struct heval *ev)
{
        if (h->isolate)
                hunt_eval_isolated(h, ev);
        else
                hunt_eval_in_process(h, ev);
}

void hunt_pool_work(gpointer data, gpointer user)
{
        struct hunt *h = user;

        eval_candidate(h, data);
        g_mutex_lock(&h->lock);
        h->pending--;
        g_cond_signal(&h->done);
        g_mutex_unlock(&h->lock);
}

/* Evaluate @n candidates, on -j threads; results in place. */
void hunt_eval_batch(struct hunt *h, struct heval *evs, int n)
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

/* @ev fails property @k on the --seeds seeds: does it on HUNT_CONFIRM times
 * as many?  P must still fail in half of them (one, for a correctness
 * property) and Q hold in every one: with three seeds, 2 failing against 0
 * is luck often enough -- both boosters' bare-setprio hole met by the timing
 * of one and not the other -- to be worth the runs, which only candidates
 * that fail pay.  Without Q a correctness property needs no more. */
bool hunt_confirm(struct hunt *h, struct heval *ev, int k)
{
        if (!h->policy[1] && g_array_index(h->props, struct hprop, k).correctness)
                return true;
        if (ev->seed_hi >= HUNT_CONFIRM * h->nseeds)    /* asked on them all already */
                return hunt_fails_prop(h, ev, k);
        ev->seed_lo = ev->seed_hi + 1;
        ev->seed_hi = HUNT_CONFIRM * h->nseeds;
        ev->only = k + 1;
        hunt_eval_batch(h, ev, 1);
        return hunt_fails_prop(h, ev, k);
}

void heval_set(struct heval *ev, const struct hscn *s)
{
        memset(ev, 0, sizeof(*ev));
        ev->s = *s;
        ev->text = hscn_render(s, 1, NULL, NULL);
}

/* @ev for @c (its text copied; a text candidate's tree says no key). */
void heval_set_cand(struct heval *ev, const struct hcand *c)
{
        if (!c->text) {
                heval_set(ev, &c->s);
                return;
        }
        memset(ev, 0, sizeof(*ev));
        ev->s.key = -1;
        ev->textual = true;
        ev->text = g_strdup(c->text);
        g_strlcpy(ev->origin, c->origin, sizeof(ev->origin));
}

/* @ev as the search keeps it, into @c (its text copied, @c's freed first). */
void hcand_set(struct hcand *c, const struct heval *ev)
{
        g_free(c->text);
        c->s = ev->s;
        c->text = ev->textual ? g_strdup(ev->text) : NULL;
        g_strlcpy(c->origin, ev->origin, sizeof(c->origin));
}

void heval_clear(struct heval *ev)
{
        g_free(ev->text);
        g_free(ev->why);
        ev->text = ev->why = NULL;
}

bool hunt_out_of_budget(const struct hunt *h)
{
        return (h->max_runs && h->runs >= h->max_runs) ||
               (h->deadline_us && g_get_monotonic_time() >= h->deadline_us) || cli_interrupt_status();
}
