/* The float model the trainer optimizes: the engine's net in float, with a factorizer.
 *
 *   acc_P = ft_b + sum over P's active features f of (W[f] + V[v(f)])          (256 per side)
 *   x0    = clip([acc_stm, acc_other], 0, 1)                                 (512)
 *           or, with SCReLU, clip(.., 0, 1)^2 * 127/128 (the engine's (c^2) >> 7 in activation units)
 *   x1    = clip(L1 x0 + b1, 0, 1)  (32),  x2 = clip(L2_b x1 + b2_b, 0, 1)  (32)
 *   y     = out_b . x2 + b_out_b + (psqt_stm - psqt_other) / 2,  psqt_P = sum (p[f] + q[f mod 704])
 * where b is the sample's output bucket (always 0 in a one-bucket model).
 *   cp    = TRAIN_OUTPUT_SCALE * y
 * V and q are the factorizer's virtual rows (no king bucket); export folds them into W and p.
 * Every float scale is the one the quantized engine uses, so exporting is rounding only:
 * 1.0 in an activation is 127 in the engine, hidden weights carry 2^hidden_shift per 1.0, and
 * the output is in units of 1/output_divisor centipawn. docs/training.md explains the choices. */
#ifndef SQUALL_TRAIN_MODEL_H
#define SQUALL_TRAIN_MODEL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nnue.h"
#include "train_data.h"

/* ---- quantization constants of the export (and of the float model's limits) ---- */
#define TRAIN_ACT_ONE 127            /* activation 1.0 = 127; accumulator weights carry the same */
/* SCReLU: the engine's x0 = (c^2) >> 7 with c = 127 * clip(a, 0, 1) is, in units of 1/127,
 * clip(a, 0, 1)^2 * 127 * 127 / 128 / 127; the float model uses that exact factor. */
#define TRAIN_SCRELU_SCALE (127.0f * 127.0f / (1 << NNUE_SCRELU_SHIFT) / 127.0f)
/* Hidden weights: 1.0 = 256, so int8 limits them to +-0.496. Measured on an over-fitted net:
 * shift 6 left 22 cp mean quantization error, 7 left 7 cp, 8 leaves 2.5 cp, and the limit did
 * not bind (same training loss). */
#define TRAIN_HIDDEN_SHIFT 8
#define TRAIN_OUTPUT_DIVISOR 32      /* engine output units per centipawn */
#define TRAIN_OUTPUT_SCALE 600.0f    /* centipawns per unit of model output y */
/* Weight limits so the quantized net never saturates: int8 hidden weights stay within
 * +-127, and 32 features + bias can never overflow the int16 accumulator
 * (127 * (FT_BIAS_MAX + 32 * 2 * FT_WEIGHT_MAX) < 32767). */
#define TRAIN_HIDDEN_W_MAX (127.0f / (1 << TRAIN_HIDDEN_SHIFT))
#define TRAIN_OUT_W_MAX (127.0f * TRAIN_ACT_ONE / (TRAIN_OUTPUT_SCALE * TRAIN_OUTPUT_DIVISOR))
#define TRAIN_FT_W_MAX 3.75f         /* real and virtual rows each, so their sum stays in 7.5 */
#define TRAIN_FT_B_MAX 15.0f
#define TRAIN_PSQT_MAX 200.0f        /* per row and per virtual row: ~120000 cp, never reached */
#define TRAIN_BIAS_MAX 1000.0f       /* hidden and output biases: far inside the engine's bias limit */

/* ---- factorizer rows ----
 * The 10 non-king planes as in a bucket (0..639), the own king's squares (640..703), the
 * enemy king's squares (704..767): 12 piece planes of 64. */
#define TM_VIRTUAL_ROWS (NNUE_PLANES + 64)
#define TM_ENEMY_KING_ROWS NNUE_PLANES

/* ---- parameter layout: one flat float array ---- */
#define TM_L1 NNUE_L1
#define TM_L2 NNUE_L2
#define TM_L3 NNUE_L3
#define TM_FT_W 0                                          /* [NNUE_INPUTS][256], sparse rows */
#define TM_PSQT_W (TM_FT_W + (size_t)NNUE_INPUTS * TM_L1)  /* [NNUE_INPUTS], sparse */
#define TM_DENSE (TM_PSQT_W + (size_t)NNUE_INPUTS)          /* everything from here is dense */
#define TM_FT_V TM_DENSE                                   /* [768][256] factorizer rows */
#define TM_PSQT_V (TM_FT_V + (size_t)TM_VIRTUAL_ROWS * TM_L1) /* [768] */
#define TM_SMALL (TM_PSQT_V + (size_t)TM_VIRTUAL_ROWS)      /* layers that every sample touches */
#define TM_FT_B TM_SMALL                                   /* [256] */
#define TM_L1_W (TM_FT_B + TM_L1)                          /* [32][512] */
#define TM_L1_B (TM_L1_W + (size_t)TM_L2 * 2 * TM_L1)       /* [32] */
#define TM_L2_W (TM_L1_B + TM_L2)                          /* [32][32] */
#define TM_L2_B (TM_L2_W + (size_t)TM_L3 * TM_L2)           /* [32] */
#define TM_OUT_W (TM_L2_B + TM_L3)                         /* [32] */
#define TM_OUT_B (TM_OUT_W + TM_L3)                        /* [1] */
#define TM_TOTAL (TM_OUT_B + 16)                           /* padded to a 64-byte multiple */
#define TM_SMALL_SIZE (TM_TOTAL - TM_SMALL)
/* A model with output buckets keeps bucket 0's stack (L2, output) where a one-bucket model has
 * it, so that model's layout (and its checkpoints) stay as they were, and appends the stacks of
 * buckets 1.. after TM_TOTAL, TM_STACK_STRIDE floats each. */
#define TM_STACK_SIZE ((size_t)TM_L3 * TM_L2 + TM_L3 + TM_L3 + 1)
#define TM_STACK_STRIDE ((TM_STACK_SIZE + 15) / 16 * 16)
static inline size_t tm_total(int buckets) { return TM_TOTAL + (size_t)(buckets - 1) * TM_STACK_STRIDE; }

/* Offsets of one bucket's stack in the parameter array. */
typedef struct {
    size_t l2_w, l2_b, out_w, out_b;
} TrainStack;
static inline TrainStack tm_stack(int bucket) {
    if (bucket == 0) return (TrainStack){TM_L2_W, TM_L2_B, TM_OUT_W, TM_OUT_B};
    size_t at = TM_TOTAL + (size_t)(bucket - 1) * TM_STACK_STRIDE;
    return (TrainStack){at, at + (size_t)TM_L3 * TM_L2, at + (size_t)TM_L3 * TM_L2 + TM_L3,
                        at + (size_t)TM_L3 * TM_L2 + 2 * TM_L3};
}

/* The forward pass reads the effective rows as half floats where the CPU converts them in
 * hardware (F16C): half the memory traffic of the hottest loop, and a rounding (2^-11
 * relative) far below the export's own step of 1/127. The master weights stay float. */
#if defined(__F16C__) && defined(__AVX2__) && !defined(SQUALL_NO_SIMD)
#define TM_EFF_HALF 1
typedef uint16_t TrainEff;
#else
typedef float TrainEff;
#endif

typedef struct {
    float *p;         /* [TM_TOTAL] parameters */
    TrainEff *eff;    /* [NNUE_INPUTS][256] W + V, valid for the rows refreshed last */
    float *eff_psqt;  /* [NNUE_INPUTS] p + q, likewise */
    float *l1_t;      /* [512][32] transposed copy of L1 for the forward pass */
    bool factorizer;
    int buckets;      /* output buckets: 1 or NNUE_MAX_OUTPUT_BUCKETS */
    bool screlu;      /* the accumulator's activation is SCReLU (else clipped ReLU) */
    size_t total;     /* floats in p: tm_total(buckets) */
} TrainModel;

#define TM_GROUP 16 /* samples whose dense-layer gradients are formed together */

typedef struct TrainScratch TrainScratch;

/* One thread's gradient: full-size sparse buffers for the feature rows (zero outside rows it
 * touched, flagged in touched[]) and a dense buffer for the small layers. */
typedef struct {
    float *ft;        /* [NNUE_INPUTS][256] */
    float *psqt;      /* [NNUE_INPUTS] */
    float *small;     /* [model total - TM_SMALL], laid out like p + TM_SMALL */
    uint8_t *touched; /* [NNUE_INPUTS] */
    TrainScratch *scratch; /* activations of one group */
    double loss;      /* sum of per-sample losses */
} TrainGrad;

/* Training hyper-parameters the per-sample code needs. */
typedef struct {
    float k;          /* sigmoid scale, centipawns */
    float lambda;     /* weight of the score in the target; 1 - lambda for the result */
    float sparsity;   /* weight of the mean accumulator activation in the loss (0: none) */
} TrainTarget;

/* The factorizer row of a real feature index (0..TM_VIRTUAL_ROWS-1). A bucket's king plane
 * holds its own king on exactly one square, the one the bucket stands for; every other king
 * square in that plane is the enemy king. */
uint32_t train_virtual_row(uint32_t feature);

/* A one-bucket model; the second form with `buckets` output buckets (1 or NNUE_MAX_OUTPUT_BUCKETS). */
bool train_model_alloc(TrainModel *m);
bool train_model_alloc_buckets(TrainModel *m, int buckets);
/* Output bucket of a sample: from its piece count, which is its active features per perspective. */
static inline int train_sample_bucket(const TrainModel *m, const TrainSample *s) {
    return nnue_output_bucket(s->count, m->buckets);
}
void train_model_free(TrainModel *m);
/* Deterministic initial weights from seed; PSQT starts from plain material values. */
void train_model_init(TrainModel *m, uint64_t seed);
/* Dequantizes an engine net into the model; with the factorizer, the bucket mean of each
 * feature row goes to its virtual row. A one-bucket net's stack goes to every output bucket of
 * the model; a net with buckets needs a model with as many. The model keeps its own activation
 * (a clipped-ReLU net may start an SCReLU model: its weights are copied, then fine-tuned). */
void train_model_from_net(TrainModel *m, const NnueNet *net);
/* Rounds the model into an engine net (virtual rows folded in). */
void train_model_to_net(const TrainModel *m, NnueNet *net);
/* Clips every parameter to its exportable range. */
void train_model_clip(TrainModel *m);

/* Refreshes eff/eff_psqt for the given rows (all rows when rows is NULL), and the L1 transpose. */
void train_model_refresh_rows(TrainModel *m, const uint32_t *rows, size_t count);
void train_model_refresh_transpose(TrainModel *m);

bool train_grad_alloc(TrainGrad *g, const TrainModel *m);
void train_grad_free(TrainGrad *g);

/* The logistic function that maps centipawns / K to an expected score. */
static inline float train_sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }

/* Target of a sample: lambda * sigmoid(score / k) + (1 - lambda) * result. */
float train_target(const TrainSample *s, const TrainTarget *t);
/* Model output in centipawns (side to move). Uses eff rows, which must be current for s. */
float train_model_forward_cp(const TrainModel *m, const TrainSample *s);
/* Forward and backward pass of count samples: adds grad_scale * dLoss/dparam into g (features
 * marked touched), and the unscaled losses (sigmoid(cp/k) - target)^2 into g->loss. */
void train_model_backward(const TrainModel *m, const TrainSample *samples, size_t count, const TrainTarget *t,
                          float grad_scale, TrainGrad *g);

#endif
