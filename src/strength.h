/* Playing below full strength (UCI_LimitStrength / UCI_Elo): the search gets a node budget
 * that grows with the Elo asked for and looks at several root lines; then a random error,
 * larger the lower the Elo, is added to each line's score and the best-looking line is
 * played. The constants are fitted to games against engines of known strength
 * (docs/protocol.md, Limited strength). */
#ifndef SQUALL_STRENGTH_H
#define SQUALL_STRENGTH_H

#include <stdint.h>

#define STRENGTH_ELO_MIN 1000
#define STRENGTH_ELO_MAX 2600
#define STRENGTH_ELO_DEFAULT 2000
#define STRENGTH_CANDIDATES 4 /* root lines searched to choose among */

/* Nodes one move may search at this Elo. */
uint64_t strength_node_limit(int elo);
/* Standard deviation, in centipawns, of the error added to each line's score. */
int strength_error_cp(int elo);
/* Index of the line to play among count lines with these scores (best first); the same
 * scores, Elo and seed always give the same index. */
int strength_pick(const int *scores, int count, int elo, uint64_t seed);

#endif
