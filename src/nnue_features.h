/* HalfKAv2_hm input features: the one definition shared by the engine and the trainer.
 *
 * For perspective P whose own king stands on ksq (real square, a1 = 0):
 *   index = (s ^ orient[P][ksq]) + pieceplane[P][pc] + 704 * bucket[P][ksq]
 * orient mirrors files so P's king always lands on files e-h (and flips ranks for black);
 * pieceplane puts own/enemy pieces of each type on planes of 64, both kings share plane 640;
 * bucket is 0..31 from the king's rank and its distance to the nearer edge file. */
#ifndef SQUALL_NNUE_FEATURES_H
#define SQUALL_NNUE_FEATURES_H

#include <stdio.h>

#include "types.h"

#define NNUE_FEATURE_SET_ID 0x324B4148u /* "HAK2" read as little-endian bytes: HalfKAv2_hm */
#define NNUE_PLANES 704                 /* 10 piece planes + 1 shared king plane, 64 squares each */
#define NNUE_KING_BUCKETS 32
#define NNUE_INPUTS (NNUE_PLANES * NNUE_KING_BUCKETS) /* 22528 */
#define NNUE_MAX_ACTIVE 32              /* every piece is a feature, at most 32 pieces */

/* Square transform of perspective `perspective` whose own king is on ksq. */
static inline int nnue_orient(int perspective, int ksq) {
    int mirror = (ksq & 7) < 4 ? 7 : 0;
    return perspective == WHITE ? mirror : mirror ^ 56;
}

/* King bucket 0..31: rank 8 holds 0 1 2 3 3 2 1 0, rank 1 holds 28 29 30 31 31 30 29 28 (white view). */
static inline int nnue_king_bucket(int perspective, int ksq) {
    if (perspective == BLACK) ksq ^= 56;
    int r = ksq >> 3, f = ksq & 7;
    return (7 - r) * 4 + (f < 7 - f ? f : 7 - f);
}

/* Plane offset of piece pc (0..11) seen from perspective: own type*128, enemy type*128+64, kings 640
 * (a table: the accumulator's inner loops look it up for every changed piece). */
static inline int nnue_piece_plane(int perspective, int piece) {
    static const int16_t plane[COLOR_NB][PIECE_NB] = {
        {0, 128, 256, 384, 512, 640, 64, 192, 320, 448, 576, 640},
        {64, 192, 320, 448, 576, 640, 0, 128, 256, 384, 512, 640},
    };
    return plane[perspective][piece];
}

/* THE feature index: piece pc on square sq, seen by perspective whose own king is on king_sq. */
static inline int nnue_feature_index(int perspective, int sq, int piece, int king_sq) {
    return (sq ^ nnue_orient(perspective, king_sq)) + nnue_piece_plane(perspective, piece)
         + NNUE_PLANES * nnue_king_bucket(perspective, king_sq);
}

struct Position;

/* Writes the active feature indices of perspective into out (room for NNUE_MAX_ACTIVE),
 * in ascending order; returns how many. */
int nnue_active_features(const struct Position *pos, int perspective, int *out);

/* Prints "NNUE_FEATURES white i1 i2 ..." and "NNUE_FEATURES black ..." (ascending), for
 * the `dump nnuefeatures` command. */
void nnue_print_features(const struct Position *pos, FILE *out);

#endif
