/* engine.c - the services every layer of the engine calls: cost charging,
 * stopping the run, a policy's breach of contract, memory samples and
 * tracepoints.  They touch only struct sim's own bookkeeping and the output
 * streams, and call no layer, so that the scheduler, RCU and the policies'
 * timers use them without calling up into sim.c's run loop. */
#include "engine.h"

#include <stdarg.h>

void sim_charge_cpu(struct sim *sim, int cpu, enum cost_kind kind, int n, enum cost_path path)
{
        int64_t ns = sim->cost_ns[kind] * n;

        sim->cost_count[kind] += (uint64_t)n;
        sim->cost_total_ns[kind] += ns;
        sim->path_total_ns[path] += ns;
        sim->cpus[cpu].pending_overhead_ns += ns;
}

void sim_stop(struct sim *sim, const char *reason, GError *error)
{
        if (sim->stopping) {
                if (error)
                        g_error_free(error);
                return;
        }
        sim->stopping = true;
        sim->end_reason = reason;
        sim->run_error = error;
}

void sim_policy_breach(struct sim *sim, const char *fmt, ...)
{
        g_autofree char *who = policy_describe(sim->policy);
        g_autofree char *what = NULL;
        va_list ap;

        va_start(ap, fmt);
        what = g_strdup_vprintf(fmt, ap);
        va_end(ap);
        sim_stop(sim, "error", g_error_new(POLICY_ERROR, POLICY_ERROR_CONTRACT, "%s, in %s: %s", who,
                                           sim->policy_hook ? sim->policy_hook : "its own thread or timer", what));
}

void sim_sample_memory(struct sim *sim)
{
        timeline_counter(sim->timeline, sim->now, "memory waiting on RCU", sim->rcu.memory_bytes);
        if (sim->memory_out)
                fprintf(outfile_stream(sim->memory_out), "%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                        ",%" G_GINT64_FORMAT "\n", (gint64)sim->now, (gint64)sim->rcu.memory_bytes,
                        (gint64)sim->rcu.outstanding);
}

void sim_tracepoint(struct sim *sim, int cpu, const char *event, const char *fmt, ...)
{
        const struct cpu *c = &sim->cpus[cpu];
        const struct task *curr = c->curr ? c->curr : c->switching_out;
        char fields[512];
        va_list ap;

        va_start(ap, fmt);
        g_vsnprintf(fields, sizeof(fields), fmt, ap);
        va_end(ap);
        timeline_tracepoint(sim->timeline, sim->now, cpu, curr ? curr->name : "<idle>",
                            curr ? task_pid(curr) : 0, event, fields);
}
