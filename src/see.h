/* Static exchange evaluation. */
#ifndef SQUALL_SEE_H
#define SQUALL_SEE_H

#include "board.h"
#include "search_params.h"

/* Exchange values by piece type (SEE_VALUE_*): constant, or in tuning builds the values of the
 * search running on this thread. */
extern SEARCH_PARAM_TABLE int see_piece_value[PIECE_TYPE_NB];

/* True when the exchange sequence started by m wins at least threshold centipawns
 * for the side making it. */
bool see_at_least(const Position *pos, Move m, int threshold);

#endif
