// SPDX-License-Identifier: GPL-2.0
/*
 * rcuboost_kmod.c - run an rcuboost scenario's tasks on a real kernel.
 *
 * scripts/kernel-run boots Debian 12's PREEMPT_RT 6.1 kernel under QEMU with
 * this module and the scenario as `rcuboost kernel-program` writes it
 * (src/cli/kernelprog.c).  /init writes the program to /proc/rcuboost and
 * then "go"; each task becomes a kthread with the scenario's class,
 * priority and affinity that interprets its compiled program exactly as
 * the simulator's task.c does:
 *
 *   compute Q        burn CPU time Q, preemptibly: the scheduler's own count
 *                    of the task's runtime (se.sum_exec_runtime) decides
 *   sleep Q          an hrtimer sleep (schedule_hrtimeout())
 *   rcu_read_lock/unlock, synchronize_rcu   the kernel's own
 *   call_rcu S       call_rcu() of a small record that counts S bytes as
 *                    waiting until its callback runs (nothing of size S
 *                    is allocated: memory waiting on RCU is accounted)
 *   lock/unlock M    an rt_mutex per [mutex:M]
 *   loop / repeat    the compiled jumps and counters
 *   [task] period    the program once per release, each release's wake-up
 *                    latency noted (cyclictest's measure)
 *   [event:NAME]     at its time, the controller (FIFO 99) gives the task's
 *                    copies a new class and/or affinity
 *
 * A hard hrtimer samples, every [output] memory_sample, the bytes waiting
 * and rcu_get_gp_seq() (exported, not declared in the headers; RCU_TRACE is
 * off in Debian's kernel, so the rcu tracepoints are no-ops): grace-period
 * boundaries are known to one sample.  Results are read from /proc/rcuboost
 * once the run is over.
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/rcupdate.h>
#include <linux/rtmutex.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <uapi/linux/sched/types.h>

#include "rcuboost_draw.h"
#include "rcuboost_limits.h"

#define CREATE_TRACE_POINTS
#include "rcuboost_trace.h"

extern unsigned long rcu_get_gp_seq(void);
/* kernel/rcu/tree.c, exported for rcutorture and declared in kernel/rcu/rcu.h */
extern void rcu_force_quiescent_state(void);

#define MAX_TASKS       RCUBOOST_MAX_TASKS
#define MAX_INSNS       RCUBOOST_MAX_INSNS
#define MAX_SLOTS       RCUBOOST_MAX_SLOTS
#define MAX_MUTEXES     RCUBOOST_MAX_MUTEXES
#define MAX_SAMPLES     200000
#define PROGRAM_MAX     (1 << 20)

/* program.h's enum program_op, as exported */
enum { OP_COMPUTE, OP_SLEEP, OP_LOCK, OP_UNLOCK, OP_RCU_LOCK, OP_RCU_UNLOCK, OP_CALL_RCU, OP_SYNC_RCU,
       OP_REPEAT, OP_REPEAT_END, OP_JUMP, OP_END };

struct insn {
        int op, arg, target, slot;
        struct rcuboost_dist q;         /* the quantity: a duration or a size */
};

struct rtask {
        char name[TASK_COMM_LEN];
        int policy;                     /* SCHED_FIFO, SCHED_RR, SCHED_NORMAL */
        int value;                      /* RT priority or nice */
        s64 start_ns, stop_ns;          /* stop < 0: never */
        int start_in;                   /* start_in=: the task whose section wakes it, or -1 */
        bool woken;                     /* ... and it has */
        bool wakes_others;              /* some task's start_in names this one */
        u64 mask;
        int ninsn;
        struct insn *code;
        int counters[MAX_SLOTS];
        u64 rng;
        struct task_struct *thread;
        u64 readers, syncs;
        /* what it achieved, for the guest's pace against the model's
         * (kernel-run-collect): loop iterations (a jump back, or a
         * release), call_rcu()s, CPU time */
        u64 iterations, call_rcus;
        /* periodic ([task] period): wake-up latency of each release, as cyclictest */
        s64 period_ns, release_ns;
        u64 activations, overruns;
        s64 lat_max_ns, lat_sum_ns;
};

struct sample {
        s64 t_ns;
        s64 bytes;
        unsigned long gp_seq;
};

struct rcb {
        struct rcu_head head;
        s64 bytes;
        ktime_t queued;
};

/* [event:NAME]: at at_ns, every copy of a task gets a new class and/or affinity. */
struct revent {
        s64 at_ns;
        char task[64];
        char policy[8];                 /* "-": the class stays */
        int value;
        u64 mask;                       /* 0: the affinity stays */
};

#define MAX_EVENTS      RCUBOOST_MAX_EVENTS

static struct {
        int nmutexes, ntasks, nevents;
        struct revent events[MAX_EVENTS];
        s64 duration_ns, memory_limit, sample_ns;
        bool stop_on_oom;
        u64 seed;
        char timer_policy[8];
        int timer_prio;
        struct rtask tasks[MAX_TASKS];
        struct rt_mutex mutexes[MAX_MUTEXES];
} sc;

static char *program_text;
static size_t program_len;
static DEFINE_MUTEX(proc_lock);

static ktime_t t0;
static atomic_t running = ATOMIC_INIT(0);
static bool started, done, stopping;
static atomic64_t waiting_bytes = ATOMIC64_INIT(0);
static atomic64_t peak_bytes = ATOMIC64_INIT(0);
static atomic64_t registered = ATOMIC64_INIT(0), invoked = ATOMIC64_INIT(0);
static atomic64_t cb_max_ns = ATOMIC64_INIT(0), sync_max_ns = ATOMIC64_INIT(0);
static s64 oom_ns = -1, end_ns;
static struct sample *samples;
static int nsamples;
static struct hrtimer sampler;
static DECLARE_WAIT_QUEUE_HEAD(done_wq);
static struct task_struct *controller;

static s64 now_ns(void)
{
        return ktime_to_ns(ktime_sub(ktime_get(), t0));
}

static void atomic64_max(atomic64_t *v, s64 x)
{
        s64 old = atomic64_read(v);

        while (x > old) {
                s64 seen = atomic64_cmpxchg(v, old, x);

                if (seen == old)
                        break;
                old = seen;
        }
}

/* ---- distributions: rcuboost_draw.h, integer-only (no FPU in the kernel) ---- */

static s64 draw(struct rtask *t, const struct insn *in)
{
        return rcuboost_draw(&in->q, &t->rng);
}

/* ---- what tasks do ---- */

static bool time_to_stop(const struct rtask *t)
{
        return READ_ONCE(stopping) || kthread_should_stop() || (t->stop_ns >= 0 && now_ns() >= t->stop_ns);
}

/* The CPU time this task has run, as the scheduler counts it: what
 * update_curr() has added, plus the time since it last did (exec_start is
 * on the same sched_clock as local_clock(); read with interrupts off so the
 * tick's update_curr() cannot come between the two reads). */
static u64 cpu_time_ns(void)
{
        unsigned long flags;
        u64 sum, start, now;

        local_irq_save(flags);
        sum = current->se.sum_exec_runtime;
        start = current->se.exec_start;
        now = local_clock();
        local_irq_restore(flags);
        return sum + (now > start ? now - start : 0);
}

/* compute: until this task has had @ns of CPU, however often it is
 * preempted meanwhile. */
static void burn(struct rtask *t, s64 ns)
{
        u64 end = cpu_time_ns() + ns;

        while (cpu_time_ns() < end && !READ_ONCE(stopping))
                cpu_relax();
}

static void sleep_until(s64 at_ns)
{
        ktime_t kt = ktime_add_ns(t0, at_ns);

        set_current_state(TASK_UNINTERRUPTIBLE);
        schedule_hrtimeout(&kt, HRTIMER_MODE_ABS);
}

static void rcb_invoke(struct rcu_head *h)
{
        struct rcb *c = container_of(h, struct rcb, head);

        atomic64_sub(c->bytes, &waiting_bytes);
        atomic64_inc(&invoked);
        atomic64_max(&cb_max_ns, ktime_to_ns(ktime_sub(ktime_get(), c->queued)));
        kfree(c);
}

static void do_call_rcu(s64 bytes)
{
        struct rcb *c = kmalloc(sizeof(*c), GFP_KERNEL);
        s64 w;

        if (!c)
                return;
        c->bytes = bytes;
        c->queued = ktime_get();
        w = atomic64_add_return(bytes, &waiting_bytes);
        atomic64_max(&peak_bytes, w);
        atomic64_inc(&registered);
        call_rcu(&c->head, rcb_invoke);
        if (sc.memory_limit && w >= sc.memory_limit && cmpxchg(&oom_ns, -1, now_ns()) == -1 && sc.stop_on_oom) {
                WRITE_ONCE(stopping, true);
                wake_up_process(controller);
        }
}

/* Woken for a release: how late, as cyclictest measures it. */
static void note_release(struct rtask *t)
{
        s64 late = now_ns() - t->release_ns;

        t->activations++;
        t->lat_sum_ns += late;
        if (late > t->lat_max_ns)
                t->lat_max_ns = late;
}

/* start_in=: the first read-side section this task enters at or after
 * their start wakes them, from inside it (after rcu_read_lock(), so a more
 * urgent task on this CPU preempts the reader in its section).  The
 * simulator's task.c wake_from_section() does the same. */
static void wake_from_section(struct rtask *t)
{
        s64 now = now_ns();
        bool left = false;
        int i;

        for (i = 0; i < sc.ntasks; i++) {
                struct rtask *w = &sc.tasks[i];

                if (w->start_in != t - sc.tasks || READ_ONCE(w->woken))
                        continue;
                if (now < w->start_ns) {
                        left = true;
                        continue;
                }
                WRITE_ONCE(w->woken, true);
                wake_up_process(w->thread);
        }
        t->wakes_others = left;
}

static void wait_for_section(struct rtask *t)
{
        for (;;) {
                set_current_state(TASK_INTERRUPTIBLE);
                if (READ_ONCE(t->woken) || time_to_stop(t))
                        break;
                schedule();
        }
        __set_current_state(TASK_RUNNING);
}

static int task_fn(void *data)
{
        struct rtask *t = data;
        int pc = 0, nesting = 0, held[MAX_MUTEXES] = { 0 };

        t->release_ns = t->start_ns;
        if (t->start_in >= 0)
                wait_for_section(t);    /* never periodic: release_ns is unused */
        else
                sleep_until(t->start_ns);
        if (t->period_ns)
                note_release(t);
        while (pc < t->ninsn && !time_to_stop(t)) {
                const struct insn *in = &t->code[pc];
                ktime_t s;

                switch (in->op) {
                case OP_COMPUTE:
                        burn(t, draw(t, in));
                        pc++;
                        break;
                case OP_SLEEP:
                        sleep_until(now_ns() + draw(t, in));
                        pc++;
                        break;
                case OP_LOCK:
                        rt_mutex_lock(&sc.mutexes[in->arg]);
                        held[in->arg] = 1;
                        pc++;
                        break;
                case OP_UNLOCK:
                        held[in->arg] = 0;
                        rt_mutex_unlock(&sc.mutexes[in->arg]);
                        pc++;
                        break;
                case OP_RCU_LOCK:
                        if (nesting++ == 0) {
                                t->readers++;
                                trace_rcuboost_read_section(1);
                        }
                        rcu_read_lock();
                        if (t->wakes_others && nesting == 1)
                                wake_from_section(t);
                        pc++;
                        break;
                case OP_RCU_UNLOCK:
                        rcu_read_unlock();
                        if (--nesting == 0)
                                trace_rcuboost_read_section(0);
                        pc++;
                        break;
                case OP_CALL_RCU:
                        do_call_rcu(draw(t, in));
                        t->call_rcus++;
                        pc++;
                        break;
                case OP_SYNC_RCU:
                        s = ktime_get();
                        synchronize_rcu();
                        t->syncs++;
                        atomic64_max(&sync_max_ns, ktime_to_ns(ktime_sub(ktime_get(), s)));
                        pc++;
                        break;
                case OP_REPEAT:
                        t->counters[in->slot] = in->arg;
                        pc++;
                        break;
                case OP_REPEAT_END:
                        pc = --t->counters[in->slot] > 0 ? in->target + 1 : pc + 1;
                        break;
                case OP_JUMP:
                        t->iterations += in->target < pc;
                        pc = in->target;
                        break;
                case OP_END:
                        if (!t->period_ns) {
                                pc = t->ninsn;
                                break;
                        }
                        /* the next release; one already past is an overrun, run at once */
                        t->iterations++;
                        t->release_ns += t->period_ns;
                        if (t->release_ns > now_ns()) {
                                sleep_until(t->release_ns);
                                note_release(t);
                        } else {
                                t->overruns++;
                        }
                        pc = 0;
                        break;
                default:
                        pc = t->ninsn;
                        break;
                }
        }
        /* stopped mid-program: leave no section or mutex behind */
        while (nesting-- > 0)
                rcu_read_unlock();
        for (pc = 0; pc < sc.nmutexes; pc++)
                if (held[pc])
                        rt_mutex_unlock(&sc.mutexes[pc]);
        if (atomic_dec_and_test(&running))
                wake_up(&done_wq);
        while (!kthread_should_stop()) {
                set_current_state(TASK_INTERRUPTIBLE);
                schedule();
        }
        __set_current_state(TASK_RUNNING);
        return 0;
}

/* ---- setting a thread's class ---- */

static int set_sched(struct task_struct *p, const char *policy, int value)
{
        struct sched_attr attr = { .size = sizeof(attr) };

        if (!strcmp(policy, "fifo") || !strcmp(policy, "rr")) {
                attr.sched_policy = policy[0] == 'f' ? SCHED_FIFO : SCHED_RR;
                attr.sched_priority = value;
        } else {
                attr.sched_policy = SCHED_NORMAL;
                attr.sched_nice = value;
        }
        return sched_setattr_nocheck(p, &attr);
}

/* rcutorture_booster_init() raises the timer threads so; a scenario may too. */
static void set_timer_threads(void)
{
        struct task_struct *g, *p, *found[64];
        int n = 0, i;

        rcu_read_lock();
        for_each_process_thread(g, p) {
                if (n < 64 && !strncmp(p->comm, "ktimers/", 8)) {
                        get_task_struct(p);
                        found[n++] = p;
                }
        }
        rcu_read_unlock();
        for (i = 0; i < n; i++) {
                set_sched(found[i], sc.timer_policy, sc.timer_prio);
                put_task_struct(found[i]);
        }
}

/* ---- sampling ---- */

static enum hrtimer_restart sample_fn(struct hrtimer *h)
{
        if (nsamples < MAX_SAMPLES) {
                samples[nsamples].t_ns = now_ns();
                samples[nsamples].bytes = atomic64_read(&waiting_bytes);
                samples[nsamples].gp_seq = rcu_get_gp_seq();
                trace_rcuboost_sample(samples[nsamples].bytes, samples[nsamples].gp_seq);
                nsamples++;
        }
        hrtimer_forward_now(h, ns_to_ktime(sc.sample_ns));
        return HRTIMER_RESTART;
}

/* ---- the run ---- */

/* A task NAME's copies are NAME and NAME.i, as kernel-program names them. */
static bool copy_of(const char *thread, const char *task)
{
        size_t n = strlen(task);

        return !strncmp(thread, task, n) && (thread[n] == '\0' || thread[n] == '.');
}

static void apply_event(const struct revent *ev)
{
        int i, c;

        for (i = 0; i < sc.ntasks; i++) {
                struct rtask *t = &sc.tasks[i];

                if (!copy_of(t->name, ev->task))
                        continue;
                if (strcmp(ev->policy, "-") != 0)
                        set_sched(t->thread, ev->policy, ev->value);
                if (ev->mask) {
                        struct cpumask mask;

                        cpumask_clear(&mask);
                        for (c = 0; c < 64 && c < nr_cpu_ids; c++)
                                if (ev->mask & (1ULL << c))
                                        cpumask_set_cpu(c, &mask);
                        set_cpus_allowed_ptr(t->thread, &mask);
                }
        }
}

static int controller_fn(void *unused)
{
        ktime_t end;
        int i, next_event = 0;

        /* above every task, so that its timed wake-ups are hard hrtimers
         * (non-RT sleepers' expire in ktimers/N on PREEMPT_RT, which a hog
         * starves) and the run ends on time */
        set_sched(current, "fifo", 99);
        set_timer_threads();
        t0 = ktime_add_ms(ktime_get(), 10);
        atomic_set(&running, sc.ntasks);
        for (i = 0; i < sc.ntasks; i++)
                wake_up_process(sc.tasks[i].thread);
        hrtimer_init(&sampler, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_HARD);
        sampler.function = sample_fn;
        hrtimer_start(&sampler, t0, HRTIMER_MODE_ABS_HARD);
        end = ktime_add_ns(t0, sc.duration_ns);
        /* Asleep but for the scenario's timed events and the end: a FIFO 99
         * thread waking on its own (it polled every 10 ms once) pushes the
         * RT tasks it preempts to the other CPU -- rcu_preempt among them,
         * and with it the CPU its FQS timer is armed on.  An early stop
         * (stop_on_oom) wakes it. */
        while (ktime_before(ktime_get(), end)) {
                ktime_t next = end;

                /* the timed events due, in order; the next one bounds the sleep */
                while (next_event < sc.nevents && now_ns() >= sc.events[next_event].at_ns)
                        apply_event(&sc.events[next_event++]);
                if (next_event < sc.nevents && ktime_after(next, ktime_add_ns(t0, sc.events[next_event].at_ns)))
                        next = ktime_add_ns(t0, sc.events[next_event].at_ns);
                set_current_state(TASK_UNINTERRUPTIBLE);
                if (READ_ONCE(stopping)) {
                        __set_current_state(TASK_RUNNING);
                        break;
                }
                schedule_hrtimeout(&next, HRTIMER_MODE_ABS);
        }
        end_ns = now_ns();
        WRITE_ONCE(stopping, true);
        for (i = 0; i < sc.ntasks; i++)         /* start_in= tasks no section woke */
                if (sc.tasks[i].start_in >= 0 && !READ_ONCE(sc.tasks[i].woken))
                        wake_up_process(sc.tasks[i].thread);
        wait_event(done_wq, atomic_read(&running) == 0);
        hrtimer_cancel(&sampler);
        WRITE_ONCE(done, true);
        wake_up_all(&done_wq);          /* the reader blocked in proc_show() */
        while (!kthread_should_stop()) {
                set_current_state(TASK_INTERRUPTIBLE);
                schedule();
        }
        __set_current_state(TASK_RUNNING);
        return 0;
}

/* ---- the program, as kernel-program wrote it ---- */

static int parse_program(void)
{
        char *text = program_text, *line;
        struct rtask *t = NULL;
        bool seen_format = false;
        int k = 0, i;

        memset(&sc, 0, sizeof(sc));
        strscpy(sc.timer_policy, "fifo", sizeof(sc.timer_policy));
        sc.timer_prio = 1;
        sc.sample_ns = NSEC_PER_MSEC;
        while ((line = strsep(&text, "\n"))) {
                char word[32], name[64], policy[8];
                long long a, b, c;
                unsigned long long mask;
                int v, n, op, arg, target, slot, dist;

                if (sscanf(line, "%31s", word) != 1)
                        continue;
                /* cpus: QEMU's -smp; the tasks' masks say the rest */
                if (!strcmp(word, "rcuboost-kernel-program")) {
                        if (sscanf(line, "rcuboost-kernel-program %d", &v) != 1 || v != RCUBOOST_PROGRAM_FORMAT)
                                return -EINVAL;
                        seen_format = true;
                } else if (!strcmp(word, "duration") && sscanf(line, "duration %lld", &a) == 1) {
                        sc.duration_ns = a;
                } else if (!strcmp(word, "memory_limit") && sscanf(line, "memory_limit %lld", &a) == 1) {
                        sc.memory_limit = a;
                } else if (!strcmp(word, "stop_on_oom") && sscanf(line, "stop_on_oom %d", &v) == 1) {
                        sc.stop_on_oom = v;
                } else if (!strcmp(word, "seed") && sscanf(line, "seed %llu", &mask) == 1) {
                        sc.seed = mask;
                } else if (!strcmp(word, "memory_sample") && sscanf(line, "memory_sample %lld", &a) == 1) {
                        sc.sample_ns = max(a, 100LL * NSEC_PER_USEC);
                } else if (!strcmp(word, "mutexes") && sscanf(line, "mutexes %d", &v) == 1) {
                        if (v < 0 || v > MAX_MUTEXES)
                                return -EINVAL;
                        sc.nmutexes = v;
                } else if (!strcmp(word, "timer_thread") &&
                           sscanf(line, "timer_thread %7s %d", policy, &v) == 2) {
                        strscpy(sc.timer_policy, policy, sizeof(sc.timer_policy));
                        sc.timer_prio = v;
                } else if (!strcmp(word, "task") &&
                           sscanf(line, "task %63s %7s %d %lld %lld %llx %d %lld", name, policy, &v, &a, &b,
                                  &mask, &n, &c) == 8) {
                        if (sc.ntasks >= MAX_TASKS || n < 1 || n > MAX_INSNS || (t && k != t->ninsn))
                                return -EINVAL;
                        t = &sc.tasks[sc.ntasks++];
                        strscpy(t->name, name, sizeof(t->name));
                        t->policy = !strcmp(policy, "fifo") ? SCHED_FIFO : !strcmp(policy, "rr") ? SCHED_RR
                                                                                                 : SCHED_NORMAL;
                        t->value = v;
                        t->start_ns = a;
                        t->stop_ns = b;
                        t->mask = mask;
                        t->ninsn = n;
                        t->period_ns = c > 0 ? c : 0;
                        t->start_in = -1;
                        t->code = kcalloc(n, sizeof(*t->code), GFP_KERNEL);
                        if (!t->code)
                                return -ENOMEM;
                        k = 0;
                } else if (!strcmp(word, "start_in") && sscanf(line, "start_in %d", &v) == 1) {
                        /* the waker is checked once every task is read */
                        if (!t || k || v < 0 || v >= MAX_TASKS)
                                return -EINVAL;
                        t->start_in = v;
                } else if (!strcmp(word, "event") &&
                           sscanf(line, "event %lld %63s %7s %d %llx", &a, name, policy, &v, &mask) == 5) {
                        struct revent *ev;

                        if (sc.nevents >= MAX_EVENTS)
                                return -EINVAL;
                        ev = &sc.events[sc.nevents++];
                        ev->at_ns = a;
                        strscpy(ev->task, name, sizeof(ev->task));
                        strscpy(ev->policy, policy, sizeof(ev->policy));
                        ev->value = v;
                        ev->mask = mask;
                } else if (!strcmp(word, "insn") &&
                           sscanf(line, "insn %d %d %d %d %d %lld %lld", &op, &arg, &target, &slot, &dist, &a,
                                  &c) == 7) {
                        if (!t || k >= t->ninsn || slot < 0 || slot >= MAX_SLOTS || target < 0 ||
                            target >= t->ninsn || ((op == OP_LOCK || op == OP_UNLOCK) &&
                                                   (arg < 0 || arg >= sc.nmutexes)))
                                return -EINVAL;
                        t->code[k++] = (struct insn){ op, arg, target, slot, { dist, a, c, NULL, NULL } };
                } else if (!strcmp(word, "quantiles")) {
                        /* the table of the instruction just read (rcuboost_draw.h) */
                        struct insn *in = t && k ? &t->code[k - 1] : NULL;
                        char *rest = line + strlen("quantiles"), *tok;
                        s64 *tab;
                        int j = 0;

                        if (!in || in->q.lower || in->q.kind < RCUBOOST_DIST_NORMAL)
                                return -EINVAL;
                        tab = kcalloc(2 * RCUBOOST_QPOINTS, sizeof(*tab), GFP_KERNEL);
                        if (!tab)
                                return -ENOMEM;
                        in->q.lower = tab;
                        in->q.upper = tab + RCUBOOST_QPOINTS;
                        while ((tok = strsep(&rest, " ")))
                                if (*tok && (j >= 2 * RCUBOOST_QPOINTS || kstrtoll(tok, 10, &tab[j++])))
                                        return -EINVAL;
                        if (j != 2 * RCUBOOST_QPOINTS)
                                return -EINVAL;
                }
        }
        if (!seen_format || !sc.ntasks || !t || k != t->ninsn || sc.duration_ns <= 0)
                return -EINVAL;
        for (i = 0; i < sc.ntasks; i++) {
                struct rtask *w = &sc.tasks[i];

                if (w->start_in < 0)
                        continue;
                if (w->start_in >= sc.ntasks || w->start_in == i || w->period_ns)
                        return -EINVAL;
                sc.tasks[w->start_in].wakes_others = true;
        }
        for (i = 0; i < sc.ntasks; i++)
                for (k = 0; k < sc.tasks[i].ninsn; k++)
                        if (sc.tasks[i].code[k].q.kind >= RCUBOOST_DIST_NORMAL && !sc.tasks[i].code[k].q.lower)
                                return -EINVAL;         /* a table kind without its table */
        for (i = 0; i < sc.nmutexes; i++)
                rt_mutex_init(&sc.mutexes[i]);
        return 0;
}

static int create_tasks(void)
{
        int i, c;

        for (i = 0; i < sc.ntasks; i++) {
                struct rtask *t = &sc.tasks[i];
                struct cpumask mask;

                cpumask_clear(&mask);
                for (c = 0; c < 64 && c < nr_cpu_ids; c++)
                        if (t->mask & (1ULL << c))
                                cpumask_set_cpu(c, &mask);
                if (cpumask_empty(&mask))
                        return -EINVAL;
                t->rng = (sc.seed + 1) * 0x9E3779B97F4A7C15ULL ^ (u64)(i + 1) * 0xD1B54A32D192ED03ULL;
                if (!t->rng)
                        t->rng = 1;
                t->thread = kthread_create(task_fn, t, "%s", t->name);
                if (IS_ERR(t->thread)) {
                        int err = PTR_ERR(t->thread);

                        t->thread = NULL;
                        return err;
                }
                get_task_struct(t->thread);
                set_cpus_allowed_ptr(t->thread, &mask);
                set_sched(t->thread, t->policy == SCHED_FIFO ? "fifo" : t->policy == SCHED_RR ? "rr" : "normal",
                          t->value);
        }
        return 0;
}

/* A box's CPUs came up at boot, and the FQS scans since (idle CPUs report
 * only through them) have moved rcu_state.n_force_qs past the n_force_qs_snap
 * each took in rcutree_prepare_cpu(): a workload's first qhimark crossing on
 * a CPU only re-takes it (__call_rcu_core()).  A guest whose /init has just
 * onlined CPUs (maxcpus=1 under icount) holds fresh snapshots instead, and
 * its first crossing kicks rcu_preempt -- if no scan came in between, which
 * the run's own timing decides (rt-readers: 7 of 10 boots; docs/validation.md).
 * So one scan, before anything runs: a grace period this reader holds open
 * while the FQS flag is raised (and rcu_preempt's own timer, 1 jiffy, fires). */
static void age_fqs_snapshots(void)
{
        int i;

        rcu_read_lock();
        start_poll_synchronize_rcu();
        for (i = 0; i < 20; i++) {
                rcu_force_quiescent_state();
                mdelay(1);
        }
        rcu_read_unlock();
        synchronize_rcu();
}

/* ---- /proc/rcuboost ---- */

static ssize_t proc_write(struct file *f, const char __user *buf, size_t len, loff_t *off)
{
        int err = 0;

        mutex_lock(&proc_lock);
        if (started) {
                err = -EBUSY;
        } else if (program_len + len + 1 > PROGRAM_MAX) {
                err = -EFBIG;
        } else if (copy_from_user(program_text + program_len, buf, len)) {
                err = -EFAULT;
        } else {
                program_len += len;
                program_text[program_len] = '\0';
        }
        /* the program ends with "end": parse it, make the tasks, start */
        if (!err && program_len >= 4 && strstr(program_text, "\nend")) {
                err = parse_program();
                if (!err)
                        age_fqs_snapshots();
                if (!err) {
                        samples = vmalloc(array_size(MAX_SAMPLES, sizeof(*samples)));
                        err = samples ? create_tasks() : -ENOMEM;
                }
                if (!err) {
                        controller = kthread_run(controller_fn, NULL, "rcuboost-ctl");
                        if (IS_ERR(controller)) {
                                err = PTR_ERR(controller);
                                controller = NULL;
                        } else {
                                get_task_struct(controller);
                                started = true;
                        }
                }
        }
        mutex_unlock(&proc_lock);
        return err ? err : len;
}

static int proc_show(struct seq_file *m, void *v)
{
        u64 readers = 0, syncs = 0;
        int i;

        /* A run in progress: block until it ends.  The guest's /init waits
         * with this one read, not a poll: every process a poll forks and
         * reaps queues callbacks and starts a grace period of its own. */
        if (READ_ONCE(started) && !READ_ONCE(done) &&
            wait_event_interruptible(done_wq, READ_ONCE(done)))
                return -EINTR;
        if (!READ_ONCE(done)) {
                seq_printf(m, "%s\n", started ? "running" : "idle");
                return 0;
        }
        for (i = 0; i < sc.ntasks; i++) {
                readers += sc.tasks[i].readers;
                syncs += sc.tasks[i].syncs;
        }
        seq_puts(m, "done\n");
        seq_printf(m, "t0_ns %lld\n", ktime_to_ns(t0));
        seq_printf(m, "end_ns %lld\noom_ns %lld\npeak_bytes %lld\nwaiting_bytes %lld\n", end_ns, oom_ns,
                   (long long)atomic64_read(&peak_bytes), (long long)atomic64_read(&waiting_bytes));
        seq_printf(m, "registered %lld\ninvoked %lld\ncallback_max_ns %lld\nsync_max_ns %lld\n",
                   (long long)atomic64_read(&registered), (long long)atomic64_read(&invoked),
                   (long long)atomic64_read(&cb_max_ns), (long long)atomic64_read(&sync_max_ns));
        seq_printf(m, "readers %llu\nsyncs %llu\nseed %llu\n", readers, syncs, sc.seed);
        for (i = 0; i < nsamples; i++)
                seq_printf(m, "s %lld %lld %lu\n", samples[i].t_ns, samples[i].bytes, samples[i].gp_seq);
        for (i = 0; i < sc.ntasks; i++)
                seq_printf(m, "pid %s %d\n", sc.tasks[i].name, task_pid_nr(sc.tasks[i].thread));
        for (i = 0; i < sc.ntasks; i++)
                seq_printf(m, "achieved %s %llu %llu %llu\n", sc.tasks[i].name, sc.tasks[i].iterations,
                           sc.tasks[i].call_rcus, (unsigned long long)sc.tasks[i].thread->se.sum_exec_runtime);
        for (i = 0; i < sc.ntasks; i++)
                if (sc.tasks[i].period_ns)
                        seq_printf(m, "periodic %s %lld %llu %llu %lld %lld\n", sc.tasks[i].name,
                                   sc.tasks[i].period_ns, sc.tasks[i].activations, sc.tasks[i].overruns,
                                   sc.tasks[i].lat_max_ns, sc.tasks[i].lat_sum_ns);
        return 0;
}

static int proc_open(struct inode *inode, struct file *file)
{
        return single_open_size(file, proc_show, NULL, 64 * (size_t)(nsamples + sc.ntasks + 32));
}

static const struct proc_ops proc_fops = {
        .proc_open = proc_open,
        .proc_read = seq_read,
        .proc_lseek = seq_lseek,
        .proc_release = single_release,
        .proc_write = proc_write,
};

static int __init rcuboost_init(void)
{
        program_text = vzalloc(PROGRAM_MAX);
        if (!program_text)
                return -ENOMEM;
        if (!proc_create("rcuboost", 0600, NULL, &proc_fops)) {
                vfree(program_text);
                return -ENOMEM;
        }
        return 0;
}

static void __exit rcuboost_exit(void)
{
        int i, k;

        remove_proc_entry("rcuboost", NULL);
        if (controller) {
                WRITE_ONCE(stopping, true);
                kthread_stop(controller);
                put_task_struct(controller);
        }
        for (i = 0; i < sc.ntasks; i++) {
                if (sc.tasks[i].thread) {
                        kthread_stop(sc.tasks[i].thread);
                        put_task_struct(sc.tasks[i].thread);
                }
                for (k = 0; k < sc.tasks[i].ninsn && sc.tasks[i].code; k++)
                        kfree(sc.tasks[i].code[k].q.lower);
                kfree(sc.tasks[i].code);
        }
        rcu_barrier();
        vfree(samples);
        vfree(program_text);
}

module_init(rcuboost_init);
module_exit(rcuboost_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rcuboost: an rcuboost scenario's tasks as kthreads on a real kernel");
