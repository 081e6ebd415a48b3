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
} EngineSettings;

#define ENGINE_SETTINGS_DEFAULT                                                                                   \
    { .eval_mode = EVAL_MODE_NNUE, .lazy_eval = true, .lazy_margin = LAZY_EVAL_MARGIN, .nnue_eager = false, .multipv = 1, \
      .strength_elo = 0, .strength_seed = 0 }

#endif
