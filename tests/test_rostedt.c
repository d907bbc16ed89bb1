/* Policy rostedt-2007 (kernel/rcupreempt-boost.c): synchronize_rcu()
 * callers boost preempted readers to their own priority; krcupreemptd does
 * so at FIFO 1 every period; unlock drops the boost. */
#include "testutil.h"

#define RT(p) (99 - (p))

/* CPU 0: a nice-0 reader preempted 1 ms into a 10 ms section by a FIFO 10
 * hog.  CPU 1: a FIFO 30 task calls synchronize_rcu() at 5 ms. */
#define SYNCER(extra) "[scenario]\ncpus=2\nduration=300ms\n" ZERO_COSTS extra \
        "[task:reader]\nsched=normal:0\naffinity=0\nprogram=rcu_read_lock; compute 10ms; rcu_read_unlock; sleep 1s\n" \
        "[task:hog]\nsched=fifo:10\naffinity=0\nstart=1ms\nprogram=compute 250ms\n"

START_TEST(a_synchronize_rcu_caller_boosts_readers_to_its_priority)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(SYNCER("[task:syncer]\nsched=fifo:30\naffinity=1\nstart=5ms\n"
                                               "program=synchronize_rcu; sleep 1s\n"), "rostedt-2007", &sc);
        struct task *r = find_task(sim, "reader");

        sim_run_until(sim, MS(4));
        ck_assert_str_eq(policy_state(sim, r), "toboost cpu0");   /* queued, level MAX_PRIO: not boosted */
        ck_assert_int_eq(r->prio, PRIO_NICE_0);
        /* rcu_boost_readers() at 5 ms: the caller's FIFO 30, above the hog */
        sim_run_until(sim, MS(5) + US(10));
        ck_assert_int_eq(r->prio, RT(30));
        ck_assert_str_eq(policy_state(sim, r), "boosted cpu0");
        ck_assert_ptr_eq(sim->cpus[0].curr, r);
        /* 9 ms of section left: the unlock at 14 ms drops it */
        sim_run_until(sim, MS(14) + US(10));
        ck_assert_int_eq(r->rcu_nesting, 0);
        ck_assert_int_eq(r->prio, PRIO_NICE_0);
        ck_assert_str_eq(policy_state(sim, r), "IDLE none");
        sim_run(sim);
        ck_assert_int_eq(summary_value(sim, "policy_stats.readers_boosted"), 1);
        ck_assert_int_eq(summary_value(sim, "policy_stats.boost_passes"), 1);
        ck_assert_int_eq(summary_value(sim, "policy_stats.krcupreemptd_syncs"), 0);    /* 3 s period */
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(the_level_stays_until_the_caller_returns_then_drops)
{
        /* The reader is preempted at 1 ms; the FIFO 30 caller at 5 ms boosts
         * it, so it holds the grace period until 14 ms.  `b` on CPU 1, which
         * enters its section at 30 ms and is preempted at 40 ms -- after the
         * grace period and the caller's return, where rcu_unboost_readers()
         * put the level back -- stays unboosted. */
        struct scenario *sc;
        struct sim *sim = sim_from_text(SYNCER(
                "[task:b]\nsched=normal:0\naffinity=1\nstart=30ms\nprogram=rcu_read_lock; compute 50ms; rcu_read_unlock\n"
                "[task:hog2]\nsched=fifo:20\naffinity=1\nstart=40ms\nprogram=compute 100ms\n"
                "[task:syncer]\nsched=fifo:30\naffinity=1\nstart=5ms\nprogram=synchronize_rcu; sleep 1s\n"),
                "rostedt-2007", &sc);
        struct task *b = find_task(sim, "b"), *s = find_task(sim, "syncer");

        sim_run_until(sim, MS(40) + US(10));
        ck_assert_int_eq(s->in_sync, false);            /* back from synchronize_rcu() */
        ck_assert_int_eq(b->rcu_nesting, 1);
        ck_assert_str_eq(policy_state(sim, b), "toboost cpu1");
        ck_assert_int_eq(b->prio, PRIO_NICE_0);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(a_reader_preempted_while_the_level_is_up_is_boosted_at_once)
{
        /* `b` on CPU 1 enters its section at 15 ms, after the reader's
         * unlock; the FIFO 30 caller, its grace period over, wakes there and
         * preempts it: the level is still the
         * caller's (rcu_unboost_readers() runs only once the caller runs), so
         * __rcu_preempt_boost() boosts `b` at once, and it stays boosted until
         * its unlock although the level drops right after. */
        struct scenario *sc;
        struct sim *sim = sim_from_text(SYNCER(
                "[task:b]\nsched=normal:0\naffinity=1\nstart=15ms\nprogram=rcu_read_lock; compute 50ms; rcu_read_unlock\n"
                "[task:syncer]\nsched=fifo:30\naffinity=1\nstart=5ms\nprogram=synchronize_rcu; sleep 1s\n"),
                "rostedt-2007", &sc);
        struct task *b = find_task(sim, "b"), *s = find_task(sim, "syncer");

        sim_run_until(sim, MS(40));
        ck_assert_int_eq(s->in_sync, false);
        ck_assert_int_eq(b->rcu_nesting, 1);
        ck_assert_int_eq(b->prio, RT(30));
        ck_assert_str_eq(policy_state(sim, b), "toboost cpu1");
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(krcupreemptd_boosts_at_fifo_1_every_period)
{
        /* No synchronize_rcu() caller: krcupreemptd (FIFO 1) calls it after
         * its first 100 ms sleep and boosts the reader to FIFO 1, above a
         * fair hog.  Against an RT hog krcupreemptd itself never runs: "If
         * there are RT tasks above priority 1 that are hogging the system
         * ... the system is flawed regardless." */
        for (int rt_hog = 0; rt_hog < 2; rt_hog++) {
                struct scenario *sc;
                g_autofree char *text = g_strdup_printf("[scenario]\ncpus=1\nduration=300ms\n" ZERO_COSTS
                        "[policy]\nkrcupreemptd_period=100ms\n"
                        "[task:reader]\nsched=normal:0\nprogram=rcu_read_lock; compute 10ms; rcu_read_unlock; sleep 1s\n"
                        "[task:hog]\nsched=%s\nstart=1ms\nprogram=compute 250ms\n", rt_hog ? "fifo:5" : "normal:-20");
                struct sim *sim = sim_from_text(text, "rostedt-2007", &sc);
                struct task *r = find_task(sim, "reader");

                sim_run_until(sim, MS(99));
                ck_assert_int_eq(r->prio, PRIO_NICE_0);
                sim_run_until(sim, MS(100) + US(10));
                ck_assert_int_eq(r->prio, rt_hog ? PRIO_NICE_0 : RT(1));
                ck_assert_int_eq(sim->cpus[0].curr == r, !rt_hog);
                sim_run(sim);
                ck_assert_int_eq(summary_value(sim, "policy_stats.krcupreemptd_syncs"), (rt_hog ? 1 : 2));  /* (at 251 ms, after the hog) */
                sim_free(sim);
                scenario_free(sc);
        }
}
END_TEST

static Suite *rostedt_suite(void)
{
        Suite *s = suite_create("rostedt-2007");
        TCase *tc = tcase_create("boosting");

        tcase_add_test(tc, a_synchronize_rcu_caller_boosts_readers_to_its_priority);
        tcase_add_test(tc, the_level_stays_until_the_caller_returns_then_drops);
        tcase_add_test(tc, a_reader_preempted_while_the_level_is_up_is_boosted_at_once);
        tcase_add_test(tc, krcupreemptd_boosts_at_fifo_1_every_period);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return run_suite(rostedt_suite());
}
