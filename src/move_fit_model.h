/* The move guesser's model: softmax regression over the legal moves of a position. A move's
 * logit is w . features; the probability that the search chose it is the softmax of the
 * logits of its position's moves. Fitted by full-batch Adam with a small L2 penalty on
 * standardized features, so a fit depends only on its data (no random draws). */
#ifndef SQUALL_MOVE_FIT_MODEL_H
#define SQUALL_MOVE_FIT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "board.h"
#include "move_features.h"

/* Labelled positions: position p's moves are rows first[p] .. first[p + 1] - 1 of features
 * (MOVE_FEATURE_COUNT integers a row), in generation order; label[p] is the row (counted from
 * first[p]) of the move the search chose. */
typedef struct {
    int positions;
    int *first;          /* positions + 1 entries */
    int *label;
    int *features;
    size_t rows, row_capacity;
    int position_capacity;
} MoveFitSet;

void move_fit_set_init(MoveFitSet *set);
void move_fit_set_free(MoveFitSet *set);
/* Appends pos with every legal move's features; chosen must be one of them. false when out of
 * memory or chosen is not a legal move of pos (nothing is added then). */
bool move_fit_set_add(MoveFitSet *set, const Position *pos, Move chosen);

typedef struct {
    int iterations;       /* full-batch Adam steps */
    double learning_rate;
    double l2;            /* penalty on the standardized weights */
} MoveFitParams;

#define MOVE_FIT_PARAMS_DEFAULT {.iterations = 400, .learning_rate = 0.05, .l2 = 1e-4}

/* Fits the positions listed in use (count of them) of set; weight[k] is in logits per unit of
 * feature k. A feature constant over those moves gets weight 0. Logs the loss now and then to
 * log (NULL: quiet). */
void move_fit_train(const MoveFitSet *set, const int *use, int count, const MoveFitParams *params, double weight[MOVE_FEATURE_COUNT],
                    FILE *log);
/* The weights as the engine keeps them: rounded to MOVE_GUESSER_SCALE units per logit. */
void move_fit_quantize(const double weight[MOVE_FEATURE_COUNT], int out[MOVE_FEATURE_COUNT]);
/* The row of position p with the largest integer score (the first of equals). */
int move_fit_top_row(const MoveFitSet *set, int p, const int weight[MOVE_FEATURE_COUNT]);
/* Mean negative log-likelihood of the labels of the listed positions under weight. */
double move_fit_loss(const MoveFitSet *set, const int *use, int count, const double weight[MOVE_FEATURE_COUNT]);

#endif
