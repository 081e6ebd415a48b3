/* Features of a legal move, for the move guesser: a logistic-regression scorer that is to order
 * root moves (its weights are fitted from datagen positions, the move the search chose being
 * the label; docs/search.md). Every feature is an integer seen from the side to move, so a
 * position and its colour-mirrored copy give the same features for mirrored moves. */
#ifndef SQUALL_MOVE_FEATURES_H
#define SQUALL_MOVE_FEATURES_H

#include <stdio.h>

#include "board.h"

enum {
    MF_CAPTURE,              /* 1 for a capture, en passant included */
    MF_VICTIM_VALUE,         /* the captured piece's exchange value (centipawns), else 0 */
    MF_MOVER_PAWN,           /* one-hot: the piece that moves */
    MF_MOVER_KNIGHT,
    MF_MOVER_BISHOP,
    MF_MOVER_ROOK,
    MF_MOVER_QUEEN,
    MF_MOVER_KING,
    MF_SEE,                  /* static exchange result (centipawns, within +-MOVE_FEATURE_SEE_LIMIT) */
    MF_CHECK,                /* gives check */
    MF_QUEEN_PROMOTION,
    MF_UNDER_PROMOTION,
    MF_CASTLING,
    MF_RECAPTURE,            /* takes back on the square where the opponent's last move captured */
    MF_ESCAPES_PAWN,         /* a piece (not a pawn) leaves a square an enemy pawn attacks */
    MF_INTO_PAWN,            /* a piece (not a pawn) lands where an enemy pawn attacks */
    MF_ESCAPES_HANGING,      /* the mover leaves a square where it is attacked and undefended */
    MF_TO_ATTACKERS,         /* enemy pieces attacking the destination after the move */
    MF_TO_DEFENDERS,         /* own pieces defending the destination after the move */
    MF_CENTRALITY_GAIN,      /* how much closer to the centre the mover gets (-3..3) */
    MF_PAWN_RANK,            /* a pawn's destination rank counted from its side (2..8), else 0 */
    MF_PASSED_PAWN_PUSH,     /* a pawn move after which no enemy pawn can stop or capture it on its way */
    MF_KING_ZONE_ATTACKS,    /* squares next to the enemy king the moved piece attacks from its destination */
    MOVE_FEATURE_COUNT
};

#define MOVE_FEATURE_SEE_LIMIT 1200

extern const char *const move_feature_names[MOVE_FEATURE_COUNT];

/* The features of m, a legal move of pos. */
void move_features(const Position *pos, Move m, int features[MOVE_FEATURE_COUNT]);
/* `movefeatures`: a line naming the features, then one line per legal move:
 * "MOVE_FEATURES <uci move> f1 f2 ...". */
void move_features_print(const Position *pos, FILE *out);
/* squall movefeatures [FEN [moves...]]: the lines above for a position (the start position
 * without a FEN), after the moves given. */
int move_features_main(int argc, char **argv);
void move_features_usage(FILE *out); /* for `squall movefeatures --help` */

#endif
