/* Tree RCU ([rcu] flavour=tree, src/sim/rcu/tree.c) and policy rcu-boost
 * (CONFIG_RCU_BOOST, src/policies/rcuboost.c). */
#include "testutil.h"

#include "sim/rcu/tree.h"

#define RT(p) (99 - (p))

/* CPU 0: readers preempted inside their sections by a FIFO 10 hog at 1 ms;
 * CPU 1: an updater asking for grace periods.  The RCU kthreads at FIFO 20
 * outrank the hog, so rcuc/0 reports CPU 0's quiescent states and only the
 * blocked readers hold the grace period; ktimers/N at FIFO 30 (as rcutorture
 * raises it) delivers rcu_preempt's FQS timeouts under the hog, and HZ 1000
 * makes the jiffies below milliseconds. */
#define STALL(readers, extra) "[scenario]\ncpus=2\ntick_hz=1000\nduration=700ms\n" ZERO_COSTS \
        "[sched]\ntimer_softirq_thread=fifo:30\n[rcu]\nkthread_prio=20\n" extra readers \
        "[task:hog]\nsched=fifo:10\naffinity=0\nstart=1ms\nprogram=compute 600ms\n" \
        "[task:updater]\nsched=normal:0\naffinity=1\nprogram=loop { call_rcu 1KiB; sleep 1ms }\n"
#define ONE_READER "[task:reader]\nsched=normal:0\naffinity=0\nprogram=rcu_read_lock; compute 10ms; rcu_read_unlock; sleep 1s\n"

START_TEST(boosting_waits_boost_delay_then_lends_the_kthreads_priority_by_pi)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(STALL(ONE_READER, ""), "rcu-boost", &sc);
        struct task *r = find_task(sim, "reader"), *rcub = find_task(sim, "rcub/0");

        ck_assert_int_eq(rcub->prio, RT(20));
        /* Every grace period from 1 ms on waits for the reader, and began
         * after 0: none has lasted CONFIG_RCU_BOOST_DELAY by 499 ms. */
        sim_run_until(sim, MS(499));
        ck_assert_int_eq(r->rcu_nesting, 1);
        ck_assert_int_eq(r->prio, PRIO_NICE_0);
        ck_assert_int_eq(rcub->state, TASK_WAITING);
        ck_assert_str_eq(policy_state(sim, r), "blkd_tasks of rcu_node 0");
        /* The first FQS scan past 500 ms starts it (3 jiffies apart). */
        sim_run_until(sim, MS(505));
        ck_assert_str_eq(policy_state(sim, r), "boosted by rcub/0");
        ck_assert_int_eq(r->prio, RT(20));
        /* ... by priority inheritance through boost_mtx, not a setprio */
        ck_assert_int_eq(r->boost_prio, PRIO_NONE);
        ck_assert_int_eq(mutex_pi_prio(r), RT(20));
        ck_assert_int_eq(rcub->state, TASK_BLOCKED);
        ck_assert_ptr_nonnull(rcub->blocked_on);
        ck_assert_ptr_eq(rcub->blocked_on->owner, r);
        /* 9 ms of section left at FIFO 20 over the hog; the unlock drops it. */
        sim_run_until(sim, MS(520));
        ck_assert_int_eq(r->rcu_nesting, 0);
        ck_assert_int_eq(r->prio, PRIO_NICE_0);
        ck_assert_ptr_null(rcub->blocked_on);
        sim_run(sim);
        ck_assert_int_eq(summary_value(sim, "policy_stats.readers_boosted"), 1);
        ck_assert_int_eq(summary_value(sim, "policy_stats.n_boosts"), 1);
        ck_assert_int_eq(summary_value(sim, "safety_violations"), 0);
        ck_assert(summary_value(sim, "gp_latency.max_ns") >= MS(500));
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(boost_delay_is_a_policy_key)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(STALL(ONE_READER, "[policy]\nboost_delay=100ms\n"), "rcu-boost", &sc);
        struct task *r = find_task(sim, "reader");

        sim_run_until(sim, MS(99));
        ck_assert_int_eq(r->prio, PRIO_NICE_0);
        sim_run_until(sim, MS(105));
        ck_assert_int_eq(r->prio, RT(20));
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

/* Three readers preempt one another on CPU 0 inside their sections (FIFO
 * 1 and 2 arrive over nice 0) before the hog arrives: three tasks on leaf
 * 0's blkd_tasks. */
#define THREE_READERS \
        "[task:a]\nsched=normal:0\naffinity=0\nprogram=rcu_read_lock; compute 10ms; rcu_read_unlock; sleep 1s\n" \
        "[task:b]\nsched=fifo:1\naffinity=0\nstart=200us\nprogram=rcu_read_lock; compute 10ms; rcu_read_unlock; sleep 1s\n" \
        "[task:c]\nsched=fifo:2\naffinity=0\nstart=400us\nprogram=rcu_read_lock; compute 10ms; rcu_read_unlock; sleep 1s\n"

/* Each boost starts at ->gp_tasks, the first queued reader blocking the
 * grace period; readers queued after CPU 0 reported wait at the head for
 * the next grace period, whose boost comes boost_delay after it began. */
START_TEST(readers_are_boosted_one_at_a_time_in_blkd_tasks_order)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text("[scenario]\ncpus=2\ntick_hz=1000\nduration=1300ms\n" ZERO_COSTS
                "[sched]\ntimer_softirq_thread=fifo:30\n[rcu]\nkthread_prio=20\n" THREE_READERS
                "[task:hog]\nsched=fifo:10\naffinity=0\nstart=1ms\nprogram=compute 1200ms\n"
                "[task:updater]\nsched=normal:0\naffinity=1\nprogram=loop { call_rcu 1KiB; sleep 1ms }\n",
                "rcu-boost", &sc);
        struct rcu_node *leaf = rcu_tree_leaf(sim, 0);
        struct task *readers[3] = { find_task(sim, "a"), find_task(sim, "b"), find_task(sim, "c") };
        struct task *last = NULL;
        int seen = 0;

        sim_run_until(sim, MS(2));
        ck_assert_int_eq(leaf->blkd_tasks.length, 3);
        for (sim_time_ns t = MS(2); t < MS(1250); t += US(100)) {
                struct task *now = NULL;

                sim_run_until(sim, t);
                for (int i = 0; i < 3; i++) {
                        if (readers[i]->prio != RT(20))
                                continue;
                        ck_assert_msg(!now, "two readers boosted at once at %" G_GINT64_FORMAT, (gint64)t);
                        now = readers[i];
                }
                if (now && now != last) {
                        /* rcu_boost() took it at ->boost_tasks, which started at ->gp_tasks */
                        ck_assert_ptr_nonnull(leaf->boost_tasks);
                        ck_assert_ptr_eq(leaf->boost_tasks->data, now);
                        ck_assert_ptr_eq(leaf->gp_tasks, leaf->boost_tasks);
                        seen++;
                }
                last = now;
        }
        ck_assert_int_eq(seen, 3);
        sim_run(sim);
        ck_assert_int_eq(summary_value(sim, "policy_stats.n_boosts"), 3);
        ck_assert_int_eq(summary_value(sim, "safety_violations"), 0);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(without_rcu_boost_the_grace_period_waits_for_the_hog)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text(STALL(ONE_READER, "flavour=tree\n"), "none", &sc);

        sim_run(sim);
        ck_assert_str_eq(sim->rcu.flavour->name, "tree");
        ck_assert(summary_value(sim, "gp_latency.max_ns") >= MS(590));     /* until the hog ends */
        ck_assert(summary_value(sim, "rcu.tree.fqs_scans") >= 100);     /* FQS every 3 jiffies */
        ck_assert_int_eq(summary_value(sim, "policy_stats.readers_boosted"), 0);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

/* rcuc/0 at kthread_prio 1 below the FIFO 10 hog cannot report CPU 0's
 * quiescent states: the leaf never clears, so RCU_BOOST never starts --
 * the rcuc starvation a PREEMPT_RT kernel reports as a stall. */
START_TEST(a_starved_rcuc_holds_the_grace_period_and_boosting_never_starts)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text("[scenario]\ncpus=2\nduration=700ms\n" ZERO_COSTS
                "[task:hog]\nsched=fifo:10\naffinity=0\nstart=1ms\nprogram=compute 600ms\n"
                "[task:updater]\nsched=normal:0\naffinity=1\nprogram=loop { call_rcu 1KiB; sleep 1ms }\n",
                "rcu-boost", &sc);

        sim_run(sim);
        ck_assert_int_eq(summary_value(sim, "rcu.tree.kthread_prio"), 1);     /* CONFIG_RCU_BOOST's default */
        ck_assert(summary_value(sim, "rcu.gp_max_at_least_ns") >= MS(590));
        ck_assert_int_eq(summary_value(sim, "policy_stats.boost_initiated"), 0);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

START_TEST(the_tree_has_leaves_of_fanout_leaf_cpus_spread_evenly)
{
        struct scenario *sc;
        struct sim *sim = sim_from_text("[scenario]\ncpus=40\nduration=50ms\n"
                "[task:u]\ncount=40\nprogram=loop { rcu_read_lock; compute 50us; rcu_read_unlock; call_rcu 1KiB; sleep 1ms }\n",
                "rcu-boost", &sc);

        ck_assert_int_eq(rcu_tree_nleaves(sim), 3);
        /* rcu_init_levelspread(): ceil(40 / 3) = 14 CPUs per leaf */
        ck_assert_int_eq(rcu_tree_leaf(sim, 0)->grphi, 13);
        ck_assert_int_eq(rcu_tree_leaf(sim, 1)->grplo, 14);
        ck_assert_int_eq(rcu_tree_leaf(sim, 2)->grphi, 39);
        ck_assert_ptr_nonnull(rcu_tree_leaf(sim, 2)->parent);
        (void)find_task(sim, "rcub/1");         /* named by node index: the root is 0 */
        (void)find_task(sim, "rcub/3");
        (void)find_task(sim, "rcuc/39");
        sim_run(sim);
        ck_assert_int_eq(summary_value(sim, "rcu.tree.levels"), 2);
        /* a grace period every 8 ms (two ticks at HZ 250) */
        ck_assert(summary_value(sim, "rcu.grace_periods") >= 5);
        ck_assert_int_eq(summary_value(sim, "safety_violations"), 0);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

/* No reader ever blocked, every CPU ticking (nohz_idle=false): each CPU
 * notices the grace period at a tick, has a quiescent state by the next and
 * reports it after it -- 1 to 3 jiffies, under jiffies_till_first_fqs (3 at
 * HZ 1000), so no FQS scan is needed; the same with a two-level tree (64
 * CPUs: four leaves under the root). */
START_TEST(without_readers_a_grace_period_takes_one_to_three_jiffies)
{
        static const char *const cpus[] = { "4", "64" };

        for (size_t i = 0; i < G_N_ELEMENTS(cpus); i++) {
                struct scenario *sc;
                g_autofree char *text = g_strdup_printf(
                        "[scenario]\ncpus=%s\nduration=1s\ntick_hz=1000\nnohz_idle=false\n[rcu]\nflavour=tree\n"
                        "[task:u]\ncount=%s\nprogram=loop { compute exp(100us); call_rcu 1KiB; sleep exp(1ms) }\n",
                        cpus[i], cpus[i]);
                struct sim *sim = sim_from_text(text, "none", &sc);

                sim_run(sim);
                ck_assert(summary_value(sim, "rcu.grace_periods") >= 300);
                ck_assert(summary_value(sim, "gp_latency.min_ns") >= MS(1) - US(1));
                ck_assert(summary_value(sim, "gp_latency.max_ns") <= MS(3));
                ck_assert_int_eq(summary_value(sim, "rcu.tree.fqs_scans"), 0);
                ck_assert_int_eq(summary_value(sim, "rcu.tree.tasks_queued"), 0);
                ck_assert_int_eq(summary_value(sim, "rcu.tree.levels"), i ? 2 : 1);
                sim_free(sim);
                scenario_free(sc);
        }
}
END_TEST

START_TEST(rcu_boost_refuses_the_rcupreempt_flavour)
{
        GError *e = NULL;
        struct scenario *sc = scenario_load_data("[scenario]\ncpus=1\n[rcu]\nflavour=rcupreempt\n"
                                                 "[task:a]\nprogram=compute 1ms\n", "x.scn", NULL, &e);
        struct sim *sim;
        GPtrArray *unused;

        ck_assert_ptr_nonnull(sc);
        sim = sim_new(sc, &(struct sim_options){ .policy = "rcu-boost" }, &e);
        ck_assert_ptr_null(sim);
        ck_assert_msg(strstr(e->message, "rcu-boost needs [rcu] flavour=tree") != NULL, "%s", e->message);
        g_error_free(e);
        scenario_free(sc);
        g_autofree char *bad = scenario_error_of("[scenario]\n[rcu]\nflavour=classic\n");

        ck_assert_msg(bad && strstr(bad, "flavour") && strstr(bad, "rcupreempt or tree"), "%s", bad);
        /* rcupreempt's callback thread under tree: valid, warned about */
        sc = scenario_load_data("[scenario]\ncpus=1\n[rcu]\nflavour=tree\ncallback_thread=fifo:10\n"
                                "[task:a]\nprogram=compute 1ms\n", "w.scn", NULL, &e);
        ck_assert_ptr_nonnull(sc);
        ck_assert_int_eq(sc->warnings->len, 1);
        ck_assert_msg(strstr(g_ptr_array_index(sc->warnings, 0), "w.scn:5: [rcu] callback_thread: has no effect "
                             "with flavour=tree"), "%s", (char *)g_ptr_array_index(sc->warnings, 0));
        scenario_free(sc);
        /* #48: Tree RCU's keys in a scenario whose flavour is the policy's: warned of in the
         * runs of a 2007 policy (rcupreempt), not in rcu-boost's */
        sc = scenario_load_data("[scenario]\ncpus=1\n[rcu]\nkthread_prio=50\nfanout_leaf=4\n"
                                "[task:a]\nprogram=compute 1ms\n", "w.scn", NULL, &e);
        ck_assert_ptr_nonnull(sc);
        sim = sim_new(sc, &(struct sim_options){ .policy = "none" }, &e);
        ck_assert_ptr_nonnull(sim);
        unused = sim_rcu_keys_unused(sim);
        ck_assert_int_eq(unused->len, 2);
        ck_assert_str_eq(g_ptr_array_index(unused, 0), "kthread_prio");
        ck_assert_str_eq(g_ptr_array_index(unused, 1), "fanout_leaf");
        g_ptr_array_unref(unused);
        sim_free(sim);
        sim = sim_new(sc, &(struct sim_options){ .policy = "rcu-boost" }, &e);
        ck_assert_ptr_nonnull(sim);
        unused = sim_rcu_keys_unused(sim);
        ck_assert_int_eq(unused->len, 0);
        g_ptr_array_unref(unused);
        sim_free(sim);
        scenario_free(sc);
}
END_TEST

/* __call_rcu_core(): a CPU whose callbacks grow by qhimark since its last
 * check forces a quiescent-state scan at once rather than wait for the FQS
 * timer.  A preempted reader holds the grace period for 100 ms while a
 * callback is queued every microsecond: with qhimark=50 the scans come with
 * the callbacks (every other check: once per scan), several times as often
 * as the FQS timer's (about 110 here); qhimark=0 (rcuboost's "never") has
 * the timer's alone. */
#define QHIMARK_SCN(q) "[scenario]\ncpus=2\nduration=150ms\n" ZERO_COSTS \
        "[rcu]\nflavour=tree\nkthread_prio=50\nqhimark=" q "\n" \
        "[task:reader]\nsched=normal:0\naffinity=0\nprogram=rcu_read_lock; compute 100ms; rcu_read_unlock; sleep 1s\n" \
        "[task:hog]\nsched=fifo:10\naffinity=0\nstart=10ms\nprogram=compute 100ms\n" \
        "[task:updater]\nsched=fifo:20\naffinity=1\nstart=20ms\nstop=110ms\nprogram=loop { compute 1us; call_rcu 64B }\n"

START_TEST(callback_overload_forces_a_quiescent_state_scan)
{
        struct scenario *sc_off, *sc_on;
        struct sim *off = sim_from_text(QHIMARK_SCN("0"), "none", &sc_off);
        struct sim *on = sim_from_text(QHIMARK_SCN("50"), "none", &sc_on);
        double scans_off, scans_on;

        sim_run(off);
        sim_run(on);
        scans_off = summary_value(off, "rcu.tree.fqs_scans");
        scans_on = summary_value(on, "rcu.tree.fqs_scans");
        ck_assert_msg(scans_off < 200, "timer only: %g scans", scans_off);
        ck_assert_msg(scans_on > 5 * scans_off, "qhimark=50: %g scans against %g", scans_on, scans_off);
        sim_free(off);
        sim_free(on);
        scenario_free(sc_off);
        scenario_free(sc_on);
}
END_TEST

/* 6.1-rt: rcu_preempt's FQS timeout expires in ktimers/N at FIFO 1.  Armed on
 * CPU 0 before a pinned FIFO 10 hog arrives there, it waits for the hog: no
 * FQS scan, so no rcu_initiate_boost(), until the hog ends at 601 ms.  In
 * 2.6.22-rt's sirq-timer/N at FIFO 50 it expires in time and the boost comes
 * boost_delay after the grace period began. */
START_TEST(the_fqs_timer_waits_for_the_timer_thread_of_the_generation)
{
        static const char *const kernels[] = { "6.1-rt", "2.6.22-rt" };

        for (size_t i = 0; i < G_N_ELEMENTS(kernels); i++) {
                struct scenario *sc;
                g_autofree char *text = g_strdup_printf(
                        "[scenario]\ncpus=2\nkernel=%s\ntick_hz=1000\nduration=700ms\n" ZERO_COSTS
                        "[rcu]\nflavour=tree\nkthread_prio=20\n" ONE_READER
                        "[task:hog]\nsched=fifo:10\naffinity=0\nstart=1ms\nprogram=compute 600ms\n"
                        "[task:updater]\nsched=normal:0\naffinity=1\nprogram=loop { call_rcu 1KiB; sleep 1ms }\n",
                        kernels[i]);
                struct sim *sim = sim_from_text(text, "rcu-boost", &sc);
                struct task *timer = find_task(sim, i == 0 ? "ktimers/0" : "sirq-timer/0");
                struct task *r = find_task(sim, "reader");
                bool boosted = false;

                ck_assert_int_eq(timer->prio, i == 0 ? RT(1) : RT(50));
                for (sim_time_ns t = MS(400); t <= MS(590); t += US(100)) {
                        sim_run_until(sim, t);
                        boosted |= r->prio == RT(20);
                }
                ck_assert_int_eq(boosted, i == 1);
                sim_run(sim);
                if (i == 0)     /* the reader ran on when the hog left */
                        ck_assert(summary_value(sim, "gp_latency.max_ns") >= MS(600));
                else
                        ck_assert(summary_value(sim, "gp_latency.max_ns") <= MS(520));
                sim_free(sim);
                scenario_free(sc);
        }
}
END_TEST

/* Where rcu_preempt wakes decides where its FQS timer is armed.  It first
 * arms it on CPU 0 just as a pinned FIFO 10 hog arrives there, so ktimers/0
 * (FIFO 1) never delivers it; the updater's call_rcu() kicks it every 200
 * callbacks (qhimark).  6.1's find-lowest sends it, woken while the pinned
 * hog runs on its last CPU, to CPU 1 (running a SCHED_NORMAL updater): its
 * timers expire there and the boost comes at 500 ms.  2.6.22-rt's rule keeps
 * it on CPU 0, over the hog, where each timer it arms is stuck again: the
 * boost waits for the hog to end. */
START_TEST(rt_wakeup_decides_where_rcu_preempt_arms_its_fqs_timer)
{
        static const char *const rules[] = { "find-lowest", "last-cpu" };

        for (size_t i = 0; i < G_N_ELEMENTS(rules); i++) {
                struct scenario *sc;
                g_autofree char *text = g_strdup_printf(
                        "[scenario]\ncpus=2\ntick_hz=1000\nduration=700ms\n" ZERO_COSTS
                        "[sched]\nrt_wakeup=%s\n[rcu]\nflavour=tree\nkthread_prio=20\nqhimark=200\n" ONE_READER
                        "[task:hog]\nsched=fifo:10\naffinity=0\nstart=1ms\nprogram=compute 600ms\n"
                        "[task:updater]\nsched=normal:0\naffinity=1\nprogram=loop { call_rcu 1KiB; compute 1ms }\n",
                        rules[i]);
                struct sim *sim = sim_from_text(text, "rcu-boost", &sc);
                struct task *r = find_task(sim, "reader");
                sim_time_ns boosted_at = -1;

                for (sim_time_ns t = MS(400); t <= MS(650) && boosted_at < 0; t += US(100)) {
                        sim_run_until(sim, t);
                        if (r->prio == RT(20))
                                boosted_at = t;
                }
                ck_assert(boosted_at > 0);
                if (i == 0)
                        ck_assert(boosted_at <= MS(505));
                else
                        ck_assert(boosted_at > MS(600));
                sim_free(sim);
                scenario_free(sc);
        }
}
END_TEST

/* rcu_cpu_kthread_setup(): rcuc/N at SCHED_FIFO kthread_prio only with
 * CONFIG_RCU_BOOST (rcu-boost); under none on Tree RCU they are
 * SCHED_NORMAL, while rcu_preempt keeps kthread_prio either way; [rcu]
 * rcuc_thread overrides. */
START_TEST(rcuc_is_sched_normal_without_rcu_boost)
{
        static const struct { const char *policy, *extra; int rcuc_prio; } cases[] = {
                { "none", "", PRIO_NICE_0 },
                { "rcu-boost", "", RT(50) },
                { "none", "rcuc_thread=fifo:50\n", RT(50) },
        };

        for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
                struct scenario *sc;
                g_autofree char *text = g_strdup_printf(
                        "[scenario]\ncpus=2\nduration=10ms\n[rcu]\nflavour=tree\nkthread_prio=50\n%s"
                        "[task:u]\nprogram=loop { call_rcu 1KiB; sleep 1ms }\n", cases[i].extra);
                struct sim *sim = sim_from_text(text, cases[i].policy, &sc);

                ck_assert_int_eq(find_task(sim, "rcuc/0")->prio, cases[i].rcuc_prio);
                ck_assert_int_eq(find_task(sim, "rcuc/1")->prio, cases[i].rcuc_prio);
                ck_assert_int_eq(find_task(sim, "rcu_preempt")->prio, RT(50));
                sim_free(sim);
                scenario_free(sc);
        }
}
END_TEST

/* Tickless idle (6.1-rt's default): with one busy CPU of four, the three idle
 * CPUs stop their ticks and the FQS scan reports their quiescent states
 * from the dynticks counters; with nohz_idle=false every CPU ticks, reports
 * at a tick, and no scan finds an idle CPU. */
START_TEST(idle_cpus_report_at_the_fqs_scan_and_take_no_ticks)
{
        uint64_t events[2];

        for (int nohz = 1; nohz >= 0; nohz--) {
                struct scenario *sc;
                g_autofree char *text = g_strdup_printf(
                        "[scenario]\ncpus=4\nduration=1s\nnohz_idle=%s\n[rcu]\nflavour=tree\n"
                        "[task:u]\naffinity=0\nprogram=loop { compute 100us; call_rcu 1KiB; sleep 100us }\n",
                        nohz ? "true" : "false");
                struct sim *sim = sim_from_text(text, "none", &sc);

                /* between jiffies: rcu_preempt's FQS timer wakes its CPU at each */
                sim_run_until(sim, MS(502));
                for (int c = 1; c < 4; c++)
                        ck_assert_int_eq(sim_cpu_tick_stopped(sim, c), nohz);
                sim_run(sim);
                events[nohz] = sim_events(sim);
                /* Ticking, each CPU reports at its second tick after the
                 * start (4 ms apart at HZ 250): about 8 ms a grace period.
                 * Tickless, the scans report the idle CPUs, and they come at
                 * the second tick (calc_index()'s round-up): rcu_preempt's
                 * own CPU, not idle at the first scan, waits for the second
                 * -- about 16 ms. */
                ck_assert(summary_value(sim, "rcu.grace_periods") >= (nohz ? 55 : 110));
                ck_assert(summary_value(sim, "gp_latency.max_ns") <= (nohz ? MS(17) : MS(9)));
                if (nohz)
                        ck_assert(summary_value(sim, "rcu.tree.dynticks_qs") >= 3 * summary_value(sim, "rcu.grace_periods") / 2);
                else
                        ck_assert_int_eq(summary_value(sim, "rcu.tree.dynticks_qs"), 0);
                sim_free(sim);
                scenario_free(sc);
        }
        /* three CPUs x 250 ticks a second, not taken */
        ck_assert(events[0] - events[1] >= 3 * 250 * 9 / 10);
}
END_TEST

int main(void)
{
        Suite *s = suite_create("tree");
        TCase *tc = tcase_create("rcu-boost");

        tcase_add_test(tc, boosting_waits_boost_delay_then_lends_the_kthreads_priority_by_pi);
        tcase_add_test(tc, boost_delay_is_a_policy_key);
        tcase_add_test(tc, readers_are_boosted_one_at_a_time_in_blkd_tasks_order);
        tcase_add_test(tc, without_rcu_boost_the_grace_period_waits_for_the_hog);
        tcase_add_test(tc, a_starved_rcuc_holds_the_grace_period_and_boosting_never_starts);
        tcase_add_test(tc, the_tree_has_leaves_of_fanout_leaf_cpus_spread_evenly);
        tcase_add_test(tc, without_readers_a_grace_period_takes_one_to_three_jiffies);
        tcase_add_test(tc, rcu_boost_refuses_the_rcupreempt_flavour);
        tcase_add_test(tc, callback_overload_forces_a_quiescent_state_scan);
        tcase_add_test(tc, the_fqs_timer_waits_for_the_timer_thread_of_the_generation);
        tcase_add_test(tc, rcuc_is_sched_normal_without_rcu_boost);
        tcase_add_test(tc, rt_wakeup_decides_where_rcu_preempt_arms_its_fqs_timer);
        tcase_add_test(tc, idle_cpus_report_at_the_fqs_scan_and_take_no_ticks);
        suite_add_tcase(s, tc);
        return run_suite(s);
}
