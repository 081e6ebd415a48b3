/* Position evaluation: the classical evaluator, and the dispatcher the search calls. */
#ifndef SQUALL_EVALUATE_H
#define SQUALL_EVALUATE_H

#include <stdio.h>

#include "board.h"

typedef struct {
    uint64_t full;  /* evaluations that ran the whole evaluator */
    uint64_t lazy;  /* NNUE evaluations answered by the PSQT tier alone */
} EvalStats;

void evaluate_init(void);
/* Side-to-move relative centipawns. alpha/beta let the NNUE skip its hidden layers when
 * the cheap PSQT tier is far outside the window; stats may be NULL. */
int evaluate(const Position *pos, int alpha, int beta, EvalStats *stats);
/* Material + piece-square tables + a few cheap terms, side-to-move relative. */
int classical_evaluate(const Position *pos);
/* True when evaluate() runs the NNUE (EvalMode nnue and a net loaded): searchers must then
 * attach an accumulator to their position. */
bool evaluate_uses_nnue(void);
/* Name of the evaluator evaluate() uses now ("nnue" or "classical"). */
const char *evaluate_name(void);
/* Prints the value the search uses, with the evaluator named (the `eval` command). */
void evaluate_print(const Position *pos, FILE *out);

#endif
