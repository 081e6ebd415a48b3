/* Fully legal move generation. */
#ifndef SQUALL_MOVEGEN_H
#define SQUALL_MOVEGEN_H

#include "board.h"

typedef struct {
    Move moves[MAX_MOVES];
    int count;
} MoveList;

/* NOISY: captures (any promotion piece) and quiet queen promotions.
 * QUIET: everything else (including quiet under-promotions and castling). ALL = both. */
enum { GEN_ALL, GEN_NOISY, GEN_QUIET };

void generate_moves(const Position *pos, MoveList *list, int kind);
static inline void generate_legal(const Position *pos, MoveList *list) { generate_moves(pos, list, GEN_ALL); }
/* Number of legal moves (faster than generating when only the count matters). */
int count_legal_moves(const Position *pos);
bool move_list_contains(const MoveList *list, Move m);

#endif
