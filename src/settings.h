/* How the engine searches and evaluates. The protocol layer keeps one, filled from its
 * options, and hands it to every search it starts; tools (bench, datagen, tests) make
 * their own from ENGINE_SETTINGS_DEFAULT. */
#ifndef SQUALL_SETTINGS_H
#define SQUALL_SETTINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "search_params.h"

typedef enum { EVAL_MODE_CLASSICAL, EVAL_MODE_NNUE } EvalMode;

typedef struct {
    EvalMode eval_mode;   /* NNUE runs only when a net is loaded; classical otherwise */
    bool lazy_eval;       /* NNUE: return the PSQT sum when far outside the window */
    int lazy_margin;      /* centipawns beyond (alpha, beta) for a lazy exit */
    bool nnue_eager;      /* NNUE accumulator updated at every make (reference) instead of on demand */
    int multipv;          /* principal variations searched and reported */
    int strength_elo;     /* play at about this Elo (strength.h); 0 = full strength */
    uint64_t strength_seed; /* with the root's key, seeds the weakened move choice */
    bool move_guesser;    /* order the root moves by the move guesser before the first iteration */
#ifdef SQUALL_TUNE
    SearchParams params;  /* the search constants (tuning builds; release builds compile them in) */
#endif
} EngineSettings;

#ifdef SQUALL_TUNE
#define SEARCH_PARAM_DEFAULT_VALUE(name, value, min, max, step) (value),
#define ENGINE_SETTINGS_DEFAULT_PARAMS , .params = {.values = {SEARCH_TUNABLES(SEARCH_PARAM_DEFAULT_VALUE)}}

/* Makes the search constants of s those of the calling thread: every thread of a search, and
 * the thread that sets up its clock, calls this before it searches. */
static inline void settings_install_search_params(const EngineSettings *s) { search_params_install(&s->params); }

/* One search constant of s by NAME_INDEX. LAZY_EVAL_MARGIN is lazy_margin itself (the
 * evaluator reads it there and LazyMargin sets it), so both names change the one value. */
static inline int settings_param(const EngineSettings *s, int index) {
    return index == LAZY_EVAL_MARGIN_INDEX ? s->lazy_margin : s->params.values[index];
}

static inline void settings_set_param(EngineSettings *s, int index, int value) {
    if (index == LAZY_EVAL_MARGIN_INDEX) s->lazy_margin = value;
    else s->params.values[index] = value;
}
#else
#define ENGINE_SETTINGS_DEFAULT_PARAMS

/* Release builds compile the search constants in: nothing to install. */
static inline void settings_install_search_params(const EngineSettings *s) { (void)s; }
#endif

#define ENGINE_SETTINGS_DEFAULT                                                                                      \
    { .eval_mode = EVAL_MODE_NNUE, .lazy_eval = true, .lazy_margin = LAZY_EVAL_MARGIN_DEFAULT, .nnue_eager = false, \
      .multipv = 1, .strength_elo = 0, .strength_seed = 0, .move_guesser = false \
      ENGINE_SETTINGS_DEFAULT_PARAMS }

#endif
