/* hunt.c - `rcuboost hunt`: search scenario space for a run that breaks a
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
#include "cli.h"
#include "hscn.h"
#include "scnedit.h"

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

#include "../policies/policy.h"
#include "../sim/coverage.h"
#include "../sim/expect.h"
#include "../sim/kernel.h"
#include "../sim/output.h"
#include "../sim/report.h"
#include "../sim/scenario.h"
#include "../sim/sim.h"
#include "../sim/units.h"

#define HUNT_BATCH 8            /* candidates per batch, whatever -j: results do not depend on -j */
#define HUNT_NEAR 8             /* candidates kept for mutation: the nearest to failing */
#define HUNT_CONFIRM 3          /* a finding holds over this many times --seeds before it is taken */
#define HUNT_SHRINK_RUNS 4000   /* simulations a finding's shrinking may take */
#define HUNT_REDUCTIONS 256     /* one-step simplifications: up to ~21 per task, HSCN_MAX_TASKS tasks */
#define HUNT_MAX_RUNS UINT64_C(1000000000000)   /* a --budget in runs: beyond any machine's reach */
#define HUNT_POLICY_EDGES 4096  /* policy state transitions: bit T of word F of sim_policy_coverage() */
#define HUNT_COV_WORDS (64 + COVERAGE_ENGINE_WORDS)
#define HUNT_EDGES (64 * HUNT_COV_WORDS) /* ... then the engine's events and pairs (coverage.h) */
#define HUNT_MEMORY_LIMIT (32 * 1048576LL)
#define HUNT_MAX_PROPS 24       /* the defaults and up to 12 --property */
#define HUNT_MAX_USER_PROPS 12
#define HUNT_SEED_MAX_NS (5 * NSEC_PER_SEC) /* a corpus seed runs at most this long */


/* ---- properties ---- */

/* What a property asks of a run: a bound on its summary, or that it ends
 * at all -- no deadlock, no breach of the policy contract, a create() that
 * does not fail, no crash and no hang of the process running it (#50). */
enum hkind { HPROP_EXPECT, HPROP_DEADLOCK, HPROP_CONTRACT, HPROP_CREATE, HPROP_CRASH, HPROP_HANG };

struct hprop {
        char *name;                     /* in findings' file names: "oom", "gp_max_at_least" */
        char *line;                     /* the [expect] line without its policy: "oom=false" */
        enum hkind kind;
        struct expectation *x;          /* policy "*" (HPROP_EXPECT), else NULL */
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
        /* each finding's header repeats the property: a line break there
         * would inject a line into every finding, which then no longer loads */
        if (strpbrk(text, "\n\r")) {
                g_autofree char *shown = g_strescape(text, NULL);

                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "--property: a line break in '%s': one property a line", shown);
                return FALSE;
        }
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

/* @fn(@data, msg) in a forked child, for code of a module's that the hunt
 * must survive (#59): IN_CHILD_OK or IN_CHILD_FAILED (@fn's answer, @msg
 * what it said), IN_CHILD_CRASHED (@msg: how it ended) or IN_CHILD_HUNG
 * (killed after @timeout_us).  A forked child writes below the directory
 * the hunt holds as the hunt does (/proc/self/fd/N). */
enum in_child_end { IN_CHILD_OK, IN_CHILD_FAILED, IN_CHILD_CRASHED, IN_CHILD_HUNG };

static enum in_child_end in_child(gint64 timeout_us, gboolean (*fn)(void *data, GString *msg), void *data,
                                  GString *msg)
{
        gint64 deadline = g_get_monotonic_time() + timeout_us;
        int fds[2], status = 0;
        pid_t pid;
        char buf[512];

        fflush(NULL);
        if (pipe(fds) != 0 || (pid = fork()) < 0) {
                g_string_append_printf(msg, "cannot start a child process: %s", g_strerror(errno));
                return IN_CHILD_CRASHED;
        }
        if (pid == 0) {
                g_autoptr(GString) said = g_string_new(NULL);
                gboolean ok;

                close(fds[0]);
                ok = fn(data, said);
                if (write(fds[1], said->str, said->len) < 0)
                        _exit(3);
                _exit(ok ? 0 : 1);
        }
        close(fds[1]);
        for (;;) {
                struct pollfd p = { fds[0], POLLIN, 0 };
                gint64 left = deadline - g_get_monotonic_time();
                ssize_t n;

                if (left <= 0 || poll(&p, 1, (int)MIN(left / 1000 + 1, 1000)) < 0) {
                        if (left > 0 && errno == EINTR)
                                continue;
                        if (left > 0)
                                break;
                        kill(pid, SIGKILL);
                        waitpid(pid, NULL, 0);
                        close(fds[0]);
                        return IN_CHILD_HUNG;
                }
                if (!p.revents)
                        continue;
                if ((n = read(fds[0], buf, sizeof(buf))) <= 0)
                        break;
                g_string_append_len(msg, buf, n);
        }
        close(fds[0]);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
        if (WIFEXITED(status) && WEXITSTATUS(status) <= 1)
                return WEXITSTATUS(status) ? IN_CHILD_FAILED : IN_CHILD_OK;
        g_string_truncate(msg, 0);
        if (WIFSIGNALED(status))
                g_string_append_printf(msg, "ended by signal %d (%s)", WTERMSIG(status), g_strsignal(WTERMSIG(status)));
        else
                g_string_append_printf(msg, "exited with status %d", WEXITSTATUS(status));
        return IN_CHILD_CRASHED;
}

/* Can each policy run (its create() succeeds), and does each --property
 * name a key of the policies' summaries, with a value of
 * its kind, as check holds an [expect] line to (#49: a misspelt metric
 * never failed, and "gp_max_at_least<=1" -- 1 ns -- gave findings whose
 * replay check refused): asked of a summary of each policy on a scenario
 * hunt would draw. */
static gboolean props_check(GArray *props, guint first, const struct boost_policy_ops *const *ops,
                            GError **error)
{
        gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
        struct hscn s;
        g_autofree char *text = NULL;
        gboolean ok = TRUE;

        gsl_rng_set(rng, 1);
        hscn_random(rng, ops[0], ops[1], &s);
        gsl_rng_free(rng);
        text = hscn_render(&s, 1, NULL, NULL);
        g_autoptr(RcbScenario) sc = scenario_load_data(text, "hunt.scn", NULL, error);

        for (int p = 0; ok && sc && p < 2 && ops[p]; p++) {
                static const char plain[] = "[scenario]\ncpus=1\nduration=10ms\n"
                                            "[task:reader]\nprogram=rcu_read_lock; compute 1ms; rcu_read_unlock\n";
                g_autoptr(RcbScenario) one = NULL;
                GError *e = NULL;
                g_autoptr(RcbSim) sim = sim_new(sc, &(struct sim_options){ .policy = ops[p]->name }, &e);

                /* a create() that fails here may succeed elsewhere (a finding, "create"):
                 * refused at once only if it fails on the plainest machine too */
                if (!sim && g_error_matches(e, POLICY_ERROR, POLICY_ERROR_CREATE) &&
                    (one = scenario_load_data(plain, "plain.scn", NULL, NULL))) {
                        g_clear_error(&e);
                        sim = sim_new(one, &(struct sim_options){ .policy = ops[p]->name }, &e);
                }
                if (!sim) {
                        g_propagate_error(error, e);
                        return FALSE;
                }
                g_autoptr(RcbReport) r = sim_build_report(sim);

                if (!r)
                        return FALSE;
                for (guint k = first; ok && k < props->len; k++) {
                        const struct hprop *pr = &g_array_index(props, struct hprop, k);

                        if (!pr->x->where)      /* the messages say where, as check's name file:line */
                                pr->x->where = g_strdup_printf("--property '%s'", pr->line);
                        ok = expect_check(pr->x, r, error);
                }
        }
        return sc && ok;
}

struct props_job {
        GArray *props;
        guint first;
        const struct boost_policy_ops *const *ops;
};

/* props_check() for in_child(): its error said in @msg. */
static gboolean props_check_said(void *data, GString *msg)
{
        struct props_job *job = data;
        GError *e = NULL;

        if (props_check(job->props, job->first, job->ops, &e))
                return TRUE;
        g_string_append(msg, e ? e->message : "the check failed");
        g_clear_error(&e);
        return FALSE;
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
        static const struct {
                enum hkind kind;
                const char *name, *line;
        } ends[] = {
                { HPROP_DEADLOCK, "deadlock", "(no deadlock)" },
                { HPROP_CONTRACT, "contract", "(no breach of the policy contract)" },
                { HPROP_CREATE, "create", "(create() succeeds)" },
                { HPROP_CRASH, "crash", "(the process running it does not crash)" },
                { HPROP_HANG, "hang", "(every run ends within --hang-timeout)" },
        };
        for (size_t i = 0; i < G_N_ELEMENTS(ends); i++) {
                memset(&p, 0, sizeof(p));
                p.kind = ends[i].kind;
                p.name = g_strdup(ends[i].name);
                p.line = g_strdup(ends[i].line);
                p.correctness = true;
                g_array_append_val(props, p);
        }
        hprop_parse("boosted_outside_cs_ns<=1ms", &p, NULL);
        g_free(p.name);
        p.name = g_strdup("boosted_outside_cs");
        p.per_tick = true;
        p.correctness = true;
        g_array_append_val(props, p);
        return props;
}

/* ---- evaluating a candidate ---- */

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
static char *cause_of(const struct hprop *pr, const struct report *r, const struct sim *sim, const uint64_t *bits)
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

struct hunt;

/* A candidate as the search keeps it: a tree of the grammar, or -- a
 * corpus seed, or an edit of one (scnedit.h) -- scenario text alone. */
struct hcand {
        struct hscn s;
        char *text;                     /* NULL: the tree; else the scenario, without [expect] */
        char origin[48];                /* a text's: the corpus file it comes from */
};

struct heval {
        struct hscn s;
        char *text;                     /* the scenario, without [expect] */
        bool textual;                   /* no tree: text is the candidate (its s is unused) */
        bool as_seeded;                 /* a corpus file as it is, not an edit of one */
        char origin[48];                /* ... and the corpus file it comes from */
        gboolean bad;                   /* did not load or start (a grammar bug: said once) */
        char *why;
        int fails[2][HUNT_MAX_PROPS];   /* [P, Q][property]: failing seeds */
        uint64_t first_fail[HUNT_MAX_PROPS]; /* P's first failing seed per property */
        char mechanism[HUNT_MAX_PROPS][64]; /* ... and how it failed there (mechanism_of()) */
        double margin;                  /* P's nearest approach to failing (1: at the bound), less Q's */
        uint64_t cov[HUNT_COV_WORDS];   /* P's policy state transitions over its runs (sim_policy_coverage()),
                                         * then its engine events (sim_engine_coverage()) */
        int64_t tick_ns[2];             /* the scheduling-clock tick each policy ran with (a per_tick bound) */
        int runs;                       /* simulations its last evaluation ran */
        int only;                       /* 1 + the one property asked about: Q runs only if P fails it */
        int seed_lo, seed_hi;           /* the seeds its last evaluation ran; the counts above are over 1..seed_hi */
};

struct hunt {
        const char *policy[2];          /* P, and Q or NULL */
        char *replay[2];                /* as a command line names them: a module by its path (#50) */
        GArray *props;                  /* struct hprop */
        int nseeds;
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
        /* each candidate evaluated in a child process (a module's crash or
         * hang is then a finding, not the hunt's end): its command line */
        bool isolate;
        bool in_child;                  /* this process is such a child (--eval-child) */
        GPtrArray *child_argv;
        gint64 hang_us;                 /* a child evaluating longer than this hangs */
        const char *rerun_failed;       /* write_finding(): the failing run, run again in a child to
                                         * describe it, crashed or hung there (how): not run again */
        bool cover_policy, cover_engine; /* --coverage: what steers the search */
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

/* P fails property @k: in one seed for a correctness property (a safety
 * violation, a deadlock, a boost left behind: one occurrence is the bug),
 * else in at least half -- and Q in none. */
static bool fails_prop(const struct hunt *h, const struct heval *ev, int k)
{
        const struct hprop *pr = &g_array_index(h->props, struct hprop, k);

        return !ev->bad && ev->fails[0][k] > 0 && (pr->correctness || 2 * ev->fails[0][k] >= ev->seed_hi) &&
               (!h->policy[1] || ev->fails[1][k] == 0);
}

/* The property of @kind (every hunt has them all). */
static int prop_of_kind(const struct hunt *h, enum hkind kind)
{
        for (guint k = 0; k < h->props->len; k++)
                if (g_array_index(h->props, struct hprop, k).kind == kind)
                        return (int)k;
        g_assert_not_reached();
}

/* Policy @p failed property @k at @seed: counted; P's first failure
 * says how, from its report @r (mechanism_of()), else @how. */
static void note_fail(const struct hunt *h, struct heval *ev, int p, int k, uint64_t seed, const struct sim *sim,
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

static void eval_in_process(struct hunt *h, struct heval *ev)
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
                if (p == 1 && ev->only && !fails_prop(h, ev, ev->only - 1))
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
                                note_fail(h, ev, p, prop_of_kind(h, HPROP_CREATE), seed, NULL, NULL, "create() failed");
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
                                                note_fail(h, ev, p, (int)k, seed, NULL, NULL, hook);
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
                                        note_fail(h, ev, p, (int)k, seed, sim, sim_report(sim), "-");
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

/* ---- a candidate in a child process ---- */

/* What a child is asked and answers: the evaluation's state in lines of
 * "KEY ARGS...", the scenario after "text".  The child runs
 * eval_in_process() on it and prints the state back; before each run it
 * prints "run P SEED", so that a crash or a hang is pinned to its run. */
static void state_write(const struct hunt *h, const struct heval *ev, GString *o)
{
        g_string_append_printf(o, "seeds %d %d %d\nmargin %.17g\nruns %d\nbad %d\n", ev->seed_lo, ev->seed_hi,
                               ev->only, ev->margin, ev->runs, ev->bad ? 1 : 0);
        for (int p = 0; p < 2; p++)
                g_string_append_printf(o, "tick %d %" G_GINT64_FORMAT "\n", p, (gint64)ev->tick_ns[p]);
        for (guint k = 0; k < h->props->len; k++) {
                g_string_append_printf(o, "fails %u %d %d %" G_GUINT64_FORMAT "\n", k, ev->fails[0][k], ev->fails[1][k],
                                       ev->first_fail[k]);
                if (ev->fails[0][k])
                        g_string_append_printf(o, "mechanism %u %s\n", k, ev->mechanism[k]);
        }
        for (int w = 0; w < HUNT_COV_WORDS; w++)
                if (ev->cov[w])
                        g_string_append_printf(o, "cov %d %" G_GUINT64_FORMAT "\n", w, ev->cov[w]);
        if (ev->why)
                g_string_append_printf(o, "why %s\n", ev->why);
}

/* Read back what state_write() wrote (and "run" lines: the last run begun). */
static void state_read(const struct hunt *h, struct heval *ev, const char *text, int *run_p, uint64_t *run_seed)
{
        g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

        for (char **l = lines; *l; l++) {
                const char *rest = strchr(*l, ' ');
                guint k;
                int a, b, c;
                gint64 x;
                guint64 y;

                if (!rest)
                        continue;
                rest++;
                if (g_str_has_prefix(*l, "seeds ") && sscanf(rest, "%d %d %d", &a, &b, &c) == 3) {
                        ev->seed_lo = a, ev->seed_hi = b, ev->only = c;
                } else if (g_str_has_prefix(*l, "margin ")) {
                        ev->margin = g_ascii_strtod(rest, NULL);
                } else if (g_str_has_prefix(*l, "runs ") && sscanf(rest, "%d", &a) == 1) {
                        ev->runs = a;
                } else if (g_str_has_prefix(*l, "bad ") && sscanf(rest, "%d", &a) == 1) {
                        ev->bad = a;
                } else if (g_str_has_prefix(*l, "tick ") && sscanf(rest, "%d %" G_GINT64_FORMAT, &a, &x) == 2 &&
                           a >= 0 && a < 2) {
                        ev->tick_ns[a] = x;
                } else if (g_str_has_prefix(*l, "fails ") &&
                           sscanf(rest, "%u %d %d %" G_GUINT64_FORMAT, &k, &a, &b, &y) == 4 && k < h->props->len) {
                        ev->fails[0][k] = a, ev->fails[1][k] = b, ev->first_fail[k] = y;
                } else if (g_str_has_prefix(*l, "mechanism ") && sscanf(rest, "%u", &k) == 1 && k < h->props->len &&
                           strchr(rest, ' ')) {
                        g_strlcpy(ev->mechanism[k], strchr(rest, ' ') + 1, sizeof(ev->mechanism[k]));
                } else if (g_str_has_prefix(*l, "cov ") && sscanf(rest, "%d %" G_GUINT64_FORMAT, &a, &y) == 2 &&
                           a >= 0 && a < HUNT_COV_WORDS) {
                        ev->cov[a] = y;
                } else if (g_str_has_prefix(*l, "why ")) {
                        g_free(ev->why);
                        ev->why = g_strdup(rest);
                } else if (g_str_has_prefix(*l, "run ") && run_p &&
                           sscanf(rest, "%d %" G_GUINT64_FORMAT, &a, &y) == 2) {
                        *run_p = a, *run_seed = y;
                }
        }
}

/* `hunt --eval-child`: one evaluation asked on stdin, answered on stdout. */
static int eval_child(struct hunt *h)
{
        g_autoptr(GString) in = g_string_new(NULL);
        g_autoptr(GString) o = g_string_new(NULL);
        struct heval ev = { 0 };
        char buf[4096];
        size_t n;
        const char *text;

        /* a candidate is a scenario file and its state: bounded as scenario files are (#59) */
        while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0) {
                g_string_append_len(in, buf, (gssize)n);
                if (in->len > 2 * (gsize)SCENARIO_MAX_BYTES) {
                        fprintf(stderr, "rcuboost: hunt --eval-child: a request over %d MiB\n",
                                2 * (SCENARIO_MAX_BYTES >> 20));
                        return EXIT_USAGE;
                }
        }
        text = strstr(in->str, "\ntext\n");
        if (!text || strlen(in->str) != in->len)        /* a NUL inside: not text */
                return EXIT_USAGE;
        ev.text = g_strdup(text + strlen("\ntext\n"));
        g_string_truncate(in, (gsize)(text - in->str) + 1);
        state_read(h, &ev, in->str, NULL, NULL);
        eval_in_process(h, &ev);
        state_write(h, &ev, o);
        fputs(o->str, stdout);
        fflush(stdout);
        g_free(ev.text);
        g_free(ev.why);
        return EXIT_OK;
}

/* P's (or Q's) run at @seed crashed or hung the child: property @kind fails
 * there, and the candidate's other seeds are not run -- the finding is made. */
static void child_failed(struct hunt *h, struct heval *ev, int p, uint64_t seed, enum hkind kind, const char *how)
{
        note_fail(h, ev, p, prop_of_kind(h, kind), seed, NULL, NULL, how);
        ev->runs++;
}

static void eval_isolated(struct hunt *h, struct heval *ev)
{
        g_autoptr(GString) req = g_string_new(NULL);
        g_autoptr(GString) answer = g_string_new(NULL);
        g_autoptr(GError) e = NULL;
        GPid pid;
        int in_fd, out_fd, status = 0, run_p = 0;
        uint64_t run_seed = (uint64_t)(ev->seed_lo ? ev->seed_lo : 1);
        gint64 deadline = g_get_monotonic_time() + h->hang_us;
        bool hung = false;

        if (ev->seed_hi == 0) {
                ev->seed_lo = 1;
                ev->seed_hi = h->nseeds;
        }
        /* a signal ends the hunt: no child for what is left of the batch (#59) */
        if (cli_interrupt_status())
                return;
        state_write(h, ev, req);
        g_string_append_printf(req, "text\n%s", ev->text);
        if (!g_spawn_async_with_pipes(NULL, (char **)h->child_argv->pdata, NULL, G_SPAWN_DO_NOT_REAP_CHILD |
                                      G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &pid, &in_fd, &out_fd, NULL, &e)) {
                ev->bad = TRUE;
                ev->why = g_strdup_printf("cannot start a child to evaluate it: %s", e->message);
                return;
        }
        /* the request fits a pipe's buffer or is read as it is written */
        for (gsize off = 0; off < req->len;) {
                ssize_t w = write(in_fd, req->str + off, req->len - off);

                if (w <= 0)
                        break;
                off += (gsize)w;
        }
        close(in_fd);
        fcntl(out_fd, F_SETFL, fcntl(out_fd, F_GETFL) | O_NONBLOCK);
        for (;;) {
                char buf[4096];
                ssize_t r = read(out_fd, buf, sizeof(buf));

                if (r > 0) {
                        g_string_append_len(answer, buf, r);
                        /* the child says "run P SEED" as each run starts: --hang-timeout
                         * bounds one run, as the docs say, not the candidate's every seed (#59) */
                        deadline = g_get_monotonic_time() + h->hang_us;
                        continue;
                }
                if (r == 0)
                        break;
                if (errno != EAGAIN && errno != EINTR)
                        break;
                /* ... and ends the child at once, not at --hang-timeout (#59) */
                if (cli_interrupt_status()) {
                        kill(pid, SIGKILL);
                        break;
                }
                if (g_get_monotonic_time() > deadline) {
                        kill(pid, SIGKILL);
                        hung = true;
                        break;
                }
                g_usleep(1000);
        }
        close(out_fd);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
        g_spawn_close_pid(pid);
        /* a SIGINT at the terminal reached the child too: the hunt stops, nothing is found */
        if (cli_interrupt_status())
                return;
        state_read(h, ev, answer->str, &run_p, &run_seed);
        if (hung) {
                g_autofree char *bound = hscn_format_ns(h->hang_us * 1000);
                g_autofree char *how = g_strdup_printf("no end in %s", bound);

                child_failed(h, ev, run_p, run_seed, HPROP_HANG, how);
        } else if (WIFSIGNALED(status)) {
                g_autofree char *how = g_strdup_printf("signal %d (%s)", WTERMSIG(status), g_strsignal(WTERMSIG(status)));

                child_failed(h, ev, run_p, run_seed, HPROP_CRASH, how);
        } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !strstr(answer->str, "\nbad ")) {
                /* an exit() from inside the policy: the process ended mid-run */
                g_autofree char *how = g_strdup_printf("exit %d mid-run", WIFEXITED(status) ? WEXITSTATUS(status) : -1);

                child_failed(h, ev, run_p, run_seed, HPROP_CRASH, how);
        }
}

static void eval_candidate(struct hunt *h, struct heval *ev)
{
        if (h->isolate)
                eval_isolated(h, ev);
        else
                eval_in_process(h, ev);
}

/* Property @pr as an [expect] line without its policy, with the bound it
 * had under policy @p on @ev: "boosted_outside_cs_ns<=4ms" at HZ=250. */
static char *prop_text(const struct hprop *pr, const struct heval *ev, int p)
{
        g_autofree char *tick = NULL;

        if (!pr->per_tick)
                return g_strdup(pr->line);
        tick = hscn_format_ns(ev->tick_ns[p]);
        return g_strdup_printf("boosted_outside_cs_ns<=%s", tick);
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

/* @ev fails property @k on the --seeds seeds: does it on HUNT_CONFIRM times
 * as many?  P must still fail in half of them (one, for a correctness
 * property) and Q hold in every one: with three seeds, 2 failing against 0
 * is luck often enough -- both boosters' bare-setprio hole met by the timing
 * of one and not the other -- to be worth the runs, which only candidates
 * that fail pay.  Without Q a correctness property needs no more. */
static bool confirm(struct hunt *h, struct heval *ev, int k)
{
        if (!h->policy[1] && g_array_index(h->props, struct hprop, k).correctness)
                return true;
        if (ev->seed_hi >= HUNT_CONFIRM * h->nseeds)    /* asked on them all already */
                return fails_prop(h, ev, k);
        ev->seed_lo = ev->seed_hi + 1;
        ev->seed_hi = HUNT_CONFIRM * h->nseeds;
        ev->only = k + 1;
        eval_batch(h, ev, 1);
        return fails_prop(h, ev, k);
}

static void heval_set(struct heval *ev, const struct hscn *s)
{
        memset(ev, 0, sizeof(*ev));
        ev->s = *s;
        ev->text = hscn_render(s, 1, NULL, NULL);
}

/* @ev for @c (its text copied; a text candidate's tree says no key). */
static void heval_set_cand(struct heval *ev, const struct hcand *c)
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
static void hcand_set(struct hcand *c, const struct heval *ev)
{
        g_free(c->text);
        c->s = ev->s;
        c->text = ev->textual ? g_strdup(ev->text) : NULL;
        g_strlcpy(c->origin, ev->origin, sizeof(c->origin));
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

        eval_batch(h, evs, m);
        for (int i = 0; i < m; i++) {
                if (took < 0 && fails_prop(h, &evs[i], k) && !strcmp(evs[i].mechanism[k], mechanism) &&
                    confirm(h, &evs[i], k)) {
                        heval_clear(best);
                        *best = evs[i];
                        took = i;
                } else {
                        heval_clear(&evs[i]);
                }
        }
        return took;
}

static void shrink(struct hunt *h, struct heval *best, int k)
{
        char mechanism[sizeof(best->mechanism[0])];
        g_autofree struct hscn *cand = g_new(struct hscn, HUNT_REDUCTIONS);
        struct heval evs[HUNT_BATCH];
        guint64 spent = 0;
        int from = 0;
        bool taken = false;             /* in this pass */

        g_strlcpy(mechanism, best->mechanism[k], sizeof(mechanism));
        while (spent < HUNT_SHRINK_RUNS && !cli_interrupt_status()) {
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
static void shrink_duration(struct hunt *h, struct heval *best, int k)
{
        char mechanism[sizeof(best->mechanism[0])];

        g_strlcpy(mechanism, best->mechanism[k], sizeof(mechanism));
        while (!cli_interrupt_status()) {
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

/* One pass of shrink_lines(): each unit -- a line, or with @sections a
 * whole section but [scenario] -- deleted on its own.  Did it take any? */
static bool delete_units(struct hunt *h, struct heval *best, int k, const char *mechanism, bool sections)
{
        struct heval evs[HUNT_BATCH];
        int from = 0;
        bool any = false;

        while (!cli_interrupt_status()) {
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
static void shrink_lines(struct hunt *h, struct heval *best, int k)
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
        for (bool again = true; again && !cli_interrupt_status();) {
                again = delete_units(h, best, k, mechanism, true);
                again = delete_units(h, best, k, mechanism, false) || again;
        }
}

/* Without --versus: does every built-in policy fail @k on @ev too, on the
 * same seeds as P did?  Then no policy holds it (an updater alone that
 * outruns the memory limit), and it is the scenario's finding, not P's
 * (#50).  @who: the policies asked, for the finding's header. */
static bool no_policy_holds(const struct hunt *h, const struct heval *ev, int k, GString *who)
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
                eval_in_process(&one, &e);
                fails = fails_prop(&one, &e, k);
                heval_clear(&e);
                if (!fails)
                        return false;
                g_string_append_printf(who, "%s%s", asked++ ? ", " : "", (*ops)->name);
        }
        return asked > 0;
}

/* ---- findings ---- */

/* @msg with the held directory's name (/proc/self/fd/N) shown as the user gave it. */
static char *shown_path(const char *msg, const char *held, const char *given)
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

/* write_finding() for in_child(): its error said in @msg. */
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
static gboolean finding_written(struct hunt *h, const char *dir, int number, const struct heval *ev, int k,
                                uint64_t hunt_seed, const char *no_policy, GError **error)
{
        struct finding_job job = { h, dir, number, k, ev, hunt_seed, no_policy };
        g_autoptr(GString) said = g_string_new(NULL);
        gboolean ok;

        if (!h->isolate)
                return write_finding(h, dir, number, ev, k, hunt_seed, no_policy, error);
        switch (in_child(2 * h->hang_us, write_finding_said, &job, said)) {   /* its two runs */
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

/* cause_of() the failing run: P's at @seed, again, counting coverage (which changes nothing it outputs). */
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
        return cause_of(pr, sim_report(sim), sim, bits);
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
                g_autofree char *bound = pr->x ? prop_text(pr, ev, p) : g_strdup("safety_violations=0");

                line[p] = g_strdup_printf("%s.%s", h->policy[p], bound);
        }
        g_string_append_printf(head, "# %s -- found by `rcuboost hunt --policy %s%s%s%s --seed %" G_GUINT64_FORMAT
                               "`, then shrunk.\n", scn_name, h->replay[0], h->policy[1] ? " --versus " : "",
                               h->policy[1] ? h->replay[1] : "", h->given, hunt_seed);
        g_autofree char *failed = prop_text(pr, ev, 0);
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

/* ---- coverage ---- */

/* Every policy state transition and engine event (and pair of one task's
 * events, coverage.h) the search has seen, how many candidates took it, and
 * the latest that did.  A quarter of each batch mutates the keeper of an
 * edge drawn with weight 1/hits, so the rarest get the most mutations --
 * booster-8state's BOOSTING -> UNBOOST_IDLE (the Jan 2 race) over its
 * everyday IDLE -> BLOCKED; for a module that reports no states, a boost
 * that lands on a reader already back on its CPU -- as a fuzzer
 * favours the inputs that reach rare branches.  An edge never seen before
 * weighs 1. */
struct edges {
        guint32 hits[HUNT_EDGES];
        struct hcand *keeper[HUNT_EDGES];
        int seen;                       /* policy state transitions */
        int seen_engine;                /* engine events and pairs */
};

/* Count @ev's transitions; it becomes their keeper.  Did it reach one no
 * candidate had before? */
static bool edges_note(struct edges *g, const struct heval *ev)
{
        bool fresh = false;

        for (int e = 0; e < HUNT_EDGES; e++) {
                if (!(ev->cov[e / 64] >> (e % 64) & 1))
                        continue;
                if (!g->hits[e]++) {
                        g->keeper[e] = g_new0(struct hcand, 1);
                        if (e < HUNT_POLICY_EDGES)
                                g->seen++;
                        else
                                g->seen_engine++;
                        fresh = true;
                }
                hcand_set(g->keeper[e], ev);
        }
        return fresh;
}

/* The keeper of a transition drawn with weight 1/hits, or NULL before any. */
static const struct hcand *edges_pick(const struct edges *g, gsl_rng *r)
{
        double total = 0, at;

        for (int e = 0; e < HUNT_EDGES; e++)
                if (g->hits[e])
                        total += 1.0 / g->hits[e];
        if (total == 0)
                return NULL;
        at = gsl_rng_uniform(r) * total;
        for (int e = 0; e < HUNT_EDGES; e++) {
                if (!g->hits[e])
                        continue;
                at -= 1.0 / g->hits[e];
                if (at < 0)
                        return g->keeper[e];
        }
        for (int e = HUNT_EDGES - 1; e >= 0; e--)       /* rounding left a sliver: the last */
                if (g->hits[e])
                        return g->keeper[e];
        return NULL;
}

/* hunt.txt's line on the engine's events: how many (event, bucket) pairs,
 * and the events no candidate reached -- where the search did not go. */
static char *engine_events_said(const struct hunt *h, const struct edges *g)
{
        GString *s = g_string_new(NULL);
        int never = 0;

        if (!h->cover_engine)
                return g_string_free(s, FALSE);
        g_string_append_printf(s, "engine events seen: %d (events, and one task's event after another)",
                               g->seen_engine);
        for (int e = 0; e < EE_EVENTS; e++) {
                if (!g->hits[HUNT_POLICY_EDGES + e])
                        g_string_append_printf(s, "%s%s", never++ ? "; " : "; never reached: ",
                                               coverage_event_name((enum engine_event)e));
        }
        g_string_append_c(s, '\n');
        return g_string_free(s, FALSE);
}

static void edges_free(struct edges *g)
{
        for (int e = 0; e < HUNT_EDGES; e++)
                if (g->keeper[e]) {
                        g_free(g->keeper[e]->text);
                        g_free(g->keeper[e]);
                }
        g_free(g);
}

/* ---- the search ---- */

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

/* Keep the HUNT_NEAR candidates nearest to failing, best first; a tie
 * keeps the earlier (deterministic). */
static void near_offer(GArray *near, struct heval *ev)
{
        guint at = near->len;

        while (at > 0 && g_array_index(near, struct heval, at - 1).margin < ev->margin)
                at--;
        if (at >= HUNT_NEAR) {
                heval_clear(ev);
                return;
        }
        g_array_insert_val(near, at, *ev);
        if (near->len > HUNT_NEAR) {
                heval_clear(&g_array_index(near, struct heval, near->len - 1));
                g_array_set_size(near, HUNT_NEAR);
        }
}

/* ---- the search's state: the corpus, and --resume ---- */

/* All the search has done and keeps: with the GSL stream and the run count
 * (struct hunt), what --resume needs to go on as if it never stopped. */
struct hsearch {
        GPtrArray *seeds;               /* struct hcand *: the corpus, each run once, first, in order */
        guint next_seed;
        GArray *near;                   /* struct heval: the nearest to failing (near_offer()) */
        struct edges *edges;
        GHashTable *found;              /* "PROPERTY:mechanism" of each finding */
        GString *log;                   /* hunt.txt's lines on findings and refusals */
        int nfound, nobody;
        int earlier;                    /* the highest number of an earlier hunt's finding in DIR/findings/,
                                         * kept there: this hunt's are numbered after it */
        int ncorpus;                    /* files in DIR/corpus/ */
        char *corpus_shown;             /* " --corpus none", as the findings' headers repeat it, or "" */
        guint64 batches;
        double best_margin;
};

static void hcand_free(void *data)
{
        struct hcand *c = data;

        g_free(c->text);
        g_free(c);
}

static void hsearch_init(struct hsearch *st)
{
        st->seeds = g_ptr_array_new_with_free_func(hcand_free);
        st->near = g_array_new(FALSE, TRUE, sizeof(struct heval));
        st->edges = g_new0(struct edges, 1);
        st->found = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        st->log = g_string_new(NULL);
}

static void hsearch_free(struct hsearch *st)
{
        if (!st->seeds)
                return;
        g_ptr_array_unref(st->seeds);
        for (guint i = 0; i < st->near->len; i++)
                heval_clear(&g_array_index(st->near, struct heval, i));
        g_array_unref(st->near);
        edges_free(st->edges);
        g_hash_table_unref(st->found);
        g_string_free(st->log, TRUE);
        g_free(st->corpus_shown);
}

/* A candidate on one line: "tree hscn1 ..." or "text ORIGIN ESCAPED-TEXT". */
static void hcand_write(GString *o, const struct hscn *s, const char *text, const char *origin)
{
        if (!text) {
                g_autofree char *tree = hscn_serialize(s);

                g_string_append_printf(o, " tree %s\n", tree);
        } else {
                g_autofree char *esc = g_strescape(text, NULL);

                g_string_append_printf(o, " text %s %s\n", *origin ? origin : "-", esc);
        }
}

static bool hcand_read(const char *line, const struct boost_policy_ops *const *ops, struct hcand *c)
{
        memset(c, 0, sizeof(*c));
        if (g_str_has_prefix(line, "tree "))
                return hscn_parse(line + 5, ops[0], ops[1], &c->s);
        if (!g_str_has_prefix(line, "text "))
                return false;
        const char *sp = strchr(line + 5, ' ');

        if (!sp)
                return false;
        g_snprintf(c->origin, sizeof(c->origin), "%.*s", (int)(sp - line - 5), line + 5);
        if (!strcmp(c->origin, "-"))
                *c->origin = 0;
        c->s.key = -1;
        g_autofree char *text = g_strcompress(sp + 1);

        /* capped as a corpus seed is (a fixed point for the texts a hunt saves), a
         * scenario the loader takes, of a scenario file's size (#59: read unchecked before) */
        c->text = scnedit_seed(text, HUNT_SEED_MAX_NS);
        g_autoptr(RcbScenario) sc = strlen(c->text) <= SCENARIO_MAX_BYTES
                                    ? scenario_load_data(c->text, "hunt.state", NULL, NULL) : NULL;

        if (!sc)
                g_clear_pointer(&c->text, g_free);
        return sc != NULL;
}

static gint key_cmp(gconstpointer a, gconstpointer b)
{
        return strcmp(*(char *const *)a, *(char *const *)b);
}

static gint name_cmp(gconstpointer a, gconstpointer b, gpointer unused)
{
        (void)unused;
        return strcmp(a, b);
}

/* The state as text (hunt.state): @identity first, the GSL stream's bytes in hex. */
static void hsearch_save(const struct hunt *h, const struct hsearch *st, const char *identity, GString *o)
{
        const unsigned char *rng = gsl_rng_state(h->rng);
        GHashTableIter it;
        gpointer key;
        g_autoptr(GPtrArray) keys = g_ptr_array_new();

        g_string_truncate(o, 0);
        g_string_append_printf(o, "rcuboost hunt state 1\nidentity %s\nrng ", identity);
        for (size_t i = 0; i < gsl_rng_size(h->rng); i++)
                g_string_append_printf(o, "%02x", rng[i]);
        g_string_append_printf(o, "\nruns %" G_GUINT64_FORMAT "\nbatches %" G_GUINT64_FORMAT "\nfound %d %d\n"
                               "corpus %d\nmargin %.17g\nnext_seed %u\nearlier %d\n", h->runs, st->batches, st->nfound,
                               st->nobody, st->ncorpus, st->best_margin, st->next_seed, st->earlier);
        g_hash_table_iter_init(&it, st->found);
        while (g_hash_table_iter_next(&it, &key, NULL))
                g_ptr_array_add(keys, key);
        g_ptr_array_sort(keys, key_cmp);
        for (guint i = 0; i < keys->len; i++) {
                g_autofree char *esc = g_strescape(keys->pdata[i], NULL);

                g_string_append_printf(o, "key %s\n", esc);
        }
        {
                g_autofree char *esc = g_strescape(st->log->str, NULL);
                g_autofree char *given = g_strescape(st->corpus_shown ? st->corpus_shown : "", NULL);

                g_string_append_printf(o, "log %s\ncorpus_given %s\n", esc, given);
        }
        for (guint i = 0; i < st->seeds->len; i++) {
                const struct hcand *c = st->seeds->pdata[i];

                g_string_append(o, "seed");
                hcand_write(o, &c->s, c->text, c->origin);
        }
        for (guint i = 0; i < st->near->len; i++) {
                const struct heval *ev = &g_array_index(st->near, struct heval, i);

                g_string_append_printf(o, "near %.17g", ev->margin);
                hcand_write(o, &ev->s, ev->textual ? ev->text : NULL, ev->origin);
        }
        for (int e = 0; e < HUNT_EDGES; e++) {
                const struct hcand *c = st->edges->keeper[e];

                if (!st->edges->hits[e])
                        continue;
                g_string_append_printf(o, "edge %d %u", e, st->edges->hits[e]);
                hcand_write(o, &c->s, c->text, c->origin);
        }
        g_string_append(o, "end\n");
}

/* hsearch_save()'s text back into @h and @st (fresh from hsearch_init()). */
static gboolean hsearch_load(struct hunt *h, struct hsearch *st, const char *identity, const char *text,
                             const struct boost_policy_ops *const *ops, const char *path, GError **error)
{
        g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
        int n = 1;
        bool ended = false, named = false;

        if (!lines[0] || strcmp(lines[0], "rcuboost hunt state 1") != 0)
                goto bad;
        for (char **l = lines + 1; *l && !ended; l++) {
                const char *sp = strchr(*l, ' ');
                const char *rest = sp ? sp + 1 : "";
                struct hcand c;
                unsigned e, hits;
                int at = 0;

                n = (int)(l - lines) + 1;
                if (!strcmp(*l, "end")) {
                        ended = true;
                } else if (g_str_has_prefix(*l, "identity ")) {
                        named = true;
                        if (strcmp(rest, identity) != 0) {
                                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                                            "--resume: %s was saved by `%s`, not this hunt's `%s`: resume with the "
                                            "same --policy, --versus, --property, --seed, --seeds and --coverage",
                                            path, rest, identity);
                                return FALSE;
                        }
                } else if (g_str_has_prefix(*l, "rng ")) {
                        unsigned char *state = gsl_rng_state(h->rng);

                        if (strlen(rest) != 2 * gsl_rng_size(h->rng))
                                goto bad;
                        for (size_t i = 0; i < gsl_rng_size(h->rng); i++) {
                                unsigned x;

                                if (sscanf(rest + 2 * i, "%2x", &x) != 1)
                                        goto bad;
                                state[i] = (unsigned char)x;
                        }
                } else if (g_str_has_prefix(*l, "runs ")) {
                        h->runs = g_ascii_strtoull(rest, NULL, 10);
                } else if (g_str_has_prefix(*l, "batches ")) {
                        st->batches = g_ascii_strtoull(rest, NULL, 10);
                } else if (g_str_has_prefix(*l, "found ")) {
                        if (sscanf(rest, "%d %d", &st->nfound, &st->nobody) != 2)
                                goto bad;
                } else if (g_str_has_prefix(*l, "corpus ")) {
                        st->ncorpus = atoi(rest);
                } else if (g_str_has_prefix(*l, "earlier ")) {
                        st->earlier = atoi(rest);
                } else if (g_str_has_prefix(*l, "margin ")) {
                        st->best_margin = g_ascii_strtod(rest, NULL);
                        if (!isfinite(st->best_margin) || st->best_margin < 0)
                                goto bad;
                } else if (g_str_has_prefix(*l, "next_seed ")) {
                        st->next_seed = (guint)atoi(rest);
                } else if (g_str_has_prefix(*l, "key ")) {
                        g_hash_table_add(st->found, g_strcompress(rest));
                } else if (g_str_has_prefix(*l, "corpus_given ")) {
                        g_free(st->corpus_shown);
                        st->corpus_shown = g_strcompress(rest);
                } else if (g_str_has_prefix(*l, "log ")) {
                        g_autofree char *log = g_strcompress(rest);

                        g_string_assign(st->log, log);
                } else if (g_str_has_prefix(*l, "seed ")) {
                        if (!hcand_read(rest, ops, &c))
                                goto bad;
                        g_ptr_array_add(st->seeds, g_memdup2(&c, sizeof(c)));
                } else if (g_str_has_prefix(*l, "near ")) {
                        struct heval ev = { 0 };
                        double margin = g_ascii_strtod(rest, NULL);
                        const char *cand = strchr(rest, ' ');

                        if (!cand || !hcand_read(cand + 1, ops, &c))
                                goto bad;
                        heval_set_cand(&ev, &c);
                        g_free(c.text);
                        ev.margin = margin;
                        g_array_append_val(st->near, ev);
                } else if (g_str_has_prefix(*l, "edge ")) {
                        if (sscanf(rest, "%u %u %n", &e, &hits, &at) != 2 || e >= HUNT_EDGES || !hits ||
                            st->edges->keeper[e] || !hcand_read(rest + at, ops, &c))
                                goto bad;
                        st->edges->hits[e] = hits;
                        st->edges->keeper[e] = g_memdup2(&c, sizeof(c));
                        if (e < HUNT_POLICY_EDGES)
                                st->edges->seen++;
                        else
                                st->edges->seen_engine++;
                } else {
                        goto bad;
                }
        }
        if (ended && named && st->next_seed <= st->seeds->len && st->ncorpus >= 0 && st->nfound >= 0 && st->earlier >= 0 &&
            st->nobody >= 0 && st->nobody <= st->nfound)
                return TRUE;
bad:
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--resume: %s:%d: not a hunt's saved state "
                    "(hunt.state, as an interrupted hunt leaves it)", path, n);
        return FALSE;
}

/* The corpus a fresh hunt begins with, into @st->seeds: the findings of an
 * earlier hunt into the same directory (@old_findings: replayed first, as
 * a regression suite), its corpus (@old_corpus), then the --corpus files
 * (@given: NAME -> text, or the shipped scenarios).  A seed that does not
 * load, or that a policy refuses as a scenario error, is left out and said
 * in @skipped (a create() that fails on it is a finding: kept).  A corpus
 * file whose "# hunt tree:" line parses, under these policies, into the
 * very text the file holds is a tree again; any other runs as it is written
 * -- a user's edit of the text, or a [policy] key of another policy's tree,
 * drops the tree, and says so (#59). */
static void seeds_add(struct hsearch *st, const char *origin, const char *text,
                      const struct boost_policy_ops *const *ops, GString *skipped)
{
        struct hcand c = { 0 };
        const char *tree = strstr(text, "# hunt tree: ");
        g_autofree char *line = tree ? g_strndup(tree + 13, strcspn(tree + 13, "\n")) : NULL;
        g_autofree char *seed = NULL;
        GError *e = NULL;

        g_strlcpy(c.origin, origin, sizeof(c.origin));
        /* one word in hunt.state's lines (a file name may hold a space) */
        for (char *o = c.origin; *o; o++)
                if (g_ascii_isspace(*o))
                        *o = '_';
        if (line && hscn_parse(line, ops[0], ops[1], &c.s)) {
                g_autofree char *rendered = hscn_render(&c.s, 1, NULL, NULL);
                const char *body = strstr(tree, "\n\n");

                if (body && !strcmp(body + 2, rendered)) {
                        g_ptr_array_add(st->seeds, g_memdup2(&c, sizeof(c)));
                        return;
                }
                g_string_append_printf(skipped, "corpus: %s: its text is not what its '# hunt tree:' line renders "
                                       "(edited, or another policy's tree): run as written\n", origin);
                memset(&c.s, 0, sizeof(c.s));
        } else if (line) {
                g_string_append_printf(skipped, "corpus: %s: its '# hunt tree:' line does not parse under these "
                                       "policies: run as written\n", origin);
        }
        seed = scnedit_seed(text, HUNT_SEED_MAX_NS);
        g_autoptr(RcbScenario) sc = scenario_load_data(seed, origin, NULL, &e);

        for (int p = 0; sc && p < 2 && ops[p]; p++) {
                /* a module's create() runs only in a child (#59): what it refuses,
                 * the evaluation says */
                if (policy_module_path(ops[p]))
                        continue;
                g_autoptr(RcbSim) sim = sim_new(sc, &(struct sim_options){ .policy = ops[p]->name }, &e);

                /* a create() that fails on a seed is the policy's finding, not the seed's fault */
                if (!sim && g_error_matches(e, POLICY_ERROR, POLICY_ERROR_CREATE))
                        g_clear_error(&e);
                if (!sim)
                        break;
        }
        if (e) {
                g_string_append_printf(skipped, "corpus: %s left out: %s\n", origin, e->message);
                g_error_free(e);
                return;
        }
        c.s.key = -1;
        c.text = g_steal_pointer(&seed);
        g_ptr_array_add(st->seeds, g_memdup2(&c, sizeof(c)));
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
static void earlier_finding_judged(const struct hunt *h, const char *dir, const char *name,
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
        earlier_finding_judged(x->h, x->dir, name, x->ops, x->st->log);
        return FALSE;
}

/* The *.scn files of @dir, by name: NAME -> contents (NULL: no such directory). */
/* A corpus file's text: a regular file, no larger than a scenario file may
 * be -- a FIFO would block the hunt for ever, /dev/zero fill the memory (#59). */
static char *corpus_file_read(const char *path, GError **error)
{
        GStatBuf st;
        char *text = NULL;

        if (g_stat(path, &st) != 0) {
                int err = errno;

                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err), "%s: cannot read: %s", path,
                            g_strerror(err));
                return NULL;
        }
        if (!S_ISREG(st.st_mode)) {
                g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: not a regular file (a corpus holds "
                            "scenario files)", path);
                return NULL;
        }
        if (st.st_size > SCENARIO_MAX_BYTES) {
                g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: %lld bytes is too large for a scenario "
                            "file (limit %d MiB)", path, (long long)st.st_size, SCENARIO_MAX_BYTES >> 20);
                return NULL;
        }
        return g_file_get_contents(path, &text, NULL, error) ? text : NULL;
}

/* The *.scn files of @dir by name, or NULL: no such directory (@error unset),
 * or one of them is no scenario file to read (@error set). */
static GTree *scn_files(const char *dir, GError **error)
{
        g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
        GTree *files;
        const char *name;

        if (!d)
                return NULL;
        files = g_tree_new_full(name_cmp, NULL, g_free, g_free);
        while ((name = g_dir_read_name(d))) {
                g_autofree char *path = g_build_filename(dir, name, NULL);
                char *text;

                if (!g_str_has_suffix(name, ".scn"))
                        continue;
                if (!(text = corpus_file_read(path, error))) {
                        g_tree_unref(files);
                        return NULL;
                }
                g_tree_insert(files, g_strdup(name), text);
        }
        return files;
}

/* The shipped scenarios the binary carries (/rcuboost/corpus/). */
static GTree *shipped_scenarios(void)
{
        g_auto(GStrv) names = g_resources_enumerate_children("/rcuboost/corpus", 0, NULL);
        GTree *files = g_tree_new_full(name_cmp, NULL, g_free, g_free);

        for (char **n = names; n && *n; n++) {
                g_autofree char *path = g_strconcat("/rcuboost/corpus/", *n, NULL);
                g_autoptr(GBytes) b = g_resources_lookup_data(path, 0, NULL);

                if (b)
                        g_tree_insert(files, g_strdup(*n), g_strndup(g_bytes_get_data(b, NULL), g_bytes_get_size(b)));
        }
        return files;
}

struct seeds_ctx {
        struct hsearch *st;
        const struct boost_policy_ops *const *ops;
        GString *skipped;
        const char *prefix;
};

static gboolean seeds_each(gpointer name, gpointer text, gpointer data)
{
        struct seeds_ctx *x = data;
        g_autofree char *origin = g_strconcat(x->prefix, name, NULL);

        seeds_add(x->st, origin, text, x->ops, x->skipped);
        return FALSE;
}

static void seeds_from(struct hsearch *st, GTree *files, const char *prefix, const struct boost_policy_ops *const *ops,
                       GString *skipped)
{
        struct seeds_ctx x = { st, ops, skipped, prefix };

        if (files)
                g_tree_foreach(files, seeds_each, &x);
}

/* hunt.state, below the held directory @held (shown as @out in an error). */
static gboolean hunt_state_write(const char *held, const GString *state, const char *out)
{
        g_autofree char *path = g_build_filename(held, "hunt.state", NULL);
        GError *e = NULL;

        if (output_set_contents(path, state->str, (gssize)state->len, &e))
                return TRUE;
        g_autofree char *msg = shown_path(e->message, held, out);

        fprintf(stderr, "rcuboost: %s\n", msg);
        g_error_free(e);
        return FALSE;
}

/* A candidate that reached new coverage, as DIR/corpus/NNNNN.scn: a tree's
 * line first, so that a later hunt reads the tree back, not only its text. */
static gboolean corpus_keep(struct hsearch *st, const char *dir, const struct heval *ev, GError **error)
{
        g_autofree char *name = g_strdup_printf("%05d.scn", ++st->ncorpus);
        g_autofree char *path = g_build_filename(dir, name, NULL);
        g_autoptr(GString) o = g_string_new(NULL);

        g_string_append_printf(o, "# %s -- a hunt candidate that reached coverage no earlier one had.\n", name);
        if (ev->textual) {
                g_string_append_printf(o, ev->as_seeded ? "# Corpus file %s, as it was written.\n"
                                                        : "# An edit of corpus file %s.\n",
                                       *ev->origin ? ev->origin : "-");
        } else {
                g_autofree char *tree = hscn_serialize(&ev->s);

                g_string_append_printf(o, "# hunt tree: %s\n", tree);
        }
        g_string_append_printf(o, "\n%s", ev->text);
        return output_set_contents(path, o->str, (gssize)o->len, error);
}

int cli_hunt(int argc, char **argv)
{
        g_autofree char *policy = NULL, *versus = NULL, *budget = NULL, *seed_text = NULL;
        g_autofree char *out = NULL;
        g_auto(GStrv) property = NULL;
        int seeds = 3, jobs = 0, max_findings = 5;
        gboolean quiet = FALSE, isolate = FALSE, eval_child_mode = FALSE;
        g_autofree char *hang_text = NULL, *coverage = NULL, *corpus_given = NULL;
        gboolean resume = FALSE;
        const GOptionEntry entries[] = {
                { "policy", 'p', 0, G_OPTION_ARG_STRING, &policy, "The policy to break (a name or a module path)",
                  "P" },
                { "versus", 0, 0, G_OPTION_ARG_STRING, &versus,
                  "Find only where P fails a property that Q holds on the same scenario and seeds", "Q" },
                { "property", 0, 0, G_OPTION_ARG_STRING_ARRAY, &property,
                  "A property to break, as an [expect] line without its policy (repeatable; e.g. "
                  "gp_max_at_least<=100ms); the defaults are always checked", "EXPR" },
                { "budget", 'b', 0, G_OPTION_ARG_STRING, &budget,
                  "Runs (500, 500runs) or wall-clock time (90s, 10min) to spend (default 1000runs); checked "
                  "between batches of 8 candidates, so the last batch, and confirming and shrinking what it found, "
                  "run past it", "B" },
                { "seed", 's', 0, G_OPTION_ARG_STRING, &seed_text, "The search's own seed (default 1)", "S" },
                { "seeds", 'n', 0, G_OPTION_ARG_INT, &seeds, "Seeds each candidate runs under (default 3)", "N" },
                { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "Runs in parallel (default: one per CPU)", "J" },
                { "max-findings", 0, 0, G_OPTION_ARG_INT, &max_findings, "Stop after this many (default 5)", "N" },
                { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out,
                  "Output directory (default out/hunt-P, or out/hunt-P-vs-Q)", "DIR" },
                { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "No progress on stderr", NULL },
                { "isolate", 0, 0, G_OPTION_ARG_NONE, &isolate,
                  "Evaluate each candidate in a child process, so that a crash or a hang is a finding (the "
                  "default for a policy module)", NULL },
                { "hang-timeout", 0, 0, G_OPTION_ARG_STRING, &hang_text,
                  "With --isolate: a candidate's evaluation that takes longer hangs (default 30s)", "T" },
                { "corpus", 0, 0, G_OPTION_ARG_FILENAME, &corpus_given,
                  "Scenario files (a directory's *.scn, or one file) run first and then varied, beside generated "
                  "ones (shipped, the default: the shipped scenarios; none: only generated)",
                  "DIR|FILE|shipped|none" },
                { "resume", 0, 0, G_OPTION_ARG_NONE, &resume,
                  "Go on with the hunt in --out where it stopped (its hunt.state): the same findings as a hunt "
                  "never stopped, with the same --budget", NULL },
                { "coverage", 0, 0, G_OPTION_ARG_STRING, &coverage,
                  "What steers the search toward rare runs: the policy's state transitions, the engine's events, "
                  "both (the default) or none", "policy|engine|both|none" },
                { "eval-child", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &eval_child_mode, NULL, NULL },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("- search generated scenarios for one that breaks a "
                                                             "policy, and shrink it");
        const struct boost_policy_ops *ops[2] = { NULL, NULL };
        struct hunt h = { 0 };
        struct hsearch st = { 0 };
        g_autofree char *findings_dir = NULL;
        g_autofree char *held_out = NULL, *findings_held = NULL;
        int held_fd = -1;
        static const char *const ours[] = { "hunt.txt", "hunt.state", "findings/", "corpus/", NULL };
        g_autofree char *corpus_dir = NULL, *corpus_held = NULL, *state_path = NULL, *identity = NULL;
        g_autoptr(GString) checkpoint = g_string_new(NULL);
        g_autofree char *given_shown = NULL;
        int locks[3] = { -1, -1, -1 };
        static const char *const finding_files[] = { "*.scn", "*.txt", NULL };
        int status = EXIT_OK;
        bool write_failed = false;
        bool findings_kept = false;     /* DIR/findings/ holds an earlier hunt's: locked, not emptied */
        uint64_t hunt_seed = 1;
        g_autoptr(GString) times = g_string_new(NULL);  /* "time:" lines of hunt.txt */
        int coverage_said = 0;
        GError *e = NULL;

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
        h.cover_policy = h.cover_engine = true;
        if (coverage) {
                h.cover_policy = !strcmp(coverage, "policy") || !strcmp(coverage, "both");
                h.cover_engine = !strcmp(coverage, "engine") || !strcmp(coverage, "both");
                if (!h.cover_policy && !h.cover_engine && strcmp(coverage, "none") != 0)
                        return cli_usage_error(ctx, "hunt: --coverage %s: expected policy, engine, both or none",
                                               coverage);
        }
        if (seed_text && !cli_parse_seed(seed_text, &hunt_seed))
                return cli_usage_error(ctx, "hunt: --seed '%s': expected a non-negative integer", seed_text);
        h.policy[0] = ops[0]->name;
        h.policy[1] = ops[1] ? ops[1]->name : NULL;
        h.nseeds = seeds;
        g_autoptr(GArray) props = default_props();

        h.props = props;
        for (char **p = property; p && *p; p++) {
                struct hprop pr;

                if (p - property >= HUNT_MAX_USER_PROPS)
                        return cli_usage_error(ctx, "hunt: at most %d --property", HUNT_MAX_USER_PROPS);
                if (!hprop_parse(*p, &pr, &e)) {
                        status = cli_usage_error(ctx, "hunt: %s", e->message);
                        g_error_free(e);
                        return status;
                }
                g_array_append_val(h.props, pr);
        }
        /* a child evaluating one candidate for its parent: the parent checked the rest */
        if (eval_child_mode) {
                h.in_child = true;
                return eval_child(&h);
        }
        h.hang_us = 30 * G_USEC_PER_SEC;
        if (hang_text) {
                int64_t ns;

                if (!units_parse_duration(hang_text, &ns, &e) || ns < NSEC_PER_MSEC) {
                        status = cli_usage_error(ctx, "hunt: --hang-timeout %s: %s", hang_text,
                                                 e ? e->message : "at least 1ms");
                        g_clear_error(&e);
                        return status;
                }
                h.hang_us = ns / NSEC_PER_USEC;
        }
        /* a module is code nobody here reviewed: a crash or a hang in it is a finding */
        h.isolate = isolate || policy_module_path(ops[0]) || (ops[1] && policy_module_path(ops[1]));
        /* also: a policy that cannot run at all (its create() fails) is said at
         * once, not hunted with for ever (#50); a module's create() is called
         * in a child, and one that crashes or hangs there is left to the
         * search, which makes it a finding (#59) */
        {
                struct props_job job = { h.props, h.props->len - (property ? g_strv_length(property) : 0), ops };
                g_autoptr(GString) said = g_string_new(NULL);
                enum in_child_end end = h.isolate ? in_child(h.hang_us, props_check_said, &job, said)
                                                  : props_check_said(&job, said) ? IN_CHILD_OK : IN_CHILD_FAILED;

                if (end == IN_CHILD_FAILED)
                        return cli_usage_error(ctx, "hunt: %s", said->str);
                if (end != IN_CHILD_OK)
                        fprintf(stderr, "rcuboost: warning: hunt: checking the properties against a run of each "
                                "policy, the child %s%s: not checked; the search will make it a finding\n",
                                end == IN_CHILD_HUNG ? "did not end within --hang-timeout" : "",
                                end == IN_CHILD_HUNG ? "" : said->str);
        }
        if (h.isolate) {
                /* a child that dies before reading its candidate closes the pipe: an error to
                 * write, not a SIGPIPE that ends the hunt */
                signal(SIGPIPE, SIG_IGN);
                h.child_argv = g_ptr_array_new_with_free_func(g_free);
                char *self = g_file_read_link("/proc/self/exe", NULL);

                if (!self) {
                        fprintf(stderr, "rcuboost: hunt: cannot find its own executable (/proc/self/exe) to "
                                "evaluate candidates in a child process\n");
                        g_ptr_array_unref(h.child_argv);
                        return EXIT_USAGE;
                }
                g_ptr_array_add(h.child_argv, self);
                g_ptr_array_add(h.child_argv, g_strdup("hunt"));
                g_ptr_array_add(h.child_argv, g_strdup_printf("--policy=%s", policy));
                if (versus)
                        g_ptr_array_add(h.child_argv, g_strdup_printf("--versus=%s", versus));
                for (char **p = property; p && *p; p++)
                        g_ptr_array_add(h.child_argv, g_strdup_printf("--property=%s", *p));
                g_ptr_array_add(h.child_argv, g_strdup_printf("--seeds=%d", seeds));
                if (coverage)
                        g_ptr_array_add(h.child_argv, g_strdup_printf("--coverage=%s", coverage));
                g_ptr_array_add(h.child_argv, g_strdup("--eval-child"));
                g_ptr_array_add(h.child_argv, NULL);
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
        g_autofree char *props_given = property ? g_strjoinv("' --property '", property) : NULL;
        g_autofree char *props_shown = props_given ? g_strdup_printf(" --property '%s'", props_given) : g_strdup("");

        g_autofree char *coverage_shown = coverage && strcmp(coverage, "both") != 0
                                          ? g_strdup_printf(" --coverage %s", coverage) : g_strdup("");

        /* h.replay's, freed on every way out */
        g_autofree char *replay_p = policy_module_path(ops[0]) ? g_shell_quote(policy_module_path(ops[0]))
                                                               : g_strdup(ops[0]->name);
        g_autofree char *replay_q = !ops[1] ? NULL
                                    : policy_module_path(ops[1]) ? g_shell_quote(policy_module_path(ops[1]))
                                    : g_strdup(ops[1]->name);

        h.replay[0] = replay_p;
        h.replay[1] = replay_q;
        if (!out)
                out = h.policy[1] ? g_strdup_printf("out/hunt-%s-vs-%s", h.policy[0], h.policy[1])
                                  : g_strdup_printf("out/hunt-%s", h.policy[0]);
        findings_dir = g_build_filename(out, "findings", NULL);
        corpus_dir = g_build_filename(out, "corpus", NULL);
        state_path = g_build_filename(out, "hunt.state", NULL);
        if (resume && corpus_given)
                return cli_usage_error(ctx, "hunt: --resume goes on with the corpus the hunt began with: no --corpus");
        h.rng = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(h.rng, hunt_seed);
        hsearch_init(&st);
        identity = g_strdup_printf("--policy %s%s%s%s%s --seed %" G_GUINT64_FORMAT " --seeds %d", h.replay[0],
                                   h.policy[1] ? " --versus " : "", h.policy[1] ? h.replay[1] : "", props_shown,
                                   coverage_shown, hunt_seed, seeds);
        /* the options that steer the search, as a finding's header repeats them */
        if (corpus_given && strcmp(corpus_given, "shipped") != 0) {
                bool plain = corpus_given[strspn(corpus_given, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                               "0123456789_./-")] == 0;
                g_autofree char *quoted = plain ? g_strdup(corpus_given) : g_shell_quote(corpus_given);

                st.corpus_shown = g_strdup_printf(" --corpus %s", quoted);
        }
        if (resume) {
                g_autofree char *saved = NULL;

                if (!g_file_get_contents(state_path, &saved, NULL, &e) ||
                    !hsearch_load(&h, &st, identity, saved, ops, state_path, &e)) {
                        status = cli_usage_error(ctx, "hunt: %s%s", e->domain == G_FILE_ERROR ? "--resume: " : "",
                                                 e->message);
                        g_error_free(e);
                        hsearch_free(&st);
                        gsl_rng_free(h.rng);
                        return status;
                }
        } else {
                /* an earlier hunt's findings and corpus, read before the directory is emptied */
                g_autoptr(GString) skipped = g_string_new(NULL);
                GTree *old_findings = scn_files(findings_dir, &e);
                GTree *old_corpus = e ? NULL : scn_files(corpus_dir, &e);
                bool shipped = !corpus_given || !strcmp(corpus_given, "shipped");
                bool none = corpus_given && !strcmp(corpus_given, "none");
                GTree *given = e ? NULL : shipped ? shipped_scenarios() : !none ? scn_files(corpus_given, &e) : NULL;

                if (e) {
                        status = cli_usage_error(ctx, "hunt: %s", e->message);
                        g_clear_error(&e);
                } else if (!shipped && !none && !given) {
                        /* one file is a corpus of one */
                        char *text = corpus_file_read(corpus_given, &e);

                        if (text) {
                                given = g_tree_new_full(name_cmp, NULL, g_free, g_free);
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
                        struct earlier_ctx x = { &h, findings_dir, ops, &st };

                        if (old_findings)
                                g_tree_foreach(old_findings, earlier_each, &x);
                        seeds_from(&st, old_findings, "findings/", ops, skipped);
                        seeds_from(&st, old_corpus, "corpus/", ops, skipped);
                        seeds_from(&st, given, "", ops, skipped);
                        g_string_append(st.log, skipped->str);
                }
                if (old_findings) {
                        findings_kept = g_tree_nnodes(old_findings) > 0;
                        g_tree_unref(old_findings);
                }
                if (old_corpus)
                        g_tree_unref(old_corpus);
                if (given)
                        g_tree_unref(given);
                if (status != EXIT_OK) {
                        hsearch_free(&st);
                        gsl_rng_free(h.rng);
                        return status;
                }
        }
        cli_catch_signals();
        (void)cli_interrupt_flag();     /* armed: a signal ends the batch in progress, then the hunt */
        /* findings/ and corpus/ are directories of their own kinds, held while
         * the hunt writes there: `run --out DIR/findings` is refused, not let
         * delete them (#49); --resume keeps what they hold, and no hunt deletes
         * an earlier one's findings (#59): its own are numbered after them */
        {
                static const char *const kinds[] = { "hunt", "hunt-findings", "hunt-corpus" };
                const char *const dirs[] = { out, findings_dir, corpus_dir };
                const char *const *files[] = { ours, finding_files, finding_files };
                int n = 0;

                for (; n < 3; n++) {
                        locks[n] = resume || (n == 1 && findings_kept) ? (output_dir_check(dirs[n], kinds[n], files[n], &e)
                                             ? output_dir_lock(dirs[n], &e) : -1)
                                          : output_dir_claim(dirs[n], kinds[n], files[n], &e);
                        if (locks[n] < 0)
                                break;
                }
                /* every write goes below the directory held from here on (#49) */
                if (n == 3 && !(held_out = output_dir_hold(out, locks, (const char *const[]){ ".", "findings", "corpus" },
                                                           3, &held_fd, &e)))
                        n = 2;
                if (n < 3) {
                        for (int i = n - 1; i >= 0; i--)
                                output_dir_unlock(locks[i]);
                        fprintf(stderr, "rcuboost: %s\n", e->message);
                        g_error_free(e);
                        hsearch_free(&st);
                        gsl_rng_free(h.rng);
                        return EXIT_USAGE;
                }
        }
        findings_held = g_build_filename(held_out, "findings", NULL);
        given_shown = g_strconcat(props_shown, coverage_shown, st.corpus_shown ? st.corpus_shown : "", NULL);
        h.given = given_shown;
        corpus_held = g_build_filename(held_out, "corpus", NULL);
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

        gint64 started_us = g_get_monotonic_time(), saved_us = started_us;

        while (!out_of_budget(&h) && st.nfound < max_findings && !write_failed) {
                struct heval evs[HUNT_BATCH];

                /* the state before this batch: what --resume goes on from if the
                 * batch does not end (a signal); on disk every half minute too */
                hsearch_save(&h, &st, identity, checkpoint);
                if (g_get_monotonic_time() - saved_us > 30 * G_USEC_PER_SEC) {
                        hunt_state_write(held_out, checkpoint, out);
                        saved_us = g_get_monotonic_time();
                }
                for (int i = 0; i < HUNT_BATCH; i++) {
                        struct hscn s;
                        unsigned long how;
                        const struct hcand *rare;

                        /* the corpus first, each seed once as it is */
                        if (st.next_seed < st.seeds->len) {
                                heval_set_cand(&evs[i], g_ptr_array_index(st.seeds, st.next_seed++));
                                evs[i].as_seeded = true;
                                continue;
                        }
                        how = gsl_rng_uniform_int(h.rng, 4);
                        rare = how == 3 ? edges_pick(st.edges, h.rng) : NULL;
                        if (how < 2 || (how == 2 && st.near->len == 0) || (how == 3 && !rare)) {
                                hscn_random(h.rng, ops[0], ops[1], &s);
                                heval_set(&evs[i], &s);
                                continue;
                        }
                        struct hcand from = { 0 };

                        if (how == 2)
                                hcand_set(&from, &g_array_index(st.near, struct heval,
                                                                gsl_rng_uniform_int(h.rng, st.near->len)));
                        else    /* the keeper as it is, its text the copy's own */
                                from = *rare, from.text = g_strdup(rare->text);
                        for (int m = 1 + (int)gsl_rng_uniform_int(h.rng, 3); m > 0; m--) {
                                if (from.text) {
                                        char *edited = scnedit_mutate(h.rng, from.text);

                                        g_free(from.text);
                                        from.text = edited;
                                } else {
                                        hscn_mutate(h.rng, &from.s);
                                }
                        }
                        heval_set_cand(&evs[i], &from);
                        g_free(from.text);
                }
                eval_batch(&h, evs, HUNT_BATCH);
                st.batches++;
                for (int i = 0; i < HUNT_BATCH; i++) {
                        struct heval *ev = &evs[i];
                        int k = -1;
                        char *what = NULL;
                        bool again = false;     /* fails a property as a finding already did */

                        if (write_failed) {     /* the hunt is ending: the rest of the batch goes */
                                heval_clear(ev);
                                continue;
                        }

                        /* one finding per property and mechanism: a stall behind a preempted
                         * reader and one behind a mutex owner are two bugs */
                        for (guint j = 0; j < h.props->len && k < 0; j++) {
                                if (!fails_prop(&h, ev, (int)j))
                                        continue;
                                what = g_strdup_printf("%u:%s", j, ev->mechanism[j]);
                                again = true;
                                if (g_hash_table_contains(st.found, what))
                                        g_clear_pointer(&what, g_free);
                                else
                                        k = (int)j;
                        }
                        /* an earlier hunt's finding, replayed: it is in DIR/findings/ still, and
                         * what check says of it is in hunt.txt (earlier_finding_judged()); what
                         * it fails now is found, not taken again */
                        if (k >= 0 && ev->as_seeded && g_str_has_prefix(ev->origin, "findings/")) {
                                g_hash_table_add(st.found, what);
                                what = NULL;
                                k = -1;
                        }
                        /* not luck: the same over more seeds (then its counts are over those
                         * seeds, for this property only: no other is asked of it) */
                        if (k >= 0 && st.nfound < max_findings && !confirm(&h, ev, k)) {
                                g_string_append_printf(st.log, "a candidate failing %s did not hold over %d seeds: %s "
                                                       "failed in %d, %s in %d\n",
                                                       g_array_index(h.props, struct hprop, k).line, ev->seed_hi,
                                                       h.policy[0], ev->fails[0][k], h.policy[1] ? h.policy[1] : "-",
                                                       ev->fails[1][k]);
                                g_clear_pointer(&what, g_free);
                                k = -1;
                                again = false;
                        }
                        if (ev->bad) {
                                /* an edit of a corpus file's text may well not load: no news */
                                if (!ev->textual)
                                        g_string_append_printf(st.log, "a generated candidate was refused: %s\n",
                                                               ev->why);
                                g_clear_pointer(&what, g_free);
                                heval_clear(ev);
                                continue;
                        }
                        if (edges_note(st.edges, ev) && !corpus_keep(&st, corpus_held, ev, &e)) {
                                g_autofree char *msg = shown_path(e->message, held_out, out);

                                fprintf(stderr, "%srcuboost: %s\n", h.tty ? "\r\033[K" : "", msg);
                                g_clear_error(&e);
                                status = EXIT_USAGE;
                                write_failed = true;
                        }
                        if (st.edges->seen + st.edges->seen_engine > coverage_said) { /* coverage reached, over time */
                                g_string_append_printf(times, "time: %d policy state transitions and %d engine "
                                                       "events after %" G_GUINT64_FORMAT " runs, %.2f s\n",
                                                       st.edges->seen, st.edges->seen_engine, h.runs,
                                                       (g_get_monotonic_time() - started_us) / 1e6);
                                coverage_said = st.edges->seen + st.edges->seen_engine;
                        }
                        if (k < 0 || st.nfound >= max_findings) {
                                /* the nearest approach of those that did not fail (again); a
                                 * finding after the last one taken in this batch is let go */
                                if (!again)
                                        st.best_margin = MAX(st.best_margin, ev->margin);
                                g_clear_pointer(&what, g_free);
                                near_offer(st.near, ev);
                                continue;
                        }
                        struct hprop *pr = &g_array_index(h.props, struct hprop, k);
                        guint64 found_at = h.runs;
                        gint64 found_us = g_get_monotonic_time();
                        g_autofree char *failed = prop_text(pr, ev, 0);

                        if (!quiet)
                                fprintf(stderr, "%srcuboost: found: %s fails %s (%d of %d seeds); shrinking...\n",
                                        h.tty ? "\r\033[K" : "", h.policy[0], failed, ev->fails[0][k], ev->seed_hi);
                        if (!ev->textual)
                                shrink(&h, ev, k);
                        else
                                shrink_duration(&h, ev, k);
                        shrink_lines(&h, ev, k);
                        g_free(failed);
                        failed = prop_text(pr, ev, 0);          /* the shrunk candidate's tick */
                        g_hash_table_add(st.found, what);
                        g_autoptr(GString) every = g_string_new(NULL);
                        bool anyone = no_policy_holds(&h, ev, k, every);

                        if (!finding_written(&h, findings_held, st.earlier + st.nfound + 1, ev, k, hunt_seed,
                                           anyone ? every->str : NULL,
                                           &e)) {
                                /* a write error is an error (a full disk): said, not counted, and
                                 * the hunt ends, exit 2 -- not "wrote" and the findings' status (#49) */
                                g_autofree char *msg = shown_path(e->message, held_out, out);

                                fprintf(stderr, "%srcuboost: %s\n", h.tty ? "\r\033[K" : "", msg);
                                g_clear_error(&e);
                                status = EXIT_USAGE;
                                heval_clear(ev);
                                write_failed = true;
                                continue;
                        }
                        st.nfound++;
                        st.nobody += anyone;
                        g_autofree char *shrunk = ev->textual
                                ? g_strdup_printf("from corpus file %s, shrunk line by line", ev->origin)
                                : g_strdup_printf("shrunk to %d tasks on %d CPU%s", ev->s.ntasks, ev->s.cpus,
                                                  ev->s.cpus == 1 ? "" : "s");

                        g_string_append_printf(st.log, "finding %03d%s: %s fails %s in %d of %d seeds (%s); found after %"
                                               G_GUINT64_FORMAT " runs, %s in %" G_GUINT64_FORMAT " more\n", st.earlier + st.nfound,
                                               anyone ? " (no policy holds this)" : "", h.policy[0], failed,
                                               ev->fails[0][k], ev->seed_hi, ev->mechanism[k], found_at, shrunk,
                                               h.runs - found_at);
                        /* wall times on lines of their own: the rest of hunt.txt is the same whatever -j */
                        g_string_append_printf(times, "time: finding %03d found after %.2f s, written after %.2f s\n",
                                               st.earlier + st.nfound, (found_us - started_us) / 1e6,
                                               (g_get_monotonic_time() - started_us) / 1e6);
                        if (!quiet)
                                fprintf(stderr, "rcuboost: wrote %s/%03d-%s.scn%s\n", findings_dir, st.earlier + st.nfound,
                                        pr->name,
                                        anyone ? " (no policy holds this: every built-in fails it too)" : "");
                        heval_clear(ev);
                }
                if (h.tty) {
                        gint64 now = g_get_monotonic_time();
                        double left_s = h.deadline_us ? (h.deadline_us - now) / 1e6
                                        : h.runs ? (now - started_us) / 1e6 * ((double)h.max_runs - (double)h.runs) /
                                                   (double)h.runs : 0;

                        fprintf(stderr, "\r\033[Krcuboost: %" G_GUINT64_FORMAT " runs, %d finding%s, best margin %.2f, "
                                "%d policy transitions, %d engine events, about %.0f s left", h.runs, st.nfound,
                                st.nfound == 1 ? "" : "s", st.best_margin, st.edges->seen, st.edges->seen_engine, MAX(0, left_s));
                }
        }
        if (h.tty)
                fputs("\r\033[K", stderr);
        g_thread_pool_free(h.pool, FALSE, TRUE);
        /* a batch cut short by a signal is run again on --resume: the state before it */
        if (!cli_interrupt_status())
                hsearch_save(&h, &st, identity, checkpoint);
        if (!hunt_state_write(held_out, checkpoint, out))
                status = EXIT_USAGE;
        {
                g_autofree char *summary_path = g_build_filename(held_out, "hunt.txt", NULL);
                g_autofree char *engine_said = engine_events_said(&h, st.edges);
                double wall_s = (g_get_monotonic_time() - started_us) / 1e6;
                g_autofree char *summary = g_strdup_printf(
                        "rcuboost hunt --policy %s%s%s%s --seed %" G_GUINT64_FORMAT " --seeds %d --budget %s\n"
                        "%" G_GUINT64_FORMAT " runs in %" G_GUINT64_FORMAT " batches; %d finding%s%s\n"
                        "nearest approach to failing among the rest: %.3f of the bound\n"
                        "policy state transitions seen: %d\n%s%s"
                        "time: %.2f s of wall time, %.0f runs per second (-j %d)%s\n%s",
                        h.policy[0], h.policy[1] ? " --versus " : "", h.policy[1] ? h.policy[1] : "", given_shown,
                        hunt_seed, seeds, budget ? budget : "1000runs", h.runs, st.batches, st.nfound,
                        st.nfound == 1 ? "" : "s", cli_interrupt_status() ? " (interrupted)" : "", st.best_margin,
                        st.edges->seen, engine_said, st.log->str,
                        wall_s, wall_s > 0 ? (double)h.runs / wall_s : 0, h.jobs,
                        h.isolate ? ", each candidate in a child process" : "", times->str);

                if (!output_set_contents(summary_path, summary, -1, &e)) {
                        g_autofree char *msg = shown_path(e->message, held_out, out);

                        fprintf(stderr, "rcuboost: %s\n", msg);
                        g_clear_error(&e);
                        status = EXIT_USAGE;
                }
        }
        if (write_failed) {
                fprintf(stderr, "rcuboost: the hunt stopped: a finding could not be written (%d written to %s/)\n",
                        st.nfound, findings_dir);
        } else if (!quiet || st.nfound == 0) {
                if (st.nfound)
                        fprintf(stderr, "rcuboost: %d finding%s in %s/%s (%" G_GUINT64_FORMAT " runs)\n", st.nfound,
                                st.nfound == 1 ? "" : "s", findings_dir,
                                st.nobody ? (st.nobody == st.nfound ? ", none of them P's: no policy holds them"
                                                           : ", some no policy holds") : "", h.runs);
                else if (st.earlier)
                        printf("rcuboost: nothing new found in %" G_GUINT64_FORMAT " runs (nearest approach: %.2f of "
                               "a bound); %s/ keeps the earlier findings, and hunt.txt says what check says of each\n",
                               h.runs, st.best_margin, findings_dir);
                else
                        printf("rcuboost: nothing found in %" G_GUINT64_FORMAT " runs: %s held every property "
                               "(nearest approach: %.2f of a bound)\n", h.runs, h.policy[0], st.best_margin);
        }
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
