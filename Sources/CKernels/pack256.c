// Implicit im2col panels for AVX2: pack512.c's scheme for 16-column panels.
// The tap table holds ready lane masks (AVX2 masks are vectors), each packed
// row is a few masked loads (masked lanes read as 0 and never fault) and two
// aligned stores.
#include "CKernels.h"
#include "internal.h"
#include "pack_table.h"

#include <immintrin.h>
#include <stdint.h>

/// One (tap, run) pair: lane 0's source offset in a channel and the masks of
/// its loads (stride 1: lanes 0-7 and 8-15; stride 2: four raw 8-float loads).
typedef struct {
  __m256i m[4];
  ptrdiff_t off;
} TapRun256;

/// The 8 bits of `bits` as an AVX2 lane mask (all ones where a bit is set).
__attribute__((target("avx2,fma"))) static inline __m256i mask8(uint32_t bits) {
  const __m256i sel = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)(bits & 0xFF)), sel), sel);
}

__attribute__((target("avx2,fma"))) int
bk_pack_conv256(float *pack, const float *x, const BKConvGeom *g, ptrdiff_t k0,
                ptrdiff_t kc, ptrdiff_t n0, ptrdiff_t nr) {
  const ptrdiff_t taps = g->KH * g->KW, sw = g->sw;
  if (taps > PACK_MAX_TAPS || (sw != 1 && sw != 2) || nr <= 0 || nr > 16) return 0;
  const PanelRuns pr = panel_runs(g, n0, nr);
  const ptrdiff_t runs = pr.count;
  if (runs == 0) return 0;
  TapRun256 tab[PACK_MAX_TAPS * PACK_MAX_RUNS];
  for (ptrdiff_t i = 0; i < g->KH; i++)
    for (ptrdiff_t j = 0; j < g->KW; j++)
      for (ptrdiff_t r = 0; r < runs; r++) {
        TapRun256 *e = &tab[(i * g->KW + j) * runs + r];
        ptrdiff_t first;
        uint32_t lanes = panel_tap(g, &pr, r, i, j, &e->off, &first);
        (void)first;
        if (sw == 1) {
          e->m[0] = mask8(lanes);
          e->m[1] = mask8(lanes >> 8);
          e->m[2] = e->m[3] = _mm256_setzero_si256();
        } else {
          uint32_t s = spread_even(lanes);
          for (int q = 0; q < 4; q++) e->m[q] = mask8(s >> (8 * q));
        }
      }
  const ptrdiff_t plane = g->H * g->W;
  ptrdiff_t c = k0 / taps, t = k0 % taps;
  // Addresses are formed as integers: masked-off lanes may lie outside x.
  uintptr_t xc = (uintptr_t)(x + c * plane);
  for (ptrdiff_t k = 0; k < kc; k++) {
    const TapRun256 *e = tab + t * runs;
    __m256 v0 = _mm256_setzero_ps(), v1 = _mm256_setzero_ps();
    for (ptrdiff_t r = 0; r < runs; r++) {
      const float *p = (const float *)(xc + (uintptr_t)e[r].off * sizeof(float));
      if (sw == 1) {
        v0 = _mm256_or_ps(v0, _mm256_maskload_ps(p, e[r].m[0]));
        v1 = _mm256_or_ps(v1, _mm256_maskload_ps(p + 8, e[r].m[1]));
      } else {
        // Even floats of two 8-float loads: [a0 a2 b0 b2 | a4 a6 b4 b6], then
        // the middle 64-bit quarters swapped.
        __m256 a = _mm256_shuffle_ps(_mm256_maskload_ps(p, e[r].m[0]), _mm256_maskload_ps(p + 8, e[r].m[1]), 0x88);
        __m256 b = _mm256_shuffle_ps(_mm256_maskload_ps(p + 16, e[r].m[2]), _mm256_maskload_ps(p + 24, e[r].m[3]), 0x88);
        v0 = _mm256_or_ps(v0, _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(a), 0xD8)));
        v1 = _mm256_or_ps(v1, _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(b), 0xD8)));
      }
    }
    _mm256_store_ps(pack + k * 16, v0);
    _mm256_store_ps(pack + k * 16 + 8, v1);
    if (++t == taps) { t = 0; xc += (uintptr_t)plane * sizeof(float); }
  }
  return 1;
}
