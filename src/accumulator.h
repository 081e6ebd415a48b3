/* NNUE accumulator kept in step with the board by make/unmake (eager updates).
 *
 * One per search thread: attach it (pos->accumulator = acc), then accumulator_refresh().
 * pos_make_move / pos_unmake_move keep it current; null moves do not touch it (nothing on the
 * board changes). The struct is public only for nnue.c and tests; treat it as opaque. */
#ifndef SQUALL_ACCUMULATOR_H
#define SQUALL_ACCUMULATOR_H

#include "board.h"
#include "nnue.h"

/* One perspective: the first-layer sums and the PSQT sum. */
typedef struct {
    _Alignas(64) int16_t values[NNUE_L1];
    int32_t psqt;
} AccumulatorHalf;

typedef struct Accumulator {
    AccumulatorHalf half[COLOR_NB]; /* indexed by perspective colour, not by side to move */
    int depth;                      /* makes minus unmakes since the last refresh */
    int capacity;                   /* backup slots */
    unsigned net_generation;        /* which loaded net the values belong to */
    AccumulatorHalf *backup;        /* [capacity]: the mover's half before a king move at that depth */
} Accumulator;

/* Aligned allocation, backups for MAX_STATES-deep nesting; NULL when out of memory. */
Accumulator *accumulator_create(void);
void accumulator_destroy(Accumulator *acc);

/* Called by pos_make_move after the board is updated. */
void accumulator_make(Accumulator *acc, const Position *pos, const DirtyPieces *dirty);
/* Called by pos_unmake_move after the board is restored. */
void accumulator_unmake(Accumulator *acc, const Position *pos, const DirtyPieces *dirty);
/* Full recomputation of both perspectives from the board; also resets the nesting depth. */
void accumulator_refresh(Accumulator *acc, const Position *pos);

/* Debug/test hook: true when acc equals a full refresh of pos with the current net. */
bool accumulator_matches_refresh(const Accumulator *acc, const Position *pos);
/* Debug hook for the search around null moves: aborts with a message if acc does not match
 * pos (compiled only without NDEBUG or with SQUALL_CHECK_ACCUMULATOR; otherwise does nothing). */
void accumulator_assert_current(const Accumulator *acc, const Position *pos, const char *where);

/* One perspective from scratch into out (used by refresh and by evaluations without an
 * attached accumulator). */
void accumulator_compute_half(const NnueNet *net, const Position *pos, int perspective, AccumulatorHalf *out);

#endif
