/* Engine settings shared by the protocols, the search and the evaluator. */
#ifndef SQUALL_OPTIONS_H
#define SQUALL_OPTIONS_H

#include <stdbool.h>

enum { EVAL_MODE_CLASSICAL, EVAL_MODE_NNUE };

typedef struct {
    int hash_mb;          /* transposition table size */
    int threads;          /* search threads */
    int multipv;          /* principal variations reported */
    bool ponder;          /* GUI may ask us to ponder */
    int move_overhead_ms; /* safety margin per move for GUI/network lag */
    int eval_mode;        /* EVAL_MODE_* */
    bool lazy_eval;       /* NNUE: return the PSQT sum when far outside the window */
    int lazy_margin;      /* centipawns beyond (alpha, beta) for a lazy exit */
    bool show_wdl;        /* UCI_ShowWDL */
} EngineOptions;

extern EngineOptions engine_options;

#endif
