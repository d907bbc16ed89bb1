/* registry.c - every boosting policy, by name. */
#include "policy.h"

#include <string.h>

#include "../sim/output/output.h"
#include "../sim/scenario/units.h"

extern const struct boost_policy_ops none_policy_ops;
extern const struct boost_policy_ops booster_policy_ops;
extern const struct boost_policy_ops booster8_policy_ops;
extern const struct boost_policy_ops pilock_policy_ops;
extern const struct boost_policy_ops rostedt_policy_ops;
extern const struct boost_policy_ops rcu_boost_policy_ops;

const struct boost_policy_ops *const policy_registry[] = {
        &none_policy_ops,
        &booster_policy_ops,
        &booster8_policy_ops,
        &pilock_policy_ops,
        &rostedt_policy_ops,
        &rcu_boost_policy_ops,
        NULL,
};

/* Modules loaded, by path and in order; they stay loaded for good. */
static GMutex loaded_lock;
static GPtrArray *loaded_ops;           /* const struct boost_policy_ops * (+ NULL) */
static GHashTable *loaded_paths;        /* canonical path -> ops */

G_DEFINE_QUARK(rcuboost-policy-error-quark, policy_error)

const char *policy_module_path(const struct boost_policy_ops *ops)
{
        const char *path = NULL;
        GHashTableIter it;
        gpointer key, value;

        g_mutex_lock(&loaded_lock);
        if (loaded_paths) {
                g_hash_table_iter_init(&it, loaded_paths);
                while (!path && g_hash_table_iter_next(&it, &key, &value))
                        if (value == ops)
                                path = key;     /* kept for good, as the module is */
        }
        g_mutex_unlock(&loaded_lock);
        return path;
}

char *policy_describe(const struct boost_policy_ops *ops)
{
        const char *module = policy_module_path(ops);

        return module ? g_strdup_printf("policy %s (module %s)", ops->name, module)
                      : g_strdup_printf("policy %s", ops->name);
}

const struct boost_policy_ops *policy_find(const char *name)
{
        const struct boost_policy_ops *found = NULL;

        for (const struct boost_policy_ops *const *p = policy_registry; *p; p++)
                if (!strcmp((*p)->name, name))
                        return *p;
        g_mutex_lock(&loaded_lock);
        for (guint i = 0; loaded_ops && i + 1 < loaded_ops->len && !found; i++) {
                const struct boost_policy_ops *ops = g_ptr_array_index(loaded_ops, i);

                if (!strcmp(ops->name, name))
                        found = ops;
        }
        g_mutex_unlock(&loaded_lock);
        return found;
}

bool policy_is_module_path(const char *name)
{
        return strchr(name, '/') != NULL || g_str_has_suffix(name, ".so");
}

const struct boost_policy_ops *const *policy_loaded(void)
{
        static const struct boost_policy_ops *const none[] = { NULL };

        return loaded_ops ? (const struct boost_policy_ops *const *)loaded_ops->pdata : none;
}

const struct boost_policy_ops *policy_load(const char *path, GError **error)
{
        g_autofree char *canon = g_canonicalize_filename(path, NULL);
        const struct boost_policy_ops *ops = NULL, **sym_ops = NULL;
        const int *sym_abi = NULL;
        GModule *module;
        GError *e = NULL;

        g_mutex_lock(&loaded_lock);
        if (loaded_paths && (ops = g_hash_table_lookup(loaded_paths, canon)))
                goto out;
        if (!g_module_supported()) {
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s: cannot load modules here",
                            path);
                goto out;
        }
        module = g_module_open(canon, G_MODULE_BIND_LOCAL);
        if (!module) {
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "%s: cannot load the policy module: %s", path, g_module_error());
                goto out;
        }
        if (!g_module_symbol(module, "rcuboost_policy_abi", (gpointer *)&sym_abi) || !sym_abi ||
            !g_module_symbol(module, "rcuboost_policy", (gpointer *)&sym_ops) || !sym_ops || !*sym_ops) {
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "%s: not an rcuboost policy (no "
                            "RCUBOOST_POLICY(ops) in it; docs/policies.md, \"Writing a policy\")", path);
                g_module_close(module);
                goto out;
        }
        if (*sym_abi != RCUBOOST_POLICY_ABI) {
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "%s: built for policy ABI %d, but this "
                            "rcuboost has ABI %d: rebuild it against this version's headers (pkg-config "
                            "rcuboost-policy)", path, *sym_abi, RCUBOOST_POLICY_ABI);
                g_module_close(module);
                goto out;
        }
        ops = *sym_ops;
        if (!ops->name || !ops->create || !ops->reader_blocked || !ops->reader_unlock) {
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "%s: policy without a name, create(), "
                            "reader_blocked() or reader_unlock()", path);
                ops = NULL;
                g_module_close(module);
                goto out;
        }
        if (!output_name_check(ops->name, "its policy name", &e)) {
                /* the name becomes compare's DIR/POLICY/ */
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s: %s", path, e->message);
                g_error_free(e);
                ops = NULL;
                g_module_close(module);
                goto out;
        }
        if (!policy_keys_check(ops, &e)) {
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s: %s", path, e->message);
                g_error_free(e);
                ops = NULL;
                g_module_close(module);
                goto out;
        }
        g_mutex_unlock(&loaded_lock);
        if (policy_find(ops->name)) {
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "%s: a policy named '%s' exists already", path, ops->name);
                g_module_close(module);
                return NULL;
        }
        g_mutex_lock(&loaded_lock);
        g_module_make_resident(module);
        if (!loaded_ops) {
                loaded_ops = g_ptr_array_new();
                g_ptr_array_add(loaded_ops, NULL);
                loaded_paths = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        }
        loaded_ops->pdata[loaded_ops->len - 1] = (gpointer)ops;
        g_ptr_array_add(loaded_ops, NULL);
        g_hash_table_insert(loaded_paths, g_strdup(canon), (gpointer)ops);
out:
        g_mutex_unlock(&loaded_lock);
        return ops;
}

gboolean policy_keys_check(const struct boost_policy_ops *ops, GError **error)
{
        for (const struct policy_key *k = ops->keys; k && k->name; k++) {
                GError *e = NULL;
                gboolean ok;
                int64_t i;
                gboolean b;
                int c;
                struct sched_spec sp;

                switch (k->type) {
                case POLICY_KEY_DURATION: ok = units_parse_duration(k->default_value, &i, &e); break;
                case POLICY_KEY_INT: ok = units_parse_int(k->default_value, INT64_MIN, INT64_MAX, &i, &e); break;
                case POLICY_KEY_SCHED: ok = units_parse_sched(k->default_value, &sp, &e); break;
                case POLICY_KEY_BOOL: ok = units_parse_bool(k->default_value, &b, &e); break;
                case POLICY_KEY_ENUM:
                        if (!k->choices || !*k->choices) {
                                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                                            "policy %s: key '%s' is POLICY_KEY_ENUM without .choices", ops->name,
                                            k->name);
                                return FALSE;
                        }
                        ok = units_parse_choice(k->default_value, k->choices, &c, &e);
                        break;
                default:
                        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                                    "policy %s: key '%s' has type %d, not a POLICY_KEY_*", ops->name, k->name,
                                    (int)k->type);
                        return FALSE;
                }
                if (!ok) {
                        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                                    "policy %s: key '%s' has a default its type refuses: %s", ops->name, k->name,
                                    e ? e->message : "no default");
                        g_clear_error(&e);
                        return FALSE;
                }
        }
        return TRUE;
}

/* Every policy known now: the built-ins, then the modules loaded so far. */
static GPtrArray *known_policies(void)
{
        GPtrArray *all = g_ptr_array_new();
        const struct boost_policy_ops *const *loaded = policy_loaded();

        for (const struct boost_policy_ops *const *p = policy_registry; *p; p++)
                g_ptr_array_add(all, (gpointer)*p);
        for (const struct boost_policy_ops *const *p = loaded; *p; p++)
                g_ptr_array_add(all, (gpointer)*p);
        return all;
}

const char *policy_names(void)
{
        /* rebuilt when a module has been loaded since; kept for good (a static string) */
        static GMutex lock;
        static GPtrArray *made;         /* every string made, so none is freed under a caller */
        static guint made_for = G_MAXUINT;
        g_autoptr(GPtrArray) all = known_policies();
        const char *names;

        g_mutex_lock(&lock);
        if (made_for != all->len) {
                GString *s = g_string_new(NULL);

                for (guint i = 0; i < all->len; i++)
                        g_string_append_printf(s, "%s%s", s->len ? ", " : "",
                                               ((const struct boost_policy_ops *)all->pdata[i])->name);
                if (!made)
                        made = g_ptr_array_new();
                g_ptr_array_add(made, g_string_free(s, FALSE));
                made_for = all->len;
        }
        names = g_ptr_array_index(made, made->len - 1);
        g_mutex_unlock(&lock);
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
        g_autoptr(GPtrArray) all = known_policies();

        for (guint i = 0; i < all->len; i++) {
                const struct policy_key *k = policy_key_find(all->pdata[i], key);

                if (k)
                        return k;
        }
        return NULL;
}

bool policy_any_thread(const char *name)
{
        g_autoptr(GPtrArray) all = known_policies();

        for (guint i = 0; i < all->len; i++)
                for (const char *const *t = ((const struct boost_policy_ops *)all->pdata[i])->threads; t && *t; t++)
                        if (!strcmp(*t, name))
                                return true;
        return false;
}
