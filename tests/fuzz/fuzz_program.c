/* fuzz_program.c - libFuzzer harness: the task-program parser. */
#include <glib.h>
#include <stdint.h>
#include <string.h>

#include "sim/scenario/program.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        g_autofree char *text = g_strndup((const char *)data, size);
        g_autoptr(GHashTable) mutexes = g_hash_table_new(g_str_hash, g_str_equal);
        GError *e = NULL;
        struct program *p;

        g_hash_table_insert(mutexes, "m", GINT_TO_POINTER(1));
        g_hash_table_insert(mutexes, "table", GINT_TO_POINTER(2));
        p = program_parse(text, mutexes, &e);
        if (p) {
                /* Every jump and counter slot stays inside the program. */
                for (int i = 0; i < p->len; i++) {
                        const struct insn *in = &p->code[i];

                        if (in->op == OP_JUMP || in->op == OP_REPEAT || in->op == OP_REPEAT_END)
                                g_assert(in->target >= 0 && in->target < p->len);
                        if (in->op == OP_REPEAT || in->op == OP_REPEAT_END)
                                g_assert(in->slot >= 0 && in->slot < p->counter_slots);
                }
                g_assert(p->code[p->len - 1].op == OP_END);
                program_free(p);
        } else {
                g_assert(e && e->message && *e->message);
                g_error_free(e);
        }
        return 0;
}
