/* Move-ordering statistics kept per search thread. */
#ifndef SQUALL_HISTORY_H
#define SQUALL_HISTORY_H

#include "types.h"

typedef int16_t PieceToHistory[PIECE_NB + 1][SQUARE_NB];

/* Correction history (correction.h): evaluation errors by side to move and a hash of the pawns
 * or of the material, in 1/256 centipawns. */
#define CORRECTION_TABLE_BITS 14
typedef struct {
    int32_t pawn[COLOR_NB][1 << CORRECTION_TABLE_BITS];
    int32_t material[COLOR_NB][1 << CORRECTION_TABLE_BITS];
} CorrectionHistory;

typedef struct {
    int16_t butterfly[COLOR_NB][4 * SQUARE_NB * SQUARE_NB];      /* quiet moves by threat bucket, from, to */
    int16_t capture[PIECE_NB][SQUARE_NB][PIECE_TYPE_NB];          /* captures by mover/to/victim */
    PieceToHistory continuation[PIECE_NB + 1][SQUARE_NB];         /* previous piece/to -> this piece/to */
    Move countermove[PIECE_NB + 1][SQUARE_NB];                    /* refutation of previous piece/to */
    CorrectionHistory correction;
} History;

/* A quiet move's butterfly entry: from/to within one of four buckets that say whether the opponent
 * attacks its from and its to square (threats: the squares the opponent attacks; 0 puts every
 * move in bucket 0). */
static inline int butterfly_index(Bitboard threats, Move m) {
    int from = move_from(m), to = move_to(m);
    int bucket = (int)((threats >> from) & 1) * 2 + (int)((threats >> to) & 1);
    return bucket * SQUARE_NB * SQUARE_NB + from * SQUARE_NB + to;
}

/* Gravity update: entries saturate smoothly at +-max instead of overflowing. */
static inline void history_update(int16_t *entry, int bonus, int max) {
    int v = *entry + bonus - *entry * (bonus < 0 ? -bonus : bonus) / max;
    *entry = (int16_t)v;
}

#endif
