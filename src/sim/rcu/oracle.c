/* oracle.c - RCU's safety property; see oracle.h. */
#include "oracle.h"

#include "../engine/engine.h"

void oracle_init(struct oracle *o)
{
        *o = (struct oracle){ .details = g_ptr_array_new_with_free_func(g_free) };
}

void oracle_finish(struct oracle *o)
{
        g_free(o->readers);
        g_ptr_array_unref(o->details);
}

/* Make room at the end: pack the active readers to the front when at most
 * half the slots hold one, else double; either costs O(1) per entry. */
static void make_room(struct oracle *o)
{
        uint32_t n = 0;

        if (o->cap == 0 || o->active > o->cap / 2) {
                o->cap = o->cap ? 2 * o->cap : 64;
                o->readers = g_renew(struct task *, o->readers, o->cap);
                return;
        }
        for (uint32_t i = o->head; i < o->len; i++) {
                if (o->readers[i]) {
                        o->readers[n] = o->readers[i];
                        o->readers[n]->oracle_slot = n;
                        n++;
                }
        }
        o->head = 0;
        o->len = n;
}

void oracle_reader_enter(struct oracle *o, struct task *t)
{
        t->rcu_read_seq = ++o->stamp;
        if (o->len == o->cap)
                make_room(o);
        t->oracle_slot = o->len;
        o->readers[o->len++] = t;
        o->active++;
}

void oracle_reader_exit(struct oracle *o, struct task *t)
{
        o->readers[t->oracle_slot] = NULL;
        if (--o->active == 0) {
                o->head = o->len = 0;
                return;
        }
        while (!o->readers[o->head])
                o->head++;
}

uint64_t oracle_stamp(struct oracle *o)
{
        return ++o->stamp;
}

gboolean oracle_check(struct oracle *o, struct sim *sim, const struct rcu_callback *cb)
{
        struct task *r = o->active ? o->readers[o->head] : NULL;

        if (!r || r->rcu_read_seq > cb->stamp)
                return TRUE;
        o->violations++;
        if (o->details->len < ORACLE_MAX_DETAILS)
                g_ptr_array_add(o->details, g_strdup_printf(
                        "at %" G_GINT64_FORMAT " ns: callback #%" G_GINT64_FORMAT " (call_rcu by %s at %"
                        G_GINT64_FORMAT " ns) invoked while reader %s, in its critical section since %"
                        G_GINT64_FORMAT " ns, has not left it",
                        (gint64)sim->now, (gint64)cb->id, cb->caller ? cb->caller->name : "?",
                        (gint64)cb->call_ns, r->name, (gint64)r->rcu_read_start_ns));
        return FALSE;
}
