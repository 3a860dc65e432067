// Implicit im2col panels for AVX-512. The geometry of a 32-column panel —
// which output rows it spans, which input columns each tap reads, which taps
// fall in the padding — is worked out once per call into a small table, so
// each packed row is a few masked loads (masked-off lanes read as 0, exactly
// the zeros bk_im2col writes) and two aligned stores: no division and no
// bounds test per row.
#include "CKernels.h"
#include "internal.h"

#include <immintrin.h>
#include <stdint.h>

// Bitwise OR of two vectors (AVX-512F has it only for integers); runs fill
// disjoint lanes and leave the rest +0.0, so OR merges them exactly.
__attribute__((target("avx512f"), always_inline)) static inline __m512 or512(__m512 a, __m512 b) {
  return _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(a), _mm512_castps_si512(b)));
}

#define PACK_MAX_TAPS 49
#define PACK_MAX_RUNS 4

/// One (tap, run) pair: the offset of lane 0's source in a channel, and the
/// load masks (stride 1: one per 16-lane half; stride 2: one per raw load).
typedef struct {
  ptrdiff_t off;
  __mmask16 m[4];
  int interior;  // every lane valid and the whole span inside the row
} TapRun;

/// Lanes [a, b) of 0..<32 as a bit mask.
static inline uint32_t lane_range(ptrdiff_t a, ptrdiff_t b) {
  if (b <= a) return 0;
  uint64_t hi = b >= 32 ? 0xFFFFFFFFull : ((1ull << b) - 1);
  return (uint32_t)(hi & ~((1ull << a) - 1));
}

/// Spreads the low 16 bits of a lane mask onto even bit positions of 32
/// (lane l -> bit 2l): stride-2 loads read every other float of a span.
static inline uint32_t spread_even(uint32_t v) {
  uint32_t r = 0;
  for (int l = 0; l < 16; l++) r |= ((v >> l) & 1u) << (2 * l);
  return r;
}

__attribute__((target("avx512f"))) int
bk_pack_conv512(float *pack, const float *x, const BKConvGeom *g, ptrdiff_t k0,
                ptrdiff_t kc, ptrdiff_t n0, ptrdiff_t nr) {
  const ptrdiff_t taps = g->KH * g->KW, sw = g->sw;
  if (taps > PACK_MAX_TAPS || (sw != 1 && sw != 2) || nr <= 0 || nr > 32) return 0;
  ptrdiff_t l0s[PACK_MAX_RUNS + 1], ohs[PACK_MAX_RUNS], ows[PACK_MAX_RUNS], runs = 0;
  {
    ptrdiff_t oh = n0 / g->OW, ow = n0 % g->OW;
    for (ptrdiff_t l = 0; l < nr; runs++) {
      if (runs == PACK_MAX_RUNS) return 0;
      ptrdiff_t len = g->OW - ow < nr - l ? g->OW - ow : nr - l;
      l0s[runs] = l; ohs[runs] = oh; ows[runs] = ow;
      l += len; ow = 0; oh++;
    }
    l0s[runs] = nr;
  }
  TapRun tab[PACK_MAX_TAPS * PACK_MAX_RUNS];
  for (ptrdiff_t i = 0; i < g->KH; i++)
    for (ptrdiff_t j = 0; j < g->KW; j++)
      for (ptrdiff_t r = 0; r < runs; r++) {
        TapRun *e = &tab[(i * g->KW + j) * runs + r];
        ptrdiff_t l0 = l0s[r], l1 = l0s[r + 1];
        ptrdiff_t ih = ohs[r] * g->sh - g->ph + i * g->dh;
        ptrdiff_t iw0 = ows[r] * sw - g->pw + j * g->dw;  // input column of lane l0
        e->off = ih * g->W + iw0 - l0 * sw;
        uint32_t lanes = 0;
        if (ih >= 0 && ih < g->H) {
          // Lane l reads column iw0 + (l - l0) * sw; keep those inside the row.
          ptrdiff_t lo = iw0 >= 0 ? 0 : (-iw0 + sw - 1) / sw;
          ptrdiff_t hi = g->W - iw0 <= 0 ? 0 : (g->W - iw0 + sw - 1) / sw;
          if (hi > l1 - l0) hi = l1 - l0;
          lanes = lane_range(l0 + lo, l0 + hi);
        }
        // Unmasked loads read 32 * sw floats from lane 0's column; they are
        // safe (and faster than masked ones) when all of them lie in the row.
        ptrdiff_t first = iw0 - l0 * sw;
        e->interior = runs == 1 && lanes == 0xFFFFFFFFu && first >= 0 && first + 32 * sw <= g->W;
        if (sw == 1) {
          e->m[0] = (__mmask16)lanes;
          e->m[1] = (__mmask16)(lanes >> 16);
          e->m[2] = e->m[3] = 0;
        } else {
          uint32_t lo16 = spread_even(lanes & 0xFFFF), hi16 = spread_even(lanes >> 16);
          e->m[0] = (__mmask16)lo16; e->m[1] = (__mmask16)(lo16 >> 16);
          e->m[2] = (__mmask16)hi16; e->m[3] = (__mmask16)(hi16 >> 16);
        }
      }
  const ptrdiff_t plane = g->H * g->W;
  ptrdiff_t c = k0 / taps, t = k0 % taps;
  // Addresses are formed as integers: masked-off lanes may lie outside x.
  uintptr_t xc = (uintptr_t)(x + c * plane);
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  for (ptrdiff_t k = 0; k < kc; k++) {
    const TapRun *e = tab + t * runs;
    __m512 v0 = _mm512_setzero_ps(), v1 = _mm512_setzero_ps();
    if (e->interior) {
      const float *p = (const float *)(xc + (uintptr_t)e->off * sizeof(float));
      if (sw == 1) {
        v0 = _mm512_loadu_ps(p);
        v1 = _mm512_loadu_ps(p + 16);
      } else {
        v0 = _mm512_permutex2var_ps(_mm512_loadu_ps(p), even, _mm512_loadu_ps(p + 16));
        v1 = _mm512_permutex2var_ps(_mm512_loadu_ps(p + 32), even, _mm512_loadu_ps(p + 48));
      }
    } else
    for (ptrdiff_t r = 0; r < runs; r++) {
      const float *p = (const float *)(xc + (uintptr_t)e[r].off * sizeof(float));
      if (sw == 1) {
        v0 = or512(v0, _mm512_maskz_loadu_ps(e[r].m[0], p));
        v1 = or512(v1, _mm512_maskz_loadu_ps(e[r].m[1], p + 16));
      } else {
        __m512 a = _mm512_permutex2var_ps(_mm512_maskz_loadu_ps(e[r].m[0], p), even,
                                          _mm512_maskz_loadu_ps(e[r].m[1], p + 16));
        __m512 b = _mm512_permutex2var_ps(_mm512_maskz_loadu_ps(e[r].m[2], p + 32), even,
                                          _mm512_maskz_loadu_ps(e[r].m[3], p + 48));
        v0 = or512(v0, a);
        v1 = or512(v1, b);
      }
    }
    _mm512_store_ps(pack + k * 32, v0);
    _mm512_store_ps(pack + k * 32 + 16, v1);
    if (++t == taps) { t = 0; xc += (uintptr_t)plane * sizeof(float); }
  }
  return 1;
}
