/* Policy pi-lock (approach 3): the per-task lock taken in the scheduler
 * path, boosting by priority inheritance, serial boosting, the hand-off race. */
#include "sim/rcu/rcupreempt.h"
#include "testutil.h"

#define RT(p) (99 - (p))

START_TEST(boost_comes_from_priority_inheritance)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text("[scenario]\ncpus=1\nduration=100ms\n" ZERO_COSTS
                "[task:reader]\nsched=normal:0\nprogram=rcu_read_lock; compute 10ms; rcu_read_unlock; sleep 1s\n"
                "[task:hog]\nsched=fifo:10\nstart=1ms\nprogram=compute 80ms\n", "pi-lock", &sc);
        struct task *r = find_task(sim, "reader"), *b = find_task(sim, "rcu_booster");

        sim_run_until(sim, MS(2));
        /* __schedule() boosted it to MAX_USER_RT_PRIO -- the top SCHED_OTHER
         * level, no help against the FIFO hog -- and took its own lock. */
        ck_assert_str_eq(policy_state(sim, r), "owns-lock boosted queued");
        ck_assert_int_eq(r->boost_prio, PRIO_MAX_RT);
        ck_assert_int_eq(r->prio, PRIO_MAX_RT);
        /* The booster looks every 10 ms, and blocks on the reader's lock. */
        sim_run_until(sim, MS(10) + US(50));
        ck_assert_int_eq(b->state, TASK_BLOCKED);
        ck_assert_str_eq(policy_state(sim, r), "owns-lock boosted boosting");
        ck_assert_int_eq(r->prio, RT(49));              /* lent by inheritance */
        ck_assert_int_eq(r->boost_prio, PRIO_MAX_RT);
        /* 9 ms left: at the unlock the lock passes to the booster, which frees it. */
        sim_run_until(sim, MS(19) + US(100));
        ck_assert_int_eq(r->rcu_nesting, 0);
        ck_assert_int_eq(r->prio, PRIO_NICE_0);
        ck_assert_str_eq(policy_state(sim, r), "lock-free");
        ck_assert_int_eq(summary_value(sim, "policy_stats.handoffs"), 1);
        ck_assert_int_eq(summary_value(sim, "policy_stats.readers_boosted"), 1);
        ck_assert_int_eq(summary_value(sim, "policy_stats.readers_unboosted"), 1);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

/* A reader moved off its CPU by an affinity change inside its section is
 * switched out as preempted, and pi-lock boosts it in that hook -- while it
 * is on no run queue yet (schedule() places it on an allowed CPU after the
 * hook).  The boost must not look for it on the old CPU's queue. */
START_TEST(a_reader_moved_off_its_cpu_is_boosted_on_the_way)
{
        struct scenario *sc;
        struct sim *sim;
        struct task *r;

        g_log_set_always_fatal(G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
        sim = sim_from_text("[scenario]\ncpus=2\nduration=50ms\n" ZERO_COSTS
                "[task:reader]\nsched=normal:0\naffinity=0\n"
                "program=rcu_read_lock; compute 10ms; rcu_read_unlock; sleep 1s\n"
                "[event:move]\nat=1ms\ntask=reader\naffinity=1\n", "pi-lock", &sc);
        r = find_task(sim, "reader");
        sim_run_until(sim, MS(2));
        ck_assert_int_eq(r->cpu, 1);
        ck_assert_int_eq(r->state, TASK_RUNNING);
        ck_assert_int_eq(r->rcu_nesting, 1);
        ck_assert_int_eq(r->prio, PRIO_MAX_RT);         /* boosted at the switch-out */
        sim_run_until(sim, MS(12));
        ck_assert_int_eq(r->rcu_nesting, 0);
        ck_assert_int_eq(r->prio, PRIO_NICE_0);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(readers_are_boosted_one_at_a_time)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text("[scenario]\ncpus=1\nduration=300ms\n" ZERO_COSTS
                "[task:reader]\nsched=normal:0\ncount=4\nprogram=rcu_read_lock; compute 8ms; rcu_read_unlock; sleep 1s\n"
                "[task:hog]\nsched=fifo:10\nstart=10ms\nprogram=compute 200ms\n", "pi-lock", &sc);
        int max_boosted = 0;

        for (int t = 1; t <= 80; t++) {
                int boosted = 0;

                sim_run_until(sim, MS(t) + US(500));
                for (int i = 0; i < 4; i++) {
                        g_autofree char *name = g_strdup_printf("reader.%d", i);

                        boosted += find_task(sim, name)->prio == RT(49);
                }
                max_boosted = MAX(max_boosted, boosted);
        }
        ck_assert_int_eq(max_boosted, 1);
        ck_assert_int_eq(summary_value(sim, "policy_stats.readers_boosted"), 4);
        ck_assert_int_eq(summary_value(sim, "policy_stats.max_queued"), 4);
        /* Each was boosted at once on the scheduler path, to the top SCHED_OTHER
         * level (the engine's boost); the booster's RT priority came one reader
         * at a time, so the last one waited for the three before it. */
        ck_assert_int_eq(summary_value(sim, "policy_stats.boost_delay.max_ns"), 0);
        ck_assert_int_ge(summary_value(sim, "policy_stats.inherit_delay.max_ns"), MS(15));
        for (int i = 0; i < 4; i++) {
                g_autofree char *name = g_strdup_printf("reader.%d", i);

                ck_assert_int_eq(find_task(sim, name)->rcu_nesting, 0);
        }
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(handoff_race_leaves_a_reader_unboosted)
{
        /* The booster, pinned to CPU 1, is kept off its CPU by a FIFO 60 task
         * from 15 to 40 ms.  The reader unlocks at 19 ms, handing its lock to
         * the booster; at 21 ms it is preempted in its next critical section
         * and the scheduler path cannot acquire its own lock, still held by
         * the booster: until the booster lets go at 40 ms nothing can lend
         * the reader a priority through it. */
        struct scenario *sc;
        struct sim *sim = sim_from_text("[scenario]\ncpus=2\nduration=200ms\n" ZERO_COSTS
                "[event:pin]\nat=0\ntask=rcu_booster\naffinity=1\n"
                "[task:reader]\nsched=normal:0\naffinity=0\n"
                "program=rcu_read_lock; compute 10ms; rcu_read_unlock; rcu_read_lock; compute 5ms; rcu_read_unlock; sleep 1s\n"
                "[task:hog]\nsched=fifo:10\naffinity=0\nstart=1ms\nprogram=compute 9500us\n"
                "[task:hog2]\nsched=fifo:10\naffinity=0\nstart=21ms\nprogram=compute 50ms\n"
                "[task:blocker]\nsched=fifo:60\naffinity=1\nstart=15ms\nprogram=compute 25ms\n", "pi-lock", &sc);
        struct task *r = find_task(sim, "reader");

        sim_run_until(sim, MS(19) + US(100));
        ck_assert_int_eq(r->rcu_nesting, 0);
        /* Handed to the booster, which cannot run to release it. */
        ck_assert_str_eq(policy_state(sim, r), "lock-held-by-other boosting");
        sim_run_until(sim, MS(39));
        ck_assert_int_eq(r->rcu_nesting, 1);
        ck_assert_int_eq(r->state, TASK_RUNNABLE);
        ck_assert_str_eq(policy_state(sim, r), "lock-held-by-other boosted acquiring boosting");
        ck_assert_int_eq(r->prio, PRIO_MAX_RT);         /* below hog2: it waits */
        /* At 40 ms the booster releases, the acquire completes, and the
         * booster blocks on the lock at once: 3 ms of section left. */
        sim_run_until(sim, MS(40) + US(100));
        ck_assert_int_eq(r->prio, RT(49));
        sim_run_until(sim, MS(44));
        ck_assert_int_eq(r->rcu_nesting, 0);
        ck_assert_int_eq(r->prio, PRIO_NICE_0);
        ck_assert_int_eq(summary_value(sim, "policy_stats.readers_boosted"), 2);
        ck_assert_int_eq(summary_value(sim, "policy_stats.acquire_contended"), 1);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

#define RT_READER "[scenario]\ncpus=1\nduration=100ms\n" ZERO_COSTS \
        "[task:reader]\nsched=fifo:5\nprogram=rcu_read_lock; compute 10ms; rcu_read_unlock; sleep 1s\n" \
        "[task:hog]\nsched=fifo:10\nstart=1ms\nprogram=compute 80ms\n" \
        "[task:updater]\nsched=fifo:20\nstart=500us\nprogram=call_rcu 4KiB; sleep 1s\n"

START_TEST(rt_readers_are_never_boosted)
{
        /* "Only when it actually boosted": a FIFO 5 reader is already above
         * MAX_USER_RT_PRIO, so the scheduler path neither boosts it nor takes
         * its lock, and the booster has nothing to block on. */
        struct scenario *sc;
        struct sim *sim = sim_from_text(RT_READER, "pi-lock", &sc);
        struct task *r = find_task(sim, "reader");

        sim_run_until(sim, MS(60));
        ck_assert_int_eq(r->rcu_nesting, 1);
        ck_assert_int_eq(r->prio, RT(5));
        ck_assert_str_eq(policy_state(sim, r), "lock-free");
        ck_assert_int_eq(summary_value(sim, "policy_stats.readers_boosted"), 0);
        ck_assert_int_eq(summary_value(sim, "policy_stats.rt_readers_not_boosted"), 1);
        ck_assert_int_eq(sim->rcu.preempt->state, RCU_FLIP_WAITZERO);
        sim_free(sim);
        scenario_free(sc);
        /* booster boosts the same reader (to RT 48, above the hog). */
        sim = sim_from_text(RT_READER, "booster", &sc);
        sim_run_until(sim, MS(60));
        ck_assert_int_eq(find_task(sim, "reader")->rcu_nesting, 0);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(booster_priority_reaches_the_reader_through_pi)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text("[scenario]\ncpus=1\nduration=100ms\n" ZERO_COSTS
                "[task:reader]\nsched=normal:0\nprogram=rcu_read_lock; compute 10ms; rcu_read_unlock; sleep 1s\n"
                "[task:hog]\nsched=fifo:10\nstart=1ms\nprogram=compute 80ms\n"
                "[event:raise]\nat=12ms\npolicy.booster_prio=fifo:70\n", "pi-lock", &sc);
        struct task *r = find_task(sim, "reader");

        sim_run_until(sim, MS(11));
        ck_assert_int_eq(r->prio, RT(49));
        sim_run_until(sim, MS(12));
        ck_assert_int_eq(r->prio, RT(70));
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

static Suite *pilock_suite(void)
{
        Suite *s = suite_create("pi-lock");
        TCase *pi = tcase_create("inheritance");
        TCase *weak = tcase_create("weaknesses");

        tcase_add_test(pi, boost_comes_from_priority_inheritance);
        tcase_add_test(pi, booster_priority_reaches_the_reader_through_pi);
        tcase_add_test(pi, a_reader_moved_off_its_cpu_is_boosted_on_the_way);
        tcase_add_test(weak, readers_are_boosted_one_at_a_time);
        tcase_add_test(weak, handoff_race_leaves_a_reader_unboosted);
        tcase_add_test(weak, rt_readers_are_never_boosted);
        suite_add_tcase(s, pi);
        suite_add_tcase(s, weak);
        return s;
}

int main(void)
{
        return run_suite(pilock_suite());
}
