/* registry.c - every boosting policy, by name. */
#include "policy.h"

#include <string.h>

extern const struct boost_policy_ops none_policy_ops;
extern const struct boost_policy_ops booster_policy_ops;
extern const struct boost_policy_ops booster8_policy_ops;
extern const struct boost_policy_ops pilock_policy_ops;

const struct boost_policy_ops *const policy_registry[] = {
        &none_policy_ops,
        &booster_policy_ops,
        &booster8_policy_ops,
        &pilock_policy_ops,
        NULL,
};

const struct boost_policy_ops *policy_find(const char *name)
{
        for (const struct boost_policy_ops *const *p = policy_registry; *p; p++)
                if (!strcmp((*p)->name, name))
                        return *p;
        return NULL;
}

const char *policy_names(void)
{
        static char *names;
        static gsize done;

        if (g_once_init_enter(&done)) {
                GString *s = g_string_new(NULL);

                for (const struct boost_policy_ops *const *p = policy_registry; *p; p++)
                        g_string_append_printf(s, "%s%s", s->len ? ", " : "", (*p)->name);
                names = g_string_free(s, FALSE);
                g_once_init_leave(&done, 1);
        }
        return names;
}

const struct policy_key *policy_key_find(const struct boost_policy_ops *ops, const char *key)
{
        for (const struct policy_key *k = ops->keys; k && k->name; k++)
                if (!strcmp(k->name, key))
                        return k;
        return NULL;
}

const struct policy_key *policy_any_key(const char *key)
{
        for (const struct boost_policy_ops *const *p = policy_registry; *p; p++) {
                const struct policy_key *k = policy_key_find(*p, key);

                if (k)
                        return k;
        }
        return NULL;
}

bool policy_any_thread(const char *name)
{
        for (const struct boost_policy_ops *const *p = policy_registry; *p; p++)
                for (const char *const *t = (*p)->threads; t && *t; t++)
                        if (!strcmp(*t, name))
                                return true;
        return false;
}
