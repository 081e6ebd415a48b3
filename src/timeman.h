/* Time allocation for one move. */
#ifndef SQUALL_TIMEMAN_H
#define SQUALL_TIMEMAN_H

#include <stdatomic.h>

#include "search.h"

typedef struct {
    _Atomic int64_t start_ms;  /* atomic: ponderhit restarts the clock while the search reads it */
    int64_t soft_ms;   /* aim: do not start another iteration past (a scaled) soft limit */
    int64_t hard_ms;   /* never think longer than this */
    bool timed;        /* clock or movetime limits apply */
} TimeManager;

int64_t time_now_ms(void);
void timeman_init(TimeManager *tm, const SearchLimits *limits, int side, int game_ply, int overhead_ms);
static inline int64_t timeman_elapsed(const TimeManager *tm) {
    return time_now_ms() - atomic_load_explicit(&tm->start_ms, memory_order_relaxed);
}
static inline void timeman_restart(TimeManager *tm) { atomic_store_explicit(&tm->start_ms, time_now_ms(), memory_order_relaxed); }

#endif
