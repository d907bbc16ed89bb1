/* hunt/findings.c - writing a finding and its cause, and judging an earlier
 * hunt's findings as check does (docs/hunt.md). */
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

/* @msg with the held directory's name (/proc/self/fd/N) shown as the user gave it. */
char *hunt_shown_path(const char *msg, const char *held, const char *given)
{
        g_autoptr(GString) s = g_string_new(msg);

        if (strcmp(held, given) != 0)
                g_string_replace(s, held, given, 0);
        return g_strdup(s->str);
}

struct finding_job {
        struct hunt *h;
        const char *dir;
        int number, k;
        const struct heval *ev;
        uint64_t hunt_seed;
        const char *no_policy;
};

static gboolean write_finding(struct hunt *h, const char *dir, int number, const struct heval *ev, int k,
                              uint64_t hunt_seed, const char *no_policy, GError **error);

/* write_finding() for hunt_in_child(): its error said in @msg. */
static gboolean write_finding_said(void *data, GString *msg)
{
        struct finding_job *j = data;
        GError *e = NULL;

        if (write_finding(j->h, j->dir, j->number, j->ev, j->k, j->hunt_seed, j->no_policy, &e))
                return TRUE;
        g_string_append(msg, e ? e->message : "not written");
        g_clear_error(&e);
        return FALSE;
}

/* write_finding(), which runs the failing run again to describe it: in a
 * child when the hunt isolates its policies' code (#59), and where it
 * crashes or hangs there, written again without that run. */
gboolean hunt_finding_written(struct hunt *h, const char *dir, int number, const struct heval *ev, int k,
                              uint64_t hunt_seed, const char *no_policy, GError **error)
{
        struct finding_job job = { h, dir, number, k, ev, hunt_seed, no_policy };
        g_autoptr(GString) said = g_string_new(NULL);
        gboolean ok;

        if (!h->isolate)
                return write_finding(h, dir, number, ev, k, hunt_seed, no_policy, error);
        switch (hunt_in_child(2 * h->hang_us, write_finding_said, &job, said)) {   /* its two runs */
        case IN_CHILD_OK:
                return TRUE;
        case IN_CHILD_FAILED:
                g_set_error_literal(error, G_FILE_ERROR, G_FILE_ERROR_FAILED, said->str);
                return FALSE;
        case IN_CHILD_HUNG:
                g_string_assign(said, "did not end within --hang-timeout");
                break;
        case IN_CHILD_CRASHED:
                break;
        }
        h->rerun_failed = said->str;
        ok = write_finding(h, dir, number, ev, k, hunt_seed, no_policy, error);
        h->rerun_failed = NULL;
        return ok;
}

/* hunt_cause_of() the failing run: P's at @seed, again, counting coverage (which changes nothing it outputs). */
static char *finding_cause(const struct hunt *h, const struct heval *ev, const struct hprop *pr, uint64_t seed)
{
        g_autoptr(RcbScenario) sc = scenario_load_data(ev->text, "finding.scn", NULL, NULL);
        g_autoptr(RcbSim) sim = sc ? sim_new(sc, &(struct sim_options){ .policy = h->policy[0], .seed = seed,
                                                                        .seed_set = true, .coverage = true }, NULL)
                                   : NULL;
        uint64_t bits[COVERAGE_ENGINE_WORDS];

        if (!sim)
                return NULL;
        sim_run(sim);
        sim_finish(sim, NULL);
        if (!sim_report(sim))
                return NULL;
        sim_engine_coverage(sim, bits);
        return hunt_cause_of(pr, sim_report(sim), sim, bits);
}

static gboolean write_finding(struct hunt *h, const char *dir, int number, const struct heval *ev, int k,
                              uint64_t hunt_seed, const char *no_policy, GError **error)
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
                /* a deadlock has no metric: any line makes check run it, and report P's run as failed */
                g_autofree char *bound = pr->x ? hunt_prop_text(pr, ev, p) : g_strdup("safety_violations=0");

                line[p] = g_strdup_printf("%s.%s", h->policy[p], bound);
        }
        g_string_append_printf(head, "# %s -- found by `rcuboost hunt --policy %s%s%s%s --seed %" G_GUINT64_FORMAT
                               "`, then shrunk.\n", scn_name, h->replay[0], h->policy[1] ? " --versus " : "",
                               h->policy[1] ? h->replay[1] : "", h->given, hunt_seed);
        g_autofree char *failed = hunt_prop_text(pr, ev, 0);
        const char *how = ev->mechanism[k];
        const char *what = pr->kind == HPROP_CONTRACT ? "the breach: "
                           : pr->kind != HPROP_EXPECT ? ""
                           : pr->per_tick ? "the boost: "
                           : strcmp(how, "no stall") && !strstr(how, "thread starved")
                           ? "the stall report's first reader: " : "";

        g_string_append_printf(head, "# %s fails %s in %d of %d seeds (the first: seed %" G_GUINT64_FORMAT
                               "; %s%s)", h->policy[0], failed, ev->fails[0][k], ev->seed_hi, seed,
                               what, how);
        if (h->policy[1])
                g_string_append_printf(head, "; %s holds it in all %d", h->policy[1], ev->seed_hi);
        if (ev->textual)
                g_string_append_printf(head, ".\n# It comes from corpus file %s, as the hunt varied and shrank it",
                                       ev->origin);
        if (no_policy)
                g_string_append_printf(head, ".\n# No policy holds this: %s fail it too -- the scenario's, not %s's",
                                       no_policy, h->policy[0]);
        if (ev->s.key >= 0) {
                /* a parameter the shrinker could not set back to its default, nor delete: the
                 * failure needs it (#50: booster-8state's race wants booster_prio below RT 49) */
                const struct policy_key *pk = &ev->s.ops->keys[ev->s.key];
                g_autofree char *set = g_strdup_printf("\n%s=%s\n", pk->name, ev->s.value);

                if (strstr(ev->text, set))
                        g_string_append_printf(head, ".\n# It needs a parameter off its default: %s=%s (default %s); "
                                               "with the default the shrinker found no failure", pk->name,
                                               ev->s.value, pk->default_value);
        }
        if (pr->kind == HPROP_EXPECT && !h->rerun_failed) {
                g_autofree char *cause = finding_cause(h, ev, pr, seed);

                if (cause && *cause)
                        g_string_append_printf(head, ".\n# %s", cause);
        }
        g_string_append_printf(head, ".\n# `rcuboost check --policies %s%s%s %s` replays it: the %s line fails.\n"
                               "# %s: the failing run's summary, stall report and summary.json.\n\n",
                               h->replay[0], h->policy[1] ? "," : "", h->policy[1] ? h->replay[1] : "", scn_name,
                               h->policy[0], txt_name);
        g_string_append_printf(expect, "seeds=%d\n", ev->seed_hi);
        if (pr->kind == HPROP_DEADLOCK)
                g_string_append_printf(expect, "# %s's run deadlocks: check reports it as a failed run\n",
                                       h->policy[0]);
        else if (pr->kind == HPROP_CONTRACT)
                g_string_append_printf(expect, "# %s breaks the policy contract (%s): check reports its run as "
                                       "failed\n", h->policy[0], ev->mechanism[k]);
        else if (pr->kind == HPROP_CREATE)
                g_string_append_printf(expect, "# %s's create() fails on this scenario: check stops with its "
                                       "message, exit 2\n", h->policy[0]);
        else if (pr->kind == HPROP_CRASH)
                g_string_append_printf(expect, "# %s's run ends the process (%s, seed %" G_GUINT64_FORMAT "): "
                                       "check, which runs it in its own process, ends with it\n", h->policy[0],
                                       ev->mechanism[k], seed);
        else if (pr->kind == HPROP_HANG)
                g_string_append_printf(expect, "# %s's run does not end (%s, seed %" G_GUINT64_FORMAT "): check "
                                       "does not return from it either\n", h->policy[0], ev->mechanism[k], seed);
        g_string_append_printf(expect, "%s\n", line[0]);
        if (line[1])
                g_string_append_printf(expect, "%s\n", line[1]);
        g_free(line[0]);
        g_free(line[1]);
        /* the candidate as shrunk, line by line at the end: its text, not a render of ev->s */
        {
                /* a corpus file's text as the grammar's: no blank line first, one before [expect] */
                const char *body = ev->text + strspn(ev->text, "\n");
                gsize len = strlen(body);

                text = g_strconcat(head->str, body, len && body[len - 1] != '\n' ? "\n\n"
                                   : len > 1 && body[len - 2] != '\n' ? "\n" : "", "[expect]\n", expect->str, NULL);
        }
        g_string_free(head, TRUE);
        g_string_free(expect, TRUE);
        if (!output_set_contents(path, text, -1, error))
                return FALSE;
        /* the failing run again, for its summary and stall report */
        o = outfile_open(dir, txt_name, error);
        if (!o)
                return FALSE;
        if (pr->kind == HPROP_CRASH || pr->kind == HPROP_HANG) {
                /* not run again here: it would end or stop this process too */
                fprintf(outfile_stream(o), "%s's run at seed %" G_GUINT64_FORMAT " %s: %s.\nNot run again to "
                        "write this file: in this process it would %s.\n", h->policy[0], seed,
                        pr->kind == HPROP_CRASH ? "ended the process evaluating it" : "did not end",
                        ev->mechanism[k], pr->kind == HPROP_CRASH ? "end the hunt" : "never return");
        } else if (h->rerun_failed) {
                fprintf(outfile_stream(o), "%s fails %s at seed %" G_GUINT64_FORMAT ".\nNot run again to write this "
                        "file: run again in a child process for it, the run %s.\n", h->policy[0], pr->line, seed,
                        h->rerun_failed);
        } else {
                GError *e = NULL;
                struct scenario *sc = scenario_load_data(ev->text, scn_name, NULL, &e);
                struct sim *sim = sc ? sim_new(sc, &(struct sim_options){ .policy = h->policy[0], .seed = seed,
                                                                          .seed_set = true }, &e) : NULL;

                if (sim) {
                        sim_run(sim);
                        if (!sim_finish(sim, &e))
                                fprintf(outfile_stream(o), "the run failed: %s\n\n", e->message);
                        if (sim_report(sim)) {
                                /* the summary for a person; summary.json for the policy's own counters */
                                sim_print_summary(sim, outfile_stream(o));
                                fputs("\nsummary.json:\n", outfile_stream(o));
                                report_write_json(sim_report(sim), outfile_stream(o));
                        }
                        sim_free(sim);
                } else {
                        fprintf(outfile_stream(o), "cannot replay: %s\n", e ? e->message : "?");
                }
                g_clear_error(&e);
                scenario_free(sc);
        }
        return outfile_commit(o, error);
}

/* SIGALRM ends a check of an earlier finding that outlasts its bound (an
 * alarm survives exec). */
static void alarm_child(gpointer data)
{
        alarm(*(unsigned *)data);
}

/* What `rcuboost check` says of the earlier hunt's finding @name in @dir,
 * as a line of hunt.txt: its own [expect] lines judge it, whatever this
 * hunt's properties and policies (#59).  check runs in a child -- a
 * module's code runs in no other process of a hunt -- under the built-in
 * policies and this hunt's modules (a line names its own policy), and a
 * child that outlasts ten times --hang-timeout is ended. */
void hunt_earlier_finding_judged(const struct hunt *h, const char *dir, const char *name,
                                 const struct boost_policy_ops *const *ops, GString *log)
{
        g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
        g_autofree char *path = g_build_filename(dir, name, NULL);
        g_autoptr(GString) policies = g_string_new(NULL);
        g_autofree char *out = NULL, *err = NULL;
        const char *argv[] = { self, "check", "--quiet", "--policies", NULL, path, NULL };
        unsigned bound_s = (unsigned)MAX(1, 10 * h->hang_us / G_USEC_PER_SEC);
        int status = 0;
        GError *e = NULL;

        for (const struct boost_policy_ops *const *p = policy_registry; *p; p++)
                g_string_append_printf(policies, "%s%s", policies->len ? "," : "", (*p)->name);
        for (int p = 0; p < 2 && ops[p]; p++)
                if (policy_module_path(ops[p]))
                        g_string_append_printf(policies, ",%s", policy_module_path(ops[p]));
        argv[4] = policies->str;
        if (!self || !g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, alarm_child, &bound_s, &out, &err,
                                   &status, &e)) {
                g_string_append_printf(log, "earlier finding %s: not checked: %s\n", name,
                                       e ? e->message : "no /proc/self/exe to run check with");
                g_clear_error(&e);
                return;
        }
        if (WIFSIGNALED(status)) {
                g_autofree char *bound = hscn_format_ns((int64_t)bound_s * NSEC_PER_SEC);

                g_string_append_printf(log, "earlier finding %s: check %s\n", name,
                                       WTERMSIG(status) == SIGALRM ? "did not end" : "was killed by a signal");
                if (WTERMSIG(status) == SIGALRM)
                        g_string_append_printf(log, "  (bound: %s, ten times --hang-timeout)\n", bound);
                return;
        }
        const char *fail = g_str_has_prefix(out, "FAIL ") ? out : strstr(out, "\nFAIL ");
        g_autofree char *first = fail ? g_strndup(fail + (*fail == '\n') + 5, strcspn(fail + (*fail == '\n'), "\n") - 5)
                                      : g_strndup(err, strcspn(err, "\n"));

        switch (WIFEXITED(status) ? WEXITSTATUS(status) : -1) {
        case EXIT_OK:
                g_string_append_printf(log, "earlier finding %s: no longer fails: check passes its [expect] lines\n",
                                       name);
                break;
        case EXIT_FAILED:
                g_string_append_printf(log, "earlier finding %s: fails again, as check says: %s\n", name, first);
                break;
        default:
                g_string_append_printf(log, "earlier finding %s: check refuses it: %s\n", name, first);
        }
}

/* The number of an earlier finding's file, "003-oom.scn" -> 3 (0: none). */
static int finding_number(const char *name)
{
        return g_ascii_isdigit(*name) ? atoi(name) : 0;
}

struct earlier_ctx {
        const struct hunt *h;
        const char *dir;
        const struct boost_policy_ops *const *ops;
        struct hsearch *st;
};

static gboolean earlier_each(gpointer name, gpointer text, gpointer data)
{
        struct earlier_ctx *x = data;

        (void)text;
        x->st->earlier = MAX(x->st->earlier, finding_number(name));
        hunt_earlier_finding_judged(x->h, x->dir, name, x->ops, x->st->log);
        return FALSE;
}

void hunt_earlier_judged(const struct hunt *h, const char *dir, const struct boost_policy_ops *const *ops,
                         struct hsearch *st, GTree *old)
{
        struct earlier_ctx x = { h, dir, ops, st };

        if (old)
                g_tree_foreach(old, earlier_each, &x);
}
