/* Position evaluation: the classical evaluator, and the dispatcher the search calls. */
#ifndef SQUALL_EVALUATE_H
#define SQUALL_EVALUATE_H

#include <stdio.h>

#include "board.h"
#include "settings.h"

typedef struct {
    uint64_t full;  /* evaluations that ran the whole evaluator */
    uint64_t lazy;  /* NNUE evaluations answered by the PSQT tier alone */
} EvalStats;

struct Accumulator;

void evaluate_init(void);
/* Side-to-move relative centipawns from the evaluator settings selects. The NNUE evaluates when
 * it is selected, a net is loaded and acc (kept in step with pos by the caller) is given;
 * otherwise the classical evaluation. alpha/beta let the NNUE skip its hidden layers when the
 * cheap PSQT tier is far outside the window; stats may be NULL. */
int evaluate(const Position *pos, struct Accumulator *acc, int alpha, int beta, const EngineSettings *settings,
             EvalStats *stats);
/* Material + piece-square tables + a few cheap terms, side-to-move relative. */
int classical_evaluate(const Position *pos);
/* True when the NNUE is active (EvalMode nnue and a net loaded): searchers must then keep an
 * accumulator in step with their position and pass it to evaluate(). */
bool evaluate_uses_nnue(const EngineSettings *settings);
/* Name of the evaluator evaluate() uses ("nnue" or "classical"). */
const char *evaluate_name(const EngineSettings *settings);
/* Prints the full value of the chosen evaluator (never the lazy tier) and names it (the `eval` command). */
void evaluate_print(const Position *pos, const EngineSettings *settings, FILE *out);

#endif
