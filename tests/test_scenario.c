/* Scenario loader and program parser: every error class names file, line
 * and key; valid files load with the documented defaults. */
#include <gsl/gsl_randist.h>
#include <math.h>

#include "sim/scenario/kernel.h"
#include "testutil.h"

#define OK_TASK "[task:t]\nprogram=compute 1ms\n"

struct bad_case {
        const char *name;
        const char *text;
        const char *expect;     /* substring of the message */
};

static const struct bad_case bad_cases[] = {
        { "empty file", "", "bad.scn: empty scenario file" },
        /* #48: a key before any section, and call_rcu(4KiB), say what is wrong and where */
        { "key before a section", "# comment\n\ncpus=1\n[scenario]\n" OK_TASK,
          "bad.scn:3: key 'cpus' before any [section]" },
        { "call with parentheses", "[scenario]\n[task:t]\nprogram=call_rcu(4KiB)\n",
          "call_rcu takes its argument after a blank, not in parentheses: 'call_rcu 4KiB'" },
        { "not key=value", "[scenario]\ncpus=1\nthis is not a key\n" OK_TASK, "bad.scn:3: not a 'key=value'" },
        { "binary", "[scenario]\n\xff\xfe\n", "not a text file" },
        { "no scenario section", OK_TASK, "no [scenario] section" },
        { "no task", "[scenario]\ncpus=1\n", "no [task:NAME] section" },
        { "unknown section", "[scenario]\n[bogus]\nx=1\n" OK_TASK, "bad.scn:2: [bogus]: unknown section" },
        { "unknown key", "[scenario]\ncpus=2\nbogus=1\n" OK_TASK, "bad.scn:3: [scenario] bogus: unknown key" },
        { "zero cpus", "[scenario]\ncpus=0\n" OK_TASK, "bad.scn:2: [scenario] cpus: '0' is out of range" },
        { "million cpus", "[scenario]\ncpus=1000000\n" OK_TASK, "[scenario] cpus: '1000000' is out of range" },
        { "tick_hz 0", "[scenario]\ntick_hz=0\n" OK_TASK, "[scenario] tick_hz: '0' is out of range" },
        { "unknown kernel", "[scenario]\nkernel=2.6.99\n" OK_TASK,
          "bad.scn:2: [scenario] kernel: '2.6.99' is not a kernel generation (expected one of: 2.6.22-rt, 6.1-rt)" },
        { "nohz not bool", "[scenario]\nnohz_idle=maybe\n" OK_TASK, "bad.scn:2: [scenario] nohz_idle:" },
        { "unknown wake-up rule", "[scenario]\n[sched]\nrt_wakeup=anywhere\n" OK_TASK,
          "bad.scn:3: [sched] rt_wakeup: 'anywhere' is not a wake-up rule (expected last-cpu or find-lowest)" },
        { "bad rcuc_thread", "[scenario]\n[rcu]\nrcuc_thread=fifo:100\n" OK_TASK, "bad.scn:3: [rcu] rcuc_thread:" },
        { "missing unit", "[scenario]\nduration=10\n" OK_TASK, "bad.scn:2: [scenario] duration: '10': missing unit" },
        { "wrong unit", "[scenario]\nduration=10parsecs\n" OK_TASK, "duration: '10parsecs': unknown unit" },
        { "negative", "[scenario]\nduration=-5s\n" OK_TASK, "cannot be negative" },
        { "nan", "[scenario]\nduration=nan\n" OK_TASK, "'nan' is not a duration" },
        { "overflow", "[scenario]\nduration=1e999s\n" OK_TASK, "'1e999s' is not a duration" },
        { "huge duration", "[scenario]\nduration=1e18s\n" OK_TASK, "too large" },
        { "duration past 2^61", "[scenario]\nduration=40000000000min\n" OK_TASK, "duration too large (at most 2^61" },
        { "bad seed", "[scenario]\nseed=abc\n" OK_TASK, "[scenario] seed: 'abc' is not a whole number" },
        { "unknown policy", "[scenario]\npolicy=magic\n" OK_TASK, "unknown policy 'magic'" },
        { "bad size", "[scenario]\n[rcu]\nmemory_limit=12 apples\n" OK_TASK, "[rcu] memory_limit: '12 apples': unknown unit" },
        { "bad sched", "[scenario]\n[task:t]\nsched=fifo:100\nprogram=compute 1ms\n",
          "bad.scn:3: [task:t] sched: 'fifo:100': real-time priority must be 1..99" },
        { "bad nice", "[scenario]\n[task:t]\nsched=normal:30\nprogram=compute 1ms\n", "nice must be -20..19" },
        { "affinity beyond cpus", "[scenario]\ncpus=2\n[task:t]\naffinity=0-3\nprogram=compute 1ms\n",
          "bad.scn:4: [task:t] affinity: '0-3': CPU 3 does not exist (the scenario has 2 CPUs: 0-1)" },
        { "no program", "[scenario]\n[task:t]\nsched=fifo:1\n", "bad.scn:2: [task:t]: no program" },
        /* #59 (7): start_in=b on a and start_in=a on b: neither would ever run */
        { "start_in cycle", "[scenario]\n[task:a]\nstart_in=b\nprogram=loop { rcu_read_lock; compute 1ms; rcu_read_unlock }\n"
          "[task:b]\nstart_in=a\nprogram=loop { rcu_read_lock; compute 1ms; rcu_read_unlock }\n",
          "bad.scn:3: [task:a] start_in: a cycle (a -> b -> a)" },
        { "bad task name", "[scenario]\n[task:a b]\nprogram=compute 1ms\n", "task name 'a b'" },
        { "too many tasks", "[scenario]\n[task:t]\ncount=1000000000\nprogram=compute 1ms\n", "count: '1000000000' is out of range" },
        { "unbalanced rcu", "[scenario]\n[task:t]\nprogram=rcu_read_lock; compute 1ms\n",
          "bad.scn:3: [task:t] program: column 27: program ends inside an RCU read-side critical section" },
        { "unlock without lock", "[scenario]\n[task:t]\nprogram=rcu_read_unlock\n", "rcu_read_unlock without a matching" },
        { "unbalanced in loop", "[scenario]\n[task:t]\nprogram=loop { rcu_read_lock; compute 1ms }\n",
          "unbalanced rcu_read_lock/rcu_read_unlock in the body of 'loop'" },
        { "unknown mutex", "[scenario]\n[task:t]\nprogram=lock m; unlock m\n", "unknown mutex 'm' (declare it with a [mutex:m] section)" },
        { "double lock", "[scenario]\n[mutex:m]\n[task:t]\nprogram=lock m; lock m; unlock m; unlock m\n", "locks a mutex it already holds" },
        { "sleep in cs", "[scenario]\n[task:t]\nprogram=rcu_read_lock; sleep 1ms; rcu_read_unlock\n",
          "column 16: sleep inside an RCU read-side critical section" },
        { "sync in cs", "[scenario]\n[task:t]\nprogram=rcu_read_lock; synchronize_rcu; rcu_read_unlock\n",
          "synchronize_rcu inside an RCU read-side critical section" },
        { "zero-time loop", "[scenario]\n[task:t]\nprogram=loop { rcu_read_lock; rcu_read_unlock }\n",
          "never advances time" },
        { "periodic forever", "[scenario]\n[task:t]\nperiod=1ms\nprogram=loop { compute 1us }\n",
          "a periodic task's program must finish" },
        { "unknown statement", "[scenario]\n[task:t]\nprogram=compute 1ms; jump 3\n", "column 14: unknown statement 'jump'" },
        { "missing semicolon", "[scenario]\n[task:t]\nprogram=compute 1ms sleep 1ms\n", "'1ms sleep 1ms': unknown unit" },
        { "unclosed block", "[scenario]\n[task:t]\nprogram=loop { compute 1ms\n", "'{' is never closed" },
        { "bad distribution", "[scenario]\n[task:t]\nprogram=compute gamma(1ms)\n", "'gamma' is not a distribution" },
        { "uniform lo > hi", "[scenario]\n[task:t]\nprogram=compute uniform(5us,1us)\n", "LO must not exceed HI" },
        { "negative mean", "[scenario]\n[task:t]\nprogram=compute exp(-1us)\n", "cannot be negative" },
        { "lognormal sigma", "[scenario]\n[task:t]\nprogram=compute lognormal(1ms,0)\n", "SIGMA must be in (0, 20]" },
        /* #47: start_in= names one task with a read-side section to wake it from */
        { "start_in unknown", "[scenario]\n" OK_TASK "[task:h]\nstart_in=reader\nprogram=compute 1ms\n",
          "bad.scn:5: [task:h] start_in: no task named 'reader'" },
        { "start_in itself", "[scenario]\n[task:h]\nstart_in=h\nprogram=rcu_read_lock; compute 1ms; rcu_read_unlock\n",
          "[task:h] start_in: a task cannot wake itself" },
        { "start_in copies", "[scenario]\n[task:r]\ncount=2\nprogram=rcu_read_lock; compute 1ms; rcu_read_unlock\n"
          "[task:h]\nstart_in=r\nprogram=compute 1ms\n", "[task:h] start_in: 'r' has count=2: name a task that has one copy" },
        { "start_in no section", "[scenario]\n" OK_TASK "[task:h]\nstart_in=t\nprogram=compute 1ms\n",
          "bad.scn:5: [task:h] start_in: 't' has no rcu_read_lock to wake it from" },
        { "start_in periodic", "[scenario]\n[task:r]\nprogram=rcu_read_lock; compute 1ms; rcu_read_unlock\n"
          "[task:h]\nperiod=1ms\nstart_in=r\nprogram=compute 1us\n", "[task:h] start_in: a periodic task starts at its releases" },
        { "stop before start", "[scenario]\n[task:t]\nstart=2s\nstop=1s\nprogram=compute 1ms\n", "[task:t] stop: must be later than start" },
        { "event without at", "[scenario]\n" OK_TASK "[event:e]\ntask=t\nsched=fifo:5\n", "[event:e]: no 'at' key" },
        { "event changes nothing", "[scenario]\n" OK_TASK "[event:e]\nat=1s\n", "the event changes nothing" },
        { "unknown policy key", "[scenario]\n[policy]\nfrobnicate=1\n" OK_TASK, "[policy] frobnicate: unknown policy key" },
        { "expect unknown policy", "[scenario]\n" OK_TASK "[expect]\nmagic.oom=true\n",
          "bad.scn:5: [expect] magic.oom: unknown policy 'magic'" },
        { "expect bad value", "[scenario]\n" OK_TASK "[expect]\nnone.oom=maybe\n", "'maybe' is not a value" },
        { "expect no metric", "[scenario]\n" OK_TASK "[expect]\nnone=1\n", "expected POLICY.METRIC OP VALUE" },
        { "duplicate section", "[scenario]\n" OK_TASK "[task:u]\nprogram=compute 1ms\n" OK_TASK,
          "bad.scn:6: [task:t]: duplicate section (first at line 2" },
        { "duplicate key", "[scenario]\ncpus=1\n\ncpus=2\n" OK_TASK, "bad.scn:4: [scenario] cpus: duplicate key (first at line 2)" },
        { "rt_runtime > period", "[scenario]\n[sched]\nrt_runtime=2s\n" OK_TASK, "longer than rt_period" },
        { "irq without interval", "[scenario]\n" OK_TASK "[irq:eth0]\nhandler=20us\n",
          "bad.scn:4: [irq:eth0]: no 'interval' key" },
        { "irq on a missing cpu", "[scenario]\ncpus=2\n" OK_TASK "[irq:eth0]\ncpu=2\ninterval=1ms\nhandler=20us\n",
          "bad.scn:6: [irq:eth0] cpu: '2' is out of range" },
        { "irq storm", "[scenario]\n" OK_TASK "[irq:eth0]\ninterval=exp(100ns)\nhandler=20us\n",
          "[irq:eth0] interval: mean below 1us" },
        { "irq bad handler", "[scenario]\n" OK_TASK "[irq:eth0]\ninterval=1ms\nhandler=20\n",
          "[irq:eth0] handler: '20': missing unit" },
        { "irq number twice", "[scenario]\n" OK_TASK "[irq:a]\nnumber=19\ninterval=1ms\nhandler=1us\n"
          "[irq:b]\nnumber=19\ninterval=1ms\nhandler=1us\n", "[irq:b] number: IRQ 19 is also [irq:a]'s" },
};

START_TEST(each_error_class_is_located)
{
        const struct bad_case *c = &bad_cases[_i];
        g_autofree char *msg = scenario_error_of(c->text);

        ck_assert_msg(msg != NULL, "%s: loaded, expected an error", c->name);
        ck_assert_msg(strstr(msg, c->expect) != NULL, "%s: got \"%s\", expected \"%s\"", c->name, msg,
                      c->expect);
}
END_TEST

START_TEST(defaults_match_the_docs)
{
        GError *e = NULL;
        g_autoptr(RcbScenario) sc = scenario_load_data("[scenario]\n" OK_TASK, "x.scn", NULL, &e);

        ck_assert_ptr_nonnull(sc);
        ck_assert_int_eq(sc->ncpus, 1);
        ck_assert_int_eq(sc->tick_hz, 0);          /* the kernel generation's */
        ck_assert_ptr_null(sc->kernel);
        ck_assert(!sc->rt_runtime_set && !sc->timer_softirq_set && !sc->rcuc_sched_set);
        ck_assert_int_eq(sc->nohz_idle, -1);
        ck_assert_int_eq(sc->rt_wakeup, -1);
        ck_assert_int_eq(sc->duration_ns, 10 * NSEC_PER_SEC);
        ck_assert_int_eq(sc->seed, 1);
        ck_assert_str_eq(sc->policy, "none");
        ck_assert_int_eq(sc->rr_timeslice_ns, 100 * NSEC_PER_MSEC);
        ck_assert_int_eq(sc->memory_limit_bytes, 0);
        ck_assert(sc->stop_on_oom);
        ck_assert_int_eq(sc->callback_sched.policy, SCHED_POLICY_FIFO);
        ck_assert_int_eq(sc->callback_sched.value, 50);
        ck_assert_int_eq(sc->cost_ns[COST_CONTEXT_SWITCH], 1000);
        ck_assert_int_eq(sc->memory_sample_ns, NSEC_PER_MSEC);
}
END_TEST

/* One table declares each generation (kernel.c); the flavour picks it, a
 * [scenario] kernel overrides, and every key of its own wins over both. */
START_TEST(kernel_generations_declare_their_environments)
{
        static const struct {
                const char *text, *flavour;
                const char *generation, *timer;
                int hz, timer_prio;
                bool nohz;
                sim_time_ns rt_runtime;
                enum rt_wakeup wakeup;
        } cases[] = {
                { "", "rcupreempt", "2.6.22-rt", "sirq-timer/%d", 1000, 50, false, -1, RT_WAKEUP_LAST_CPU },
                { "", "tree", "6.1-rt", "ktimers/%d", 250, 1, true, 950 * NSEC_PER_MSEC, RT_WAKEUP_FIND_LOWEST },
                { "kernel=2.6.22-rt\n", "tree", "2.6.22-rt", "sirq-timer/%d", 1000, 50, false, -1, RT_WAKEUP_LAST_CPU },
                { "tick_hz=1000\nnohz_idle=false\n[sched]\nrt_runtime=off\ntimer_softirq_thread=fifo:2\n"
                  "rt_wakeup=last-cpu\n", "tree", "6.1-rt", "ktimers/%d", 1000, 2, false, -1, RT_WAKEUP_LAST_CPU },
                /* rcupreempt's CPUs keep their ticks whatever the generation */
                { "kernel=6.1-rt\n", "rcupreempt", "6.1-rt", "ktimers/%d", 250, 1, false, 950 * NSEC_PER_MSEC,
                  RT_WAKEUP_FIND_LOWEST },
        };

        for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
                GError *e = NULL;
                g_autofree char *text = g_strdup_printf("[scenario]\n%s" OK_TASK, cases[i].text);
                g_autoptr(RcbScenario) sc = scenario_load_data(text, "x.scn", NULL, &e);
                struct kernel_env env;

                ck_assert_msg(sc != NULL, "%s", e ? e->message : "");
                ck_assert(kernel_env_resolve(sc, cases[i].flavour, &env, &e));
                ck_assert_str_eq(env.generation, cases[i].generation);
                ck_assert_str_eq(env.timer_thread_name, cases[i].timer);
                ck_assert_int_eq(env.tick_hz, cases[i].hz);
                ck_assert_int_eq(env.timer_thread.policy, SCHED_POLICY_FIFO);
                ck_assert_int_eq(env.timer_thread.value, cases[i].timer_prio);
                ck_assert_int_eq(env.nohz_idle, cases[i].nohz);
                ck_assert_int_eq(env.rt_runtime_ns, cases[i].rt_runtime);
                ck_assert_int_eq(env.rt_wakeup, cases[i].wakeup);
        }
        /* a kernel chooses the flavour of a scenario that names none */
        g_autoptr(RcbScenario) k61 = scenario_load_data("[scenario]\nkernel=6.1-rt\n" OK_TASK, "x.scn", NULL, NULL);
        ck_assert_str_eq(kernel_default_flavour(k61), "tree");
        /* nohz_idle is refused on rcupreempt; an rt_period under 6.1-rt's runtime too */
        g_autoptr(RcbScenario) bad = scenario_load_data("[scenario]\nnohz_idle=true\n[sched]\nrt_period=500ms\n" OK_TASK,
                                                        "x.scn", NULL, NULL);
        struct kernel_env env;
        GError *e = NULL;

        ck_assert(!kernel_env_resolve(bad, "rcupreempt", &env, &e));
        ck_assert_msg(strstr(e->message, "[scenario] nohz_idle: needs [rcu] flavour=tree"), "%s", e->message);
        g_clear_error(&e);
        ck_assert(!kernel_env_resolve(bad, "tree", &env, &e));
        ck_assert_msg(strstr(e->message, "[sched] rt_period: shorter than 6.1-rt's rt_runtime"), "%s", e->message);
        g_clear_error(&e);
}
END_TEST

/* #58: affinity=each:LIST pins copy i to the (i mod n)-th CPU of the list:
 * three data-plane threads one per CPU 1..3, in one section; plain each
 * goes round all the CPUs as it always did. */
START_TEST(affinity_each_takes_a_cpu_list)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(RcbScenario) sc = scenario_load_data("[scenario]\ncpus=4\n[task:dp]\ncount=4\naffinity=each:1-3\n"
                                                       "program=compute 1ms\n[task:all]\ncount=5\naffinity=each\n"
                                                       "program=compute 1ms\n", "x.scn", NULL, &e);

        ck_assert_msg(sc, "%s", e ? e->message : "");
        const struct task_spec *dp = g_ptr_array_index(sc->tasks, 0), *all = g_ptr_array_index(sc->tasks, 1);

        ck_assert(dp->affinity_each && all->affinity_each);
        ck_assert_int_eq(scenario_each_cpu(dp, 4, 0), 1);
        ck_assert_int_eq(scenario_each_cpu(dp, 4, 1), 2);
        ck_assert_int_eq(scenario_each_cpu(dp, 4, 2), 3);
        ck_assert_int_eq(scenario_each_cpu(dp, 4, 3), 1);
        for (int k = 0; k < 5; k++)
                ck_assert_int_eq(scenario_each_cpu(all, 4, k), k % 4);
        g_clear_pointer(&sc, scenario_free);
        sc = scenario_load_data("[scenario]\ncpus=2\n[task:dp]\ncount=2\naffinity=each:1-3\nprogram=compute 1ms\n",
                                "bad.scn", NULL, &e);
        ck_assert_ptr_null(sc);
        ck_assert_msg(strstr(e->message, "bad.scn:5: [task:dp] affinity:") && strstr(e->message, "CPU 3 does not exist"),
                      "%s", e->message);
}
END_TEST

/* #59 (7): a start_in task its waker can never wake is warned of. */
START_TEST(a_start_in_that_can_never_come_is_warned_of)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(RcbScenario) sc = scenario_load_data("[scenario]\nduration=1s\n[task:a]\nstop=100ms\n"
                                                       "program=loop { rcu_read_lock; compute 1ms; rcu_read_unlock }\n"
                                                       "[task:b]\nstart=200ms\nstart_in=a\nprogram=compute 1ms\n",
                                                       "x.scn", NULL, &e);

        ck_assert_msg(sc, "%s", e ? e->message : "");
        ck_assert_int_eq(sc->warnings->len, 1);
        ck_assert_str_eq(g_ptr_array_index(sc->warnings, 0),
                         "x.scn:8: [task:b] start_in: 'a' can never wake it: it stops before this task's start");
}
END_TEST

START_TEST(values_parse_with_units)
{
        GError *e = NULL;
        g_autoptr(RcbScenario) sc = scenario_load_data(
                "[scenario]\ncpus=8\nduration=1.5s\n[rcu]\nmemory_limit=4KiB\ncallback_thread=rr:49\n"
                "[mutex:m]\n[task:t]\nsched=normal:-5\naffinity=1,3-4\ncount=3\nstart=250us\n"
                "program=repeat 3 { lock m; compute uniform(1us, 2us); unlock m }; call_rcu 2MiB\n",
                "x.scn", NULL, &e);
        const struct task_spec *ts;

        ck_assert_msg(sc != NULL, "%s", e ? e->message : "");
        ck_assert_int_eq(sc->duration_ns, 1500 * NSEC_PER_MSEC);
        ck_assert_int_eq(sc->memory_limit_bytes, 4096);
        ck_assert_int_eq(sc->callback_sched.policy, SCHED_POLICY_RR);
        ts = g_ptr_array_index(sc->tasks, 0);
        ck_assert_int_eq(ts->count, 3);
        ck_assert_int_eq(ts->start_ns, 250000);
        ck_assert_int_eq(sched_spec_prio(&ts->sched), PRIO_NICE_0 - 5);
        ck_assert(!cpumask_test(&ts->affinity, 0) && cpumask_test(&ts->affinity, 1));
        ck_assert(!cpumask_test(&ts->affinity, 2) && cpumask_test(&ts->affinity, 3));
        ck_assert(cpumask_test(&ts->affinity, 4) && !cpumask_test(&ts->affinity, 5));
        ck_assert_int_eq(ts->program->code[0].op, OP_REPEAT);
        ck_assert_int_eq(ts->program->code[0].arg, 3);
        {
                /* #48: rt:P, as rcuboost writes a priority, reads back as fifo:P */
                struct sched_spec rt, fifo;

                ck_assert(units_parse_sched("rt:10", &rt, NULL) && units_parse_sched("fifo:10", &fifo, NULL));
                ck_assert(rt.policy == fifo.policy && rt.value == fifo.value);
                ck_assert(!units_parse_sched("rt:100", &rt, NULL) && !units_parse_sched("rt", &rt, NULL));
        }
}
END_TEST

START_TEST(set_overrides_are_applied_and_located)
{
        GError *e = NULL;
        const char *good[] = { "scenario.cpus=4", "rcu.memory_limit=1MiB", NULL };
        const char *bad[] = { "scenario.cpus=zero", NULL };
        const char *malformed[] = { "cpus=4", NULL };
        g_autoptr(RcbScenario) sc = scenario_load_data("[scenario]\n" OK_TASK, "x.scn", good, &e);
        struct scenario *none;

        ck_assert_ptr_nonnull(sc);
        ck_assert_int_eq(sc->ncpus, 4);
        ck_assert_int_eq(sc->memory_limit_bytes, 1 << 20);
        none = scenario_load_data("[scenario]\n" OK_TASK, "x.scn", bad, &e);
        ck_assert_ptr_null(none);
        ck_assert_msg(strstr(e->message, "--set scenario.cpus: 'zero'") != NULL, "%s", e->message);
        g_clear_error(&e);
        none = scenario_load_data("[scenario]\n" OK_TASK, "x.scn", malformed, &e);
        ck_assert_ptr_null(none);
        ck_assert_ptr_nonnull(strstr(e->message, "expected SECTION.KEY=VALUE"));
        g_clear_error(&e);
        /* a misspelt task is not a new task without a program */
        none = scenario_load_data("[scenario]\n" OK_TASK "[task:hog]\nprogram=compute 1s\n", "x.scn",
                                  (const char *[]){ "task:hogg.start=2s", NULL }, &e);
        ck_assert_ptr_null(none);
        ck_assert_msg(strstr(e->message, "--set task:hogg.start=2s: the scenario has no [task:hogg] "
                                         "(task sections: t, hog)") != NULL, "%s", e->message);
        g_clear_error(&e);
}
END_TEST

START_TEST(files_that_are_not_scenarios)
{
        GError *e = NULL;
        struct scenario *sc = scenario_load("/nonexistent/x.scn", NULL, &e);

        ck_assert_ptr_null(sc);
        ck_assert_ptr_nonnull(strstr(e->message, "/nonexistent/x.scn: cannot read"));
        g_clear_error(&e);
        sc = scenario_load("/tmp", NULL, &e);
        ck_assert_ptr_null(sc);
        ck_assert_ptr_nonnull(strstr(e->message, "not a regular file"));
        g_clear_error(&e);
}
END_TEST

START_TEST(shipped_scenarios_load)
{
        const char *dir = g_getenv("RCUBOOST_SRCDIR");
        g_autofree char *path = NULL;
        GDir *d;
        const char *name;
        int n = 0;

        ck_assert_ptr_nonnull(dir);
        path = g_build_filename(dir, "scenarios", NULL);
        d = g_dir_open(path, 0, NULL);
        ck_assert_ptr_nonnull(d);
        while ((name = g_dir_read_name(d))) {
                g_autofree char *file = g_build_filename(path, name, NULL);
                GError *e = NULL;
                struct scenario *sc;

                if (!g_str_has_suffix(name, ".scn"))
                        continue;
                sc = scenario_load(file, NULL, &e);
                ck_assert_msg(sc != NULL, "%s", e ? e->message : "");
                scenario_free(sc);
                n++;
        }
        g_dir_close(d);
        ck_assert_int_ge(n, 2);
}
END_TEST

START_TEST(distributions_draw_what_they_say)
{
        static const struct { const char *text; double mean, tolerance; } cases[] = {
                { "1ms", 1e6, 0 }, { "exp(1ms)", 1e6, 0.03 }, { "uniform(1ms,3ms)", 2e6, 0.02 },
                { "normal(1ms,100us)", 1e6, 0.01 }, { "lognormal(1ms,0.5)", 1e6 * 1.1331, 0.03 },
                { "pareto(3,1ms)", 1.5e6, 0.05 },
        };
        gsl_rng *rng = dist_rng_new(1, "t");

        for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
                struct dist d;
                double sum = 0;
                int64_t min = INT64_MAX;

                ck_assert(dist_parse(cases[i].text, DIST_UNIT_DURATION, &d, NULL));
                ck_assert_msg(fabs(dist_mean(&d) - cases[i].mean) < 1e-3 * cases[i].mean, "%s", cases[i].text);
                for (int k = 0; k < 20000; k++) {
                        int64_t v = dist_sample(&d, rng);

                        sum += (double)v;
                        min = MIN(min, v);
                }
                ck_assert_msg(fabs(sum / 20000 - cases[i].mean) <= cases[i].tolerance * cases[i].mean + 1,
                              "%s: mean %.0f", cases[i].text, sum / 20000);
                ck_assert_int_ge(min, 0);
        }
        gsl_rng_free(rng);
}
END_TEST

/* Draws become nanoseconds by units_round_nonneg(): it must round as
 * llround() does, or every result would move. */
START_TEST(draws_round_as_llround)
{
        static const double edges[] = {
                0, 0.49999999999999994, 0.5, 1.5, 2.5, 0x1.fffffffffffffp51, 0x1p52, 0x1p52 + 1,
                0x1p53 - 1, 4503599627370495.5, 1e15 + 0.5, (double)UNITS_VALUE_MAX,
        };
        gsl_rng *rng = dist_rng_new(3, "round");

        for (size_t i = 0; i < G_N_ELEMENTS(edges); i++)
                ck_assert_msg(units_round_nonneg(edges[i]) == llround(edges[i]), "%a", edges[i]);
        for (int k = 0; k < 200000; k++) {
                /* Every binade from 2^-4 to 2^61, and the halves between integers. */
                double v = ldexp(1 + gsl_rng_uniform(rng), k % 65 - 4);
                double half = floor(v) + 0.5;

                ck_assert_msg(units_round_nonneg(v) == llround(v), "%a", v);
                if (half <= (double)UNITS_VALUE_MAX)
                        ck_assert_msg(units_round_nonneg(half) == llround(half), "%a", half);
        }
        gsl_rng_free(rng);
}
END_TEST

/* GSL's own exponential draw, rounded as dist_sample() documents. */
static int64_t gsl_exponential_units(gsl_rng *rng, double mu)
{
        double v = gsl_ran_exponential(rng, mu);

        if (!(v > 0))
                return 0;
        return v > (double)UNITS_VALUE_MAX ? UNITS_VALUE_MAX : llround(v);
}

/* A generator that returns the u it is given: the state is that double
 * (0 until the test sets it). */
static void given_u_set(void *state, unsigned long seed)
{
        *(double *)state = 0;
}
static unsigned long given_u_get(void *state)
{
        return (unsigned long)(*(double *)state * 4294967296.0);
}
static double given_u_get_double(void *state)
{
        return *(double *)state;
}
static const gsl_rng_type given_u_type = {
        "given-u", 0xffffffffUL, 0, sizeof(double), given_u_set, given_u_get, given_u_get_double,
};

/* dist_sample() draws exp() with log(1 - u) instead of GSL's log1p(-u) and
 * falls back to GSL's formula near a rounding edge: every draw must still
 * be GSL's, with the stream advanced by exactly one uniform per draw. */
START_TEST(exponential_draws_are_gsls)
{
        gsl_rng *ours = dist_rng_new(11, "exp"), *gsls = dist_rng_new(11, "exp");
        gsl_rng *given = gsl_rng_alloc(&given_u_type);
        int edges = 0;

        /* Real streams, means from 1 ns to 10^15 ns and the cap beyond. */
        for (int k = 0; k < 400000; k++) {
                double mu = ldexp(1 + (k % 7) / 7.0, k % 64);
                struct dist d = { .kind = DIST_EXP, .a = mu };

                ck_assert_int_eq(dist_sample(&d, ours), gsl_exponential_units(gsls, mu));
        }
        ck_assert_uint_eq(gsl_rng_get(ours), gsl_rng_get(gsls));

        /* Hand-made edges: for u where log() and log1p() differ, the means
         * that put one product on either side of k + 0.5 ns. */
        for (uint32_t i = 1; i < 200000 && edges < 50; i++) {
                double u = (double)(i * 2654435761u) / 4294967296.0;
                double l1 = -log1p(-u), l2 = -log(1 - u);

                if (l1 == l2)
                        continue;
                for (double half = 0.5; half < 1e9; half = half * 10 + 0.5) {
                        double mu = half / l1;

                        for (int step = 0; step < 8; step++, mu = nextafter(mu, 0)) {
                                struct dist d = { .kind = DIST_EXP, .a = mu };

                                if (llround(mu * l1) == llround(mu * l2))
                                        continue;
                                edges++;
                                *(double *)given->state = u;
                                ck_assert_int_eq(dist_sample(&d, given), gsl_exponential_units(given, mu));
                        }
                }
        }
        ck_assert_int_gt(edges, 0);
        gsl_rng_free(given);
        gsl_rng_free(ours);
        gsl_rng_free(gsls);
}
END_TEST

START_TEST(streams_depend_on_seed_and_name_only)
{
        gsl_rng *a = dist_rng_new(7, "reader.0"), *b = dist_rng_new(7, "reader.0");
        gsl_rng *c = dist_rng_new(7, "reader.1"), *d = dist_rng_new(8, "reader.0");
        unsigned long x = gsl_rng_get(a);

        ck_assert_uint_eq(x, gsl_rng_get(b));
        ck_assert_uint_ne(x, gsl_rng_get(c));
        ck_assert_uint_ne(x, gsl_rng_get(d));
        gsl_rng_free(a);
        gsl_rng_free(b);
        gsl_rng_free(c);
        gsl_rng_free(d);
}
END_TEST

/* Every built-in policy's keys pass the check a module's must (#38), and
 * an enum key takes exactly its choices. */
START_TEST(policy_keys_are_well_formed)
{
        int index = -1;
        GError *e = NULL;

        for (const struct boost_policy_ops *const *p = policy_registry; *p; p++) {
                ck_assert_msg(policy_keys_check(*p, &e), "%s: %s", (*p)->name, e ? e->message : "");
        }
        ck_assert(units_parse_choice("kthread", "timer|kthread", &index, NULL) && index == 1);
        ck_assert(!units_parse_choice("Timer", "timer|kthread", &index, &e));
        ck_assert_str_eq(e->message, "'Timer' is not one of timer, kthread");
        g_clear_error(&e);
        ck_assert(!units_parse_choice("", "timer|kthread", &index, NULL));
}
END_TEST

static Suite *scenario_suite(void)
{
        Suite *s = suite_create("scenario");
        TCase *errors = tcase_create("errors");
        TCase *values = tcase_create("values");

        tcase_add_loop_test(errors, each_error_class_is_located, 0, G_N_ELEMENTS(bad_cases));
        tcase_add_test(errors, files_that_are_not_scenarios);
        tcase_add_test(values, defaults_match_the_docs);
        tcase_add_test(values, affinity_each_takes_a_cpu_list);
        tcase_add_test(values, a_start_in_that_can_never_come_is_warned_of);
        tcase_add_test(values, kernel_generations_declare_their_environments);
        tcase_add_test(values, values_parse_with_units);
        tcase_add_test(values, set_overrides_are_applied_and_located);
        tcase_add_test(values, shipped_scenarios_load);
        tcase_add_test(values, distributions_draw_what_they_say);
        tcase_add_test(values, draws_round_as_llround);
        tcase_add_test(values, exponential_draws_are_gsls);
        tcase_add_test(values, streams_depend_on_seed_and_name_only);
        tcase_add_test(values, policy_keys_are_well_formed);
        suite_add_tcase(s, errors);
        suite_add_tcase(s, values);
        return s;
}

int main(void)
{
        return run_suite(scenario_suite());
}
