/* NNUE evaluation: the net, its file format, loading, the forward pass and the eval entry points.
 *
 * Shape: 22528 HalfKAv2_hm inputs -> 256 per perspective (int16 accumulator) -> both halves
 * concatenated side-to-move first (512, clipped ReLU to uint8 [0,127]) -> 32 -> 32 -> 1, plus a
 * PSQT path (one int32 per feature, summed per perspective). The 32 -> 32 -> 1 part may come in
 * 8 output buckets (layer stacks), one picked per position by its piece count, and the
 * accumulator's activation may be squared (SCReLU). docs/nnue.md has the file format and the
 * quantization. All functions here are for one thread at a time unless noted. */
#ifndef SQUALL_NNUE_H
#define SQUALL_NNUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nnue_features.h"

/* Accumulator width per perspective. A build for another width (`make NNUE_L1=512`) reads only
 * nets of that width: the header's dimensions must match. */
#ifndef NNUE_L1
#define NNUE_L1 256
#endif
#define NNUE_L2 32
#define NNUE_L3 32
#define NNUE_OUTPUTS 1

/* Output buckets: a net has one stack of the L2 and output layers, or one per bucket, the bucket
 * of a position being (pieces on the board, kings included, - 1) / 4. */
#define NNUE_MAX_OUTPUT_BUCKETS 8
#define NNUE_PIECES_PER_BUCKET 4

/* Activation of the accumulator: clamp(acc >> acc_shift, 0, 127), or that squared and >> 7
 * (SCReLU: [0, 126], so L1's input stays uint8). The hidden layers always clip. */
enum { NNUE_ACTIVATION_CRELU = 0, NNUE_ACTIVATION_SCRELU = 1 };
#define NNUE_SCRELU_SHIFT 7

#define NNUE_MAGIC "SQUALLNN" /* 8 bytes, no terminator in the file */
/* Version 1: one output bucket, clipped ReLU. Version 2 adds the bucket count (and its stacks to
 * the payload) and the accumulator activation to the header. The loader reads both; the writer
 * uses 1 whenever the net fits it. */
#define NNUE_FORMAT_VERSION 2u
#define NNUE_HEADER_SIZE 128
#define NNUE_DESCRIPTION_SIZE 64
/* Payload bytes shared by every bucket (feature transformer, PSQT, L1) and of one bucket's stack. */
#define NNUE_SHARED_PAYLOAD_SIZE                                                                   \
    ((size_t)NNUE_INPUTS * NNUE_L1 * 2 + NNUE_L1 * 2 + (size_t)NNUE_INPUTS * 4 + NNUE_L2 * 2 * NNUE_L1 + NNUE_L2 * 4)
#define NNUE_STACK_PAYLOAD_SIZE ((size_t)NNUE_L3 * NNUE_L2 + NNUE_L3 * 4 + NNUE_L3 + 4)
#define NNUE_PAYLOAD_SIZE_FOR(buckets) (NNUE_SHARED_PAYLOAD_SIZE + (size_t)(buckets) * NNUE_STACK_PAYLOAD_SIZE)
#define NNUE_FILE_SIZE_FOR(buckets) (NNUE_HEADER_SIZE + NNUE_PAYLOAD_SIZE_FOR(buckets))
#define NNUE_PAYLOAD_SIZE NNUE_PAYLOAD_SIZE_FOR(1) /* a one-bucket net (every version-1 file) */
#define NNUE_FILE_SIZE NNUE_FILE_SIZE_FOR(1)
#define NNUE_MAX_FILE_SIZE NNUE_FILE_SIZE_FOR(NNUE_MAX_OUTPUT_BUCKETS)

/* Loader limits on the quantization constants and values, so no int32 sum can overflow. */
#define NNUE_MAX_ACC_SHIFT 8
#define NNUE_MAX_HIDDEN_SHIFT 16
#define NNUE_MAX_OUTPUT_DIVISOR 65536
#define NNUE_MAX_PSQT_WEIGHT (1 << 24)  /* 32 features * 2^24 stays far inside int32 */
#define NNUE_MAX_BIAS (1 << 28)         /* hidden sums are at most 2*NNUE_L1*127*128 ~ 2^24 on top */
/* Evaluations are clamped to this many centipawns, well below any mate score. */
#define NNUE_EVAL_LIMIT 20000

/* The whole quantized net, laid out for the kernels (64-byte aligned rows). */
typedef struct NnueNet {
    _Alignas(64) int16_t ft_weights[NNUE_INPUTS][NNUE_L1];
    _Alignas(64) int16_t ft_biases[NNUE_L1];
    _Alignas(64) int32_t psqt_weights[NNUE_INPUTS];
    _Alignas(64) int8_t l1_weights[NNUE_L2][2 * NNUE_L1];
    _Alignas(64) int32_t l1_biases[NNUE_L2];
    /* one stack per output bucket; only the first output_buckets are used */
    _Alignas(64) int8_t l2_weights[NNUE_MAX_OUTPUT_BUCKETS][NNUE_L3][NNUE_L2];
    _Alignas(64) int32_t l2_biases[NNUE_MAX_OUTPUT_BUCKETS][NNUE_L3];
    _Alignas(64) int8_t out_weights[NNUE_MAX_OUTPUT_BUCKETS][NNUE_L3];
    int32_t out_bias[NNUE_MAX_OUTPUT_BUCKETS];
    int32_t output_buckets; /* 1 or NNUE_MAX_OUTPUT_BUCKETS */
    int32_t activation;     /* NNUE_ACTIVATION_*, of the accumulator */
    int32_t acc_shift;      /* accumulator >> acc_shift, then clip to [0,127] */
    int32_t hidden_shift;   /* hidden int32 sums >> hidden_shift, then clip to [0,127] */
    int32_t output_divisor; /* output units per centipawn (PSQT weights use the same units) */
    char description[NNUE_DESCRIPTION_SIZE];
} NnueNet;

/* The two parts of one evaluation, in output units and in centipawns. */
typedef struct {
    int32_t psqt[2];      /* per-perspective PSQT sums (white, black) */
    int32_t psqt_units;   /* (psqt[stm] - psqt[!stm]) / 2 */
    int32_t hidden_units; /* output of the hidden layers */
    int bucket;           /* the output bucket they used */
    int psqt_cp, hidden_cp, total_cp; /* total_cp = (psqt_units + hidden_units) / divisor, clamped */
} NnueParts;

struct Position;
struct Accumulator;

/* ---- Engine start-up and nets (protocol layer) ---- */

/* Installs the net embedded at build time, if any; call once at start-up after board_init().
 * Returns nnue_is_loaded(). */
bool nnue_init(void);
/* `setoption name EvalFile` / `--evalfile`: loads and validates a net file. On any problem it
 * returns false with a one-line reason in err, and the current net stays active. Call only while
 * no search is running; the search refreshes its accumulators when it starts. */
bool nnue_load_file(const char *path, char *err, size_t err_size);
/* Same check for a file image in memory (tests). name is shown by nnue_net_name. */
bool nnue_load_memory(const void *data, size_t size, const char *name, char *err, size_t err_size);
/* The file image embedded at build time; *size is 0 when the build embedded none. */
const void *nnue_embedded_net(size_t *size);
bool nnue_is_loaded(void);
const char *nnue_net_name(void); /* "none" when no net is loaded */
/* Name of the instruction set the layers were compiled for: "avx512-vnni", "avx512",
 * "avx2-vnni", "avx2" or "generic". */
const char *nnue_simd_name(void);

/* ---- Evaluation (search) ---- */

/* Full evaluation in centipawns, side-to-move relative: PSQT part + hidden layers. acc, when
 * given, must be kept in step with pos (see accumulator.h); with NULL a temporary accumulator
 * is computed from scratch (slow: for commands and tests, not for search).
 * Returns 0 when no net is loaded, so check nnue_is_loaded() first. */
int nnue_evaluate(const struct Position *pos, struct Accumulator *acc);
/* Cheap tier: the PSQT part alone, in the same centipawn units (no hidden layers). */
int nnue_psqt_only(const struct Position *pos, struct Accumulator *acc);
/* Both parts in detail, computed from scratch. */
void nnue_evaluate_parts(const struct Position *pos, NnueParts *parts);
/* `nnue` command: net name, PSQT sums, the PSQT and hidden parts and the total, shown apart. */
void nnue_trace(const struct Position *pos, FILE *out);

/* ---- Nets built in memory (net-init, tests, trainer) ---- */

NnueNet *nnue_net_alloc(void); /* zeroed but for one output bucket, aligned; free with nnue_net_free */
void nnue_net_free(NnueNet *net);
/* Checks the ranges the loader checks; false with a reason in err. */
bool nnue_net_validate(const NnueNet *net, char *err, size_t err_size);
/* Makes net the current one (takes ownership) if it validates; otherwise frees nothing, keeps the
 * current net and returns false. */
bool nnue_set_net(NnueNet *net, const char *name, char *err, size_t err_size);
/* Bytes of net's file: NNUE_FILE_SIZE_FOR(its bucket count). */
size_t nnue_net_file_size(const NnueNet *net);
/* Serializes net into buf (nnue_net_file_size bytes, header + payload, checksum filled in):
 * format version 1 for a one-bucket clipped-ReLU net, else version 2. */
void nnue_net_write(const NnueNet *net, uint8_t *buf);
/* Writes the net to a file; false with a reason on I/O errors. */
bool nnue_net_save(const NnueNet *net, const char *path, char *err, size_t err_size);
/* FNV-1a 32-bit of the file image, skipping the checksum field itself (bytes 52..55). */
uint32_t nnue_file_checksum(const uint8_t *buf, size_t size);
const NnueNet *nnue_current_net(void);
/* Changes at every net change, so an accumulator can tell that its values belong to an older net. */
unsigned nnue_net_generation(void);
/* Drops the current net (tests; the engine then evaluates classically). */
void nnue_unload(void);

/* Output bucket of a position with `pieces` pieces (kings included) under a net of `buckets`. */
static inline int nnue_output_bucket(int pieces, int buckets) {
    return buckets > 1 && pieces > 0 ? (pieces - 1) / NNUE_PIECES_PER_BUCKET : 0;
}

/* Deterministic nets for tests and for `net-init` (defined in net_init.c). */
void nnue_net_init_random(NnueNet *net, uint64_t seed);
/* The same with `buckets` output buckets (1 gives exactly nnue_net_init_random's net; the
 * further stacks are drawn after everything else). */
void nnue_net_init_random_buckets(NnueNet *net, uint64_t seed, int buckets);
/* PSQT = the material/piece-square values listed in docs/nnue.md, all hidden weights and
 * biases zero, so evaluations equal the hand-computed sum exactly. */
void nnue_net_init_psqt_classical(NnueNet *net);
/* Centipawn value of one piece for its owner in the PSQT-classical net (kings 0); rel_sq is
 * the square seen from the owner's side (a1 = own corner). */
int nnue_classical_piece_value(int type, int rel_sq);

/* ---- Tools ---- */

/* `squall net-init --seed S --out FILE [--psqt-classical] [--output-buckets B] [--screlu] [--description TEXT]`. */
int net_init_main(int argc, char **argv);
void net_init_usage(FILE *out); /* its flags, for `squall net-init --help` */
/* `squall nnue-speed [--iterations N]`: ns per accumulator update, refresh and forward pass,
 * with the instruction set compiled in. A benchmark, not a test. */
int nnue_speed_main(int argc, char **argv);
void nnue_speed_usage(FILE *out); /* for `squall nnue-speed --help` */

/* ---- Test and benchmark hooks ---- */

/* Forward pass of the current net's hidden layers on two accumulator halves (stm first), with
 * the stack of output bucket `bucket` (0 for a one-bucket net); returns output units. Both halves
 * must be 64-byte aligned (as AccumulatorHalf.values is). */
int32_t nnue_propagate(const int16_t *stm_half, const int16_t *other_half, int bucket);

#endif
