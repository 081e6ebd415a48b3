/* NNUE accumulator: a stack of per-ply entries, filled lazily, plus a refresh cache.
 *
 * The search owns one per thread and keeps it in step with its position: accumulator_refresh()
 * at the root, accumulator_after_make() after every pos_make_move() and
 * accumulator_after_unmake() after every pos_unmake_move(). A make pushes an entry that
 * records the move's piece changes (read from the board's undo state) and updates the cheap
 * PSQT sums at once; an unmake pops it (no arithmetic). The 256-lane halves are computed only
 * when an evaluation asks for them (accumulator_halves): from the nearest computed entry
 * below, by applying the recorded changes of every ply in between in one pass, or, when the
 * perspective's king moved on the way, from the refresh cache (one remembered half per own
 * king square, brought to the current board by the piece difference). Null moves need no
 * call (nothing on the board changes). The struct is public for nnue.c and tests; callers
 * other than those only set `eager`. */
#ifndef SQUALL_ACCUMULATOR_H
#define SQUALL_ACCUMULATOR_H

#include "board.h"
#include "nnue.h"

/* One perspective: the first-layer sums and the PSQT sum. */
typedef struct {
    _Alignas(64) int16_t values[NNUE_L1];
    int32_t psqt;
} AccumulatorHalf;

/* One ply of the stack. */
typedef struct {
    AccumulatorHalf half[COLOR_NB]; /* indexed by perspective colour; psqt always valid */
    DirtyPieces dirty;              /* the move from the entry below to this one */
    uint8_t computed[COLOR_NB];     /* half[c].values valid */
    uint8_t linked;                 /* 0: no usable entry below (refresh needed) */
    uint8_t king_moved;             /* bit c: the move changed colour c's king square */
} AccumulatorEntry;

/* Refresh cache ("Finny table") entry: a half as it was for the pieces in `pieces`, with the
 * perspective's own king on the entry's square. */
typedef struct {
    _Alignas(64) int16_t values[NNUE_L1];
    Bitboard pieces[PIECE_NB];
} AccumulatorCacheEntry;

typedef struct Accumulator {
    int depth;                      /* makes minus unmakes since the last refresh */
    int capacity;                   /* stack entries usable (tests may lower it) */
    bool eager;                     /* compute both halves at every make (the reference mode)
                                     * instead of on demand at evaluation time */
    unsigned net_generation;        /* which loaded net the stack belongs to */
    unsigned cache_generation;      /* which loaded net the cache belongs to */
    AccumulatorEntry *stack;        /* [MAX_STATES]; stack[depth] is current when 0 <= depth < capacity */
    AccumulatorCacheEntry cache[COLOR_NB][SQUARE_NB]; /* [perspective][own king square] */
} Accumulator;

/* Aligned allocation, stack for MAX_STATES-deep nesting; NULL when out of memory. */
Accumulator *accumulator_create(void);
void accumulator_destroy(Accumulator *acc);

/* Full recomputation of both perspectives from the board; also resets the nesting depth.
 * Call it whenever pos is set up anew (a new root, another FEN). */
void accumulator_refresh(Accumulator *acc, const Position *pos);
/* Call right after pos_make_move(pos, m): pushes the entry of the new board, built from the
 * move's piece changes (pos_dirty_pieces). */
void accumulator_after_make(Accumulator *acc, const Position *pos);
/* Call right after pos_unmake_move(pos): returns to the entry below (pos serves the
 * -DSQUALL_CHECK_ACCUMULATOR build only). */
void accumulator_after_unmake(Accumulator *acc, const Position *pos);

/* Both halves of pos (indexed by colour), brought up to date; NULL when the accumulator cannot
 * serve pos (no net, stale net, or nesting outside the stack): compute from scratch then. */
const AccumulatorHalf *accumulator_halves(Accumulator *acc, const Position *pos);
/* The PSQT sums only (kept current by make, no vector work); NULL as above. */
const AccumulatorEntry *accumulator_psqt_entry(const Accumulator *acc);

/* Debug/test hook: true when acc (brought up to date) equals a full refresh of pos. */
bool accumulator_matches_refresh(Accumulator *acc, const Position *pos);
/* Debug hook, run by every NNUE evaluation in builds without NDEBUG: aborts with a message if
 * acc does not match pos (compiled only without NDEBUG or with SQUALL_CHECK_ACCUMULATOR;
 * otherwise does nothing). */
void accumulator_assert_current(Accumulator *acc, const Position *pos, const char *where);

/* One perspective from scratch into out (used by refresh and by evaluations without an
 * accumulator). */
void accumulator_compute_half(const NnueNet *net, const Position *pos, int perspective, AccumulatorHalf *out);

#endif
