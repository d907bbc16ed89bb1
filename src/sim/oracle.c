/* oracle.c - RCU's safety property; see oracle.h. */
#include "oracle.h"

#include "engine.h"

void oracle_init(struct oracle *o)
{
        heap_init(&o->readers);
        o->stamp = 0;
        o->violations = 0;
        o->details = g_ptr_array_new_with_free_func(g_free);
}

void oracle_finish(struct oracle *o)
{
        heap_finish(&o->readers);
        g_ptr_array_unref(o->details);
}

void oracle_reader_enter(struct oracle *o, struct task *t)
{
        t->rcu_read_seq = ++o->stamp;
        heap_push(&o->readers, &t->oracle_node, (int64_t)t->rcu_read_seq, 0);
}

void oracle_reader_exit(struct oracle *o, struct task *t)
{
        heap_remove(&o->readers, &t->oracle_node);
}

uint64_t oracle_stamp(struct oracle *o)
{
        return ++o->stamp;
}

gboolean oracle_check(struct oracle *o, struct sim *sim, const struct rcu_callback *cb)
{
        struct heap_node *n = heap_peek(&o->readers);
        struct task *r;

        if (!n || heap_peek_key(&o->readers) > (int64_t)cb->stamp)
                return TRUE;
        r = container_of(n, struct task, oracle_node);
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
