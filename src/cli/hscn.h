/* hscn.h - hunt's grammar: a generated scenario as a small syntax tree.
 *
 * `rcuboost hunt` (docs/hunt.md) searches the scenario language through a
 * tree small enough to read and to edit: some CPUs, a tick, and up to ten
 * tasks of a few kinds (readers, RT hogs, call_rcu updaters, synchronize_rcu
 * callers, periodic RT tasks, mutex owners, device interrupts), each with
 * the handful of numbers that matter to a stall or a race, plus at most one
 * of the hunted policy's [policy] keys.  The tree is a plain value: the
 * search copies, mutates and shrinks it by assignment, and renders it to
 * scenario text only to run it or to write a finding.
 *
 * Every function draws from the caller's GSL stream and nothing else, so the
 * same stream gives the same trees (hunt's determinism rests on it).
 */
#pragma once

#include <gsl/gsl_rng.h>
#include <stdbool.h>
#include <stdint.h>

#include "../policies/policy.h"

#define HSCN_MAX_TASKS 10

enum htask_kind { HT_READER, HT_HOG, HT_UPDATER, HT_PERIODIC, HT_OWNER, HT_SYNCER, HT_IRQ, HT_KINDS };

struct htask {
        enum htask_kind kind;
        int rt_prio;            /* 0: SCHED_NORMAL, else SCHED_FIFO priority */
        int cpu;                /* affinity, or -1: any CPU */
        int count;              /* copies */
        int64_t start_ns;       /* hog: when it arrives */
        int64_t len_ns;         /* reader: critical section (mean); hog: its burst; owner: hold; cyclic: work */
        int64_t gap_ns;         /* reader: sleep between sections (0: back to back); updater, cyclic: period */
        int mutex;              /* reader: taken inside its section (m0); owner: the one it holds (m0 or m1);
                                 * -1: none */
        bool chain;             /* owner of m0: takes m1 inside it (an owner chain: reader -> m0 -> m1) */
        bool nested;            /* reader: its section nests a second rcu_read_lock() */
        int kib;                /* updater: each callback's size */
        bool repeat;            /* hog: again and again, sleeping gap_ns between bursts */
        int64_t event_ns;       /* reader, hog: an [event] at this time sets its class to event_prio; 0: none */
        int event_prio;         /* ... 0: SCHED_NORMAL, else FIFO */
        bool event_moves;       /* ... or, instead, pins it to CPU event_cpu */
        int event_cpu;
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
        struct htask tasks[HSCN_MAX_TASKS];
};

/* A fresh tree: a reader, an updater, up to three more tasks; sometimes one of
 * @ops' keys (set for @versus too when it has the key), a tick, a slow
 * priority change. */
void hscn_random(gsl_rng *r, const struct boost_policy_ops *ops, const struct boost_policy_ops *versus,
                 struct hscn *s);
/* One edit: a task added, removed or changed, the CPUs, the key, the cost. */
void hscn_mutate(gsl_rng *r, struct hscn *s);
/* The scenario text, with @header's comment lines first and @expect as its [expect] section (either may be NULL). */
char *hscn_render(const struct hscn *s, uint64_t seed, const char *header, const char *expect);
/* Every one-step simplification of @s into @out (at most @max), simplest first; returns how many. */
int hscn_reductions(const struct hscn *s, struct hscn *out, int max);
/* The tree as one line of text, and back (hunt's corpus files and --resume):
 * false for a line that is not one, or names a key @ops does not have. */
char *hscn_serialize(const struct hscn *s);
bool hscn_parse(const char *line, const struct boost_policy_ops *ops, const struct boost_policy_ops *versus,
                struct hscn *s);
/* A duration as the scenario language writes it, exactly: 3ms, 250us, 1234ns. */
char *hscn_format_ns(int64_t ns);
