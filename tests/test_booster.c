/* Policy booster (approach 1): IDLE/BLOCKED/BOOSTED, aged lists, the
 * booster's timing, unboost at unlock, following the booster's priority. */
#include "testutil.h"

#define RT(p) (99 - (p))

/* One CPU; the reader is preempted 1 ms into a 10 ms critical section. */
#define ONE_READER(extra) "[scenario]\ncpus=1\nduration=200ms\n" ZERO_COSTS extra \
        "[task:reader]\nsched=normal:0\nprogram=rcu_read_lock; compute 10ms; rcu_read_unlock; sleep 1s\n" \
        "[task:hog]\nsched=fifo:10\nstart=1ms\nprogram=compute 150ms\n"

START_TEST(reader_is_queued_aged_boosted_and_unboosted)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(ONE_READER(""), "booster", &sc);
        struct task *r = find_task(sim, "reader");

        sim_run_until(sim, US(1500));
        /* Switched out at 1 ms: joins element [cpu0][idx]; the booster has
         * advanced idx once (to 1) at t = 0. */
        ck_assert_str_eq(policy_state(sim, r), "BLOCKED toboost cpu0 elem1");
        ck_assert_int_eq(r->prio, PRIO_NICE_0);
        /* idx 2 at 10 ms, 3 at 20 ms, 0 at 30 ms: then element 1 is the
         * oldest; spliced at 30 ms, boosted one tick later. */
        sim_run_until(sim, MS(30) + US(500));
        ck_assert_str_eq(policy_state(sim, r), "BLOCKED booster");
        ck_assert_int_eq(r->prio, PRIO_NICE_0);
        /* (The booster's own lock and list costs shift it by nanoseconds.) */
        sim_run_until(sim, MS(31) + US(10));
        ck_assert_str_eq(policy_state(sim, r), "BOOSTED boosted cpu0 elem1");
        ck_assert_int_eq(r->prio, RT(48));             /* one below the RR 49 booster */
        ck_assert_int_eq(r->boost_prio, RT(48));
        ck_assert_ptr_eq(sim->cpus[0].curr, r);         /* ahead of the FIFO 10 hog */
        /* 9 ms of critical section left: unlock at 40 ms drops the boost. */
        sim_run_until(sim, MS(40) + US(20));
        ck_assert_str_eq(policy_state(sim, r), "IDLE none");
        ck_assert_int_eq(r->prio, PRIO_NICE_0);
        ck_assert_int_eq(r->rcu_nesting, 0);
        ck_assert_int_eq(summary_value(sim, "policy_stats.readers_blocked"), 1);
        ck_assert_int_eq(summary_value(sim, "policy_stats.readers_boosted"), 1);
        ck_assert_int_eq(summary_value(sim, "policy_stats.readers_unboosted"), 1);
        ck_assert_int_ge(summary_value(sim, "policy_stats.boost_delay.max_ns"), MS(30));
        ck_assert_int_le(summary_value(sim, "policy_stats.boost_delay.max_ns"), MS(30) + US(10));
        ck_assert_int_ge(summary_value(sim, "policy_stats.boosted_time.max_ns"), MS(9));
        ck_assert_int_le(summary_value(sim, "policy_stats.boosted_time.max_ns"), MS(9) + US(10));
        ck_assert_int_eq(summary_value(sim, "policy_stats.boosted_outside_cs_ns"), 0);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(unlock_before_boost_leaves_the_list)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text("[scenario]\ncpus=1\nduration=100ms\n" ZERO_COSTS
                "[task:reader]\nsched=normal:0\nprogram=rcu_read_lock; compute 3ms; rcu_read_unlock; sleep 1s\n"
                "[task:blip]\nsched=fifo:10\nstart=1ms\nprogram=compute 1ms\n", "booster", &sc);
        struct task *r = find_task(sim, "reader");

        sim_run_until(sim, US(1500));
        ck_assert_str_eq(policy_state(sim, r), "BLOCKED toboost cpu0 elem1");
        sim_run_until(sim, MS(5));
        ck_assert_str_eq(policy_state(sim, r), "IDLE none");
        ck_assert_int_eq(summary_value(sim, "policy_stats.readers_boosted"), 0);
        ck_assert_int_eq(summary_value(sim, "policy_stats.lock_acquisitions") >= 2, 1);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(second_switch_out_in_a_section_does_nothing)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text("[scenario]\ncpus=1\nduration=100ms\n" ZERO_COSTS
                "[task:reader]\nsched=normal:0\nprogram=rcu_read_lock; compute 5ms; rcu_read_unlock; sleep 1s\n"
                "[task:blip]\nsched=fifo:10\nstart=1ms\nprogram=compute 100us; sleep 1ms; compute 100us\n",
                "booster", &sc);
        struct task *r = find_task(sim, "reader");

        sim_run(sim);
        ck_assert_int_eq(summary_value(sim, "policy_stats.readers_blocked"), 1);
        ck_assert_int_eq(summary_value(sim, "policy_stats.switch_outs_again"), 1);
        /* ... but the element's lock, which rcu_preempt_boost() takes on every
         * schedule() with nesting > 0: lock + list_op, then lock again. */
        ck_assert_int_eq(summary_value(sim, "policy_stats.scheduler_path_ns"), 60 + 10 + 60);
        ck_assert_str_eq(policy_state(sim, r), "IDLE none");
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(boosted_readers_follow_the_booster_when_their_element_comes_round)
{
        /* A 100 ms critical section: boosted at 31 ms from element 1, which
         * the booster takes again four passes later, at 71 ms and 112 ms
         * (each pass sleeps 10 jiffies from the tick after it ends), boosting
         * one tick after ("reboosting may be required"); a change of the
         * booster's priority reaches the reader only then.  (Two CPUs, so
         * the lowered booster still runs beside the boosted reader; timeouts
         * expire at the tick, so that the reader boosted above sirq-timer/0
         * does not hold up the booster's wake-ups.) */
        struct scenario *sc;
        struct sim *sim = sim_from_text("[scenario]\ncpus=2\nduration=300ms\n[sched]\nsoftirq_threads=false\n" ZERO_COSTS
                "[task:reader]\nsched=normal:0\naffinity=0\nprogram=rcu_read_lock; compute 100ms; rcu_read_unlock; sleep 1s\n"
                "[task:hog]\nsched=fifo:10\naffinity=0\nstart=1ms\nprogram=compute 250ms\n"
                "[event:raise]\nat=35ms\ntask=rcu_booster\nsched=rr:60\n"
                "[event:lower]\nat=75ms\npolicy.booster_prio=fifo:30\n", "booster", &sc);
        struct task *r = find_task(sim, "reader");

        sim_run_until(sim, MS(32));
        ck_assert_int_eq(r->prio, RT(48));
        sim_run_until(sim, MS(71) + US(500));
        ck_assert_int_eq(find_task(sim, "rcu_booster")->prio, RT(60));
        ck_assert_int_eq(r->prio, RT(48));              /* not yet */
        sim_run_until(sim, MS(72) + US(500));
        ck_assert_int_eq(r->prio, RT(59));
        sim_run_until(sim, MS(112) + US(500));
        ck_assert_int_eq(find_task(sim, "rcu_booster")->prio, RT(30));
        ck_assert_int_eq(r->prio, RT(59));
        sim_run_until(sim, MS(113) + US(500));
        ck_assert_int_eq(r->prio, RT(29));
        ck_assert_int_eq(r->rcu_nesting, 1);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

/* One CPU, a FIFO 60 hog from 1 ms; the booster at RR 70 outranks it. */
#define ABOVE_THE_HOG(extra) "[scenario]\ncpus=1\nduration=200ms\n" ZERO_COSTS extra \
        "[policy]\nbooster_prio=rr:70\n" \
        "[task:reader]\nsched=normal:0\nprogram=rcu_read_lock; compute 10ms; rcu_read_unlock; sleep 1s\n" \
        "[task:hog]\nsched=fifo:60\nstart=1ms\nprogram=compute 150ms\n"

START_TEST(a_hog_above_sirq_timer_starves_the_boosters_wakeups)
{
        /* The booster sleeps with schedule_timeout(): its timeout expires in
         * sirq-timer/0 at FIFO 50, which the hog starves, so the booster --
         * though it outranks the hog -- never wakes while the hog runs. */
        struct scenario *sc;
        struct sim *sim = sim_from_text(ABOVE_THE_HOG(""), "booster", &sc);
        struct task *r = find_task(sim, "reader"), *b = find_task(sim, "rcu_booster");
        struct task *sirq = find_task(sim, "sirq-timer/0");

        sim_run_until(sim, MS(100));
        ck_assert_int_eq(b->state, TASK_SLEEPING);      /* its 10 ms timeout expired at 10 ms */
        ck_assert_int_eq(sirq->state, TASK_RUNNABLE);
        ck_assert_int_eq(r->prio, PRIO_NICE_0);
        /* The hog ends at 151 ms: sirq-timer/0 runs, then the booster. */
        sim_run_until(sim, MS(151) + US(10));
        ck_assert_int_eq(sirq->state, TASK_WAITING);
        ck_assert_int_eq(b->state, TASK_SLEEPING);      /* till 161 ms */
        /* Passes at 0, 151, 161, 171, 181 and 191 ms (20 without the hog);
         * the reader left its section at 160 ms, never boosted. */
        sim_run(sim);
        ck_assert_int_eq(summary_value(sim, "policy_stats.booster_passes"), 6);
        ck_assert_int_eq(summary_value(sim, "policy_stats.readers_boosted"), 0);
        sim_free(sim);
        scenario_free(sc);

        /* sirq-timer above the hog, or timeouts expiring at the tick: the
         * reader is boosted one tick after its element's turn, at 31 ms. */
        static const char *const fixes[] = { "[sched]\ntimer_softirq_thread=fifo:80\n",
                                             "[sched]\nsoftirq_threads=false\n" };
        for (int i = 0; i < 2; i++) {
                g_autofree char *text = g_strdup_printf(ABOVE_THE_HOG("%s"), fixes[i]);

                sim = sim_from_text(text, "booster", &sc);
                r = find_task(sim, "reader");
                sim_run_until(sim, MS(31) + US(10));
                ck_assert_int_eq(r->prio, RT(69));
                ck_assert_ptr_eq(sim->cpus[0].curr, r);
                ck_assert_int_eq(sim->softirq != NULL, i == 0);      /* no sirq-timer threads without */
                sim_free(sim);
                scenario_free(sc);
        }
}
END_TEST

START_TEST(a_reader_moved_by_the_load_balancer_stays_on_its_cpus_element)
{
        /* Preempted at 1 ms on CPU 0 by a FIFO 60 hog, the reader is queued on
         * CPU 0's element; the load balancer moves it to CPU 1 (busy with a
         * fair task, so no idle pull) once the hog's RT time has taken CPU 0's
         * capacity, long before a 200 ms booster_period lets the booster look.
         * On CPU 1 it still belongs to CPU 0's element, as in both patches,
         * and its unlock there takes it off that element. */
        static const char *const policies[] = { "booster", "booster-8state" };

        for (int i = 0; i < 2; i++) {
                struct scenario *sc;
                struct sim *sim = sim_from_text("[scenario]\ncpus=2\nduration=400ms\n" ZERO_COSTS
                        "[policy]\nbooster_period=200ms\n"
                        "[task:reader]\nsched=normal:0\nprogram=rcu_read_lock; compute 10ms; rcu_read_unlock; sleep 1s\n"
                        "[task:other]\nsched=normal:0\naffinity=1\nprogram=loop { compute 1ms }\n"
                        "[task:hog]\nsched=fifo:60\naffinity=0\nstart=1ms\nprogram=compute 300ms\n",
                        policies[i], &sc);
                struct task *r = find_task(sim, "reader");
                sim_time_ns moved_at = 0;

                sim_run_until(sim, US(1500));
                ck_assert_int_eq(r->cpu, 0);
                ck_assert_ptr_nonnull(strstr(policy_state(sim, r), "cpu0"));
                for (sim_time_ns t = MS(2); t < MS(150) && !moved_at; t += MS(1)) {
                        sim_run_until(sim, t);
                        if (r->cpu == 1)
                                moved_at = t;
                }
                ck_assert_msg(moved_at > 0, "%s: the reader never left CPU 0", policies[i]);
                ck_assert_int_eq(r->rcu_nesting, 1);
                ck_assert_msg(strstr(policy_state(sim, r), "cpu0"), "%s: %s", policies[i], policy_state(sim, r));
                /* 9 ms of section left, shared with `other`: out within 30 ms */
                sim_run_until(sim, moved_at + MS(30));
                ck_assert_int_eq(r->rcu_nesting, 0);
                ck_assert_str_eq(policy_state(sim, r), "IDLE none");
                sim_run(sim);
                ck_assert_int_eq(summary_value(sim, "policy_stats.readers_boosted"), 0);
                ck_assert_int_eq(summary_value(sim, "safety_violations"), 0);
                sim_free(sim);
                scenario_free(sc);
        }
}
END_TEST

START_TEST(non_rt_booster_boosts_to_the_least_urgent_rt_level)
{
        /* rt_mutex_getprio(booster) + 1 capped at MAX_USER_RT_PRIO - 1: a
         * nice-0 booster (on the other CPU) lifts the reader just above every
         * fair task, still below the FIFO 10 hog. */
        struct scenario *sc;
        struct sim *sim = sim_from_text("[scenario]\ncpus=2\nduration=200ms\n" ZERO_COSTS
                "[policy]\nbooster_prio=normal:0\n"
                "[task:reader]\nsched=normal:0\naffinity=0\nprogram=rcu_read_lock; compute 10ms; rcu_read_unlock; sleep 1s\n"
                "[task:hog]\nsched=fifo:10\naffinity=0\nstart=1ms\nprogram=compute 100ms\n", "booster", &sc);
        struct task *r = find_task(sim, "reader");

        sim_run_until(sim, MS(32));
        ck_assert_str_eq(policy_state(sim, r), "BOOSTED boosted cpu0 elem1");
        ck_assert_int_eq(r->prio, PRIO_MAX_RT - 1);
        ck_assert_ptr_eq(sim->cpus[0].curr, find_task(sim, "hog"));
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

/* Both January 2007 patches boost with a bare rt_mutex_setprio(): a reader
 * boosted while blocked on a mutex does not pass the boost to the owner
 * (no rt_mutex_adjust_pi()); adjust_pi=true walks the chain. */
static const struct {
        const char *policy;
        int boosted;            /* the reader's boosted priority */
} aging_policies[] = {
        { "booster", RT(48) },
        { "booster-8state", RT(49) },
};

/* The reader blocks on m inside its critical section; the owner, a nice task
 * inheriting RT 5 from it, is preempted by a FIFO 10 hog. */
static struct sim *owner_behind_hog(const char *policy, const char *extra, struct scenario **sc)
{
        g_autofree char *text = g_strdup_printf("[scenario]\ncpus=1\nduration=200ms\n" ZERO_COSTS "%s[mutex:m]\n"
                "[task:owner]\nsched=normal:0\nprogram=lock m; compute 3ms; unlock m; sleep 1s\n"
                "[task:reader]\nsched=fifo:5\nstart=500us\nprogram=rcu_read_lock; lock m; compute 1ms; unlock m; rcu_read_unlock; sleep 1s\n"
                "[task:hog]\nsched=fifo:10\nstart=1ms\nprogram=compute 150ms\n", extra);

        return sim_from_text(text, policy, sc);
}

START_TEST(boost_of_a_reader_blocked_on_a_mutex_stays_with_the_reader)
{
        struct scenario *sc;
        struct sim *sim = owner_behind_hog(aging_policies[_i].policy, "", &sc);
        struct task *r = find_task(sim, "reader"), *owner = find_task(sim, "owner");

        sim_run_until(sim, MS(2));
        ck_assert_int_eq(r->state, TASK_BLOCKED);
        ck_assert_int_eq(owner->prio, RT(5));           /* inherited from the reader */
        sim_run_until(sim, MS(31) + US(10));
        ck_assert_int_eq(r->prio, aging_policies[_i].boosted);
        ck_assert_int_eq(r->waiter_prio, RT(5));        /* queued as it blocked */
        ck_assert_int_eq(owner->prio, RT(5));           /* setprio: nothing travels */
        ck_assert_ptr_eq(sim->cpus[0].curr, find_task(sim, "hog"));
        /* The owner runs only when the hog is done, at 151 ms. */
        sim_run_until(sim, MS(150));
        ck_assert_int_eq(r->rcu_nesting, 1);
        sim_run_until(sim, MS(156));
        ck_assert_int_eq(r->rcu_nesting, 0);
        ck_assert_int_eq(r->prio, RT(5));
        ck_assert_int_eq(summary_value(sim, "policy_stats.blocked_on_mutex"), 1);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(adjust_pi_passes_the_boost_to_the_owner)
{
        struct scenario *sc;
        struct sim *sim = owner_behind_hog(aging_policies[_i].policy, "[policy]\nadjust_pi=true\n", &sc);
        struct task *r = find_task(sim, "reader"), *owner = find_task(sim, "owner");

        sim_run_until(sim, MS(31) + US(10));
        ck_assert_int_eq(r->prio, aging_policies[_i].boosted);
        ck_assert_int_eq(owner->prio, aging_policies[_i].boosted);     /* inherited through m */
        ck_assert_int_eq(owner->boost_prio, PRIO_NONE);
        sim_run_until(sim, MS(40));
        ck_assert_int_eq(r->rcu_nesting, 0);
        ck_assert_int_eq(r->prio, RT(5));
        ck_assert_int_eq(owner->prio, PRIO_NICE_0);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(keeps_memory_bounded_where_none_runs_out)
{
        const char *text = "[scenario]\ncpus=2\nduration=3s\n[rcu]\nmemory_limit=32MiB\n"
                "[task:updater]\nsched=fifo:20\naffinity=1\nprogram=loop { compute exp(20us); call_rcu 4KiB; sleep exp(20us) }\n"
                "[task:reader]\nsched=normal:19\naffinity=0\nprogram=loop { rcu_read_lock; compute exp(300us); rcu_read_unlock; sleep exp(50us) }\n"
                "[task:hog]\nsched=fifo:10\naffinity=0\nstart=500ms\nprogram=compute 2s\n";
        struct scenario *sc;
        struct sim *sim = sim_from_text(text, "none", &sc);

        sim_run(sim);
        ck_assert(sim->rcu.oom);
        sim_free(sim);
        scenario_free(sc);
        sim = sim_from_text(text, "booster", &sc);
        sim_run(sim);
        ck_assert(!sim->rcu.oom);
        ck_assert_int_lt(sim->rcu.peak_memory_bytes, 8 << 20);
        ck_assert_int_le(sim->rcu.gp_latency.max_ns, MS(35));
        ck_assert_int_eq(sim_safety_violations(sim), 0);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

static Suite *booster_suite(void)
{
        Suite *s = suite_create("booster");
        TCase *states = tcase_create("states");
        TCase *prio = tcase_create("priorities");
        TCase *outcome = tcase_create("outcome");

        tcase_add_test(states, reader_is_queued_aged_boosted_and_unboosted);
        tcase_add_test(states, unlock_before_boost_leaves_the_list);
        tcase_add_test(states, second_switch_out_in_a_section_does_nothing);
        tcase_add_test(prio, boosted_readers_follow_the_booster_when_their_element_comes_round);
        tcase_add_test(prio, non_rt_booster_boosts_to_the_least_urgent_rt_level);
        tcase_add_test(prio, a_hog_above_sirq_timer_starves_the_boosters_wakeups);
        tcase_add_test(states, a_reader_moved_by_the_load_balancer_stays_on_its_cpus_element);
        tcase_add_loop_test(prio, boost_of_a_reader_blocked_on_a_mutex_stays_with_the_reader, 0,
                            G_N_ELEMENTS(aging_policies));
        tcase_add_loop_test(prio, adjust_pi_passes_the_boost_to_the_owner, 0, G_N_ELEMENTS(aging_policies));
        tcase_add_test(outcome, keeps_memory_bounded_where_none_runs_out);
        suite_add_tcase(s, states);
        suite_add_tcase(s, prio);
        suite_add_tcase(s, outcome);
        return s;
}

int main(void)
{
        return run_suite(booster_suite());
}
