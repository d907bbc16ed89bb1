/* Scheduler: preemption, RR slices, FIFO, affinity, global placement,
 * RT throttling, fair sharing by nice weight. */
#include "sim/sched/cpupri.h"
#include "testutil.h"

#define HEAD(cpus, dur) "[scenario]\ncpus=" #cpus "\nduration=" dur "\n" ZERO_COSTS

START_TEST(wakeup_preempts_at_once)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(1, "50ms")
                "[task:low]\nsched=normal:0\nprogram=compute 10ms\n"
                "[task:high]\nsched=fifo:50\nstart=2ms\nprogram=compute 1ms\n", "none", &sc);
        struct task *low = find_task(sim, "low"), *high = find_task(sim, "high");

        sim_run_until(sim, MS(2));
        ck_assert_ptr_eq(sim->cpus[0].curr, high);
        ck_assert_int_eq(low->state, TASK_RUNNABLE);
        sim_run_until(sim, MS(3) + 1);
        ck_assert_int_eq(high->state, TASK_EXITED);
        ck_assert_ptr_eq(sim->cpus[0].curr, low);
        /* low lost exactly high's millisecond. */
        sim_run_until(sim, MS(11) - 1);
        ck_assert_int_eq(low->state, TASK_RUNNING);
        sim_run_until(sim, MS(11));
        ck_assert_int_eq(low->state, TASK_EXITED);
        ck_assert_int_eq(low->sum_exec_ns, MS(10));
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(rr_tasks_share_by_time_slice)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(1, "1s") "[sched]\nrr_timeslice=100ms\n"
                "[task:a]\nsched=rr:10\nprogram=compute 300ms\n"
                "[task:b]\nsched=rr:10\nprogram=compute 300ms\n", "none", &sc);
        struct task *a = find_task(sim, "a"), *b = find_task(sim, "b");

        sim_run_until(sim, MS(150));
        ck_assert_ptr_eq(sim->cpus[0].curr, b);
        ck_assert_int_eq(a->sum_exec_ns, MS(100));
        sim_run_until(sim, MS(250));
        ck_assert_ptr_eq(sim->cpus[0].curr, a);
        sim_run_until(sim, MS(600));
        ck_assert_int_eq(a->state, TASK_EXITED);
        ck_assert_int_eq(b->state, TASK_EXITED);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(fifo_tasks_run_to_completion)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(1, "1s") "[sched]\nrr_timeslice=10ms\n"
                "[task:a]\nsched=fifo:10\nprogram=compute 300ms\n"
                "[task:b]\nsched=fifo:10\nprogram=compute 300ms\n", "none", &sc);
        struct task *a = find_task(sim, "a"), *b = find_task(sim, "b");

        sim_run_until(sim, MS(299));
        ck_assert_ptr_eq(sim->cpus[0].curr, a);
        ck_assert_int_eq(b->sum_exec_ns, 0);
        sim_run_until(sim, MS(301));
        ck_assert_ptr_eq(sim->cpus[0].curr, b);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(affinity_is_respected_even_with_idle_cpus)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(4, "1s")
                "[task:pinned]\nsched=fifo:10\naffinity=2\nprogram=loop { compute 3ms; sleep 1ms }\n"
                "[task:hog]\nsched=fifo:20\naffinity=2\nstart=10ms\nprogram=compute 20ms\n", "none", &sc);
        struct task *pinned = find_task(sim, "pinned");

        for (int ms = 1; ms < 50; ms++) {
                sim_run_until(sim, MS(ms) + US(500));
                ck_assert_int_eq(pinned->cpu, 2);
                for (int c = 0; c < 4; c++)
                        if (c != 2)
                                ck_assert_ptr_null(sim->cpus[c].curr);
                /* While the hog runs, the pinned task waits although CPUs 0, 1, 3 idle. */
                if (ms >= 15 && ms < 30)
                        ck_assert_int_eq(pinned->state, TASK_RUNNABLE);
        }
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

/* The most urgent runnable tasks run, wherever they woke. */
START_TEST(most_urgent_tasks_run_across_cpus)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(2, "1s")
                "[task:p10]\nsched=fifo:10\nprogram=compute 100ms\n"
                "[task:p20]\nsched=fifo:20\nstart=1ms\nprogram=compute 100ms\n"
                "[task:p30]\nsched=fifo:30\nstart=2ms\nprogram=compute 20ms\n"
                "[task:n]\nsched=normal:0\nprogram=compute 100ms\n", "none", &sc);
        struct task *p10 = find_task(sim, "p10"), *p20 = find_task(sim, "p20");
        struct task *p30 = find_task(sim, "p30"), *n = find_task(sim, "n");

        sim_run_until(sim, US(500));
        ck_assert(p10->state == TASK_RUNNING && n->state == TASK_RUNNING);
        sim_run_until(sim, US(1500));
        ck_assert(p10->state == TASK_RUNNING && p20->state == TASK_RUNNING);
        ck_assert_int_eq(n->state, TASK_RUNNABLE);
        sim_run_until(sim, US(2500));
        ck_assert(p20->state == TASK_RUNNING && p30->state == TASK_RUNNING);
        ck_assert_int_eq(p10->state, TASK_RUNNABLE);
        /* p30 exits at 22 ms: p10 gets a CPU back at once (pulled if need be). */
        sim_run_until(sim, MS(22) + 1);
        ck_assert(p20->state == TASK_RUNNING && p10->state == TASK_RUNNING);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(rt_throttling_leaves_time_to_fair_tasks)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(1, "2s") "[sched]\nrt_runtime=500ms\nrt_period=1s\n"
                "[task:hog]\nsched=fifo:50\nprogram=compute 10s\n"
                "[task:n]\nsched=normal:0\nprogram=compute 10s\n", "none", &sc);
        struct task *hog = find_task(sim, "hog"), *n = find_task(sim, "n");

        sim_run(sim);
        sim_finish(sim, NULL);
        /* Each period: 500 ms (+ at most a tick) of RT, the rest fair. */
        ck_assert_int_ge(hog->sum_exec_ns, MS(1000));
        ck_assert_int_le(hog->sum_exec_ns, MS(1003));
        ck_assert_int_ge(n->sum_exec_ns, MS(997));
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(rt_runtime_share_lets_a_hog_starve_a_reader)
{
        /* 2 CPUs, 950 ms of RT per 1 s: CPU 1 uses none, so with sharing CPU 0
         * borrows its unused runtime up to the whole period (do_balance_runtime())
         * and the pinned hog never throttles; without, the reader gets its 5%. */
        for (int share = 0; share < 2; share++) {
                struct scenario *sc;
                g_autofree char *text = g_strdup_printf(HEAD(2, "3s") "[sched]\nrt_runtime=950ms\nrt_period=1s\n"
                        "rt_runtime_share=%s\n"
                        "[task:hog]\nsched=fifo:50\naffinity=0\nprogram=compute 10s\n"
                        "[task:reader]\nsched=normal:0\naffinity=0\nstart=1ms\n"
                        "program=loop { rcu_read_lock; compute 100us; rcu_read_unlock; sleep 1ms }\n",
                        share ? "true" : "false");
                struct sim *sim = sim_from_text(text, "none", &sc);
                struct task *reader = find_task(sim, "reader");

                sim_run(sim);
                sim_finish(sim, NULL);
                if (share) {
                        /* CPU 0 owns the whole period: the reader never runs */
                        ck_assert_int_eq(reader->sum_exec_ns, 0);
                        ck_assert_int_eq(sim->cpus[0].rt_runtime_ns, MS(1000));
                        ck_assert_int_eq(sim->cpus[1].rt_runtime_ns, MS(900));
                } else {
                        /* 50 ms a period, of which it computes 1 in 11 */
                        ck_assert_int_gt(reader->sum_exec_ns, MS(10));
                        ck_assert_int_eq(sim->cpus[0].rt_runtime_ns, MS(950));
                }
                sim_free(sim);
                scenario_free(sc);
        }
}
END_TEST

START_TEST(no_throttling_by_default)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(1, "2s")
                "[task:hog]\nsched=fifo:50\nprogram=compute 10s\n"
                "[task:n]\nsched=normal:0\nstart=1ms\nprogram=compute 10s\n", "none", &sc);

        sim_run(sim);
        ck_assert_int_eq(find_task(sim, "n")->sum_exec_ns, 0);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(fair_share_follows_nice_weights)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(1, "3s")
                "[task:n0]\nsched=normal:0\nprogram=compute 10s\n"
                "[task:n5]\nsched=normal:5\nprogram=compute 10s\n", "none", &sc);
        double ratio;

        sim_run(sim);
        sim_finish(sim, NULL);
        ratio = (double)find_task(sim, "n0")->sum_exec_ns / (double)find_task(sim, "n5")->sum_exec_ns;
        /* Weights 1024 : 335. */
        ck_assert_msg(ratio > 2.75 && ratio < 3.35, "ratio %.3f", ratio);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(timed_event_changes_priority)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(1, "1s")
                "[task:a]\nsched=fifo:10\nprogram=compute 100ms\n"
                "[task:b]\nsched=fifo:20\nprogram=compute 100ms\n"
                "[event:raise]\nat=10ms\ntask=a\nsched=fifo:30\n", "none", &sc);
        struct task *a = find_task(sim, "a");

        sim_run_until(sim, MS(5));
        ck_assert_int_eq(a->state, TASK_RUNNABLE);
        sim_run_until(sim, MS(10));
        ck_assert_int_eq(a->state, TASK_RUNNING);
        ck_assert_int_eq(a->prio, 99 - 30);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

/* Filled word by word: exactly CPUs 0 .. n - 1, at and across word edges;
 * cpumask_full() tells that set from any other. */
START_TEST(cpumask_fill_holds_exactly_the_first_n_cpus)
{
        static const int sizes[] = { 0, 1, 63, 64, 65, 127, 128, 129, 1000, SIM_MAX_CPUS };

        for (size_t k = 0; k < G_N_ELEMENTS(sizes); k++) {
                int n = sizes[k];
                struct cpumask m;

                cpumask_fill(&m, n);
                for (int c = 0; c < SIM_MAX_CPUS; c++)
                        ck_assert_msg(cpumask_test(&m, c) == (c < n), "n=%d cpu %d", n, c);
                ck_assert(cpumask_full(&m, n));
                if (n > 0) {
                        ck_assert(!cpumask_full(&m, n - 1));
                        cpumask_clear_cpu(&m, n - 1);
                        ck_assert(!cpumask_full(&m, n));
                }
                if (n < SIM_MAX_CPUS)
                        ck_assert(!cpumask_full(&m, n + 1));
        }
}
END_TEST

/* A task allowed everywhere is placed without reading its mask (any_cpu);
 * narrowing its affinity must end that, widening it again restore it. */
START_TEST(any_cpu_follows_affinity_changes)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text("[scenario]\ncpus=4\nduration=10ms\n"
                                        "[task:t]\nprogram=loop { compute 100us; sleep 100us }\n"
                                        "[task:pinned]\naffinity=2\nprogram=compute 1ms\n", "none", &sc);
        struct task *t = find_task(sim, "t");
        struct cpumask one, all;

        ck_assert(t->any_cpu);
        ck_assert(!find_task(sim, "pinned")->any_cpu);
        cpumask_clear(&one);
        cpumask_set(&one, 3);
        cpumask_fill(&all, 4);
        sim_run_until(sim, MS(1));
        sched_set_affinity(sim, t, &one);
        ck_assert(!t->any_cpu);
        sim_run_until(sim, MS(5));
        ck_assert_int_eq(t->cpu, 3);
        sched_set_affinity(sim, t, &all);
        ck_assert(t->any_cpu);
        sim_run(sim);
        ck_assert(sim_finish(sim, NULL));
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

/* CPU 0 goes idle while CPUs 1 and 2 each have an RT task queued behind a
 * more urgent one: the pull takes the more urgent of the two, and between
 * equals the one on the lower-numbered CPU. */
static const char *rt_pulled_from(const char *w2_sched)
{
        g_autofree char *text = g_strdup_printf(
                HEAD(3, "20ms")
                "[task:busy0]\nsched=fifo:90\naffinity=0\nprogram=compute 5ms\n"
                "[task:hold1]\nsched=fifo:90\naffinity=1\nprogram=compute 50ms\n"
                "[task:hold2]\nsched=fifo:90\naffinity=2\nprogram=compute 50ms\n"
                "[task:w1]\nsched=fifo:30\naffinity=1\nstart=1ms\nprogram=compute 10ms\n"
                "[task:w2]\nsched=%s\naffinity=2\nstart=1ms\nprogram=compute 10ms\n", w2_sched);
        struct scenario *sc;
        struct sim *sim = sim_from_text(text, "none", &sc);
        struct cpumask both;
        const char *pulled = NULL;

        sim_run_until(sim, MS(2));
        ck_assert_int_eq(find_task(sim, "w1")->state, TASK_RUNNABLE);
        ck_assert_int_eq(find_task(sim, "w2")->state, TASK_RUNNABLE);
        /* Allowed on CPU 0 too, still queued where they are. */
        cpumask_clear(&both);
        cpumask_set(&both, 0);
        cpumask_set(&both, 1);
        sched_set_affinity(sim, find_task(sim, "w1"), &both);
        cpumask_clear_cpu(&both, 1);
        cpumask_set(&both, 2);
        sched_set_affinity(sim, find_task(sim, "w2"), &both);
        sim_run_until(sim, MS(6));
        for (const char *const *n = (const char *const[]){ "w1", "w2", NULL }; *n; n++) {
                struct task *t = find_task(sim, *n);

                if (t->state == TASK_RUNNING && t->cpu == 0)
                        pulled = *n;
                else
                        ck_assert_int_eq(t->state, TASK_RUNNABLE);
        }
        sim_free(sim);
        scenario_free(sc);
        ck_assert_msg(pulled, "nothing was pulled to the idle CPU");
        return pulled;
}

START_TEST(rt_pull_takes_the_most_urgent_then_the_lowest_cpu)
{
        ck_assert_str_eq(rt_pulled_from("fifo:30"), "w1");     /* equals: CPU 1 before CPU 2 */
        ck_assert_str_eq(rt_pulled_from("fifo:40"), "w2");     /* more urgent, on CPU 2 */
        ck_assert_str_eq(rt_pulled_from("fifo:20"), "w1");
}
END_TEST

/* A fair task boosted while it waits on CPU 0's queue (as a preempted
 * reader is) counts as RT there: when CPU 0 reschedules it runs, and a
 * less urgent RT task queued on CPU 1 is not pulled ahead of it.  (The
 * pull reads the local rank from the run-queue keys, so the boost must
 * move the task to the RT queue.) */
START_TEST(a_boosted_queued_task_is_not_overtaken_by_a_pull)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(2, "20ms")
                "[task:busy0]\nsched=fifo:90\naffinity=0\nprogram=compute 5ms\n"
                "[task:hold1]\nsched=fifo:90\naffinity=1\nprogram=compute 50ms\n"
                "[task:reader]\nsched=normal:0\naffinity=0\nstart=1ms\nprogram=compute 10ms\n"
                "[task:w1]\nsched=fifo:30\naffinity=1\nstart=1ms\nprogram=compute 10ms\n", "none", &sc);
        struct task *reader = find_task(sim, "reader"), *w1 = find_task(sim, "w1");
        struct cpumask both;

        sim_run_until(sim, MS(2));
        ck_assert_int_eq(reader->state, TASK_RUNNABLE);
        ck_assert_int_eq(w1->state, TASK_RUNNABLE);
        sched_set_boost_prio(sim, reader, 99 - 50, BOOST_SETPRIO);
        cpumask_clear(&both);
        cpumask_set(&both, 0);
        cpumask_set(&both, 1);
        sched_set_affinity(sim, w1, &both);
        sim_run_until(sim, MS(6));
        ck_assert_int_eq(reader->state, TASK_RUNNING);
        ck_assert_int_eq(reader->cpu, 0);
        ck_assert_int_eq(w1->state, TASK_RUNNABLE);
        ck_assert_int_eq(w1->cpu, 1);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

/* The rank sets directly: highest rank first, the preferred CPU among
 * equals, skip, the floor, and masks; a CPU moved out of every set
 * (throttled) is never found. */
START_TEST(cpupri_finds_the_least_urgent_allowed_cpu)
{
        struct cpupri cp;
        struct cpumask all, odd;

        cpupri_init(&cp, 70, PRIO_IDLE);
        cpumask_fill(&all, 70);
        cpumask_clear(&odd);
        for (int c = 1; c < 70; c += 2)
                cpumask_set(&odd, c);
        for (int c = 0; c < 70; c++)
                cpupri_set(&cp, c, 50);      /* all busy at RT prio 50 */
        ck_assert_int_eq(cpupri_find(&cp, &all, -1, -1, -1), 0);
        ck_assert_int_eq(cpupri_find(&cp, &all, -1, 7, -1), 7);
        ck_assert_int_eq(cpupri_find(&cp, &all, 50, -1, -1), -1);       /* none less urgent than 50 */
        cpupri_set(&cp, 66, 120);                   /* 66 runs a normal task */
        ck_assert_int_eq(cpupri_find(&cp, &all, 50, -1, -1), 66);
        ck_assert_int_eq(cpupri_find(&cp, &all, -1, 7, -1), 66);        /* rank beats preference */
        ck_assert_int_eq(cpupri_find(&cp, &all, -1, -1, 66), 0);        /* skipped */
        ck_assert_int_eq(cpupri_find(&cp, &odd, -1, -1, -1), 1);
        cpupri_set(&cp, 65, 120);
        ck_assert_int_eq(cpupri_find(&cp, &odd, -1, -1, -1), 65);
        ck_assert_int_eq(cpupri_find(&cp, &all, -1, 66, -1), 66);
        cpupri_set(&cp, 65, CPUPRI_NONE);          /* throttled */
        cpupri_set(&cp, 66, CPUPRI_NONE);
        ck_assert_int_eq(cpupri_find(&cp, &all, 50, -1, -1), -1);
        ck_assert_int_eq(cpupri_find(&cp, &odd, -1, 65, -1), 1);
}
END_TEST

/* Placement knows a running task's new priority: once a is raised above
 * b, a waking task of a priority between them goes to b's CPU. */
START_TEST(placement_follows_priority_of_running_tasks)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(2, "1s")
                "[task:a]\nsched=fifo:10\nprogram=compute 100ms\n"
                "[task:b]\nsched=fifo:20\nprogram=compute 100ms\n"
                "[task:w]\nsched=fifo:30\nstart=20ms\nprogram=compute 5ms\n"
                "[event:raise]\nat=10ms\ntask=a\nsched=fifo:50\n", "none", &sc);
        struct task *a = find_task(sim, "a"), *b = find_task(sim, "b"), *w = find_task(sim, "w");

        sim_run_until(sim, MS(5));
        ck_assert(a->state == TASK_RUNNING && b->state == TASK_RUNNING);
        sim_run_until(sim, MS(20) + 1);
        ck_assert_int_eq(a->state, TASK_RUNNING);
        ck_assert_int_eq(w->state, TASK_RUNNING);
        ck_assert_int_eq(w->cpu, b->cpu);
        ck_assert_int_eq(b->state, TASK_RUNNABLE);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

/* A FIFO 20 task that last ran on CPU 0 wakes while a pinned FIFO 10 hog
 * runs there and CPU 1 is idle.  6.1 select_task_rq_rt(): the current task
 * is a pinned RT task, so find_lowest_rq() sends it to CPU 1 and the hog
 * runs on; 2.6.22-rt: it stays and preempts the hog. */
START_TEST(rt_wakeup_leaves_a_pinned_hog_on_61)
{
        static const char *const rules[] = { "find-lowest", "last-cpu" };

        for (size_t i = 0; i < G_N_ELEMENTS(rules); i++) {
                struct scenario *sc;
                g_autofree char *text = g_strdup_printf(HEAD(2, "50ms") "[sched]\nrt_wakeup=%s\n"
                        "[task:x]\nsched=fifo:20\nprogram=compute 1ms; sleep 5ms; compute 1ms\n"
                        "[task:hog]\nsched=fifo:10\naffinity=0\nstart=2ms\nprogram=compute 20ms\n", rules[i]);
                struct sim *sim = sim_from_text(text, "none", &sc);
                struct task *x = find_task(sim, "x"), *hog = find_task(sim, "hog");

                sim_run_until(sim, US(500));
                ck_assert_int_eq(x->cpu, 0);
                sim_run_until(sim, MS(6) + US(500));
                ck_assert_int_eq(x->state, TASK_RUNNING);
                ck_assert_int_eq(x->cpu, i == 0 ? 1 : 0);
                ck_assert_int_eq(hog->state, i == 0 ? TASK_RUNNING : TASK_RUNNABLE);
                sim_free(sim);
                scenario_free(sc);
        }
}
END_TEST

/* 6.1-rt throttles RT tasks by default (950 ms per second): a fair task
 * beside a FIFO hog gets the rest; 2.6.22-rt did not (no_throttling_by_default). */
START_TEST(the_61_kernel_throttles_rt_by_default)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text("[scenario]\ncpus=1\nduration=2s\nkernel=6.1-rt\nphases=aligned\n" ZERO_COSTS
                "[task:hog]\nsched=fifo:50\nprogram=compute 10s\n"
                "[task:n]\nsched=normal:0\nstart=1ms\nprogram=compute 10s\n", "none", &sc);

        sim_run(sim);
        /* the throttle comes at the tick past 950 ms: a jiffy of 4 ms later */
        ck_assert(find_task(sim, "n")->sum_exec_ns >= 2 * MS(46) && find_task(sim, "n")->sum_exec_ns <= 2 * MS(50));
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(start_and_stop_bound_a_task)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(1, "100ms") "[mutex:m]\n"
                "[task:t]\nstart=2ms\nstop=5500us\nprogram=loop { lock m; compute 1ms; unlock m }\n", "none", &sc);
        struct task *t = find_task(sim, "t");

        sim_run_until(sim, MS(2) - 1);
        ck_assert_int_eq(t->state, TASK_NEW);
        sim_run_until(sim, MS(5) + US(600));
        /* Stops at the first statement boundary after 5.5 ms holding no mutex: 6 ms. */
        ck_assert_int_eq(t->state, TASK_RUNNING);
        sim_run_until(sim, MS(6));
        ck_assert_int_eq(t->state, TASK_EXITED);
        ck_assert_int_eq(t->sum_exec_ns, MS(4));
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

/* #47 start_in=: the hog waits for the reader's first section at or after
 * its start and, woken from inside it, preempts the reader there; started
 * by the clock alone it finds the reader asleep between sections. */
static struct task *reader_after_hog(const char *start_in, struct task **hog_out, struct sim **sim_out,
                                     struct scenario **sc)
{
        g_autofree char *text = g_strdup_printf(HEAD(1, "20ms")
                "[task:reader]\nprogram=loop { rcu_read_lock; compute 100us; rcu_read_unlock; sleep 1ms }\n"
                "[task:hog]\nsched=fifo:10\nstart=1500us\n%s\nprogram=compute 5ms\n", start_in);
        struct sim *sim = sim_from_text(text, "none", sc);

        *hog_out = find_task(sim, "hog");
        *sim_out = sim;
        sim_run_until(sim, MS(1.5) - 1);
        ck_assert_int_eq((*hog_out)->state, TASK_NEW);
        sim_run_until(sim, MS(4));
        ck_assert_ptr_eq(sim->cpus[0].curr, *hog_out);
        return find_task(sim, "reader");
}

START_TEST(start_in_wakes_a_hog_from_inside_the_section)
{
        struct scenario *sc;
        struct sim *sim;
        struct task *hog, *reader = reader_after_hog("start_in=reader", &hog, &sim, &sc);

        /* preempted in its section, which began after the hog's start= */
        ck_assert_int_eq(reader->state, TASK_RUNNABLE);
        ck_assert_int_eq(reader->rcu_nesting, 1);
        ck_assert_int_ge(reader->rcu_read_start_ns, MS(1.5));
        ck_assert_int_lt(hog->sum_exec_ns, MS(2.5));
        sim_free(sim);
        scenario_free(sc);

        reader = reader_after_hog("", &hog, &sim, &sc);
        ck_assert_int_eq(reader->rcu_nesting, 0);
        ck_assert_int_eq(hog->sum_exec_ns, MS(2.5));
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(a_huge_rr_timeslice_does_not_wrap)
{
        /* 4294967297 ms is 2^32 + 1 ticks: cast to int it was 1 tick */
        struct scenario *sc;
        struct sim *sim = sim_from_text("[scenario]\ncpus=1\nduration=100ms\n[sched]\nrr_timeslice=4294967297ms\n"
                                        "[task:a]\nsched=rr:10\nprogram=loop { compute 10ms }\n"
                                        "[task:b]\nsched=rr:10\nprogram=loop { compute 10ms }\n", "none", &sc);

        sim_run(sim);
        /* a runs the whole 100 ms: b never gets the CPU */
        ck_assert_int_eq(find_task(sim, "b")->sum_exec_ns, 0);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(affinity_each_pins_copy_i_to_cpu_i)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text("[scenario]\ncpus=4\nduration=20ms\n"
                                        "[task:w]\ncount=6\naffinity=each\nprogram=loop { compute 1ms; sleep 1ms }\n",
                                        "none", &sc);

        sim_run(sim);
        for (int k = 0; k < 6; k++) {
                g_autofree char *name = g_strdup_printf("w.%d", k);
                struct task *t = find_task(sim, name);

                /* copy k may run on CPU k mod 4 and nowhere else, and did run there */
                for (int c = 0; c < 4; c++)
                        ck_assert_int_eq(cpumask_test(&t->affinity, c), c == k % 4);
                ck_assert_int_eq(t->cpu, k % 4);
                ck_assert_int_gt(t->sum_exec_ns, 0);
        }
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(skew_tick_offsets_each_cpus_tick)
{
        /* tick-sched.c: offset = (TICK_NSEC >> 1) / num_possible_cpus() * cpu */
        for (int skew = 0; skew < 2; skew++) {
                struct scenario *sc;
                g_autofree char *text = g_strdup_printf("[scenario]\ncpus=4\ntick_hz=1000\nduration=10ms\nskew_tick=%s\n"
                                                        "[task:t]\nprogram=compute 1ms\n", skew ? "true" : "false");
                struct sim *sim = sim_from_text(text, "none", &sc);

                for (int c = 0; c < 4; c++)
                        ck_assert_int_eq(sim->cpus[c].tick_ev.when, MS(1) + (skew ? US(125) * c : 0));
                sim_run_until(sim, MS(3));
                /* and every tick after it keeps the offset */
                for (int c = 0; c < 4; c++)
                        ck_assert_int_eq(sim->cpus[c].tick_ev.when, skew && c > 0 ? MS(3) + US(125) * c : MS(4));
                sim_free(sim);
                scenario_free(sc);
        }
}
END_TEST

/* A nice-0 task preempted by a FIFO hog on CPU 0 while CPU 1 runs another
 * nice-0 task: CPU 0's capacity for fair tasks shrinks as RT time fills it
 * (PELT, 32 ms half-life), and CPU 1's periodic balance (every 2 ms x
 * busy_factor 16 = 32 ms on this 2-CPU domain) pulls the waiting task once
 * CPU 0's load per capacity passes 117% of its own: after about 30 ms of
 * hog, so within the next two intervals. */
START_TEST(load_balance_pulls_a_task_from_behind_an_rt_hog)
{
        for (int lb = 0; lb < 2; lb++) {
                struct scenario *sc;
                g_autofree char *text = g_strdup_printf(HEAD(2, "400ms") "[sched]\nload_balance=%s\n"
                        "[task:w]\nsched=normal:0\naffinity=0\nprogram=compute 1ms\n"
                        "[task:t]\nsched=normal:0\naffinity=0\nprogram=loop { compute 1ms }\n"
                        "[event:unpin]\nat=90ms\ntask=t\naffinity=0-1\n"
                        "[task:other]\nsched=normal:0\naffinity=1\nprogram=loop { compute 1ms }\n"
                        "[task:pinned]\nsched=normal:0\naffinity=0\nstart=2ms\nprogram=loop { compute 1ms }\n"
                        "[task:hog]\nsched=fifo:10\naffinity=0\nstart=100ms\nprogram=compute 1s\n",
                        lb ? "true" : "false");
                struct sim *sim = sim_from_text(text, "none", &sc);
                struct task *t = find_task(sim, "t"), *pinned = find_task(sim, "pinned");
                int64_t ran_at_100ms;

                sim_run_until(sim, MS(100));
                ck_assert_int_eq(t->cpu, 0);            /* where the hog comes; unpinned since 90 ms */
                ran_at_100ms = t->sum_exec_ns;
                sim_run_until(sim, MS(200));
                if (lb) {
                        /* moved to CPU 1 within 100 ms of the hog, and ran there */
                        ck_assert_int_eq(t->cpu, 1);
                        ck_assert_int_gt(t->sum_exec_ns - ran_at_100ms, MS(20));
                } else {
                        /* today's behaviour: it waits behind the hog */
                        ck_assert_int_eq(t->cpu, 0);
                        ck_assert_int_le(t->sum_exec_ns - ran_at_100ms, MS(1));
                }
                /* a pinned task never moves */
                ck_assert_int_eq(pinned->cpu, 0);
                sim_free(sim);
                scenario_free(sc);
        }
}
END_TEST

START_TEST(load_balance_spreads_fair_tasks_within_a_second)
{
        /* 8 CPU-bound nice-0 tasks that all start on CPU 0 (pinned, then let
         * go at 10 ms) end up two per CPU on 4 CPUs. */
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(4, "1s") "[sched]\nload_balance=true\n"
                "[task:w]\ncount=8\nsched=normal:0\naffinity=0\nprogram=loop { compute 1ms }\n"
                "[event:free]\nat=10ms\ntask=w\naffinity=0-3\n", "none", &sc);
        int per_cpu[4] = { 0 };

        sim_run(sim);
        for (int k = 0; k < 8; k++) {
                g_autofree char *name = g_strdup_printf("w.%d", k);

                per_cpu[find_task(sim, name)->cpu]++;
        }
        for (int c = 0; c < 4; c++)
                ck_assert_msg(per_cpu[c] == 2, "cpu%d has %d tasks", c, per_cpu[c]);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(irq_threads_run_handlers_and_fold_interrupts)
{
        /* One interrupt per ms, a 100 us handler in irq/16-eth0 (FIFO 50):
         * 999 interrupts in a second (the 1000th falls at the end).  A FIFO 60
         * hog from 500 to 700 ms keeps the thread off the CPU: the 200
         * interrupts that come meanwhile fold into the one run at 700 ms
         * (IRQTF_RUNTHREAD), so 799 handler runs, 79.9 ms of CPU.  The fair
         * task gets the rest. */
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(1, "1s")
                "[irq:eth0]\ninterval=1ms\nhandler=100us\n"
                "[task:hog]\nsched=fifo:60\nstart=500ms\nprogram=compute 200ms\n"
                "[task:w]\nprogram=loop { compute 1ms }\n", "none", &sc);
        struct task *irq = find_task(sim, "irq/16-eth0");

        ck_assert_int_eq(irq->prio, 99 - 50);
        sim_run_until(sim, MS(600));
        ck_assert_int_eq(irq->state, TASK_RUNNABLE);    /* behind the hog */
        sim_run(sim);
        ck_assert_int_eq(summary_value(sim, "irqs.eth0.interrupts"), 999);
        ck_assert_int_eq(summary_value(sim, "irqs.eth0.handled"), 799);
        ck_assert_int_eq(summary_value(sim, "kthreads.irq/16-eth0.cpu_ns"), 799 * US(100));
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

/* How many of the @count copies of @name are on CPU @first or above. */
static int tasks_on_cpus_from(struct sim *sim, const char *name, int count, int first)
{
        int n = 0;

        for (int k = 0; k < count; k++) {
                g_autofree char *copy = g_strdup_printf("%s.%d", name, k);

                n += find_task(sim, copy)->cpu >= first;
        }
        return n;
}

START_TEST(load_balance_crosses_the_16_cpu_domains)
{
        /* 32 CPUs are two domains of 16 under one above.  Every CPU runs a
         * pinned task (none is idle, so no idle pull); 32 more CPU-bound
         * tasks let go from CPUs 0-15 at 10 ms reach CPUs 16-31 only through
         * the upper level (sd->balance_interval 32 ms x busy_factor 16 =
         * 512 ms there), whose pulls stop once the spans' loads are within
         * imbalance_pct 117% of each other: 64 - k over 32 + k, k = 14. */
        struct scenario *sc;
        struct sim *sim = sim_from_text(HEAD(32, "2s") "[sched]\nload_balance=true\n"
                "[task:p]\ncount=32\nsched=normal:0\naffinity=each\nprogram=loop { compute 1ms }\n"
                "[task:w]\ncount=32\nsched=normal:0\naffinity=0-15\nprogram=loop { compute 1ms }\n"
                "[event:free]\nat=10ms\ntask=w\naffinity=0-31\n", "none", &sc);

        sim_run_until(sim, MS(400));
        ck_assert_int_eq(tasks_on_cpus_from(sim, "w", 32, 16), 0);     /* not before the upper level's first busy interval */
        sim_run(sim);
        ck_assert_int_eq(tasks_on_cpus_from(sim, "w", 32, 16), 14);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

static Suite *sched_suite(void)
{
        Suite *s = suite_create("sched");
        TCase *pre = tcase_create("preemption");
        TCase *pol = tcase_create("policies");
        TCase *place = tcase_create("placement");
        TCase *thr = tcase_create("throttling");

        tcase_add_test(pre, wakeup_preempts_at_once);
        tcase_add_test(pre, timed_event_changes_priority);
        tcase_add_test(pre, start_and_stop_bound_a_task);
        tcase_add_test(pre, start_in_wakes_a_hog_from_inside_the_section);
        tcase_add_test(pol, rr_tasks_share_by_time_slice);
        tcase_add_test(pol, fifo_tasks_run_to_completion);
        tcase_add_test(pol, fair_share_follows_nice_weights);
        tcase_add_test(place, affinity_is_respected_even_with_idle_cpus);
        tcase_add_test(place, most_urgent_tasks_run_across_cpus);
        tcase_add_test(place, placement_follows_priority_of_running_tasks);
        tcase_add_test(place, rt_wakeup_leaves_a_pinned_hog_on_61);
        tcase_add_test(place, cpupri_finds_the_least_urgent_allowed_cpu);
        tcase_add_test(place, cpumask_fill_holds_exactly_the_first_n_cpus);
        tcase_add_test(place, any_cpu_follows_affinity_changes);
        tcase_add_test(place, rt_pull_takes_the_most_urgent_then_the_lowest_cpu);
        tcase_add_test(place, a_boosted_queued_task_is_not_overtaken_by_a_pull);
        tcase_add_test(thr, rt_throttling_leaves_time_to_fair_tasks);
        tcase_add_test(thr, no_throttling_by_default);
        tcase_add_test(thr, the_61_kernel_throttles_rt_by_default);
        tcase_add_test(thr, rt_runtime_share_lets_a_hog_starve_a_reader);
        tcase_add_test(thr, a_huge_rr_timeslice_does_not_wrap);
        tcase_add_test(thr, affinity_each_pins_copy_i_to_cpu_i);
        tcase_add_test(thr, skew_tick_offsets_each_cpus_tick);
        tcase_add_test(thr, load_balance_pulls_a_task_from_behind_an_rt_hog);
        tcase_add_test(thr, load_balance_spreads_fair_tasks_within_a_second);
        tcase_add_test(thr, load_balance_crosses_the_16_cpu_domains);
        tcase_add_test(thr, irq_threads_run_handlers_and_fold_interrupts);
        suite_add_tcase(s, pre);
        suite_add_tcase(s, pol);
        suite_add_tcase(s, place);
        suite_add_tcase(s, thr);
        return s;
}

int main(void)
{
        return run_suite(sched_suite());
}
