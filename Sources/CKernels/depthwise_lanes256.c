// depthwise_lanes.c for AVX2: blocks of 8 channels across the lanes, turned
// pixel-major and back by 8x8 register transposes. Same order per output
// (valid taps in (i, j) order), so the bits equal depthwise_scalar's.
#include "CKernels.h"
#include "internal.h"

#include <immintrin.h>
#include <stdint.h>

#define LANES_MAX_PIXELS 1024
#define LANES_MAX_TAPS 49

/// Transposes an 8x8 block in registers: r[i] element j becomes r[j] element i.
__attribute__((target("avx2,fma"), always_inline)) static inline void transpose8(__m256 r[8]) {
  __m256 t[8], u[8];
  for (int k = 0; k < 4; k++) {
    t[2 * k] = _mm256_unpacklo_ps(r[2 * k], r[2 * k + 1]);
    t[2 * k + 1] = _mm256_unpackhi_ps(r[2 * k], r[2 * k + 1]);
  }
  for (int h = 0; h < 2; h++) {
    u[4 * h] = _mm256_shuffle_ps(t[4 * h], t[4 * h + 2], 0x44);
    u[4 * h + 1] = _mm256_shuffle_ps(t[4 * h], t[4 * h + 2], 0xEE);
    u[4 * h + 2] = _mm256_shuffle_ps(t[4 * h + 1], t[4 * h + 3], 0x44);
    u[4 * h + 3] = _mm256_shuffle_ps(t[4 * h + 1], t[4 * h + 3], 0xEE);
  }
  for (int m = 0; m < 4; m++) {
    r[m] = _mm256_permute2f128_ps(u[m], u[4 + m], 0x20);
    r[m + 4] = _mm256_permute2f128_ps(u[m], u[4 + m], 0x31);
  }
}

/// One block's outputs into yt[p][8]; each output's valid taps a rectangle.
__attribute__((target("avx2,fma"), always_inline)) static inline void
lanes_block256(const ptrdiff_t KH, const ptrdiff_t KW, float *yt, const float *xt, const float *wt, __m256 b,
               ptrdiff_t H, ptrdiff_t W, ptrdiff_t sh, ptrdiff_t sw, ptrdiff_t ph, ptrdiff_t pw,
               ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH, ptrdiff_t OW) {
  for (ptrdiff_t oh = 0; oh < OH; oh++) {
    ptrdiff_t top = oh * sh - ph, i0, i1;
    tap_span(top, dh, KH, H, &i0, &i1);
    for (ptrdiff_t ow = 0; ow < OW; ow++) {
      ptrdiff_t left = ow * sw - pw, j0, j1;
      tap_span(left, dw, KW, W, &j0, &j1);
      __m256 acc = b;
      for (ptrdiff_t i = i0; i < i1; i++) {
        const float *xr = xt + ((top + i * dh) * W + left) * 8;
        for (ptrdiff_t j = j0; j < j1; j++)
          acc = _mm256_fmadd_ps(_mm256_load_ps(wt + (i * KW + j) * 8), _mm256_load_ps(xr + j * dw * 8), acc);
      }
      _mm256_store_ps(yt + (oh * OW + ow) * 8, acc);
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
  if (HW > LANES_MAX_PIXELS || OHW > LANES_MAX_PIXELS || taps > LANES_MAX_TAPS) return c0;
  // Pixel-major input block, then (second half) the block's outputs.
  float xt[2 * LANES_MAX_PIXELS * 8] __attribute__((aligned(32)));
  float wt[LANES_MAX_TAPS * 8] __attribute__((aligned(32)));
  float *yt = xt + LANES_MAX_PIXELS * 8;
  ptrdiff_t c = c0;
  for (; c + 8 <= c1; c += 8) {
    const float *xc = x + c * HW;
    for (ptrdiff_t p0 = 0; p0 < HW; p0 += 8) {
      ptrdiff_t n = HW - p0 < 8 ? HW - p0 : 8;
      __m256i mk = lane_mask(n);
      __m256 r[8];
      for (int l = 0; l < 8; l++) r[l] = _mm256_maskload_ps(xc + l * HW + p0, mk);
      transpose8(r);
      for (ptrdiff_t p = 0; p < n; p++) _mm256_store_ps(xt + (p0 + p) * 8, r[p]);
    }
    for (ptrdiff_t t = 0; t < taps; t++)
      for (int l = 0; l < 8; l++) wt[t * 8 + l] = w[(c + l) * taps + t];
    const __m256 b = bias ? _mm256_loadu_ps(bias + c) : _mm256_setzero_ps();
    if (KH == 3 && KW == 3)
      lanes_block256(3, 3, yt, xt, wt, b, H, W, sh, sw, ph, pw, dh, dw, OH, OW);
    else if (KH == 5 && KW == 5)
      lanes_block256(5, 5, yt, xt, wt, b, H, W, sh, sw, ph, pw, dh, dw, OH, OW);
    else
      lanes_block256(KH, KW, yt, xt, wt, b, H, W, sh, sw, ph, pw, dh, dw, OH, OW);
    float *yc = y + c * OHW;
    for (ptrdiff_t p0 = 0; p0 < OHW; p0 += 8) {
      ptrdiff_t n = OHW - p0 < 8 ? OHW - p0 : 8;
      __m256i mk = lane_mask(n);
      __m256 r[8];
      for (ptrdiff_t p = 0; p < 8; p++) r[p] = p < n ? _mm256_load_ps(yt + (p0 + p) * 8) : _mm256_setzero_ps();
      transpose8(r);
      if (n == 8)
        for (int l = 0; l < 8; l++) _mm256_storeu_ps(yc + l * OHW + p0, r[l]);
      else
        for (int l = 0; l < 8; l++) _mm256_maskstore_ps(yc + l * OHW + p0, mk, r[l]);
    }
  }
  return c;
}
