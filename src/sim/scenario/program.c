/* program.c - task programs: parser and static checks; see program.h. */
#include "program.h"

#include <string.h>

G_DEFINE_QUARK(rcuboost-program-error-quark, program_error)

#define MAX_BLOCK_DEPTH 16
#define MAX_INSNS 100000

struct parser {
        const char *text;
        const char *p;
        GHashTable *mutexes;
        GArray *code;           /* struct insn */
        int depth;
        int max_depth;
        gboolean forever;
        /* Static state along the current block. */
        int rcu_nesting;
        GArray *held;           /* int mutex indices, in lock order */
        GError **error;
};

static int column(const struct parser *ps, const char *at)
{
        return (int)(at - ps->text) + 1;
}

static gboolean fail_at(struct parser *ps, const char *at, int code, const char *fmt, ...)
        G_GNUC_PRINTF(4, 5);

static gboolean fail_at(struct parser *ps, const char *at, int code, const char *fmt, ...)
{
        va_list ap;
        g_autofree char *msg = NULL;

        va_start(ap, fmt);
        msg = g_strdup_vprintf(fmt, ap);
        va_end(ap);
        g_set_error(ps->error, PROGRAM_ERROR, code, "column %d: %s", column(ps, at), msg);
        return FALSE;
}

static void skip_space(struct parser *ps)
{
        while (g_ascii_isspace(*ps->p))
                ps->p++;
}

/* A keyword or name: letters, digits, '_', '-', '.'. */
static char *word(struct parser *ps)
{
        const char *start;

        skip_space(ps);
        start = ps->p;
        while (g_ascii_isalnum(*ps->p) || *ps->p == '_' || *ps->p == '-' || *ps->p == '.')
                ps->p++;
        return g_strndup(start, ps->p - start);
}

/* An argument runs to the next ';' or '}' outside parentheses. */
static char *argument(struct parser *ps)
{
        const char *start;
        int parens = 0;

        skip_space(ps);
        start = ps->p;
        while (*ps->p && !(parens == 0 && (*ps->p == ';' || *ps->p == '}' || *ps->p == '{'))) {
                if (*ps->p == '(')
                        parens++;
                else if (*ps->p == ')')
                        parens--;
                ps->p++;
        }
        return g_strstrip(g_strndup(start, ps->p - start));
}

static int emit(struct parser *ps, enum program_op op)
{
        struct insn in = { .op = op };

        g_array_append_val(ps->code, in);
        return (int)ps->code->len - 1;
}

static struct insn *insn_at(struct parser *ps, int i)
{
        return &g_array_index(ps->code, struct insn, i);
}

static gboolean held(struct parser *ps, int m)
{
        for (guint i = 0; i < ps->held->len; i++)
                if (g_array_index(ps->held, int, i) == m)
                        return TRUE;
        return FALSE;
}

static gboolean parse_list(struct parser *ps, gboolean in_block, gboolean *consumes_time);

static gboolean quantity(struct parser *ps, const char *kw, enum dist_unit unit, struct dist *q)
{
        const char *at;
        g_autofree char *arg = NULL;
        GError *e = NULL;

        skip_space(ps);
        at = ps->p;
        arg = argument(ps);
        if (!*arg)
                return fail_at(ps, at, PROGRAM_ERROR_SYNTAX, "'%s' needs a %s", kw,
                               unit == DIST_UNIT_DURATION ? "duration (e.g. 10us or exp(1ms))"
                                                          : "size (e.g. 4KiB)");
        if (!dist_parse(arg, unit, q, &e)) {
                fail_at(ps, at, PROGRAM_ERROR_INVALID, "%s: %s", kw, e->message);
                g_error_free(e);
                return FALSE;
        }
        return TRUE;
}

static gboolean mutex_name(struct parser *ps, const char *kw, int *index)
{
        const char *at;
        g_autofree char *name = NULL;
        gpointer v;

        skip_space(ps);
        at = ps->p;
        name = word(ps);
        if (!*name)
                return fail_at(ps, at, PROGRAM_ERROR_SYNTAX, "'%s' needs a mutex name", kw);
        v = g_hash_table_lookup(ps->mutexes, name);
        if (!v)
                return fail_at(ps, at, PROGRAM_ERROR_INVALID,
                               "unknown mutex '%s' (declare it with a [mutex:%s] section)", name, name);
        *index = GPOINTER_TO_INT(v) - 1;
        return TRUE;
}

static gboolean block(struct parser *ps, const char *kw_at, const char *kw, gboolean *consumes_time)
{
        int rcu_before = ps->rcu_nesting;
        guint held_before = ps->held->len;
        gboolean body_time = FALSE;
        const char *open;

        skip_space(ps);
        open = ps->p;
        if (*ps->p != '{')
                return fail_at(ps, ps->p, PROGRAM_ERROR_SYNTAX, "expected '{' after '%s'", kw);
        if (++ps->depth > MAX_BLOCK_DEPTH)
                return fail_at(ps, open, PROGRAM_ERROR_INVALID, "blocks nested deeper than %d",
                               MAX_BLOCK_DEPTH);
        ps->max_depth = MAX(ps->max_depth, ps->depth);
        ps->p++;
        if (!parse_list(ps, TRUE, &body_time))
                return FALSE;
        if (*ps->p != '}')
                return fail_at(ps, open, PROGRAM_ERROR_SYNTAX, "'{' is never closed");
        if (ps->rcu_nesting != rcu_before)
                return fail_at(ps, kw_at, PROGRAM_ERROR_INVALID,
                               "unbalanced rcu_read_lock/rcu_read_unlock in the body of '%s' "
                               "(each pass must leave the nesting as it found it)", kw);
        if (ps->held->len != held_before)
                return fail_at(ps, kw_at, PROGRAM_ERROR_INVALID,
                               "unbalanced lock/unlock in the body of '%s'", kw);
        if (!body_time)
                return fail_at(ps, kw_at, PROGRAM_ERROR_INVALID,
                               "the body of '%s' never advances time (add a compute, sleep or "
                               "synchronize_rcu with a non-zero duration)", kw);
        ps->p++;
        ps->depth--;
        *consumes_time = TRUE;
        return TRUE;
}

static gboolean statement(struct parser *ps, gboolean *consumes_time)
{
        const char *at;
        g_autofree char *kw = NULL;
        int i;

        skip_space(ps);
        at = ps->p;
        kw = word(ps);
        if (ps->code->len > MAX_INSNS)
                return fail_at(ps, at, PROGRAM_ERROR_INVALID, "program too long");
        if (!*kw)
                return fail_at(ps, at, PROGRAM_ERROR_SYNTAX, "expected a statement, found '%.10s'", at);
        /* call_rcu(4KiB), as C writes it: the argument follows a blank here (#48) */
        skip_space(ps);
        if (*ps->p == '(')
                return fail_at(ps, ps->p, PROGRAM_ERROR_SYNTAX, "%s takes its argument after a blank, not in "
                               "parentheses: '%s %.*s'", kw, kw, (int)strcspn(ps->p + 1, ")"), ps->p + 1);

        if (!strcmp(kw, "compute") || !strcmp(kw, "sleep")) {
                gboolean sleep = kw[0] == 's';

                if (sleep && ps->rcu_nesting > 0)
                        return fail_at(ps, at, PROGRAM_ERROR_INVALID,
                                       "sleep inside an RCU read-side critical section "
                                       "(readers may be preempted or block on a mutex, not sleep)");
                i = emit(ps, sleep ? OP_SLEEP : OP_COMPUTE);
                if (!quantity(ps, kw, DIST_UNIT_DURATION, &insn_at(ps, i)->q))
                        return FALSE;
                if (dist_mean(&insn_at(ps, i)->q) > 0)
                        *consumes_time = TRUE;
        } else if (!strcmp(kw, "lock") || !strcmp(kw, "unlock")) {
                gboolean lock = kw[0] == 'l';
                int m;

                if (!mutex_name(ps, kw, &m))
                        return FALSE;
                if (lock && held(ps, m))
                        return fail_at(ps, at, PROGRAM_ERROR_INVALID,
                                       "locks a mutex it already holds (self-deadlock)");
                if (!lock && !held(ps, m))
                        return fail_at(ps, at, PROGRAM_ERROR_INVALID,
                                       "unlocks a mutex it does not hold here");
                if (lock) {
                        g_array_append_val(ps->held, m);
                } else {
                        for (guint k = 0; k < ps->held->len; k++)
                                if (g_array_index(ps->held, int, k) == m)
                                        g_array_remove_index(ps->held, k);
                }
                i = emit(ps, lock ? OP_LOCK : OP_UNLOCK);
                insn_at(ps, i)->arg = m;
        } else if (!strcmp(kw, "rcu_read_lock")) {
                ps->rcu_nesting++;
                emit(ps, OP_RCU_LOCK);
        } else if (!strcmp(kw, "rcu_read_unlock")) {
                if (ps->rcu_nesting == 0)
                        return fail_at(ps, at, PROGRAM_ERROR_INVALID,
                                       "rcu_read_unlock without a matching rcu_read_lock");
                ps->rcu_nesting--;
                emit(ps, OP_RCU_UNLOCK);
        } else if (!strcmp(kw, "call_rcu")) {
                i = emit(ps, OP_CALL_RCU);
                if (!quantity(ps, kw, DIST_UNIT_SIZE, &insn_at(ps, i)->q))
                        return FALSE;
        } else if (!strcmp(kw, "synchronize_rcu")) {
                if (ps->rcu_nesting > 0)
                        return fail_at(ps, at, PROGRAM_ERROR_INVALID,
                                       "synchronize_rcu inside an RCU read-side critical section "
                                       "would wait for itself forever");
                emit(ps, OP_SYNC_RCU);
                *consumes_time = TRUE;
        } else if (!strcmp(kw, "loop")) {
                int start = (int)ps->code->len;

                ps->forever = TRUE;
                if (!block(ps, at, kw, consumes_time))
                        return FALSE;
                i = emit(ps, OP_JUMP);
                insn_at(ps, i)->target = start;
        } else if (!strcmp(kw, "repeat")) {
                const char *nat;
                g_autofree char *n = NULL;
                gint64 count;
                int slot = ps->depth;

                skip_space(ps);
                nat = ps->p;
                n = word(ps);
                if (!g_ascii_string_to_signed(n, 10, 1, G_MAXINT32, &count, NULL))
                        return fail_at(ps, nat, PROGRAM_ERROR_INVALID,
                                       "'repeat' needs a count from 1 to %d, found '%s'", G_MAXINT32, n);
                i = emit(ps, OP_REPEAT);
                insn_at(ps, i)->arg = (int)count;
                insn_at(ps, i)->slot = slot;
                if (!block(ps, at, kw, consumes_time))
                        return FALSE;
                int end = emit(ps, OP_REPEAT_END);

                insn_at(ps, end)->target = i;
                insn_at(ps, end)->slot = slot;
                insn_at(ps, i)->target = end;
        } else {
                return fail_at(ps, at, PROGRAM_ERROR_SYNTAX,
                               "unknown statement '%s' (expected compute, sleep, lock, unlock, "
                               "rcu_read_lock, rcu_read_unlock, call_rcu, synchronize_rcu, loop "
                               "or repeat)", kw);
        }
        return TRUE;
}

static gboolean parse_list(struct parser *ps, gboolean in_block, gboolean *consumes_time)
{
        for (;;) {
                skip_space(ps);
                if (*ps->p == '\0' || (in_block && *ps->p == '}'))
                        return TRUE;
                if (*ps->p == ';') {
                        ps->p++;
                        continue;
                }
                if (!statement(ps, consumes_time))
                        return FALSE;
                gboolean after_block = ps->p > ps->text && ps->p[-1] == '}';

                skip_space(ps);
                /* Statements are separated by ';' except after a block. */
                if (*ps->p == ';' || *ps->p == '\0' || (in_block && *ps->p == '}') || after_block)
                        continue;
                if (*ps->p == '}')
                        return fail_at(ps, ps->p, PROGRAM_ERROR_SYNTAX, "unexpected '}'");
                return fail_at(ps, ps->p, PROGRAM_ERROR_SYNTAX, "expected ';' before '%.10s'", ps->p);
        }
}

struct program *program_parse(const char *text, GHashTable *mutexes, GError **error)
{
        struct parser ps = {
                .text = text, .p = text, .mutexes = mutexes,
                .code = g_array_new(FALSE, TRUE, sizeof(struct insn)),
                .held = g_array_new(FALSE, FALSE, sizeof(int)),
                .error = error,
        };
        gboolean consumes_time = FALSE;
        struct program *prog = NULL;

        if (!parse_list(&ps, FALSE, &consumes_time))
                goto out;
        if (ps.code->len == 0) {
                fail_at(&ps, text, PROGRAM_ERROR_SYNTAX, "empty program");
                goto out;
        }
        if (ps.rcu_nesting != 0) {
                fail_at(&ps, ps.p, PROGRAM_ERROR_INVALID,
                        "program ends inside an RCU read-side critical section "
                        "(%d rcu_read_lock without rcu_read_unlock)", ps.rcu_nesting);
                goto out;
        }
        if (ps.held->len != 0) {
                fail_at(&ps, ps.p, PROGRAM_ERROR_INVALID, "program ends holding a mutex");
                goto out;
        }
        emit(&ps, OP_END);
        prog = g_new0(struct program, 1);
        prog->len = (int)ps.code->len;
        prog->code = (struct insn *)g_array_free(ps.code, FALSE);
        ps.code = NULL;
        prog->counter_slots = ps.max_depth + 1;
        prog->runs_forever = ps.forever;
out:
        if (ps.code)
                g_array_free(ps.code, TRUE);
        g_array_free(ps.held, TRUE);
        return prog;
}

/* [from, to): a loop starting inside ends the walk (nothing after it
 * runs); @in_loop: [from, to) is that loop's body. */
static struct program_cost estimate(const struct program *p, const int *loop_end, int from, int to,
                                    gboolean in_loop)
{
        struct program_cost c = { 0 };

        for (int i = from; i < to; i++) {
                const struct insn *in = &p->code[i];

                if (loop_end[i] > i && !(in_loop && i == from)) {
                        /* the loop's body, once round, is its rate from now on */
                        struct program_cost body = estimate(p, loop_end, i, loop_end[i], TRUE);

                        body.forever = TRUE;
                        return body;
                }
                switch (in->op) {
                case OP_COMPUTE:
                case OP_SLEEP:
                        c.events += 1;
                        c.time_ns += dist_mean(&in->q);
                        break;
                case OP_CALL_RCU:
                case OP_SYNC_RCU:
                case OP_LOCK:
                        c.events += 1;
                        break;
                case OP_REPEAT: {
                        struct program_cost body = estimate(p, loop_end, i + 1, in->target, FALSE);

                        if (body.forever)
                                return body;
                        c.events += in->arg * body.events;
                        c.time_ns += in->arg * body.time_ns;
                        i = in->target;
                        break;
                }
                default:
                        break;
                }
        }
        return c;
}

void program_estimate(const struct program *p, struct program_cost *out)
{
        g_autofree int *loop_end = g_new0(int, p->len + 1);

        for (int i = 0; i < p->len; i++)
                if (p->code[i].op == OP_JUMP && p->code[i].target < i)
                        loop_end[p->code[i].target] = i;
        *out = estimate(p, loop_end, 0, p->len, FALSE);
}

void program_free(struct program *p)
{
        if (!p)
                return;
        g_free(p->code);
        g_free(p);
}

