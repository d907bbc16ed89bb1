/* hunt/corpus.c - the corpus: scenario files that seed the search, and the
 * candidates kept in DIR/corpus/ (docs/hunt.md). */
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

/* The corpus a fresh hunt begins with, into @st->seeds: the findings of an
 * earlier hunt into the same directory (@old_findings: replayed first, as
 * a regression suite), its corpus (@old_corpus), then the --corpus files
 * (@given: NAME -> text, or the shipped scenarios).  A seed that does not
 * load, or that a policy refuses as a scenario error, is left out and said
 * in @skipped (a create() that fails on it is a finding: kept).  A corpus
 * file whose "# hunt tree:" line parses, under these policies, into the
 * very text the file holds is a tree again; any other runs as it is written
 * -- a user's edit of the text, or a [policy] key of another policy's tree,
 * drops the tree, and says so (#59). */
static void seeds_add(struct hsearch *st, const char *origin, const char *text,
                      const struct boost_policy_ops *const *ops, GString *skipped)
{
        struct hcand c = { 0 };
        const char *tree = strstr(text, "# hunt tree: ");
        g_autofree char *line = tree ? g_strndup(tree + 13, strcspn(tree + 13, "\n")) : NULL;
        g_autofree char *seed = NULL;
        GError *e = NULL;

        g_strlcpy(c.origin, origin, sizeof(c.origin));
        /* one word in hunt.state's lines (a file name may hold a space) */
        for (char *o = c.origin; *o; o++)
                if (g_ascii_isspace(*o))
                        *o = '_';
        if (line && hscn_parse(line, ops[0], ops[1], &c.s)) {
                g_autofree char *rendered = hscn_render(&c.s, 1, NULL, NULL);
                const char *body = strstr(tree, "\n\n");

                if (body && !strcmp(body + 2, rendered)) {
                        g_ptr_array_add(st->seeds, g_memdup2(&c, sizeof(c)));
                        return;
                }
                g_string_append_printf(skipped, "corpus: %s: its text is not what its '# hunt tree:' line renders "
                                       "(edited, or another policy's tree): run as written\n", origin);
                memset(&c.s, 0, sizeof(c.s));
        } else if (line) {
                g_string_append_printf(skipped, "corpus: %s: its '# hunt tree:' line does not parse under these "
                                       "policies: run as written\n", origin);
        }
        seed = scnedit_seed(text, HUNT_SEED_MAX_NS);
        g_autoptr(RcbScenario) sc = scenario_load_data(seed, origin, NULL, &e);

        for (int p = 0; sc && p < 2 && ops[p]; p++) {
                /* a module's create() runs only in a child (#59): what it refuses,
                 * the evaluation says */
                if (policy_module_path(ops[p]))
                        continue;
                g_autoptr(RcbSim) sim = sim_new(sc, &(struct sim_options){ .policy = ops[p]->name }, &e);

                /* a create() that fails on a seed is the policy's finding, not the seed's fault */
                if (!sim && g_error_matches(e, POLICY_ERROR, POLICY_ERROR_CREATE))
                        g_clear_error(&e);
                if (!sim)
                        break;
        }
        if (e) {
                g_string_append_printf(skipped, "corpus: %s left out: %s\n", origin, e->message);
                g_error_free(e);
                return;
        }
        c.s.key = -1;
        c.text = g_steal_pointer(&seed);
        g_ptr_array_add(st->seeds, g_memdup2(&c, sizeof(c)));
}

/* The *.scn files of @dir, by name: NAME -> contents (NULL: no such directory). */
/* A corpus file's text: a regular file, no larger than a scenario file may
 * be -- a FIFO would block the hunt for ever, /dev/zero fill the memory (#59). */
char *hunt_corpus_file_read(const char *path, GError **error)
{
        GStatBuf st;
        char *text = NULL;

        if (g_stat(path, &st) != 0) {
                int err = errno;

                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err), "%s: cannot read: %s", path,
                            g_strerror(err));
                return NULL;
        }
        if (!S_ISREG(st.st_mode)) {
                g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: not a regular file (a corpus holds "
                            "scenario files)", path);
                return NULL;
        }
        if (st.st_size > SCENARIO_MAX_BYTES) {
                g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: %lld bytes is too large for a scenario "
                            "file (limit %d MiB)", path, (long long)st.st_size, SCENARIO_MAX_BYTES >> 20);
                return NULL;
        }
        return g_file_get_contents(path, &text, NULL, error) ? text : NULL;
}

/* The *.scn files of @dir by name, or NULL: no such directory (@error unset),
 * or one of them is no scenario file to read (@error set). */
GTree *hunt_scn_files(const char *dir, GError **error)
{
        g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
        GTree *files;
        const char *name;

        if (!d)
                return NULL;
        files = g_tree_new_full(hunt_name_cmp, NULL, g_free, g_free);
        while ((name = g_dir_read_name(d))) {
                g_autofree char *path = g_build_filename(dir, name, NULL);
                char *text;

                if (!g_str_has_suffix(name, ".scn"))
                        continue;
                if (!(text = hunt_corpus_file_read(path, error))) {
                        g_tree_unref(files);
                        return NULL;
                }
                g_tree_insert(files, g_strdup(name), text);
        }
        return files;
}

/* The shipped scenarios the binary carries (/rcuboost/corpus/). */
GTree *hunt_shipped_scenarios(void)
{
        g_auto(GStrv) names = g_resources_enumerate_children("/rcuboost/corpus", 0, NULL);
        GTree *files = g_tree_new_full(hunt_name_cmp, NULL, g_free, g_free);

        for (char **n = names; n && *n; n++) {
                g_autofree char *path = g_strconcat("/rcuboost/corpus/", *n, NULL);
                g_autoptr(GBytes) b = g_resources_lookup_data(path, 0, NULL);

                if (b)
                        g_tree_insert(files, g_strdup(*n), g_strndup(g_bytes_get_data(b, NULL), g_bytes_get_size(b)));
        }
        return files;
}

struct seeds_ctx {
        struct hsearch *st;
        const struct boost_policy_ops *const *ops;
        GString *skipped;
        const char *prefix;
};

static gboolean seeds_each(gpointer name, gpointer text, gpointer data)
{
        struct seeds_ctx *x = data;
        g_autofree char *origin = g_strconcat(x->prefix, name, NULL);

        seeds_add(x->st, origin, text, x->ops, x->skipped);
        return FALSE;
}

void hunt_seeds_from(struct hsearch *st, GTree *files, const char *prefix, const struct boost_policy_ops *const *ops,
                     GString *skipped)
{
        struct seeds_ctx x = { st, ops, skipped, prefix };

        if (files)
                g_tree_foreach(files, seeds_each, &x);
}

/* A candidate that reached new coverage, as DIR/corpus/NNNNN.scn: a tree's
 * line first, so that a later hunt reads the tree back, not only its text. */
gboolean hunt_corpus_keep(struct hsearch *st, const char *dir, const struct heval *ev, GError **error)
{
        g_autofree char *name = g_strdup_printf("%05d.scn", ++st->ncorpus);
        g_autofree char *path = g_build_filename(dir, name, NULL);
        g_autoptr(GString) o = g_string_new(NULL);

        g_string_append_printf(o, "# %s -- a hunt candidate that reached coverage no earlier one had.\n", name);
        if (ev->textual) {
                g_string_append_printf(o, ev->as_seeded ? "# Corpus file %s, as it was written.\n"
                                                        : "# An edit of corpus file %s.\n",
                                       *ev->origin ? ev->origin : "-");
        } else {
                g_autofree char *tree = hscn_serialize(&ev->s);

                g_string_append_printf(o, "# hunt tree: %s\n", tree);
        }
        g_string_append_printf(o, "\n%s", ev->text);
        return output_set_contents(path, o->str, (gssize)o->len, error);
}
