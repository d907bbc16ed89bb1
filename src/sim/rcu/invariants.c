/* invariants.c - the engine checks itself, in debug and sanitizer builds.
 *
 * After every event (every 4096th in runs of more than 200 tasks, which
 * would otherwise be quadratic) the whole state is checked against what
 * the modules promise each other.  A violation aborts with a dump of the
 * state, so that the bug is found where it happens, not where it shows.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../engine/engine.h"
#include "rcupreempt.h"
#include "tree.h"

static void dump_and_abort(struct sim *sim, const char *what, const struct task *t)
{
        fprintf(stderr, "rcuboost: INVARIANT VIOLATED at %" G_GINT64_FORMAT " ns: %s%s%s\n",
                (gint64)sim->now, what, t ? " -- task " : "", t ? t->name : "");
        for (int c = 0; c < sim->ncpus; c++)
                fprintf(stderr, "  cpu%d: curr=%s rt_queued=%u fair_queued=%u%s\n", c,
                        sim->cpus[c].curr ? sim->cpus[c].curr->name : "-", heap_size(&sim->cpus[c].rt_rq),
                        heap_size(&sim->cpus[c].fair_rq), sim->cpus[c].rt_throttled ? " throttled" : "");
        for (guint i = 0; i < sim->tasks->len && i < 64; i++) {
                const struct task *x = sim_task(sim, (int)i);

                fprintf(stderr, "  %-20s %-9s cpu=%d prio=%d normal=%d boost=%d rcu=%d blocked_on=%s\n",
                        x->name, task_state_name(x->state), x->cpu, x->prio, x->normal_prio,
                        x->boost_prio == PRIO_NONE ? -1 : x->boost_prio, x->rcu_nesting,
                        x->blocked_on ? x->blocked_on->name : "-");
        }
        fprintf(stderr, "  rcu: state=%s memory=%" G_GINT64_FORMAT "\n", rcu_state_name(sim),
                (gint64)sim->rcu.memory_bytes);
        if (sim->rcu.preempt)
                fprintf(stderr, "  rcupreempt: completed=%" G_GINT64_FORMAT " flipsum=%" G_GINT64_FORMAT ",%"
                        G_GINT64_FORMAT "\n", (gint64)sim->rcu.preempt->completed,
                        (gint64)sim->rcu.preempt->flipsum[0], (gint64)sim->rcu.preempt->flipsum[1]);
        abort();
}

#define CHECK(cond, what, t) do { if (!(cond)) dump_and_abort(sim, what, t); } while (0)

/* Not instrumented by AddressSanitizer: the checker reads the whole state
 * after every event, and ASan's check of each of those reads made the
 * sanitized test suite several times slower (#60).  What it reads the
 * engine wrote, instrumented; UndefinedBehaviorSanitizer still covers it. */
__attribute__((no_sanitize("address")))
void sim_check_invariants(struct sim *sim)
{
        static const int every_large = 4096;
        int64_t sum[2] = { 0, 0 }, readers = 0, queued = 0, readers_on_mutex = 0;

        if (sim->tasks->len > 200 && sim->q.fired % every_large)
                return;
        /* A run that failed (a deadlock in the scenario) stops mid-event. */
        if (sim->run_error)
                return;
        for (int c = 0; c < sim->ncpus; c++) {
                const struct cpu *cpu = &sim->cpus[c];

                CHECK(!cpu->need_resched, "a CPU still needs rescheduling after the event", cpu->curr);
                if (cpu->curr) {
                        CHECK(cpu->curr->state == TASK_RUNNING, "a CPU's current task is not running", cpu->curr);
                        CHECK(cpu->curr->cpu == c, "a running task does not know its CPU", cpu->curr);
                        CHECK(cpumask_test(&cpu->curr->affinity, c), "a task runs outside its affinity",
                              cpu->curr);
                        CHECK(cpu->curr->any_cpu == cpumask_full(&cpu->curr->affinity, sim->ncpus),
                              "a task's any_cpu disagrees with its affinity", cpu->curr);
                        CHECK(!cpumask_test(&sim->idle, c), "a busy CPU is marked idle", cpu->curr);
                } else {
                        CHECK(cpumask_test(&sim->idle, c), "an idle CPU is not marked idle", NULL);
                }
                CHECK(cpupri_rank(&sim->cpupri, c) == sched_cpupri_rank(sim, c),
                      "a CPU's rank disagrees with what it runs", cpu->curr);
                /* Pull reads priorities and vruntimes from the keys. */
                for (uint32_t i = 0; i < heap_size(&cpu->rt_rq); i++) {
                        const struct heap_slot *sl = heap_slot_at(&cpu->rt_rq, i);
                        const struct task *t = container_of(sl->node, struct task, rq_node);

                        CHECK(sl->key == t->prio, "an RT queue key is not its task's priority", t);
                }
                for (uint32_t i = 0; i < heap_size(&cpu->fair_rq); i++) {
                        const struct heap_slot *sl = heap_slot_at(&cpu->fair_rq, i);
                        const struct task *t = container_of(sl->node, struct task, rq_node);

                        CHECK(sl->tie == t->vruntime, "a fair queue key is not its task's vruntime", t);
                        CHECK(!task_is_rt(t), "an RT task is on a fair queue", t);
                }
                CHECK(cpumask_test(&sim->fair_waiting, c) == (heap_size(&cpu->fair_rq) > 0),
                      "a waiting-task mask disagrees with its run queue", NULL);
                CHECK(cpupri_rank(&sim->rt_queued, c) ==
                      (heap_size(&cpu->rt_rq) ? heap_peek_key(&cpu->rt_rq) : CPUPRI_NONE),
                      "a CPU's most urgent queued RT priority is out of date", NULL);
                CHECK(heap_size(&cpu->fair_rq) == 0 ||
                      (heap_size(&cpu->fair_rq) <= sim->fair_max_len &&
                       cpumask_test(&sim->fair_by_len[heap_size(&cpu->fair_rq)], c)),
                      "a CPU is not in the set for its fair queue's length", NULL);
                if (sim->rcu.preempt) {
                        sum[0] += sim->rcu.preempt->cpus[c].flipctr[0];
                        sum[1] += sim->rcu.preempt->cpus[c].flipctr[1];
                }
        }
        CHECK(sim->cpupri_stale == -1, "a switch left a CPU's rank unsettled", NULL);
        CHECK(cpupri_consistent(&sim->cpupri), "cpupri disagrees with the CPUs' ranks", NULL);
        CHECK(cpupri_consistent(&sim->rt_queued), "the CPUs by queued RT priority disagree with the queues", NULL);
        for (uint32_t n = 1; n < sim->fair_by_len_cap; n++) {
                int in = 0;

                /* the CPUs' words only, as cpupri_consistent() counts (all 1024
                 * CPUs' words for each length were most of a checking run's
                 * time), and past the longest queue only whether any is set */
                for (int w = 0; w < (sim->ncpus + 63) / 64; w++) {
                        uint64_t word = sim->fair_by_len[n].w[w];

                        in += n <= sim->fair_max_len ? __builtin_popcountll(word) : word != 0;
                }
                CHECK(in == sim->fair_len_count[n] && (n <= sim->fair_max_len || in == 0) &&
                      (n != sim->fair_max_len || in > 0),
                      "the CPU sets by fair queue length disagree with their counts", NULL);
        }
        CHECK(!sim->rcu.preempt || (sum[0] == sim->rcu.preempt->flipsum[0] && sum[1] == sim->rcu.preempt->flipsum[1]),
              "flip-counter sums drifted from the per-CPU counters", NULL);
        CHECK(sim->rcu.memory_bytes >= 0 && sim->rcu.outstanding >= 0, "negative memory or callbacks", NULL);
        for (guint i = 0; i < sim->tasks->len; i++) {
                const struct task *t = sim_task(sim, (int)i);
                int expect = MIN(MIN(t->normal_prio, t->boost_prio), mutex_pi_prio(t));
                int steps = 0;

                CHECK(t->prio == expect, "effective priority is not min(normal, boost, inherited)", t);
                CHECK(t->rcu_nesting >= 0, "negative read-side nesting", t);
                readers += t->rcu_nesting > 0;
                readers_on_mutex += t->rcu_nesting > 0 && t->blocked_on;
                if (t->rcu_blocked_node) {
                        CHECK(t->rcu_nesting > 0, "a task on blkd_tasks is outside its critical section", t);
                        queued++;
                }
                if (t->state == TASK_RUNNING)
                        CHECK(sim->cpus[t->cpu].curr == t, "a running task is not on its CPU", t);
                if (t->state == TASK_RUNNABLE)
                        CHECK(heap_node_queued(&t->rq_node), "a runnable task is on no run queue", t);
                else
                        CHECK(!heap_node_queued(&t->rq_node), "a task that cannot run is queued", t);
                CHECK((t->state == TASK_BLOCKED) == (t->blocked_on != NULL),
                      "blocked state and mutex wait disagree", t);
                if (t->blocked_on && t->waiter_link.prev)
                        CHECK(((const struct task *)t->waiter_link.prev->data)->waiter_prio <= t->waiter_prio,
                              "a mutex's waiters are not in priority order", t);
                for (const struct task *o = t; o && o->blocked_on; o = o->blocked_on->owner)
                        CHECK(++steps <= (int)sim->tasks->len, "a cycle in the priority-inheritance chain", t);
        }
        CHECK(readers_on_mutex == sim->rcu.readers_on_mutex,
              "the count of readers waiting for a mutex is out of date", NULL);
        if (sim->rcu.preempt)
                CHECK(sum[0] + sum[1] == readers, "flip counters do not add up to the readers inside", NULL);
        for (int i = 0; i < rcu_tree_nleaves(sim); i++) {
                const struct rcu_node *rnp = rcu_tree_leaf(sim, i);

                queued -= (int64_t)rnp->blkd_tasks.length;
                CHECK(!rnp->gp_tasks || g_queue_link_index((GQueue *)&rnp->blkd_tasks, rnp->gp_tasks) >= 0,
                      "a leaf's gp_tasks is not on its blkd_tasks", NULL);
        }
        CHECK(queued == 0, "tasks marked blocked do not add up to the leaves' blkd_tasks", NULL);
}
