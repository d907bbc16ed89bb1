/* mutex.c - priority-inheriting mutexes; see mutex.h. */
#include "mutex.h"

#include "../engine/engine.h"

void mutex_init(struct mutex *m, int id, const char *name)
{
        m->id = id;
        m->name = g_strdup(name);
        m->owner = NULL;
        g_queue_init(&m->waiters);
        m->held_link = (GList){ .data = m };
        m->acquisitions = 0;
        m->contentions = 0;
}

void mutex_finish(struct mutex *m)
{
        g_free(m->name);
}

static void take(struct mutex *m, struct task *t)
{
        m->owner = t;
        m->acquisitions++;
        g_queue_push_tail_link(&t->held, &m->held_link);
}

/* Insert @t among the waiters with its current priority: behind everyone at
 * least as urgent. */
static void enqueue_waiter(struct mutex *m, struct task *t)
{
        GList *pos;

        t->waiter_prio = t->prio;
        for (pos = m->waiters.head; pos; pos = pos->next)
                if (((struct task *)pos->data)->waiter_prio > t->waiter_prio)
                        break;
        if (pos)
                g_queue_insert_before_link(&m->waiters, pos, &t->waiter_link);
        else
                g_queue_push_tail_link(&m->waiters, &t->waiter_link);
}

static GError *deadlock_error(struct mutex *m, struct task *t)
{
        GString *s = g_string_new(NULL);
        struct task *o = m->owner;

        g_string_printf(s, "deadlock: %s waits for mutex %s", t->name, m->name);
        while (o && o != t) {
                g_string_append_printf(s, " held by %s", o->name);
                if (!o->blocked_on)
                        break;
                g_string_append_printf(s, ", which waits for mutex %s", o->blocked_on->name);
                o = o->blocked_on->owner;
        }
        g_string_append_printf(s, " held by %s", t->name);
        GError *e = g_error_new_literal(SCENARIO_ERROR, SCENARIO_ERROR_INVALID, s->str);

        g_string_free(s, TRUE);
        return e;
}

void mutex_init_proxy_locked(struct mutex *m, struct task *owner)
{
        g_return_if_fail(!m->owner);
        take(m, owner);
}

bool mutex_trylock(struct sim *sim, struct mutex *m, struct task *t)
{
        (void)sim;
        if (m->owner)
                return false;
        take(m, t);
        return true;
}

bool mutex_lock(struct sim *sim, struct mutex *m, struct task *t)
{
        if (mutex_trylock(sim, m, t))
                return true;
        m->contentions++;
        for (struct task *o = m->owner; o; o = o->blocked_on ? o->blocked_on->owner : NULL) {
                if (o == t) {
                        sim_stop(sim, "error", deadlock_error(m, t));
                        return false;
                }
        }
        t->blocked_on = m;
        /* Its nesting cannot change until it runs again, after the wait. */
        if (t->rcu_nesting > 0)
                sim->rcu.readers_on_mutex++;
        t->waiter_link.data = t;
        enqueue_waiter(m, t);
        /* The new waiter may lend its priority along the chain. */
        sched_update_prio(sim, m->owner);
        sim->sched_hooks->mutex_waiter_added(sim);
        return false;
}

void mutex_unlock(struct sim *sim, struct mutex *m, struct task *t)
{
        struct task *w;

        g_return_if_fail(m->owner == t);
        g_queue_unlink(&t->held, &m->held_link);
        m->owner = NULL;
        w = m->waiters.head ? m->waiters.head->data : NULL;
        if (w) {
                g_queue_unlink(&m->waiters, &w->waiter_link);
                w->blocked_on = NULL;
                if (w->rcu_nesting > 0)
                        sim->rcu.readers_on_mutex--;
                take(m, w);
                /* The new owner inherits from the waiters still queued. */
                sched_update_prio(sim, w);
                sched_wake(sim, w);
        }
        sched_update_prio(sim, t);
}

int mutex_pi_prio(const struct task *t)
{
        int p = PRIO_NONE;

        for (GList *l = t->held.head; l; l = l->next) {
                struct mutex *m = l->data;

                if (m->waiters.head)
                        p = MIN(p, ((struct task *)m->waiters.head->data)->waiter_prio);
        }
        return p;
}

void mutex_pi_prio_split(const struct task *t, int *scenario, int *policy)
{
        *scenario = *policy = PRIO_NONE;
        for (GList *l = t->held.head; l; l = l->next) {
                struct mutex *m = l->data;
                int *p = m->id >= 0 ? scenario : policy;

                if (m->waiters.head)
                        *p = MIN(*p, ((struct task *)m->waiters.head->data)->waiter_prio);
        }
}

void mutex_waiter_prio_changed(struct sim *sim, struct task *t)
{
        struct mutex *m = t->blocked_on;

        g_queue_unlink(&m->waiters, &t->waiter_link);
        enqueue_waiter(m, t);
        sched_update_prio(sim, m->owner);
}

