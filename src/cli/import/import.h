/* import.h - `rcuboost import`: a scenario from what a box recorded.
 *
 * Two readers fill one picture of the workload -- trace.c from a trace-cmd
 * recording (trace.dat, read with libtracecmd), rtapp.c from an rt-app JSON
 * workload -- and write.c turns it into an ordinary scenario file whose
 * comments say where each figure came from.  fit.c fits the run and sleep
 * lengths a trace shows to the distributions a scenario can draw from
 * (GSL: moments, sorting, the distributions' CDFs for a Kolmogorov-Smirnov
 * distance).  import.c reads the options and calls them.  docs/usage.md,
 * "Your own box as a scenario", is the user's side.
 */
#ifndef RCUBOOST_IMPORT_H
#define RCUBOOST_IMPORT_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

/* What a thread of the workload becomes: a [task:NAME] section. */
struct itask {
        char *name;             /* a scenario task name: the comm, made unique */
        char *comm;             /* as recorded */
        int pid;                /* -1 from rt-app */
        char *sched;            /* "fifo:10", "normal:0" */
        char *sched_note;       /* where that came from */
        char *affinity;         /* "0", "0,1", or NULL: any CPU */
        char *affinity_note;
        int64_t start_ns;       /* its first wake-up (or first run), from the workload's start */
        const struct itask *start_in; /* woken by this reader from inside its section (start_in=), or NULL */
        int64_t start_in_at;    /* ... whose section began then */
        guint start_in_run;     /* ... at the start of this run (index into bursts) */
        char *program;          /* the program line */
        int64_t period_ns;      /* periodic: its period, else 0 */
        int count;              /* copies (rt-app's instance), 0 or 1: one */
        GPtrArray *notes;       /* char *: comment lines, where each figure came from */

        /* measured (trace.dat) */
        int64_t cpu_ns;         /* time on a CPU */
        int64_t wakeups;        /* wake-ups after a sleep */
        GArray *bursts;         /* int64_t: CPU time from a wake-up to its next sleep, less the
                                 * context switches the model charges itself */
        int64_t bursts_ns;      /* their CPU time as recorded, switches and all */
        GArray *sleeps;         /* int64_t: from a sleep to the wake-up that ends it */
        GArray *wake_times;     /* int64_t: each wake-up, from the workload's start */
        int64_t callbacks;      /* rcu:rcu_callback events of this thread */
        uint64_t cpus_used;     /* bit C: it ran on CPU C (the first 64) */
        GHashTable *prio_ns;    /* kernel prio -> int64_t * time run at it */
};

/* The workload: CPUs, how long, the tasks, and what the model's own kernel
 * threads were seen to do. */
struct import {
        char *source;           /* the file read */
        const char *format;     /* "trace.dat", "rt-app" */
        int ncpus;
        int64_t duration_ns;
        GPtrArray *tasks;       /* struct itask * */
        GPtrArray *sections;    /* char *: whole extra sections ("[sched]\nkey=v\n"), with comments */
        GPtrArray *notes;       /* char *: comment lines for the file's head */
        GPtrArray *mutexes;     /* char *: [mutex:NAME] names the programs use */
        char *imported_from;    /* NAME@SHA256: the scenario a kernel-run's trace.dat was a run of */
};

/* What the user tells the import that a trace cannot show. */
struct import_opts {
        double fold_below;      /* threads under this share of a CPU fold into one task */
        int64_t start_ns;       /* trace time the workload starts at (-1: the first event) */
        char **readers;         /* TASK=LENGTH: each burst of TASK begins with a section of LENGTH */
        char **call_rcus;       /* TASK=SIZE: each burst of TASK ends with call_rcu of SIZE */
        bool keep_all;          /* no folding, no harness threads left out */
};

struct import *import_new(const char *source, const char *format);
void import_free(struct import *im);
struct itask *import_task_new(const char *comm, int pid);
void import_task_free(struct itask *t);
void import_note(GPtrArray *notes, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* trace.c: read @path (trace-cmd's trace.dat); FALSE with @error naming
 * the file when it cannot be read or holds no sched_switch. */
gboolean import_trace(struct import *im, const char *path, const struct import_opts *o, GError **error);

/* rtapp.c: read @path (rt-app's JSON workload); FALSE with @error naming
 * the JSON path of what the model cannot run. */
gboolean import_rtapp(struct import *im, const char *path, GError **error);

/* fit.c: a scenario quantity for the lengths @ns (n >= 1): a constant where
 * they hardly vary, else the distribution of exp, normal, lognormal and
 * uniform nearest to them (Kolmogorov-Smirnov distance); *@how says which
 * and how well, for a comment. */
char *import_fit(const int64_t *ns, size_t n, char **how);
/* Is the series of wake-up times periodic -- their intervals regular, and
 * either more regular than the sleeps between, or (@rt: a real-time thread)
 * never off the grid that fits them?  Its period in *@period_ns and the
 * spread of the intervals in *@jitter_ns (as a standard deviation). */
bool import_periodic(const int64_t *times, size_t n, const int64_t *sleeps, size_t nsleeps, bool rt,
                     int64_t *period_ns, int64_t *jitter_ns);

/* write.c: the scenario's text. */
char *import_scenario_text(const struct import *im);

#endif
