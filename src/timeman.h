/* Time allocation for one move. */
#ifndef SQUALL_TIMEMAN_H
#define SQUALL_TIMEMAN_H

#include <stdatomic.h>

#include "search.h"

/* What the clock allows for one move. */
typedef struct {
    int64_t soft_ms;   /* aim: do not start another iteration past (a scaled) soft limit */
    int64_t hard_ms;   /* never think longer than this */
    bool timed;        /* clock or movetime limits apply */
} TimeBudget;

/* How the last completed iteration went, for the decision to start another. */
typedef struct {
    int depth;
    int stable_iterations;  /* consecutive iterations that kept the best move */
    int score_drop;         /* previous iteration's score less this one's */
    int root_moves;         /* legal moves at the root */
} IterationProgress;

typedef struct {
    _Atomic int64_t start_ms;  /* atomic: ponderhit restarts the clock while the search reads it */
    int64_t soft_ms, hard_ms;  /* the move's TimeBudget */
    bool timed;
} TimeManager;

int64_t time_now_ms(void);
/* Pure: the budget for the side to move under these limits, keeping overhead_ms in hand. */
TimeBudget timeman_budget(const SearchLimits *limits, int side, int game_ply, int overhead_ms);
/* Pure: elapsed ms from which no further iteration starts (soft_ms scaled by the progress). */
int64_t timeman_iteration_limit(int64_t soft_ms, const IterationProgress *progress);
/* Starts the clock and sets the budget. */
void timeman_init(TimeManager *tm, const SearchLimits *limits, int side, int game_ply, int overhead_ms);
static inline int64_t timeman_elapsed(const TimeManager *tm) {
    return time_now_ms() - atomic_load_explicit(&tm->start_ms, memory_order_relaxed);
}
static inline void timeman_restart(TimeManager *tm) { atomic_store_explicit(&tm->start_ms, time_now_ms(), memory_order_relaxed); }

#endif
