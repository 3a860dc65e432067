// conv_direct.c's direct convolution for AVX2 + FMA, for the layers the
// outvec kernel cannot take (8, 24 or 40 output channels; without this they
// ran as GEMM, whose panels for a stem's 27 taps are mostly packing): eight
// output pixels of one row in a vector, eight channels at a time (eight
// accumulators), taps in increasing k and padding taps adding w * 0, so the
// bits equal every other path's.
#include "CKernels.h"
#include "activation.h"
#include "internal.h"

#include <immintrin.h>
#include <stdint.h>

#pragma STDC FP_CONTRACT OFF

#define MB256 8
#define HOIST256 8

/// One tap: the row's eight pixels (sixteen read and the even ones kept at
/// stride 2), plain loads where every lane is inside the row, masked ones at
/// its ends, then MB256 fmas with the weights a[m * K] broadcast.
__attribute__((target("avx2,fma"), always_inline)) static inline void
tap256(ptrdiff_t sw, int rowok, uintptr_t row, ptrdiff_t col0, int whole, __m256i m0, __m256i m1,
       const float *a, ptrdiff_t K, __m256 *acc) {
  __m256 v = _mm256_setzero_ps();
  if (rowok) {
    const float *p = (const float *)(row + (uintptr_t)col0 * sizeof(float));
    if (sw == 1) {
      v = whole ? _mm256_loadu_ps(p) : _mm256_maskload_ps(p, m0);
    } else {
      __m256 lo = whole ? _mm256_loadu_ps(p) : _mm256_maskload_ps(p, m0);
      __m256 hi = whole ? _mm256_loadu_ps(p + 8) : _mm256_maskload_ps(p + 8, m1);
      // [a0 a2 b0 b2 | a4 a6 b4 b6], then the 64-bit pairs in order.
      __m256 t = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
      v = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(t), _MM_SHUFFLE(3, 1, 2, 0)));
    }
  }
  _Pragma("clang loop unroll(full)") for (int m = 0; m < MB256; m++)
    acc[m] = _mm256_fmadd_ps(_mm256_broadcast_ss(a + m * K), v, acc[m]);
}

/// Columns [n0, n1) of all M output channels, MB256 at a time for each
/// segment of a row, so the segment's input rows are read from memory once
/// (a pass per 8 channels over a 640x640 image read it twice: 13 % slower);
/// KWC and SWC are the kernel width and stride when known at compile time
/// (0: g's).
__attribute__((target("avx2,fma"), always_inline)) static inline void
direct256(const int KWC, const int SWC, ptrdiff_t M, ptrdiff_t n0, ptrdiff_t n1, const float *A,
          const float *x, const BKConvGeom *g, float *y, const float *bias, const BKEpilogue *ep) {
  const ptrdiff_t K = g->C * g->KH * g->KW, ldc = g->OH * g->OW, plane = g->H * g->W;
  const ptrdiff_t sw = SWC ? SWC : g->sw, KH = g->KH, KW = KWC ? KWC : g->KW;
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i below = _mm256_set1_epi32(-1), wlimit = _mm256_set1_epi32((int)g->W);
  const int prefetch = g->C * plane > BK_PREFETCH_IMAGE, prefetch_y = M * ldc > BK_PREFETCH_IMAGE;
  for (ptrdiff_t n = n0; n < n1;) {
    const ptrdiff_t oh = n / g->OW, ow = n % g->OW;
    ptrdiff_t len = g->OW - ow < 8 ? g->OW - ow : 8;
    if (len > n1 - n) len = n1 - n;
    // Column masks per kernel column (lanes inside the row), worked out once
    // per segment; a column whose 8 (or 16) reads are all inside loads plainly.
    __m256i m0[HOIST256], m1[HOIST256];
    ptrdiff_t col0[HOIST256], rowoff[HOIST256];
    int whole[HOIST256], rowok[HOIST256];
    for (ptrdiff_t j = 0; j < KW; j++) {
      const ptrdiff_t iw0 = ow * sw - g->pw + j * g->dw;
      const __m256i c0 = _mm256_add_epi32(lane, _mm256_set1_epi32((int)iw0));
      const __m256i c1 = _mm256_add_epi32(c0, _mm256_set1_epi32(8));
      m0[j] = _mm256_and_si256(_mm256_cmpgt_epi32(c0, below), _mm256_cmpgt_epi32(wlimit, c0));
      m1[j] = _mm256_and_si256(_mm256_cmpgt_epi32(c1, below), _mm256_cmpgt_epi32(wlimit, c1));
      col0[j] = iw0;
      whole[j] = iw0 >= 0 && iw0 + 8 * sw <= g->W;
    }
    bk_direct_rows(x, g, oh, prefetch, col0[0], col0[KW - 1] + (len - 1) * sw + 1, rowok, rowoff);
    if (prefetch_y && n + 64 < n1) bk_prefetch_out(y, ldc, M, n + 64, 1);
    for (ptrdiff_t mb = 0; mb < M; mb += MB256) {
      const float *a = A + mb * K;
      float *out = y + mb * ldc + n;
      __m256 acc[MB256];
      _Pragma("clang loop unroll(full)") for (int m = 0; m < MB256; m++)
        acc[m] = _mm256_set1_ps(bias ? bias[mb + m] : 0.0f);
      ptrdiff_t k = 0;
      for (ptrdiff_t c = 0; c < g->C; c++)
        for (ptrdiff_t i = 0; i < KH; i++) {
          // Masked-off lanes are never read: addresses are formed as integers.
          const uintptr_t row = (uintptr_t)(x + c * plane + rowoff[i]);
          if (KWC)
            _Pragma("clang loop unroll(full)") for (int j = 0; j < KWC; j++, k++)
              tap256(sw, rowok[i], row, col0[j], whole[j], m0[j], m1[j], a + k, K, acc);
          else
            for (ptrdiff_t j = 0; j < KW; j++, k++)
              tap256(sw, rowok[i], row, col0[j], whole[j], m0[j], m1[j], a + k, K, acc);
        }
      if (ep && ep->act)
        _Pragma("clang loop unroll(full)") for (int m = 0; m < MB256; m++)
          acc[m] = act256v(acc[m], ep->act, ep->alpha, ep->beta);
      // Plain stores but at a row's end (a masked store is slow on AMD).
      if (len == 8)
        _Pragma("clang loop unroll(full)") for (int m = 0; m < MB256; m++) _mm256_storeu_ps(out + m * ldc, acc[m]);
      else
        _Pragma("clang loop unroll(full)") for (int m = 0; m < MB256; m++)
          _mm256_maskstore_ps(out + m * ldc, lane_mask(len), acc[m]);
    }
    n += len;
  }
}

__attribute__((target("avx2,fma"))) int
bk_conv_direct256(ptrdiff_t M, ptrdiff_t n0, ptrdiff_t n1, const float *A, const float *x,
                  const BKConvGeom *g, float *y, const float *bias, const BKEpilogue *ep) {
  if (!bk_conv_direct256_applies(M, g) || g->KW > HOIST256) return 0;
  if (g->KW == 3 && g->sw == 1) direct256(3, 1, M, n0, n1, A, x, g, y, bias, ep);
  else if (g->KW == 3) direct256(3, 2, M, n0, n1, A, x, g, y, bias, ep);
  else direct256(0, 0, M, n0, n1, A, x, g, y, bias, ep);
  return 1;
}
