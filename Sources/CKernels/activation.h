// Vector activations on registers, shared by the activation pass (conv.c)
// and the GEMM epilogues (gemm.c). Private to CKernels.
#ifndef CKERNELS_ACTIVATION_H
#define CKERNELS_ACTIVATION_H

#include "CKernels.h"

#include <immintrin.h>
#include <math.h>

#pragma STDC FP_CONTRACT OFF

// Vector twins of bk_expf / sigmoid: the same operations in the same order
// (separate multiply and add, no FMA), with out-of-range lanes blended to the
// scalar code's special values, so every lane equals the scalar result.
#define EXP_BODY(V, SET1, ADD, SUB, MUL, CVT, CASTI2F, ADDI, SLLI, SRAI, SRLI)   \
  V t = ADD(MUL(x, SET1(1.44269504f)), SET1(12582912.0f));                    \
  V n = SUB(t, SET1(12582912.0f));                                            \
  V r = SUB(x, MUL(n, SET1(0.693145752f)));                                   \
  r = SUB(r, MUL(n, SET1(1.42860677e-06f)));                                  \
  V p = SET1(1.0f / 5040.0f);                                                 \
  p = ADD(MUL(p, r), SET1(1.0f / 720.0f));                                    \
  p = ADD(MUL(p, r), SET1(1.0f / 120.0f));                                    \
  p = ADD(MUL(p, r), SET1(1.0f / 24.0f));                                     \
  p = ADD(MUL(p, r), SET1(1.0f / 6.0f));                                      \
  p = ADD(MUL(p, r), SET1(0.5f));                                             \
  p = ADD(MUL(p, r), SET1(1.0f));                                             \
  p = ADD(MUL(p, r), SET1(1.0f));                                             \
  ivec ni = CVT(n);                                                           \
  ivec n1 = SRAI(ADDI(ni, SRLI(ni, 31)), 1); /* ni / 2, toward zero */        \
  ivec n2 = SUBI(ni, n1);                                                     \
  p = MUL(p, CASTI2F(SLLI(ADDI(n1, SET1I(127)), 23)));                        \
  p = MUL(p, CASTI2F(SLLI(ADDI(n2, SET1I(127)), 23)));

__attribute__((target("avx512f"))) static inline __m512 exp512(__m512 x) {
  typedef __m512i ivec;
#define SUBI _mm512_sub_epi32
#define SET1I _mm512_set1_epi32
  EXP_BODY(__m512, _mm512_set1_ps, _mm512_add_ps, _mm512_sub_ps, _mm512_mul_ps,
           _mm512_cvttps_epi32, _mm512_castsi512_ps, _mm512_add_epi32,
           _mm512_slli_epi32, _mm512_srai_epi32, _mm512_srli_epi32)
#undef SUBI
#undef SET1I
  __mmask16 hi = _mm512_cmp_ps_mask(x, _mm512_set1_ps(88.72283f), _CMP_GT_OQ);
  __mmask16 lo = _mm512_cmp_ps_mask(x, _mm512_set1_ps(-103.97208f), _CMP_LT_OQ);
  __mmask16 nan = _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q);
  p = _mm512_mask_mov_ps(p, hi, _mm512_set1_ps(INFINITY));
  p = _mm512_mask_mov_ps(p, lo, _mm512_setzero_ps());
  return _mm512_mask_mov_ps(p, nan, x);
}

__attribute__((target("avx2,fma"))) static inline __m256 exp256(__m256 x) {
  typedef __m256i ivec;
#define SUBI _mm256_sub_epi32
#define SET1I _mm256_set1_epi32
  EXP_BODY(__m256, _mm256_set1_ps, _mm256_add_ps, _mm256_sub_ps, _mm256_mul_ps,
           _mm256_cvttps_epi32, _mm256_castsi256_ps, _mm256_add_epi32,
           _mm256_slli_epi32, _mm256_srai_epi32, _mm256_srli_epi32)
#undef SUBI
#undef SET1I
  __m256 hi = _mm256_cmp_ps(x, _mm256_set1_ps(88.72283f), _CMP_GT_OQ);
  __m256 lo = _mm256_cmp_ps(x, _mm256_set1_ps(-103.97208f), _CMP_LT_OQ);
  __m256 nan = _mm256_cmp_ps(x, x, _CMP_UNORD_Q);
  p = _mm256_blendv_ps(p, _mm256_set1_ps(INFINITY), hi);
  p = _mm256_blendv_ps(p, _mm256_setzero_ps(), lo);
  return _mm256_blendv_ps(p, x, nan);
}

// Sigmoid for the activations: 1 / (1 + e^z), z = -x clamped to [-87, 87]
// so that e^z and the quotient are normal floats (1 + e^-87 is 1; 1 / (1 +
// e^87) is 1.6e-38, above FLT_MIN). A subnormal quotient costs a microcode
// assist per lane in the divide and in SiLU's multiply: a stem fed levels
// 0-255 instead of 0-1 ran 5x slower with the bound at 88. e^z by
// z = n ln2 + r with FMAs, a degree-7 polynomial on |r| <= ln2/2 and a single
// scale by 2^n built from bits — half the operations of exp512 with the same
// ones in every path (sigmoid in activation.c is the scalar twin, fmaf for
// each FMA). A true division measured faster here than a Newton reciprocal,
// and rcp14 varies by vendor.
#define SIG_BODY(V, SET1, SETZERO, ADD, SUB, MUL, DIV, MIN, MAX, FMA, FNMA, CVT, CASTI2F, CASTF2I, ADDI, SLLI, SET1I) \
  V z = MAX(MIN(SUB(SETZERO(), x), SET1(87.0f)), SET1(-87.0f));               \
  V n = SUB(FMA(z, SET1(1.44269504f), SET1(12582912.0f)), SET1(12582912.0f)); \
  V r = FNMA(n, SET1(0.693145752f), z);                                       \
  r = FNMA(n, SET1(1.42860677e-06f), r);                                      \
  V p = SET1(1.0f / 5040.0f);                                                 \
  p = FMA(p, r, SET1(1.0f / 720.0f));                                         \
  p = FMA(p, r, SET1(1.0f / 120.0f));                                         \
  p = FMA(p, r, SET1(1.0f / 24.0f));                                          \
  p = FMA(p, r, SET1(1.0f / 6.0f));                                           \
  p = FMA(p, r, SET1(0.5f));                                                  \
  p = FMA(p, r, SET1(1.0f));                                                  \
  p = FMA(p, r, SET1(1.0f));                                                  \
  V e = MUL(p, CASTI2F(SLLI(ADDI(CVT(n), SET1I(127)), 23)));                  \
  return DIV(SET1(1.0f), ADD(SET1(1.0f), e));

__attribute__((target("avx512f"))) static inline __m512 sigmoid512(__m512 x) {
  SIG_BODY(__m512, _mm512_set1_ps, _mm512_setzero_ps, _mm512_add_ps, _mm512_sub_ps, _mm512_mul_ps, _mm512_div_ps,
           _mm512_min_ps, _mm512_max_ps, _mm512_fmadd_ps, _mm512_fnmadd_ps, _mm512_cvttps_epi32, _mm512_castsi512_ps,
           _mm512_castps_si512, _mm512_add_epi32, _mm512_slli_epi32, _mm512_set1_epi32)
}

__attribute__((target("avx2,fma"))) static inline __m256 sigmoid256(__m256 x) {
  SIG_BODY(__m256, _mm256_set1_ps, _mm256_setzero_ps, _mm256_add_ps, _mm256_sub_ps, _mm256_mul_ps, _mm256_div_ps,
           _mm256_min_ps, _mm256_max_ps, _mm256_fmadd_ps, _mm256_fnmadd_ps, _mm256_cvttps_epi32, _mm256_castsi256_ps,
           _mm256_castps_si256, _mm256_add_epi32, _mm256_slli_epi32, _mm256_set1_epi32)
}

// One register of an activation (`BK_ACT_*`), lane for lane the scalar
// bk_activate: sigmoid/SiLU via SIG_BODY (NaN passes through unchanged); ReLU,
// HardSigmoid and HardSwish by the scalar code's compare-and-select (ordered
// compares are false for NaN, as `<` and `>` are; multiply then add, no FMA).
// One body for both widths: CMP gives a mask (AVX-512) or a lane vector
// (AVX2), SEL(x, m, r) takes r where m is set.
#define ACT_BODY(V, SET1, SETZERO, ADD, SUB, MUL, CMP, SEL, SIG)                \
  const V zero = SETZERO(), one = SET1(1.0f);                                 \
  switch (act) {                                                              \
  case BK_ACT_SIGMOID:                                                        \
  case BK_ACT_SILU: {                                                         \
    V s = SIG(v);                                                             \
    return SEL(act == BK_ACT_SILU ? MUL(v, s) : s, CMP(v, v, _CMP_UNORD_Q), v); \
  }                                                                           \
  case BK_ACT_RELU:                                                           \
    return SEL(v, CMP(v, zero, _CMP_LT_OQ), zero);                            \
  case BK_ACT_HARDSIGMOID:                                                    \
  case BK_ACT_HARDSWISH: {                                                    \
    V h = ADD(MUL(SET1(alpha), v), SET1(beta));                               \
    h = SEL(SEL(h, CMP(h, one, _CMP_GT_OQ), one), CMP(h, zero, _CMP_LT_OQ), zero); \
    return act == BK_ACT_HARDSWISH ? MUL(v, h) : h;                           \
  }                                                                           \
  default:                                                                    \
    return v;                                                                 \
  }

#define SEL512(x, m, r) _mm512_mask_mov_ps((x), (m), (r))
#define SEL256(x, m, r) _mm256_blendv_ps((x), (r), (m))

__attribute__((target("avx512f"), always_inline)) static inline __m512
act512v(__m512 v, int act, float alpha, float beta) {
  ACT_BODY(__m512, _mm512_set1_ps, _mm512_setzero_ps, _mm512_add_ps, _mm512_sub_ps, _mm512_mul_ps,
           _mm512_cmp_ps_mask, SEL512, sigmoid512)
}

__attribute__((target("avx2,fma"), always_inline)) static inline __m256
act256v(__m256 v, int act, float alpha, float beta) {
  ACT_BODY(__m256, _mm256_set1_ps, _mm256_setzero_ps, _mm256_add_ps, _mm256_sub_ps, _mm256_mul_ps,
           _mm256_cmp_ps, SEL256, sigmoid256)
}

#endif
