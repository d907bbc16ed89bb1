/* tracedat.h - the tracepoints as a trace-cmd data file (trace.dat, v6).
 *
 * The same events as the ftrace text (sched_switch, sched_wakeup,
 * sched_pi_setprio, rcu:rcu_grace_period, rcu:rcu_preempt_task,
 * rcu:rcu_unlock_preempted_task, rcuboost:rcuboost_boost and, as the real
 * kernel's module writes it, rcuboost:rcuboost_read_section), written in the
 * documented version 6 layout (trace-cmd.dat.v6(5)): the headers and event
 * format files a kernel would export, then per-CPU ring-buffer pages of 4096
 * bytes, so that `trace-cmd report` and KernelShark read them.  libtracecmd
 * (Debian's libtracecmd-dev 3.1) has no call that encodes an event: it
 * copies a live tracefs and files of raw ring-buffer pages, so the file is
 * written here (docs/outputs.md).
 *
 * Events are kept in memory until tracedat_write(); comm fields hold 15
 * characters as the kernel's TASK_COMM_LEN 16 does (full names are in the
 * file's cmdlines, which is what trace-cmd prints before the CPU).
 */
#ifndef RCUBOOST_TRACEDAT_H
#define RCUBOOST_TRACEDAT_H

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

struct tracedat;

struct tracedat *tracedat_new(int ncpus);
void tracedat_free(struct tracedat *td);
/* One tracepoint: @fields is the text payload the ftrace output prints. */
void tracedat_event(struct tracedat *td, int64_t now, int cpu, const char *comm, int pid, const char *event,
                    const char *fields);
/* Write the whole file to @f. */
gboolean tracedat_write(struct tracedat *td, FILE *f, GError **error);

#endif
