/* What the generator takes from outside: the engine's option list (read from its `uci`
 * answer, so new options are fuzzed without touching the fuzzer) and a scratch folder of
 * hostile files (a FIFO, empty, truncated and garbage nets, scripts, an EPD file). */
#ifndef SQUALL_FUZZ_FILES_H
#define SQUALL_FUZZ_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "fuzz.h"

typedef enum { FUZZ_OPT_SPIN, FUZZ_OPT_CHECK, FUZZ_OPT_COMBO, FUZZ_OPT_STRING, FUZZ_OPT_BUTTON } FuzzOptionKind;

#define FUZZ_MAX_CHOICES 8

typedef struct {
    char name[64];
    FuzzOptionKind kind;
    long min, max;
    char choices[FUZZ_MAX_CHOICES][32];
    int choice_count;
} FuzzOption;

/* Reads the engine's options and creates the scratch folder; false (and err) on failure. */
bool fuzz_files_setup(const char *engine, char *err, size_t err_size);
void fuzz_files_cleanup(void);

const FuzzOption *fuzz_random_option(FuzzRng *rng); /* NULL when the engine listed none */
const char *fuzz_file_path(FuzzRng *rng);           /* for EvalFile and other file options */
const char *fuzz_script_path(FuzzRng *rng);
const char *fuzz_epd_path(FuzzRng *rng);

#endif
