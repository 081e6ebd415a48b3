/* Move path enumeration for testing the move generator. */
#ifndef SQUALL_PERFT_H
#define SQUALL_PERFT_H

#include <stdio.h>

#include "board.h"

uint64_t perft(Position *pos, int depth);
/* Prints "move: count" per root move and "Nodes searched: N"; returns the total. */
uint64_t perft_divide(Position *pos, int depth, FILE *out);

#endif
