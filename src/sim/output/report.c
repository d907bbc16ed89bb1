/* report.c - ordered results and the JSON writer; see report.h. */
#include "report.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

enum value_type { V_INT, V_DOUBLE, V_BOOL, V_STRING, V_NULL };

struct entry {
        char *key;
        enum value_type type;
        int64_t i;
        double d;
        char *s;
};

struct distribution {
        char *name;
        const struct latency_stat *stat;
};

struct report {
        GArray *entries;        /* struct entry */
        GArray *dists;          /* struct distribution, from report_latency() */
        GHashTable *index;      /* key -> GUINT_TO_POINTER(position + 1) */
        GHashTable *objects;    /* every proper dotted prefix of a key: an object in JSON */
};

struct report *report_new(void)
{
        struct report *r = g_new0(struct report, 1);

        r->entries = g_array_new(FALSE, TRUE, sizeof(struct entry));
        r->dists = g_array_new(FALSE, TRUE, sizeof(struct distribution));
        r->index = g_hash_table_new(g_str_hash, g_str_equal);
        r->objects = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        return r;
}

void report_free(struct report *r)
{
        if (!r)
                return;
        for (guint i = 0; i < r->entries->len; i++) {
                struct entry *e = &g_array_index(r->entries, struct entry, i);

                g_free(e->key);
                g_free(e->s);
        }
        g_array_free(r->entries, TRUE);
        for (guint i = 0; i < r->dists->len; i++)
                g_free(g_array_index(r->dists, struct distribution, i).name);
        g_array_free(r->dists, TRUE);
        g_hash_table_destroy(r->index);
        g_hash_table_destroy(r->objects);
        g_free(r);
}

static struct entry *add(struct report *r, const char *key, enum value_type type)
{
        gpointer pos = g_hash_table_lookup(r->index, key);
        struct entry *e;

        if (pos) {
                /* Setting a key again replaces its value in place. */
                e = &g_array_index(r->entries, struct entry, GPOINTER_TO_UINT(pos) - 1);
                g_clear_pointer(&e->s, g_free);
        } else {
                struct entry fresh = { .key = g_strdup(key) };

                /* "a" and "a.b" would write "a" twice in one JSON object: a
                 * reader keeps one of them and the other is silently lost. */
                if (g_hash_table_contains(r->objects, key))
                        g_error("report: key '%s' is also an object", key);
                for (const char *dot = strchr(key, '.'); dot; dot = strchr(dot + 1, '.')) {
                        g_autofree char *prefix = g_strndup(key, (gsize)(dot - key));

                        if (g_hash_table_contains(r->index, prefix))
                                g_error("report: key '%s' is inside the value '%s'", key, prefix);
                        g_hash_table_add(r->objects, g_steal_pointer(&prefix));
                }

                g_array_append_val(r->entries, fresh);
                e = &g_array_index(r->entries, struct entry, r->entries->len - 1);
                g_hash_table_insert(r->index, e->key, GUINT_TO_POINTER(r->entries->len));
        }
        e->type = type;
        return e;
}

void report_int(struct report *r, const char *key, int64_t v)
{
        add(r, key, V_INT)->i = v;
}

void report_double(struct report *r, const char *key, double v)
{
        add(r, key, V_DOUBLE)->d = v;
}

void report_bool(struct report *r, const char *key, gboolean v)
{
        add(r, key, V_BOOL)->i = !!v;
}

void report_string(struct report *r, const char *key, const char *v)
{
        add(r, key, V_STRING)->s = g_strdup(v ? v : "");
}

void report_null(struct report *r, const char *key)
{
        add(r, key, V_NULL);
}

void report_latency(struct report *r, const char *prefix, const struct latency_stat *s)
{
        static const struct { const char *name; double q; } qs[] = {
                { "p50_ns", 0.5 }, { "p90_ns", 0.9 }, { "p99_ns", 0.99 }, { "p999_ns", 0.999 },
        };
        char key[256];
        struct distribution d = { g_strdup(prefix), s };

        g_array_append_val(r->dists, d);
        g_snprintf(key, sizeof(key), "%s.count", prefix);
        report_int(r, key, (int64_t)s->count);
        /* No samples, no statistics: null, not a 0 that reads as "instant". */
#define STAT(name, value)                                                       \
        do {                                                                    \
                g_snprintf(key, sizeof(key), "%s.%s", prefix, name);            \
                if (s->count)                                                   \
                        report_int(r, key, value);                              \
                else                                                            \
                        report_null(r, key);                                    \
        } while (0)
        STAT("min_ns", s->min_ns);
        STAT("mean_ns", (int64_t)llround(latency_stat_mean(s)));
        for (size_t i = 0; i < G_N_ELEMENTS(qs); i++)
                STAT(qs[i].name, latency_stat_quantile(s, qs[i].q));
        STAT("max_ns", s->max_ns);
#undef STAT
}

const char *report_lookup_string(const struct report *r, const char *key)
{
        gpointer pos = g_hash_table_lookup(r->index, key);
        const struct entry *e;

        if (!pos)
                return NULL;
        e = &g_array_index(r->entries, struct entry, GPOINTER_TO_UINT(pos) - 1);
        return e->type == V_STRING ? e->s : NULL;
}

gboolean report_has(const struct report *r, const char *key)
{
        return g_hash_table_contains(r->index, key);
}

GPtrArray *report_keys(const struct report *r)
{
        GPtrArray *keys = g_ptr_array_sized_new(r->entries->len);

        for (guint i = 0; i < r->entries->len; i++)
                g_ptr_array_add(keys, g_array_index(r->entries, struct entry, i).key);
        return keys;
}

gboolean report_lookup(const struct report *r, const char *key, double *out)
{
        gpointer pos = g_hash_table_lookup(r->index, key);
        const struct entry *e;

        if (!pos)
                return FALSE;
        e = &g_array_index(r->entries, struct entry, GPOINTER_TO_UINT(pos) - 1);
        switch (e->type) {
        case V_INT:
        case V_BOOL:
                *out = (double)e->i;
                return TRUE;
        case V_DOUBLE:
                *out = e->d;
                return TRUE;
        case V_STRING:
        case V_NULL:
                break;
        }
        return FALSE;
}

/* A maximum and what, still pending at the end, would count towards it. */
static const struct {
        const char *max_key, *pending_key;
} pending_of[] = {
        { "gp_latency.max_ns", "rcu.gp_in_progress_ns" },
        { "rcu.gp_max_at_least_ns", "rcu.gp_in_progress_ns" },
        { "flip_latency.max_ns", "rcu.flip_in_progress_ns" },
        { "callback_latency.max_ns", "rcu.oldest_callback_pending_ns" },
        { "sync_latency.max_ns", "rcu.oldest_sync_pending_ns" },
};

const char *report_pending_key(const char *key)
{
        for (size_t i = 0; i < G_N_ELEMENTS(pending_of); i++)
                if (!strcmp(key, pending_of[i].max_key))
                        return pending_of[i].pending_key;
        return NULL;
}

gboolean report_lookup_bound(const struct report *r, const char *key, double *out, gboolean *at_least)
{
        const char *pk = report_pending_key(key);
        double done, pending;
        gboolean have_done = report_lookup(r, key, &done);
        gboolean have_pending = pk && report_lookup(r, pk, &pending) && pending > 0;

        /* equal: the maximum is the pending one, which has not ended */
        *at_least = have_pending && (!have_done || pending >= done);
        if (*at_least)
                *out = pending;
        else if (have_done)
                *out = done;
        return have_done || have_pending;
}

/* JSON is UTF-8: an invalid byte anywhere becomes U+FFFD, never goes raw. */
static void add_string(JsonBuilder *b, const char *raw)
{
        g_autofree char *valid = g_utf8_validate(raw, -1, NULL) ? NULL : g_utf8_make_valid(raw, -1);

        json_builder_add_string_value(b, valid ? valid : raw);
}

static void set_member(JsonBuilder *b, const char *raw)
{
        g_autofree char *valid = g_utf8_validate(raw, -1, NULL) ? NULL : g_utf8_make_valid(raw, -1);

        json_builder_set_member_name(b, valid ? valid : raw);
}

/* Dotted keys become nested objects, in the order they were added
 * ("rcu.gp_latency.max_ns": rcu -> gp_latency -> max_ns); json-glib
 * escapes and prints (two-space indent). */
void report_write_json(const struct report *r, FILE *f)
{
        g_autoptr(JsonBuilder) b = json_builder_new();
        g_autoptr(JsonGenerator) gen = json_generator_new();
        g_autoptr(JsonNode) root = NULL;
        g_auto(GStrv) open = g_new0(char *, 1);  /* path of objects now open */
        g_autofree char *text = NULL;
        guint nopen = 0;

        json_builder_begin_object(b);
        for (guint i = 0; i < r->entries->len; i++) {
                const struct entry *e = &g_array_index(r->entries, struct entry, i);
                g_auto(GStrv) parts = g_strsplit(e->key, ".", -1);
                guint n = g_strv_length(parts);
                guint common = 0;

                while (common < nopen && common + 1 < n && !strcmp(open[common], parts[common]))
                        common++;
                for (; nopen > common; nopen--) {
                        json_builder_end_object(b);
                        g_clear_pointer(&open[nopen - 1], g_free);
                }
                for (; nopen + 1 < n; nopen++) {
                        set_member(b, parts[nopen]);
                        json_builder_begin_object(b);
                        open = g_renew(char *, open, nopen + 2);
                        open[nopen] = g_strdup(parts[nopen]);
                        open[nopen + 1] = NULL;
                }
                set_member(b, parts[n - 1]);
                switch (e->type) {
                case V_INT:
                        json_builder_add_int_value(b, e->i);
                        break;
                case V_BOOL:
                        json_builder_add_boolean_value(b, e->i != 0);
                        break;
                case V_DOUBLE:
                        if (isfinite(e->d))
                                json_builder_add_double_value(b, e->d);
                        else
                                json_builder_add_null_value(b);
                        break;
                case V_STRING:
                        add_string(b, e->s);
                        break;
                case V_NULL:
                        json_builder_add_null_value(b);
                        break;
                }
        }
        for (; nopen > 0; nopen--)
                json_builder_end_object(b);
        json_builder_end_object(b);
        root = json_builder_get_root(b);
        json_generator_set_root(gen, root);
        json_generator_set_pretty(gen, TRUE);
        json_generator_set_indent(gen, 2);
        text = json_generator_to_data(gen, NULL);
        fputs(text, f);
        fputc('\n', f);
}

void report_write_distributions(const struct report *r, FILE *f)
{
        fputs("metric,lo_ns,hi_ns,count,cdf_lo,cdf\n", f);
        for (guint i = 0; i < r->dists->len; i++) {
                const struct distribution *d = &g_array_index(r->dists, struct distribution, i);

                latency_stat_write_bins(d->stat, f, d->name);
        }
}
