/* The kernel generation's timer and RT-placement layer (kernel.c,
 * timerwheel.c, sched.c): [scenario] kernel_layer=source against legacy. */
#include "testutil.h"

#define RT(p) (99 - (p))
#define SOURCE "kernel_layer=source\n"
#define LEGACY "kernel_layer=legacy\n"

static struct sim *layer_sim(const char *layer, const char *body, const char *policy, struct scenario **sc)
{
        g_autofree char *text = g_strdup_printf("[scenario]\ncpus=2\nkernel=6.1-rt\n%s%s%s", layer, body,
                                                strstr(body, "[task:") ? "" : "[task:x]\nprogram=compute 1ms\n");

        return sim_from_text(text, policy, sc);
}

/* Run @body under @layer with no policy to its end: summary.json's @key. */
static double layer_run_value(const char *layer, const char *body, const char *key)
{
        struct scenario *sc;
        struct sim *sim = layer_sim(layer, body, "none", &sc);
        double v;

        sim_run(sim);
        v = summary_value(sim, key);
        sim_free(sim);
        scenario_free(sc);
        return v;
}

/* kernel/time/timer.c calc_index(): a timer must not fire early, so its
 * expiry is rounded up by one unit of its level -- schedule_timeout(1) at
 * HZ 250 fires at the second tick, 8 ms away; 63 jiffies or more go to level
 * 1 (8-jiffy buckets), 504 or more to level 2 (64).  2.6.22-rt and the legacy
 * layer fire at the expiry jiffy itself. */
START_TEST(schedule_timeout_rounds_up_by_one_unit_of_its_level)
{
        static const struct {
                int64_t timeout, source_j, legacy_j;
        } cases[] = { { 1, 2, 1 }, { 2, 3, 2 }, { 62, 63, 62 }, { 63, 64, 63 }, { 100, 104, 100 }, { 504, 512, 504 } };
        struct scenario *sc[2];
        struct sim *src = layer_sim(SOURCE "phases=aligned\n", "", "none", &sc[0]);
        struct sim *old = layer_sim(LEGACY, "", "none", &sc[1]);

        for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
                ck_assert_int_eq(timer_wheel_timeout(src, cases[i].timeout), cases[i].source_j * MS(4));
                ck_assert_int_eq(timer_wheel_timeout(old, cases[i].timeout), cases[i].legacy_j * MS(4));
        }
        /* "never" stays never: no overflow into the past (the #49 finding) */
        ck_assert_int_eq(timer_wheel_fires_at_ns(src, INT64_MAX - 1), SIM_TIME_NEVER);
        ck_assert_int_eq(timer_wheel_fires_at_ns(old, INT64_MAX - 1), SIM_TIME_NEVER);
        ck_assert(timer_wheel_timeout(src, INT64_MAX) > 0);
        for (int i = 0; i < 2; i++) {
                sim_free(i ? old : src);
                scenario_free(sc[i]);
        }
}
END_TEST

/* With phases drawn, jiffy 0 begins at the seed's tick phase: a timeout
 * armed at time 0 still fires at the second tick to come. */
START_TEST(the_tick_grid_has_the_seeds_phase)
{
        bool differ = false;
        sim_time_ns first = -1;

        for (int seed = 1; seed <= 4; seed++) {
                struct scenario *sc;
                g_autofree char *body = g_strdup_printf("seed=%d\n", seed);
                struct sim *sim = layer_sim(SOURCE, body, "none", &sc);
                sim_time_ns phase = sim->tick_phase_ns;

                ck_assert(phase >= 0 && phase < MS(4));
                /* now = 0 is in jiffy -1 (jiffy 0 begins at the phase) */
                ck_assert_int_eq(timer_wheel_timeout(sim, 1), phase + MS(4));
                if (first < 0)
                        first = phase;
                differ |= phase != first;
                sim_free(sim);
                scenario_free(sc);
        }
        ck_assert(differ);
}
END_TEST

/* A grace period held by a preempted reader: rcu_preempt scans every
 * jiffies_till_next_fqs (1) -- 8 ms apart at HZ 250 as the kernel's
 * ktimers trace shows (process_timeout every 8.0 ms), 4 ms in the legacy
 * layer.  ktimers/N at FIFO 20, above the hog, so nothing starves the scans. */
START_TEST(fqs_scans_during_a_held_grace_period_come_8ms_apart)
{
        int64_t scans[2];

        for (int i = 0; i < 2; i++) {
                scans[i] = (int64_t)layer_run_value(i ? LEGACY : SOURCE,
                        "duration=500ms\n" ZERO_COSTS "[sched]\ntimer_softirq_thread=fifo:20\nrt_runtime=off\n"
                        "[rcu]\nflavour=tree\nkthread_prio=50\nrcuc_thread=fifo:50\n"
                        "[task:reader]\naffinity=0\nprogram=rcu_read_lock; compute 1s; rcu_read_unlock\n"
                        "[task:hog]\nsched=fifo:10\naffinity=0\nstart=10ms\nprogram=compute 1s\n"
                        "[task:updater]\naffinity=1\nprogram=loop { call_rcu 1KiB; sleep 1ms }\n",
                        "rcu.tree.fqs_scans");
        }
        /* about 490 ms held: 61 scans of 8 ms, 122 of 4 */
        ck_assert_msg(scans[0] >= 55 && scans[0] <= 65, "source: %" G_GINT64_FORMAT " scans", scans[0]);
        ck_assert_msg(scans[1] >= 115 && scans[1] <= 125, "legacy: %" G_GINT64_FORMAT " scans", scans[1]);
}
END_TEST

/* PREEMPT_RT: the hrtimer sleep of a task that is not RT is a soft timer
 * (__hrtimer_init(), __hrtimer_init_sleeper()) and expires in ktimers/N of
 * the CPU it was armed on: under a FIFO 10 hog there, the sleeper is not
 * woken until the hog leaves.  An RT sleeper's timer stays hard. */
START_TEST(a_fair_sleep_waits_for_the_timer_thread_under_a_hog)
{
        for (int i = 0; i < 2; i++) {
                struct scenario *sc;
                struct sim *sim = layer_sim(i ? LEGACY : SOURCE,
                        "duration=1s\n" ZERO_COSTS "[sched]\nrt_runtime=off\n"
                        "[task:hog]\nsched=fifo:10\naffinity=0\nstart=1ms\nprogram=compute 100ms\n"
                        "[task:s]\naffinity=0\nprogram=sleep 5ms; compute 10ms\n"
                        "[task:r]\nsched=fifo:5\naffinity=0\nprogram=sleep 5ms; compute 10ms\n", "none", &sc);
                struct task *s = find_task(sim, "s"), *r = find_task(sim, "r");

                sim_run_until(sim, MS(50));
                /* the soft one still sleeps, its timer waiting for ktimers/0 */
                ck_assert_int_eq(s->state, i ? TASK_RUNNABLE : TASK_SLEEPING);
                /* the RT one woke on time (and waits for the hog, above it) */
                ck_assert_int_eq(r->state, TASK_RUNNABLE);
                /* the hog leaves at 101 ms, r (FIFO 5, above ktimers/0) runs 10 ms */
                sim_run_until(sim, MS(113));
                ck_assert(s->state == TASK_RUNNABLE || s->state == TASK_RUNNING);
                sim_free(sim);
                scenario_free(sc);
        }
}
END_TEST

/* A hog demoted to SCHED_NORMAL joins the fair queue at its min_vruntime
 * (ENQUEUE_RESTORE adds it to the lag it left with: 0 for a task RT from the
 * start) and shares the CPU at once, as the kernel's trace showed (the held
 * grace period ended 4 ms after the demotion).  The legacy layer kept its
 * vruntime of 0 against a fair task half a second ahead: it ran alone. */
START_TEST(a_class_change_rebases_vruntime)
{
        int64_t n_ran[2];

        for (int i = 0; i < 2; i++) {
                struct scenario *sc;
                struct sim *sim;
                g_autofree char *text = g_strdup_printf(
                        "[scenario]\ncpus=1\nkernel=6.1-rt\nduration=1s\n%s" ZERO_COSTS "[sched]\nrt_runtime=off\n"
                        "[task:n]\nprogram=compute 10s\n"
                        "[task:hog]\nsched=fifo:10\nstart=500ms\nprogram=compute 10s\n"
                        "[event:demote]\nat=600ms\ntask=hog\nsched=normal:0\n", i ? LEGACY : SOURCE);
                int64_t before;

                sim = sim_from_text(text, "none", &sc);
                sim_run_until(sim, MS(600));
                before = find_task(sim, "n")->sum_exec_ns;
                sim_run_until(sim, MS(800));
                n_ran[i] = find_task(sim, "n")->sum_exec_ns - before;
                sim_free(sim);
                scenario_free(sc);
        }
        ck_assert_msg(n_ran[0] >= MS(90) && n_ran[0] <= MS(110), "source: %" G_GINT64_FORMAT, n_ran[0]);
        ck_assert_msg(n_ran[1] <= MS(5), "legacy: %" G_GINT64_FORMAT, n_ran[1]);
}
END_TEST

/* A scenario without random draws gives the identical run in every seed
 * with phases aligned; drawn, the seed moves the tick grid and the RT
 * period against the run, so the timing differs between seeds. */
START_TEST(drawn_phases_make_seeds_differ)
{
        for (int drawn = 0; drawn < 2; drawn++) {
                double gp_max[3];

                for (int seed = 1; seed <= 3; seed++) {
                        g_autofree char *body = g_strdup_printf(
                                "seed=%d\nduration=1s\nphases=%s\n[rcu]\nflavour=tree\n"
                                "[task:u]\nprogram=loop { compute 300us; call_rcu 1KiB; sleep 700us }\n",
                                seed, drawn ? "drawn" : "aligned");

                        gp_max[seed - 1] = layer_run_value(SOURCE, body, "gp_latency.mean_ns");
                }
                if (drawn)
                        ck_assert(gp_max[0] != gp_max[1] || gp_max[1] != gp_max[2]);
                else
                        ck_assert(gp_max[0] == gp_max[1] && gp_max[1] == gp_max[2]);
        }
}
END_TEST

START_TEST(bad_layer_keys_are_refused_naming_the_key)
{
        g_autofree char *e1 = scenario_error_of("[scenario]\nkernel_layer=new\n");
        g_autofree char *e2 = scenario_error_of("[scenario]\nphases=random\n");

        ck_assert_ptr_nonnull(e1);
        ck_assert_msg(strstr(e1, "kernel_layer") && strstr(e1, "legacy or source"), "%s", e1);
        ck_assert_ptr_nonnull(e2);
        ck_assert_msg(strstr(e2, "phases") && strstr(e2, "drawn or aligned"), "%s", e2);
}
END_TEST

/* kernel/rcu/tree.c rcu_gp_fqs_loop(): a grace period that begins while a
 * CPU holds more than qovld callbacks (cbovld, from the last scan) sets
 * RCU_GP_FLAG_OVLD, and rcu_gp_fqs_check_wake() ends its first wait at once
 * -- the second too, if the first scan finds it still overloaded.  So an
 * overloaded CPU adds scans to every grace period under source; under legacy
 * only the wait shortens to a third, which at one jiffy changes nothing. */
START_TEST(callback_overload_scans_at_once)
{
        int64_t scans[2][2];

        for (int i = 0; i < 2; i++)
                for (int ovld = 0; ovld < 2; ovld++) {
                        g_autofree char *body = g_strdup_printf(
                                "duration=500ms\n" ZERO_COSTS "[rcu]\nflavour=tree\nkthread_prio=50\nqovld=%s\n"
                                "[task:reader]\naffinity=0\nprogram=loop { rcu_read_lock; compute 100us; "
                                "rcu_read_unlock; sleep 100us }\n"
                                "[task:updater]\naffinity=1\nprogram=loop { call_rcu 1KiB; compute 10us }\n",
                                ovld ? "100" : "1000000");

                        scans[i][ovld] = (int64_t)layer_run_value(i ? LEGACY : SOURCE, body, "rcu.tree.fqs_scans");
                }
        ck_assert_msg(scans[0][1] >= scans[0][0] + 40, "source: %" G_GINT64_FORMAT " scans overloaded, %"
                      G_GINT64_FORMAT " not", scans[0][1], scans[0][0]);
        ck_assert_msg(scans[1][1] == scans[1][0], "legacy: %" G_GINT64_FORMAT " scans overloaded, %"
                      G_GINT64_FORMAT " not", scans[1][1], scans[1][0]);
}
END_TEST

/* kernel/sched/fair.c get_update_sysctl_factor(): 6.1 boots with the fair
 * tunables scaled by 1 + ilog2(min(ncpus, 8)) -- on 2 CPUs a 12 ms latency,
 * so two CPU-bound tasks on one CPU take 6 ms slices (the tick ends each at
 * 8 ms), where the unscaled 6 ms gave 3 ms ones (ended at every 4 ms tick).
 * A value the scenario gives is taken as the one in effect. */
START_TEST(fair_tunables_scale_with_the_cpus)
{
        static const struct {
                const char *layer, *sched;
                int64_t lo, hi;
        } runs[] = {
                { SOURCE, "", 115, 135 },
                { LEGACY, "", 235, 265 },
                { SOURCE, "[sched]\nsched_latency=6ms\nmin_granularity=750us\n", 235, 265 },
        };

        for (size_t i = 0; i < G_N_ELEMENTS(runs); i++) {
                g_autofree char *body = g_strdup_printf("duration=1s\n" ZERO_COSTS "%s"
                        "[task:a]\naffinity=0\nprogram=compute 10s\n[task:b]\naffinity=0\nprogram=compute 10s\n",
                        runs[i].sched);
                int64_t switches = (int64_t)layer_run_value(runs[i].layer, body, "sched.context_switches");

                ck_assert_msg(switches >= runs[i].lo && switches <= runs[i].hi, "run %zu: %" G_GINT64_FORMAT
                              " switches", i, switches);
        }
}
END_TEST

/* pull_rt_task() (kernel/sched/rt.c): a CPU going idle pulls only from an
 * RT-overloaded CPU (rt_overloaded()), and skips a task more urgent than
 * its CPU's current one -- one just woken there, about to run.  CPU 0's
 * task unlocks the mutex w waits on and exits, in one step: w wakes onto
 * CPU 1, its last CPU, and CPU 0 reschedules first.  The legacy layer pulls
 * w to CPU 0; the source layer leaves it to preempt on CPU 1, and what it
 * preempts there is pushed to CPU 0 instead.  @other: CPU 1's task's
 * sched (RT: overloaded, but w is more urgent than it; fair: not
 * overloaded either). */
static void pull_outcome(const char *layer, const char *other, int *w_cpu, int *other_cpu)
{
        g_autofree char *body = g_strdup_printf(
                "duration=30ms\nphases=aligned\n" ZERO_COSTS "[sched]\nrt_runtime=off\n[mutex:m]\n"
                "[task:a]\nsched=fifo:90\naffinity=0\nprogram=lock m; compute 10ms; unlock m\n"
                "[task:other]\nsched=%s\nprogram=compute 50ms\n"
                "[task:w]\nsched=fifo:30\naffinity=1\nstart=1ms\nprogram=lock m; compute 5ms; unlock m\n", other);
        struct scenario *sc;
        struct sim *sim = layer_sim(layer, body, "none", &sc);
        struct task *w = find_task(sim, "w"), *o = find_task(sim, "other");

        sim_run_until(sim, MS(5));
        ck_assert_int_eq(w->state, TASK_BLOCKED);
        ck_assert_int_eq(o->cpu, 1);
        /* free to move now, still waiting where it blocked */
        sched_set_affinity(sim, w, &sim->all_cpus);
        sim_run_until(sim, MS(11));
        ck_assert_int_eq(w->state, TASK_RUNNING);
        ck_assert_int_eq(o->state, TASK_RUNNING);
        *w_cpu = w->cpu;
        *other_cpu = o->cpu;
        sim_free(sim);
        scenario_free(sc);
}

START_TEST(a_pull_skips_a_woken_task_about_to_run)
{
        static const char *const others[] = { "fifo:20", "normal:0" };

        for (size_t i = 0; i < G_N_ELEMENTS(others); i++) {
                int w_cpu, other_cpu;

                pull_outcome(SOURCE, others[i], &w_cpu, &other_cpu);
                ck_assert_msg(w_cpu == 1 && other_cpu == 0, "source, other %s: w on %d, other on %d", others[i],
                              w_cpu, other_cpu);
                pull_outcome(LEGACY, others[i], &w_cpu, &other_cpu);
                ck_assert_msg(w_cpu == 0 && other_cpu == 1, "legacy, other %s: w on %d, other on %d", others[i],
                              w_cpu, other_cpu);
        }
}
END_TEST

/* cpupri's levels (kernel/sched/cpupri.c convert_prio(), rt.c
 * update_rt_queue() -> cpupri_set(rq->rt.highest_prio.curr)): an idle CPU
 * and one running a fair task share CPUPRI_NORMAL, and a CPU is ranked by
 * the most urgent RT task queued there, not only by what runs.  The legacy
 * layer ranks idle below fair, and by the running task alone. */
/* 6.1 find_lowest_rq() on four CPUs (#57): a waking RT task whose last CPU
 * runs a pinned RT hog goes to the lowest level's CPUs round robin, from
 * the waking CPU's cursor (cpumask_any_and_distribute()), not always to the
 * lowest-numbered -- the kernel spreads rcu_preempt so.  Four tasks, each
 * woken by its start timer on CPU 0 after the one before has finished:
 * CPUs 1, 2, 3, then 1 again.  The legacy layer takes CPU 1 each time. */
START_TEST(find_lowest_rq_spreads_wake_ups_round_robin)
{
        for (int source = 0; source < 2; source++) {
                g_autofree char *text = g_strdup_printf(
                        "[scenario]\ncpus=4\nkernel=6.1-rt\n%sduration=10ms\nphases=aligned\n" ZERO_COSTS
                        "[sched]\nrt_runtime=off\n"
                        "[task:hog]\nsched=fifo:90\naffinity=0\nprogram=compute 50ms\n"
                        "[task:a]\nsched=fifo:30\nstart=1ms\nprogram=compute 200us\n"
                        "[task:b]\nsched=fifo:30\nstart=2ms\nprogram=compute 200us\n"
                        "[task:c]\nsched=fifo:30\nstart=3ms\nprogram=compute 200us\n"
                        "[task:d]\nsched=fifo:30\nstart=4ms\nprogram=compute 200us\n",
                        source ? SOURCE : LEGACY);
                static const char *const names[] = { "a", "b", "c", "d" };
                static const int want_source[] = { 1, 2, 3, 1 }, want_legacy[] = { 1, 1, 1, 1 };
                struct scenario *sc;
                struct sim *sim = sim_from_text(text, "none", &sc);

                for (int i = 0; i < 4; i++) {
                        struct task *t = find_task(sim, names[i]);

                        ck_assert_int_eq(t->cpu, 0);    /* where it was created */
                        sim_run_until(sim, MS(i + 1) + US(100));
                        ck_assert_int_eq(t->state, TASK_RUNNING);
                        ck_assert_msg(t->cpu == (source ? want_source : want_legacy)[i], "%s, task %s on CPU %d",
                                      source ? "source" : "legacy", names[i], t->cpu);
                }
                sim_free(sim);
                scenario_free(sc);
        }
}
END_TEST

START_TEST(cpupri_ranks_idle_with_fair_and_counts_queued_rt)
{
        for (int source = 0; source < 2; source++) {
                g_autofree char *text = g_strdup_printf(
                        "[scenario]\ncpus=3\nkernel=6.1-rt\n%sduration=30ms\nphases=aligned\n" ZERO_COSTS
                        "[sched]\nrt_runtime=off\n"
                        "[task:h]\nsched=fifo:90\naffinity=0\nprogram=compute 50ms\n"
                        "[task:f]\nsched=normal:0\naffinity=1\nprogram=compute 50ms\n"
                        "[task:w]\nsched=fifo:30\naffinity=1\nstart=1ms\nprogram=sleep 5ms; compute 1ms\n",
                        source ? SOURCE : LEGACY);
                struct scenario *sc;
                struct sim *sim = sim_from_text(text, "none", &sc);
                struct task *w = find_task(sim, "w");
                int fair_rank, idle_rank, queued_rank;

                sim_run_until(sim, MS(2));
                ck_assert_int_eq(w->state, TASK_SLEEPING);
                ck_assert_ptr_null(sim->cpus[2].curr);
                fair_rank = sched_cpupri_rank(sim, 1);
                idle_rank = sched_cpupri_rank(sim, 2);
                /* woken, queued behind f's reschedule: not yet running */
                sched_wake(sim, w);
                queued_rank = sched_cpupri_rank(sim, 1);
                ck_assert_int_eq(w->state, TASK_RUNNABLE);
                sched_flush(sim);
                ck_assert_int_eq(w->state, TASK_RUNNING);
                if (source) {
                        ck_assert_int_eq(fair_rank, idle_rank);
                        ck_assert_int_eq(queued_rank, RT(30));
                } else {
                        ck_assert_int_lt(fair_rank, idle_rank);
                        ck_assert_int_eq(queued_rank, fair_rank);
                }
                sim_free(sim);
                scenario_free(sc);
        }
}
END_TEST

int main(void)
{
        Suite *s = suite_create("kernel");
        TCase *tc = tcase_create("layer");

        tcase_set_timeout(tc, 120);
        tcase_add_test(tc, schedule_timeout_rounds_up_by_one_unit_of_its_level);
        tcase_add_test(tc, the_tick_grid_has_the_seeds_phase);
        tcase_add_test(tc, fqs_scans_during_a_held_grace_period_come_8ms_apart);
        tcase_add_test(tc, a_fair_sleep_waits_for_the_timer_thread_under_a_hog);
        tcase_add_test(tc, a_class_change_rebases_vruntime);
        tcase_add_test(tc, drawn_phases_make_seeds_differ);
        tcase_add_test(tc, callback_overload_scans_at_once);
        tcase_add_test(tc, fair_tunables_scale_with_the_cpus);
        tcase_add_test(tc, a_pull_skips_a_woken_task_about_to_run);
        tcase_add_test(tc, cpupri_ranks_idle_with_fair_and_counts_queued_rt);
        tcase_add_test(tc, find_lowest_rq_spreads_wake_ups_round_robin);
        tcase_add_test(tc, bad_layer_keys_are_refused_naming_the_key);
        suite_add_tcase(s, tc);
        return run_suite(s);
}
