/* hunt/coverage.c - coverage edges and the nearest-to-failing candidates:
 * what steers the search (docs/hunt.md). */
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

/* Count @ev's transitions; it becomes their keeper.  Did it reach one no
 * candidate had before? */
bool hunt_edges_note(struct edges *g, const struct heval *ev)
{
        bool fresh = false;

        for (int e = 0; e < HUNT_EDGES; e++) {
                if (!(ev->cov[e / 64] >> (e % 64) & 1))
                        continue;
                if (!g->hits[e]++) {
                        g->keeper[e] = g_new0(struct hcand, 1);
                        if (e < HUNT_POLICY_EDGES)
                                g->seen++;
                        else
                                g->seen_engine++;
                        fresh = true;
                }
                hcand_set(g->keeper[e], ev);
        }
        return fresh;
}

/* The keeper of a transition drawn with weight 1/hits, or NULL before any. */
const struct hcand *hunt_edges_pick(const struct edges *g, gsl_rng *r)
{
        double total = 0, at;

        for (int e = 0; e < HUNT_EDGES; e++)
                if (g->hits[e])
                        total += 1.0 / g->hits[e];
        if (total == 0)
                return NULL;
        at = gsl_rng_uniform(r) * total;
        for (int e = 0; e < HUNT_EDGES; e++) {
                if (!g->hits[e])
                        continue;
                at -= 1.0 / g->hits[e];
                if (at < 0)
                        return g->keeper[e];
        }
        for (int e = HUNT_EDGES - 1; e >= 0; e--)       /* rounding left a sliver: the last */
                if (g->hits[e])
                        return g->keeper[e];
        return NULL;
}

/* hunt.txt's line on the engine's events: how many (event, bucket) pairs,
 * and the events no candidate reached -- where the search did not go. */
char *hunt_engine_events_said(const struct hunt *h, const struct edges *g)
{
        GString *s = g_string_new(NULL);
        int never = 0;

        if (!h->cover_engine)
                return g_string_free(s, FALSE);
        g_string_append_printf(s, "engine events seen: %d (events, and one task's event after another)",
                               g->seen_engine);
        for (int e = 0; e < EE_EVENTS; e++) {
                if (!g->hits[HUNT_POLICY_EDGES + e])
                        g_string_append_printf(s, "%s%s", never++ ? "; " : "; never reached: ",
                                               coverage_event_name((enum engine_event)e));
        }
        g_string_append_c(s, '\n');
        return g_string_free(s, FALSE);
}

void hunt_edges_free(struct edges *g)
{
        for (int e = 0; e < HUNT_EDGES; e++)
                if (g->keeper[e]) {
                        g_free(g->keeper[e]->text);
                        g_free(g->keeper[e]);
                }
        g_free(g);
}

/* Keep the HUNT_NEAR candidates nearest to failing, best first; a tie
 * keeps the earlier (deterministic). */
void hunt_near_offer(GArray *near, struct heval *ev)
{
        guint at = near->len;

        while (at > 0 && g_array_index(near, struct heval, at - 1).margin < ev->margin)
                at--;
        if (at >= HUNT_NEAR) {
                heval_clear(ev);
                return;
        }
        g_array_insert_val(near, at, *ev);
        if (near->len > HUNT_NEAR) {
                heval_clear(&g_array_index(near, struct heval, near->len - 1));
                g_array_set_size(near, HUNT_NEAR);
        }
}
