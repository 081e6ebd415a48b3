/* Thin SIMD layer for the NNUE: accumulator row updates and the int8 forward-pass kernels.
 *
 * Every kernel exists twice: a plain C reference (scalar_*) that is always compiled, and a
 * vector version (simd_*) picked at compile time: AVX-512BW (with VNNI where the compiler
 * targets it), else AVX2, else the reference again. All versions compute exactly the same
 * integers: int16 accumulator arithmetic wraps (two's complement) in both, and int8 dot
 * products never saturate because activations are kept in [0, 127], so one maddubs pair is
 * at most 2 * 127 * 128 = 32512 in magnitude, below the int16 limit. */
#ifndef SQUALL_SIMD_H
#define SQUALL_SIMD_H

#include <stdint.h>
#include <string.h>

#if (defined(__AVX512F__) && defined(__AVX512BW__)) && !defined(SQUALL_NO_SIMD)
#define SIMD_AVX512 1
#define SIMD_AVX2 1 /* every AVX-512BW target also has AVX2: the small layers use it */
#elif defined(__AVX2__) && !defined(SQUALL_NO_SIMD)
#define SIMD_AVX2 1
#endif

#if defined(SIMD_AVX2)
#include <immintrin.h>
#endif

#if defined(SIMD_AVX512) && defined(__AVX512VNNI__)
#define SIMD_NAME "avx512-vnni"
#elif defined(SIMD_AVX512)
#define SIMD_NAME "avx512"
#elif defined(SIMD_AVX2)
#define SIMD_NAME "avx2"
#else
#define SIMD_NAME "scalar"
#endif

/* Width of an accumulator half; the kernels below are written for exactly this many lanes. */
#define SIMD_ACC_LANES 256
/* Most rows one update applies (a full refresh: one per piece). */
#define SIMD_MAX_ROWS 32

/* ---------------- scalar reference ---------------- */

static inline int16_t scalar_wrap16(int v) { return (int16_t)(uint16_t)v; }

/* dst = src + sum(add rows) - sum(sub rows), int16 lanes, wrapping. dst may equal src. */
static inline void scalar_acc_update(int16_t *dst, const int16_t *src, const int16_t *const *add, int nadd,
                                     const int16_t *const *sub, int nsub) {
    /* rows outer, lanes inner: plain C that compilers can still vectorize for the generic build */
    if (dst != src) memcpy(dst, src, SIMD_ACC_LANES * sizeof *dst);
    for (int k = 0; k < nadd; k++)
        for (int i = 0; i < SIMD_ACC_LANES; i++) dst[i] = scalar_wrap16(dst[i] + add[k][i]);
    for (int k = 0; k < nsub; k++)
        for (int i = 0; i < SIMD_ACC_LANES; i++) dst[i] = scalar_wrap16(dst[i] - sub[k][i]);
}

/* out[i] = clamp(in[i] >> shift, 0, 127); a negative value always gives 0. */
static inline void scalar_crelu16(uint8_t *out, const int16_t *in, int n, int shift) {
    for (int i = 0; i < n; i++) {
        int v = in[i] < 0 ? 0 : in[i] >> shift;
        out[i] = (uint8_t)(v > 127 ? 127 : v);
    }
}

static inline void scalar_crelu32(uint8_t *out, const int32_t *in, int n, int shift) {
    for (int i = 0; i < n; i++) {
        int32_t v = in[i] < 0 ? 0 : in[i] >> shift;
        out[i] = (uint8_t)(v > 127 ? 127 : v);
    }
}

/* out[o] = bias[o] + sum_i w[o * n_in + i] * in[i]: int8 weights, uint8 inputs, int32 sums. */
static inline void scalar_affine(int32_t *out, const int8_t *w, const int32_t *bias, const uint8_t *in, int n_in,
                                 int n_out) {
    for (int o = 0; o < n_out; o++) {
        int32_t s = bias[o];
        const int8_t *row = w + (size_t)o * n_in;
        for (int i = 0; i < n_in; i++) s += (int32_t)row[i] * in[i];
        out[o] = s;
    }
}

/* Input-major copy of a [n_out][n_in] int8 weight matrix (n_in a multiple of 4), for the
 * vector kernels: dst[(g * n_out + o) * 4 + k] = w[o * n_in + 4 * g + k]. */
static inline void simd_input_major(int8_t *dst, const int8_t *w, int n_in, int n_out) {
    for (int g = 0; g < n_in / 4; g++)
        for (int o = 0; o < n_out; o++)
            for (int k = 0; k < 4; k++) dst[((size_t)g * n_out + o) * 4 + k] = w[(size_t)o * n_in + 4 * g + k];
}

/* ---------------- vector versions ---------------- */

#if defined(SIMD_AVX512)

static inline void simd_acc_update(int16_t *dst, const int16_t *src, const int16_t *const *add, int nadd,
                                   const int16_t *const *sub, int nsub) {
    /* 256 lanes = 8 zmm registers: the whole half stays in registers across all rows */
    enum { REGS = SIMD_ACC_LANES / 32 };
    __m512i r[REGS];
    for (int j = 0; j < REGS; j++) r[j] = _mm512_load_si512((const void *)(src + 32 * j));
    for (int k = 0; k < nadd; k++)
        for (int j = 0; j < REGS; j++) r[j] = _mm512_add_epi16(r[j], _mm512_load_si512((const void *)(add[k] + 32 * j)));
    for (int k = 0; k < nsub; k++)
        for (int j = 0; j < REGS; j++) r[j] = _mm512_sub_epi16(r[j], _mm512_load_si512((const void *)(sub[k] + 32 * j)));
    for (int j = 0; j < REGS; j++) _mm512_store_si512((void *)(dst + 32 * j), r[j]);
}

#elif defined(SIMD_AVX2)

static inline void simd_acc_update(int16_t *dst, const int16_t *src, const int16_t *const *add, int nadd,
                                   const int16_t *const *sub, int nsub) {
    /* two blocks of 8 ymm: leaves registers free for the row loads */
    enum { REGS = 8, BLOCK = REGS * 16 };
    for (int b = 0; b < SIMD_ACC_LANES; b += BLOCK) {
        __m256i r[REGS];
        for (int j = 0; j < REGS; j++) r[j] = _mm256_load_si256((const __m256i *)(src + b + 16 * j));
        for (int k = 0; k < nadd; k++)
            for (int j = 0; j < REGS; j++)
                r[j] = _mm256_add_epi16(r[j], _mm256_load_si256((const __m256i *)(add[k] + b + 16 * j)));
        for (int k = 0; k < nsub; k++)
            for (int j = 0; j < REGS; j++)
                r[j] = _mm256_sub_epi16(r[j], _mm256_load_si256((const __m256i *)(sub[k] + b + 16 * j)));
        for (int j = 0; j < REGS; j++) _mm256_store_si256((__m256i *)(dst + b + 16 * j), r[j]);
    }
}

#else

static inline void simd_acc_update(int16_t *dst, const int16_t *src, const int16_t *const *add, int nadd,
                                   const int16_t *const *sub, int nsub) {
    scalar_acc_update(dst, src, add, nadd, sub, nsub);
}

#endif

#if defined(SIMD_AVX512)

/* n must be a multiple of 64. */
static inline void simd_crelu16(uint8_t *out, const int16_t *in, int n, int shift) {
    const __m128i count = _mm_cvtsi32_si128(shift);
    const __m512i zero = _mm512_setzero_si512();
    const __m512i order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7); /* undo packs' per-lane interleave */
    for (int i = 0; i < n; i += 64) {
        __m512i a = _mm512_sra_epi16(_mm512_load_si512((const void *)(in + i)), count);
        __m512i b = _mm512_sra_epi16(_mm512_load_si512((const void *)(in + i + 32)), count);
        __m512i p = _mm512_max_epi8(_mm512_packs_epi16(a, b), zero); /* signed saturation clips at 127 */
        _mm512_storeu_si512((void *)(out + i), _mm512_permutexvar_epi64(order, p));
    }
}

#elif defined(SIMD_AVX2)

/* n must be a multiple of 32. */
static inline void simd_crelu16(uint8_t *out, const int16_t *in, int n, int shift) {
    const __m128i count = _mm_cvtsi32_si128(shift);
    const __m256i zero = _mm256_setzero_si256();
    for (int i = 0; i < n; i += 32) {
        __m256i a = _mm256_sra_epi16(_mm256_load_si256((const __m256i *)(in + i)), count);
        __m256i b = _mm256_sra_epi16(_mm256_load_si256((const __m256i *)(in + i + 16)), count);
        __m256i p = _mm256_max_epi8(_mm256_packs_epi16(a, b), zero); /* signed saturation clips at 127 */
        _mm256_storeu_si256((__m256i *)(out + i), _mm256_permute4x64_epi64(p, 0xD8));
    }
}

#else

static inline void simd_crelu16(uint8_t *out, const int16_t *in, int n, int shift) { scalar_crelu16(out, in, n, shift); }

#endif

#if defined(SIMD_AVX2)

/* n must be a multiple of 32. */
static inline void simd_crelu32(uint8_t *out, const int32_t *in, int n, int shift) {
    const __m128i count = _mm_cvtsi32_si128(shift);
    const __m256i zero = _mm256_setzero_si256();
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    for (int i = 0; i < n; i += 32) {
        __m256i x0 = _mm256_sra_epi32(_mm256_loadu_si256((const __m256i *)(in + i)), count);
        __m256i x1 = _mm256_sra_epi32(_mm256_loadu_si256((const __m256i *)(in + i + 8)), count);
        __m256i x2 = _mm256_sra_epi32(_mm256_loadu_si256((const __m256i *)(in + i + 16)), count);
        __m256i x3 = _mm256_sra_epi32(_mm256_loadu_si256((const __m256i *)(in + i + 24)), count);
        /* both packs saturate, so together they clamp to [-128, 127]; max(0) finishes the ReLU */
        __m256i p = _mm256_packs_epi16(_mm256_packs_epi32(x0, x1), _mm256_packs_epi32(x2, x3));
        p = _mm256_max_epi8(p, zero);
        _mm256_storeu_si256((__m256i *)(out + i), _mm256_permutevar8x32_epi32(p, order));
    }
}

/* Sums of four int32 vectors, one lane each: [sum(a), sum(b), sum(c), sum(d)]. */
static inline __m128i simd_hsum4(__m256i a, __m256i b, __m256i c, __m256i d) {
    a = _mm256_hadd_epi32(a, b);
    c = _mm256_hadd_epi32(c, d);
    a = _mm256_hadd_epi32(a, c);
    return _mm_add_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
}

static inline int32_t simd_hsum1(__m256i a) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}

/* int32 lanes of sum += in(u8) . w(s8), four products per lane; exact for in <= 127. */
static inline __m256i simd_dot32(__m256i sum, __m256i in, __m256i w) {
#if defined(__AVX512VNNI__) && defined(__AVX512VL__)
    return _mm256_dpbusd_epi32(sum, in, w);
#else
    __m256i pairs = _mm256_maddubs_epi16(in, w); /* |pair| <= 32512: no saturation */
    return _mm256_add_epi32(sum, _mm256_madd_epi16(pairs, _mm256_set1_epi16(1)));
#endif
}

/* Dot product of one 32*chunks byte row (avx2 registers). */
static inline __m256i simd_row_dot_avx2(const uint8_t *in, const int8_t *row, int chunks) {
    __m256i s = _mm256_setzero_si256();
    for (int c = 0; c < chunks; c++)
        s = simd_dot32(s, _mm256_loadu_si256((const __m256i *)(in + 32 * c)),
                       _mm256_loadu_si256((const __m256i *)(row + 32 * c)));
    return s;
}

#if defined(SIMD_AVX512)
static inline int32_t simd_row_dot_avx512(const uint8_t *in, const int8_t *row, int chunks) {
    __m512i s = _mm512_setzero_si512();
    for (int c = 0; c < chunks; c++) {
        __m512i x = _mm512_loadu_si512((const void *)(in + 64 * c));
        __m512i w = _mm512_loadu_si512((const void *)(row + 64 * c));
#if defined(__AVX512VNNI__)
        s = _mm512_dpbusd_epi32(s, x, w);
#else
        s = _mm512_add_epi32(s, _mm512_madd_epi16(_mm512_maddubs_epi16(x, w), _mm512_set1_epi16(1)));
#endif
    }
    return _mm512_reduce_add_epi32(s);
}
#endif

/* n_in must be a multiple of 32. */
static inline void simd_affine(int32_t *out, const int8_t *w, const int32_t *bias, const uint8_t *in, int n_in,
                               int n_out) {
#if defined(SIMD_AVX512)
    if (n_in % 64 == 0) {
        for (int o = 0; o < n_out; o++) out[o] = bias[o] + simd_row_dot_avx512(in, w + (size_t)o * n_in, n_in / 64);
        return;
    }
#endif
    const int chunks = n_in / 32;
    int o = 0;
    for (; o + 4 <= n_out; o += 4) {
        const int8_t *r = w + (size_t)o * n_in;
        __m128i s = simd_hsum4(simd_row_dot_avx2(in, r, chunks), simd_row_dot_avx2(in, r + n_in, chunks),
                               simd_row_dot_avx2(in, r + 2 * n_in, chunks), simd_row_dot_avx2(in, r + 3 * n_in, chunks));
        s = _mm_add_epi32(s, _mm_loadu_si128((const __m128i *)(bias + o)));
        _mm_storeu_si128((__m128i *)(out + o), s);
    }
    for (; o < n_out; o++) out[o] = bias[o] + simd_hsum1(simd_row_dot_avx2(in, w + (size_t)o * n_in, chunks));
}

/* ---- input-major affine layers with zero skipping (exact: integer sums in another order) ----
 *
 * The weights of a layer with 32 outputs are rearranged so that the 32 outputs' weights for one
 * group of 4 consecutive inputs are contiguous: w_im[(g * 32 + o) * 4 + k] = w[o][4 * g + k]
 * (simd_input_major below). One group is then a broadcast of its 4 input bytes multiplied into
 * 4 registers of 8 outputs each, with no horizontal sums, and a group whose 4 inputs are all
 * zero contributes nothing and is skipped. */

/* Offsets of the set bits of every byte value, for turning a movemask into a list of groups. */
typedef struct {
    _Alignas(16) uint16_t offsets[256][8];
} SimdNzTable;

static inline void simd_nz_table_init(SimdNzTable *t) {
    for (int m = 0; m < 256; m++) {
        int n = 0;
        for (int b = 0; b < 8; b++)
            if (m >> b & 1) t->offsets[m][n++] = (uint16_t)b;
        while (n < 8) t->offsets[m][n++] = 0;
    }
}

/* Appends to groups[] the indices of the non-zero 4-byte groups of in[0..n) (n a multiple of
 * 32); returns the new count. */
static inline int simd_find_nonzero_groups(const uint8_t *in, int n, uint16_t *groups, int count,
                                           const SimdNzTable *t) {
    const __m256i zero = _mm256_setzero_si256();
    __m128i base = _mm_set1_epi16((short)0), step = _mm_set1_epi16(8);
    for (int i = 0; i < n; i += 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(in + i));
        unsigned mask = ~(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, zero))) & 0xFFu;
        __m128i idx = _mm_add_epi16(_mm_load_si128((const __m128i *)t->offsets[mask]), base);
        _mm_storeu_si128((__m128i *)(groups + count), idx);
        count += __builtin_popcount(mask);
        base = _mm_add_epi16(base, step);
    }
    return count;
}

/* Longest run of input groups whose maddubs results can be summed in int16 lanes before
 * widening, for an input-major matrix of n_groups groups and 32 outputs, inputs in [0, 127]:
 * an int16 lane holds x1*w1 + x2*w2 for one output, within [-127*N, 127*P] where P and N are
 * the sums of that weight pair's positive and negative parts; a run of k groups stays within
 * k*127*max(P, N) <= 32767 over every lane, so the int16 sums are exact (never saturate or wrap).
 * Trained nets have small hidden weights (long runs); full-range int8 weights give 1. */
static inline int simd_int16_run(const int8_t *w_im, int n_groups) {
    int worst = 0;
    for (int i = 0; i < n_groups * 128; i += 2) {
        int a = w_im[i], b = w_im[i + 1];
        int pos = (a > 0 ? a : 0) + (b > 0 ? b : 0), neg = (a < 0 ? -a : 0) + (b < 0 ? -b : 0);
        if (pos > worst) worst = pos;
        if (neg > worst) worst = neg;
    }
    int run = worst ? 32767 / (127 * worst) : n_groups;
    return run < 1 ? 1 : run > n_groups ? n_groups : run;
}

/* Adds group g's products to four int16 (sum += maddubs) or int32 (sum += madd(maddubs, 1))
 * registers of 8 outputs each. */
#define SIMD_GROUP_PRODUCTS(in, w_im, g, x, p0, p1, p2, p3)                                      \
    do {                                                                                         \
        int32_t x32_;                                                                            \
        memcpy(&x32_, (in) + 4 * (g), 4);                                                        \
        const __m256i x = _mm256_set1_epi32(x32_);                                               \
        const int8_t *wg_ = (w_im) + 128 * (g);                                                  \
        p0 = _mm256_maddubs_epi16(x, _mm256_load_si256((const __m256i *)(wg_ + 0)));             \
        p1 = _mm256_maddubs_epi16(x, _mm256_load_si256((const __m256i *)(wg_ + 32)));            \
        p2 = _mm256_maddubs_epi16(x, _mm256_load_si256((const __m256i *)(wg_ + 64)));            \
        p3 = _mm256_maddubs_epi16(x, _mm256_load_si256((const __m256i *)(wg_ + 96)));            \
    } while (0)

/* out[0..32) = bias + W.in over the listed input groups only (the others must be zero); run
 * from simd_int16_run for these weights. */
static inline void simd_affine32_groups(int32_t *out, const int8_t *w_im, const int32_t *bias, const uint8_t *in,
                                        const uint16_t *groups, int count, int run) {
    const __m256i ones = _mm256_set1_epi16(1);
    __m256i a0 = _mm256_loadu_si256((const __m256i *)(bias + 0)), a1 = _mm256_loadu_si256((const __m256i *)(bias + 8));
    __m256i a2 = _mm256_loadu_si256((const __m256i *)(bias + 16)), a3 = _mm256_loadu_si256((const __m256i *)(bias + 24));
    __m256i p0, p1, p2, p3;
    if (run >= 2) {
        /* int16 sums over runs of groups, widened once per run */
        for (int i = 0; i < count;) {
            int end = count - i > run ? i + run : count;
            __m256i s0, s1, s2, s3;
            SIMD_GROUP_PRODUCTS(in, w_im, groups[i], x, s0, s1, s2, s3);
            for (i++; i < end; i++) {
                SIMD_GROUP_PRODUCTS(in, w_im, groups[i], x, p0, p1, p2, p3);
                s0 = _mm256_add_epi16(s0, p0), s1 = _mm256_add_epi16(s1, p1);
                s2 = _mm256_add_epi16(s2, p2), s3 = _mm256_add_epi16(s3, p3);
            }
            a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(s0, ones)), a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(s1, ones));
            a2 = _mm256_add_epi32(a2, _mm256_madd_epi16(s2, ones)), a3 = _mm256_add_epi32(a3, _mm256_madd_epi16(s3, ones));
        }
    } else {
        /* every group widened on its own; two sets of sums for shorter dependency chains */
        __m256i b0 = _mm256_setzero_si256(), b1 = b0, b2 = b0, b3 = b0;
        int i = 0;
        for (; i + 2 <= count; i += 2) {
            SIMD_GROUP_PRODUCTS(in, w_im, groups[i], x, p0, p1, p2, p3);
            a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(p0, ones)), a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(p1, ones));
            a2 = _mm256_add_epi32(a2, _mm256_madd_epi16(p2, ones)), a3 = _mm256_add_epi32(a3, _mm256_madd_epi16(p3, ones));
            SIMD_GROUP_PRODUCTS(in, w_im, groups[i + 1], y, p0, p1, p2, p3);
            b0 = _mm256_add_epi32(b0, _mm256_madd_epi16(p0, ones)), b1 = _mm256_add_epi32(b1, _mm256_madd_epi16(p1, ones));
            b2 = _mm256_add_epi32(b2, _mm256_madd_epi16(p2, ones)), b3 = _mm256_add_epi32(b3, _mm256_madd_epi16(p3, ones));
        }
        if (i < count) {
            SIMD_GROUP_PRODUCTS(in, w_im, groups[i], x, p0, p1, p2, p3);
            a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(p0, ones)), a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(p1, ones));
            a2 = _mm256_add_epi32(a2, _mm256_madd_epi16(p2, ones)), a3 = _mm256_add_epi32(a3, _mm256_madd_epi16(p3, ones));
        }
        a0 = _mm256_add_epi32(a0, b0), a1 = _mm256_add_epi32(a1, b1);
        a2 = _mm256_add_epi32(a2, b2), a3 = _mm256_add_epi32(a3, b3);
    }
    _mm256_storeu_si256((__m256i *)(out + 0), a0);
    _mm256_storeu_si256((__m256i *)(out + 8), a1);
    _mm256_storeu_si256((__m256i *)(out + 16), a2);
    _mm256_storeu_si256((__m256i *)(out + 24), a3);
}

#define SIMD_INPUT_MAJOR 1

#else

static inline void simd_crelu32(uint8_t *out, const int32_t *in, int n, int shift) { scalar_crelu32(out, in, n, shift); }
static inline void simd_affine(int32_t *out, const int8_t *w, const int32_t *bias, const uint8_t *in, int n_in,
                               int n_out) {
    scalar_affine(out, w, bias, in, n_in, n_out);
}

#endif

#endif
