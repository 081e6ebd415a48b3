/* The move guesser's fitted weights and its score. */
#include "move_guesser.h"

#include <limits.h>

/* Placeholder until the first fit. */
const int move_guesser_weights[MOVE_FEATURE_COUNT] = {
    [MF_VICTIM_VALUE] = 1,
};

int move_guesser_score(const Position *pos, Move m) {
    int f[MOVE_FEATURE_COUNT];
    move_features(pos, m, f);
    long long sum = 0; /* features are bounded (SEE within +-1200), weights are not */
    for (int k = 0; k < MOVE_FEATURE_COUNT; k++) sum += (long long)move_guesser_weights[k] * f[k];
    return sum > INT_MAX ? INT_MAX : sum < -INT_MAX ? -INT_MAX : (int)sum;
}
