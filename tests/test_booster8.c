/* Policy booster-8state (approach 2): every transition of the eight-state
 * machine, including the races, with the booster's work between BOOSTING
 * and BOOSTED made long ([costs] prio_change=2ms) so the reader can act
 * inside that window. */
#include "testutil.h"

#define RT(p) (99 - (p))

/* Two CPUs: reader and hog on CPU 0, the booster pinned to CPU 1.  The
 * reader is preempted with 0.5 ms of its critical section left; the booster
 * reaches it at 31 ms and needs 2 ms to finish boosting. */
#define RACE(program, extra) RACE_FOR("200ms", program, extra)
#define RACE_FOR(duration, program, extra) "[scenario]\ncpus=2\nduration=" duration "\n" \
        "[costs]\ncontext_switch=0\nrcu_read_lock=0\nrcu_read_unlock=0\ncallback=0\nprio_change=2ms\n" \
        "[event:pin]\nat=0\ntask=rcu_booster\naffinity=1\n" \
        "[task:reader]\nsched=normal:0\naffinity=0\nprogram=" program "\n" \
        "[task:hog]\nsched=fifo:10\naffinity=0\nstart=1ms\nprogram=compute 150ms\n" extra

#define TRANS(sim, from, to) summary_value(sim, "policy_stats.transitions." #from "_to_" #to)

START_TEST(unlock_during_boosting_is_unboosted_after_the_fact)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(RACE("rcu_read_lock; compute 1500us; rcu_read_unlock; compute 5ms; sleep 1s", ""),
                                        "booster-8state", &sc);
        struct task *r = find_task(sim, "reader");

        sim_run_until(sim, MS(2));
        ck_assert_str_eq(policy_state(sim, r), "BLOCKED toboost cpu0 elem1");
        sim_run_until(sim, MS(31) + US(100));
        ck_assert_str_eq(policy_state(sim, r), "BOOSTING none");
        ck_assert_int_eq(r->prio, RT(49));              /* the booster's own level */
        ck_assert_int_eq(r->state, TASK_RUNNING);
        sim_run_until(sim, MS(32));
        /* It left its critical section while the booster was still at work. */
        ck_assert_str_eq(policy_state(sim, r), "UNBOOST_IDLE none");
        ck_assert_int_eq(r->rcu_nesting, 0);
        ck_assert_int_eq(r->prio, RT(49));
        sim_run_until(sim, MS(33) + US(100));
        ck_assert_str_eq(policy_state(sim, r), "IDLE none");
        ck_assert_int_eq(r->prio, PRIO_NICE_0);
        ck_assert_int_eq(TRANS(sim, IDLE, BLOCKED), 1);
        ck_assert_int_eq(TRANS(sim, BLOCKED, BOOSTING), 1);
        ck_assert_int_eq(TRANS(sim, BOOSTING, UNBOOST_IDLE), 1);
        ck_assert_int_eq(TRANS(sim, UNBOOST_IDLE, IDLE), 1);
        ck_assert_int_eq(TRANS(sim, BOOSTING, BOOSTED), 0);
        ck_assert_int_eq(summary_value(sim, "policy_stats.failed_cmpxchg"), 1);
        /* Boosted outside any critical section from 31.5 ms to 33 ms. */
        ck_assert_int_ge(summary_value(sim, "policy_stats.boosted_outside_cs_ns"), US(1400));
        ck_assert_int_le(summary_value(sim, "policy_stats.boosted_outside_cs_ns"), US(1600));
        /* One atomic per transition, plus the failed cmpxchg. */
        ck_assert_int_eq(summary_value(sim, "policy_stats.atomic_ops"), 5);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

/* The same race, with the run ending at 32 ms: the reader is still boosted
 * outside its section, and the unboost never comes -- that half millisecond
 * counts as boosted outside the section, up to the end of the run. */
START_TEST(a_boost_held_outside_the_section_at_the_end_counts)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(RACE_FOR("32ms", "rcu_read_lock; compute 1500us; rcu_read_unlock; compute 5ms; "
                                                 "sleep 1s", ""), "booster-8state", &sc);

        sim_run(sim);
        ck_assert_str_eq(policy_state(sim, find_task(sim, "reader")), "UNBOOST_IDLE none");
        ck_assert_int_eq(summary_value(sim, "policy_stats.readers_still_boosted"), 1);
        ck_assert_int_eq(summary_value(sim, "policy_stats.boosted_outside_cs"), 1);
        ck_assert_int_ge(summary_value(sim, "policy_stats.boosted_outside_cs_ns"), US(400));
        ck_assert_int_le(summary_value(sim, "policy_stats.boosted_outside_cs_ns"), US(600));
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(reblock_during_unboost_idle_is_queued_again)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(RACE(
                "rcu_read_lock; compute 1500us; rcu_read_unlock; rcu_read_lock; compute 3ms; rcu_read_unlock; sleep 1s",
                "[task:intruder]\nsched=fifo:60\naffinity=0\nstart=32ms\nprogram=compute 200us\n"),
                "booster-8state", &sc);
        struct task *r = find_task(sim, "reader");

        sim_run_until(sim, MS(32) + US(100));
        /* Preempted in its next critical section before the cleanup: it
         * queued itself (the booster splices only toboost). */
        ck_assert_str_eq(policy_state(sim, r), "UNBOOST_BLOCKED toboost cpu0 elem0");
        ck_assert_int_eq(r->rcu_nesting, 1);
        sim_run_until(sim, MS(33) + US(100));
        /* Unboosted, still queued for boosting in its new critical section. */
        ck_assert_str_eq(policy_state(sim, r), "BLOCKED toboost cpu0 elem0");
        ck_assert_int_eq(r->prio, PRIO_NICE_0);
        sim_run(sim);
        ck_assert_int_eq(TRANS(sim, UNBOOST_IDLE, UNBOOST_BLOCKED), 1);
        ck_assert_int_eq(TRANS(sim, UNBOOST_BLOCKED, BLOCKED), 1);
        ck_assert_int_ge(summary_value(sim, "policy_stats.readers_boosted"), 2);
        ck_assert_int_eq(r->rcu_nesting, 0);
        ck_assert_int_eq(sim_safety_violations(sim), 0);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(unlock_then_block_again_before_cleanup_then_unlock)
{
        /* UNBOOST_BLOCKED -> UNBOOST_IDLE: the second section ends too before
         * the booster is back. */
        struct scenario *sc;
        struct sim *sim = sim_from_text(RACE(
                "rcu_read_lock; compute 1500us; rcu_read_unlock; rcu_read_lock; compute 600us; rcu_read_unlock; compute 5ms; sleep 1s",
                "[task:intruder]\nsched=fifo:60\naffinity=0\nstart=31600us\nprogram=compute 100us\n"),
                "booster-8state", &sc);
        struct task *r = find_task(sim, "reader");

        sim_run_until(sim, MS(32) + US(500));
        ck_assert_str_eq(policy_state(sim, r), "UNBOOST_IDLE none");
        sim_run(sim);
        ck_assert_int_eq(TRANS(sim, UNBOOST_IDLE, UNBOOST_BLOCKED), 1);
        ck_assert_int_eq(TRANS(sim, UNBOOST_BLOCKED, UNBOOST_IDLE), 1);
        ck_assert_int_eq(TRANS(sim, UNBOOST_IDLE, IDLE), 1);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(readers_are_boosted_to_rt49_whatever_the_booster)
{
        /* PREEMPT_RCU_BOOST_PRIO is fixed: an RR 70 booster still boosts to
         * RT 49, and a later change of the booster's priority moves nobody. */
        struct scenario *sc;
        struct sim *sim = sim_from_text(RACE("rcu_read_lock; compute 20ms; rcu_read_unlock; sleep 1s",
                "[policy]\nbooster_prio=rr:70\n[event:lower]\nat=40ms\npolicy.booster_prio=fifo:30\n"),
                "booster-8state", &sc);
        struct task *r = find_task(sim, "reader");

        sim_run_until(sim, MS(34));
        ck_assert_str_eq(policy_state(sim, r), "BOOSTED boosted cpu0 elem1");
        ck_assert_int_eq(r->boost_prio, RT(49));
        ck_assert_int_eq(r->prio, RT(49));
        ck_assert_int_eq(find_task(sim, "rcu_booster")->prio, RT(70));
        sim_run_until(sim, MS(41));
        ck_assert_int_eq(find_task(sim, "rcu_booster")->prio, RT(30));
        ck_assert_int_eq(r->prio, RT(49));
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(exit_while_being_boosted_waits_for_the_booster)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(RACE("rcu_read_lock; compute 1500us; rcu_read_unlock", ""),
                                        "booster-8state", &sc);
        struct task *r = find_task(sim, "reader");

        sim_run_until(sim, MS(32));
        ck_assert_int_eq(r->state, TASK_EXITING);
        ck_assert_str_eq(policy_state(sim, r), "UNBOOST_EXITING none");
        sim_run_until(sim, MS(33) + US(100));
        ck_assert_int_eq(r->state, TASK_EXITED);
        ck_assert_str_eq(policy_state(sim, r), "EXIT_OK none");
        ck_assert_int_eq(TRANS(sim, UNBOOST_IDLE, UNBOOST_EXITING), 1);
        ck_assert_int_eq(TRANS(sim, UNBOOST_EXITING, EXIT_OK), 1);
        ck_assert_int_eq(summary_value(sim, "policy_stats.exits_held"), 1);
        ck_assert_int_ge(summary_value(sim, "policy_stats.exit_wait.max_ns"), US(1400));
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(ordinary_boost_unlock_and_exit)
{
        /* Default costs: the booster finishes long before the reader does. */
        struct scenario *sc;
        struct sim *sim = sim_from_text("[scenario]\ncpus=1\nduration=200ms\n" ZERO_COSTS
                "[task:reader]\nsched=normal:0\nprogram=rcu_read_lock; compute 10ms; rcu_read_unlock\n"
                "[task:quick]\nsched=normal:0\nprogram=rcu_read_lock; compute 1500us; rcu_read_unlock; sleep 1s\n"
                "[task:hog]\nsched=fifo:10\nstart=1ms\nprogram=compute 150ms\n"
                "[task:blip]\nsched=fifo:20\nstart=500us\nprogram=compute 100us\n", "booster-8state", &sc);
        struct task *r = find_task(sim, "reader");

        /* Both readers sit in element 1; the booster takes them one tick apart. */
        sim_run_until(sim, MS(32) + US(50));
        ck_assert_str_eq(policy_state(sim, r), "BOOSTED boosted cpu0 elem1");
        ck_assert_int_eq(r->prio, RT(49));
        sim_run(sim);
        ck_assert_int_eq(r->state, TASK_EXITED);
        ck_assert_str_eq(policy_state(sim, r), "EXIT_OK none");
        ck_assert_int_eq(TRANS(sim, IDLE, BLOCKED), 2);
        ck_assert_int_ge(TRANS(sim, BLOCKED, BOOSTING), 1);
        ck_assert_int_ge(TRANS(sim, BOOSTING, BOOSTED), 1);
        ck_assert_int_ge(TRANS(sim, BOOSTED, IDLE), 1);
        ck_assert_int_eq(TRANS(sim, IDLE, EXIT_OK), 1);
        ck_assert_int_eq(summary_value(sim, "policy_stats.boosted_outside_cs_ns"), 0);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(blocked_then_unlocked_before_boost)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text("[scenario]\ncpus=1\nduration=50ms\n" ZERO_COSTS
                "[task:reader]\nsched=normal:0\nprogram=rcu_read_lock; compute 3ms; rcu_read_unlock; sleep 1s\n"
                "[task:blip]\nsched=fifo:10\nstart=1ms\nprogram=compute 1ms\n", "booster-8state", &sc);

        sim_run(sim);
        ck_assert_int_eq(TRANS(sim, IDLE, BLOCKED), 1);
        ck_assert_int_eq(TRANS(sim, BLOCKED, IDLE), 1);
        ck_assert_str_eq(policy_state(sim, find_task(sim, "reader")), "IDLE none");
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

static Suite *booster8_suite(void)
{
        Suite *s = suite_create("booster-8state");
        TCase *paths = tcase_create("ordinary");
        TCase *races = tcase_create("races");

        tcase_add_test(paths, ordinary_boost_unlock_and_exit);
        tcase_add_test(paths, blocked_then_unlocked_before_boost);
        tcase_add_test(paths, readers_are_boosted_to_rt49_whatever_the_booster);
        tcase_add_test(races, unlock_during_boosting_is_unboosted_after_the_fact);
        tcase_add_test(races, a_boost_held_outside_the_section_at_the_end_counts);
        tcase_add_test(races, reblock_during_unboost_idle_is_queued_again);
        tcase_add_test(races, unlock_then_block_again_before_cleanup_then_unlock);
        tcase_add_test(races, exit_while_being_boosted_waits_for_the_booster);
        suite_add_tcase(s, paths);
        suite_add_tcase(s, races);
        return s;
}

int main(void)
{
        return run_suite(booster8_suite());
}
