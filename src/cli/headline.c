/* headline.c - the metrics a comparison or a sweep reports; see headline.h. */
#include "headline.h"

#include <math.h>

#include "sim/scenario/units.h"

const struct headline_metric headline[HEADLINE_COUNT] = {
        { "out of memory", "memory.oom_time_ns", HEADLINE_OOM, NULL },
        { "peak memory", "memory.peak_bytes", HEADLINE_BYTES, NULL },
        { "grace periods", "rcu.grace_periods", HEADLINE_INT, NULL },
        { "GP p50", "gp_latency.p50_ns", HEADLINE_NS, NULL },
        { "GP p99", "gp_latency.p99_ns", HEADLINE_NS, NULL },
        { "GP max", "rcu.gp_max_at_least_ns", HEADLINE_NS_AT_LEAST, NULL },
        { "GP stalled at end", "rcu.gp_in_progress_ns", HEADLINE_NS, NULL },
        { "GPs over threshold", "rcu.gp_over_threshold", HEADLINE_INT, NULL },
        { "callbacks over thr.", "rcu.callbacks_over_threshold", HEADLINE_INT, NULL },
        { "flip max", "flip_latency.max_ns", HEADLINE_NS, NULL },
        { "callback p99", "callback_latency.p99_ns", HEADLINE_NS, NULL },
        { "callback max", "callback_latency.max_ns", HEADLINE_NS_AT_LEAST, "callback_latency.max_at_least_ns" },
        { "sync p99", "sync_latency.p99_ns", HEADLINE_NS, NULL },
        { "RT wake-up p99", "rt_wakeup_top.p99_ns", HEADLINE_NS, NULL },
        { "RT wake-up max", "rt_wakeup_top.max_ns", HEADLINE_NS, NULL },
        { "boost delay p50", "policy_stats.boost_delay.p50_ns", HEADLINE_NS, NULL },
        { "boost delay max", "policy_stats.boost_delay.max_ns", HEADLINE_NS, NULL },
        { "boosted", "policy_stats.readers_boosted", HEADLINE_INT, NULL },
        { "boosted outside CS", "policy_stats.boosted_outside_cs_ns", HEADLINE_NS, NULL },
        { "booster CPU", "policy_stats.booster_cpu_ns", HEADLINE_NS, NULL },
        { "sched-path cost", "policy_stats.scheduler_path_ns", HEADLINE_NS, NULL },
        { "read-side cost", "policy_stats.read_side_ns", HEADLINE_NS, NULL },
        { "atomic ops", "policy_stats.atomic_ops", HEADLINE_INT, NULL },
        { "safety violations", "safety_violations", HEADLINE_INT, NULL },
};

const char *headline_column(const struct headline_metric *m)
{
        return m->column ? m->column : m->key;
}

char *headline_format(const struct headline_metric *m, double v, gboolean oom, gboolean at_least)
{
        if (isnan(v))
                return g_strdup("-");   /* nothing measured */
        switch (m->kind) {
        case HEADLINE_OOM:
                return oom ? g_strdup_printf("at %.3g s", v / 1e9) : g_strdup("no");
        case HEADLINE_BYTES:
                return units_format_size((int64_t)v);
        case HEADLINE_NS_AT_LEAST:
                if (at_least) {
                        g_autofree char *d = units_format_duration((int64_t)v);

                        return g_strdup_printf(">= %s", d);
                }
                /* fall through */
        case HEADLINE_NS:
                return v == 0 ? g_strdup("0") : units_format_duration((int64_t)v);
        case HEADLINE_INT:
                break;
        }
        return g_strdup_printf("%.0f", v);
}
