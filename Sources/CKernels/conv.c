// im2col and softmax (max pooling: maxpool.c; channel means: mean.c).
#include "CKernels.h"
#include "activation.h"
#include "internal.h"

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
  isa = bk_clamp_isa(isa);
  if (isa == BK_ISA_AVX512)
    softmax512(y, x, len, inner, i0, i1);
  else if (isa == BK_ISA_AVX2)
    softmax256(y, x, len, inner, i0, i1);
  else
    softmax_scalar_cols(y, x, len, inner, i0, i1);
}
