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

void sim_note_jiffies(struct sim *sim, const char *key, int64_t ns, bool up)
{
        int64_t jiffies = up ? (ns + sim->tick_ns - 1) / sim->tick_ns : ns / sim->tick_ns;
        int64_t *in_effect;

        g_autofree char *specific = g_strconcat("policy:", sim->policy->name, NULL);

        /* a value given (in the scenario or by --set), not a default made for the kernel's HZ/100 */
        if (ns == jiffies * sim->tick_ns || g_hash_table_contains(sim->params_in_effect, key) ||
            !(g_key_file_has_key(sim->sc->kf, specific, key, NULL) || g_key_file_has_key(sim->sc->kf, "policy", key, NULL)))
                return;
        in_effect = g_new(int64_t, 1);
        *in_effect = jiffies * sim->tick_ns;
        g_hash_table_insert(sim->params_in_effect, g_strdup(key), in_effect);
        g_ptr_array_add(sim->warnings, g_strdup_printf(
                "[policy] %s=%.6g ms: the kernel counts it in jiffies, rounded %s to %" G_GINT64_FORMAT
                " (%.6g ms at HZ=%d)", key, ns / 1e6, up ? "up" : "down", jiffies, *in_effect / 1e6,
                (int)(NSEC_PER_SEC / sim->tick_ns)));
}
