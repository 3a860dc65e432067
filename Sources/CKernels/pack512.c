// Implicit im2col panels for AVX-512. The geometry of a 32-column panel —
// which output rows it spans, which input columns each tap reads, which taps
// fall in the padding — is worked out once per call into a small table, so
// each packed row is a few masked loads (masked-off lanes read as 0, exactly
// the zeros bk_im2col writes) and two aligned stores: no division and no
// bounds test per row.
#include "CKernels.h"
#include "internal.h"
#include "pack_table.h"

#include <immintrin.h>
#include <stdint.h>

// Bitwise OR of two vectors (AVX-512F has it only for integers); runs fill
// disjoint lanes and leave the rest +0.0, so OR merges them exactly.
__attribute__((target("avx512f"), always_inline)) static inline __m512 or512(__m512 a, __m512 b) {
  return _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(a), _mm512_castps_si512(b)));
}

/// One (tap, run) pair: the offset of lane 0's source in a channel, and the
/// load masks (stride 1: one per 16-lane half; stride 2: one per raw load).
typedef struct {
  ptrdiff_t off;
  __mmask16 m[4];
  int interior;  // every lane valid and the whole span inside the row
} TapRun;

__attribute__((target("avx512f"))) int
bk_pack_conv512(float *pack, const float *x, const BKConvGeom *g, ptrdiff_t k0,
                ptrdiff_t kc, ptrdiff_t n0, ptrdiff_t nr) {
  const ptrdiff_t taps = g->KH * g->KW, sw = g->sw;
  if (taps > PACK_MAX_TAPS || (sw != 1 && sw != 2) || nr <= 0 || nr > 32) return 0;
  const PanelRuns pr = panel_runs(g, n0, nr);
  const ptrdiff_t runs = pr.count;
  if (runs == 0) return 0;
  TapRun tab[PACK_MAX_TAPS * PACK_MAX_RUNS];
  for (ptrdiff_t i = 0; i < g->KH; i++)
    for (ptrdiff_t j = 0; j < g->KW; j++)
      for (ptrdiff_t r = 0; r < runs; r++) {
        TapRun *e = &tab[(i * g->KW + j) * runs + r];
        ptrdiff_t first;
        uint32_t lanes = panel_tap(g, &pr, r, i, j, &e->off, &first);
        // Unmasked loads read 32 * sw floats from lane 0's column; they are
        // safe (and faster than masked ones) when all of them lie in the row.
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
