/* replay_main.c - run a fuzz harness over files, without libFuzzer.
 *
 * `meson test` replays the seed corpus and every input that once crashed
 * (tests/fuzz/regressions/) through the harnesses in an ordinary build.
 */
#include <glib.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay(const char *path)
{
        if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
                g_autoptr(GDir) d = g_dir_open(path, 0, NULL);
                const char *name;
                int n = 0;

                while (d && (name = g_dir_read_name(d))) {
                        g_autofree char *child = g_build_filename(path, name, NULL);

                        n += replay(child);
                }
                return n;
        }
        g_autofree char *data = NULL;
        gsize len;

        if (!g_file_get_contents(path, &data, &len, NULL)) {
                fprintf(stderr, "replay: cannot read %s\n", path);
                return 0;
        }
        LLVMFuzzerTestOneInput((const uint8_t *)data, len);
        return 1;
}

int main(int argc, char **argv)
{
        int n = 0;

        for (int i = 1; i < argc; i++)
                n += replay(argv[i]);
        printf("%d passed, 0 failed\n", n);
        return n > 0 ? 0 : 1;
}
