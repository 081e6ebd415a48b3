/* The net's layers, each written once on the operations of simd.h (which picks the
 * instruction set); see nnue_layers.h and docs/nnue.md ("Layers and SIMD"). */
#include "nnue_layers.h"

#include <stdlib.h>
#include <string.h>

#include "simd.h"

enum {
    HIDDEN = NNUE_L2,                     /* outputs of both hidden affine layers */
    GROUP_BYTES = 4 * HIDDEN,             /* one 4-byte input group's weights for every output */
    GROUP_REGS = GROUP_BYTES / VEC_BYTES, /* vectors those weights (and the outputs) fill */
    L1_GROUPS = 2 * NNUE_L1 / 4,
    STEP = 2 * VEC_DOT_SETS,              /* groups per step of the paired loop: a pair per sum */
    LIST_SIZE = L1_GROUPS + 8 + STEP,     /* room for the last table copy and the step padding */
};
/* Without VNNI some groups may not share an int16 sum with another (VEC_PAIR_LIMIT). */
#define SINGLES_POSSIBLE (VEC_PAIR_LIMIT < INT32_MAX)
#define ROUND_UP(n) (((n) + VEC_BYTES - 1) / VEC_BYTES * VEC_BYTES)

/* Lists of input groups hold bytes while every group (and the zero group after the last) fits. */
#if 2 * NNUE_L1 / 4 < 256
typedef uint8_t GroupIndex;
#else
typedef uint16_t GroupIndex;
#endif
/* 1 in every GroupIndex of a 64-bit word: 0x0101...01 for bytes, 0x0001...0001 for 16 bits */
#define GROUP_INDEX_ONES (UINT64_MAX / (GroupIndex)~(GroupIndex)0)

_Static_assert(NNUE_L3 == HIDDEN, "both hidden affine layers have the same width");
_Static_assert(GROUP_BYTES % VEC_BYTES == 0, "a group's outputs fill whole vectors");
_Static_assert(NNUE_L1 % VEC_BYTES == 0, "an accumulator half packs into whole vectors");
_Static_assert(VEC_I32 % 8 == 0 || 8 % VEC_I32 == 0, "non-zero lists are built 8 lanes at a time");
_Static_assert(L1_GROUPS < (1 << (8 * sizeof(GroupIndex))), "group lists hold every group and the zero group");
_Static_assert(VEC_I32 <= 16, "a vector's groups are bits of one paired_bits entry");

/* One hidden affine layer: input-major weights, w[g * GROUP_BYTES + 4 * o + k] = weight for
 * output o of the input at byte 4g+k of the layer's input vector, with one all-zero group after
 * the last (the padding target of the paired list). L1's input bytes are in the packs' order
 * (vec_packed_source), L2's in order.
 * Groups are summed two at a time in int16 (vec_dot4_pair), and listed for that only when
 * non-zero, unless a weight pair of the group breaks VEC_PAIR_LIMIT: such a group is "single"
 * and is always summed, alone (vec_dot4, exact for any weights; a zero input adds nothing).
 * Trained nets have few or none. Bit g % VEC_I32 of paired_bits[g / VEC_I32]: group g is not
 * single (one entry per packed vector of the layer's input). */
typedef struct {
    _Alignas(64) int32_t bias[HIDDEN];
    int groups;
    uint16_t paired_bits[L1_GROUPS / VEC_I32];
    int single_count, dense_pair_count;
    GroupIndex singles[L1_GROUPS];
    GroupIndex dense_pairs[L1_GROUPS + STEP]; /* every paired group, padded to whole steps (L2) */
    _Alignas(64) int8_t w[];
} Affine;

struct NnueLayers {
    Affine *l1;
    Affine *l2[NNUE_MAX_OUTPUT_BUCKETS]; /* one per output bucket the net has */
    _Alignas(64) int8_t out[NNUE_MAX_OUTPUT_BUCKETS][ROUND_UP(HIDDEN)]; /* zero beyond HIDDEN */
    int32_t out_bias[NNUE_MAX_OUTPUT_BUCKETS];
    int32_t buckets, acc_shift, hidden_shift;
    bool screlu; /* the accumulator's activation is SCReLU */
    GroupIndex nonzero_at[256][8]; /* positions of the set bits of every byte value */
    uint8_t nonzero_count[256]; /* and how many there are */
};

/* ---------------- feature rows ---------------- */

void nnue_rows_update(int16_t *dst, const int16_t *src, const int16_t *const *add, int nadd,
                      const int16_t *const *sub, int nsub) {
    /* blocks of (at most) 8 registers, each kept in registers across all rows: the whole half
     * with AVX-512, two blocks with AVX2 */
    enum { REGS = NNUE_L1 / VEC_I16 < 8 ? NNUE_L1 / VEC_I16 : 8, BLOCK = REGS * VEC_I16 };
    _Static_assert(NNUE_L1 % BLOCK == 0, "a half is whole blocks");
    for (int b = 0; b < NNUE_L1; b += BLOCK) {
        vec_t r[REGS];
        for (int j = 0; j < REGS; j++) r[j] = vec_load(src + b + j * VEC_I16);
        for (int k = 0; k < nadd; k++)
            for (int j = 0; j < REGS; j++) r[j] = vec_add_i16(r[j], vec_load(add[k] + b + j * VEC_I16));
        for (int k = 0; k < nsub; k++)
            for (int j = 0; j < REGS; j++) r[j] = vec_sub_i16(r[j], vec_load(sub[k] + b + j * VEC_I16));
        for (int j = 0; j < REGS; j++) vec_store(dst + b + j * VEC_I16, r[j]);
    }
}

/* ---------------- forward pass ---------------- */

/* Appends base + i for every set bit i of mask (bit i: group base + i) to list; returns the new
 * length. Writes up to 8 entries past it. */
static inline int list_groups(const NnueLayers *l, GroupIndex *list, int n, unsigned mask, int base) {
    for (int b = 0; b < VEC_I32; b += 8) {
        unsigned byte = (mask >> b) & 0xFFu;
        /* eight positions at once: base + b added to every entry (no carries: all stay below
         * the entry's limit) */
        for (size_t c = 0; c < sizeof(GroupIndex); c++) {
            uint64_t at;
            memcpy(&at, (const uint8_t *)l->nonzero_at[byte] + 8 * c, 8);
            at += (uint64_t)(base + b) * GROUP_INDEX_ONES;
            memcpy((uint8_t *)(list + n) + 8 * c, &at, 8);
        }
        n += l->nonzero_count[byte];
    }
    return n;
}

/* Clipped ReLU (squared with `square`: SCReLU) of both accumulator halves (side to move first)
 * into x, in the packs' order (l1_input_neuron), listing L1's non-zero paired input groups;
 * returns their count. Called with a constant `square`, so each activation gets its own loop. */
static inline __attribute__((always_inline)) int pack_halves(const NnueLayers *l, uint8_t *x, GroupIndex *pairs,
                                                             const int16_t *stm_half, const int16_t *other_half,
                                                             const bool square) {
    const int16_t *halves[2] = {stm_half, other_half};
    int n = 0;
    /* unrolled, so every vector's offsets and group numbers are constants (gcc, AVX2: about 2 ns
     * of the forward pass's 107) */
#pragma GCC unroll 2
    for (int h = 0; h < 2; h++)
#pragma GCC unroll 16
        for (int i = 0; i < NNUE_L1; i += VEC_BYTES) {
            const vec_t lo = vec_load(halves[h] + i), hi = vec_load(halves[h] + i + VEC_I16);
            vec_t v = square ? vec_pack_sqclip_i16(lo, hi, l->acc_shift) : vec_pack_clip_i16(lo, hi, l->acc_shift);
            vec_store(x + h * NNUE_L1 + i, v);
            const int base = (h * NNUE_L1 + i) / 4;
            unsigned mask = vec_nonzero_i32_mask(v);
            if (SINGLES_POSSIBLE) mask &= l->l1->paired_bits[base / VEC_I32];
            n = list_groups(l, pairs, n, mask, base);
        }
    return n;
}

/* Clipped ReLU of HIDDEN int32 sums (s padded with zeros to ROUND_UP(HIDDEN)) into x. */
static inline void pack_hidden(const NnueLayers *l, uint8_t *x, const int32_t *s) {
    for (int i = 0; i < HIDDEN; i += VEC_BYTES)
        vec_store(x + i, vec_pack_clip_i32(vec_load(s + i), vec_load(s + i + VEC_I32), vec_load(s + i + 2 * VEC_I32),
                                           vec_load(s + i + 3 * VEC_I32), l->hidden_shift));
}

/* The input bytes of group g of x in every int32 lane. */
static inline vec_t group_input(const uint8_t *x, size_t g) {
    int32_t v;
    memcpy(&v, x + 4 * g, 4);
    return vec_set1_i32(v);
}

/* out[0..HIDDEN) = bias + W.x over the listed paired input groups of x (the other paired ones
 * zero) and every single group. Groups of `pairs` are taken two at a time (vec_dot4_pair) by
 * VEC_DOT_SETS independent sums, and the list is padded to whole steps with the zero group, whose
 * input bytes in x are zero too; single groups are taken one at a time (vec_dot4). */
static inline void affine_listed(int32_t *out, const Affine *a, const uint8_t *x, const GroupIndex *pairs, int n_pairs) {
    vec_t acc[VEC_DOT_SETS][GROUP_REGS];
    for (int s = 0; s < VEC_DOT_SETS; s++)
        for (int r = 0; r < GROUP_REGS; r++) acc[s][r] = s ? vec_zero() : vec_load(a->bias + r * VEC_I32);
    for (int i = 0; i < n_pairs; i += STEP)
        for (int s = 0; s < VEC_DOT_SETS; s++) {
            const size_t g = pairs[i + 2 * s], h = pairs[i + 2 * s + 1];
            const vec_t in_g = group_input(x, g), in_h = group_input(x, h);
            const int8_t *wg = a->w + g * GROUP_BYTES, *wh = a->w + h * GROUP_BYTES;
            for (int r = 0; r < GROUP_REGS; r++)
                acc[s][r] = vec_dot4_pair(acc[s][r], in_g, vec_load(wg + r * VEC_BYTES), in_h, vec_load(wh + r * VEC_BYTES));
        }
    for (int i = 0; SINGLES_POSSIBLE && i < a->single_count; i++) {
        const size_t g = a->singles[i];
        const vec_t in_g = group_input(x, g);
        const int8_t *wg = a->w + g * GROUP_BYTES;
        for (int r = 0; r < GROUP_REGS; r++) acc[0][r] = vec_dot4(acc[0][r], in_g, vec_load(wg + r * VEC_BYTES));
    }
    for (int r = 0; r < GROUP_REGS; r++) {
        for (int s = 1; s < VEC_DOT_SETS; s++) acc[0][r] = vec_add_i32(acc[0][r], acc[s][r]);
        vec_store(out + r * VEC_I32, acc[0][r]);
    }
}

/* bias + w.x over ROUND_UP(HIDDEN) bytes (zero beyond HIDDEN in both). */
static inline int32_t output_dot(const uint8_t *x, const int8_t *w, int32_t bias) {
    vec_t acc = vec_zero();
    for (int i = 0; i < ROUND_UP(HIDDEN); i += VEC_BYTES)
        acc = vec_dot4(acc, vec_load(x + i), vec_load(w + i));
    return bias + vec_hsum_i32(acc);
}

int32_t nnue_layers_propagate(const NnueLayers *l, const int16_t *stm_half, const int16_t *other_half, int bucket) {
    _Alignas(64) uint8_t x0[ROUND_UP(2 * NNUE_L1 + 4)]; /* + the zero group's input */
    _Alignas(64) uint8_t x1[ROUND_UP(HIDDEN + 4)], x2[ROUND_UP(HIDDEN)];
    _Alignas(64) int32_t s1[ROUND_UP(HIDDEN)], s2[ROUND_UP(HIDDEN)];
    GroupIndex pairs[LIST_SIZE];
    memset(x0 + 2 * NNUE_L1, 0, 4);
    memset(x1 + HIDDEN, 0, 4);
    memset(s1 + HIDDEN, 0, sizeof s1 - HIDDEN * sizeof *s1);
    memset(s2 + HIDDEN, 0, sizeof s2 - HIDDEN * sizeof *s2);

    /* the net's one activation switch per forward pass */
    int n = l->screlu ? pack_halves(l, x0, pairs, stm_half, other_half, true)
                      : pack_halves(l, x0, pairs, stm_half, other_half, false);
    for (int s = 0; s < STEP; s++) pairs[n + s] = (GroupIndex)l->l1->groups;
    affine_listed(s1, l->l1, x0, pairs, n);
    pack_hidden(l, x1, s1);
    /* L2's input is dense enough that listing its non-zero groups does not pay */
    const Affine *l2 = l->l2[bucket];
    affine_listed(s2, l2, x1, l2->dense_pairs, l2->dense_pair_count);
    pack_hidden(l, x2, s2);
    return output_dot(x2, l->out[bucket], l->out_bias[bucket]);
}

/* ---------------- building the layout ---------------- */

/* Whether the weights of a 4-byte group, w[4 * o + k] for every output o, may be summed in int16
 * with another group's: per output, per byte pair (2j, 2j+1) and per sign, 127 times the pair's
 * weights of that sign sum to at most VEC_PAIR_LIMIT. */
static bool group_pairs_safely(const int8_t *w) {
    const long cap = (long)VEC_PAIR_LIMIT / 127;
    for (int o = 0; o < HIDDEN; o++)
        for (int k = 0; k < 4; k += 2) {
            long pos = 0, neg = 0;
            for (int b = k; b < k + 2; b++) {
                if (w[4 * o + b] > 0) pos += w[4 * o + b];
                else neg -= w[4 * o + b];
            }
            if (pos > cap || neg > cap) return false;
        }
    return true;
}

/* The neuron of the concatenated halves that pack_halves leaves at byte q of L1's input. */
static int l1_input_neuron(int q) { return q / VEC_BYTES * VEC_BYTES + vec_packed_source(q % VEC_BYTES); }

/* The layer with weights w[HIDDEN][n_in] (file layout) and biases, laid out as in Affine; with
 * `packed`, input byte q is file input l1_input_neuron(q). */
static Affine *affine_build(const int8_t *w, const int32_t *bias, int n_in, bool packed) {
    const int groups = n_in / 4;
    size_t bytes = sizeof(Affine) + (size_t)(groups + 1) * GROUP_BYTES;
    Affine *a = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (!a) return NULL;
    memset(a, 0, bytes);
    memcpy(a->bias, bias, sizeof a->bias);
    a->groups = groups;
    for (int g = 0; g < groups; g++) {
        int8_t *dst = a->w + (size_t)g * GROUP_BYTES;
        for (int o = 0; o < HIDDEN; o++)
            for (int k = 0; k < 4; k++)
                dst[4 * o + k] = w[(size_t)o * n_in + (packed ? l1_input_neuron(4 * g + k) : 4 * g + k)];
        if (group_pairs_safely(dst)) {
            a->paired_bits[g / VEC_I32] |= (uint16_t)(1u << (g % VEC_I32));
            a->dense_pairs[a->dense_pair_count++] = (GroupIndex)g;
        } else {
            a->singles[a->single_count++] = (GroupIndex)g;
        }
    }
    for (int s = 0; s < STEP; s++) a->dense_pairs[a->dense_pair_count + s] = (GroupIndex)groups;
    return a;
}

static void affine_free(Affine *a) { free(a); }

NnueLayers *nnue_layers_build(const NnueNet *net) {
    NnueLayers *l = aligned_alloc(64, (sizeof(NnueLayers) + 63) & ~(size_t)63);
    if (!l) return NULL;
    memset(l, 0, sizeof *l);
    l->buckets = net->output_buckets;
    l->l1 = affine_build(&net->l1_weights[0][0], net->l1_biases, 2 * NNUE_L1, true);
    bool built = l->l1 != NULL;
    for (int b = 0; b < l->buckets; b++) {
        l->l2[b] = affine_build(&net->l2_weights[b][0][0], net->l2_biases[b], HIDDEN, false);
        built = built && l->l2[b];
        memcpy(l->out[b], net->out_weights[b], sizeof net->out_weights[b]);
        l->out_bias[b] = net->out_bias[b];
    }
    if (!built) {
        nnue_layers_free(l);
        return NULL;
    }
    l->acc_shift = net->acc_shift;
    l->hidden_shift = net->hidden_shift;
    l->screlu = net->activation == NNUE_ACTIVATION_SCRELU;
    for (int m = 0; m < 256; m++)
        for (int b = 0; b < 8; b++)
            if (m >> b & 1) l->nonzero_at[m][l->nonzero_count[m]++] = (GroupIndex)b;
    return l;
}

void nnue_layers_free(NnueLayers *layers) {
    if (layers) {
        affine_free(layers->l1);
        for (int b = 0; b < NNUE_MAX_OUTPUT_BUCKETS; b++) affine_free(layers->l2[b]);
    }
    free(layers);
}

const char *nnue_simd_name(void) { return VEC_NAME; }
