// Depthwise convolution on small maps with channels across the lanes.
//
// On a 7x7 or 14x14 map, a vector of neighbouring outputs of one row is
// mostly empty lanes. Here a block of 16 channels is turned pixel-major
// (xt[p][16], by 16x16 register transposes), each output takes its taps with
// one FMA per tap for all 16 channels, and the block is transposed back. A tap's validity
// is the same for every channel, so edge taps are skipped exactly as the
// scalar body skips them; each lane takes its taps in (i, j) order, so the
// bits equal depthwise_scalar's.
#include "CKernels.h"
#include "internal.h"
#include "transpose.h"

#include <immintrin.h>
#include <stdint.h>

#define LANES_MAX_PIXELS 1024
#define LANES_MAX_TAPS 49
#define LANES_MAX_KW 16  // bk_depthwise sends wider kernels to the scalar body

/// One block's outputs into yt[p][16]. Outputs go in groups of LANES_GROUP
/// along a row, interleaved tap by tap so the FMA chains overlap instead of
/// each output waiting on its own. The group shares the row's valid kernel
/// rows; a kernel column outside the image for one output is a mask that
/// leaves its accumulator untouched (the skip the scalar body makes), so each
/// output still takes exactly its valid taps in (i, j) order. With KH, KW
/// constant (3x3, 5x5) the tap loops unroll.
#define LANES_GROUP 8
#define LANES_MAX_GROUPS (LANES_MAX_PIXELS / LANES_GROUP)

/// One group of outputs ow0... of a row: EDGE masks each tap from live
/// ([j][g]); without it every tap of every output lies inside the row.
__attribute__((target("avx512f"), always_inline)) static inline void
lanes_group(const ptrdiff_t KW, const int EDGE, __m512 *acc, uintptr_t rows, const float *wt,
            const __mmask16 *live, ptrdiff_t i0, ptrdiff_t i1, ptrdiff_t W, ptrdiff_t sw, ptrdiff_t dh,
            ptrdiff_t dw) {
  for (ptrdiff_t i = i0; i < i1; i++) {
    const uintptr_t row = rows + (uintptr_t)(i * dh * W * 16) * sizeof(float);
    for (ptrdiff_t j = 0; j < KW; j++) {
      const __m512 wv = _mm512_load_ps(wt + (i * KW + j) * 16);
      _Pragma("clang loop unroll(full)") for (int g = 0; g < LANES_GROUP; g++) {
        const float *p = (const float *)(row + (uintptr_t)((j * dw + g * sw) * 16) * sizeof(float));
        if (EDGE) {
          const __mmask16 k = live[j * LANES_GROUP + g];
          acc[g] = _mm512_mask3_fmadd_ps(wv, _mm512_maskz_load_ps(k, p), acc[g], k);
        } else {
          acc[g] = _mm512_fmadd_ps(wv, _mm512_load_ps(p), acc[g]);
        }
      }
    }
  }
}

/// The tap masks of every column group (they depend on the columns only), worked
/// out once per call: live[(q * KW + j) * LANES_GROUP + g] for output q * 8 + g,
/// and edge[q] when any tap of group q falls outside its row or past OW.
static void lanes_live(__mmask16 *live, int *edge, ptrdiff_t KW, ptrdiff_t W, ptrdiff_t sw, ptrdiff_t pw,
                       ptrdiff_t dw, ptrdiff_t OW) {
  for (ptrdiff_t q = 0; q * LANES_GROUP < OW; q++) {
    edge[q] = 0;
    for (int g = 0; g < LANES_GROUP; g++) {
      const ptrdiff_t ow = q * LANES_GROUP + g;
      ptrdiff_t j0 = 0, j1 = 0;
      if (ow < OW) tap_span(ow * sw - pw, dw, KW, W, &j0, &j1);
      edge[q] |= j0 != 0 || j1 != KW;
      for (ptrdiff_t j = 0; j < KW; j++) live[(q * KW + j) * LANES_GROUP + g] = j >= j0 && j < j1 ? 0xFFFF : 0;
    }
  }
}

__attribute__((target("avx512f"), always_inline)) static inline void
lanes_block(const ptrdiff_t KH, const ptrdiff_t KW, float *yt, const float *xt, const float *wt, __m512 b,
            const __mmask16 *live, const int *edge, ptrdiff_t H, ptrdiff_t W, ptrdiff_t sh,
            ptrdiff_t sw, ptrdiff_t ph, ptrdiff_t pw, ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t oh0,
            ptrdiff_t oh1, ptrdiff_t OW) {
  for (ptrdiff_t oh = oh0; oh < oh1; oh++) {
    ptrdiff_t top = oh * sh - ph, i0, i1;
    tap_span(top, dh, KH, H, &i0, &i1);
    for (ptrdiff_t q = 0; q * LANES_GROUP < OW; q++) {
      const ptrdiff_t ow0 = q * LANES_GROUP;
      __m512 acc[LANES_GROUP];
      _Pragma("clang loop unroll(full)") for (int g = 0; g < LANES_GROUP; g++) acc[g] = b;
      // Addresses as integers: a masked-off tap's may lie outside xt.
      const uintptr_t rows = (uintptr_t)xt + (uintptr_t)((top * W + ow0 * sw - pw) * 16) * sizeof(float);
      if (edge[q])
        lanes_group(KW, 1, acc, rows, wt, live + q * KW * LANES_GROUP, i0, i1, W, sw, dh, dw);
      else
        lanes_group(KW, 0, acc, rows, wt, live + q * KW * LANES_GROUP, i0, i1, W, sw, dh, dw);
      _Pragma("clang loop unroll(full)") for (int g = 0; g < LANES_GROUP; g++)
        if (ow0 + g < OW) _mm512_store_ps(yt + (oh * OW + ow0 + g) * 16, acc[g]);
    }
  }
}

__attribute__((target("avx512f"))) ptrdiff_t
bk_depthwise_lanes512(float *y, const float *x, const float *w, const float *bias,
                      ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH, ptrdiff_t KW,
                      ptrdiff_t sh, ptrdiff_t sw, ptrdiff_t ph, ptrdiff_t pw,
                      ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH, ptrdiff_t OW,
                      ptrdiff_t c0, ptrdiff_t c1) {
  const ptrdiff_t HW = H * W, OHW = OH * OW, taps = KH * KW;
  const ptrdiff_t band = lanes_band(H, W, KH, sh, dh, OH, OW, LANES_MAX_PIXELS);
  if (band == 0 || taps > LANES_MAX_TAPS || KW > LANES_MAX_KW) return c0;
  __mmask16 live[LANES_MAX_GROUPS * LANES_MAX_KW * LANES_GROUP];
  int edge[LANES_MAX_GROUPS];
  lanes_live(live, edge, KW, W, sw, pw, dw, OW);
  // Pixel-major input rows of one band, then (second half) its outputs.
  float xt[2 * LANES_MAX_PIXELS * 16] __attribute__((aligned(64)));
  float wt[LANES_MAX_TAPS * 16] __attribute__((aligned(64)));
  float *yt = xt + LANES_MAX_PIXELS * 16;
  const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m512i wstride = _mm512_mullo_epi32(lane, _mm512_set1_epi32((int)taps));
  ptrdiff_t c = c0;
  for (; c + 16 <= c1; c += 16) {
    const float *xc = x + c * HW;
    float *yc = y + c * OHW;
    for (ptrdiff_t t = 0; t < taps; t++)
      _mm512_store_ps(wt + t * 16, _mm512_i32gather_ps(_mm512_add_epi32(wstride, _mm512_set1_epi32((int)t)), w + c * taps, 4));
    const __m512 b = bias ? _mm512_loadu_ps(bias + c) : _mm512_setzero_ps();
    for (ptrdiff_t oh0 = 0; oh0 < OH; oh0 += band) {
      const ptrdiff_t oh1 = OH - oh0 < band ? OH : oh0 + band;
      ptrdiff_t r0, r1;
      band_rows(oh0, oh1, H, KH, sh, ph, dh, &r0, &r1);
      // Input pixels [r0 * W, r1 * W) into xt, 16 at a time.
      for (ptrdiff_t p0 = r0 * W; p0 < r1 * W; p0 += 16) {
        ptrdiff_t n = r1 * W - p0 < 16 ? r1 * W - p0 : 16;
        __mmask16 mk = (__mmask16)((1u << n) - 1);
        __m512 r[16];
        for (int l = 0; l < 16; l++) r[l] = _mm512_maskz_loadu_ps(mk, xc + l * HW + p0);
        transpose16(r);
        for (ptrdiff_t p = 0; p < n; p++) _mm512_store_ps(xt + (p0 - r0 * W + p) * 16, r[p]);
      }
      // The block kernel indexes rows and outputs absolutely: shift the
      // buffers' origins (as integers) so row r0 and output row oh0 land first.
      const float *xs = (const float *)((uintptr_t)xt - (uintptr_t)(r0 * W * 16) * sizeof(float));
      float *ys = (float *)((uintptr_t)yt - (uintptr_t)(oh0 * OW * 16) * sizeof(float));
      if (KH == 3 && KW == 3)
        lanes_block(3, 3, ys, xs, wt, b, live, edge, H, W, sh, sw, ph, pw, dh, dw, oh0, oh1, OW);
      else if (KH == 5 && KW == 5)
        lanes_block(5, 5, ys, xs, wt, b, live, edge, H, W, sh, sw, ph, pw, dh, dw, oh0, oh1, OW);
      else
        lanes_block(KH, KW, ys, xs, wt, b, live, edge, H, W, sh, sw, ph, pw, dh, dw, oh0, oh1, OW);
      for (ptrdiff_t p0 = oh0 * OW; p0 < oh1 * OW; p0 += 16) {
        ptrdiff_t n = oh1 * OW - p0 < 16 ? oh1 * OW - p0 : 16;
        __mmask16 mk = (__mmask16)((1u << n) - 1);
        __m512 r[16];
        for (ptrdiff_t p = 0; p < 16; p++) r[p] = p < n ? _mm512_load_ps(ys + (p0 + p) * 16) : _mm512_setzero_ps();
        transpose16(r);
        for (int l = 0; l < 16; l++) _mm512_mask_storeu_ps(yc + l * OHW + p0, mk, r[l]);
      }
    }
  }
  return c;
}
