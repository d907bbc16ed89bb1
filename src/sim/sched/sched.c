/* sched.c - CPUs and the priority scheduler; see sched.h. */
#include "sched.h"

#include <limits.h>
#include <math.h>

#include "../engine/engine.h"
#include "rtwait.h"

/* Linux's nice-to-weight table (kernel/sched/core.c): each nice level is
 * about 10% of CPU relative to its neighbour. */
static const unsigned nice_weight[40] = {
        88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
        9548,  7620,  6100,  4904,  3906,  3121,  2501,  1991,  1586,  1277,
        1024,  820,   655,   526,   423,   335,   272,   215,   172,   137,
        110,   87,    70,    56,    45,    36,    29,    23,    18,    15,
};
#define NICE_0_WEIGHT 1024

unsigned sched_spec_weight(const struct sched_spec *s)
{
        return s->policy == SCHED_POLICY_NORMAL ? nice_weight[s->value + 20] : NICE_0_WEIGHT;
}

static void tick_event(struct sim *sim, struct event *ev);
static void rt_period_event(struct sim *sim, struct event *ev);

/* Is 6.1's RT balancing in force (kernel.h rt_balance_61, with find-lowest)? */
static inline bool rt_balance_61(const struct sim *sim)
{
        return sim->env.rt_balance_61 && sim->env.rt_wakeup == RT_WAKEUP_FIND_LOWEST;
}

static inline struct cpu *cpu_of(struct sim *sim, const struct task *t)
{
        return &sim->cpus[t->cpu];
}

/* sched.h lays struct cpu out in lines: schedule() reads line 0 and
 * writes line 1. */
G_STATIC_ASSERT(sizeof(void *) != 8 || (offsetof(struct cpu, switching_out) == 64 &&
                                        offsetof(struct cpu, tick_ev) == 128));

void sched_init(struct sim *sim)
{
        sim->cpus = g_aligned_alloc0(sim->ncpus, sizeof(struct cpu), 64);
        sim->resched = g_new0(int, sim->ncpus);
        cpumask_fill(&sim->idle, sim->ncpus);
        cpumask_fill(&sim->all_cpus, sim->ncpus);
        /* an idle CPU's rank: PRIO_IDLE, or 6.1's CPUPRI_NORMAL level */
        cpupri_init(&sim->cpupri, sim->ncpus, rt_balance_61(sim) ? PRIO_MAX_RT : PRIO_IDLE);
        sim->cpupri_stale = -1;
        cpupri_init(&sim->rt_queued, sim->ncpus, CPUPRI_NONE);
        for (int c = 0; c < sim->ncpus; c++) {
                struct cpu *cpu = &sim->cpus[c];

                cpu->id = c;
                heap_init(&cpu->rt_rq);
                heap_init(&cpu->fair_rq);
                event_init(&cpu->tick_ev, tick_event);
                cpu->rt_runtime_ns = sim->env.rt_runtime_ns;
        }
        event_init(&sim->rt_period_ev, rt_period_event);
}

void sched_finish(struct sim *sim)
{
        if (!sim->cpus)
                return;         /* sim_new() failed before sched_init() */
        for (int c = 0; c < sim->ncpus; c++) {
                heap_finish(&sim->cpus[c].rt_rq);
                heap_finish(&sim->cpus[c].fair_rq);
        }
        g_aligned_free(sim->cpus);
        g_free(sim->resched);
        g_free(sim->fair_by_len);
        g_free(sim->fair_len_count);
}

void sched_start(struct sim *sim)
{
        /* Ticks on all CPUs are aligned, as in 2007 kernels and by default
         * today; with skew_tick, as tick_setup_sched_timer() in
         * kernel/time/tick-sched.c does with sched_skew_tick: CPU c's tick
         * comes (TICK_NSEC >> 1) / nr_cpus * c later.  Jiffies (the booster's
         * sleeps) still end on CPU 0's ticks, which are not offset. */
        for (int c = 0; c < sim->ncpus; c++)
                eventq_schedule(&sim->q, &sim->cpus[c].tick_ev, timer_wheel_tick_ns(sim, c, 1));
        if (sim->env.rt_runtime_ns >= 0)
                eventq_schedule(&sim->q, &sim->rt_period_ev,
                                sim->rt_period_phase_ns ? sim->rt_period_phase_ns : sim->sc->rt_period_ns);
}

/* ---- run queues ---- */

/* ---- the fair queues by length, for the idle pull's "busiest" ----
 * Scanning every CPU with queued fair tasks for the longest queue cost the
 * idle pull O(CPUs) (18% of the time at 1024 CPUs); kept per length, the
 * longest is at hand. */
static void fair_len_changed(struct sim *sim, struct cpu *cpu, uint32_t old)
{
        uint32_t n = heap_size(&cpu->fair_rq);

        if (old) {
                cpumask_clear_cpu(&sim->fair_by_len[old], cpu->id);
                sim->fair_len_count[old]--;
        }
        if (n) {
                if (n >= sim->fair_by_len_cap) {
                        /* small to begin with: the invariants checker walks every length */
                        uint32_t cap = MAX(8, 2 * n), was = sim->fair_by_len_cap;

                        sim->fair_by_len = g_renew(struct cpumask, sim->fair_by_len, cap);
                        sim->fair_len_count = g_renew(int, sim->fair_len_count, cap);
                        memset(&sim->fair_by_len[was], 0, (cap - was) * sizeof(struct cpumask));
                        memset(&sim->fair_len_count[was], 0, (cap - was) * sizeof(int));
                        sim->fair_by_len_cap = cap;
                }
                cpumask_set(&sim->fair_by_len[n], cpu->id);
                sim->fair_len_count[n]++;
                sim->fair_max_len = MAX(sim->fair_max_len, n);
        }
        while (sim->fair_max_len && !sim->fair_len_count[sim->fair_max_len])
                sim->fair_max_len--;
}

/* The CPU other than @self with the most queued fair tasks, the lowest
 * numbered among equals; NULL if none has any. */
static struct cpu *busiest_fair(struct sim *sim, int self)
{
        for (uint32_t n = sim->fair_max_len; n > 0; n--) {
                const struct cpumask *m = &sim->fair_by_len[n];

                for (int i = 0; i < (sim->ncpus + 63) / 64; i++) {
                        uint64_t w = m->w[i];

                        if ((unsigned)i == CPUMASK_WORD(self))
                                w &= ~CPUMASK_BIT(self);
                        if (w)
                                return &sim->cpus[i * 64 + __builtin_ctzll(w)];
                }
        }
        return NULL;
}

static void cpu_rank_changed(struct sim *sim, struct cpu *cpu);

/* Coverage: @t queued on a CPU other than the one it was on. */
static void count_migration(struct sim *sim, struct task *t)
{
        if (t->prio < t->normal_prio)
                sim_count_task_event(sim, t, EE_MIGRATE_BOOSTED);
        if (t->rcu_nesting > 0)
                sim_count_event(sim, EE_MIGRATE_IN_SECTION);
}

static void enqueue(struct sim *sim, struct cpu *cpu, struct task *t, bool head)
{
        if (sim->events_on && t->cpu != cpu->id)
                count_migration(sim, t);
        t->cpu = cpu->id;
        /* a periodic task waiting since its release, moved here */
        if (sim->rtwait_waiting->len && t->rtw)
                rtwait_enqueued(sim, t, cpu->id);
        if (task_is_rt(t)) {
                int64_t seq = head ? --cpu->head_seq : ++cpu->tail_seq;

                heap_push(&cpu->rt_rq, &t->rq_node, t->prio, seq);
                cpupri_set(&sim->rt_queued, cpu->id, (int)heap_peek_key(&cpu->rt_rq));
                if (rt_balance_61(sim))
                        cpu_rank_changed(sim, cpu);     /* inc_rt_prio() */
        } else {
                heap_push(&cpu->fair_rq, &t->rq_node, 0, t->vruntime);
                cpu->fair_weight += t->weight;
                cpumask_set(&sim->fair_waiting, cpu->id);
                fair_len_changed(sim, cpu, heap_size(&cpu->fair_rq) - 1);
        }
}

static void dequeue(struct sim *sim, struct cpu *cpu, struct task *t)
{
        if (sim->rtwait_on[cpu->id]->len && t->rtw)
                rtwait_dequeued(sim, t, cpu);
        /* The heap a task sits in follows its class at enqueue time. */
        if (t->rq_node.slot < cpu->rt_rq.n && cpu->rt_rq.v[t->rq_node.slot].node == &t->rq_node) {
                heap_remove(&cpu->rt_rq, &t->rq_node);
                cpupri_set(&sim->rt_queued, cpu->id,
                           heap_size(&cpu->rt_rq) ? (int)heap_peek_key(&cpu->rt_rq) : CPUPRI_NONE);
                if (rt_balance_61(sim))
                        cpu_rank_changed(sim, cpu);     /* dec_rt_prio() */
        } else {
                heap_remove(&cpu->fair_rq, &t->rq_node);
                cpu->fair_weight -= t->weight;
                if (!heap_size(&cpu->fair_rq))
                        cpumask_clear_cpu(&sim->fair_waiting, cpu->id);
                fair_len_changed(sim, cpu, heap_size(&cpu->fair_rq) + 1);
        }
}

static inline struct task *rq_task(struct heap_node *n)
{
        return n ? container_of(n, struct task, rq_node) : NULL;
}

/* The task this CPU would run next, without taking it off the queue. */
static struct task *peek_next(struct cpu *cpu)
{
        if (!cpu->rt_throttled && heap_size(&cpu->rt_rq))
                return rq_task(heap_peek(&cpu->rt_rq));
        return rq_task(heap_peek(&cpu->fair_rq));
}

/* How urgent peek_next()'s task is: its priority if RT (any RT task beats
 * a fair one, whatever its nice), PRIO_MAX_RT if fair, PRIO_IDLE if none.
 * From the keys (an RT queue's are its tasks' priorities, and a fair
 * queue holds no RT task), not the task, whose lines are cold. */
static int next_rank(const struct cpu *cpu)
{
        if (!cpu->rt_throttled && heap_size(&cpu->rt_rq))
                return (int)heap_peek_key(&cpu->rt_rq);
        return heap_size(&cpu->fair_rq) ? PRIO_MAX_RT : PRIO_IDLE;
}

/* How urgent what a CPU runs is: its priority, or PRIO_IDLE. */
static int cpu_rank(const struct cpu *cpu)
{
        return cpu->curr ? cpu->curr->prio : PRIO_IDLE;
}

int sched_cpupri_rank(const struct sim *sim, int c)
{
        const struct cpu *cpu = &sim->cpus[c];
        int r;

        if (!rt_balance_61(sim))
                return cpu->rt_throttled ? CPUPRI_NONE : cpu_rank(cpu);
        /* 6.1 cpupri_set(rq->rt.highest_prio.curr), convert_prio()
         * (kernel/sched/cpupri.c): the most urgent RT task queued or running
         * there ranks the CPU, and idle and every fair task share one level,
         * CPUPRI_NORMAL (here PRIO_MAX_RT).  Throttling moves no CPU. */
        r = cpu->curr && task_is_rt(cpu->curr) ? cpu->curr->prio : PRIO_MAX_RT;
        if (heap_size(&cpu->rt_rq))
                r = MIN(r, (int)heap_peek_key(&cpu->rt_rq));
        return r;
}

static void update_min_vruntime(struct cpu *cpu)
{
        int64_t v = cpu->min_vruntime;

        if (cpu->curr && !task_is_rt(cpu->curr))
                v = cpu->curr->vruntime;
        /* The leftmost's vruntime is its key: its task need not be read. */
        if (heap_size(&cpu->fair_rq)) {
                int64_t left = heap_slot_at(&cpu->fair_rq, 0)->tie;

                if (!cpu->curr || task_is_rt(cpu->curr) || left < v)
                        v = left;
        }
        if (v > cpu->min_vruntime)
                cpu->min_vruntime = v;
}

void sched_update_curr(struct sim *sim, struct cpu *cpu)
{
        struct task *t = cpu->curr;
        int64_t delta;

        if (!t)
                return;
        delta = sim->now - t->exec_start;
        if (delta <= 0)
                return;
        t->exec_start = sim->now;
        t->sum_exec_ns += delta;
        if (task_is_rt(t)) {
                if (sim->env.rt_runtime_ns >= 0)
                        cpu->rt_time_ns += delta;
                cpu->rt_ns += delta;
        } else {
                /* As calc_delta_fair(): nice 0 needs no division. */
                t->vruntime += t->weight == NICE_0_WEIGHT ? delta : delta * NICE_0_WEIGHT / t->weight;
                update_min_vruntime(cpu);
        }
}

/* ---- burning CPU time ---- */

static void burn_stop(struct sim *sim, struct task *t)
{
        int64_t elapsed;

        if (!event_pending(&t->run_ev))
                return;
        eventq_cancel(&sim->q, &t->run_ev);
        elapsed = sim->now - t->seg_start;
        if (elapsed <= t->overhead_ns) {
                t->overhead_ns -= elapsed;
        } else {
                t->remaining_ns -= elapsed - t->overhead_ns;
                t->overhead_ns = 0;
        }
        if (t->remaining_ns < 0)
                t->remaining_ns = 0;
}

void sched_burn_start(struct sim *sim, struct task *t)
{
        t->seg_start = sim->now;
        eventq_schedule(&sim->q, &t->run_ev, sim->now + t->overhead_ns + t->remaining_ns);
}

void sched_burn_extend(struct sim *sim, struct task *t, int64_t ns)
{
        t->overhead_ns += ns;
        if (t->state == TASK_RUNNING && event_pending(&t->run_ev))
                eventq_schedule(&sim->q, &t->run_ev, t->run_ev.when + ns);
}

/* ---- choosing CPUs ---- */

/* Would @t, queued on @cpu, deserve that CPU more than what runs there? */
static bool preempts(struct sim *sim, struct cpu *cpu, struct task *t)
{
        struct task *curr = cpu->curr;

        if (task_is_rt(t) && cpu->rt_throttled)
                return false;
        if (!curr)
                return true;
        if (curr->state != TASK_RUNNING)
                return true;    /* it is on its way out already */
        if (task_is_rt(t) || task_is_rt(curr))
                return t->prio < curr->prio;
        sched_update_curr(sim, cpu);
        return curr->vruntime - t->vruntime > sim->env.wakeup_granularity_ns;
}

/* Keep sim->cpupri up to date: called whenever what @cpu runs, that
 * task's priority or the CPU's throttling changes. */
static void cpu_rank_changed(struct sim *sim, struct cpu *cpu)
{
        if (sim->cpupri_stale == cpu->id)
                sim->cpupri_stale = -1;
        cpupri_set(&sim->cpupri, cpu->id, sched_cpupri_rank(sim, cpu->id));
}

/* While schedule() switches, the CPU runs nothing, but its rank in
 * sim->cpupri is left as it was: most switches are between tasks of one
 * rank, and going to idle and back would be two updates for none.  Whatever
 * reads sim->cpupri first settles the stale rank, so it sees what an eager
 * update would have shown. */
static void cpupri_settle(struct sim *sim)
{
        if (sim->cpupri_stale >= 0)
                cpu_rank_changed(sim, &sim->cpus[sim->cpupri_stale]);
}

/* @t's allowed CPUs as a mask: the shared one, in cache, when it may run anywhere. */
static inline const struct cpumask *allowed_cpus(const struct sim *sim, const struct task *t)
{
        return t->any_cpu ? &sim->all_cpus : &t->affinity;
}

/* Only one CPU allowed (nr_cpus_allowed < 2)? */
static bool task_pinned(const struct sim *sim, const struct task *t)
{
        return !t->any_cpu && !cpumask_any_but(&t->affinity, cpumask_first(&t->affinity), sim->ncpus);
}

/* 6.1 find_lowest_rq() on one flat scheduling domain: of the allowed CPUs
 * at the lowest cpupri level, and below @t, the task's last CPU if it is
 * one of them, else the CPU doing the wake-up (this_cpu), else the next one
 * after the waking CPU's cursor, round robin (cpumask_any_and_distribute()).
 * -1 if no CPU runs anything less urgent than @t. */
static int find_lowest_rq(struct sim *sim, struct task *t, int last)
{
        struct cpumask lowest;
        struct cpu *self;
        int next;

        if (cpupri_lowest(&sim->cpupri, allowed_cpus(sim, t), t->prio, &lowest) < 0)
                return -1;
        if (cpumask_test(&lowest, last))
                return last;
        if (sim->this_cpu >= 0 && cpumask_test(&lowest, sim->this_cpu))
                return sim->this_cpu;
        /* the cursor of the CPU running this code; a wake-up no CPU's work
         * caused (a scenario event) runs on CPU 0 here */
        self = &sim->cpus[sim->this_cpu >= 0 ? sim->this_cpu : 0];
        next = cpumask_next_wrap(&lowest, self->distribute_prev + 1, sim->ncpus);
        self->distribute_prev = next;
        return next;
}

/* 6.1 select_task_rq_rt(): stay, unless what runs on the last CPU is an RT
 * task that is pinned or at least as urgent; then find_lowest_rq(): the
 * allowed CPUs running the least urgent thing (the last CPU if it is one
 * of them), taken only if that is less urgent than the waking task.  A
 * pinned task is not asked (select_task_rq() only when nr_cpus_allowed > 1). */
static int select_cpu_rt_lowest(struct sim *sim, struct task *t, int last)
{
        const struct task *curr = sim->cpus[last].curr;
        int target;

        if (task_pinned(sim, t) || !curr || !task_is_rt(curr) ||
            (!task_pinned(sim, curr) && curr->prio > t->prio))
                return last;
        cpupri_settle(sim);
        if (rt_balance_61(sim))
                target = find_lowest_rq(sim, t, last);
        else
                target = cpupri_find(&sim->cpupri, allowed_cpus(sim, t), t->prio, last, -1);
        return target >= 0 ? target : last;
}

/* Where a waking RT task should go ([sched] rt_wakeup).  2.6.22-rt: its
 * last CPU if it would run there at once, else the allowed CPU running the
 * least urgent thing. */
static int select_cpu_rt(struct sim *sim, struct task *t)
{
        int last = t->cpu;
        int best;

        /* 6.1 asks nothing of throttling here (the fallback below is
         * 2.6.22's; the legacy layer fell back to it from a throttled CPU) */
        if (sim->env.rt_wakeup == RT_WAKEUP_FIND_LOWEST && task_allowed_on(t, last) &&
            (rt_balance_61(sim) || !sim->cpus[last].rt_throttled))
                return select_cpu_rt_lowest(sim, t, last);

        if (task_allowed_on(t, last) && !sim->cpus[last].rt_throttled &&
            t->prio < cpu_rank(&sim->cpus[last]))
                return last;
        cpupri_settle(sim);
        best = cpupri_find(&sim->cpupri, allowed_cpus(sim, t), -1, last, -1);
        /* Only throttled CPUs allowed: stay where it was. */
        if (best < 0 && task_allowed_on(t, last))
                best = last;
        return best;
}

static int nr_on(const struct cpu *cpu)
{
        return (int)(heap_size(&cpu->rt_rq) + heap_size(&cpu->fair_rq)) + (cpu->curr != NULL);
}

/* Fair tasks: an idle allowed CPU (the last one first), else the last CPU,
 * else the least loaded allowed CPU. */
static int select_cpu_fair(struct sim *sim, struct task *t)
{
        int last = t->cpu;
        int best = -1;

        int idle;

        if (task_allowed_on(t, last) && !sim->cpus[last].curr)
                return last;
        idle = cpumask_first_and(allowed_cpus(sim, t), &sim->idle, sim->ncpus);
        if (idle >= 0)
                return idle;
        if (task_allowed_on(t, last))
                return last;
        for (int c = 0; c < sim->ncpus; c++)
                if (task_allowed_on(t, c) &&
                    (best < 0 || nr_on(&sim->cpus[c]) < nr_on(&sim->cpus[best])))
                        best = c;
        return best;
}

/* Fair tasks keep their vruntime relative to the queue they join. */
static void migrate_vruntime(struct sim *sim, struct task *t, int from, int to)
{
        if (from != to) {
                t->vruntime += sim->cpus[to].min_vruntime - sim->cpus[from].min_vruntime;
                sim->migrations++;
        }
}

void sched_resched(struct sim *sim, int c)
{
        struct cpu *cpu = &sim->cpus[c];

        cpu->need_resched = true;
        if (!cpu->resched_listed) {
                cpu->resched_listed = true;
                sim->resched[sim->nresched++] = c;
        }
}

static void activate(struct sim *sim, struct task *t);

void sched_wake(struct sim *sim, struct task *t)
{
        switch (t->state) {
        case TASK_RUNNING:
        case TASK_RUNNABLE:
        case TASK_EXITED:
                return;
        default:
                break;
        }
        /* Blocked and woken again before it left its CPU: it just goes on. */
        if (sim->cpus[t->cpu].curr == t) {
                t->state = TASK_RUNNING;
                return;
        }
        activate(sim, t);
}

/* Queue @t on the CPU it should wake on, preempting there if it deserves to. */
static void activate(struct sim *sim, struct task *t)
{
        int from = t->cpu;
        int c;

        c = task_is_rt(t) ? select_cpu_rt(sim, t) : select_cpu_fair(sim, t);
        if (!task_is_rt(t)) {
                struct cpu *cpu = &sim->cpus[c];
                /* Sleeper credit: at most half a latency period behind. */
                int64_t floor = cpu->min_vruntime - sim->env.sched_latency_ns / 2;

                migrate_vruntime(sim, t, from, c);
                if (t->vruntime < floor)
                        t->vruntime = floor;
        } else if (from != c) {
                sim->migrations++;
        }
        t->state = TASK_RUNNABLE;
        enqueue(sim, &sim->cpus[c], t, false);
        /* a periodic task's release: its wait for the CPU begins */
        if (t->awaiting_release && t->rtw)     /* block 2, read by a timer's wake anyway */
                rtwait_released(sim, t);
        sim_trace(sim, c, "sched_wakeup", "comm=%s pid=%d prio=%d target_cpu=%03d", t->name, task_pid(t),
                  t->prio, c);
        if (preempts(sim, &sim->cpus[c], t))
                sched_resched(sim, c);
}

void sched_block(struct sim *sim, struct task *t, enum task_state state)
{
        /* a policy hook runs on the engine's path: blocking a task there
         * would leave the engine's own step half done */
        if (sim->policy_hook) {
                sim_policy_breach(sim, "sched_block(%s): a hook cannot block a task (a policy's thread "
                                  "returns a step instead)", t->name);
                return;
        }
        t->state = state;
        sched_resched(sim, t->cpu);
}

/* Move a queued task from @cpu to wherever it would run at once, if any. */
static void push_task(struct sim *sim, struct cpu *cpu, struct task *t)
{
        bool must_move = !task_allowed_on(t, cpu->id);
        int target = -1;

        if (task_is_rt(t)) {
                cpupri_settle(sim);
                target = cpupri_find(&sim->cpupri, allowed_cpus(sim, t), must_move ? -1 : t->prio, -1, cpu->id);
        } else {
                /* This CPU is busy (it just chose another task), so any idle
                 * CPU found is another one. */
                target = cpumask_first_and(allowed_cpus(sim, t), &sim->idle, sim->ncpus);
                if (target < 0 && must_move)
                        target = select_cpu_fair(sim, t);
        }
        if (must_move && target < 0)
                target = cpumask_first(allowed_cpus(sim, t));
        if (target < 0 || target == cpu->id)
                return;
        dequeue(sim, cpu, t);
        if (!task_is_rt(t))
                migrate_vruntime(sim, t, cpu->id, target);
        else
                sim->migrations++;
        enqueue(sim, &sim->cpus[target], t, false);
        if (preempts(sim, &sim->cpus[target], t))
                sched_resched(sim, target);
}

/* Find, on other CPUs, the most urgent queued task allowed here that beats
 * what this CPU would run, and bring it here. */

/* The fair task of @o with the least vruntime that may run on @cpu, or NULL.
 * The queue's root is that task whenever it is allowed; otherwise look at
 * the rest, only at tasks that would win (the tie key is the vruntime). */
static struct task *leftmost_allowed(const struct cpu *o, int cpu)
{
        struct task *best = rq_task(heap_peek(&o->fair_rq));

        if (!best || task_allowed_on(best, cpu))
                return best;
        best = NULL;
        for (uint32_t i = 1; i < heap_size(&o->fair_rq); i++) {
                const struct heap_slot *slot = heap_slot_at(&o->fair_rq, i);
                struct task *t;

                if (best && slot->tie >= best->vruntime)
                        continue;
                t = rq_task(slot->node);
                if (task_allowed_on(t, cpu))
                        best = t;
        }
        return best;
}

/* Idle balance: the leftmost allowed fair task of the busiest CPU; the
 * others are looked at only if none there may come.  The CPU to take it
 * from, the task in *@t; NULL if nothing may come. */
static struct cpu *idle_pull_source(struct sim *sim, const struct cpu *cpu, struct task **t)
{
        struct cpu *busiest = busiest_fair(sim, cpu->id);
        int c;

        if (busiest && (*t = leftmost_allowed(busiest, cpu->id)))
                return busiest;
        for_each_cpu(c, &sim->fair_waiting, sim->ncpus) {
                struct cpu *o = &sim->cpus[c];

                if (o != cpu && o != busiest && (*t = leftmost_allowed(o, cpu->id)))
                        return o;
        }
        return NULL;
}

/* @o's queued RT task that may run on @cpu with a priority value below
 * @limit, the most urgent, the first in queue order among equals; NULL if
 * none.  A queue's keys are its tasks' priorities. */
static struct task *rt_pull_candidate(struct cpu *o, int cpu, int limit)
{
        struct task *best = NULL;

        for (uint32_t i = 0; i < heap_size(&o->rt_rq); i++) {
                const struct heap_slot *slot = heap_slot_at(&o->rt_rq, i);
                struct task *t;

                if (slot->key >= limit)
                        continue;
                t = rq_task(slot->node);
                if (task_allowed_on(t, cpu)) {
                        best = t;
                        limit = t->prio;
                }
        }
        return best;
}

/* rt_overloaded() / update_rt_migration() of 6.1: two RT tasks or more on
 * the CPU, queued or running, one of them free to move (the task a pull
 * takes is).  Only such a CPU is pulled from: a lone woken RT task waits
 * for its own CPU's reschedule. */
static bool rt_overloaded(const struct cpu *cpu)
{
        return heap_size(&cpu->rt_rq) + (cpu->curr && task_is_rt(cpu->curr)) >= 2;
}

/* The queued RT task to pull to @cpu: the most urgent one allowed there
 * and more urgent than @local_rank, the lowest-numbered CPU's among
 * equals (as a walk over every CPU in order finds it).  The CPUs are
 * looked at by their most urgent queued task, most urgent first, so that
 * usually the first one has it; a CPU whose queue starts at rank p holds
 * nothing more urgent than p.  Its CPU in *@from; NULL if none. */
static struct task *rt_pull_source(struct sim *sim, struct cpu *cpu, int local_rank, struct cpu **from)
{
        struct task *best = NULL;

        for (int p = cpupri_next_rank(&sim->rt_queued, 0); p >= 0 && p < local_rank;
             p = cpupri_next_rank(&sim->rt_queued, p + 1)) {
                int c;

                if (best && p > best->prio)
                        break;
                for_each_cpu(c, &sim->rt_queued.cpus[p], sim->ncpus) {
                        struct task *t;

                        /* At best's rank only a lower CPU can still win. */
                        if (best && p == best->prio && c > (*from)->id)
                                return best;
                        if (c == cpu->id || (rt_balance_61(sim) && !rt_overloaded(&sim->cpus[c])))
                                continue;
                        t = rt_pull_candidate(&sim->cpus[c], cpu->id,
                                              !best ? local_rank
                                              : c < (*from)->id ? best->prio + 1 : best->prio);
                        /* 6.1: one just woken there, more urgent than what
                         * runs there, is about to run: not pulled. */
                        if (t && rt_balance_61(sim) && t->prio < cpu_rank(&sim->cpus[c]))
                                continue;
                        if (t) {
                                best = t;
                                *from = &sim->cpus[c];
                        }
                }
        }
        return best;
}

static void pull(struct sim *sim, struct cpu *cpu)
{
        int local_rank = next_rank(cpu);
        struct task *best = NULL;
        struct cpu *from = NULL;

        if (!cpu->rt_throttled)
                best = rt_pull_source(sim, cpu, local_rank, &from);
        if (!best && local_rank == PRIO_IDLE && cpumask_any_but(&sim->fair_waiting, cpu->id, sim->ncpus)) {
                from = idle_pull_source(sim, cpu, &best);
        }
        if (!best)
                return;
        dequeue(sim, from, best);
        if (!task_is_rt(best))
                migrate_vruntime(sim, best, from->id, cpu->id);
        else
                sim->migrations++;
        enqueue(sim, cpu, best, false);
}

/* sched_switch, as the kernel prints it; prev is still the CPU's current
 * task for the line's context. */
static void trace_switch(struct sim *sim, struct cpu *cpu, struct task *prev, struct task *next)
{
        static const char *const state[] = {
                [TASK_RUNNABLE] = "R+", [TASK_SLEEPING] = "S", [TASK_WAITING] = "S",
                [TASK_BLOCKED] = "D", [TASK_EXITING] = "X", [TASK_EXITED] = "X",
        };
        char swapper[32], fields[512];

        g_snprintf(swapper, sizeof(swapper), "swapper/%d", cpu->id);
        g_snprintf(fields, sizeof(fields),
                "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d",
                prev ? prev->name : swapper, prev ? task_pid(prev) : 0, prev ? prev->prio : PRIO_NICE_0,
                prev && state[prev->state] ? state[prev->state] : "R", next ? next->name : swapper,
                next ? task_pid(next) : 0, next ? next->prio : PRIO_NICE_0);

        timeline_tracepoint(sim->timeline, sim->now, cpu->id, prev ? prev->name : "<idle>",
                            prev ? task_pid(prev) : 0, "sched_switch", fields);
}

static void nohz_idle_enter(struct sim *sim, struct cpu *cpu, bool firing);
static void nohz_idle_exit(struct sim *sim, struct cpu *cpu);

/* The scheduler proper, on one CPU. */
static void schedule(struct sim *sim, struct cpu *cpu)
{
        struct task *prev = cpu->curr;
        struct task *next;

        cpu->need_resched = false;
        /* a periodic task waiting here: what ran until now delayed it */
        if (sim->rtwait_on[cpu->id]->len)
                rtwait_cpu_switching(sim, cpu);
        cpu->switching_out = prev;
        if (prev) {
                /* A reader switched out tells its policy, below: fetch the
                 * policy's state (its own allocation, long unread) meanwhile. */
                if (prev->rcu_nesting > 0)
                        __builtin_prefetch(prev->policy_data);
                sched_update_curr(sim, cpu);
                burn_stop(sim, prev);
                cpu->curr = NULL;
                cpupri_settle(sim);
                sim->cpupri_stale = cpu->id;
                if (prev->state == TASK_RUNNING) {
                        /* Preempted: an RT task keeps its place at the head
                         * unless its RR slice ran out. */
                        bool head = task_is_rt(prev) && prev->rr_ticks_left > 0;

                        prev->state = TASK_RUNNABLE;
                        /* Its affinity no longer allows this CPU: it moves
                         * once it is switched out (below). */
                        if (task_allowed_on(prev, cpu->id))
                                enqueue(sim, cpu, prev, head);
                }
        }
        pull(sim, cpu);
        next = peek_next(cpu);
        if (next)
                dequeue(sim, cpu, next);

        if (prev && next == prev) {
                cpu->switching_out = NULL;
                prev->state = TASK_RUNNING;
                cpu->curr = prev;
                cpu_rank_changed(sim, cpu);
                prev->exec_start = sim->now;
                sched_burn_start(sim, prev);
                return;
        }
        if (prev) {
                cpu->nr_switches++;
                cpu->switching_in = next;
                if (prev->rcu_nesting > 0 &&
                    (prev->state == TASK_RUNNABLE || prev->state == TASK_BLOCKED)) {
                        if (sim->timeline_on)
                                timeline_begin(sim->timeline, sim->now, "blocked", prev->id, prev->name);
                        sim->sched_hooks->reader_switch_out(sim, prev, prev->state == TASK_RUNNABLE
                                                          ? RCU_BLOCK_PREEMPTED : RCU_BLOCK_MUTEX);
                }
                if (prev->state == TASK_RUNNABLE && !heap_node_queued(&prev->rq_node))
                        activate(sim, prev);
                else if (prev->state == TASK_RUNNABLE)
                        push_task(sim, cpu, prev);
        }
        sim->sched_hooks->context_switch(sim, cpu->id);
        if (sim->tracepoints)
                trace_switch(sim, cpu, prev, next);
        cpu->switching_out = NULL;
        cpu->switching_in = NULL;
        if (!next) {
                cpu_rank_changed(sim, cpu);
                cpumask_set(&sim->idle, cpu->id);
                if (sim->env.nohz_idle)
                        nohz_idle_enter(sim, cpu, false);
                if (sim->timeline_on)
                        timeline_cpu(sim->timeline, sim->now, cpu->id, NULL);
                /* What the CPU was charged is absorbed by idle time. */
                cpu->pending_overhead_ns = 0;
                return;
        }
        sim_charge_cpu(sim, cpu->id, COST_CONTEXT_SWITCH, 1, COST_PATH_SCHED);
        cpumask_clear_cpu(&sim->idle, cpu->id);
        if (sim->env.nohz_idle && cpu->in_eqs)
                nohz_idle_exit(sim, cpu);
        if (sim->timeline_on) {
                timeline_cpu(sim->timeline, sim->now, cpu->id, next->name);
                if (next->rcu_nesting > 0)
                        timeline_end(sim->timeline, sim->now, "blocked", next->id);
        }
        cpu->curr = next;
        cpu_rank_changed(sim, cpu);
        next->state = TASK_RUNNING;
        next->cpu = cpu->id;
        next->exec_start = sim->now;
        next->picked_at = sim->now;
        /* A reader switched out inside its critical section is back: its
         * policy hears of it before the CPU's charges pass to it (below). */
        if (next->rcu_nesting > 0 && next->rcu_preempted && sim->policy->reader_resumed) {
                SIM_POLICY_CALL(sim, reader_resumed, sim->pol, next);
                sim_cover(sim, next);
        }
        /* Its next step, soon, draws from its generator (GSL's own
         * allocation, long unread; NULL for a kernel thread: harmless). */
        __builtin_prefetch(next->rng);
        next->overhead_ns += cpu->pending_overhead_ns;
        cpu->pending_overhead_ns = 0;
        if (next->rr_ticks_left <= 0)
                next->rr_ticks_left = (int)CLAMP(sim->sc->rr_timeslice_ns / sim->tick_ns, 1, INT_MAX);
        if (!task_is_rt(next))
                update_min_vruntime(cpu);
        sched_burn_start(sim, next);
}

struct task *sched_switching_in(const struct sim *sim, int cpu)
{
        return sim->cpus[cpu].switching_in;
}

void sched_flush(struct sim *sim)
{
        while (sim->nresched > 0) {
                struct cpu *cpu = &sim->cpus[sim->resched[--sim->nresched]];

                cpu->resched_listed = false;
                if (cpu->need_resched)
                        schedule(sim, cpu);
        }
}

/* ---- priorities ---- */

/* A class change dequeues the task with DEQUEUE_SAVE and enqueues it with
 * ENQUEUE_RESTORE (__sched_setscheduler(), rt_mutex_setprio()): leaving
 * the fair class, dequeue_entity() keeps its vruntime relative to the
 * queue's min_vruntime; coming back, enqueue_entity() adds the queue's
 * min_vruntime to it.  So a task that was RT from the start (lag 0) joins
 * at min_vruntime and competes fairly at once, where an absolute vruntime
 * kept from long ago would run it far ahead of (or behind) the others. */
static void rebase_vruntime(struct sim *sim, struct task *t, bool to_rt)
{
        struct cpu *cpu = cpu_of(sim, t);

        if (to_rt) {
                if (t->state == TASK_RUNNING && cpu->curr == t)
                        sched_update_curr(sim, cpu);
                t->vruntime_lag = t->vruntime - cpu->min_vruntime;
        } else {
                t->vruntime = cpu->min_vruntime + t->vruntime_lag;
        }
}

static bool update_prio(struct sim *sim, struct task *t, enum boost_chain how)
{
        int p = MIN(t->normal_prio, t->boost_prio);
        int pi = sim->sched_hooks->pi_prio(t);
        struct cpu *cpu = cpu_of(sim, t);

        p = MIN(p, pi);
        if (p == t->prio) {
                /* Who decides it may have changed all the same. */
                sim->sched_hooks->prio_changed(sim, t, p);
                /* A chain walk still requeues a waiter that setprio left stale
                 * (rt_mutex_adjust_pi() compares the waiter's prio, not the task's). */
                if (how == BOOST_ADJUST_PI && t->blocked_on && t->waiter_prio != p)
                        sim->sched_hooks->waiter_prio_changed(sim, t);
                return false;
        }
        bool worse = p > t->prio;
        int old = t->prio;

        /* a waiting periodic task is charged what ran at the old priority first */
        if (sim->rtwait_on[cpu->id]->len && t->state == TASK_RUNNING)
                rtwait_cpu_switching(sim, cpu);
        if (sim->env.vruntime_rebase && (old < PRIO_MAX_RT) != (p < PRIO_MAX_RT))
                rebase_vruntime(sim, t, p < PRIO_MAX_RT);

        sim_trace(sim, t->cpu, "sched_pi_setprio", "comm=%s pid=%d oldprio=%d newprio=%d", t->name, task_pid(t),
                  t->prio, p);
        timeline_prio(sim->timeline, sim->now, t->cpu, t->name, t->prio, p);

        switch (t->state) {
        case TASK_RUNNABLE:
                if (!heap_node_queued(&t->rq_node)) {
                        /* Being switched out of a CPU its affinity no longer allows
                         * (a policy's hook boosts it on the way): on no queue until
                         * schedule() places it, at this priority. */
                        t->prio = p;
                        break;
                }
                dequeue(sim, cpu, t);
                t->prio = p;
                enqueue(sim, cpu, t, false);
                if (preempts(sim, cpu, t))
                        sched_resched(sim, cpu->id);
                else
                        push_task(sim, cpu, t);
                break;
        case TASK_RUNNING:
                t->prio = p;
                cpu_rank_changed(sim, cpu);
                if (worse) {
                        struct task *n = peek_next(cpu);

                        /* Dropping to the fair class: let vruntime decide. */
                        if (n && (n->prio < p || p >= PRIO_MAX_RT))
                                sched_resched(sim, cpu->id);
                }
                break;
        case TASK_BLOCKED:
                t->prio = p;
                /* (Not when mutex_unlock() has just handed it the mutex.) */
                if (how == BOOST_ADJUST_PI && t->blocked_on)
                        sim->sched_hooks->waiter_prio_changed(sim, t);
                break;
        default:
                t->prio = p;
                break;
        }
        sim->sched_hooks->prio_changed(sim, t, old);
        return true;
}

bool sched_update_prio(struct sim *sim, struct task *t)
{
        return update_prio(sim, t, BOOST_ADJUST_PI);
}

/* Is @t a task of this run?  (A policy may hand the engine any pointer.) */
static bool task_of_sim(const struct sim *sim, const struct task *t)
{
        return t && t->id >= 0 && (guint)t->id < sim->tasks->len && g_ptr_array_index(sim->tasks, t->id) == t;
}

void sched_set_boost_prio(struct sim *sim, struct task *t, int prio, enum boost_chain how)
{
        /* checked always: a bad value would index cpupri's levels out of range */
        if (!task_of_sim(sim, t)) {
                sim_policy_breach(sim, "sched_set_boost_prio() of %p, not a task of this run", (void *)t);
                return;
        }
        if (prio != PRIO_NONE && (prio < 0 || prio >= PRIO_MAX)) {
                sim_policy_breach(sim, "sched_set_boost_prio(%s, %d): a priority is 0..%d, or PRIO_NONE", t->name,
                                  prio, PRIO_MAX - 1);
                return;
        }
        /* a boost held at exit is a breach (task_exit()); one given after it, the same (#49) */
        if (prio != PRIO_NONE && (t->state == TASK_EXITED || t->state == TASK_EXITING)) {
                sim_policy_breach(sim, "sched_set_boost_prio(%s, %d): the task has exited", t->name, prio);
                return;
        }
        t->boost_prio = prio;
        update_prio(sim, t, how);
}

void sched_set_class(struct sim *sim, struct task *t, const struct sched_spec *spec)
{
        if (t->prio < t->normal_prio)
                sim_count_task_event(sim, t, EE_CLASS_CHANGE_BOOSTED);
        if (t->rcu_nesting > 0)
                sim_count_event(sim, EE_CLASS_CHANGE_IN_SECTION);
        t->sched = *spec;
        t->normal_prio = sched_spec_prio(spec);
        t->weight = sched_spec_weight(spec);
        t->rr_ticks_left = 0;
        if (!sched_update_prio(sim, t) && t->state == TASK_RUNNING)
                sched_resched(sim, t->cpu);
}

void sched_set_affinity(struct sim *sim, struct task *t, const struct cpumask *mask)
{
        if (t->prio < t->normal_prio)
                sim_count_task_event(sim, t, EE_AFFINITY_CHANGE_BOOSTED);
        task_set_affinity(t, mask, sim->ncpus);
        if (cpumask_test(mask, t->cpu))
                return;
        if (t->state == TASK_RUNNING) {
                sched_resched(sim, t->cpu);     /* schedule() pushes it away */
        } else if (t->state == TASK_RUNNABLE) {
                push_task(sim, cpu_of(sim, t), t);
        } else {
                t->cpu = cpumask_first(mask);   /* where it wakes */
        }
}

/* ---- the tick ---- */

/* balance_runtime() / do_balance_runtime() of kernel/sched/rt.c, with
 * RT_RUNTIME_SHARE: a CPU out of RT runtime takes from each other CPU a
 * 1/nr_cpus share of what that one has left unused this period, until it has
 * the whole period.  Borrowed runtime is not given back at the next period
 * (the kernel returns it only when the root domain changes). */
static void balance_runtime(struct sim *sim, struct cpu *cpu)
{
        int64_t period = sim->sc->rt_period_ns;

        if (!sim->sc->rt_runtime_share)
                return;
        for (int c = 0; c < sim->ncpus && cpu->rt_runtime_ns < period; c++) {
                struct cpu *o = &sim->cpus[c];
                int64_t diff;

                if (o == cpu)
                        continue;
                sched_update_curr(sim, o);
                diff = (o->rt_runtime_ns - o->rt_time_ns) / sim->ncpus;
                if (diff <= 0)
                        continue;
                diff = MIN(diff, period - cpu->rt_runtime_ns);
                o->rt_runtime_ns -= diff;
                cpu->rt_runtime_ns += diff;
        }
}

/* ---- periodic load balancing: kernel/sched/fair.c ----
 *
 * From the tick, each CPU balances each of its domains every balance
 * interval (sd->balance_interval, starting at the domain's weight in ms --
 * its CPU count -- and times sd->busy_factor 16 while the CPU is busy, at
 * most HZ * cpus / 10 jiffies as max_load_balance_interval), lowest level
 * first as rebalance_domains() does.  The lower level is the CPU's group of
 * SCHED_DOMAIN_SPAN CPUs (an LLC), whose groups are single CPUs; above it,
 * when there are more CPUs, one domain over all of them whose groups are
 * those spans.  find_busiest_group(): the busiest group other than this
 * CPU's, by fair load over capacity, must be above imbalance_pct 117% of
 * the local group's; find_busiest_queue(): its busiest CPU.  A CPU's load is
 * the weight of its runnable fair tasks over its capacity for them, which
 * RT time takes away (scale_rt_capacity(), from a PELT-style average of RT
 * time: 32 ms half-life).  A queued (not running) fair task of the busiest
 * CPU whose affinity allows this one and whose move narrows the gap
 * migrates here (detach_tasks()/can_migrate_task()).  docs/design.md lists
 * what is simplified. */
#define BALANCE_BUSY_FACTOR 16
#define BALANCE_IMBALANCE_PCT 117
#define PELT_HALFLIFE_NS (32 * NSEC_PER_MSEC)

static double fair_capacity(const struct cpu *cpu)
{
        return MAX(1.0, 1024.0 * (1.0 - cpu->rt_avg));
}

static double fair_weight_of(const struct cpu *cpu)
{
        return (double)(cpu->fair_weight + (cpu->curr && !task_is_rt(cpu->curr) ? cpu->curr->weight : 0));
}

static double fair_load(const struct cpu *cpu)
{
        return fair_weight_of(cpu) * 1024.0 / fair_capacity(cpu);
}

/* A domain level's span around @cpu and the size of its groups. */
static void domain_of(const struct sim *sim, int level, int cpu, int *lo, int *hi, int *group)
{
        if (level == 0) {
                *lo = cpu / SCHED_DOMAIN_SPAN * SCHED_DOMAIN_SPAN;
                *hi = MIN(sim->ncpus, *lo + SCHED_DOMAIN_SPAN);
                *group = 1;
        } else {
                *lo = 0;
                *hi = sim->ncpus;
                *group = SCHED_DOMAIN_SPAN;
        }
}

static int domain_levels(const struct sim *sim)
{
        return sim->ncpus > SCHED_DOMAIN_SPAN ? 2 : 1;
}

/* update_sg_lb_stats(): a group's load is its fair weight over its capacity. */
static double group_load(const struct sim *sim, int first, int size)
{
        double weight = 0, capacity = 0;

        for (int c = first; c < MIN(sim->ncpus, first + size); c++) {
                weight += fair_weight_of(&sim->cpus[c]);
                capacity += fair_capacity(&sim->cpus[c]);
        }
        return weight * 1024.0 / capacity;
}

/* The busiest CPU with queued fair tasks in [@first, @first + @size), or NULL. */
static struct cpu *busiest_queue(struct sim *sim, int first, int size, const struct cpu *this)
{
        struct cpu *busiest = NULL;

        for (int c = first; c < MIN(sim->ncpus, first + size); c++) {
                struct cpu *o = &sim->cpus[c];

                if (o != this && heap_size(&o->fair_rq) && (!busiest || fair_load(o) > fair_load(busiest)))
                        busiest = o;
        }
        return busiest;
}

static void load_balance(struct sim *sim, struct cpu *this, int level)
{
        struct cpu *busiest = NULL;
        double this_load = fair_load(this), gap;
        int lo, hi, group;

        domain_of(sim, level, this->id, &lo, &hi, &group);
        if (group == 1) {
                busiest = busiest_queue(sim, lo, hi - lo, this);
                if (!busiest || fair_load(busiest) * 100 <= this_load * BALANCE_IMBALANCE_PCT)
                        return;
        } else {
                int local = this->id / group * group, top = -1;
                double top_load = 0, local_load = group_load(sim, local, group);

                for (int g = lo; g < hi; g += group) {
                        double l;

                        if (g == local || !busiest_queue(sim, g, group, this))
                                continue;
                        l = group_load(sim, g, group);
                        if (top < 0 || l > top_load) {
                                top = g;
                                top_load = l;
                        }
                }
                if (top < 0 || top_load * 100 <= local_load * BALANCE_IMBALANCE_PCT)
                        return;
                busiest = busiest_queue(sim, top, group, this);
                if (fair_load(busiest) <= this_load)
                        return;
        }
        gap = fair_load(busiest) - this_load;
        for (uint32_t i = 0; i < heap_size(&busiest->fair_rq); i++) {
                struct task *t = rq_task(heap_slot_at(&busiest->fair_rq, i)->node);
                double moved = (double)t->weight * 1024.0 / fair_capacity(this);

                /* allowed here, and the move narrows the gap rather than reversing it */
                if (!task_allowed_on(t, this->id) || moved >= gap)
                        continue;
                dequeue(sim, busiest, t);
                migrate_vruntime(sim, t, busiest->id, this->id);
                enqueue(sim, this, t, false);
                if (preempts(sim, this, t))
                        sched_resched(sim, this->id);
                return;
        }
}

static void rebalance_domains(struct sim *sim, struct cpu *cpu);

/* A tickless idle CPU's rt_avg, decayed over the ticks it did not take
 * (it ran no RT time meanwhile). */
static void nohz_decay_rt_avg(struct sim *sim, struct cpu *cpu)
{
        int64_t missed = (sim->now - cpu->tick_stopped_ns) / sim->tick_ns;

        if (missed > 0) {
                cpu->rt_avg *= exp2(-(double)(missed * sim->tick_ns) / PELT_HALFLIFE_NS);
                cpu->tick_stopped_ns += missed * sim->tick_ns;
        }
        cpu->rt_ns_at_tick = cpu->rt_ns;
}

/* nohz_balancer_kick() -> _nohz_idle_balance(): a busy CPU with fair tasks
 * waiting balances on behalf of the tickless idle CPUs whose balance is due
 * (the kernel's idle load balancer runs on one of them; here the busy CPU's
 * tick does it, at the same times). */
static void nohz_idle_balance(struct sim *sim, struct cpu *busy)
{
        int64_t next = SIM_TIME_NEVER;

        if (heap_size(&busy->fair_rq) == 0 || sim->now < sim->nohz_next_balance_ns)
                return;
        for (int c = 0; c < sim->ncpus; c++) {
                struct cpu *cpu = &sim->cpus[c];

                if (!cpu->tick_stopped)
                        continue;
                nohz_decay_rt_avg(sim, cpu);
                rebalance_domains(sim, cpu);
                for (int level = 0; level < domain_levels(sim); level++)
                        next = MIN(next, cpu->next_balance_ns[level]);
        }
        sim->nohz_next_balance_ns = next;
}

static void balance_tick(struct sim *sim, struct cpu *cpu)
{
        double decay = exp2(-(double)sim->tick_ns / PELT_HALFLIFE_NS);      /* per tick */

        sched_update_curr(sim, cpu);
        cpu->rt_avg = cpu->rt_avg * decay +
                      (1 - decay) * MIN(1.0, (double)(cpu->rt_ns - cpu->rt_ns_at_tick) / (double)sim->tick_ns);
        cpu->rt_ns_at_tick = cpu->rt_ns;
        rebalance_domains(sim, cpu);
        if (sim->env.nohz_idle)
                nohz_idle_balance(sim, cpu);
}

/* rebalance_domains(): each domain level whose interval is up. */
static void rebalance_domains(struct sim *sim, struct cpu *cpu)
{
        for (int level = 0; level < domain_levels(sim); level++) {
                int lo, hi, group;
                int64_t interval;

                if (sim->now < cpu->next_balance_ns[level])
                        continue;
                load_balance(sim, cpu, level);
                domain_of(sim, level, cpu->id, &lo, &hi, &group);
                interval = (int64_t)(hi - lo) * NSEC_PER_MSEC * (cpu->curr ? BALANCE_BUSY_FACTOR : 1);
                /* max_load_balance_interval: HZ * cpus / 10 jiffies, i.e. cpus x 100 ms */
                interval = MIN(interval, (int64_t)sim->ncpus * NSEC_PER_SEC / 10);
                cpu->next_balance_ns[level] = sim->now + MAX(interval, sim->tick_ns);
        }
}

/* Coverage: the kernel threads queued on @cpu at its tick, kept from it. */
static void count_waiting_kthreads(struct sim *sim, const struct cpu *cpu)
{
        for (guint i = 0; i < sim->tasks->len; i++) {
                const struct task *t = sim_task(sim, (int)i);

                if (!t->kthread || t->state != TASK_RUNNABLE || t->cpu != cpu->id)
                        continue;
                sim_count_event(sim, t->policy_thread ? EE_KTHREAD_WAITS_POLICY
                                     : g_str_has_prefix(t->name, "rcu") ? EE_KTHREAD_WAITS_RCU
                                     : EE_KTHREAD_WAITS_OTHER);
        }
}

void sched_tick(struct sim *sim, struct cpu *cpu)
{
        struct task *curr = cpu->curr;

        if (sim->events_on)
                count_waiting_kthreads(sim, cpu);
        if (sim->sc->load_balance)
                balance_tick(sim, cpu);
        if (!curr || curr->state != TASK_RUNNING)
                return;
        sched_update_curr(sim, cpu);
        if (task_is_rt(curr)) {
                if (curr->sched.policy == SCHED_POLICY_RR && --curr->rr_ticks_left <= 0) {
                        struct task *n = rq_task(heap_peek(&cpu->rt_rq));

                        /* Requeue at the tail only if someone of equal priority waits. */
                        if (n && n->prio <= curr->prio)
                                sched_resched(sim, cpu->id);
                        else
                                curr->rr_ticks_left = (int)CLAMP(sim->sc->rr_timeslice_ns / sim->tick_ns, 1, INT_MAX);
                }
                /* sched_rt_runtime_exceeded(): over its runtime, a CPU first borrows */
                if (sim->env.rt_runtime_ns >= 0 && !cpu->rt_throttled && cpu->rt_time_ns > cpu->rt_runtime_ns)
                        balance_runtime(sim, cpu);
                if (sim->env.rt_runtime_ns >= 0 && !cpu->rt_throttled && cpu->rt_time_ns > cpu->rt_runtime_ns) {
                        if (sim->rtwait_on[cpu->id]->len)
                                rtwait_cpu_switching(sim, cpu);
                        cpu->rt_throttled = true;
                        cpu->rt_throttle_windows++;
                        cpu_rank_changed(sim, cpu);
                        sched_resched(sim, cpu->id);
                }
        } else if (heap_size(&cpu->fair_rq)) {
                int64_t total = cpu->fair_weight + curr->weight;
                int64_t slice = sim->env.sched_latency_ns * curr->weight / total;
                struct task *left = rq_task(heap_peek(&cpu->fair_rq));

                if (slice < sim->env.min_granularity_ns)
                        slice = sim->env.min_granularity_ns;
                if (sim->now - curr->picked_at >= slice || curr->vruntime - left->vruntime > slice)
                        sched_resched(sim, cpu->id);
        }
}

/* ---- tickless idle ([scenario] nohz_idle, CONFIG_NO_HZ_IDLE) ---- */

/* tick_nohz_idle_stop_tick(): unless RCU still needs this CPU's tick
 * (rcu_needs_cpu(): callbacks queued here), the next event is no tick.
 * @firing: called from the tick itself, which then does not re-arm. */
static void nohz_stop_tick(struct sim *sim, struct cpu *cpu, bool firing)
{
        if (cpu->tick_stopped || sim->sched_hooks->needs_cpu(sim, cpu->id))
                return;
        if (!firing)
                eventq_cancel(&sim->q, &cpu->tick_ev);
        cpu->tick_stopped = true;
        cpu->tick_stopped_ns = sim->now;
        sim->nohz_next_balance_ns = 0;  /* recomputed by the next nohz_idle_balance() */
}

/* The idle loop: ct_idle_enter() puts the CPU in an extended quiescent
 * state, then the tick stops if it may. */
static void nohz_idle_enter(struct sim *sim, struct cpu *cpu, bool firing)
{
        if (!cpu->in_eqs) {
                cpu->in_eqs = true;
                sim->sched_hooks->eqs_enter(sim, cpu->id);
        }
        nohz_stop_tick(sim, cpu, firing);
}

/* Leaving idle: ct_idle_exit(), and tick_nohz_idle_exit() restarts the tick
 * on its grid (tick_nohz_restart(): hrtimer_forward() past now). */
static void nohz_idle_exit(struct sim *sim, struct cpu *cpu)
{
        cpu->in_eqs = false;
        sim->sched_hooks->eqs_exit(sim, cpu->id);
        if (cpu->tick_stopped) {
                /* the first tick of this CPU's after now (the grid's jiffy, or the next) */
                int64_t j = MAX(1, timer_wheel_jiffies(sim));

                if (timer_wheel_tick_ns(sim, cpu->id, j) <= sim->now)
                        j++;
                if (sim->sc->load_balance)
                        nohz_decay_rt_avg(sim, cpu);
                cpu->tick_stopped = false;
                eventq_schedule(&sim->q, &cpu->tick_ev, timer_wheel_tick_ns(sim, cpu->id, j));
        }
}

static void tick_event(struct sim *sim, struct event *ev)
{
        struct cpu *cpu = container_of(ev, struct cpu, tick_ev);

        sim->this_cpu = cpu->id;
        sched_tick(sim, cpu);
        sim->sched_hooks->tick(sim, cpu->id);
        if (sim->policy->tick)
                SIM_POLICY_CALL(sim, tick, sim->pol, cpu->id);
        /* an interrupt in the idle loop: tick_nohz_irq_exit() stops it again */
        if (sim->env.nohz_idle && !cpu->curr && !cpu->need_resched) {
                nohz_idle_enter(sim, cpu, true);
                if (cpu->tick_stopped)
                        return;
        }
        eventq_schedule(&sim->q, ev, timer_wheel_tick_ns(sim, cpu->id, timer_wheel_tick_jiffy(sim, cpu->id, sim->now) + 1));
}

static void rt_period_event(struct sim *sim, struct event *ev)
{
        for (int c = 0; c < sim->ncpus; c++) {
                struct cpu *cpu = &sim->cpus[c];

                sched_update_curr(sim, cpu);
                /* do_sched_rt_period_timer(): a throttled CPU tries to borrow first */
                if (cpu->rt_throttled)
                        balance_runtime(sim, cpu);
                cpu->rt_time_ns = MAX(0, cpu->rt_time_ns - cpu->rt_runtime_ns);
                if (cpu->rt_throttled && cpu->rt_time_ns < cpu->rt_runtime_ns) {
                        /* what waited here until now waited for the throttling */
                        if (sim->rtwait_on[cpu->id]->len)
                                rtwait_cpu_switching(sim, cpu);
                        cpu->rt_throttled = false;
                        cpu_rank_changed(sim, cpu);
                        sched_resched(sim, c);
                }
        }
        eventq_schedule(&sim->q, ev, sim->now + sim->sc->rt_period_ns);
}

char *sched_describe_prio(int prio)
{
        return units_format_prio(prio);
}

void sim_charge_task(struct sim *sim, struct task *t, enum cost_kind kind, int n, enum cost_path path)
{
        int64_t ns = sim->cost_ns[kind] * n;

        sim->cost_count[kind] += (uint64_t)n;
        sim->cost_total_ns[kind] += ns;
        sim->path_total_ns[path] += ns;
        if (ns)
                sched_burn_extend(sim, t, ns);
}
