/* hunt/child.c - a candidate evaluated in a child process (hunt
 * --eval-child), and code run in a forked child (docs/hunt.md). */
#include "../cli.h"
#include "../hscn.h"
#include "../scnedit.h"
#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>
#include "../../policies/policy.h"
#include "../../sim/engine/coverage.h"
#include "../../sim/scenario/expect.h"
#include "../../sim/scenario/kernel.h"
#include "../../sim/output/output.h"
#include "../../sim/output/report.h"
#include "../../sim/scenario/scenario.h"
#include "../../sim/sim.h"
#include "../../sim/scenario/units.h"

#include "hunt.h"

enum in_child_end hunt_in_child(gint64 timeout_us, gboolean (*fn)(void *data, GString *msg), void *data,
                                GString *msg)
{
        gint64 deadline = g_get_monotonic_time() + timeout_us;
        int fds[2], status = 0;
        pid_t pid;
        char buf[512];

        fflush(NULL);
        if (pipe(fds) != 0 || (pid = fork()) < 0) {
                g_string_append_printf(msg, "cannot start a child process: %s", g_strerror(errno));
                return IN_CHILD_CRASHED;
        }
        if (pid == 0) {
                g_autoptr(GString) said = g_string_new(NULL);
                gboolean ok;

                close(fds[0]);
                ok = fn(data, said);
                if (write(fds[1], said->str, said->len) < 0)
                        _exit(3);
                _exit(ok ? 0 : 1);
        }
        close(fds[1]);
        for (;;) {
                struct pollfd p = { fds[0], POLLIN, 0 };
                gint64 left = deadline - g_get_monotonic_time();
                ssize_t n;

                if (left <= 0 || poll(&p, 1, (int)MIN(left / 1000 + 1, 1000)) < 0) {
                        if (left > 0 && errno == EINTR)
                                continue;
                        if (left > 0)
                                break;
                        kill(pid, SIGKILL);
                        waitpid(pid, NULL, 0);
                        close(fds[0]);
                        return IN_CHILD_HUNG;
                }
                if (!p.revents)
                        continue;
                if ((n = read(fds[0], buf, sizeof(buf))) <= 0)
                        break;
                g_string_append_len(msg, buf, n);
        }
        close(fds[0]);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
        if (WIFEXITED(status) && WEXITSTATUS(status) <= 1)
                return WEXITSTATUS(status) ? IN_CHILD_FAILED : IN_CHILD_OK;
        g_string_truncate(msg, 0);
        if (WIFSIGNALED(status))
                g_string_append_printf(msg, "ended by signal %d (%s)", WTERMSIG(status), g_strsignal(WTERMSIG(status)));
        else
                g_string_append_printf(msg, "exited with status %d", WEXITSTATUS(status));
        return IN_CHILD_CRASHED;
}

/* What a child is asked and answers: the evaluation's state in lines of
 * "KEY ARGS...", the scenario after "text".  The child runs
 * hunt_eval_in_process() on it and prints the state back; before each run it
 * prints "run P SEED", so that a crash or a hang is pinned to its run. */
static void state_write(const struct hunt *h, const struct heval *ev, GString *o)
{
        g_string_append_printf(o, "seeds %d %d %d\nmargin %.17g\nruns %d\nbad %d\n", ev->seed_lo, ev->seed_hi,
                               ev->only, ev->margin, ev->runs, ev->bad ? 1 : 0);
        for (int p = 0; p < 2; p++)
                g_string_append_printf(o, "tick %d %" G_GINT64_FORMAT "\n", p, (gint64)ev->tick_ns[p]);
        for (guint k = 0; k < h->props->len; k++) {
                g_string_append_printf(o, "fails %u %d %d %" G_GUINT64_FORMAT "\n", k, ev->fails[0][k], ev->fails[1][k],
                                       ev->first_fail[k]);
                if (ev->fails[0][k])
                        g_string_append_printf(o, "mechanism %u %s\n", k, ev->mechanism[k]);
        }
        for (int w = 0; w < HUNT_COV_WORDS; w++)
                if (ev->cov[w])
                        g_string_append_printf(o, "cov %d %" G_GUINT64_FORMAT "\n", w, ev->cov[w]);
        if (ev->why)
                g_string_append_printf(o, "why %s\n", ev->why);
}

/* Read back what state_write() wrote (and "run" lines: the last run begun). */
static void state_read(const struct hunt *h, struct heval *ev, const char *text, int *run_p, uint64_t *run_seed)
{
        g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

        for (char **l = lines; *l; l++) {
                const char *rest = strchr(*l, ' ');
                guint k;
                int a, b, c;
                gint64 x;
                guint64 y;

                if (!rest)
                        continue;
                rest++;
                if (g_str_has_prefix(*l, "seeds ") && sscanf(rest, "%d %d %d", &a, &b, &c) == 3) {
                        ev->seed_lo = a, ev->seed_hi = b, ev->only = c;
                } else if (g_str_has_prefix(*l, "margin ")) {
                        ev->margin = g_ascii_strtod(rest, NULL);
                } else if (g_str_has_prefix(*l, "runs ") && sscanf(rest, "%d", &a) == 1) {
                        ev->runs = a;
                } else if (g_str_has_prefix(*l, "bad ") && sscanf(rest, "%d", &a) == 1) {
                        ev->bad = a;
                } else if (g_str_has_prefix(*l, "tick ") && sscanf(rest, "%d %" G_GINT64_FORMAT, &a, &x) == 2 &&
                           a >= 0 && a < 2) {
                        ev->tick_ns[a] = x;
                } else if (g_str_has_prefix(*l, "fails ") &&
                           sscanf(rest, "%u %d %d %" G_GUINT64_FORMAT, &k, &a, &b, &y) == 4 && k < h->props->len) {
                        ev->fails[0][k] = a, ev->fails[1][k] = b, ev->first_fail[k] = y;
                } else if (g_str_has_prefix(*l, "mechanism ") && sscanf(rest, "%u", &k) == 1 && k < h->props->len &&
                           strchr(rest, ' ')) {
                        g_strlcpy(ev->mechanism[k], strchr(rest, ' ') + 1, sizeof(ev->mechanism[k]));
                } else if (g_str_has_prefix(*l, "cov ") && sscanf(rest, "%d %" G_GUINT64_FORMAT, &a, &y) == 2 &&
                           a >= 0 && a < HUNT_COV_WORDS) {
                        ev->cov[a] = y;
                } else if (g_str_has_prefix(*l, "why ")) {
                        g_free(ev->why);
                        ev->why = g_strdup(rest);
                } else if (g_str_has_prefix(*l, "run ") && run_p &&
                           sscanf(rest, "%d %" G_GUINT64_FORMAT, &a, &y) == 2) {
                        *run_p = a, *run_seed = y;
                }
        }
}

/* `hunt --eval-child`: one evaluation asked on stdin, answered on stdout. */
int hunt_eval_child(struct hunt *h)
{
        g_autoptr(GString) in = g_string_new(NULL);
        g_autoptr(GString) o = g_string_new(NULL);
        struct heval ev = { 0 };
        char buf[4096];
        size_t n;
        const char *text;

        /* a candidate is a scenario file and its state: bounded as scenario files are (#59) */
        while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0) {
                g_string_append_len(in, buf, (gssize)n);
                if (in->len > 2 * (gsize)SCENARIO_MAX_BYTES) {
                        fprintf(stderr, "rcuboost: hunt --eval-child: a request over %d MiB\n",
                                2 * (SCENARIO_MAX_BYTES >> 20));
                        return EXIT_USAGE;
                }
        }
        text = strstr(in->str, "\ntext\n");
        if (!text || strlen(in->str) != in->len)        /* a NUL inside: not text */
                return EXIT_USAGE;
        ev.text = g_strdup(text + strlen("\ntext\n"));
        g_string_truncate(in, (gsize)(text - in->str) + 1);
        state_read(h, &ev, in->str, NULL, NULL);
        hunt_eval_in_process(h, &ev);
        state_write(h, &ev, o);
        fputs(o->str, stdout);
        fflush(stdout);
        g_free(ev.text);
        g_free(ev.why);
        return EXIT_OK;
}

/* P's (or Q's) run at @seed crashed or hung the child: property @kind fails
 * there, and the candidate's other seeds are not run -- the finding is made. */
static void child_failed(struct hunt *h, struct heval *ev, int p, uint64_t seed, enum hkind kind, const char *how)
{
        hunt_note_fail(h, ev, p, hunt_prop_of_kind(h, kind), seed, NULL, NULL, how);
        ev->runs++;
}

void hunt_eval_isolated(struct hunt *h, struct heval *ev)
{
        g_autoptr(GString) req = g_string_new(NULL);
        g_autoptr(GString) answer = g_string_new(NULL);
        g_autoptr(GError) e = NULL;
        GPid pid;
        int in_fd, out_fd, status = 0, run_p = 0;
        uint64_t run_seed = (uint64_t)(ev->seed_lo ? ev->seed_lo : 1);
        gint64 deadline = g_get_monotonic_time() + h->hang_us;
        bool hung = false;

        if (ev->seed_hi == 0) {
                ev->seed_lo = 1;
                ev->seed_hi = h->nseeds;
        }
        /* a signal ends the hunt: no child for what is left of the batch (#59) */
        if (cli_interrupt_status())
                return;
        state_write(h, ev, req);
        g_string_append_printf(req, "text\n%s", ev->text);
        if (!g_spawn_async_with_pipes(NULL, (char **)h->child_argv->pdata, NULL, G_SPAWN_DO_NOT_REAP_CHILD |
                                      G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &pid, &in_fd, &out_fd, NULL, &e)) {
                ev->bad = TRUE;
                ev->why = g_strdup_printf("cannot start a child to evaluate it: %s", e->message);
                return;
        }
        /* the request fits a pipe's buffer or is read as it is written */
        for (gsize off = 0; off < req->len;) {
                ssize_t w = write(in_fd, req->str + off, req->len - off);

                if (w <= 0)
                        break;
                off += (gsize)w;
        }
        close(in_fd);
        fcntl(out_fd, F_SETFL, fcntl(out_fd, F_GETFL) | O_NONBLOCK);
        for (;;) {
                char buf[4096];
                ssize_t r = read(out_fd, buf, sizeof(buf));

                if (r > 0) {
                        g_string_append_len(answer, buf, r);
                        /* the child says "run P SEED" as each run starts: --hang-timeout
                         * bounds one run, as the docs say, not the candidate's every seed (#59) */
                        deadline = g_get_monotonic_time() + h->hang_us;
                        continue;
                }
                if (r == 0)
                        break;
                if (errno != EAGAIN && errno != EINTR)
                        break;
                /* ... and ends the child at once, not at --hang-timeout (#59) */
                if (cli_interrupt_status()) {
                        kill(pid, SIGKILL);
                        break;
                }
                if (g_get_monotonic_time() > deadline) {
                        kill(pid, SIGKILL);
                        hung = true;
                        break;
                }
                g_usleep(1000);
        }
        close(out_fd);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
        g_spawn_close_pid(pid);
        /* a SIGINT at the terminal reached the child too: the hunt stops, nothing is found */
        if (cli_interrupt_status())
                return;
        state_read(h, ev, answer->str, &run_p, &run_seed);
        if (hung) {
                g_autofree char *bound = hscn_format_ns(h->hang_us * 1000);
                g_autofree char *how = g_strdup_printf("no end in %s", bound);

                child_failed(h, ev, run_p, run_seed, HPROP_HANG, how);
        } else if (WIFSIGNALED(status)) {
                g_autofree char *how = g_strdup_printf("signal %d (%s)", WTERMSIG(status), g_strsignal(WTERMSIG(status)));

                child_failed(h, ev, run_p, run_seed, HPROP_CRASH, how);
        } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !strstr(answer->str, "\nbad ")) {
                /* an exit() from inside the policy: the process ended mid-run */
                g_autofree char *how = g_strdup_printf("exit %d mid-run", WIFEXITED(status) ? WEXITSTATUS(status) : -1);

                child_failed(h, ev, run_p, run_seed, HPROP_CRASH, how);
        }
}
