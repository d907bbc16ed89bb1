/* hunt/shrink.c - shrinking a finding while it still fails (docs/hunt.md). */
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

/* A signal, or a time budget spent, stops a shrink where it is (and says so
 * in h->shrink_cut).  A run budget does not: its findings stay the same
 * whatever the machine's speed.  A time budget does, so that `--budget 4s`
 * ends near 4 s, its findings as far shrunk as they got (#60). */
static bool shrink_stopped(struct hunt *h)
{
        if ((h->deadline_us && g_get_monotonic_time() >= h->deadline_us) || cli_interrupt_status())
                h->shrink_cut = true;
        return h->shrink_cut;
}

/* Shrink @best while it stays a finding for property @k, failing the same
 * way; @best gets the last failing evaluation.  Passes over the list of
 * one-step simplifications: an edit that keeps the failure is taken and the
 * pass goes on from there (the list of the new tree, at about the same
 * place), so a late edit is not paid for by re-trying every earlier one;
 * passes repeat until one takes nothing. */
/* The edits @evs[0..m) of a finding, asked about property @k alone: with
 * every seed a race may show in, for a correctness property. */
static void ask_about(const struct hunt *h, struct heval *evs, int m, int k)
{
        for (int i = 0; i < m; i++) {
                evs[i].only = k + 1;
                if (g_array_index(h->props, struct hprop, k).correctness) {
                        evs[i].seed_lo = 1;
                        evs[i].seed_hi = HUNT_CONFIRM * h->nseeds;
                }
        }
}

/* Evaluate the edits @evs[0..m) and take the first that still fails @k the
 * same way (@mechanism), confirmed, in place of @best; the others are let
 * go.  Its index, or -1. */
static int take_first_failing(struct hunt *h, struct heval *evs, int m, struct heval *best, int k,
                              const char *mechanism)
{
        int took = -1;

        hunt_eval_batch(h, evs, m);
        for (int i = 0; i < m; i++) {
                if (took < 0 && hunt_fails_prop(h, &evs[i], k) && !strcmp(evs[i].mechanism[k], mechanism) &&
                    hunt_confirm(h, &evs[i], k)) {
                        heval_clear(best);
                        *best = evs[i];
                        took = i;
                } else {
                        heval_clear(&evs[i]);
                }
        }
        return took;
}

void hunt_shrink(struct hunt *h, struct heval *best, int k)
{
        char mechanism[sizeof(best->mechanism[0])];
        g_autofree struct hscn *cand = g_new(struct hscn, HUNT_REDUCTIONS);
        struct heval evs[HUNT_BATCH];
        guint64 spent = 0;
        int from = 0;
        bool taken = false;             /* in this pass */

        g_strlcpy(mechanism, best->mechanism[k], sizeof(mechanism));
        while (spent < HUNT_SHRINK_RUNS && !shrink_stopped(h)) {
                int n = hscn_reductions(&best->s, cand, HUNT_REDUCTIONS);
                int m, took = -1;
                guint64 before = h->runs;

                if (from >= n) {
                        if (!taken)
                                break;
                        from = 0;
                        taken = false;
                        continue;
                }
                m = MIN(HUNT_BATCH, n - from);
                for (int i = 0; i < m; i++)
                        heval_set(&evs[i], &cand[from + i]);
                /* a race needs one seed to show: every edit gets all the seeds it may show in */
                ask_about(h, evs, m, k);
                took = take_first_failing(h, evs, m, best, k, mechanism);
                spent += h->runs - before;
                if (took >= 0)
                        taken = true;
                from += took >= 0 ? took : m;
        }
}

/* A corpus file's text has no tree to shrink: its run halved instead
 * (not below 200 ms, as the tree's), while it still fails @k the same way. */
void hunt_shrink_duration(struct hunt *h, struct heval *best, int k)
{
        char mechanism[sizeof(best->mechanism[0])];

        g_strlcpy(mechanism, best->mechanism[k], sizeof(mechanism));
        while (!shrink_stopped(h)) {
                struct heval ev = *best;

                ev.why = NULL;
                ev.text = scnedit_halve_duration(best->text, 200 * NSEC_PER_MSEC);
                if (!ev.text)
                        break;
                memset(ev.fails, 0, sizeof(ev.fails));
                ev.seed_lo = ev.seed_hi = 0;
                ev.bad = FALSE;
                ask_about(h, &ev, 1, k);
                if (take_first_failing(h, &ev, 1, best, k, mechanism) < 0)
                        break;
        }
}

/* One pass of hunt_shrink_lines(): each unit -- a line, or with @sections a
 * whole section but [scenario] -- deleted on its own.  Did it take any? */
static bool delete_units(struct hunt *h, struct heval *best, int k, const char *mechanism, bool sections)
{
        struct heval evs[HUNT_BATCH];
        int from = 0;
        bool any = false;

        while (!shrink_stopped(h)) {
                g_auto(GStrv) lines = g_strsplit(best->text, "\n", -1);
                int n = (int)g_strv_length(lines), at[HUNT_BATCH], to[HUNT_BATCH], m = 0, took = -1;

                /* the next lines that say something: not blank, not a section's name,
                 * and not the run's length, seed or memory limit -- kept so that the finding
                 * replays as fast, and at the limit, it was found at */
                for (int i = from; i < n && m < HUNT_BATCH; i++) {
                        if (sections && *lines[i] == '[' && strcmp(lines[i], "[scenario]") != 0) {
                                at[m] = i;
                                for (to[m] = i + 1; to[m] < n && *lines[to[m]] != '['; to[m]++)
                                        ;
                                m++;
                        } else if (!sections && *lines[i] && *lines[i] != '[' &&
                                   !g_str_has_prefix(lines[i], "duration=") && !g_str_has_prefix(lines[i], "seed=") &&
                                   !g_str_has_prefix(lines[i], "memory_limit=")) {
                                at[m] = i;
                                to[m++] = i + 1;
                        }
                }
                if (m == 0)
                        break;
                for (int j = 0; j < m; j++) {
                        GString *t = g_string_new(NULL);

                        for (int i = 0; i < n; i++)
                                if (i < at[j] || i >= to[j])
                                        g_string_append_printf(t, "%s%s", lines[i], i + 1 < n ? "\n" : "");
                        memset(&evs[j], 0, sizeof(evs[j]));
                        evs[j].s = best->s;
                        evs[j].textual = best->textual;
                        g_strlcpy(evs[j].origin, best->origin, sizeof(evs[j].origin));
                        evs[j].text = g_string_free(t, FALSE);
                }
                ask_about(h, evs, m, k);
                took = take_first_failing(h, evs, m, best, k, mechanism);
                any = any || took >= 0;
                /* after a deletion the next unit has the deleted one's index */
                from = took >= 0 ? at[took] : at[m - 1] + 1;
        }
        return any;
}

/* The last pass (#50): each remaining line of the shrunk scenario deleted on
 * its own once more -- what the structured steps leave (a hog's affinity or
 * start time) -- kept when the candidate still loads and fails @k the same
 * way.  Works on the text: the finding is written from it, and its task
 * counts in hunt.txt are the structured shrink's. */
void hunt_shrink_lines(struct hunt *h, struct heval *best, int k)
{
        char mechanism[sizeof(best->mechanism[0])];

        g_strlcpy(mechanism, best->mechanism[k], sizeof(mechanism));
        if (!best->textual) {
                /* a tree's finding: one pass, after the tree's own steps */
                delete_units(h, best, k, mechanism, false);
                return;
        }
        /* a corpus file's text has no tree: whole sections (a task, a mutex, an
         * event), then lines, until a pass takes nothing */
        for (bool again = true; again && !shrink_stopped(h);) {
                again = delete_units(h, best, k, mechanism, true);
                again = delete_units(h, best, k, mechanism, false) || again;
        }
}

/* Without --versus: does every built-in policy fail @k on @ev too, on the
 * same seeds as P did?  Then no policy holds it (an updater alone that
 * outruns the memory limit), and it is the scenario's finding, not P's
 * (#50).  @who: the policies asked, for the finding's header. */
bool hunt_no_policy_holds(const struct hunt *h, const struct heval *ev, int k, GString *who)
{
        const struct hprop *pr = &g_array_index(h->props, struct hprop, k);
        int asked = 0;

        if (h->policy[1] || (pr->kind != HPROP_EXPECT && pr->kind != HPROP_DEADLOCK))
                return false;   /* a breach, a crash, a failing create() are P's own */
        for (const struct boost_policy_ops *const *ops = policy_registry; *ops; ops++) {
                struct hunt one = *h;
                struct heval e = { 0 };
                bool fails;

                if (!strcmp((*ops)->name, h->policy[0]))
                        continue;
                one.policy[0] = (*ops)->name;
                one.isolate = false;    /* built-in: trusted, in-process */
                e.s = ev->s;
                e.text = g_strdup(ev->text);
                e.seed_lo = 1;
                e.seed_hi = ev->seed_hi;
                e.only = k + 1;
                hunt_eval_in_process(&one, &e);
                fails = hunt_fails_prop(&one, &e, k);
                heval_clear(&e);
                if (!fails)
                        return false;
                g_string_append_printf(who, "%s%s", asked++ ? ", " : "", (*ops)->name);
        }
        return asked > 0;
}
