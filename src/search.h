/* Search interface used by the protocols, bench, datagen and tests. */
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
    int multipv;              /* 0 = use engine_options.multipv */
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
} SearchOutput;

void search_init(void);                 /* once at startup (tables, TT with engine_options.hash_mb) */
/* Starts an asynchronous search of root; returns at once. Any search still running is stopped first. */
void search_start(const Position *root, const SearchLimits *limits, const SearchOutput *output);
void search_stop(void);                 /* asks the running search to finish; bestmove follows */
void search_ponderhit(void);            /* pondering becomes a normal timed search */
void search_wait(void);                 /* blocks until the running search (if any) has reported bestmove */
bool search_is_running(void);
void search_set_threads(int n);
void search_set_hash(int mb);           /* resizes (and clears) the transposition table */
void search_clear(void);                /* new game: clears TT and history tables */
int search_hashfull(void);

/* Blocking single-threaded search for bench, tests and tools; prints nothing. */
typedef struct {
    Move best, ponder;
    int score, depth;
    uint64_t nodes;
    uint64_t eval_full, eval_lazy; /* evaluator calls: full, and NNUE lazy PSQT exits */
} SearchResult;
SearchResult search_sync(const Position *root, const SearchLimits *limits);

/* Independent single-threaded searchers with their own TT, for tools that run many
 * searches in parallel (datagen). Each worker must be used by one thread at a time. */
typedef struct SearchWorker SearchWorker;
SearchWorker *search_worker_create(int hash_mb);
void search_worker_destroy(SearchWorker *worker);
void search_worker_clear(SearchWorker *worker);   /* TT and histories */
SearchResult search_worker_run(SearchWorker *worker, const Position *root, const SearchLimits *limits);


#endif
