/* hunt/state.c - the search's state: hunt.state, for --resume (docs/hunt.md). */
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

static void hcand_free(void *data)
{
        struct hcand *c = data;

        g_free(c->text);
        g_free(c);
}

void hsearch_init(struct hsearch *st)
{
        st->seeds = g_ptr_array_new_with_free_func(hcand_free);
        st->near = g_array_new(FALSE, TRUE, sizeof(struct heval));
        st->edges = g_new0(struct edges, 1);
        st->found = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        st->log = g_string_new(NULL);
}

void hsearch_free(struct hsearch *st)
{
        if (!st->seeds)
                return;
        g_ptr_array_unref(st->seeds);
        for (guint i = 0; i < st->near->len; i++)
                heval_clear(&g_array_index(st->near, struct heval, i));
        g_array_unref(st->near);
        hunt_edges_free(st->edges);
        g_hash_table_unref(st->found);
        g_string_free(st->log, TRUE);
        g_free(st->corpus_shown);
}

/* A candidate on one line: "tree hscn1 ..." or "text ORIGIN ESCAPED-TEXT". */
static void hcand_write(GString *o, const struct hscn *s, const char *text, const char *origin)
{
        if (!text) {
                g_autofree char *tree = hscn_serialize(s);

                g_string_append_printf(o, " tree %s\n", tree);
        } else {
                g_autofree char *esc = g_strescape(text, NULL);

                g_string_append_printf(o, " text %s %s\n", *origin ? origin : "-", esc);
        }
}

static bool hcand_read(const char *line, const struct boost_policy_ops *const *ops, struct hcand *c)
{
        memset(c, 0, sizeof(*c));
        if (g_str_has_prefix(line, "tree "))
                return hscn_parse(line + 5, ops[0], ops[1], &c->s);
        if (!g_str_has_prefix(line, "text "))
                return false;
        const char *sp = strchr(line + 5, ' ');

        if (!sp)
                return false;
        g_snprintf(c->origin, sizeof(c->origin), "%.*s", (int)(sp - line - 5), line + 5);
        if (!strcmp(c->origin, "-"))
                *c->origin = 0;
        c->s.key = -1;
        c->text = g_strcompress(sp + 1);
        /* a scenario the loader takes, of a scenario file's size, and no longer than a
         * corpus seed may run (#59: read unchecked before; a hunt's own texts are all
         * within the cap: seeds are capped, and edits never lengthen the run) */
        g_autofree char *capped = scnedit_seed(c->text, HUNT_SEED_MAX_NS);
        g_autoptr(RcbScenario) sc = strlen(c->text) <= SCENARIO_MAX_BYTES
                                    ? scenario_load_data(c->text, "hunt.state", NULL, NULL) : NULL;
        g_autoptr(RcbScenario) within = sc ? scenario_load_data(capped, "hunt.state", NULL, NULL) : NULL;

        if (!within || within->duration_ns != sc->duration_ns) {
                g_clear_pointer(&c->text, g_free);
                return false;
        }
        return true;
}

static gint key_cmp(gconstpointer a, gconstpointer b)
{
        return strcmp(*(char *const *)a, *(char *const *)b);
}

gint hunt_name_cmp(gconstpointer a, gconstpointer b, gpointer unused)
{
        (void)unused;
        return strcmp(a, b);
}

/* The state as text (hunt.state): @identity first, the GSL stream's bytes in hex. */
void hsearch_save(const struct hunt *h, const struct hsearch *st, const char *identity, GString *o)
{
        const unsigned char *rng = gsl_rng_state(h->rng);
        GHashTableIter it;
        gpointer key;
        g_autoptr(GPtrArray) keys = g_ptr_array_new();

        g_string_truncate(o, 0);
        g_string_append_printf(o, "rcuboost hunt state 1\nidentity %s\nrng ", identity);
        for (size_t i = 0; i < gsl_rng_size(h->rng); i++)
                g_string_append_printf(o, "%02x", rng[i]);
        g_string_append_printf(o, "\nruns %" G_GUINT64_FORMAT "\nbatches %" G_GUINT64_FORMAT "\nfound %d %d\n"
                               "corpus %d\nmargin %.17g\nnext_seed %u\nearlier %d\n", h->runs, st->batches, st->nfound,
                               st->nobody, st->ncorpus, st->best_margin, st->next_seed, st->earlier);
        g_hash_table_iter_init(&it, st->found);
        while (g_hash_table_iter_next(&it, &key, NULL))
                g_ptr_array_add(keys, key);
        g_ptr_array_sort(keys, key_cmp);
        for (guint i = 0; i < keys->len; i++) {
                g_autofree char *esc = g_strescape(keys->pdata[i], NULL);

                g_string_append_printf(o, "key %s\n", esc);
        }
        {
                g_autofree char *esc = g_strescape(st->log->str, NULL);
                g_autofree char *given = g_strescape(st->corpus_shown ? st->corpus_shown : "", NULL);

                g_string_append_printf(o, "log %s\ncorpus_given %s\n", esc, given);
        }
        for (guint i = 0; i < st->seeds->len; i++) {
                const struct hcand *c = st->seeds->pdata[i];

                g_string_append(o, "seed");
                hcand_write(o, &c->s, c->text, c->origin);
        }
        for (guint i = 0; i < st->near->len; i++) {
                const struct heval *ev = &g_array_index(st->near, struct heval, i);

                g_string_append_printf(o, "near %.17g", ev->margin);
                hcand_write(o, &ev->s, ev->textual ? ev->text : NULL, ev->origin);
        }
        for (int e = 0; e < HUNT_EDGES; e++) {
                const struct hcand *c = st->edges->keeper[e];

                if (!st->edges->hits[e])
                        continue;
                g_string_append_printf(o, "edge %d %u", e, st->edges->hits[e]);
                hcand_write(o, &c->s, c->text, c->origin);
        }
        g_string_append(o, "end\n");
}

/* hsearch_save()'s text back into @h and @st (fresh from hsearch_init()). */
gboolean hsearch_load(struct hunt *h, struct hsearch *st, const char *identity, const char *text,
                             const struct boost_policy_ops *const *ops, const char *path, GError **error)
{
        g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
        int n = 1;
        bool ended = false, named = false;

        if (!lines[0] || strcmp(lines[0], "rcuboost hunt state 1") != 0)
                goto bad;
        for (char **l = lines + 1; *l && !ended; l++) {
                const char *sp = strchr(*l, ' ');
                const char *rest = sp ? sp + 1 : "";
                struct hcand c;
                unsigned e, hits;
                int at = 0;

                n = (int)(l - lines) + 1;
                if (!strcmp(*l, "end")) {
                        ended = true;
                } else if (g_str_has_prefix(*l, "identity ")) {
                        named = true;
                        if (strcmp(rest, identity) != 0) {
                                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                                            "--resume: %s was saved by `%s`, not this hunt's `%s`: resume with the "
                                            "same --policy, --versus, --property, --seed, --seeds and --coverage",
                                            path, rest, identity);
                                return FALSE;
                        }
                } else if (g_str_has_prefix(*l, "rng ")) {
                        unsigned char *state = gsl_rng_state(h->rng);

                        if (strlen(rest) != 2 * gsl_rng_size(h->rng))
                                goto bad;
                        for (size_t i = 0; i < gsl_rng_size(h->rng); i++) {
                                unsigned x;

                                if (sscanf(rest + 2 * i, "%2x", &x) != 1)
                                        goto bad;
                                state[i] = (unsigned char)x;
                        }
                } else if (g_str_has_prefix(*l, "runs ")) {
                        h->runs = g_ascii_strtoull(rest, NULL, 10);
                } else if (g_str_has_prefix(*l, "batches ")) {
                        st->batches = g_ascii_strtoull(rest, NULL, 10);
                } else if (g_str_has_prefix(*l, "found ")) {
                        if (sscanf(rest, "%d %d", &st->nfound, &st->nobody) != 2)
                                goto bad;
                } else if (g_str_has_prefix(*l, "corpus ")) {
                        st->ncorpus = atoi(rest);
                } else if (g_str_has_prefix(*l, "earlier ")) {
                        st->earlier = atoi(rest);
                } else if (g_str_has_prefix(*l, "margin ")) {
                        st->best_margin = g_ascii_strtod(rest, NULL);
                        if (!isfinite(st->best_margin) || st->best_margin < 0)
                                goto bad;
                } else if (g_str_has_prefix(*l, "next_seed ")) {
                        st->next_seed = (guint)atoi(rest);
                } else if (g_str_has_prefix(*l, "key ")) {
                        g_hash_table_add(st->found, g_strcompress(rest));
                } else if (g_str_has_prefix(*l, "corpus_given ")) {
                        g_free(st->corpus_shown);
                        st->corpus_shown = g_strcompress(rest);
                } else if (g_str_has_prefix(*l, "log ")) {
                        g_autofree char *log = g_strcompress(rest);

                        g_string_assign(st->log, log);
                } else if (g_str_has_prefix(*l, "seed ")) {
                        if (!hcand_read(rest, ops, &c))
                                goto bad;
                        g_ptr_array_add(st->seeds, g_memdup2(&c, sizeof(c)));
                } else if (g_str_has_prefix(*l, "near ")) {
                        struct heval ev = { 0 };
                        double margin = g_ascii_strtod(rest, NULL);
                        const char *cand = strchr(rest, ' ');

                        if (!cand || !hcand_read(cand + 1, ops, &c))
                                goto bad;
                        heval_set_cand(&ev, &c);
                        g_free(c.text);
                        ev.margin = margin;
                        g_array_append_val(st->near, ev);
                } else if (g_str_has_prefix(*l, "edge ")) {
                        if (sscanf(rest, "%u %u %n", &e, &hits, &at) != 2 || e >= HUNT_EDGES || !hits ||
                            st->edges->keeper[e] || !hcand_read(rest + at, ops, &c))
                                goto bad;
                        st->edges->hits[e] = hits;
                        st->edges->keeper[e] = g_memdup2(&c, sizeof(c));
                        if (e < HUNT_POLICY_EDGES)
                                st->edges->seen++;
                        else
                                st->edges->seen_engine++;
                } else {
                        goto bad;
                }
        }
        if (ended && named && st->next_seed <= st->seeds->len && st->ncorpus >= 0 && st->nfound >= 0 && st->earlier >= 0 &&
            st->nobody >= 0 && st->nobody <= st->nfound)
                return TRUE;
bad:
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--resume: %s:%d: not a hunt's saved state "
                    "(hunt.state, as an interrupted hunt leaves it)", path, n);
        return FALSE;
}

/* hunt.state, below the held directory @held (shown as @out in an error). */
gboolean hunt_state_write(const char *held, const GString *state, const char *out)
{
        g_autofree char *path = g_build_filename(held, "hunt.state", NULL);
        GError *e = NULL;

        if (output_set_contents(path, state->str, (gssize)state->len, &e))
                return TRUE;
        g_autofree char *msg = hunt_shown_path(e->message, held, out);

        fprintf(stderr, "rcuboost: %s\n", msg);
        g_error_free(e);
        return FALSE;
}
