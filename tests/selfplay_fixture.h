/* Small self-play runs for the datagen and trainer tests. */
#ifndef SQUALL_TESTS_SELFPLAY_FIXTURE_H
#define SQUALL_TESTS_SELFPLAY_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "datagen.h"

/* A fast run into path: classical evaluation (the tests then do not depend on a net), a 2 MB
 * hash, no progress lines; the caller sets the target (games or positions) and anything else. */
void test_selfplay_config(DatagenConfig *cfg, const char *path, int threads, int nodes, uint64_t seed);

/* Plays that run to a game count; prints the error and returns false when it fails. */
bool test_selfplay_games(const char *path, int games, int threads, int nodes, uint64_t seed, DatagenStats *st);

/* A trainer report's quantized-vs-float check covered every holdout position of a fixture run
 * (a few hundred at most, under the tests' compare_positions 2000); needs test.h's CHECK_MSG. */
#define CHECK_EVERY_HOLDOUT_POSITION_COMPARED(rep)                                                   \
    CHECK_MSG((rep).holdout_positions >= 50 && (rep).compared == (int)(rep).holdout_positions,       \
              "compared %d of %zu holdout positions", (rep).compared, (rep).holdout_positions)

#endif
