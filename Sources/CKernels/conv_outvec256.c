// conv_outvec.c's convolution for AVX2 + FMA: one 16-channel group in two
// vectors by up to 6 pixels of an output row (12 accumulators), weights in
// the same pre-packed layout, the image already padded, the same order of
// fmas and so the same bits.
#include "CKernels.h"
#include "activation.h"
#include "internal.h"
#include "transpose.h"

#include <immintrin.h>
#include <stdint.h>

#pragma STDC FP_CONTRACT OFF


/// Stores lanes [0, n) of v, n <= 6 known at compile time: 4, 2 and 1 lanes
/// at a time.
__attribute__((target("avx2,fma"), always_inline)) static inline void store_first(float *dst, __m256 v, const int n) {
  __m128 lo = _mm256_castps256_ps128(v), hi = _mm256_extractf128_ps(v, 1);
  __m128 part = lo;
  int at = 0;
  if (n >= 4) {
    _mm_storeu_ps(dst, lo);
    part = hi;
    at = 4;
  }
  if (n - at >= 2) {
    _mm_storel_pi((__m64 *)(dst + at), part);
    part = _mm_movehl_ps(part, part);
    at += 2;
  }
  if (n - at == 1) _mm_store_ss(dst + at, part);
}

/// One tap of one input channel: two weight vectors (w) against NP pixels
/// SW apart from xp, 12 fmas at most; pixels from S on (S > 0: a tile that
/// runs on into the next output row) are `jump` floats further.
__attribute__((target("avx2,fma"), always_inline)) static inline void
ov2_tap(const int NP, const int SW, const int S, const float *xp, ptrdiff_t jump, const float *w,
        __m256 acc[2][OV2_MAX_NP]) {
  __m256 a0 = _mm256_loadu_ps(w), a1 = _mm256_loadu_ps(w + 8);
  _Pragma("clang loop unroll(full)") for (int p = 0; p < NP; p++) {
    __m256 b = _mm256_broadcast_ss(xp + p * SW + (S && p >= S ? jump : 0));
    acc[0][p] = _mm256_fmadd_ps(a0, b, acc[0][p]);
    acc[1][p] = _mm256_fmadd_ps(a1, b, acc[1][p]);
  }
}

/// The tile; KT is the tap count when known at compile time (0: g's); S and
/// jump as ov2_tap's.
__attribute__((target("avx2,fma"), always_inline)) static inline void
ov_tile256(const int NP, const int SW, const int KT, const int S, const BKConvGeom *g, const float *wp,
           const ptrdiff_t *toff, const float *xb, ptrdiff_t jump, float *y, ptrdiff_t ldc, const float *bias,
           const BKEpilogue *ep) {
  __m256 acc[2][OV2_MAX_NP];
  __m256 b0 = bias ? _mm256_loadu_ps(bias) : _mm256_setzero_ps();
  __m256 b1 = bias ? _mm256_loadu_ps(bias + 8) : _mm256_setzero_ps();
  _Pragma("clang loop unroll(full)") for (int p = 0; p < NP; p++) {
    acc[0][p] = b0;
    acc[1][p] = b1;
  }
  const ptrdiff_t plane = g->H * g->W;
  const float *w = wp;
  if (KT) {
    // Taps unrolled: with only 12 fmas a tap, the tap loop's counter, branch
    // and pointer bumps took a quarter of a 3x3 layer's time on an Intel
    // Xeon (the integer ops share ports with the 256-bit fmas).
    for (ptrdiff_t c = 0; c < g->C; c++, w += 16 * KT) {
      const float *xc = xb + c * plane;
      _Pragma("clang loop unroll(full)") for (int t = 0; t < KT; t++)
        ov2_tap(NP, SW, S, xc + toff[t], jump, w + 16 * t, acc);
    }
  } else {
    const ptrdiff_t taps = g->KH * g->KW;
    for (ptrdiff_t c = 0; c < g->C; c++) {
      const float *xc = xb + c * plane;
      for (ptrdiff_t t = 0; t < taps; t++, w += 16) ov2_tap(NP, SW, S, xc + toff[t], jump, w, acc);
    }
  }
  // Channels to rows of y: each 8-channel half transposed in registers, then
  // NP pixels stored per channel (plain stores: AVX2's masked store is slow
  // on AMD).
  _Pragma("clang loop unroll(full)") for (int v = 0; v < 2; v++) {
    __m256 r[8];
    _Pragma("clang loop unroll(full)") for (int p = 0; p < 8; p++) {
      r[p] = p < NP ? acc[v][p] : _mm256_setzero_ps();
      if (p < NP && ep && ep->act) r[p] = act256v(r[p], ep->act, ep->alpha, ep->beta);
    }
    transpose8(r);
    _Pragma("clang loop unroll(full)") for (int l = 0; l < 8; l++) store_first(y + (8 * v + l) * ldc, r[l], NP);
  }
}

typedef void (*OVTile256)(const BKConvGeom *, const float *, const ptrdiff_t *, const float *,
                          ptrdiff_t, float *, ptrdiff_t, const float *, const BKEpilogue *);

#define OV2_FNS(NP, SW, S)                                                                        \
  __attribute__((target("avx2,fma"))) static void ov256_##NP##_##SW##_##S(                       \
      const BKConvGeom *g, const float *wp, const ptrdiff_t *toff, const float *xb, ptrdiff_t jump, \
      float *y, ptrdiff_t ldc, const float *bias, const BKEpilogue *ep) {                         \
    const ptrdiff_t taps = g->KH * g->KW;                                                         \
    if (taps == 9) ov_tile256(NP, SW, 9, S, g, wp, toff, xb, jump, y, ldc, bias, ep);             \
    else if (taps == 1) ov_tile256(NP, SW, 1, S, g, wp, toff, xb, jump, y, ldc, bias, ep);        \
    else ov_tile256(NP, SW, 0, S, g, wp, toff, xb, jump, y, ldc, bias, ep);                       \
  }
#define OV2_FN(NP, SW) OV2_FNS(NP, SW, 0)
OV2_FN(1, 1) OV2_FN(2, 1) OV2_FN(3, 1) OV2_FN(4, 1) OV2_FN(5, 1) OV2_FN(6, 1)
OV2_FN(1, 2) OV2_FN(2, 2) OV2_FN(3, 2) OV2_FN(4, 2) OV2_FN(5, 2) OV2_FN(6, 2)
// [SW - 1][NP - 1]
static const OVTile256 ov256_table[2][OV2_MAX_NP] = {
  {ov256_1_1_0, ov256_2_1_0, ov256_3_1_0, ov256_4_1_0, ov256_5_1_0, ov256_6_1_0},
  {ov256_1_2_0, ov256_2_2_0, ov256_3_2_0, ov256_4_2_0, ov256_5_2_0, ov256_6_2_0},
};

// Tiles that run on into the next row after S pixels (rows that do not
// split into whole tiles: 14 = 5 + 5 + 4 and 7 = 4 + 3 left tiles with
// too few accumulators to cover the FMA latency).
#define OV2_SPLITS(SW)                                                                            \
  OV2_FNS(2, SW, 1) OV2_FNS(3, SW, 1) OV2_FNS(3, SW, 2) OV2_FNS(4, SW, 1) OV2_FNS(4, SW, 2)       \
  OV2_FNS(4, SW, 3) OV2_FNS(5, SW, 1) OV2_FNS(5, SW, 2) OV2_FNS(5, SW, 3) OV2_FNS(5, SW, 4)       \
  OV2_FNS(6, SW, 1) OV2_FNS(6, SW, 2) OV2_FNS(6, SW, 3) OV2_FNS(6, SW, 4) OV2_FNS(6, SW, 5)
OV2_SPLITS(1) OV2_SPLITS(2)
#define OV2_SROW(SW)                                                                              \
  {{NULL}, {ov256_2_##SW##_1}, {ov256_3_##SW##_1, ov256_3_##SW##_2},                              \
   {ov256_4_##SW##_1, ov256_4_##SW##_2, ov256_4_##SW##_3},                                        \
   {ov256_5_##SW##_1, ov256_5_##SW##_2, ov256_5_##SW##_3, ov256_5_##SW##_4},                      \
   {ov256_6_##SW##_1, ov256_6_##SW##_2, ov256_6_##SW##_3, ov256_6_##SW##_4, ov256_6_##SW##_5}}
// [SW - 1][NP - 1][S - 1]
static const OVTile256 ov256_split_table[2][OV2_MAX_NP][OV2_MAX_NP - 1] = {OV2_SROW(1), OV2_SROW(2)};

__attribute__((target("avx2,fma"))) void
bk_outvec_tile256_across(ptrdiff_t np, ptrdiff_t split, const BKConvGeom *g, const float *wp,
                         const ptrdiff_t *toff, const float *xb, ptrdiff_t jump, float *y, ptrdiff_t ldc,
                         const float *bias, const BKEpilogue *ep) {
  ov256_split_table[g->sw - 1][np - 1][split - 1](g, wp, toff, xb, jump, y, ldc, bias, ep);
}

__attribute__((target("avx2,fma"))) void
bk_outvec_tile256(ptrdiff_t M, ptrdiff_t m0, ptrdiff_t np, const BKConvGeom *g, const float *wp,
                  ptrdiff_t K, const ptrdiff_t *toff, const float *xb, float *y, ptrdiff_t ldc,
                  const float *bias, const BKEpilogue *ep) {
  (void)M;
  (void)m0;
  (void)K;
  ov256_table[g->sw - 1][np - 1](g, wp, toff, xb, 0, y, ldc, bias, ep);
}
