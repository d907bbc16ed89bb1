/* hunt/hunt.h - what the parts of `rcuboost hunt` share: its candidates,
 * their evaluation, the search's state, and each part's entry points
 * (src/cli/hunt/NAME.c; docs/hunt.md).  Internal to the command. */
#ifndef RCUBOOST_CLI_HUNT_H
#define RCUBOOST_CLI_HUNT_H

#include <glib.h>
#include <gsl/gsl_rng.h>
#include <stdbool.h>
#include <stdint.h>

#include "../hscn.h"
#include "../../sim/engine/coverage.h"
#include "../../sim/scenario/expect.h"

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

/* @fn(@data, msg) in a forked child, for code of a module's that the hunt
 * must survive (#59): IN_CHILD_OK or IN_CHILD_FAILED (@fn's answer, @msg
 * what it said), IN_CHILD_CRASHED (@msg: how it ended) or IN_CHILD_HUNG
 * (killed after @timeout_us).  A forked child writes below the directory
 * the hunt holds as the hunt does (/proc/self/fd/N). */
enum in_child_end { IN_CHILD_OK, IN_CHILD_FAILED, IN_CHILD_CRASHED, IN_CHILD_HUNG };

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
        bool shrink_cut;                /* the last shrink was stopped by the time budget or a signal */
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

/* All the search has done and keeps: with the GSL stream and the run count
 * (struct hunt), what --resume needs to go on as if it never stopped. */
struct hsearch {
        GPtrArray *seeds;               /* struct hcand *: the corpus, each run once, first, in order */
        guint next_seed;
        GArray *near;                   /* struct heval: the nearest to failing (hunt_near_offer()) */
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

/* props.c */
/* "gp_max_at_least<=100ms" as an [expect] line would say it for any policy. */
gboolean hprop_parse(const char *text, struct hprop *p, GError **error);

/* props_check() of the policies before the hunt -- in a child where the hunt
 * isolates their code (#59) -- its error, or what ended the child, in @said. */
enum in_child_end hunt_props_checked(const struct hunt *h, GArray *props, guint first,
                                     const struct boost_policy_ops *const *ops, GString *said);

/* The defaults: no safety violation, no OOM under the scenario's limit, no
 * deadlock, no task boosted outside its critical section for more than a tick. */
GArray *hunt_default_props(void);

/* Property @pr as an [expect] line without its policy, with the bound it
 * had under policy @p on @ev: "boosted_outside_cs_ns<=4ms" at HZ=250. */
char *hunt_prop_text(const struct hprop *pr, const struct heval *ev, int p);

/* eval.c */
/* The finding's story, from its failing run @sim: who held the grace
 * period and what kept it, or which boost stayed and what happened to the
 * boosted task first (@bits: the run's engine events, coverage.h). */
char *hunt_cause_of(const struct hprop *pr, const struct report *r, const struct sim *sim, const uint64_t *bits);

/* P fails property @k: in one seed for a correctness property (a safety
 * violation, a deadlock, a boost left behind: one occurrence is the bug),
 * else in at least half -- and Q in none. */
bool hunt_fails_prop(const struct hunt *h, const struct heval *ev, int k);

/* The property of @kind (every hunt has them all). */
int hunt_prop_of_kind(const struct hunt *h, enum hkind kind);

/* Policy @p failed property @k at @seed: counted; P's first failure
 * says how, from its report @r (mechanism_of()), else @how. */
void hunt_note_fail(const struct hunt *h, struct heval *ev, int p, int k, uint64_t seed, const struct sim *sim,
                    const struct report *r, const char *how);

void hunt_eval_in_process(struct hunt *h, struct heval *ev);

void hunt_pool_work(gpointer data, gpointer user);

/* Evaluate @n candidates, on -j threads; results in place. */
void hunt_eval_batch(struct hunt *h, struct heval *evs, int n);

/* @ev fails property @k on the --seeds seeds: does it on HUNT_CONFIRM times
 * as many?  P must still fail in half of them (one, for a correctness
 * property) and Q hold in every one: with three seeds, 2 failing against 0
 * is luck often enough -- both boosters' bare-setprio hole met by the timing
 * of one and not the other -- to be worth the runs, which only candidates
 * that fail pay.  Without Q a correctness property needs no more. */
bool hunt_confirm(struct hunt *h, struct heval *ev, int k);

void heval_set(struct heval *ev, const struct hscn *s);

/* @ev for @c (its text copied; a text candidate's tree says no key). */
void heval_set_cand(struct heval *ev, const struct hcand *c);

/* @ev as the search keeps it, into @c (its text copied, @c's freed first). */
void hcand_set(struct hcand *c, const struct heval *ev);

void heval_clear(struct heval *ev);

bool hunt_out_of_budget(const struct hunt *h);

/* child.c */
enum in_child_end hunt_in_child(gint64 timeout_us, gboolean (*fn)(void *data, GString *msg), void *data,
                                GString *msg);

/* `hunt --eval-child`: one evaluation asked on stdin, answered on stdout. */
int hunt_eval_child(struct hunt *h);

void hunt_eval_isolated(struct hunt *h, struct heval *ev);

/* shrink.c */
void hunt_shrink(struct hunt *h, struct heval *best, int k);

/* A corpus file's text has no tree to shrink: its run halved instead
 * (not below 200 ms, as the tree's), while it still fails @k the same way. */
void hunt_shrink_duration(struct hunt *h, struct heval *best, int k);

/* The last pass (#50): each remaining line of the shrunk scenario deleted on
 * its own once more -- what the structured steps leave (a hog's affinity or
 * start time) -- kept when the candidate still loads and fails @k the same
 * way.  Works on the text: the finding is written from it, and its task
 * counts in hunt.txt are the structured shrink's. */
void hunt_shrink_lines(struct hunt *h, struct heval *best, int k);

/* Without --versus: does every built-in policy fail @k on @ev too, on the
 * same seeds as P did?  Then no policy holds it (an updater alone that
 * outruns the memory limit), and it is the scenario's finding, not P's
 * (#50).  @who: the policies asked, for the finding's header. */
bool hunt_no_policy_holds(const struct hunt *h, const struct heval *ev, int k, GString *who);

/* findings.c */
/* @msg with the held directory's name (/proc/self/fd/N) shown as the user gave it. */
char *hunt_shown_path(const char *msg, const char *held, const char *given);

/* write_finding(), which runs the failing run again to describe it: in a
 * child when the hunt isolates its policies' code (#59), and where it
 * crashes or hangs there, written again without that run. */
gboolean hunt_finding_written(struct hunt *h, const char *dir, int number, const struct heval *ev, int k,
                              uint64_t hunt_seed, const char *no_policy, GError **error);

/* What `rcuboost check` says of the earlier hunt's finding @name in @dir,
 * as a line of hunt.txt: its own [expect] lines judge it, whatever this
 * hunt's properties and policies (#59).  check runs in a child -- a
 * module's code runs in no other process of a hunt -- under the built-in
 * policies and this hunt's modules (a line names its own policy), and a
 * child that outlasts ten times --hang-timeout is ended. */
void hunt_earlier_finding_judged(const struct hunt *h, const char *dir, const char *name,
                                 const struct boost_policy_ops *const *ops, GString *log);

/* Each earlier finding in @old (NAME -> text, in @dir) judged as check judges
 * it, into @st's log; @st->earlier the highest number among them (#59). */
void hunt_earlier_judged(const struct hunt *h, const char *dir, const struct boost_policy_ops *const *ops,
                         struct hsearch *st, GTree *old);

/* coverage.c */
/* Count @ev's transitions; it becomes their keeper.  Did it reach one no
 * candidate had before? */
bool hunt_edges_note(struct edges *g, const struct heval *ev);

/* The keeper of a transition drawn with weight 1/hits, or NULL before any. */
const struct hcand *hunt_edges_pick(const struct edges *g, gsl_rng *r);

/* hunt.txt's line on the engine's events: how many (event, bucket) pairs,
 * and the events no candidate reached -- where the search did not go. */
char *hunt_engine_events_said(const struct hunt *h, const struct edges *g);

void hunt_edges_free(struct edges *g);

/* Keep the HUNT_NEAR candidates nearest to failing, best first; a tie
 * keeps the earlier (deterministic). */
void hunt_near_offer(GArray *near, struct heval *ev);

/* state.c */
void hsearch_init(struct hsearch *st);

void hsearch_free(struct hsearch *st);

gint hunt_name_cmp(gconstpointer a, gconstpointer b, gpointer unused);

/* The state as text (hunt.state): @identity first, the GSL stream's bytes in hex. */
void hsearch_save(const struct hunt *h, const struct hsearch *st, const char *identity, GString *o);

/* hsearch_save()'s text back into @h and @st (fresh from hsearch_init()). */
gboolean hsearch_load(struct hunt *h, struct hsearch *st, const char *identity, const char *text,
                             const struct boost_policy_ops *const *ops, const char *path, GError **error);

/* hunt.state, below the held directory @held (shown as @out in an error). */
gboolean hunt_state_write(const char *held, const GString *state, const char *out);

/* corpus.c */
/* The *.scn files of @dir, by name: NAME -> contents (NULL: no such directory). */
/* A corpus file's text: a regular file, no larger than a scenario file may
 * be -- a FIFO would block the hunt for ever, /dev/zero fill the memory (#59). */
char *hunt_corpus_file_read(const char *path, GError **error);

/* The *.scn files of @dir by name, or NULL: no such directory (@error unset),
 * or one of them is no scenario file to read (@error set). */
GTree *hunt_scn_files(const char *dir, GError **error);

/* The shipped scenarios the binary carries (/rcuboost/corpus/). */
GTree *hunt_shipped_scenarios(void);

void hunt_seeds_from(struct hsearch *st, GTree *files, const char *prefix, const struct boost_policy_ops *const *ops,
                     GString *skipped);

/* A candidate that reached new coverage, as DIR/corpus/NNNNN.scn: a tree's
 * line first, so that a later hunt reads the tree back, not only its text. */
gboolean hunt_corpus_keep(struct hsearch *st, const char *dir, const struct heval *ev, GError **error);

#endif
