/* testutil.h - helpers shared by the Check suites. */
#ifndef RCUBOOST_TESTUTIL_H
#define RCUBOOST_TESTUTIL_H

#include <check.h>
#include <string.h>

#include "sim/engine/engine.h"

/* Load scenario text (asserting it is valid) and build a sim with @policy. */
static inline struct sim *sim_from_text(const char *text, const char *policy, struct scenario **out_sc)
{
        GError *e = NULL;
        struct scenario *sc = scenario_load_data(text, "test.scn", NULL, &e);
        struct sim *sim;

        ck_assert_msg(sc != NULL, "scenario: %s", e ? e->message : "?");
        sim = sim_new(sc, &(struct sim_options){ .policy = policy }, &e);
        ck_assert_msg(sim != NULL, "sim_new: %s", e ? e->message : "?");
        *out_sc = sc;
        return sim;
}

static inline struct task *find_task(struct sim *sim, const char *name)
{
        for (guint i = 0; i < sim->tasks->len; i++)
                if (!strcmp(sim_task(sim, (int)i)->name, name))
                        return sim_task(sim, (int)i);
        ck_abort_msg("no task %s", name);
        return NULL;
}

/* The error a scenario text produces (NULL if it loads). Caller frees. */
static inline char *scenario_error_of(const char *text)
{
        GError *e = NULL;
        struct scenario *sc = scenario_load_data(text, "bad.scn", NULL, &e);
        char *msg;

        if (sc) {
                scenario_free(sc);
                return NULL;
        }
        msg = g_strdup(e->message);
        g_error_free(e);
        return msg;
}

/* The policy's description of @t's state ("BLOCKED toboost cpu0 elem0"). */
static inline const char *policy_state(struct sim *sim, struct task *t)
{
        static char buf[128];

        sim->policy->describe_task(sim->pol, t, buf, sizeof(buf));
        return buf;
}

/* A number from the finished run's summary (asserting it exists). */
static inline double summary_value(struct sim *sim, const char *key)
{
        double v = 0;

        if (!sim_report(sim))
                sim_finish(sim, NULL);
        ck_assert_msg(report_lookup(sim_report(sim), key, &v), "no %s in the report", key);
        return v;
}

#define MS(x) ((int64_t)((x) * 1000000.0))
#define US(x) ((int64_t)((x) * 1000.0))

/* Costs that get in the way of exact timing assertions. */
#define ZERO_COSTS "[costs]\ncontext_switch=0\nrcu_read_lock=0\nrcu_read_unlock=0\ncallback=0\n"

static inline int run_suite(Suite *s)
{
        SRunner *sr = srunner_create(s);
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        /* CK_RUN_CASE naming no case runs nothing: that is no pass */
        if (srunner_ntests_run(sr) == 0) {
                fprintf(stderr, "no test ran (CK_RUN_CASE=%s)\n", g_getenv("CK_RUN_CASE"));
                failed = 1;
        }
        srunner_free(sr);
        return failed ? 1 : 0;
}

#endif
