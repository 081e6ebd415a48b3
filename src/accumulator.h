/* NNUE accumulator kept in step with the board by make/unmake. */
#ifndef SQUALL_ACCUMULATOR_H
#define SQUALL_ACCUMULATOR_H

#include "board.h"

typedef struct Accumulator Accumulator;

/* Called by pos_make_move after the board is updated. */
void accumulator_make(Accumulator *acc, const Position *pos, const DirtyPieces *dirty);
/* Called by pos_unmake_move after the board is restored. */
void accumulator_unmake(Accumulator *acc, const Position *pos, const DirtyPieces *dirty);
/* Full recomputation of both perspectives from the board. */
void accumulator_refresh(Accumulator *acc, const Position *pos);

#endif
