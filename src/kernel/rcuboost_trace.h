/* SPDX-License-Identifier: GPL-2.0 */
/* rcuboost_trace.h - the module's own trace events, beside the kernel's in
 * trace.dat: read-side sections, memory waiting on RCU, grace periods. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rcuboost

#if !defined(_RCUBOOST_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _RCUBOOST_TRACE_H

#include <linux/tracepoint.h>

/* A task's outermost rcu_read_lock() (enter=1) or rcu_read_unlock() (enter=0). */
TRACE_EVENT(rcuboost_read_section,
        TP_PROTO(int enter),
        TP_ARGS(enter),
        TP_STRUCT__entry(__field(int, enter)),
        TP_fast_assign(__entry->enter = enter;),
        TP_printk("%s", __entry->enter ? "enter" : "exit")
);

/* Each sample: the bytes waiting on RCU and rcu_get_gp_seq(). */
TRACE_EVENT(rcuboost_sample,
        TP_PROTO(long long bytes, unsigned long gp_seq),
        TP_ARGS(bytes, gp_seq),
        TP_STRUCT__entry(__field(long long, bytes) __field(unsigned long, gp_seq)),
        TP_fast_assign(__entry->bytes = bytes; __entry->gp_seq = gp_seq;),
        TP_printk("bytes=%lld gp_seq=%lu gp_in_progress=%d", __entry->bytes, __entry->gp_seq,
                  (int)(__entry->gp_seq & 3) != 0)
);

#endif

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE rcuboost_trace
#include <trace/define_trace.h>
