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

/// Channels [c, c + 16): rows of 16 values transposed, then added in order;
/// the last block's rows are loaded under a mask and only its first
/// `rest` columns added.
__attribute__((target("avx512f"))) static void mean16(float *y, const float *x, ptrdiff_t hw, ptrdiff_t c) {
  __m512 s = _mm512_setzero_ps();
  const float *p = x + c * hw;
  ptrdiff_t i = 0;
  for (; i + 16 <= hw; i += 16) {
    __m512 r[16];
    for (int l = 0; l < 16; l++) r[l] = _mm512_loadu_ps(p + l * hw + i);
    transpose16(r);
    for (int j = 0; j < 16; j++) s = _mm512_add_ps(s, r[j]);
  }
  const int rest = (int)(hw - i);
  if (rest > 0) {
    const __mmask16 m = (__mmask16)((1u << rest) - 1);
    __m512 r[16];
    for (int l = 0; l < 16; l++) r[l] = _mm512_maskz_loadu_ps(m, p + l * hw + i);
    transpose16(r);
    for (int j = 0; j < rest; j++) s = _mm512_add_ps(s, r[j]);
  }
  _mm512_storeu_ps(y + c, _mm512_div_ps(s, _mm512_set1_ps((float)hw)));
}

/// Channels [c, c + 8) the same way, 8x8 blocks; the last block's rows are
/// copied into a zeroed buffer (AVX2's masked load is slow on AMD cores).
__attribute__((target("avx2,fma"))) static void mean8(float *y, const float *x, ptrdiff_t hw, ptrdiff_t c) {
  __m256 s = _mm256_setzero_ps();
  const float *p = x + c * hw;
  ptrdiff_t i = 0;
  for (; i + 8 <= hw; i += 8) {
    __m256 r[8];
    for (int l = 0; l < 8; l++) r[l] = _mm256_loadu_ps(p + l * hw + i);
    transpose8(r);
    for (int j = 0; j < 8; j++) s = _mm256_add_ps(s, r[j]);
  }
  const int rest = (int)(hw - i);
  if (rest > 0) {
    float tail[8][8] = {{0}};
    for (int l = 0; l < 8; l++)
      for (int j = 0; j < rest; j++) tail[l][j] = p[l * hw + i + j];
    __m256 r[8];
    for (int l = 0; l < 8; l++) r[l] = _mm256_loadu_ps(tail[l]);
    transpose8(r);
    for (int j = 0; j < rest; j++) s = _mm256_add_ps(s, r[j]);
  }
  _mm256_storeu_ps(y + c, _mm256_div_ps(s, _mm256_set1_ps((float)hw)));
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
