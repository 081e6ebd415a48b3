/* Staged move ordering: TT move, good captures, killers, countermove, quiets, bad captures. */
#ifndef SQUALL_MOVEPICKER_H
#define SQUALL_MOVEPICKER_H

#include "history.h"
#include "movegen.h"

typedef struct {
    const Position *pos;
    const History *history;
    const int16_t (*cont[3])[SQUARE_NB]; /* continuation tables of the moves 1, 2 and 4 plies back (NULL: none) */
    Move tt_move, killers[2], counter;
    Bitboard threats; /* squares the opponent attacks: the butterfly bucket of each quiet */
    int stage;
    MoveList list;
    int scores[MAX_MOVES];
    int index;
    Move bad[MAX_MOVES];
    int bad_count, bad_index;
    CheckInfo checks; /* main search only: the skip path and the search ask which moves check */
} MovePicker;

void movepicker_init(MovePicker *mp, const Position *pos, const History *history, Move tt_move,
                     const Move killers[2], Move counter, const int16_t (*cont0)[SQUARE_NB],
                     const int16_t (*cont1)[SQUARE_NB], const int16_t (*cont3)[SQUARE_NB], Bitboard threats);
/* Quiescence: TT move and noisy moves only (all evasions when in check). */
void movepicker_init_qsearch(MovePicker *mp, const Position *pos, const History *history, Move tt_move);
/* Next move, or MOVE_NONE. With skip_quiets, quiet moves not yet returned are dropped unless
 * they give check: a check may mate, so pruning late quiets never hides one. */
Move movepicker_next(MovePicker *mp, bool skip_quiets);

#endif
