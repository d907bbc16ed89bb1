/* hunt/props.c - the properties a run is checked for: parsed, checked before
 * the hunt, and the defaults (docs/hunt.md). */
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

static void hprop_free(void *data)
{
        struct hprop *p = data;

        g_free(p->name);
        g_free(p->line);
        expect_free(p->x);
}

/* "gp_max_at_least<=100ms" as an [expect] line would say it for any policy. */
gboolean hprop_parse(const char *text, struct hprop *p, GError **error)
{
        const char *eq = strchr(text, '=');
        g_autofree char *key = NULL;
        g_autofree char *name = NULL;

        memset(p, 0, sizeof(*p));
        /* each finding's header repeats the property: a line break there
         * would inject a line into every finding, which then no longer loads */
        if (strpbrk(text, "\n\r")) {
                g_autofree char *shown = g_strescape(text, NULL);

                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "--property: a line break in '%s': one property a line", shown);
                return FALSE;
        }
        if (!eq || eq == text) {
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "--property '%s': expected METRIC OP VALUE, as an [expect] line without its policy "
                            "(e.g. gp_max_at_least<=100ms)", text);
                return FALSE;
        }
        {
                g_autofree char *metric = g_strndup(text, (gsize)(eq - text));

                key = g_strconcat("*.", metric, NULL);
        }
        p->x = expect_parse(key, eq + 1, error);
        if (!p->x) {
                g_prefix_error(error, "--property '%s': ", text);
                return FALSE;
        }
        if (p->x->rate >= 0) {
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "--property '%s': a rate over seeds is what hunt measures itself (--seeds); give the "
                            "outcome per run (e.g. oom=false)", text);
                expect_free(p->x);
                return FALSE;
        }
        name = g_strdup(p->x->metric);
        g_strcanon(name, "abcdefghijklmnopqrstuvwxyz0123456789_", '_');
        p->name = g_steal_pointer(&name);
        p->line = g_strdup(text);
        return TRUE;
}

/* Can each policy run (its create() succeeds), and does each --property
 * name a key of the policies' summaries, with a value of
 * its kind, as check holds an [expect] line to (#49: a misspelt metric
 * never failed, and "gp_max_at_least<=1" -- 1 ns -- gave findings whose
 * replay check refused): asked of a summary of each policy on a scenario
 * hunt would draw. */
static gboolean props_check(GArray *props, guint first, const struct boost_policy_ops *const *ops,
                            GError **error)
{
        gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
        struct hscn s;
        g_autofree char *text = NULL;
        gboolean ok = TRUE;

        gsl_rng_set(rng, 1);
        hscn_random(rng, ops[0], ops[1], &s);
        gsl_rng_free(rng);
        text = hscn_render(&s, 1, NULL, NULL);
        g_autoptr(RcbScenario) sc = scenario_load_data(text, "hunt.scn", NULL, error);

        for (int p = 0; ok && sc && p < 2 && ops[p]; p++) {
                static const char plain[] = "[scenario]\ncpus=1\nduration=10ms\n"
                                            "[task:reader]\nprogram=rcu_read_lock; compute 1ms; rcu_read_unlock\n";
                g_autoptr(RcbScenario) one = NULL;
                GError *e = NULL;
                g_autoptr(RcbSim) sim = sim_new(sc, &(struct sim_options){ .policy = ops[p]->name }, &e);

                /* a create() that fails here may succeed elsewhere (a finding, "create"):
                 * refused at once only if it fails on the plainest machine too */
                if (!sim && g_error_matches(e, POLICY_ERROR, POLICY_ERROR_CREATE) &&
                    (one = scenario_load_data(plain, "plain.scn", NULL, NULL))) {
                        g_clear_error(&e);
                        sim = sim_new(one, &(struct sim_options){ .policy = ops[p]->name }, &e);
                }
                if (!sim) {
                        g_propagate_error(error, e);
                        return FALSE;
                }
                g_autoptr(RcbReport) r = sim_build_report(sim);

                if (!r)
                        return FALSE;
                for (guint k = first; ok && k < props->len; k++) {
                        const struct hprop *pr = &g_array_index(props, struct hprop, k);

                        if (!pr->x->where)      /* the messages say where, as check's name file:line */
                                pr->x->where = g_strdup_printf("--property '%s'", pr->line);
                        ok = expect_check(pr->x, r, error);
                }
        }
        return sc && ok;
}

struct props_job {
        GArray *props;
        guint first;
        const struct boost_policy_ops *const *ops;
};

/* props_check() for hunt_in_child(): its error said in @msg. */
static gboolean props_check_said(void *data, GString *msg)
{
        struct props_job *job = data;
        GError *e = NULL;

        if (props_check(job->props, job->first, job->ops, &e))
                return TRUE;
        g_string_append(msg, e ? e->message : "the check failed");
        g_clear_error(&e);
        return FALSE;
}

/* The defaults: no safety violation, no OOM under the scenario's limit, no
 * deadlock, no task boosted outside its critical section for more than a tick. */
GArray *hunt_default_props(void)
{
        GArray *props = g_array_new(FALSE, TRUE, sizeof(struct hprop));
        static const char *const lines[] = { "safety_violations=0", "oom=false" };
        struct hprop p;

        g_array_set_clear_func(props, hprop_free);
        for (size_t i = 0; i < G_N_ELEMENTS(lines); i++) {
                hprop_parse(lines[i], &p, NULL);
                p.correctness = i == 0;         /* safety */
                g_array_append_val(props, p);
        }
        static const struct {
                enum hkind kind;
                const char *name, *line;
        } ends[] = {
                { HPROP_DEADLOCK, "deadlock", "(no deadlock)" },
                { HPROP_CONTRACT, "contract", "(no breach of the policy contract)" },
                { HPROP_CREATE, "create", "(create() succeeds)" },
                { HPROP_CRASH, "crash", "(the process running it does not crash)" },
                { HPROP_HANG, "hang", "(every run ends within --hang-timeout)" },
        };
        for (size_t i = 0; i < G_N_ELEMENTS(ends); i++) {
                memset(&p, 0, sizeof(p));
                p.kind = ends[i].kind;
                p.name = g_strdup(ends[i].name);
                p.line = g_strdup(ends[i].line);
                p.correctness = true;
                g_array_append_val(props, p);
        }
        hprop_parse("boosted_outside_cs_ns<=1ms", &p, NULL);
        g_free(p.name);
        p.name = g_strdup("boosted_outside_cs");
        p.per_tick = true;
        p.correctness = true;
        g_array_append_val(props, p);
        return props;
}

/* Property @pr as an [expect] line without its policy, with the bound it
 * had under policy @p on @ev: "boosted_outside_cs_ns<=4ms" at HZ=250. */
char *hunt_prop_text(const struct hprop *pr, const struct heval *ev, int p)
{
        g_autofree char *tick = NULL;

        if (!pr->per_tick)
                return g_strdup(pr->line);
        tick = hscn_format_ns(ev->tick_ns[p]);
        return g_strdup_printf("boosted_outside_cs_ns<=%s", tick);
}

enum in_child_end hunt_props_checked(const struct hunt *h, GArray *props, guint first,
                                     const struct boost_policy_ops *const *ops, GString *said)
{
        struct props_job job = { props, first, ops };

        return h->isolate ? hunt_in_child(h->hang_us, props_check_said, &job, said)
                          : props_check_said(&job, said) ? IN_CHILD_OK : IN_CHILD_FAILED;
}
