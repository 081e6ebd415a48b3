/* The net's layers on top of the SIMD layer (simd.h), each written once: the feature rows'
 * update of an accumulator half, and the forward pass from the two halves to the output
 * (clipped ReLU or SCReLU pack, 512 -> 32 affine over the non-zero inputs, then the output bucket's
 * 32 -> 32 and 32 -> 1). The forward pass reads the hidden weights from a copy laid out for it
 * (NnueLayers), built when a net is installed; NnueNet keeps the file's layout. */
#ifndef SQUALL_NNUE_LAYERS_H
#define SQUALL_NNUE_LAYERS_H

#include <stdint.h>

#include "nnue.h"

/* Most feature rows one accumulator update applies (a refresh: one per piece). */
#define NNUE_MAX_ROWS NNUE_MAX_ACTIVE

typedef struct NnueLayers NnueLayers;

/* The hidden layers of net rearranged for the forward pass; NULL when out of memory. */
NnueLayers *nnue_layers_build(const NnueNet *net);
void nnue_layers_free(NnueLayers *layers);

/* Hidden layers on two accumulator halves (side to move first, both 64-byte aligned) with the
 * stack of output bucket `bucket` (below the net's bucket count): the output in output units. */
int32_t nnue_layers_propagate(const NnueLayers *layers, const int16_t *stm_half, const int16_t *other_half,
                              int bucket);

/* dst = src + sum(add rows) - sum(sub rows) over the NNUE_L1 int16 lanes of a half, wrapping;
 * dst may equal src; every pointer 64-byte aligned. */
void nnue_rows_update(int16_t *dst, const int16_t *src, const int16_t *const *add, int nadd,
                      const int16_t *const *sub, int nsub);

#endif
