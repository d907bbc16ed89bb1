/* Grace periods: the flip machine, callback staging, stalls, memory, OOM,
 * and the safety oracle. */
#include "sim/rcu/rcupreempt.h"
#include "testutil.h"

#define HEAD(cpus, dur) "[scenario]\ncpus=" #cpus "\nduration=" dur "\n" ZERO_COSTS

/* Run one tick (1 ms) at a time until @cond or @limit_ms. */
#define RUN_UNTIL(sim, cond, limit_ms) \
        for (int _ms = 1; !(cond) && _ms <= (limit_ms); _ms++) sim_run_until((sim), MS(_ms))

START_TEST(callback_waits_two_flip_cycles)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(2, "1s")
                "[task:u]\nsched=fifo:10\nstart=500us\nprogram=call_rcu 1KiB; sleep 1s\n", "none", &sc);

        sim_run_until(sim, US(600));
        ck_assert_int_eq(sim->rcu.preempt->completed, 0);
        ck_assert_int_eq(sim->rcu.memory_bytes, 1024);
        RUN_UNTIL(sim, sim->rcu.invoked == 1, 100);
        ck_assert_int_eq(sim->rcu.invoked, 1);
        /* Two whole flip cycles (flip, ack, zero, mb) -- one grace period --
         * passed first. */
        ck_assert_int_ge(sim->rcu.flips_completed, 2);
        ck_assert_int_ge(sim->rcu.gp_completed, 1);
        ck_assert_int_ge(sim->rcu.preempt->completed, 3);
        ck_assert_int_ge(sim_now(sim), MS(6));
        ck_assert_int_eq(sim->rcu.memory_bytes, 0);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(grace_period_is_two_consecutive_flips)
{
        /* Callbacks all the time, then an idle spell (no callbacks anywhere)
         * of 300 ms, then callbacks again. */
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(2, "600ms")
                "[task:u]\nsched=fifo:10\nprogram=repeat 100 { call_rcu 1KiB; sleep 1ms }; sleep 300ms; "
                "repeat 100 { call_rcu 1KiB; sleep 1ms }; sleep 1s\n", "none", &sc);

        sim_run(sim);
        ck_assert_int_gt(sim->rcu.flips_completed, 60);
        /* Each grace period spans its two flips and the tick between them ... */
        ck_assert_int_ge(summary_value(sim, "gp_latency.min_ns"), 2 * summary_value(sim, "flip_latency.min_ns"));
        ck_assert_int_ge(summary_value(sim, "gp_latency.p50_ns"), 2 * summary_value(sim, "flip_latency.p50_ns"));
        /* ... but two flips around the idle spell are no grace period anybody
         * waited for: none lasts anywhere near 300 ms. */
        ck_assert_int_lt(summary_value(sim, "gp_latency.max_ns"), MS(20));
        ck_assert_int_lt(sim->rcu.gp_completed, sim->rcu.flips_completed);
        ck_assert_int_ge(sim->rcu.gp_completed, sim->rcu.flips_completed - 4);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(call_rcu_advances_and_acknowledges_first)
{
        /* rcupreempt.c's call_rcu() runs __rcu_advance_callbacks() on its CPU
         * before queueing: a flip not yet seen there is acknowledged and the
         * lists move, without waiting for that CPU's tick. */
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(1, "1s")
                "[task:u]\nsched=fifo:10\nstart=500us\nprogram=call_rcu 1KiB; compute 200us; call_rcu 1KiB; sleep 1s\n",
                "none", &sc);
        struct rcu_cpu *rdp = &sim->rcu.preempt->cpus[0];

        sim_run_until(sim, US(600));
        ck_assert_int_eq(rdp->next.count, 1);
        /* A flip this CPU has not seen yet, as another CPU's tick would make. */
        sim->rcu.preempt->completed++;
        rdp->flip_pending = true;
        sim->rcu.preempt->acks_pending = 1;
        sim_run_until(sim, US(800));
        ck_assert(!rdp->flip_pending);
        ck_assert_int_eq(sim->rcu.preempt->acks_pending, 0);
        ck_assert_int_eq(rdp->completed, sim->rcu.preempt->completed);
        ck_assert_int_eq(rdp->wait[0].count, 1);        /* the first callback moved on */
        ck_assert_int_eq(rdp->next.count, 1);           /* the second waits in next */
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(flip_machine_visits_every_state_in_order)
{
        struct scenario *sc;
        /* One CPU: one tick per millisecond, so one transition per sample. */
        struct sim *sim = sim_from_text(HEAD(1, "1s")
                "[task:u]\nsched=fifo:10\nstart=500us\nprogram=call_rcu 1KiB; sleep 1s\n", "none", &sc);
        enum rcu_flip_state seen[8];
        int n = 0;

        for (int ms = 1; ms <= 5 && n < 8; ms++) {
                sim_run_until(sim, MS(ms));
                if (n == 0 || seen[n - 1] != sim->rcu.preempt->state)
                        seen[n++] = sim->rcu.preempt->state;
        }
        ck_assert_int_ge(n, 5);
        ck_assert_int_eq(seen[0], RCU_FLIP_WAITACK);
        ck_assert_int_eq(seen[1], RCU_FLIP_WAITZERO);
        ck_assert_int_eq(seen[2], RCU_FLIP_WAITMB);
        ck_assert_int_eq(seen[3], RCU_FLIP_IDLE);
        ck_assert_int_eq(seen[4], RCU_FLIP_WAITACK);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

#define STALL(extra) HEAD(1, "200ms") extra \
        "[task:reader]\nsched=normal:0\nprogram=rcu_read_lock; compute 5ms; rcu_read_unlock\n" \
        "[task:hog]\nsched=fifo:10\nstart=1ms\nprogram=compute 20ms\n" \
        "[task:updater]\nsched=fifo:20\nstart=500us\nprogram=call_rcu 4KiB; sleep 1s\n"

START_TEST(preempted_reader_holds_waitzero)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(STALL(""), "none", &sc);
        struct task *reader = find_task(sim, "reader");

        sim_run_until(sim, MS(15));
        ck_assert_int_eq(sim->rcu.preempt->state, RCU_FLIP_WAITZERO);
        ck_assert_int_eq(reader->rcu_nesting, 1);
        ck_assert_int_eq(reader->state, TASK_RUNNABLE);
        ck_assert_int_eq(sim->rcu.invoked, 0);
        /* Preempted by the updater at 0.5 ms, then by the hog at 1 ms. */
        ck_assert_int_eq(sim->rcu.reader_switch_outs, 2);
        /* The hog ends at 21 ms, the reader at 25 ms; then the GPs move on. */
        RUN_UNTIL(sim, sim->rcu.invoked == 1, 60);
        ck_assert_int_eq(sim->rcu.invoked, 1);
        ck_assert_int_ge(sim_now(sim), MS(25));
        ck_assert_int_eq(sim_safety_violations(sim), 0);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(reader_counters_follow_migration)
{
        /* A reader that starts on CPU 0 and unlocks on CPU 1 leaves one
         * counter at +1 and the other at -1; the sum is what matters. */
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(2, "100ms")
                "[task:reader]\nsched=fifo:5\naffinity=0\nprogram=rcu_read_lock; compute 2ms; rcu_read_unlock; sleep 1s\n"
                "[event:move]\nat=1ms\ntask=reader\naffinity=1\n", "none", &sc);

        sim_run_until(sim, MS(4));
        ck_assert_int_eq(find_task(sim, "reader")->cpu, 1);
        ck_assert_int_eq(sim->rcu.preempt->cpus[0].flipctr[0], 1);
        ck_assert_int_eq(sim->rcu.preempt->cpus[1].flipctr[0], -1);
        ck_assert_int_eq(sim->rcu.preempt->flipsum[0], 0);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(memory_counts_registered_not_invoked)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(2, "300ms")
                "[task:u]\nsched=fifo:10\nprogram=repeat 100 { call_rcu 1KiB; compute 10us }; sleep 1s\n",
                "none", &sc);

        sim_run_until(sim, MS(1) + US(1));
        ck_assert_int_eq(sim->rcu.memory_bytes, 100 * 1024);
        ck_assert_int_eq(sim->rcu.outstanding, 100);
        sim_run(sim);
        ck_assert_int_eq(sim->rcu.memory_bytes, 0);
        ck_assert_int_eq(sim->rcu.peak_memory_bytes, 100 * 1024);
        ck_assert_int_eq(sim->rcu.invoked, 100);
        ck_assert(!sim->rcu.oom);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(crossing_the_limit_is_oom_and_stops)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(1, "200ms") "[rcu]\nmemory_limit=64KiB\n"
                "[task:reader]\nsched=normal:0\nprogram=rcu_read_lock; compute 5ms; rcu_read_unlock\n"
                "[task:hog]\nsched=fifo:10\nstart=1ms\nprogram=compute 150ms\n"
                "[task:updater]\nsched=fifo:20\nprogram=loop { call_rcu 4KiB; sleep 1ms }\n", "none", &sc);

        sim_run(sim);
        ck_assert(sim->rcu.oom);
        ck_assert_str_eq(sim->end_reason, "oom");
        ck_assert_int_gt(sim->rcu.oom_bytes, 64 * 1024);
        ck_assert_int_eq(sim->rcu.oom_ns, sim_now(sim));
        ck_assert_int_lt(sim_now(sim), MS(150));
        ck_assert_int_eq(sim_safety_violations(sim), 0);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(oom_without_stop_runs_to_the_end)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(1, "200ms") "[rcu]\nmemory_limit=64KiB\nstop_on_oom=false\n"
                "[task:reader]\nsched=normal:0\nprogram=rcu_read_lock; compute 5ms; rcu_read_unlock\n"
                "[task:hog]\nsched=fifo:10\nstart=1ms\nprogram=compute 150ms\n"
                "[task:updater]\nsched=fifo:20\nprogram=loop { call_rcu 4KiB; sleep 1ms }\n", "none", &sc);

        sim_run(sim);
        ck_assert(sim->rcu.oom);
        ck_assert_str_eq(sim->end_reason, "duration");
        ck_assert_int_eq(sim_now(sim), MS(200));
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(oracle_fires_when_grace_periods_are_broken)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(STALL("[debug]\nbreak_grace_periods=true\n"), "none", &sc);

        sim_run(sim);
        ck_assert_int_ge(sim_safety_violations(sim), 1);
        ck_assert_ptr_nonnull(strstr(sim_violation_details(sim)[0], "reader reader"));
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(oracle_silent_on_a_correct_engine)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(STALL(""), "none", &sc);

        sim_run(sim);
        ck_assert_int_eq(sim->rcu.invoked, 1);
        ck_assert_int_eq(sim_safety_violations(sim), 0);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(synchronize_rcu_waits_for_preexisting_reader)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(2, "100ms")
                "[task:reader]\nsched=fifo:5\naffinity=0\nprogram=rcu_read_lock; compute 30ms; rcu_read_unlock\n"
                "[task:syncer]\nsched=fifo:5\naffinity=1\nstart=1ms\nprogram=synchronize_rcu; compute 1ms\n",
                "none", &sc);
        struct task *syncer = find_task(sim, "syncer");

        sim_run_until(sim, MS(30));
        ck_assert_int_eq(syncer->state, TASK_WAITING);
        sim_run(sim);
        ck_assert_int_eq(syncer->state, TASK_EXITED);
        ck_assert_int_eq(sim->rcu.sync_latency.count, 1);
        ck_assert_int_ge(sim->rcu.sync_latency.min_ns, MS(29));
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(memory_that_would_overflow_stops_the_run)
{
        /* pareto(0.05, 1GiB) draws are capped at 2 EiB; four of them exceed int64 */
        struct scenario *sc;
        struct sim *sim = sim_from_text("[scenario]\ncpus=1\nduration=1s\n[rcu]\nmemory_limit=off\n"
                                        "[task:u]\nprogram=loop { call_rcu pareto(0.05,1GiB); compute 1us }\n",
                                        "none", &sc);
        GError *e = NULL;

        sim_run(sim);
        ck_assert(!sim_finish(sim, &e));
        ck_assert_msg(strstr(e->message, "would exceed 2^63 bytes") != NULL, "%s", e->message);
        ck_assert_int_ge(summary_value(sim, "memory.peak_bytes"), 0);
        g_error_free(e);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

/* Readers leave in any order while others enter, past the list's growth
 * and packing: the oracle must name exactly the oldest active reader.  A
 * callback stamped just before it is safe; one stamped with its stamp (or
 * later) is not. */
START_TEST(oracle_tracks_the_oldest_reader_in_any_exit_order)
{
        enum { N = 300 };
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(1, "1ms") "[task:a]\nprogram=sleep 1ms\n", "none", &sc);
        struct oracle o;
        struct task *t = g_new0(struct task, N);
        gsl_rng *rng = dist_rng_new(5, "oracle");
        int64_t violations = 0;

        oracle_init(&o);
        for (int i = 0; i < N; i++)
                t[i].name = "r";
        for (int step = 0; step < 20000; step++) {
                /* Mostly in, then mostly out, so the list both grows and empties. */
                struct task *x = &t[gsl_rng_uniform_int(rng, N)];
                bool filling = (step / 2000) % 2 == 0;
                struct task *oldest = NULL;

                if (x->rcu_nesting == 0 && (filling || gsl_rng_uniform(rng) < 0.3)) {
                        x->rcu_nesting = 1;
                        oracle_reader_enter(&o, x);
                } else if (x->rcu_nesting == 1) {
                        x->rcu_nesting = 0;
                        oracle_reader_exit(&o, x);
                }
                for (int i = 0; i < N; i++)
                        if (t[i].rcu_nesting && (!oldest || t[i].rcu_read_seq < oldest->rcu_read_seq))
                                oldest = &t[i];
                if (!oldest) {
                        struct rcu_callback cb = { .stamp = oracle_stamp(&o) };

                        ck_assert(oracle_check(&o, sim, &cb));
                        continue;
                }
                struct rcu_callback before = { .stamp = oldest->rcu_read_seq - 1 };
                struct rcu_callback at = { .stamp = oldest->rcu_read_seq };

                ck_assert_msg(oracle_check(&o, sim, &before), "step %d", step);
                ck_assert_msg(!oracle_check(&o, sim, &at), "step %d", step);
                violations++;
        }
        ck_assert_int_eq(o.violations, violations);
        ck_assert_int_gt(violations, 1000);
        oracle_finish(&o);
        gsl_rng_free(rng);
        g_free(t);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

static Suite *rcu_suite(void)
{
        Suite *s = suite_create("rcu");
        TCase *gp = tcase_create("grace-periods");
        TCase *mem = tcase_create("memory");
        TCase *oracle = tcase_create("oracle");

        tcase_add_test(gp, callback_waits_two_flip_cycles);
        tcase_add_test(gp, flip_machine_visits_every_state_in_order);
        tcase_add_test(gp, grace_period_is_two_consecutive_flips);
        tcase_add_test(gp, call_rcu_advances_and_acknowledges_first);
        tcase_add_test(gp, preempted_reader_holds_waitzero);
        tcase_add_test(gp, reader_counters_follow_migration);
        tcase_add_test(gp, synchronize_rcu_waits_for_preexisting_reader);
        tcase_add_test(mem, memory_counts_registered_not_invoked);
        tcase_add_test(mem, crossing_the_limit_is_oom_and_stops);
        tcase_add_test(mem, oom_without_stop_runs_to_the_end);
        tcase_add_test(oracle, oracle_fires_when_grace_periods_are_broken);
        tcase_add_test(oracle, oracle_silent_on_a_correct_engine);
        tcase_add_test(oracle, oracle_tracks_the_oldest_reader_in_any_exit_order);
        tcase_add_test(oracle, memory_that_would_overflow_stops_the_run);
        suite_add_tcase(s, gp);
        suite_add_tcase(s, mem);
        suite_add_tcase(s, oracle);
        return s;
}

int main(void)
{
        return run_suite(rcu_suite());
}
