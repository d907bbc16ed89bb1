/* aging.h - aged per-CPU lists of blocked readers, and the booster thread.
 *
 * The shared machinery of approaches 1 and 2 (the Jan 2007 patches): each
 * CPU has an array of RCU_BOOST_ELEMENTS (default 4) elements, each with a
 * lock, a `toboost` and a `boosted` list.  A reader switched out inside a
 * critical section is appended to element [its cpu][idx] of the global
 * index idx, which only the booster advances.  The booster thread, every
 * period (booster_period in whole jiffies, as the patches' HZ / 100, each
 * sleep ending at a tick as schedule_timeout() does):
 * idx = (idx + 1) % N; for each CPU it takes element (idx + 1) % N,
 * the oldest, splices its lists (both, or only toboost), and -- pausing one tick before each
 * task -- hands each task to the policy's boost() hook, then sleeps for the
 * period.  A reader is thus boosted two to three periods after it blocked,
 * and one that stays blocked is boosted again every N periods (a change of
 * the booster's priority reaches it then).
 *
 * What "boost" means (and which state machine guards it) is the policy's:
 * see booster.c and booster8.c.  Every lock and list operation here is
 * charged to the booster thread.
 */
#ifndef RCUBOOST_AGING_H
#define RCUBOOST_AGING_H

#include <glib.h>
#include <stdbool.h>

#include "../sim/engine/engine.h"

struct aging_elem {
        int cpu;
        int index;
        GQueue toboost;         /* struct aging_link.link; data = task */
        GQueue boosted;
};

/* Embedded in a policy's per-task state. */
struct aging_link {
        GList link;             /* data = the task */
        GQueue *on;             /* list it is on (an element's or the booster's), or NULL */
        struct aging_elem *elem;
};

struct aging_ops {
        /* Booster: @t was taken off element @e's lists (lock held).  Do the
         * boost, charging the booster.  Return true to have finish() called
         * once the booster has burnt what it was charged. */
        bool (*boost)(void *pol, struct task *t, struct aging_elem *e);
        void (*finish)(void *pol, struct task *t, struct aging_elem *e);
        /* Splice the element's `boosted` list too, re-boosting readers still
         * blocked (the Jan 15 patch), or only `toboost` (the Jan 2 patch). */
        bool splice_boosted;
};

enum aging_phase {
        AGING_ADVANCE,
        AGING_SCAN,
        AGING_PICK,
        AGING_FINISH,
};

struct aging {
        struct sim *sim;
        int ncpus;
        int nelem;
        int idx;
        struct aging_elem *elems;       /* [cpu * nelem + i] */
        struct task *booster;
        sim_time_ns period_ns;
        enum boost_chain chain;         /* setprio (the patches) unless adjust_pi=true */
        const struct aging_ops *ops;
        void *pol;

        /* the booster's loop */
        enum aging_phase phase;
        int cpu;
        struct aging_elem *cur;
        GQueue local;                   /* spliced from cur, being boosted */
        struct task *pending;           /* boosted, waiting for finish() */
        int64_t passes;
};

void aging_init(struct aging *a, struct sim *sim, int nelem, sim_time_ns period_ns,
                const struct aging_ops *ops, void *pol);
/* Read booster_prio, booster_period, aging_elements and adjust_pi, set up @a and start
 * the booster.  The booster must be fifo/rr with priority >= @min_rt (0:
 * any class, even SCHED_OTHER). */
gboolean aging_create(struct aging *a, struct sim *sim, const struct policy_params *params, int min_rt,
                      const struct aging_ops *ops, void *pol, GError **error);
/* A run-time change of booster_prio or booster_period.  Readers already
 * boosted are the policy's business (neither Jan 2007 policy moves them at
 * once). */
gboolean aging_set_param(struct aging *a, const char *key, const char *value, int min_rt,
                         GError **error);
/* What aging_set_param() accepts: booster_prio (fifo/rr at least @min_rt,
 * or anything when 0) and booster_period (> 0). */
gboolean aging_check_param(const char *key, const char *value, int min_rt, GError **error);
void aging_finish(struct aging *a);
/* Create and start the booster thread. */
void aging_start_booster(struct aging *a, const char *name, const struct sched_spec *sched);

/* The element a reader blocking on @cpu now joins. */
static inline struct aging_elem *aging_current(struct aging *a, int cpu)
{
        return &a->elems[cpu * a->nelem + a->idx];
}

void aging_link_init(struct aging_link *l, struct task *t);
void aging_link_add(struct aging_link *l, struct aging_elem *e, GQueue *q);
/* Unlink from whatever list @l is on (no-op when on none). */
void aging_link_del(struct aging_link *l);
/* "toboost cpu0 elem2", "boosted cpu1 elem0", "booster", or "none". */
void aging_link_describe(const struct aging *a, const struct aging_link *l, char *buf, size_t len);

static inline struct task *aging_link_task(GList *link)
{
        return link->data;
}

/* The [policy] keys the aging machinery reads (aging_init()), the same in
 * both policies' tables, after their own booster_prio. */
#define AGING_POLICY_KEYS \
        { .name = "booster_period", .type = POLICY_KEY_DURATION, .default_value = "10ms", \
          .doc = "how long the booster sleeps between passes (HZ/100)" }, \
        { .name = "aging_elements", .type = POLICY_KEY_INT, .default_value = "4", \
          .doc = "aging elements per CPU (RCU_BOOST_ELEMENTS)" }, \
        { .name = "adjust_pi", .type = POLICY_KEY_BOOL, .default_value = "false", \
          .doc = "also walk the PI chain after boosting (rt_mutex_adjust_pi(), which the 2007 patch did not call)" }

#endif
