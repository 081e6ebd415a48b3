/* Thin SIMD layer: the few vector operations the NNUE layers are written on, once per
 * instruction set. Nothing here knows about the net: src/nnue_layers.c builds every layer
 * from these operations.
 *
 * The instruction set is picked at compile time: AVX-512BW (with VNNI when the compiler
 * targets it), else AVX2 (with AVX-VNNI when targeted), else 16-byte GNU C vectors.
 * The two x86 sections differ only in width and in a few lane-crossing details; the
 * operations themselves are written once for both. Every section defines:
 *   vec_t, VEC_BYTES             a register and its size in bytes
 *   vec_zero, vec_set1_i32       all zero; one int32 (four bytes) in every 4-byte lane
 *   vec_load, vec_store          memory aligned to VEC_BYTES
 *   vec_add_i16, vec_sub_i16     int16 lanes, wrapping (two's complement)
 *   vec_add_i32, vec_hsum_i32    int32 lanes; the sum of all lanes
 *   vec_nonzero_i32_mask         bit i set when int32 lane i is not zero
 *   vec_pack_clip_i16(a, b, s)   bytes clamp(lane >> s, 0, 127) of a's lanes and b's, in the
 *                                pack order: byte p comes from lane vec_packed_source(p) of
 *                                (a's lanes, then b's)
 *   vec_pack_sqclip_i16(a, b, s) bytes (clamp(lane >> s, 0, 127)^2) >> 7, in [0, 126] (SCReLU),
 *                                in the same order
 *   vec_packed_source(p)         that order; the x86 packs work 128 bits at a time, and the
 *                                layers lay their weights out to match it instead of permuting
 *                                every packed vector back
 *   vec_pack_clip_i32(a, b, c, d, s)   bytes clamp(lane >> s, 0, 127) of a's lanes, then b's, c's
 *                                and d's, in order
 *   vec_dot4(acc, x, w)          int32 lane i += dot product of bytes 4i..4i+3 of x (uint8, each
 *                                in [0, 127]) and of w (int8)
 *   vec_dot4_pair(acc, x, w, y, v)   the same for x.w + y.v; without VNNI the two products of
 *                                each weight pair are first added in int16 (maddubs never
 *                                saturates here: a pair is at most 2 * 127 * 128 = 32512 in
 *                                magnitude), so the sum is exact when, for every pair of bytes
 *                                (2j, 2j+1) of w and of v, 127 times the sum of the pair's positive
 *                                weights and 127 times that of its negative ones are at most
 *                                VEC_PAIR_LIMIT
 *   VEC_PAIR_LIMIT               that bound: INT16_MAX / 2 without VNNI, no constraint otherwise
 *   VEC_DOT_SETS                 independent int32 sums that hide the dot products' latency
 *   VEC_NAME                     the section's name
 * Every section gives exactly the same integers. */
#ifndef SQUALL_SIMD_H
#define SQUALL_SIMD_H

#include <limits.h>
#include <stdint.h>
#include <string.h>

#if defined(__AVX512F__) && defined(__AVX512BW__) && !defined(SQUALL_NO_SIMD)

/* ---------------- AVX-512BW ---------------- */
#include <immintrin.h>
typedef __m512i vec_t;
#define VEC_BYTES 64
#define VEC_OP(name) _mm512_##name           /* the intrinsic of this width */
#define VEC_SI(name) _mm512_##name##_si512
static inline unsigned vec_nonzero_i32_mask(vec_t a) { return _mm512_test_epi32_mask(a, a); }
static inline int32_t vec_hsum_i32(vec_t a) { return _mm512_reduce_add_epi32(a); }
/* the packs interleave their inputs per 128-bit lane; this puts the lanes back in order */
#define VEC_PACK32_ORDER(p) \
    _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15), p)
#if defined(__AVX512VNNI__)
#define VEC_DPBUSD _mm512_dpbusd_epi32
#define VEC_DOT_SETS 4 /* vpdpbusd: latency 5, two per cycle */
#define VEC_NAME "avx512-vnni"
#else
#define VEC_NAME "avx512"
#endif

#elif defined(__AVX2__) && !defined(SQUALL_NO_SIMD)

/* ---------------- AVX2 ---------------- */
#include <immintrin.h>
typedef __m256i vec_t;
#define VEC_BYTES 32
#define VEC_OP(name) _mm256_##name
#define VEC_SI(name) _mm256_##name##_si256
static inline unsigned vec_nonzero_i32_mask(vec_t a) {
    return ~(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(a, _mm256_setzero_si256()))) & 0xFFu;
}
static inline int32_t vec_hsum_i32(vec_t a) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}
#define VEC_PACK32_ORDER(p) _mm256_permutevar8x32_epi32(p, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7))
#if defined(__AVXVNNI__)
#define VEC_DPBUSD _mm256_dpbusd_avx_epi32
#define VEC_DOT_SETS 2 /* as many as the 16 registers allow */
#define VEC_NAME "avx2-vnni"
#else
#define VEC_NAME "avx2"
#endif

#endif

#if defined(VEC_OP)

/* ---------------- both x86 widths ---------------- */
static inline vec_t vec_zero(void) { return VEC_SI(setzero)(); }
static inline vec_t vec_load(const void *p) { return VEC_SI(load)((const vec_t *)p); }
static inline void vec_store(void *p, vec_t v) { VEC_SI(store)((vec_t *)p, v); }
static inline vec_t vec_set1_i32(int32_t x) { return VEC_OP(set1_epi32)(x); }
static inline vec_t vec_add_i16(vec_t a, vec_t b) { return VEC_OP(add_epi16)(a, b); }
static inline vec_t vec_sub_i16(vec_t a, vec_t b) { return VEC_OP(sub_epi16)(a, b); }
static inline vec_t vec_add_i32(vec_t a, vec_t b) { return VEC_OP(add_epi32)(a, b); }

/* signed saturation clips at 127 (and -128), max(0) does the rest */
static inline vec_t vec_pack_clip_i16(vec_t a, vec_t b, int shift) {
    const __m128i count = _mm_cvtsi32_si128(shift);
    vec_t p = VEC_OP(packs_epi16)(VEC_OP(sra_epi16)(a, count), VEC_OP(sra_epi16)(b, count));
    return VEC_OP(max_epi8)(p, vec_zero());
}
/* clamp in int16, square (at most 127^2 = 16129: no overflow), >> 7, then an unsigned pack */
static inline vec_t vec_sqclip_i16(vec_t a, __m128i count) {
    vec_t c = VEC_OP(min_epi16)(VEC_OP(max_epi16)(VEC_OP(sra_epi16)(a, count), vec_zero()), VEC_OP(set1_epi16)(127));
    return VEC_OP(srli_epi16)(VEC_OP(mullo_epi16)(c, c), 7);
}
static inline vec_t vec_pack_sqclip_i16(vec_t a, vec_t b, int shift) {
    const __m128i count = _mm_cvtsi32_si128(shift);
    return VEC_OP(packus_epi16)(vec_sqclip_i16(a, count), vec_sqclip_i16(b, count));
}
/* each 16-byte lane L of a pack holds a's lanes 8L..8L+7, then b's */
static inline int vec_packed_source(int p) { return (p & 8 ? VEC_BYTES / 2 : 0) + 8 * (p >> 4) + (p & 7); }
static inline vec_t vec_pack_clip_i32(vec_t a, vec_t b, vec_t c, vec_t d, int shift) {
    const __m128i count = _mm_cvtsi32_si128(shift);
    vec_t ab = VEC_OP(packs_epi32)(VEC_OP(sra_epi32)(a, count), VEC_OP(sra_epi32)(b, count));
    vec_t cd = VEC_OP(packs_epi32)(VEC_OP(sra_epi32)(c, count), VEC_OP(sra_epi32)(d, count));
    return VEC_PACK32_ORDER(VEC_OP(max_epi8)(VEC_OP(packs_epi16)(ab, cd), vec_zero()));
}

#if defined(VEC_DPBUSD)
#define VEC_PAIR_LIMIT INT32_MAX
static inline vec_t vec_dot4(vec_t acc, vec_t x, vec_t w) { return VEC_DPBUSD(acc, x, w); }
static inline vec_t vec_dot4_pair(vec_t acc, vec_t x, vec_t w, vec_t y, vec_t v) {
    return VEC_DPBUSD(VEC_DPBUSD(acc, x, w), y, v);
}
#else
#define VEC_PAIR_LIMIT (INT16_MAX / 2)
#define VEC_DOT_SETS 1 /* the int32 adds have latency 1 */
static inline vec_t vec_dot4(vec_t acc, vec_t x, vec_t w) {
    return VEC_OP(add_epi32)(acc, VEC_OP(madd_epi16)(VEC_OP(maddubs_epi16)(x, w), VEC_OP(set1_epi16)(1)));
}
static inline vec_t vec_dot4_pair(vec_t acc, vec_t x, vec_t w, vec_t y, vec_t v) {
    vec_t pairs = VEC_OP(add_epi16)(VEC_OP(maddubs_epi16)(x, w), VEC_OP(maddubs_epi16)(y, v));
    return VEC_OP(add_epi32)(acc, VEC_OP(madd_epi16)(pairs, VEC_OP(set1_epi16)(1)));
}
#endif

#else

/* ---------------- portable: GNU C vectors ---------------- */
/* 16-byte vectors of GNU C (gcc and clang), which compilers map to whatever vector unit the
 * target has (SSE2, NEON, ...) or to plain integer code. Lanes wrap as unsigned arithmetic. */
typedef int32_t vec_t __attribute__((vector_size(16)));
typedef int16_t vec_i16x8 __attribute__((vector_size(16)));
typedef uint16_t vec_u16x8 __attribute__((vector_size(16)));
typedef uint32_t vec_u32x4 __attribute__((vector_size(16)));
typedef uint8_t vec_u8x16 __attribute__((vector_size(16)));
#define VEC_BYTES 16

static inline vec_t vec_zero(void) { return (vec_t){0, 0, 0, 0}; }
static inline vec_t vec_load(const void *p) {
    vec_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline void vec_store(void *p, vec_t v) { memcpy(p, &v, sizeof v); }
static inline vec_t vec_set1_i32(int32_t x) { return (vec_t){x, x, x, x}; }
static inline vec_t vec_add_i16(vec_t a, vec_t b) { return (vec_t)((vec_u16x8)a + (vec_u16x8)b); }
static inline vec_t vec_sub_i16(vec_t a, vec_t b) { return (vec_t)((vec_u16x8)a - (vec_u16x8)b); }
static inline vec_t vec_add_i32(vec_t a, vec_t b) { return (vec_t)((vec_u32x4)a + (vec_u32x4)b); }
static inline int32_t vec_hsum_i32(vec_t a) { return a[0] + a[1] + a[2] + a[3]; }
static inline unsigned vec_nonzero_i32_mask(vec_t a) {
    return (unsigned)(a[0] != 0) | (unsigned)(a[1] != 0) << 1 | (unsigned)(a[2] != 0) << 2 | (unsigned)(a[3] != 0) << 3;
}
/* clamp(lane >> shift, 0, 127) without branches: max(0) from the sign, min(127) from a mask */
static inline vec_i16x8 vec_clip_i16(vec_i16x8 v, int shift) {
    v = v >> shift;
    v &= ~(v >> 15);
    return v - ((v - 127) & (v > 127));
}
static inline vec_t vec_clip_i32(vec_t v, int shift) {
    v = v >> shift;
    v &= ~(v >> 31);
    return v - ((v - 127) & (v > 127));
}
static inline vec_t vec_pack_clip_i16(vec_t a, vec_t b, int shift) {
    const vec_i16x8 clipped[2] = {vec_clip_i16((vec_i16x8)a, shift), vec_clip_i16((vec_i16x8)b, shift)};
    int16_t lanes[16];
    uint8_t bytes[16];
    memcpy(lanes, clipped, sizeof lanes);
    for (int i = 0; i < 16; i++) bytes[i] = (uint8_t)lanes[i];
    return vec_load(bytes);
}
static inline vec_t vec_pack_sqclip_i16(vec_t a, vec_t b, int shift) {
    vec_i16x8 ca = vec_clip_i16((vec_i16x8)a, shift), cb = vec_clip_i16((vec_i16x8)b, shift);
    const vec_i16x8 squared[2] = {(ca * ca) >> 7, (cb * cb) >> 7};
    int16_t lanes[16];
    uint8_t bytes[16];
    memcpy(lanes, squared, sizeof lanes);
    for (int i = 0; i < 16; i++) bytes[i] = (uint8_t)lanes[i];
    return vec_load(bytes);
}
static inline int vec_packed_source(int p) { return p; } /* in order */
static inline vec_t vec_pack_clip_i32(vec_t a, vec_t b, vec_t c, vec_t d, int shift) {
    const vec_t clipped[4] = {vec_clip_i32(a, shift), vec_clip_i32(b, shift), vec_clip_i32(c, shift), vec_clip_i32(d, shift)};
    int32_t lanes[16];
    uint8_t bytes[16];
    memcpy(lanes, clipped, sizeof lanes);
    for (int i = 0; i < 16; i++) bytes[i] = (uint8_t)lanes[i];
    return vec_load(bytes);
}

#define VEC_PAIR_LIMIT INT32_MAX
#define VEC_DOT_SETS 1
static inline vec_t vec_dot4(vec_t acc, vec_t x, vec_t w) {
    /* bytes widened to int16 lanes (even and odd bytes apart), products summed in pairs (at
     * most 32512 in magnitude), then adjacent pairs summed into the int32 lanes */
    vec_i16x8 x_even = (vec_i16x8)((vec_u16x8)x & 0xFF), x_odd = (vec_i16x8)((vec_u16x8)x >> 8);
    vec_i16x8 w_even = (vec_i16x8)((vec_u16x8)w << 8) >> 8, w_odd = (vec_i16x8)w >> 8;
    vec_t pairs = (vec_t)(x_even * w_even + x_odd * w_odd);
    return vec_add_i32(acc, ((vec_t)((vec_u32x4)pairs << 16) >> 16) + (pairs >> 16));
}
static inline vec_t vec_dot4_pair(vec_t acc, vec_t x, vec_t w, vec_t y, vec_t v) {
    return vec_dot4(vec_dot4(acc, x, w), y, v);
}
#define VEC_NAME "generic"

#endif

#define VEC_I16 (VEC_BYTES / 2) /* int16 lanes per vector */
#define VEC_I32 (VEC_BYTES / 4) /* int32 lanes per vector */

#endif
