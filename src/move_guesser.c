/* The move guesser's fitted weights and its score. */
#include "move_guesser.h"

#include <limits.h>

/* Pasted from the fit (docs/search.md, "Measured"); the order is that of the MF_ enum. */
/* squall movefit --data /var/tmp/squall-data/gen3-s101.bin --positions 100000 --nodes 1000 --seed 1 --label successor:
 * 89313 training and 9925 held-out positions, held-out top-1 20.8% */
const int move_guesser_weights[MOVE_FEATURE_COUNT] = {
    40933, /* capture: 0.6246 logits */
    34, /* victim_value: 0.0005 logits */
    -68725, /* mover_pawn: -1.0487 logits */
    44299, /* mover_knight: 0.6759 logits */
    23734, /* mover_bishop: 0.3622 logits */
    10522, /* mover_rook: 0.1606 logits */
    24658, /* mover_queen: 0.3763 logits */
    6315, /* mover_king: 0.0964 logits */
    574, /* see: 0.0088 logits */
    51565, /* check: 0.7868 logits */
    -204221, /* queen_promotion: -3.1162 logits */
    -298708, /* under_promotion: -4.5579 logits */
    0, /* castling: 0.0000 logits */
    86510, /* recapture: 1.3200 logits */
    182294, /* escapes_pawn: 2.7816 logits */
    -31339, /* into_pawn: -0.4782 logits */
    110782, /* escapes_hanging: 1.6904 logits */
    3501, /* to_attackers: 0.0534 logits */
    2460, /* to_defenders: 0.0375 logits */
    21814, /* centrality_gain: 0.3329 logits */
    21481, /* pawn_rank: 0.3278 logits */
    26364, /* passed_pawn_push: 0.4023 logits */
    8694, /* king_zone_attacks: 0.1327 logits */
};

int move_guesser_score(const Position *pos, Move m) {
    int f[MOVE_FEATURE_COUNT];
    move_features(pos, m, f);
    long long sum = 0; /* features are bounded (SEE within +-1200), weights are not */
    for (int k = 0; k < MOVE_FEATURE_COUNT; k++) sum += (long long)move_guesser_weights[k] * f[k];
    return sum > INT_MAX ? INT_MAX : sum < -INT_MAX ? -INT_MAX : (int)sum;
}
