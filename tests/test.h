/* Minimal test framework: each TEST is a named case; CHECKs inside it decide pass/fail. */
#ifndef SQUALL_TEST_H
#define SQUALL_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef void (*TestFunc)(void);

typedef struct {
    const char *suite;
    const char *name;
    TestFunc func;
} TestCase;

void test_register(const char *suite, const char *name, TestFunc func);
void test_fail(const char *file, int line, const char *expr, const char *detail);

/* The whole file in a malloc'ed buffer with a NUL after its last byte (so text can be searched
 * with the string functions), its length in *size; NULL when it cannot be read in full. */
unsigned char *test_read_file(const char *path, size_t *size);

/* Deterministic xorshift64 for tests that want reproducible variety; each caller owns its state. */
static inline uint64_t test_random(uint64_t *state) {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* Options from the command line, for tests that need them. */
extern const char *test_engine_path; /* path to the squall binary for protocol tests */
extern const char *test_debug_engine_path; /* the sanitizer build: the short fuzz run and the leak checks */
extern bool test_full;               /* --full: run slow variants (perft to listed depth) */

#define TEST(suite, name)                                                        \
    static void test_##suite##_##name(void);                                     \
    __attribute__((constructor)) static void register_##suite##_##name(void) {   \
        test_register(#suite, #name, test_##suite##_##name);                     \
    }                                                                            \
    static void test_##suite##_##name(void)

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) test_fail(__FILE__, __LINE__, #cond, NULL);                 \
    } while (0)

#define CHECK_MSG(cond, ...)                                                     \
    do {                                                                         \
        if (!(cond)) {                                                           \
            char detail_[2048];                                                   \
            snprintf(detail_, sizeof detail_, __VA_ARGS__);                      \
            test_fail(__FILE__, __LINE__, #cond, detail_);                       \
        }                                                                        \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                       \
    do {                                                                         \
        unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b); \
        if (a_ != b_) {                                                          \
            char detail_[128];                                                   \
            snprintf(detail_, sizeof detail_, "%llu != %llu", a_, b_);           \
            test_fail(__FILE__, __LINE__, #a " == " #b, detail_);                \
        }                                                                        \
    } while (0)

#endif
