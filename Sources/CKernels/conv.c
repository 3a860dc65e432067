// im2col, depthwise convolution and activations.
#include "CKernels.h"

#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#pragma STDC FP_CONTRACT OFF

void bk_im2col(float *cols, const float *x, ptrdiff_t C, ptrdiff_t H,
               ptrdiff_t W, ptrdiff_t KH, ptrdiff_t KW, ptrdiff_t sh,
               ptrdiff_t sw, ptrdiff_t ph, ptrdiff_t pw, ptrdiff_t dh,
               ptrdiff_t dw, ptrdiff_t OH, ptrdiff_t OW, ptrdiff_t c0,
               ptrdiff_t c1) {
  (void)C;
  ptrdiff_t N = OH * OW;
  for (ptrdiff_t c = c0; c < c1; c++)
    for (ptrdiff_t i = 0; i < KH; i++)
      for (ptrdiff_t j = 0; j < KW; j++) {
        float *row = cols + ((c * KH + i) * KW + j) * N;
        // Valid ow: 0 <= ow*sw - pw + j*dw < W.
        ptrdiff_t off = j * dw - pw;
        ptrdiff_t lo = off >= 0 ? 0 : (-off + sw - 1) / sw;
        ptrdiff_t hi = W - off <= 0 ? 0 : (W - off + sw - 1) / sw;
        if (hi > OW) hi = OW;
        if (lo > hi) lo = hi;
        for (ptrdiff_t oh = 0; oh < OH; oh++) {
          float *r = row + oh * OW;
          ptrdiff_t ih = oh * sh - ph + i * dh;
          if (ih < 0 || ih >= H) {
            memset(r, 0, (size_t)OW * sizeof(float));
            continue;
          }
          const float *xr = x + (c * H + ih) * W + off;
          for (ptrdiff_t ow = 0; ow < lo; ow++) r[ow] = 0;
          if (sw == 1)
            memcpy(r + lo, xr + lo, (size_t)(hi - lo) * sizeof(float));
          else
            for (ptrdiff_t ow = lo; ow < hi; ow++) r[ow] = xr[ow * sw];
          for (ptrdiff_t ow = hi; ow < OW; ow++) r[ow] = 0;
        }
      }
}

// One body, compiled twice: the fmaf calls become vfmadd (and vectorise across
// ow) under the avx2,fma target. fmaf is exact either way, so both agree.
#define DEPTHWISE_BODY                                                        \
  for (ptrdiff_t c = c0; c < c1; c++) {                                       \
    const float *xc = x + c * H * W;                                          \
    const float *wc = w + c * KH * KW;                                        \
    float b = bias ? bias[c] : 0.0f;                                          \
    for (ptrdiff_t oh = 0; oh < OH; oh++) {                                   \
      float *yr = y + (c * OH + oh) * OW;                                     \
      for (ptrdiff_t ow = 0; ow < OW; ow++) yr[ow] = b;                       \
      for (ptrdiff_t i = 0; i < KH; i++) {                                    \
        ptrdiff_t ih = oh * sh - ph + i * dh;                                 \
        if (ih < 0 || ih >= H) continue;                                      \
        const float *xr = xc + ih * W;                                        \
        for (ptrdiff_t j = 0; j < KW; j++) {                                  \
          float wv = wc[i * KW + j];                                          \
          ptrdiff_t off = j * dw - pw;                                        \
          ptrdiff_t lo = off >= 0 ? 0 : (-off + sw - 1) / sw;                 \
          ptrdiff_t hi = W - off <= 0 ? 0 : (W - off + sw - 1) / sw;          \
          if (hi > OW) hi = OW;                                               \
          const float *xs = xr + off;                                         \
          for (ptrdiff_t ow = lo; ow < hi; ow++)                              \
            yr[ow] = fmaf(wv, xs[ow * sw], yr[ow]);                           \
        }                                                                     \
      }                                                                       \
    }                                                                         \
  }

static void depthwise_scalar(float *y, const float *x, const float *w,
                             const float *bias, ptrdiff_t H, ptrdiff_t W,
                             ptrdiff_t KH, ptrdiff_t KW, ptrdiff_t sh,
                             ptrdiff_t sw, ptrdiff_t ph, ptrdiff_t pw,
                             ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH,
                             ptrdiff_t OW, ptrdiff_t c0, ptrdiff_t c1) {
  DEPTHWISE_BODY
}

__attribute__((target("avx2,fma"))) static void
depthwise_avx2(float *y, const float *x, const float *w, const float *bias,
               ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH, ptrdiff_t KW,
               ptrdiff_t sh, ptrdiff_t sw, ptrdiff_t ph, ptrdiff_t pw,
               ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH, ptrdiff_t OW,
               ptrdiff_t c0, ptrdiff_t c1) {
  DEPTHWISE_BODY
}

void bk_depthwise(int isa, float *y, const float *x, const float *w,
                  const float *bias, ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH,
                  ptrdiff_t KW, ptrdiff_t sh, ptrdiff_t sw, ptrdiff_t ph,
                  ptrdiff_t pw, ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH,
                  ptrdiff_t OW, ptrdiff_t c0, ptrdiff_t c1) {
  if (isa > bk_best_isa()) isa = bk_best_isa();
  if (isa >= BK_ISA_AVX2)
    depthwise_avx2(y, x, w, bias, H, W, KH, KW, sh, sw, ph, pw, dh, dw, OH, OW,
                   c0, c1);
  else
    depthwise_scalar(y, x, w, bias, H, W, KH, KW, sh, sw, ph, pw, dh, dw, OH,
                     OW, c0, c1);
}

static float from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

float bk_expf(float x) {
  if (x != x) return x;
  if (x > 88.72283f) return INFINITY;
  if (x < -103.97208f) return 0.0f;
  // x = n ln2 + r, |r| <= ln2/2; n by the round-to-nearest magic constant.
  float t = x * 1.44269504f + 12582912.0f;
  float n = t - 12582912.0f;
  float r = x - n * 0.693145752f; // ln2 high part: n * hi is exact
  r = r - n * 1.42860677e-06f;     // ln2 low part
  float p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  // Scale by 2^n in two steps so subnormal results stay exact-ish.
  int ni = (int)n;
  int n1 = ni / 2, n2 = ni - n1;
  p = p * from_bits((uint32_t)(n1 + 127) << 23);
  return p * from_bits((uint32_t)(n2 + 127) << 23);
}

static float sigmoid(float x) { return 1.0f / (1.0f + bk_expf(-x)); }

// NaN inputs pass through unchanged (same bits) in every path.
static float sigmoid_act(float x) { return x != x ? x : sigmoid(x); }
static float silu_act(float x) { return x != x ? x : x * sigmoid(x); }

static float hardsigmoid(float x, float alpha, float beta) {
  float v = alpha * x + beta;
  return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
}

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

// Sigmoid (act 2) and SiLU (act 3) over [0, n - n % W); the scalar code
// finishes the tail. Returns how many elements were done.
__attribute__((target("avx512f"))) static ptrdiff_t
act512(float *x, ptrdiff_t n, int act) {
  ptrdiff_t i = 0;
  const __m512 one = _mm512_set1_ps(1.0f);
  for (; i + 16 <= n; i += 16) {
    __m512 v = _mm512_loadu_ps(x + i);
    __m512 e = exp512(_mm512_sub_ps(_mm512_setzero_ps(), v));
    __m512 s = _mm512_div_ps(one, _mm512_add_ps(one, e));
    __m512 y = act == BK_ACT_SILU ? _mm512_mul_ps(v, s) : s;
    y = _mm512_mask_mov_ps(y, _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q), v);
    _mm512_storeu_ps(x + i, y);
  }
  return i;
}

__attribute__((target("avx2,fma"))) static ptrdiff_t
act256(float *x, ptrdiff_t n, int act) {
  ptrdiff_t i = 0;
  const __m256 one = _mm256_set1_ps(1.0f);
  for (; i + 8 <= n; i += 8) {
    __m256 v = _mm256_loadu_ps(x + i);
    __m256 e = exp256(_mm256_sub_ps(_mm256_setzero_ps(), v));
    __m256 s = _mm256_div_ps(one, _mm256_add_ps(one, e));
    __m256 y = act == BK_ACT_SILU ? _mm256_mul_ps(v, s) : s;
    y = _mm256_blendv_ps(y, v, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    _mm256_storeu_ps(x + i, y);
  }
  return i;
}

void bk_activate_isa(int isa, float *x, ptrdiff_t n, int act, float alpha,
                     float beta) {
  if (isa > bk_best_isa()) isa = bk_best_isa();
  ptrdiff_t done = 0;
  if (act == BK_ACT_SIGMOID || act == BK_ACT_SILU) {
    if (isa == BK_ISA_AVX512) done = act512(x, n, act);
    else if (isa == BK_ISA_AVX2) done = act256(x, n, act);
  }
  bk_activate(x + done, n - done, act, alpha, beta);
}

void bk_activate(float *x, ptrdiff_t n, int act, float alpha, float beta) {
  switch (act) {
  case BK_ACT_RELU:
    for (ptrdiff_t i = 0; i < n; i++) x[i] = x[i] < 0.0f ? 0.0f : x[i];
    break;
  case BK_ACT_SIGMOID:
    for (ptrdiff_t i = 0; i < n; i++) x[i] = sigmoid_act(x[i]);
    break;
  case BK_ACT_SILU:
    for (ptrdiff_t i = 0; i < n; i++) x[i] = silu_act(x[i]);
    break;
  case BK_ACT_HARDSIGMOID:
    for (ptrdiff_t i = 0; i < n; i++) x[i] = hardsigmoid(x[i], alpha, beta);
    break;
  case BK_ACT_HARDSWISH:
    for (ptrdiff_t i = 0; i < n; i++)
      x[i] = x[i] * hardsigmoid(x[i], alpha, beta);
    break;
  default:
    break;
  }
}

// Max pooling of channels [c0, c1) of one image, in-bounds taps only; a NaN
// tap wins (propagates). Max is exact, so tap order cannot change results.
#define MAXPOOL_BODY                                                          \
  for (ptrdiff_t c = c0; c < c1; c++) {                                       \
    const float *xc = x + c * H * W;                                          \
    for (ptrdiff_t oh = 0; oh < OH; oh++) {                                   \
      float *yr = y + (c * OH + oh) * OW;                                     \
      for (ptrdiff_t ow = 0; ow < OW; ow++) yr[ow] = -INFINITY;               \
      for (ptrdiff_t i = 0; i < KH; i++) {                                    \
        ptrdiff_t ih = oh * sh - ph + i * dh;                                 \
        if (ih < 0 || ih >= H) continue;                                      \
        const float *xr = xc + ih * W;                                        \
        for (ptrdiff_t j = 0; j < KW; j++) {                                  \
          ptrdiff_t off = j * dw - pw;                                        \
          ptrdiff_t lo = off >= 0 ? 0 : (-off + sw - 1) / sw;                 \
          ptrdiff_t hi = W - off <= 0 ? 0 : (W - off + sw - 1) / sw;          \
          if (hi > OW) hi = OW;                                               \
          const float *xs = xr + off;                                         \
          for (ptrdiff_t ow = lo; ow < hi; ow++) {                            \
            float v = xs[ow * sw];                                            \
            yr[ow] = (v > yr[ow] || v != v) ? v : yr[ow];                     \
          }                                                                   \
        }                                                                     \
      }                                                                       \
    }                                                                         \
  }

static void maxpool_scalar(float *y, const float *x, ptrdiff_t H, ptrdiff_t W,
                           ptrdiff_t KH, ptrdiff_t KW, ptrdiff_t sh,
                           ptrdiff_t sw, ptrdiff_t ph, ptrdiff_t pw,
                           ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH,
                           ptrdiff_t OW, ptrdiff_t c0, ptrdiff_t c1) {
  MAXPOOL_BODY
}

__attribute__((target("avx2,fma"))) static void
maxpool_avx2(float *y, const float *x, ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH,
             ptrdiff_t KW, ptrdiff_t sh, ptrdiff_t sw, ptrdiff_t ph,
             ptrdiff_t pw, ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH,
             ptrdiff_t OW, ptrdiff_t c0, ptrdiff_t c1) {
  MAXPOOL_BODY
}

void bk_maxpool(int isa, float *y, const float *x, ptrdiff_t H, ptrdiff_t W,
                ptrdiff_t KH, ptrdiff_t KW, ptrdiff_t sh, ptrdiff_t sw,
                ptrdiff_t ph, ptrdiff_t pw, ptrdiff_t dh, ptrdiff_t dw,
                ptrdiff_t OH, ptrdiff_t OW, ptrdiff_t c0, ptrdiff_t c1) {
  if (isa > bk_best_isa()) isa = bk_best_isa();
  if (isa >= BK_ISA_AVX2)
    maxpool_avx2(y, x, H, W, KH, KW, sh, sw, ph, pw, dh, dw, OH, OW, c0, c1);
  else
    maxpool_scalar(y, x, H, W, KH, KW, sh, sw, ph, pw, dh, dw, OH, OW, c0, c1);
}

// MARK: Softmax

// One slab [len, inner], columns [i0, i1): max over k (NaN ignored), e = exp(x
// - max), a sum in increasing k, then e / sum. SIMD runs across columns, or,
// when inner == 1, across k for exp and division only; sums stay sequential.
#define SOFTMAX_COLUMNS(V, W, LOAD, STORE, SET1, SUB, ADD, DIV, GT_BLEND, EXP)   \
  for (; i + W <= i1; i += W) {                                               \
    V m = SET1(-INFINITY);                                                    \
    for (ptrdiff_t k = 0; k < len; k++) {                                     \
      V v = LOAD(x + k * inner + i);                                          \
      m = GT_BLEND(v, m);                                                     \
    }                                                                         \
    V s = SET1(0.0f);                                                         \
    for (ptrdiff_t k = 0; k < len; k++) {                                     \
      V e = EXP(SUB(LOAD(x + k * inner + i), m));                             \
      STORE(y + k * inner + i, e);                                            \
      s = ADD(s, e);                                                          \
    }                                                                         \
    for (ptrdiff_t k = 0; k < len; k++)                                       \
      STORE(y + k * inner + i, DIV(LOAD(y + k * inner + i), s));              \
  }

__attribute__((target("avx512f"))) static inline __m512 gt512(__m512 v, __m512 m) {
  return _mm512_mask_mov_ps(m, _mm512_cmp_ps_mask(v, m, _CMP_GT_OQ), v);
}
__attribute__((target("avx2,fma"))) static inline __m256 gt256(__m256 v, __m256 m) {
  return _mm256_blendv_ps(m, v, _mm256_cmp_ps(v, m, _CMP_GT_OQ));
}

static void softmax_scalar_cols(float *y, const float *x, ptrdiff_t len,
                                ptrdiff_t inner, ptrdiff_t i, ptrdiff_t i1) {
  for (; i < i1; i++) {
    float m = -INFINITY;
    for (ptrdiff_t k = 0; k < len; k++)
      if (x[k * inner + i] > m) m = x[k * inner + i];
    float s = 0.0f;
    for (ptrdiff_t k = 0; k < len; k++) {
      float e = bk_expf(x[k * inner + i] - m);
      y[k * inner + i] = e;
      s = s + e;
    }
    for (ptrdiff_t k = 0; k < len; k++) y[k * inner + i] = y[k * inner + i] / s;
  }
}

__attribute__((target("avx512f"))) static void
softmax512(float *y, const float *x, ptrdiff_t len, ptrdiff_t inner,
           ptrdiff_t i0, ptrdiff_t i1) {
  ptrdiff_t i = i0;
  if (inner == 1) {
    float m = -INFINITY;
    for (ptrdiff_t k = 0; k < len; k++) if (x[k] > m) m = x[k];
    ptrdiff_t k = 0;
    for (; k + 16 <= len; k += 16)
      _mm512_storeu_ps(y + k, exp512(_mm512_sub_ps(_mm512_loadu_ps(x + k), _mm512_set1_ps(m))));
    for (; k < len; k++) y[k] = bk_expf(x[k] - m);
    float s = 0.0f;
    for (k = 0; k < len; k++) s = s + y[k];
    for (k = 0; k + 16 <= len; k += 16)
      _mm512_storeu_ps(y + k, _mm512_div_ps(_mm512_loadu_ps(y + k), _mm512_set1_ps(s)));
    for (; k < len; k++) y[k] = y[k] / s;
    return;
  }
  SOFTMAX_COLUMNS(__m512, 16, _mm512_loadu_ps, _mm512_storeu_ps, _mm512_set1_ps,
                  _mm512_sub_ps, _mm512_add_ps, _mm512_div_ps, gt512, exp512)
  softmax_scalar_cols(y, x, len, inner, i, i1);
}

__attribute__((target("avx2,fma"))) static void
softmax256(float *y, const float *x, ptrdiff_t len, ptrdiff_t inner,
           ptrdiff_t i0, ptrdiff_t i1) {
  ptrdiff_t i = i0;
  if (inner == 1) {
    float m = -INFINITY;
    for (ptrdiff_t k = 0; k < len; k++) if (x[k] > m) m = x[k];
    ptrdiff_t k = 0;
    for (; k + 8 <= len; k += 8)
      _mm256_storeu_ps(y + k, exp256(_mm256_sub_ps(_mm256_loadu_ps(x + k), _mm256_set1_ps(m))));
    for (; k < len; k++) y[k] = bk_expf(x[k] - m);
    float s = 0.0f;
    for (k = 0; k < len; k++) s = s + y[k];
    for (k = 0; k + 8 <= len; k += 8)
      _mm256_storeu_ps(y + k, _mm256_div_ps(_mm256_loadu_ps(y + k), _mm256_set1_ps(s)));
    for (; k < len; k++) y[k] = y[k] / s;
    return;
  }
  SOFTMAX_COLUMNS(__m256, 8, _mm256_loadu_ps, _mm256_storeu_ps, _mm256_set1_ps,
                  _mm256_sub_ps, _mm256_add_ps, _mm256_div_ps, gt256, exp256)
  softmax_scalar_cols(y, x, len, inner, i, i1);
}

void bk_softmax(int isa, float *y, const float *x, ptrdiff_t len,
                ptrdiff_t inner, ptrdiff_t i0, ptrdiff_t i1) {
  if (isa > bk_best_isa()) isa = bk_best_isa();
  if (isa == BK_ISA_AVX512)
    softmax512(y, x, len, inner, i0, i1);
  else if (isa == BK_ISA_AVX2)
    softmax256(y, x, len, inner, i0, i1);
  else
    softmax_scalar_cols(y, x, len, inner, i0, i1);
}
