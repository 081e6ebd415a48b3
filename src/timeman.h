/* Time allocation for one move. */
#ifndef SQUALL_TIMEMAN_H
#define SQUALL_TIMEMAN_H

#include <stdatomic.h>

#include "clock.h"
#include "search.h"

/* What the clock allows for one move. */
typedef struct {
    int64_t soft_ms;   /* aim: do not start another iteration past (a scaled) soft limit */
    int64_t hard_ms;   /* never think longer than this */
    bool timed;        /* clock or movetime limits apply */
    bool use_all;      /* movetime alone: think until hard_ms, no early stop between iterations */
} TimeBudget;

/* How the last completed iteration went, for the decision to start another. */
typedef struct {
    int depth;
    int stable_iterations;  /* consecutive iterations that kept the best move */
    int score_drop;         /* previous iteration's score less this one's */
    int root_moves;         /* legal moves at the root */
    int best_move_effort;   /* permille of the root's nodes (all iterations) spent under the best move */
} IterationProgress;

/* The clocks are atomic: ponderhit and resume move them while the search reads them. The
 * budget (soft_ms .. use_all) changes only at a ponderhit, before the search is told of it. */
typedef struct {
    _Atomic int64_t start_ms;        /* the move's clock: since the start, or since ponderhit */
    _Atomic int64_t search_start_ms; /* when the search began (pondering included), for the time it reports */
    int64_t paused_at_ms;            /* timeman_pause: when the clocks stopped */
    int64_t soft_ms, hard_ms;        /* the move's TimeBudget */
    bool timed, use_all;
    bool cpu_time;                   /* measure this process's CPU time instead of the wall clock */
} TimeManager;

/* Pure: the budget for the side to move under these limits, keeping overhead_ms in hand. */
TimeBudget timeman_budget(const SearchLimits *limits, int side, int game_ply, int overhead_ms);
/* Pure: elapsed ms from which no further iteration starts (soft_ms scaled by the progress). */
int64_t timeman_iteration_limit(int64_t soft_ms, const IterationProgress *progress);
/* Starts the clock (at limits->clock_start_ms when given; CPU time when limits->cpu_time) and
 * sets the budget. */
void timeman_init(TimeManager *tm, const SearchLimits *limits, int side, int game_ply, int overhead_ms);
/* Ponderhit: the move's clock starts now (or at limits->clock_start_ms); with limits, the budget
 * is worked out again from the clock they give (xboard sends it with the move that hit). */
void timeman_ponderhit(TimeManager *tm, const SearchLimits *limits, int side, int game_ply);
/* pause / resume: the time in between counts on neither clock. */
void timeman_pause(TimeManager *tm);
void timeman_resume(TimeManager *tm);
static inline int64_t timeman_now(const TimeManager *tm) { return tm->cpu_time ? cpu_time_now_ms() : time_now_ms(); }
/* Time on the move's clock: since the start, or since ponderhit. */
static inline int64_t timeman_elapsed(const TimeManager *tm) {
    return timeman_now(tm) - atomic_load_explicit(&tm->start_ms, memory_order_relaxed);
}
/* Time since the search began, pondering included: what the thinking output reports. */
static inline int64_t timeman_search_time(const TimeManager *tm) {
    return timeman_now(tm) - atomic_load_explicit(&tm->search_start_ms, memory_order_relaxed);
}

#endif
