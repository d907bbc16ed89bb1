/* Event queue and heap: ordering by (time, sequence), cancel, reschedule. */
#include <check.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdbool.h>

#include "sim/engine/eventq.h"
#include "sim/output/stats.h"
#include "testutil.h"

struct rec {
        struct event ev;
        int id;
};

/* Number @n records and make their events idle. */
static void recs_init(struct rec *r, int n)
{
        for (int i = 0; i < n; i++) {
                r[i].id = i;
                event_init(&r[i].ev, NULL);
        }
}

START_TEST(same_time_fires_in_schedule_order)
{
        struct eventq q;
        struct rec r[5];

        eventq_init(&q);
        recs_init(r, 5);
        for (int i = 0; i < 5; i++)
                eventq_schedule(&q, &r[i].ev, 100);
        for (int i = 0; i < 5; i++) {
                struct event *ev = eventq_pop(&q);

                ck_assert_int_eq(container_of(ev, struct rec, ev)->id, i);
        }
        ck_assert_ptr_null(eventq_pop(&q));
        eventq_finish(&q);
}
END_TEST

START_TEST(earlier_time_first_and_reschedule_moves_behind)
{
        struct eventq q;
        struct rec a = { .id = 1 }, b = { .id = 2 }, c = { .id = 3 };

        eventq_init(&q);
        event_init(&a.ev, NULL);
        event_init(&b.ev, NULL);
        event_init(&c.ev, NULL);
        eventq_schedule(&q, &a.ev, 50);
        eventq_schedule(&q, &b.ev, 10);
        eventq_schedule(&q, &c.ev, 50);
        eventq_schedule(&q, &a.ev, 50); /* rescheduled: now behind c */
        ck_assert_int_eq(container_of(eventq_pop(&q), struct rec, ev)->id, 2);
        ck_assert_int_eq(container_of(eventq_pop(&q), struct rec, ev)->id, 3);
        ck_assert_int_eq(container_of(eventq_pop(&q), struct rec, ev)->id, 1);
        eventq_finish(&q);
}
END_TEST

START_TEST(cancel_removes_only_that_event)
{
        struct eventq q;
        struct rec r[3];

        eventq_init(&q);
        recs_init(r, 3);
        for (int i = 0; i < 3; i++)
                eventq_schedule(&q, &r[i].ev, 10 * (i + 1));
        eventq_cancel(&q, &r[1].ev);
        ck_assert(!event_pending(&r[1].ev));
        eventq_cancel(&q, &r[1].ev);    /* cancelling twice is harmless */
        ck_assert_int_eq(container_of(eventq_pop(&q), struct rec, ev)->id, 0);
        ck_assert_int_eq(container_of(eventq_pop(&q), struct rec, ev)->id, 2);
        ck_assert_ptr_null(eventq_pop(&q));
        eventq_finish(&q);
}
END_TEST

/* The engine's loop: an event due after the limit stays pending, from the
 * run and from the heap alike. */
START_TEST(pop_until_leaves_later_events)
{
        struct eventq q;
        struct rec r[3];

        eventq_init(&q);
        recs_init(r, 3);
        eventq_schedule(&q, &r[0].ev, 100);
        eventq_schedule(&q, &r[1].ev, 5000000);
        ck_assert_ptr_null(eventq_pop_until(&q, 99));
        ck_assert(event_pending(&r[0].ev));
        ck_assert_ptr_eq(eventq_pop_until(&q, 100), &r[0].ev);
        /* Due before the poured stretch ends: it goes to the heap. */
        eventq_schedule(&q, &r[2].ev, 101);
        ck_assert_ptr_null(eventq_pop_until(&q, 100));
        ck_assert(event_pending(&r[2].ev));
        ck_assert_ptr_eq(eventq_pop_until(&q, 101), &r[2].ev);
        ck_assert_ptr_null(eventq_pop_until(&q, 4999999));
        ck_assert_uint_eq(eventq_size(&q), 1);
        ck_assert_ptr_eq(eventq_pop(&q), &r[1].ev);
        ck_assert_ptr_null(eventq_pop_until(&q, SIM_TIME_NEVER));
        eventq_finish(&q);
}
END_TEST

/* Random schedule/cancel/reschedule against the definition of the order. */
START_TEST(random_operations_keep_total_order)
{
        enum { N = 2000 };
        struct eventq q;
        struct rec *r = g_new0(struct rec, N);
        gsl_rng *rng = gsl_rng_alloc(gsl_rng_taus2);

        gsl_rng_set(rng, 42);
        eventq_init(&q);
        recs_init(r, N);
        for (int step = 0; step < 20000; step++) {
                struct rec *x = &r[gsl_rng_uniform_int(rng, N)];

                if (gsl_rng_uniform(rng) < 0.2)
                        eventq_cancel(&q, &x->ev);
                else
                        eventq_schedule(&q, &x->ev, (int64_t)gsl_rng_uniform_int(rng, 1000));
        }
        int64_t last_t = -1, last_seq = -1;
        uint64_t n = eventq_size(&q);

        for (uint32_t i = 0; i < n; i++) {
                struct event *ev = eventq_pop(&q);
                int64_t seq = ev->seq;

                ck_assert(ev->when > last_t || (ev->when == last_t && seq > last_seq));
                last_t = ev->when;
                last_seq = seq;
        }
        ck_assert_uint_eq(eventq_size(&q), 0);
        eventq_finish(&q);
        gsl_rng_free(rng);
        g_free(r);
}
END_TEST

/* The O(1) bin index must put every value where GSL's search would. */
START_TEST(histogram_bins_match_gsl_search)
{
        struct latency_stat s;
        gsl_histogram *ref;
        gsl_rng *rng = gsl_rng_alloc(gsl_rng_taus2);

        latency_stat_init(&s);
        ref = gsl_histogram_clone(s.hist);
        gsl_rng_set(rng, 3);
        for (int k = 0; k < 200000; k++) {
                int64_t v = k < 2000 ? k : (int64_t)pow(10.0, gsl_rng_uniform(rng) * 12.5);

                latency_stat_add(&s, v);
                gsl_histogram_increment(ref, (double)v);
        }
        for (size_t i = 0; i < ref->n; i++)
                ck_assert_msg(ref->bin[i] == s.hist->bin[i], "bin %zu: %g vs %g", i, ref->bin[i], s.hist->bin[i]);
        /* Percentiles within a bin of the truth: uniform 1..1000 has p50 ~ 500. */
        ck_assert_int_eq(s.count, 200000);
        gsl_histogram_free(ref);
        latency_stat_finish(&s);
        gsl_rng_free(rng);
}
END_TEST

START_TEST(percentiles_within_one_bin)
{
        struct latency_stat s;

        latency_stat_init(&s);
        for (int64_t v = 1; v <= 100000; v++)
                latency_stat_add(&s, v * 1000);
        ck_assert_int_eq(latency_stat_quantile(&s, 0), 1000);
        ck_assert_int_eq(latency_stat_quantile(&s, 1), 100000000);
        for (double q = 0.1; q < 1; q += 0.1) {
                double exact = q * 100000000, got = (double)latency_stat_quantile(&s, q);

                ck_assert_msg(fabs(got - exact) <= 0.06 * exact, "q=%.1f: %.0f vs %.0f", q, got, exact);
        }
        latency_stat_finish(&s);
}
END_TEST

/* Interleaved operations over a wide time range (heap, calendar buckets,
 * overflow, jumps): every pop is the (time, seq)-smallest pending event. */
START_TEST(calendar_agrees_with_a_reference)
{
        enum { N = 3000 };
        struct eventq q;
        struct rec *r = g_new0(struct rec, N);
        bool *pending = g_new0(bool, N);
        gsl_rng *rng = gsl_rng_alloc(gsl_rng_taus2);
        int64_t now = 0;
        uint64_t pops = 0;

        gsl_rng_set(rng, 7);
        eventq_init(&q);
        recs_init(r, N);
        for (int step = 0; step < 200000; step++) {
                double u = gsl_rng_uniform(rng);
                struct rec *x = &r[gsl_rng_uniform_int(rng, N)];

                if (u < 0.45) {
                        /* Near, far (beyond 67 ms) or now. */
                        double k = gsl_rng_uniform(rng);
                        int64_t d = k < 0.1 ? 0 : k < 0.8 ? (int64_t)gsl_rng_uniform_int(rng, 5000)
                                  : (int64_t)gsl_rng_uniform_int(rng, 300000000);

                        eventq_schedule(&q, &x->ev, now + d);
                        pending[x->id] = true;
                } else if (u < 0.55) {
                        eventq_cancel(&q, &x->ev);
                        pending[x->id] = false;
                } else {
                        struct event *ev = eventq_pop(&q);
                        struct rec *got;
                        int best = -1;

                        for (int i = 0; i < N; i++)
                                if (pending[i] && (best < 0 || r[i].ev.when < r[best].ev.when ||
                                                   (r[i].ev.when == r[best].ev.when && r[i].ev.seq < r[best].ev.seq)))
                                        best = i;
                        if (best < 0) {
                                ck_assert_ptr_null(ev);
                                continue;
                        }
                        ck_assert_ptr_nonnull(ev);
                        got = container_of(ev, struct rec, ev);
                        ck_assert_msg(got->id == best, "popped %d at %" G_GINT64_FORMAT ", expected %d at %"
                                      G_GINT64_FORMAT, got->id, ev->when, best, r[best].ev.when);
                        ck_assert(!event_pending(ev));
                        now = ev->when;
                        pending[best] = false;
                        pops++;
                }
        }
        ck_assert_uint_gt(pops, 10000);
        eventq_finish(&q);
        gsl_rng_free(rng);
        g_free(pending);
        g_free(r);
}
END_TEST

/* The ns-3 benchmark's shape, where the calendar narrows to 1 ns buckets
 * and pours them whole as sorted runs: a large population (so the resize
 * sorts by bucket), hundreds of events per instant, plus moves,
 * cancellations and far events.  Checked against a GSequence. */
static gint rec_cmp(gconstpointer a, gconstpointer b, gpointer unused)
{
        const struct event *x = &((const struct rec *)a)->ev, *y = &((const struct rec *)b)->ev;

        (void)unused;
        if (x->when != y->when)
                return x->when < y->when ? -1 : 1;
        return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* @n events at times in [0, @span) ns, in @q and in the reference @ref. */
static void populate(struct eventq *q, struct rec *r, GSequenceIter **where, GSequence *ref,
                     gsl_rng *rng, int n, unsigned long span)
{
        eventq_init(q);
        recs_init(r, n);
        for (int i = 0; i < n; i++) {
                eventq_schedule(q, &r[i].ev, (int64_t)gsl_rng_uniform_int(rng, span));
                where[i] = g_sequence_insert_sorted(ref, &r[i], rec_cmp, NULL);
        }
}

START_TEST(dense_instants_agree_with_a_reference)
{
        enum { N = 20000 };
        struct eventq q;
        struct rec *r = g_new0(struct rec, N);
        GSequenceIter **where = g_new0(GSequenceIter *, N);
        GSequence *ref = g_sequence_new(NULL);
        gsl_rng *rng = gsl_rng_alloc(gsl_rng_taus2);
        int64_t now = 0;
        bool narrowed = false;
        uint32_t most = 0;
        uint64_t pops = 0;

        gsl_rng_set(rng, 11);
        populate(&q, r, where, ref, rng, N, 300);
        for (int step = 0; step < 150000; step++) {
                double u = gsl_rng_uniform(rng);

                if (u < 0.85) {
                        struct event *ev = eventq_pop(&q);
                        struct rec *want, *got;

                        if (g_sequence_is_empty(ref)) {
                                ck_assert_ptr_null(ev);
                                continue;
                        }
                        want = g_sequence_get(g_sequence_get_begin_iter(ref));
                        ck_assert_ptr_nonnull(ev);
                        got = container_of(ev, struct rec, ev);
                        ck_assert_msg(got == want, "popped %d at %" G_GINT64_FORMAT ", expected %d at %"
                                      G_GINT64_FORMAT, got->id, ev->when, want->id, want->ev.when);
                        g_sequence_remove(where[got->id]);
                        where[got->id] = NULL;
                        now = ev->when;
                        pops++;
                        narrowed |= q.shift == 0;
                        if (u < 0.80) {
                                /* Its successor, as in ns-3's bench-scheduler. */
                                eventq_schedule(&q, ev, now + (int64_t)gsl_rng_uniform_int(rng, 200));
                                where[got->id] = g_sequence_insert_sorted(ref, got, rec_cmp, NULL);
                        }
                } else {
                        struct rec *x = &r[gsl_rng_uniform_int(rng, N)];

                        if (where[x->id])
                                g_sequence_remove(where[x->id]);
                        where[x->id] = NULL;
                        if (u < 0.90) {
                                eventq_cancel(&q, &x->ev);
                        } else {
                                /* Now, soon, or far beyond the calendar. */
                                int64_t d = u < 0.93 ? 0 : u < 0.98 ? (int64_t)gsl_rng_uniform_int(rng, 200)
                                          : INT64_C(1000000) + (int64_t)gsl_rng_uniform_int(rng, 1000);

                                eventq_schedule(&q, &x->ev, now + d);
                                where[x->id] = g_sequence_insert_sorted(ref, x, rec_cmp, NULL);
                        }
                }
                ck_assert_uint_eq(eventq_size(&q), (uint64_t)g_sequence_get_length(ref));
                most = MAX(most, q.nbuckets);
        }
        ck_assert(narrowed);
        /* The calendar grew to a bucket per pending event (20,000)... */
        ck_assert_uint_eq(most, 32768);
        /* ... and shrinks when most of them are cancelled, still in order. */
        for (int i = 1500; i < N; i++) {
                if (where[i])
                        g_sequence_remove(where[i]);
                where[i] = NULL;
                eventq_cancel(&q, &r[i].ev);
        }
        for (int step = 0; step < 20000 && !g_sequence_is_empty(ref); step++) {
                struct rec *want = g_sequence_get(g_sequence_get_begin_iter(ref));
                struct event *ev = eventq_pop(&q);

                ck_assert_ptr_eq(ev, &want->ev);
                g_sequence_remove(where[want->id]);
                now = ev->when;
                eventq_schedule(&q, ev, now + (int64_t)gsl_rng_uniform_int(rng, 200));
                where[want->id] = g_sequence_insert_sorted(ref, want, rec_cmp, NULL);
        }
        ck_assert_uint_eq(q.nbuckets, EVENTQ_BUCKETS_MIN);
        ck_assert_uint_gt(pops, 110000);
        eventq_finish(&q);
        gsl_rng_free(rng);
        g_sequence_free(ref);
        g_free(where);
        g_free(r);
}
END_TEST

/* Many short waits and a long tail of sleeps, as at 1,024 CPUs: sized by
 * the pending events' mean lead alone, the calendar would send about one
 * event in twelve through the overflow heap.  It doubles instead, once,
 * and stays in order. */
START_TEST(far_sleepers_widen_the_calendar)
{
        enum { N = 8000 };
        struct eventq q;
        struct rec *r = g_new0(struct rec, N);
        GSequenceIter **where = g_new0(GSequenceIter *, N);
        GSequence *ref = g_sequence_new(NULL);
        gsl_rng *rng = gsl_rng_alloc(gsl_rng_taus2);
        uint32_t most = 0;

        gsl_rng_set(rng, 5);
        populate(&q, r, where, ref, rng, N, 200000);
        for (int step = 0; step < 200000; step++) {
                struct rec *want = g_sequence_get(g_sequence_get_begin_iter(ref));
                struct event *ev = eventq_pop(&q);
                int64_t lead;

                ck_assert_msg(ev == &want->ev, "popped %d at %" G_GINT64_FORMAT ", expected %d at %"
                              G_GINT64_FORMAT, ev ? container_of(ev, struct rec, ev)->id : -1,
                              ev ? ev->when : -1, want->id, want->ev.when);
                g_sequence_remove(where[want->id]);
                /* A compute of up to 2 us, or a sleep of 200 us on average. */
                lead = gsl_rng_uniform(rng) < 0.7 ? (int64_t)gsl_rng_uniform_int(rng, 2000)
                     : (int64_t)gsl_ran_exponential(rng, 200000.0);
                eventq_schedule(&q, ev, ev->when + lead);
                where[want->id] = g_sequence_insert_sorted(ref, want, rec_cmp, NULL);
                most = MAX(most, q.nbuckets);
        }
        /* A bucket per pending event would be 8,192. */
        ck_assert_uint_eq(most, 16384);
        ck_assert_uint_eq(q.nbuckets, 16384);
        eventq_finish(&q);
        gsl_rng_free(rng);
        g_sequence_free(ref);
        g_free(where);
        g_free(r);
}
END_TEST

static Suite *eventq_suite(void)
{
        Suite *s = suite_create("eventq");
        TCase *tc = tcase_create("ordering");

        tcase_add_test(tc, same_time_fires_in_schedule_order);
        tcase_add_test(tc, earlier_time_first_and_reschedule_moves_behind);
        tcase_add_test(tc, cancel_removes_only_that_event);
        tcase_add_test(tc, pop_until_leaves_later_events);
        tcase_add_test(tc, random_operations_keep_total_order);
        tcase_add_test(tc, calendar_agrees_with_a_reference);
        tcase_add_test(tc, dense_instants_agree_with_a_reference);
        tcase_add_test(tc, far_sleepers_widen_the_calendar);
        suite_add_tcase(s, tc);
        tc = tcase_create("stats");
        tcase_add_test(tc, histogram_bins_match_gsl_search);
        tcase_add_test(tc, percentiles_within_one_bin);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return run_suite(eventq_suite());
}
