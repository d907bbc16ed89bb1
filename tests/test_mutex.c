/* Priority-inheriting mutexes: inheritance, chains, release, deadlock. */
#include "testutil.h"

#define HEAD "[scenario]\ncpus=1\nduration=100ms\n" ZERO_COSTS "[mutex:m1]\n[mutex:m2]\n"

START_TEST(owner_inherits_waiter_priority)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD
                "[task:low]\nsched=normal:0\nprogram=lock m1; compute 5ms; unlock m1; compute 20ms\n"
                "[task:mid]\nsched=fifo:20\nstart=1ms\nprogram=compute 10ms\n"
                "[task:high]\nsched=fifo:30\nstart=2ms\nprogram=lock m1; compute 1ms; unlock m1\n",
                "none", &sc);
        struct task *low = find_task(sim, "low"), *high = find_task(sim, "high");

        sim_run_until(sim, US(1500));
        ck_assert_int_eq(low->state, TASK_RUNNABLE);    /* preempted by mid */
        sim_run_until(sim, US(2500));
        /* high blocked on m1: low runs at high's priority, ahead of mid. */
        ck_assert_int_eq(high->state, TASK_BLOCKED);
        ck_assert_int_eq(low->prio, 99 - 30);
        ck_assert_ptr_eq(sim->cpus[0].curr, low);
        /* low had 4 ms left under m1: it releases at 6 ms and drops back. */
        sim_run_until(sim, MS(6));
        ck_assert_int_eq(low->prio, PRIO_NICE_0);
        ck_assert_ptr_eq(sim->mutexes[0].owner == high ? high : NULL, high);
        sim_run_until(sim, MS(7));
        ck_assert_int_eq(high->state, TASK_EXITED);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(inheritance_follows_chains)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD
                "[task:low]\nsched=normal:0\nprogram=lock m1; compute 10ms; unlock m1\n"
                "[task:mid]\nsched=fifo:10\nstart=1ms\nprogram=lock m2; lock m1; compute 1ms; unlock m1; unlock m2\n"
                "[task:hog]\nsched=fifo:20\nstart=1500us\nprogram=compute 50ms\n"
                "[task:high]\nsched=fifo:30\nstart=2ms\nprogram=lock m2; compute 1ms; unlock m2\n",
                "none", &sc);
        struct task *low = find_task(sim, "low"), *mid = find_task(sim, "mid");

        sim_run_until(sim, US(1700));
        /* mid waits on m1: low runs at fifo:10, but the hog outranks both. */
        ck_assert_int_eq(low->prio, 99 - 10);
        ck_assert_ptr_eq(sim->cpus[0].curr, find_task(sim, "hog"));
        sim_run_until(sim, US(2500));
        /* high waits on m2 held by mid, which waits on m1 held by low. */
        ck_assert_int_eq(mid->prio, 99 - 30);
        ck_assert_int_eq(low->prio, 99 - 30);
        ck_assert_ptr_eq(sim->cpus[0].curr, low);
        /* low releases m1 at 10.5 ms and falls back behind the hog; mid
         * (still lent high's priority) and then high finish. */
        sim_run_until(sim, MS(15));
        ck_assert_ptr_eq(sim->mutexes[0].owner, NULL);
        ck_assert_int_eq(low->prio, PRIO_NICE_0);
        ck_assert_int_eq(low->state, TASK_RUNNABLE);
        ck_assert_int_eq(find_task(sim, "high")->state, TASK_EXITED);
        ck_assert_int_eq(mid->prio, 99 - 10);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(waiters_are_served_by_priority)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD
                "[task:owner]\nsched=fifo:50\nprogram=lock m1; sleep 5ms; unlock m1\n"
                "[task:w10]\nsched=fifo:10\nstart=1ms\nprogram=lock m1; compute 1ms; unlock m1\n"
                "[task:w20]\nsched=fifo:20\nstart=2ms\nprogram=lock m1; compute 1ms; unlock m1\n",
                "none", &sc);

        sim_run_until(sim, MS(5));
        ck_assert_ptr_eq(sim->mutexes[0].owner, find_task(sim, "w20"));
        ck_assert_int_eq(find_task(sim, "w10")->state, TASK_BLOCKED);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(deadlock_stops_the_run_with_an_error)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text("[scenario]\ncpus=2\nduration=100ms\n[mutex:a]\n[mutex:b]\n"
                "[task:t1]\nprogram=lock a; compute 1ms; lock b; unlock b; unlock a\n"
                "[task:t2]\nprogram=lock b; compute 1ms; lock a; unlock a; unlock b\n", "none", &sc);
        GError *e = NULL;

        sim_run(sim);
        ck_assert(!sim_finish(sim, &e));
        ck_assert_ptr_nonnull(strstr(e->message, "deadlock"));
        ck_assert_str_eq(sim->end_reason, "error");
        g_error_free(e);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

static Suite *mutex_suite(void)
{
        Suite *s = suite_create("mutex");
        TCase *pi = tcase_create("inheritance");
        TCase *err = tcase_create("errors");

        tcase_add_test(pi, owner_inherits_waiter_priority);
        tcase_add_test(pi, inheritance_follows_chains);
        tcase_add_test(pi, waiters_are_served_by_priority);
        tcase_add_test(err, deadlock_stops_the_run_with_an_error);
        suite_add_tcase(s, pi);
        suite_add_tcase(s, err);
        return s;
}

int main(void)
{
        return run_suite(mutex_suite());
}
