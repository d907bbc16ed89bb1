/* fuzz_scenario.c - libFuzzer harness: the scenario loader, then a short run.
 *
 * Any input must give either a clear error or a scenario that builds and
 * runs; never a crash, a hang or a sanitizer report.  Valid scenarios are
 * run for a bounded number of events.
 */
#include <glib.h>
#include <stdint.h>
#include <string.h>

#include "sim/scenario/scenario.h"
#include "sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        g_autofree char *text = g_strndup((const char *)data, size);
        static const char *const budget[] = { "output.max_events=20000", NULL };
        GError *e = NULL;
        struct scenario *sc;
        struct sim *sim;

        if (strlen(text) != size)
                return 0;       /* NUL inside: the file loader rejects these before parsing */
        sc = scenario_load_data(text, "fuzz.scn", budget, &e);
        if (!sc) {
                g_assert(e && e->message && *e->message);
                g_error_free(e);
                return 0;
        }
        int64_t tasks = 0;

        for (guint i = 0; i < sc->tasks->len; i++)
                tasks += ((struct task_spec *)g_ptr_array_index(sc->tasks, i))->count;
        /* Keep each input fast: big machines are the benchmarks' job. */
        if ((int64_t)sc->ncpus * tasks <= 20000) {
                sim = sim_new(sc, &(struct sim_options){ 0 }, &e);
                if (sim) {
                        sim_run(sim);
                        sim_finish(sim, NULL);
                        g_assert(sim_safety_violations(sim) == 0 || sc->break_grace_periods);
                        sim_free(sim);
                } else {
                        g_error_free(e);
                }
        }
        scenario_free(sc);
        return 0;
}
