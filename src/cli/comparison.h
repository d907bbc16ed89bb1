/* comparison.h - the runs of one `rcuboost compare`, as its table
 * (compare_table.c) and its plots (compare_plots.c) read them. */
#ifndef RCUBOOST_COMPARISON_H
#define RCUBOOST_COMPARISON_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "headline.h"

/* The distributions drawn as tails: metric, file stem, title, unit, ns per unit. */
struct compare_tail {
        const char *metric, *stem, *what, *unit;
        double scale;
};

#define COMPARE_TAILS 7
extern const struct compare_tail compare_tails[COMPARE_TAILS];

/* The row of --real's runs: the kernel is rcu-boost on Tree RCU. */
#define REAL_POLICY "real-kernel"
/* scripts/kernel-run's default --out under compare's default DIR: out/NAME/real */
#define KERNEL_RUN_DIR "real"

/* One run: a policy at one seed. */
struct result {
        const char *policy;
        uint64_t seed;
        char *rundir;                   /* DIR/POLICY/seed-S */
        const char *status;             /* ok, failed, incomplete, unsafe */
        char *flavour;                  /* rcu.flavour: rcupreempt, tree */
        char *environment;              /* "tree, 6.1-rt[, kthread_prio=N]": what the run modelled */
        double values[HEADLINE_COUNT];
        bool at_least[HEADLINE_COUNT];  /* a lower bound: still pending at the end */
        bool oom;
        bool stall;                     /* a grace period or callback over stall_threshold, pending ones too */
        bool stalled_at_end;            /* one still waiting at the end, past stall_threshold */
        bool stall_unknown;             /* out of memory before a pending wait could pass it */
        double oom_time_ns, oom_bytes;
        double observed_ns;             /* simulated time it covered: its duration, or to its out of memory */
        int stall_episodes;             /* grace periods over stall_threshold; 1 for a run that stalled otherwise */
        double pending_gp_ns;           /* grace period still pending at the end */
        double gp_max_ns;               /* the longest that completed */
        GHashTable *rt_max_ns;          /* periodic class ("rt:90") -> double *: its worst wake-up */
        GHashTable *rt_cause;           /* ... -> char *: what that wake-up waited for most (rt_wait) */
        GPtrArray *rt_task_class;       /* char *: the class of periodic task N (rt_tasks.N) */
        double counts[COMPARE_TAILS];
        double boost_from_gp_ns;        /* with --real: the first boost from its grace period's start, or NAN */
        bool has_pace;                  /* a real run that measured its pace: */
        double pace_pct;                /* its call_rcu() issuers' rate, % of the model's for the same seed */
};

/* A real run whose call_rcu() issuers kept under this share of the model's
 * rate did not run the scenario as written (docs/validation.md). */
#define GUEST_PACE_MIN_PCT 80

/* A policy's runs over the seeds, and what they show together. */
struct policy_runs {
        const char *policy;
        bool real;                      /* runs on a real kernel (--real): not paired by seed */
        const char *flavour;
        const char *environment;
        struct result *runs;            /* n of them, seeds first .. first + n - 1 */
        int n;
        int ok, oom, stall, stalled_at_end, unsafe, stall_unknown;
        int stall_episodes;             /* over the runs, in */
        double observed_ns;             /* their simulated time (NAN: a run did not say) */
        const struct result *worst;
        char *title;                    /* for plot keys */
};

#endif
