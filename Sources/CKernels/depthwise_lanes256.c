// depthwise_lanes.c for AVX2: blocks of 8 channels across the lanes, turned
// pixel-major and back by 8x8 register transposes. Same order per output
// (valid taps in (i, j) order), so the bits equal depthwise_scalar's.
#include "CKernels.h"
#include "internal.h"
#include "transpose.h"

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#define LANES_MAX_PIXELS 1024
#define LANES_MAX_TAPS 49
#define LANES_MAX_KW 16
#define LANES_GUARD 16  // pixels

/// One block's outputs into yt[p][8], eight outputs of a row interleaved tap
/// by tap (as depthwise_lanes.c). AVX2 has no mask registers: a kernel
/// column outside the row for one output is a blend that keeps its
/// accumulator (the scalar body's skip); its load reads a real pixel of the
/// block or the guard before it, and the value is dropped. A group whose
/// taps all lie inside the row runs without blends.
#define LANES_GROUP 8
__attribute__((target("avx2,fma"), always_inline)) static inline void
lanes_group256(const ptrdiff_t KH, const ptrdiff_t KW, const int EDGE, __m256 *acc, const float *xt,
               const float *wt, const float *live, ptrdiff_t top, ptrdiff_t left,
               ptrdiff_t i0, ptrdiff_t i1, ptrdiff_t W, ptrdiff_t sw, ptrdiff_t dh, ptrdiff_t dw) {
  for (ptrdiff_t i = i0; i < i1; i++) {
    const float *row = xt + ((top + i * dh) * W + left) * 8;
    for (ptrdiff_t j = 0; j < KW; j++) {
      const __m256 wv = _mm256_load_ps(wt + (i * KW + j) * 8);
      _Pragma("clang loop unroll(full)") for (int g = 0; g < LANES_GROUP; g++) {
        const __m256 f = _mm256_fmadd_ps(wv, _mm256_load_ps(row + (j * dw + g * sw) * 8), acc[g]);
        acc[g] = EDGE ? _mm256_blendv_ps(acc[g], f, _mm256_broadcast_ss(live + j * LANES_GROUP + g)) : f;
      }
    }
  }
}

/// The blend masks of every column group, worked out once per call (they depend
/// on the columns only): live[(q * KW + j) * LANES_GROUP + g] is all ones (as
/// a float's bits) when kernel column j reads inside the row for output
/// q * 8 + g, and edge[q] when any tap of group q does not.
static void lanes_live256(float *live, int *edge, ptrdiff_t KW, ptrdiff_t W, ptrdiff_t sw, ptrdiff_t pw,
                          ptrdiff_t dw, ptrdiff_t OW) {
  const uint32_t ones = 0xFFFFFFFFu, none = 0;
  for (ptrdiff_t q = 0; q * LANES_GROUP < OW; q++) {
    edge[q] = 0;
    for (int g = 0; g < LANES_GROUP; g++) {
      const ptrdiff_t ow = q * LANES_GROUP + g;
      ptrdiff_t j0 = 0, j1 = 0;
      if (ow < OW) tap_span(ow * sw - pw, dw, KW, W, &j0, &j1);
      edge[q] |= j0 != 0 || j1 != KW;
      for (ptrdiff_t j = 0; j < KW; j++)
        memcpy(live + (q * KW + j) * LANES_GROUP + g, j >= j0 && j < j1 ? &ones : &none, sizeof(float));
    }
  }
}

__attribute__((target("avx2,fma"), always_inline)) static inline void
lanes_block256(const ptrdiff_t KH, const ptrdiff_t KW, float *yt, const float *xt, const float *wt, __m256 b,
               const float *live, const int *edge, ptrdiff_t H, ptrdiff_t W, ptrdiff_t sh, ptrdiff_t sw,
               ptrdiff_t ph, ptrdiff_t pw, ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t oh0, ptrdiff_t oh1,
               ptrdiff_t OW) {
  for (ptrdiff_t oh = oh0; oh < oh1; oh++) {
    ptrdiff_t top = oh * sh - ph, i0, i1;
    tap_span(top, dh, KH, H, &i0, &i1);
    for (ptrdiff_t q = 0; q * LANES_GROUP < OW; q++) {
      const ptrdiff_t ow0 = q * LANES_GROUP;
      __m256 acc[LANES_GROUP];
      _Pragma("clang loop unroll(full)") for (int g = 0; g < LANES_GROUP; g++) acc[g] = b;
      const ptrdiff_t left = ow0 * sw - pw;
      const float *lq = live + q * KW * LANES_GROUP;
      if (edge[q])
        lanes_group256(KH, KW, 1, acc, xt, wt, lq, top, left, i0, i1, W, sw, dh, dw);
      else
        lanes_group256(KH, KW, 0, acc, xt, wt, lq, top, left, i0, i1, W, sw, dh, dw);
      _Pragma("clang loop unroll(full)") for (int g = 0; g < LANES_GROUP; g++)
        if (ow0 + g < OW) _mm256_store_ps(yt + (oh * OW + ow0 + g) * 8, acc[g]);
    }
  }
}

__attribute__((target("avx2,fma"))) ptrdiff_t
bk_depthwise_lanes256(float *y, const float *x, const float *w, const float *bias,
                      ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH, ptrdiff_t KW,
                      ptrdiff_t sh, ptrdiff_t sw, ptrdiff_t ph, ptrdiff_t pw,
                      ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH, ptrdiff_t OW,
                      ptrdiff_t c0, ptrdiff_t c1) {
  const ptrdiff_t HW = H * W, OHW = OH * OW, taps = KH * KW;
  const ptrdiff_t band = lanes_band(H, W, KH, sh, dh, OH, OW, LANES_MAX_PIXELS);
  if (band == 0 || taps > LANES_MAX_TAPS || KW > LANES_MAX_KW) return c0;
  // The reads a group's blends drop reach pw pixels before a band and a
  // group's width past a row's end: a guard before it, the outputs' half after.
  if (pw > LANES_GUARD || (LANES_GROUP + KW) * (sw + dw) > LANES_MAX_PIXELS) return c0;
  float live[LANES_MAX_PIXELS / LANES_GROUP * LANES_MAX_KW * LANES_GROUP];
  int edge[LANES_MAX_PIXELS / LANES_GROUP];
  lanes_live256(live, edge, KW, W, sw, pw, dw, OW);
  // Pixel-major input rows of one band, then (second half) its outputs.
  float buf[(LANES_GUARD + 2 * LANES_MAX_PIXELS) * 8] __attribute__((aligned(32)));
  float wt[LANES_MAX_TAPS * 8] __attribute__((aligned(32)));
  float *xt = buf + LANES_GUARD * 8, *yt = xt + LANES_MAX_PIXELS * 8;
  for (ptrdiff_t l = 0; l < LANES_GUARD * 8; l++) buf[l] = 0.0f;
  ptrdiff_t c = c0;
  for (; c + 8 <= c1; c += 8) {
    const float *xc = x + c * HW;
    float *yc = y + c * OHW;
    for (ptrdiff_t t = 0; t < taps; t++)
      for (int l = 0; l < 8; l++) wt[t * 8 + l] = w[(c + l) * taps + t];
    const __m256 b = bias ? _mm256_loadu_ps(bias + c) : _mm256_setzero_ps();
    for (ptrdiff_t oh0 = 0; oh0 < OH; oh0 += band) {
      const ptrdiff_t oh1 = OH - oh0 < band ? OH : oh0 + band;
      ptrdiff_t r0, r1;
      band_rows(oh0, oh1, H, KH, sh, ph, dh, &r0, &r1);
      for (ptrdiff_t p0 = r0 * W; p0 < r1 * W; p0 += 8) {
        ptrdiff_t n = r1 * W - p0 < 8 ? r1 * W - p0 : 8;
        __m256 r[8];
        if (n == 8)
          for (int l = 0; l < 8; l++) r[l] = _mm256_loadu_ps(xc + l * HW + p0);
        else
          for (int l = 0; l < 8; l++) r[l] = _mm256_maskload_ps(xc + l * HW + p0, lane_mask(n));
        transpose8(r);
        for (ptrdiff_t p = 0; p < n; p++) _mm256_store_ps(xt + (p0 - r0 * W + p) * 8, r[p]);
      }
      // Rows and outputs are indexed absolutely: shift the origins (as integers).
      const float *xs = (const float *)((uintptr_t)xt - (uintptr_t)(r0 * W * 8) * sizeof(float));
      float *ys = (float *)((uintptr_t)yt - (uintptr_t)(oh0 * OW * 8) * sizeof(float));
      if (KH == 3 && KW == 3)
        lanes_block256(3, 3, ys, xs, wt, b, live, edge, H, W, sh, sw, ph, pw, dh, dw, oh0, oh1, OW);
      else if (KH == 5 && KW == 5)
        lanes_block256(5, 5, ys, xs, wt, b, live, edge, H, W, sh, sw, ph, pw, dh, dw, oh0, oh1, OW);
      else
        lanes_block256(KH, KW, ys, xs, wt, b, live, edge, H, W, sh, sw, ph, pw, dh, dw, oh0, oh1, OW);
      for (ptrdiff_t p0 = oh0 * OW; p0 < oh1 * OW; p0 += 8) {
        ptrdiff_t n = oh1 * OW - p0 < 8 ? oh1 * OW - p0 : 8;
        __m256 r[8];
        for (ptrdiff_t p = 0; p < 8; p++) r[p] = p < n ? _mm256_load_ps(ys + (p0 + p) * 8) : _mm256_setzero_ps();
        transpose8(r);
        if (n == 8)
          for (int l = 0; l < 8; l++) _mm256_storeu_ps(yc + l * OHW + p0, r[l]);
        else
          for (int l = 0; l < 8; l++) _mm256_maskstore_ps(yc + l * OHW + p0, lane_mask(n), r[l]);
      }
    }
  }
  return c;
}
