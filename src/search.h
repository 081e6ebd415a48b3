/* The search's vocabulary for the protocols, bench, datagen and tests: scores, limits,
 * thinking output and results. threads.h starts and runs searches. */
#ifndef SQUALL_SEARCH_H
#define SQUALL_SEARCH_H

#include "board.h"

#define SCORE_INFINITE 32001
#define SCORE_MATE 32000
#define SCORE_MATE_IN_MAX (SCORE_MATE - MAX_PLY)
#define SCORE_NONE 32002

static inline bool score_is_mate(int s) { return s >= SCORE_MATE_IN_MAX || s <= -SCORE_MATE_IN_MAX; }
/* Moves (not plies) to mate: positive when we mate, negative when we are mated. */
static inline int score_mate_moves(int s) { return s > 0 ? (SCORE_MATE - s + 1) / 2 : -(SCORE_MATE + s) / 2; }

typedef struct {
    int64_t time[COLOR_NB];   /* ms left on each clock, -1 when not given */
    int64_t inc[COLOR_NB];    /* ms increment */
    int movestogo;            /* 0 = sudden death */
    int depth;                /* 0 = no limit */
    uint64_t nodes;           /* 0 = no limit */
    int64_t movetime;         /* ms, 0 = none */
    int mate;                 /* search for mate in N moves, 0 = none */
    bool infinite;            /* until stop */
    bool ponder;              /* pondering: clock limits start at ponderhit */
    int move_overhead_ms;     /* clock margin kept per move for GUI/network lag; 0 for tools */
    bool cpu_time;            /* time limits count this process's CPU time (xboard nps 0) */
    int64_t clock_start_ms;   /* time_now_ms() when the command that starts the clock was read; 0 = at
                               * the search's start. Stopping an earlier search in between is our time. */
    int searchmoves_count;
    Move searchmoves[MAX_MOVES];
} SearchLimits;

void search_limits_clear(SearchLimits *limits);


/* One line of thinking output. */
typedef struct {
    int depth, seldepth, multipv;
    int score;                /* side-to-move relative */
    int bound;                /* BOUND_EXACT, or LOWER/UPPER for a fail-high/low line */
    uint64_t nodes, nps;
    int64_t time_ms;
    int hashfull;             /* per mille */
    int pv_length;
    Move pv[MAX_PLY];
} SearchReport;

typedef struct {
    /* Called from the main search thread for each completed or failed iteration. */
    void (*report)(const SearchReport *report, void *ctx);
    /* Called exactly once per search_start, when the search has finished. */
    void (*bestmove)(Move best, Move ponder, void *ctx);
    void *ctx;
    /* Optional: the root move the main thread starts on (number counts from 1), once a
     * search has run for a while. */
    void (*currmove)(int depth, Move move, int number, void *ctx);
} SearchOutput;

/* How much the late-move reductions cut: moves searched after a node's first, those of them
 * searched at a reduced depth, and the plies taken off them in all (LMR coverage and magnitude). */
typedef struct {
    uint64_t late_moves, reduced, plies;
} ReductionStats;

static inline void reduction_stats_add(ReductionStats *sum, const ReductionStats *more) {
    sum->late_moves += more->late_moves, sum->reduced += more->reduced, sum->plies += more->plies;
}

/* What a finished search answers. */
typedef struct {
    Move best, ponder;
    int score, depth;
    uint64_t nodes;
    uint64_t eval_full, eval_lazy; /* evaluator calls: full, and NNUE lazy PSQT exits */
    ReductionStats reductions;
} SearchResult;

#endif
