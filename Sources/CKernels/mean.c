// GlobalAveragePool's channel means. Each channel's sum runs in increasing
// order from 0, one add at a time, so every path gives the same bits; the
// SIMD paths put 16 (AVX-512) or 8 (AVX2) channels in the lanes: a block of
// each channel's consecutive values is loaded as a row and transposed in
// registers, so one vector add takes the next value of every channel.
// The scalar loop keeps eight channels side by side (eight independent sums)
// and was latency-bound with scalar adds: 0.65 ms of EfficientNet-B0's 14.
#include "CKernels.h"
#include "internal.h"
#include "transpose.h"

#include <immintrin.h>

#pragma STDC FP_CONTRACT OFF

void bk_channel_mean(float *y, const float *x, ptrdiff_t hw, ptrdiff_t c0,
                     ptrdiff_t c1) {
  ptrdiff_t c = c0;
  // Eight channels side by side: eight independent sequential sums, so the
  // adds overlap instead of waiting on one another (same order per sum).
  for (; c + 8 <= c1; c += 8) {
    float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    const float *p = x + c * hw;
    for (ptrdiff_t i = 0; i < hw; i++)
      for (int l = 0; l < 8; l++) s[l] += p[l * hw + i];
    for (int l = 0; l < 8; l++) y[c + l] = s[l] / (float)hw;
  }
  for (; c < c1; c++) {
    float s = 0;
    const float *p = x + c * hw;
    for (ptrdiff_t i = 0; i < hw; i++) s += p[i];
    y[c] = s / (float)hw;
  }
}

/// The rows of a block of W channels from value i on (W of them, or the
/// `rest` left at the end), transposed and added in order: one body for both
/// widths. TAIL(r, p, hw, i, rest) loads a short last block's rows, zeros
/// past `rest`.
#define MEAN_BODY(V, W, ZERO, LOADU, ADD, DIV, SET1, STORE, TRANSPOSE, TAIL)      \
  V s = ZERO();                                                                  \
  const float *p = x + c * hw;                                                   \
  ptrdiff_t i = 0;                                                               \
  for (; i + W <= hw; i += W) {                                                  \
    V r[W];                                                                      \
    for (int l = 0; l < W; l++) r[l] = LOADU(p + l * hw + i);                    \
    TRANSPOSE(r);                                                                \
    for (int j = 0; j < W; j++) s = ADD(s, r[j]);                                \
  }                                                                              \
  const int rest = (int)(hw - i);                                                \
  if (rest > 0) {                                                                \
    V r[W];                                                                      \
    TAIL(r, p, hw, i, rest);                                                     \
    TRANSPOSE(r);                                                                \
    for (int j = 0; j < rest; j++) s = ADD(s, r[j]);                             \
  }                                                                              \
  STORE(y + c, DIV(s, SET1((float)hw)));

/// A short last block's rows under a lane mask.
__attribute__((target("avx512f"), always_inline)) static inline void
tail16(__m512 r[16], const float *p, ptrdiff_t hw, ptrdiff_t i, int rest) {
  const __mmask16 m = (__mmask16)((1u << rest) - 1);
  for (int l = 0; l < 16; l++) r[l] = _mm512_maskz_loadu_ps(m, p + l * hw + i);
}

/// A short last block's rows through a zeroed buffer (AVX2's masked load is
/// slow on AMD cores).
__attribute__((target("avx2,fma"), always_inline)) static inline void
tail8(__m256 r[8], const float *p, ptrdiff_t hw, ptrdiff_t i, int rest) {
  float t[8][8] = {{0}};
  for (int l = 0; l < 8; l++)
    for (int j = 0; j < rest; j++) t[l][j] = p[l * hw + i + j];
  for (int l = 0; l < 8; l++) r[l] = _mm256_loadu_ps(t[l]);
}

/// Channels [c, c + 16).
__attribute__((target("avx512f"))) static void mean16(float *y, const float *x, ptrdiff_t hw, ptrdiff_t c) {
  MEAN_BODY(__m512, 16, _mm512_setzero_ps, _mm512_loadu_ps, _mm512_add_ps, _mm512_div_ps, _mm512_set1_ps,
            _mm512_storeu_ps, transpose16, tail16)
}

/// Channels [c, c + 8).
__attribute__((target("avx2,fma"))) static void mean8(float *y, const float *x, ptrdiff_t hw, ptrdiff_t c) {
  MEAN_BODY(__m256, 8, _mm256_setzero_ps, _mm256_loadu_ps, _mm256_add_ps, _mm256_div_ps, _mm256_set1_ps,
            _mm256_storeu_ps, transpose8, tail8)
}

void bk_channel_mean_isa(int isa, float *y, const float *x, ptrdiff_t hw, ptrdiff_t c0, ptrdiff_t c1) {
  isa = bk_clamp_isa(isa);
  ptrdiff_t c = c0;
  if (isa == BK_ISA_AVX512)
    for (; c + 16 <= c1; c += 16) mean16(y, x, hw, c);
  if (isa >= BK_ISA_AVX2)
    for (; c + 8 <= c1; c += 8) mean8(y, x, hw, c);
  if (c < c1) bk_channel_mean(y, x, hw, c, c1);
}
