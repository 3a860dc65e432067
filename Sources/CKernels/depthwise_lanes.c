// Depthwise convolution on small maps with channels across the lanes.
//
// On a 7x7 or 14x14 map, a vector of neighbouring outputs of one row is
// mostly empty lanes. Here a block of 16 channels is turned pixel-major
// (xt[p][16], gathered once), each output takes its taps with one FMA per
// tap for all 16 channels, and the block is scattered back. A tap's validity
// is the same for every channel, so edge taps are skipped exactly as the
// scalar body skips them; each lane takes its taps in (i, j) order, so the
// bits equal depthwise_scalar's.
#include "CKernels.h"
#include "internal.h"

#include <immintrin.h>
#include <stdint.h>

#define LANES_MAX_PIXELS 1024
#define LANES_MAX_TAPS 49

__attribute__((target("avx512f"))) ptrdiff_t
bk_depthwise_lanes512(float *y, const float *x, const float *w, const float *bias,
                      ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH, ptrdiff_t KW,
                      ptrdiff_t sh, ptrdiff_t sw, ptrdiff_t ph, ptrdiff_t pw,
                      ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH, ptrdiff_t OW,
                      ptrdiff_t c0, ptrdiff_t c1) {
  const ptrdiff_t HW = H * W, OHW = OH * OW, taps = KH * KW;
  if (HW > LANES_MAX_PIXELS || taps > LANES_MAX_TAPS || HW * 16 > (ptrdiff_t)1 << 30 ||
      OHW * 16 > (ptrdiff_t)1 << 30)
    return c0;
  float xt[LANES_MAX_PIXELS * 16] __attribute__((aligned(64)));
  float wt[LANES_MAX_TAPS * 16] __attribute__((aligned(64)));
  const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m512i xstride = _mm512_mullo_epi32(lane, _mm512_set1_epi32((int)HW));
  const __m512i ystride = _mm512_mullo_epi32(lane, _mm512_set1_epi32((int)OHW));
  const __m512i wstride = _mm512_mullo_epi32(lane, _mm512_set1_epi32((int)taps));
  ptrdiff_t c = c0;
  for (; c + 16 <= c1; c += 16) {
    const float *xc = x + c * HW;
    for (ptrdiff_t p = 0; p < HW; p++)
      _mm512_store_ps(xt + p * 16, _mm512_i32gather_ps(_mm512_add_epi32(xstride, _mm512_set1_epi32((int)p)), xc, 4));
    for (ptrdiff_t t = 0; t < taps; t++)
      _mm512_store_ps(wt + t * 16, _mm512_i32gather_ps(_mm512_add_epi32(wstride, _mm512_set1_epi32((int)t)), w + c * taps, 4));
    const __m512 b = bias ? _mm512_loadu_ps(bias + c) : _mm512_setzero_ps();
    float *yc = y + c * OHW;
    for (ptrdiff_t oh = 0; oh < OH; oh++)
      for (ptrdiff_t ow = 0; ow < OW; ow++) {
        __m512 acc = b;
        for (ptrdiff_t i = 0; i < KH; i++) {
          ptrdiff_t ih = oh * sh - ph + i * dh;
          if (ih < 0 || ih >= H) continue;
          for (ptrdiff_t j = 0; j < KW; j++) {
            ptrdiff_t iw = ow * sw - pw + j * dw;
            if (iw < 0 || iw >= W) continue;
            acc = _mm512_fmadd_ps(_mm512_load_ps(wt + (i * KW + j) * 16), _mm512_load_ps(xt + (ih * W + iw) * 16), acc);
          }
        }
        _mm512_i32scatter_ps(yc, _mm512_add_epi32(ystride, _mm512_set1_epi32((int)(oh * OW + ow))), acc, 4);
      }
  }
  return c;
}
