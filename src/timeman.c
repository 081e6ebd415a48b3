/* Time allocation: a soft target from the clock, increment and moves to go, and a hard
 * cap that keeps a safety margin so the engine never flags. The constants are in
 * search_params.h. */
#include "timeman.h"

#include "search_params.h"

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Moves the remaining clock must last: as given (capped), else an estimate that shrinks
 * as the game goes on. */
static int moves_to_go(const SearchLimits *limits, int game_ply) {
    if (limits->movestogo > 0) return (int)min64(limits->movestogo, TM_MOVESTOGO_MAX);
    return TM_MOVESTOGO_ESTIMATE - (int)min64(game_ply / TM_MOVESTOGO_PLIES_PER_STEP, TM_MOVESTOGO_STEPS_MAX);
}

TimeBudget timeman_budget(const SearchLimits *limits, int side, int game_ply, int overhead_ms) {
    TimeBudget b = {INT64_MAX / 4, INT64_MAX / 4, false, false};
    if (limits->movetime > 0) {
        /* a fixed time per move is meant to be used: all of it less the overhead */
        b.timed = b.use_all = true;
        b.soft_ms = b.hard_ms = max64(limits->movetime - overhead_ms, 1);
    }
    if (limits->time[side] >= 0 && !limits->infinite) {
        b.timed = true;
        b.use_all = false;
        int64_t left = limits->time[side], inc = max64(limits->inc[side], 0);
        bool last_move = limits->movestogo == 1; /* the clock is refilled after this move */
        /* what we may spend at most: the clock less the overhead and a safety margin. The floor of
         * the margin is what a tiny clock (1 s + 10 ms, or the end of a 10 s game) keeps in hand:
         * once the clock falls to it the hard limit leaves almost nothing to think, the moves
         * cost less than the increment, and the clock grows back, so a slow answer from a loaded
         * machine or GUI has that much room. */
        int64_t margin = max64(min64(left / TM_SAFETY_DIVISOR, TM_SAFETY_MAX_MS), TM_SAFETY_MIN_MS);
        int64_t usable = max64(left - overhead_ms - margin, 1);
        int64_t inc_share = inc * TM_INCREMENT_PERCENT / 100;
        int64_t soft = usable / moves_to_go(limits, game_ply) + inc_share;
        int64_t hard = min64(usable / (last_move ? 1 : TM_HARD_DIVISOR) + inc_share, usable);
        if (!last_move) soft = min64(soft, usable / TM_SOFT_MAX_DIVISOR);
        soft = max64(min64(soft, hard), 1);
        hard = max64(hard, 1);
        b.soft_ms = min64(b.soft_ms, soft);
        b.hard_ms = min64(b.hard_ms, hard);
    }
    return b;
}

int64_t timeman_iteration_limit(int64_t soft_ms, const IterationProgress *p) {
    /* stop early when the best move is settled, think longer when it keeps changing or the
     * score drops */
    int percent = p->stable_iterations >= TM_STABLE_LONG_ITERATIONS    ? TM_STABLE_LONG_PERCENT
                : p->stable_iterations >= TM_STABLE_SHORT_ITERATIONS   ? TM_STABLE_SHORT_PERCENT
                : p->stable_iterations == 0 && p->depth > TM_SCALE_MIN_DEPTH ? TM_UNSTABLE_PERCENT
                                                                       : 100;
    double scale = percent / 100.0;
    if (p->depth > TM_SCALE_MIN_DEPTH && p->score_drop > TM_SCORE_DROP) scale *= TM_SCORE_DROP_PERCENT / 100.0;
    /* a best move that takes most of the effort is rarely overturned by another iteration */
    if (TM_EFFORT_WEIGHT_PERCENT && p->depth > TM_SCALE_MIN_DEPTH) {
        /* the table's ranges allow a negative factor; keep a tenth of the target at least */
        int effort_percent = TM_EFFORT_BASE_PERCENT - p->best_move_effort * TM_EFFORT_WEIGHT_PERCENT / 1000;
        scale *= max64(effort_percent, 10) / 100.0;
    }
    if (p->root_moves == 1) scale = TM_SINGLE_REPLY_PERCENT / 100.0;
    return (int64_t)(soft_ms * scale);
}

/* When the clock started: when the command was read (wall clock only), else now. */
static int64_t clock_start(const TimeManager *tm, const SearchLimits *limits) {
    int64_t now = timeman_now(tm);
    bool given = limits && !tm->cpu_time && limits->clock_start_ms > 0 && limits->clock_start_ms <= now;
    return given ? limits->clock_start_ms : now;
}

static void set_budget(TimeManager *tm, const SearchLimits *limits, int side, int game_ply, int overhead_ms) {
    TimeBudget b = timeman_budget(limits, side, game_ply, overhead_ms);
    tm->soft_ms = b.soft_ms;
    tm->hard_ms = b.hard_ms;
    tm->timed = b.timed;
    tm->use_all = b.use_all;
}

void timeman_init(TimeManager *tm, const SearchLimits *limits, int side, int game_ply, int overhead_ms) {
    tm->cpu_time = limits->cpu_time;
    int64_t start = clock_start(tm, limits);
    atomic_store_explicit(&tm->start_ms, start, memory_order_relaxed);
    atomic_store_explicit(&tm->search_start_ms, start, memory_order_relaxed);
    set_budget(tm, limits, side, game_ply, overhead_ms);
}

void timeman_ponderhit(TimeManager *tm, const SearchLimits *limits, int side, int game_ply) {
    if (limits) set_budget(tm, limits, side, game_ply, limits->move_overhead_ms);
    atomic_store_explicit(&tm->start_ms, clock_start(tm, limits), memory_order_relaxed);
}

void timeman_pause(TimeManager *tm) { tm->paused_at_ms = timeman_now(tm); }

void timeman_resume(TimeManager *tm) {
    int64_t paused = timeman_now(tm) - tm->paused_at_ms;
    atomic_fetch_add_explicit(&tm->start_ms, paused, memory_order_relaxed);
    atomic_fetch_add_explicit(&tm->search_start_ms, paused, memory_order_relaxed);
}
