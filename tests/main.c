/* Test runner: runs every registered case (or those matching --only) and ends with
 * the line "N passed, N failed". */
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "clock.h"
#include "test.h"

#define MAX_TESTS 512

static TestCase cases[MAX_TESTS];
static int case_count;
static int current_failures;

const char *test_engine_path = "./squall";
const char *test_debug_engine_path = "./squall-debug";
bool test_full = false;

void test_register(const char *suite, const char *name, TestFunc func) {
    if (case_count < MAX_TESTS) cases[case_count++] = (TestCase){suite, name, func};
}

void test_fail(const char *file, int line, const char *expr, const char *detail) {
    if (current_failures < 5)
        printf("    FAIL %s:%d: %s%s%s\n", file, line, expr, detail ? " -- " : "", detail ? detail : "");
    current_failures++;
}

unsigned char *test_read_file(const char *path, size_t *size) {
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    unsigned char *buf = n >= 0 && fseek(f, 0, SEEK_SET) == 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) free(buf), buf = NULL;
    fclose(f);
    if (!buf) return NULL;
    buf[n] = '\0';
    *size = (size_t)n;
    return buf;
}

int main(int argc, char **argv) {
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else if (!strcmp(argv[i], "--engine") && i + 1 < argc) test_engine_path = argv[++i];
        else if (!strcmp(argv[i], "--debug-engine") && i + 1 < argc) test_debug_engine_path = argv[++i];
        else if (!strcmp(argv[i], "--full")) test_full = true;
        else {
            printf("usage: %s [--only SUBSTRING] [--engine PATH] [--debug-engine PATH] [--full]\n", argv[0]);
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    board_init();
    int passed = 0, failed = 0;
    double start = time_now_seconds();
    for (int i = 0; i < case_count; i++) {
        char full_name[160];
        snprintf(full_name, sizeof full_name, "%s.%s", cases[i].suite, cases[i].name);
        if (only && !strstr(full_name, only)) continue;
        current_failures = 0;
        double t0 = time_now_seconds();
        cases[i].func();
        double dt = time_now_seconds() - t0;
        if (current_failures) failed++, printf("FAIL %s (%d failed checks, %.2fs)\n", full_name, current_failures, dt);
        else passed++, printf("ok   %s (%.2fs)\n", full_name, dt);
    }
    printf("total time %.1fs\n", time_now_seconds() - start);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
