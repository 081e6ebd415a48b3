/* Reordering the accumulator's neurons so the forward pass skips more work.
 *
 * The first hidden layer reads its 2 * NNUE_L1 inputs in groups of four and skips every group
 * that is all zero (nnue_layers.c). Which neurons share a group is arbitrary: permuting the
 * neurons (the feature transformer's columns and biases, and L1's input columns of both halves
 * alike) gives a net with exactly the same evaluations. Neurons that are often zero at the same
 * time, put in one group, make whole-zero groups common. The order is chosen from the
 * activations on sample positions. */
#ifndef SQUALL_NNUE_ORDER_H
#define SQUALL_NNUE_ORDER_H

#include <stddef.h>
#include <stdio.h>

#include "nnue.h"
#include "train_data.h"

/* Sample positions net-reorder and the trainer's export take by default. */
#define NNUE_ORDER_DEFAULT_POSITIONS 10000

/* Grouping over `count` samples: greedily (each group starts with the neuron most often zero among
 * those left and takes, three times, the one that keeps the group all zero most often), then a
 * local search swaps neurons between groups while that makes more all-zero groups.
 * Writes order[j] = old neuron that becomes neuron j (a permutation of 0..NNUE_L1-1).
 * false when out of memory. */
bool nnue_sparsity_order(const NnueNet *net, const TrainSample *samples, size_t count, int *order);

/* Share (0..1) of the 4-neuron groups of both halves that are all zero over the samples,
 * with the net's current neuron order. */
double nnue_zero_group_share(const NnueNet *net, const TrainSample *samples, size_t count);

/* The same over up to `limit` records spread evenly over data; -1 when out of memory. */
double nnue_zero_group_share_on_data(const NnueNet *net, const TrainData *data, size_t limit);

/* Permutes net's neurons: new neuron j is old neuron order[j]. Evaluations are unchanged. */
void nnue_net_reorder(NnueNet *net, const int *order);

/* Reorders net by nnue_sparsity_order on up to `limit` records of data spread evenly over it;
 * writes the zero-group shares before and after to *before and *after when not NULL.
 * false when out of memory. */
bool nnue_reorder_for_data(NnueNet *net, const TrainData *data, size_t limit, double *before, double *after);

/* `squall net-reorder --net IN --data FILE[,FILE] --out OUT [--positions N]` */
int net_reorder_main(int argc, char **argv);
void net_reorder_usage(FILE *out); /* its flags, for `squall net-reorder --help` */

#endif
