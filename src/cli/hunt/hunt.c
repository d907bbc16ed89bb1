/* hunt/hunt.c - `rcuboost hunt`: search scenario space for a run that breaks a
 * boosting policy, and shrink it to a small scenario file (docs/hunt.md).
 *
 * A candidate is a scenario's syntax tree (struct hscn, the grammar of
 * hscn.c: CPUs, readers, hogs, updaters, ...), rendered to the
 * scenario language and run in this process under the policy -- and, with
 * --versus, the other one -- over a few seeds.  A *finding* is a property
 * (an [expect] line) that the policy fails in at least half of those seeds
 * (in one, for a race) while the other holds it in all of them, and again
 * over three times as many seeds (confirm()).  The search mutates, beside
 * fresh random candidates, the few nearest to failing (a property's margin:
 * the measured value over its bound) and those that took the policy's
 * rarest state transitions (struct edges), so it climbs toward a failure
 * instead of only sampling.  A finding is shrunk by
 * delta debugging on the tree (drop a task, fewer copies, fewer CPUs,
 * shorter and rounder durations, plainer priorities) while it still fails,
 * and written as a readable .scn with the failing [expect] line.
 *
 * Determinism: candidates are made on the main thread from one GSL stream
 * (--seed), evaluated in fixed batches whatever -j is, and taken in batch
 * order; so the same --seed and run budget give the same findings.
 */
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

/* "500runs" / "500": a number of simulations; else a duration ("10min"). */
static gboolean parse_budget(const char *s, guint64 *runs, gint64 *wall_us, GError **error)
{
        g_autofree char *t = g_strstrip(g_strdup(s));
        char *end = NULL;
        guint64 n;
        int64_t ns;

        /* strtoull takes "-1" as 2^64 - 1 and saturates past 2^64: both would
         * read as no limit at all, a hunt that finding nothing never ends */
        errno = 0;
        n = g_ascii_strtoull(t, &end, 10);
        if (end != t && (!*end || !strcmp(end, "runs") || !strcmp(end, " runs"))) {
                if (t[0] == '-' || errno == ERANGE || n > HUNT_MAX_RUNS) {
                        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                                    "--budget %s: a number of runs from 1 to %" G_GUINT64_FORMAT, s,
                                    (guint64)HUNT_MAX_RUNS);
                        return FALSE;
                }
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
        /* under a millisecond no run fits, and microseconds round to "no limit" */
        if (ns < NSEC_PER_MSEC) {
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "--budget %s: a wall-clock time of at least 1ms", s);
                return FALSE;
        }
        *wall_us = ns / NSEC_PER_USEC;
        return TRUE;
}

/* A hunt under way: what cli_hunt() set up, and what its batches share
 * with its end. */
struct hunt_run {
        struct hunt *h;
        struct hsearch *st;
        const struct boost_policy_ops *const *ops;
        const char *out, *findings_dir;         /* as given, for what is said */
        const char *held_out, *findings_held, *corpus_held;     /* where it writes (#49) */
        uint64_t hunt_seed;
        int max_findings;
        bool quiet;
        bool write_failed;                      /* a finding or a corpus file not written: the hunt ends */
        int status;
        GString *times;                         /* "time:" lines of hunt.txt */
        int coverage_said;
        gint64 started_us;
};

/* The batch's candidates: the corpus first, each seed once as it is; then
 * at random a fresh tree, an edit of one nearest to failing, or of the
 * keeper of a rare coverage edge. */
static void batch_made(struct hunt_run *r, struct heval *evs)
{
        for (int i = 0; i < HUNT_BATCH; i++) {
                struct hscn s;
                unsigned long how;
                const struct hcand *rare;

                /* the corpus first, each seed once as it is */
                if (r->st->next_seed < r->st->seeds->len) {
                        heval_set_cand(&evs[i], g_ptr_array_index(r->st->seeds, r->st->next_seed++));
                        evs[i].as_seeded = true;
                        continue;
                }
                how = gsl_rng_uniform_int(r->h->rng, 4);
                rare = how == 3 ? hunt_edges_pick(r->st->edges, r->h->rng) : NULL;
                if (how < 2 || (how == 2 && r->st->near->len == 0) || (how == 3 && !rare)) {
                        hscn_random(r->h->rng, r->ops[0], r->ops[1], &s);
                        heval_set(&evs[i], &s);
                        continue;
                }
                struct hcand from = { 0 };

                if (how == 2)
                        hcand_set(&from, &g_array_index(r->st->near, struct heval,
                                                        gsl_rng_uniform_int(r->h->rng, r->st->near->len)));
                else    /* the keeper as it is, its text the copy's own */
                        from = *rare, from.text = g_strdup(rare->text);
                for (int m = 1 + (int)gsl_rng_uniform_int(r->h->rng, 3); m > 0; m--) {
                        if (from.text) {
                                char *edited = scnedit_mutate(r->h->rng, from.text);

                                g_free(from.text);
                                from.text = edited;
                        } else {
                                hscn_mutate(r->h->rng, &from.s);
                        }
                }
                heval_set_cand(&evs[i], &from);
                g_free(from.text);
        }
}

/* A candidate of the batch, evaluated: a finding taken (confirmed, shrunk,
 * written), or what it tells the search (its coverage, its margin). */
static void candidate_taken(struct hunt_run *r, struct heval *ev)
{
        GError *e = NULL;
        int k = -1;
        char *what = NULL;
        bool again = false;     /* fails a property as a finding already did */

        if (r->write_failed) {     /* the hunt is ending: the rest of the batch goes */
                heval_clear(ev);
                return;
        }

        /* one finding per property and mechanism: a stall behind a preempted
         * reader and one behind a mutex owner are two bugs */
        for (guint j = 0; j < r->h->props->len && k < 0; j++) {
                if (!hunt_fails_prop(r->h, ev, (int)j))
                        continue;
                what = g_strdup_printf("%u:%s", j, ev->mechanism[j]);
                again = true;
                if (g_hash_table_contains(r->st->found, what))
                        g_clear_pointer(&what, g_free);
                else
                        k = (int)j;
        }
        /* an earlier hunt's finding, replayed: it is in DIR/findings/ still, and
         * what check says of it is in hunt.txt (hunt_earlier_finding_judged()); what
         * it fails now is found, not taken again */
        if (k >= 0 && ev->as_seeded && g_str_has_prefix(ev->origin, "findings/")) {
                g_hash_table_add(r->st->found, what);
                what = NULL;
                k = -1;
        }
        /* not luck: the same over more seeds (then its counts are over those
         * seeds, for this property only: no other is asked of it) */
        if (k >= 0 && r->st->nfound < r->max_findings && !hunt_confirm(r->h, ev, k)) {
                g_string_append_printf(r->st->log, "a candidate failing %s did not hold over %d seeds: %s "
                                       "failed in %d, %s in %d\n",
                                       g_array_index(r->h->props, struct hprop, k).line, ev->seed_hi,
                                       r->h->policy[0], ev->fails[0][k], r->h->policy[1] ? r->h->policy[1] : "-",
                                       ev->fails[1][k]);
                g_clear_pointer(&what, g_free);
                k = -1;
                again = false;
        }
        if (ev->bad) {
                /* an edit of a corpus file's text may well not load: no news */
                if (!ev->textual)
                        g_string_append_printf(r->st->log, "a generated candidate was refused: %s\n",
                                               ev->why);
                g_clear_pointer(&what, g_free);
                heval_clear(ev);
                return;
        }
        if (hunt_edges_note(r->st->edges, ev) && !hunt_corpus_keep(r->st, r->corpus_held, ev, &e)) {
                g_autofree char *msg = hunt_shown_path(e->message, r->held_out, r->out);

                fprintf(stderr, "%srcuboost: %s\n", r->h->tty ? "\r\033[K" : "", msg);
                g_clear_error(&e);
                r->status = EXIT_USAGE;
                r->write_failed = true;
        }
        if (r->st->edges->seen + r->st->edges->seen_engine > r->coverage_said) { /* coverage reached, over time */
                g_string_append_printf(r->times, "time: %d policy state transitions and %d engine "
                                       "events after %" G_GUINT64_FORMAT " runs, %.2f s\n",
                                       r->st->edges->seen, r->st->edges->seen_engine, r->h->runs,
                                       (g_get_monotonic_time() - r->started_us) / 1e6);
                r->coverage_said = r->st->edges->seen + r->st->edges->seen_engine;
        }
        if (k < 0 || r->st->nfound >= r->max_findings) {
                /* the nearest approach of those that did not fail (again); a
                 * finding after the last one taken in this batch is let go */
                if (!again)
                        r->st->best_margin = MAX(r->st->best_margin, ev->margin);
                g_clear_pointer(&what, g_free);
                hunt_near_offer(r->st->near, ev);
                return;
        }
        struct hprop *pr = &g_array_index(r->h->props, struct hprop, k);
        guint64 found_at = r->h->runs;
        gint64 found_us = g_get_monotonic_time();
        g_autofree char *failed = hunt_prop_text(pr, ev, 0);

        if (!r->quiet)
                fprintf(stderr, "%srcuboost: found: %s fails %s (%d of %d seeds); shrinking...\n",
                        r->h->tty ? "\r\033[K" : "", r->h->policy[0], failed, ev->fails[0][k], ev->seed_hi);
        r->h->shrink_cut = false;
        if (!ev->textual)
                hunt_shrink(r->h, ev, k);
        else
                hunt_shrink_duration(r->h, ev, k);
        hunt_shrink_lines(r->h, ev, k);
        /* a time budget spent or a signal stopped the shrink: the finding is
         * as far shrunk as it got, and hunt.txt says so */
        const char *cut = !r->h->shrink_cut ? "" : cli_interrupt_status() ? " (until the signal)"
                                                                          : " (until the time budget ran out)";
        g_free(failed);
        failed = hunt_prop_text(pr, ev, 0);          /* the shrunk candidate's tick */
        g_hash_table_add(r->st->found, what);
        g_autoptr(GString) every = g_string_new(NULL);
        bool anyone = hunt_no_policy_holds(r->h, ev, k, every);

        if (!hunt_finding_written(r->h, r->findings_held, r->st->earlier + r->st->nfound + 1, ev, k, r->hunt_seed,
                           anyone ? every->str : NULL,
                           &e)) {
                /* a write error is an error (a full disk): said, not counted, and
                 * the hunt ends, exit 2 -- not "wrote" and the findings' status (#49) */
                g_autofree char *msg = hunt_shown_path(e->message, r->held_out, r->out);

                fprintf(stderr, "%srcuboost: %s\n", r->h->tty ? "\r\033[K" : "", msg);
                g_clear_error(&e);
                r->status = EXIT_USAGE;
                heval_clear(ev);
                r->write_failed = true;
                return;
        }
        r->st->nfound++;
        r->st->nobody += anyone;
        g_autofree char *shrunk = ev->textual
                ? g_strdup_printf("from corpus file %s, shrunk line by line%s", ev->origin, cut)
                : g_strdup_printf("shrunk%s to %d tasks on %d CPU%s", cut, ev->s.ntasks, ev->s.cpus,
                                  ev->s.cpus == 1 ? "" : "s");

        g_string_append_printf(r->st->log, "finding %03d%s: %s fails %s in %d of %d seeds (%s); found after %"
                               G_GUINT64_FORMAT " runs, %s in %" G_GUINT64_FORMAT " more\n", r->st->earlier + r->st->nfound,
                               anyone ? " (no policy holds this)" : "", r->h->policy[0], failed,
                               ev->fails[0][k], ev->seed_hi, ev->mechanism[k], found_at, shrunk,
                               r->h->runs - found_at);
        /* wall times on lines of their own: the rest of hunt.txt is the same whatever -j */
        g_string_append_printf(r->times, "time: finding %03d found after %.2f s, written after %.2f s\n",
                               r->st->earlier + r->st->nfound, (found_us - r->started_us) / 1e6,
                               (g_get_monotonic_time() - r->started_us) / 1e6);
        if (!r->quiet)
                fprintf(stderr, "rcuboost: wrote %s/%03d-%s.scn%s\n", r->findings_dir, r->st->earlier + r->st->nfound,
                        pr->name,
                        anyone ? " (no policy holds this: every built-in fails it too)" : "");
        heval_clear(ev);
}

/* The command line of a child evaluating candidates for this hunt (hunt
 * --eval-child): the same binary, the options that decide an evaluation. */
static bool child_argv_made(struct hunt *h, const char *policy, const char *versus, char **property, int seeds,
                            const char *coverage)
{
        /* a child that dies before reading its candidate closes the pipe: an error to
         * write, not a SIGPIPE that ends the hunt */
        signal(SIGPIPE, SIG_IGN);
        h->child_argv = g_ptr_array_new_with_free_func(g_free);
        char *self = g_file_read_link("/proc/self/exe", NULL);

        if (!self) {
                fprintf(stderr, "rcuboost: hunt: cannot find its own executable (/proc/self/exe) to "
                        "evaluate candidates in a child process\n");
                g_ptr_array_unref(h->child_argv);
                h->child_argv = NULL;
                return false;
        }
        g_ptr_array_add(h->child_argv, self);
        g_ptr_array_add(h->child_argv, g_strdup("hunt"));
        g_ptr_array_add(h->child_argv, g_strdup_printf("--policy=%s", policy));
        if (versus)
                g_ptr_array_add(h->child_argv, g_strdup_printf("--versus=%s", versus));
        for (char **p = property; p && *p; p++)
                g_ptr_array_add(h->child_argv, g_strdup_printf("--property=%s", *p));
        g_ptr_array_add(h->child_argv, g_strdup_printf("--seeds=%d", seeds));
        if (coverage)
                g_ptr_array_add(h->child_argv, g_strdup_printf("--coverage=%s", coverage));
        g_ptr_array_add(h->child_argv, g_strdup("--eval-child"));
        g_ptr_array_add(h->child_argv, NULL);
        return true;
}

/* --out, its findings/ and its corpus/ claimed and locked, and --out held
 * open (/proc/self/fd/N, or its name without /proc), or NULL with the error
 * said.  findings/ and corpus/ are directories of their own kinds, held while
 * the hunt writes there: `run --out DIR/findings` is refused, not let
 * delete them (#49); --resume keeps what they hold, and no hunt deletes an
 * earlier one's findings (#59): its own are numbered after them. */
static char *dirs_held(const char *out, const char *findings_dir, const char *corpus_dir, bool resume,
                       bool findings_kept, int locks[3], int *held_fd)
{
        static const char *const ours[] = { "hunt.txt", "hunt.state", "findings/", "corpus/", NULL };
        static const char *const finding_files[] = { "*.scn", "*.txt", NULL };
        static const char *const kinds[] = { "hunt", "hunt-findings", "hunt-corpus" };
        const char *const dirs[] = { out, findings_dir, corpus_dir };
        const char *const *files[] = { ours, finding_files, finding_files };
        char *held = NULL;
        GError *e = NULL;
        int n = 0;

        for (; n < 3; n++) {
                locks[n] = resume || (n == 1 && findings_kept) ? (output_dir_check(dirs[n], kinds[n], files[n], &e)
                                     ? output_dir_lock(dirs[n], &e) : -1)
                                  : output_dir_claim(dirs[n], kinds[n], files[n], &e);
                if (locks[n] < 0)
                        break;
        }
        /* every write goes below the directory held from here on (#49) */
        if (n == 3 && !(held = output_dir_hold(out, locks, (const char *const[]){ ".", "findings", "corpus" },
                                                   3, held_fd, &e)))
                n = 2;
        if (n < 3) {
                for (int i = n - 1; i >= 0; i--)
                        output_dir_unlock(locks[i]);
                fprintf(stderr, "rcuboost: %s\n", e->message);
                g_error_free(e);
                return NULL;
        }
        return held;
}

/* A fresh hunt's corpus, into @st: an earlier hunt's findings (judged as
 * check judges them) and corpus in @out, then --corpus's files or the shipped
 * scenarios.  @findings_kept: DIR/findings/ holds an earlier hunt's.  The
 * exit status: EXIT_OK, or the error said. */
static int corpus_begun(GOptionContext *ctx, struct hunt *h, struct hsearch *st,
                        const struct boost_policy_ops *const *ops, const char *findings_dir, const char *corpus_dir,
                        const char *corpus_given, bool *findings_kept)
{
        int status = EXIT_OK;
        GError *e = NULL;

        /* an earlier hunt's findings and corpus, read before the directory is emptied */
        g_autoptr(GString) skipped = g_string_new(NULL);
        GTree *old_findings = hunt_scn_files(findings_dir, &e);
        GTree *old_corpus = e ? NULL : hunt_scn_files(corpus_dir, &e);
        bool shipped = !corpus_given || !strcmp(corpus_given, "shipped");
        bool none = corpus_given && !strcmp(corpus_given, "none");
        GTree *given = e ? NULL : shipped ? hunt_shipped_scenarios() : !none ? hunt_scn_files(corpus_given, &e) : NULL;

        if (e) {
                status = cli_usage_error(ctx, "hunt: %s", e->message);
                g_clear_error(&e);
        } else if (!shipped && !none && !given) {
                /* one file is a corpus of one */
                char *text = hunt_corpus_file_read(corpus_given, &e);

                if (text) {
                        given = g_tree_new_full(hunt_name_cmp, NULL, g_free, g_free);
                        g_tree_insert(given, g_path_get_basename(corpus_given), text);
                } else {
                        status = cli_usage_error(ctx, "hunt: --corpus: %s", e->message);
                        g_clear_error(&e);
                }
        }
        if (status == EXIT_OK && given && !shipped && g_tree_nnodes(given) == 0) {
                /* said, not silently a hunt of generated candidates alone */
                fprintf(stderr, "rcuboost: warning: hunt: --corpus %s holds no .scn file: the hunt runs "
                        "generated candidates only\n", corpus_given);
                g_string_append_printf(skipped, "corpus: %s holds no .scn file\n", corpus_given);
        }
        if (status == EXIT_OK) {
                hunt_earlier_judged(h, findings_dir, ops, st, old_findings);
                hunt_seeds_from(st, old_findings, "findings/", ops, skipped);
                hunt_seeds_from(st, old_corpus, "corpus/", ops, skipped);
                hunt_seeds_from(st, given, "", ops, skipped);
                g_string_append(st->log, skipped->str);
        }
        if (old_findings) {
                *findings_kept = g_tree_nnodes(old_findings) > 0;
                g_tree_unref(old_findings);
        }
        if (old_corpus)
                g_tree_unref(old_corpus);
        if (given)
                g_tree_unref(given);
        return status;
}

/* The hunt's end: the state saved for --resume, hunt.txt written, and what
 * it found said. */
static void hunt_ended(struct hunt_run *r, const char *identity, GString *checkpoint, const char *given_shown,
                       int seeds, const char *budget)
{
        GError *e = NULL;

        if (r->h->tty)
                fputs("\r\033[K", stderr);
        g_thread_pool_free(r->h->pool, FALSE, TRUE);
        /* a batch cut short by a signal is run again on --resume: the state before it */
        if (!cli_interrupt_status())
                hsearch_save(r->h, r->st, identity, checkpoint);
        if (!hunt_state_write(r->held_out, checkpoint, r->out))
                r->status = EXIT_USAGE;
        {
                g_autofree char *summary_path = g_build_filename(r->held_out, "hunt.txt", NULL);
                g_autofree char *engine_said = hunt_engine_events_said(r->h, r->st->edges);
                double wall_s = (g_get_monotonic_time() - r->started_us) / 1e6;
                g_autofree char *summary = g_strdup_printf(
                        "rcuboost hunt --policy %s%s%s%s --seed %" G_GUINT64_FORMAT " --seeds %d --budget %s\n"
                        "%" G_GUINT64_FORMAT " runs in %" G_GUINT64_FORMAT " batches; %d finding%s%s\n"
                        "nearest approach to failing among the rest: %.3f of the bound\n"
                        "policy state transitions seen: %d\n%s%s"
                        "time: %.2f s of wall time, %.0f runs per second (-j %d)%s\n%s",
                        r->h->policy[0], r->h->policy[1] ? " --versus " : "", r->h->policy[1] ? r->h->policy[1] : "", given_shown,
                        r->hunt_seed, seeds, budget ? budget : "1000runs", r->h->runs, r->st->batches, r->st->nfound,
                        r->st->nfound == 1 ? "" : "s", cli_interrupt_status() ? " (interrupted)" : "", r->st->best_margin,
                        r->st->edges->seen, engine_said, r->st->log->str,
                        wall_s, wall_s > 0 ? (double)r->h->runs / wall_s : 0, r->h->jobs,
                        r->h->isolate ? ", each candidate in a child process" : "", r->times->str);

                if (!output_set_contents(summary_path, summary, -1, &e)) {
                        g_autofree char *msg = hunt_shown_path(e->message, r->held_out, r->out);

                        fprintf(stderr, "rcuboost: %s\n", msg);
                        g_clear_error(&e);
                        r->status = EXIT_USAGE;
                }
        }
        if (r->write_failed) {
                fprintf(stderr, "rcuboost: the hunt stopped: a finding could not be written (%d written to %s/)\n",
                        r->st->nfound, r->findings_dir);
        } else if (!r->quiet || r->st->nfound == 0) {
                if (r->st->nfound)
                        fprintf(stderr, "rcuboost: %d finding%s in %s/%s (%" G_GUINT64_FORMAT " runs)\n", r->st->nfound,
                                r->st->nfound == 1 ? "" : "s", r->findings_dir,
                                r->st->nobody ? (r->st->nobody == r->st->nfound ? ", none of them P's: no policy holds them"
                                                           : ", some no policy holds") : "", r->h->runs);
                else if (r->st->earlier)
                        printf("rcuboost: nothing new found in %" G_GUINT64_FORMAT " runs (nearest approach: %.2f of "
                               "a bound); %s/ keeps the earlier findings, and hunt.txt says what check says of each\n",
                               r->h->runs, r->st->best_margin, r->findings_dir);
                else
                        printf("rcuboost: nothing found in %" G_GUINT64_FORMAT " runs: %s held every property "
                               "(nearest approach: %.2f of a bound)\n", r->h->runs, r->h->policy[0], r->st->best_margin);
        }
}

/* The options, as given. */
struct hunt_opts {
        char *policy, *versus, *budget, *seed_text, *out, *hang_text, *coverage, *corpus_given;
        char **property;
        int seeds, jobs, max_findings;
        gboolean quiet, isolate, eval_child_mode, resume;
};

static void hunt_opts_clear(struct hunt_opts *o)
{
        g_free(o->policy);
        g_free(o->versus);
        g_free(o->budget);
        g_free(o->seed_text);
        g_free(o->out);
        g_free(o->hang_text);
        g_free(o->coverage);
        g_free(o->corpus_given);
        g_strfreev(o->property);
}

typedef struct hunt_opts HuntOpts;
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(HuntOpts, hunt_opts_clear)

/* `rcuboost hunt`'s options into @o, and its --help. */
static GOptionContext *options_context(struct hunt_opts *o)
{
        const GOptionEntry entries[] = {
                { "policy", 'p', 0, G_OPTION_ARG_STRING, &o->policy, "The policy to break (a name or a module path)",
                  "P" },
                { "versus", 0, 0, G_OPTION_ARG_STRING, &o->versus,
                  "Find only where P fails a property that Q holds on the same scenario and seeds", "Q" },
                { "property", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->property,
                  "A property to break, as an [expect] line without its policy (repeatable; e.g. "
                  "gp_max_at_least<=100ms); the defaults are always checked", "EXPR" },
                { "budget", 'b', 0, G_OPTION_ARG_STRING, &o->budget,
                  "Runs (500, 500runs) or wall-clock time (90s, 10min) to spend (default 1000runs); checked "
                  "between batches of 8 candidates, so the last batch, and confirming and shrinking what it found, "
                  "run past it -- but a time budget also stops a shrink, leaving the finding as far shrunk as it "
                  "got", "B" },
                { "seed", 's', 0, G_OPTION_ARG_STRING, &o->seed_text, "The search's own seed (default 1)", "S" },
                { "seeds", 'n', 0, G_OPTION_ARG_INT, &o->seeds, "Seeds each candidate runs under (default 3)", "N" },
                { "jobs", 'j', 0, G_OPTION_ARG_INT, &o->jobs, "Runs in parallel (default: one per CPU)", "J" },
                { "max-findings", 0, 0, G_OPTION_ARG_INT, &o->max_findings, "Stop after this many (default 5)", "N" },
                { "out", 'o', 0, G_OPTION_ARG_FILENAME, &o->out,
                  "Output directory (default out/hunt-P, or out/hunt-P-vs-Q)", "DIR" },
                { "quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, "No progress on stderr", NULL },
                { "isolate", 0, 0, G_OPTION_ARG_NONE, &o->isolate,
                  "Evaluate each candidate in a child process, so that a crash or a hang is a finding (the "
                  "default for a policy module)", NULL },
                { "hang-timeout", 0, 0, G_OPTION_ARG_STRING, &o->hang_text,
                  "With --isolate: a candidate's evaluation that takes longer hangs (default 30s)", "T" },
                { "corpus", 0, 0, G_OPTION_ARG_FILENAME, &o->corpus_given,
                  "Scenario files (a directory's *.scn, or one file) run first and then varied, beside generated "
                  "ones (shipped, the default: the shipped scenarios; none: only generated)",
                  "DIR|FILE|shipped|none" },
                { "resume", 0, 0, G_OPTION_ARG_NONE, &o->resume,
                  "Go on with the hunt in --out where it stopped (its hunt.state): the same findings as a hunt "
                  "never stopped, with the same --budget", NULL },
                { "coverage", 0, 0, G_OPTION_ARG_STRING, &o->coverage,
                  "What steers the search toward rare runs: the policy's state transitions, the engine's events, "
                  "both (the default) or none", "policy|engine|both|none" },
                { "eval-child", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &o->eval_child_mode, NULL, NULL },
                { NULL },
        };
        GOptionContext *ctx = g_option_context_new("- search generated scenarios for one that breaks a "
                                                             "policy, and shrink it");

        g_option_context_add_main_entries(ctx, entries, NULL);
        g_option_context_set_description(ctx,
                "Generates scenarios from a grammar of the scenario language (CPUs, tick, readers with\n"
                "classes, affinities, section lengths, nesting and mutexes; RT hogs; call_rcu updaters and\n"
                "synchronize_rcu callers; periodic RT tasks; mutex owners and owner chains; device\n"
                "interrupts; [event]s that change a class or an affinity; P's own [policy] keys), runs each\n"
                "under P (and Q) over --seeds seeds, and checks the properties: no safety violation, no OOM\n"
                "(32 MiB), no deadlock, no task boosted outside its critical section for more than a tick,\n"
                "no breach of the policy contract, a create() that succeeds, and each --property; with a\n"
                "policy module (or --isolate) each candidate runs in a child process, and a crash or a run\n"
                "that outlasts --hang-timeout is a finding too.  The corpus (the shipped scenarios, or\n"
                "--corpus) runs first and is varied beside generated candidates; each candidate that\n"
                "reaches new coverage (a policy state transition, or an engine event: a boost, an unboost\n"
                "over a tick late, a boosted task migrating...) is kept in DIR/corpus/, and an earlier\n"
                "hunt's findings and corpus in DIR are replayed first.  A finding fails P in at least half\n"
                "the seeds, or in one for a race, and holds under Q in all -- then again over three times\n"
                "as many seeds.  It is shrunk and written to DIR/findings/NNN-PROPERTY.scn with the failing\n"
                "[expect] line, beside NNN-PROPERTY.txt (the failing run's summary, stall report and\n"
                "summary.json).  The same --seed and run budget give the same findings, whatever -j; a\n"
                "stopped hunt goes on with --resume (DIR/hunt.state) to the same findings.  docs/hunt.md\n"
                "explains the grammar, the corpus, the guidance and the shrinker.\n\n"
                "Exit status: 0 nothing found; 1 findings written; 2 bad input; 130/143 interrupted\n"
                "(what was found is kept).");
        return ctx;
}

/* The options that say what is hunted checked, into @ops, @h (its
 * policies, seeds and properties; @h->props holds the defaults) and
 * @hunt_seed: EXIT_OK, or the error said. */
static int options_checked(GOptionContext *ctx, int argc, char **argv, const struct hunt_opts *o,
                           const struct boost_policy_ops **ops, struct hunt *h, uint64_t *hunt_seed)
{
        int status = EXIT_OK;
        GError *e = NULL;

        if (argc > 1)
                return cli_usage_error(ctx, "hunt: unexpected argument '%s' (it generates its own scenarios)",
                                       argv[1]);
        if (!o->policy)
                return cli_usage_error(ctx, "hunt: which policy? --policy P (rcuboost policies lists them)");
        for (int p = 0; p < 2; p++) {
                const char *name = p ? o->versus : o->policy;

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
                return cli_usage_error(ctx, "hunt: --versus %s is the policy hunted", o->versus);
        if (o->seeds < 1 || o->seeds > 100)
                return cli_usage_error(ctx, "hunt: --seeds %d: expected 1..100", o->seeds);
        if (o->max_findings < 1)
                return cli_usage_error(ctx, "hunt: --max-findings %d: at least 1", o->max_findings);
        h->cover_policy = h->cover_engine = true;
        if (o->coverage) {
                h->cover_policy = !strcmp(o->coverage, "policy") || !strcmp(o->coverage, "both");
                h->cover_engine = !strcmp(o->coverage, "engine") || !strcmp(o->coverage, "both");
                if (!h->cover_policy && !h->cover_engine && strcmp(o->coverage, "none") != 0)
                        return cli_usage_error(ctx, "hunt: --coverage %s: expected policy, engine, both or none",
                                               o->coverage);
        }
        if (o->seed_text && !cli_parse_seed(o->seed_text, hunt_seed))
                return cli_usage_error(ctx, "hunt: --seed '%s': expected a non-negative integer", o->seed_text);
        h->policy[0] = ops[0]->name;
        h->policy[1] = ops[1] ? ops[1]->name : NULL;
        h->nseeds = o->seeds;
        for (char **p = o->property; p && *p; p++) {
                struct hprop pr;

                if (p - o->property >= HUNT_MAX_USER_PROPS)
                        return cli_usage_error(ctx, "hunt: at most %d --property", HUNT_MAX_USER_PROPS);
                if (!hprop_parse(*p, &pr, &e)) {
                        status = cli_usage_error(ctx, "hunt: %s", e->message);
                        g_error_free(e);
                        return status;
                }
                g_array_append_val(h->props, pr);
        }
        return EXIT_OK;
}

/* The options that say how it is hunted checked, into @h: the hang
 * timeout, isolation (and the child's command line), the budget; and each
 * policy run once on the properties.  EXIT_OK, or the error said. */
static int search_checked(GOptionContext *ctx, const struct hunt_opts *o, const struct boost_policy_ops *const *ops,
                          struct hunt *h)
{
        int status = EXIT_OK;
        GError *e = NULL;

        h->hang_us = 30 * G_USEC_PER_SEC;
        if (o->hang_text) {
                int64_t ns;

                if (!units_parse_duration(o->hang_text, &ns, &e) || ns < NSEC_PER_MSEC) {
                        status = cli_usage_error(ctx, "hunt: --hang-timeout %s: %s", o->hang_text,
                                                 e ? e->message : "at least 1ms");
                        g_clear_error(&e);
                        return status;
                }
                h->hang_us = ns / NSEC_PER_USEC;
        }
        /* a module is code nobody here reviewed: a crash or a hang in it is a finding */
        h->isolate = o->isolate || policy_module_path(ops[0]) || (ops[1] && policy_module_path(ops[1]));
        /* also: a policy that cannot run at all (its create() fails) is said at
         * once, not hunted with for ever (#50); a module's create() is called
         * in a child, and one that crashes or hangs there is left to the
         * search, which makes it a finding (#59) */
        {
                g_autoptr(GString) said = g_string_new(NULL);
                enum in_child_end end = hunt_props_checked(h, h->props, h->props->len - (o->property ? g_strv_length(o->property)
                                                                                                 : 0), ops, said);

                if (end == IN_CHILD_FAILED)
                        return cli_usage_error(ctx, "hunt: %s", said->str);
                if (end != IN_CHILD_OK)
                        fprintf(stderr, "rcuboost: warning: hunt: checking the properties against a run of each "
                                "policy, the child %s%s: not checked; the search will make it a finding\n",
                                end == IN_CHILD_HUNG ? "did not end within --hang-timeout" : "",
                                end == IN_CHILD_HUNG ? "" : said->str);
        }
        if (h->isolate && !child_argv_made(h, o->policy, o->versus, o->property, o->seeds, o->coverage))
                return EXIT_USAGE;
        h->max_runs = 1000;
        if (o->budget) {
                h->max_runs = 0;
                if (!parse_budget(o->budget, &h->max_runs, &h->deadline_us, &e)) {
                        status = cli_usage_error(ctx, "hunt: %s", e->message);
                        g_error_free(e);
                        return status;
                }
                if (h->deadline_us)
                        h->deadline_us += g_get_monotonic_time();
        }
        return EXIT_OK;
}

/* The search's state at its start: saved by an earlier hunt (--resume), or
 * a fresh one seeded from the corpus and the findings kept in DIR. */
static int search_begun(GOptionContext *ctx, const HuntOpts *o, struct hunt *h, struct hsearch *st,
                        const struct boost_policy_ops *ops[2], const char *identity, const char *findings_dir,
                        const char *corpus_dir, bool *findings_kept)
{
        g_autofree char *state_path = g_build_filename(o->out, "hunt.state", NULL);
        g_autofree char *saved = NULL;
        GError *e = NULL;
        int status;

        if (!o->resume)
                return corpus_begun(ctx, h, st, ops, findings_dir, corpus_dir, o->corpus_given, findings_kept);
        if (g_file_get_contents(state_path, &saved, NULL, &e) &&
            hsearch_load(h, st, identity, saved, ops, state_path, &e))
                return EXIT_OK;
        status = cli_usage_error(ctx, "hunt: %s%s", e->domain == G_FILE_ERROR ? "--resume: " : "", e->message);
        g_error_free(e);
        return status;
}

/* After each batch, on a terminal: how far the hunt has got. */
static void progress_shown(const struct hunt_run *r)
{
        const struct hunt *h = r->h;
        gint64 now = g_get_monotonic_time();
        double left_s = h->deadline_us ? (h->deadline_us - now) / 1e6
                        : h->runs ? (now - r->started_us) / 1e6 * ((double)h->max_runs - (double)h->runs) /
                                    (double)h->runs : 0;

        fprintf(stderr, "\r\033[Krcuboost: %" G_GUINT64_FORMAT " runs, %d finding%s, best margin %.2f, "
                "%d policy transitions, %d engine events, about %.0f s left", h->runs, r->st->nfound,
                r->st->nfound == 1 ? "" : "s", r->st->best_margin, r->st->edges->seen, r->st->edges->seen_engine,
                MAX(0, left_s));
}

int cli_hunt(int argc, char **argv)
{
        g_auto(HuntOpts) o = { .seeds = 3, .max_findings = 5 };
        g_autoptr(GOptionContext) ctx = options_context(&o);
        const struct boost_policy_ops *ops[2] = { NULL, NULL };
        struct hunt h = { 0 };
        struct hsearch st = { 0 };
        g_autofree char *findings_dir = NULL;
        g_autofree char *held_out = NULL, *findings_held = NULL;
        int held_fd = -1;
        g_autofree char *corpus_dir = NULL, *corpus_held = NULL, *identity = NULL;
        g_autoptr(GString) checkpoint = g_string_new(NULL);
        g_autofree char *given_shown = NULL;
        int locks[3] = { -1, -1, -1 };
        int status = EXIT_OK;
        bool findings_kept = false;     /* DIR/findings/ holds an earlier hunt's: locked, not emptied */
        uint64_t hunt_seed = 1;
        g_autoptr(GString) times = g_string_new(NULL);  /* "time:" lines of hunt.txt */

        if (!cli_parse_options(ctx, &argc, &argv, &status))
                return status;
        g_autoptr(GArray) props = hunt_default_props();

        h.props = props;
        if ((status = options_checked(ctx, argc, argv, &o, ops, &h, &hunt_seed)) != EXIT_OK)
                return status;
        /* a child evaluating one candidate for its parent: the parent checked the rest */
        if (o.eval_child_mode) {
                h.in_child = true;
                return hunt_eval_child(&h);
        }
        if ((status = search_checked(ctx, &o, ops, &h)) != EXIT_OK)
                return status;
        g_autofree char *props_given = o.property ? g_strjoinv("' --property '", o.property) : NULL;
        g_autofree char *props_shown = props_given ? g_strdup_printf(" --property '%s'", props_given) : g_strdup("");

        g_autofree char *coverage_shown = o.coverage && strcmp(o.coverage, "both") != 0
                                          ? g_strdup_printf(" --coverage %s", o.coverage) : g_strdup("");

        /* h.replay's, freed on every way out */
        g_autofree char *replay_p = policy_module_path(ops[0]) ? g_shell_quote(policy_module_path(ops[0]))
                                                               : g_strdup(ops[0]->name);
        g_autofree char *replay_q = !ops[1] ? NULL
                                    : policy_module_path(ops[1]) ? g_shell_quote(policy_module_path(ops[1]))
                                    : g_strdup(ops[1]->name);

        h.replay[0] = replay_p;
        h.replay[1] = replay_q;
        if (!o.out)
                o.out = h.policy[1] ? g_strdup_printf("out/hunt-%s-vs-%s", h.policy[0], h.policy[1])
                                  : g_strdup_printf("out/hunt-%s", h.policy[0]);
        findings_dir = g_build_filename(o.out, "findings", NULL);
        corpus_dir = g_build_filename(o.out, "corpus", NULL);
        if (o.resume && o.corpus_given)
                return cli_usage_error(ctx, "hunt: --resume goes on with the corpus the hunt began with: no --corpus");
        h.rng = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(h.rng, hunt_seed);
        hsearch_init(&st);
        identity = g_strdup_printf("--policy %s%s%s%s%s --seed %" G_GUINT64_FORMAT " --seeds %d", h.replay[0],
                                   h.policy[1] ? " --versus " : "", h.policy[1] ? h.replay[1] : "", props_shown,
                                   coverage_shown, hunt_seed, o.seeds);
        /* the options that steer the search, as a finding's header repeats them */
        if (o.corpus_given && strcmp(o.corpus_given, "shipped") != 0) {
                bool plain = o.corpus_given[strspn(o.corpus_given, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                               "0123456789_./-")] == 0;
                g_autofree char *quoted = plain ? g_strdup(o.corpus_given) : g_shell_quote(o.corpus_given);

                st.corpus_shown = g_strdup_printf(" --corpus %s", quoted);
        }
        if ((status = search_begun(ctx, &o, &h, &st, ops, identity, findings_dir, corpus_dir, &findings_kept)) !=
            EXIT_OK) {
                hsearch_free(&st);
                gsl_rng_free(h.rng);
                return status;
        }
        cli_catch_signals();
        (void)cli_interrupt_flag();     /* armed: a signal ends the batch in progress, then the hunt */
        /* findings/ and corpus/ are directories of their own kinds, held while
         * the hunt writes there: `run --out DIR/findings` is refused, not let
         * delete them (#49); --resume keeps what they hold, and no hunt deletes
         * an earlier one's findings (#59): its own are numbered after them */
        if (!(held_out = dirs_held(o.out, findings_dir, corpus_dir, o.resume, findings_kept, locks, &held_fd))) {
                hsearch_free(&st);
                gsl_rng_free(h.rng);
                return EXIT_USAGE;
        }
        findings_held = g_build_filename(held_out, "findings", NULL);
        given_shown = g_strconcat(props_shown, coverage_shown, st.corpus_shown ? st.corpus_shown : "", NULL);
        h.given = given_shown;
        corpus_held = g_build_filename(held_out, "corpus", NULL);
        h.jobs = o.jobs > 0 ? o.jobs : (int)g_get_num_processors();
        g_mutex_init(&h.lock);
        g_cond_init(&h.done);
        h.pool = g_thread_pool_new(hunt_pool_work, &h, h.jobs, TRUE, NULL);
        h.tty = !o.quiet && isatty(fileno(stderr));
        if (!o.quiet)
                fprintf(stderr, "rcuboost: hunting %s%s%s over %d seed%s per candidate, %s%s (%d at a time)\n",
                        h.policy[0], h.policy[1] ? " versus " : "", h.policy[1] ? h.policy[1] : "", o.seeds,
                        o.seeds == 1 ? "" : "s", o.budget ? "budget " : "budget 1000runs",
                        o.budget ? o.budget : "", h.jobs);

        gint64 started_us = g_get_monotonic_time(), saved_us = started_us;
        struct hunt_run r = { &h, &st, ops, o.out, findings_dir, held_out, findings_held, corpus_held, hunt_seed,
                              o.max_findings, o.quiet, false, status, times, 0, started_us };

        while (!hunt_out_of_budget(&h) && st.nfound < o.max_findings && !r.write_failed) {
                struct heval evs[HUNT_BATCH];

                /* the state before this batch: what --resume goes on from if the
                 * batch does not end (a signal); on disk every half minute too */
                hsearch_save(&h, &st, identity, checkpoint);
                if (g_get_monotonic_time() - saved_us > 30 * G_USEC_PER_SEC) {
                        hunt_state_write(held_out, checkpoint, o.out);
                        saved_us = g_get_monotonic_time();
                }
                batch_made(&r, evs);
                hunt_eval_batch(&h, evs, HUNT_BATCH);
                st.batches++;
                for (int i = 0; i < HUNT_BATCH; i++)
                        candidate_taken(&r, &evs[i]);
                if (h.tty)
                        progress_shown(&r);
        }
        hunt_ended(&r, identity, checkpoint, given_shown, o.seeds, o.budget);
        status = r.status;
        hsearch_free(&st);
        gsl_rng_free(h.rng);
        g_mutex_clear(&h.lock);
        g_cond_clear(&h.done);
        for (int i = 2; i >= 0; i--)
                output_dir_unlock(locks[i]);
        close(held_fd);
        if (h.child_argv)
                g_ptr_array_unref(h.child_argv);
        if (cli_interrupt_status())
                return cli_interrupt_status();
        /* a finding no policy holds is the scenario's: it does not fail P */
        return status != EXIT_OK ? status : st.nfound > st.nobody ? EXIT_FAILED : EXIT_OK;
}
