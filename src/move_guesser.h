/* The move guesser: a linear score of a legal move's features (move_features.h) whose softmax
 * over a position's moves estimates which move the search will choose. The weights are fitted
 * by `squall movefit` (move_fit.c) and compiled in as integers, so the score is the same on
 * every machine. The MoveGuesser option orders the root moves by it before the first iteration. */
#ifndef SQUALL_MOVE_GUESSER_H
#define SQUALL_MOVE_GUESSER_H

#include "board.h"
#include "move_features.h"

/* A weight is logits per unit of its feature, times this. */
#define MOVE_GUESSER_SCALE 65536

extern const int move_guesser_weights[MOVE_FEATURE_COUNT];

/* sum of weight * feature for m, a legal move of pos: larger means more likely the search's
 * choice (MOVE_GUESSER_SCALE per logit). */
int move_guesser_score(const Position *pos, Move m);

#endif
