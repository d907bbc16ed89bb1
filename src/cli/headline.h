/* headline.h - the metrics a comparison or a sweep reports per run. */
#ifndef RCUBOOST_HEADLINE_H
#define RCUBOOST_HEADLINE_H

#include <glib.h>

enum headline_kind {
        HEADLINE_OOM,
        HEADLINE_BYTES,
        HEADLINE_NS,
        HEADLINE_NS_AT_LEAST,   /* ">= 2.67s" when the value is a lower bound */
        HEADLINE_INT,
};

struct headline_metric {
        const char *header;     /* for people */
        const char *key;        /* summary.json key */
        enum headline_kind kind;
        /* The column's name in comparison.tsv and sweep's results.csv, where
         * it is not @key: a maximum that counts what was still waiting at the
         * end is not summary.json's @key, so it does not take its name. */
        const char *column;
};

/* @m's column name: m->column, else m->key. */
const char *headline_column(const struct headline_metric *m);

#define HEADLINE_COUNT 24
extern const struct headline_metric headline[HEADLINE_COUNT];

/* @v formatted for people ("at 3.67 s", "2.8 MiB", "23ms", "164"; "-" for
 * NAN: no value, e.g. the p99 of no samples). */
char *headline_format(const struct headline_metric *m, double v, gboolean oom, gboolean at_least);

#endif
