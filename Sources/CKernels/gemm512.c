// GEMM for AVX-512: 12x32 register tiles over 32-column packed panels (a
// half-width tile for a last panel of 16 columns or fewer).
#include "CKernels.h"
#include "activation.h"
#include "internal.h"

#include <immintrin.h>
#include <math.h>
#include <stdint.h>

#pragma STDC FP_CONTRACT OFF

// no_builtin keeps short row copies inline instead of memcpy calls.
#define NO_MEMCPY __attribute__((no_builtin("memcpy", "memset")))

// K is blocked by KC and each 32-column panel of B is packed contiguously, so
// the panel stays in L1 while every row block of A passes over it. Blocking
// K only stores and reloads accumulators; each element still takes its fmas
// in increasing k. Element (r, k) of A is at r*rs + k*ks.
#define KC 256
#define MR512 12

__attribute__((target("avx512f"), always_inline)) static inline void
ukr512(const int mr, ptrdiff_t kc, const float *A, const ptrdiff_t rs,
       const ptrdiff_t ks, const float *P, float *C, ptrdiff_t ldc,
       const float *bias, int first, int full, __mmask16 k0, __mmask16 k1,
       const BKEpilogue *ep) {
  __m512 c0[MR512], c1[MR512];
  _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {
    if (first) {
      c0[r] = _mm512_set1_ps(bias ? bias[r] : 0.0f);
      c1[r] = c0[r];
    } else if (full) {
      c0[r] = _mm512_loadu_ps(C + r * ldc);
      c1[r] = _mm512_loadu_ps(C + r * ldc + 16);
    } else {
      c0[r] = _mm512_maskz_loadu_ps(k0, C + r * ldc);
      c1[r] = _mm512_maskz_loadu_ps(k1, C + r * ldc + 16);
    }
  }
  for (ptrdiff_t k = 0; k < kc; k++) {
    __m512 b0 = _mm512_load_ps(P + k * 32);
    __m512 b1 = _mm512_load_ps(P + k * 32 + 16);
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {
      __m512 a = _mm512_set1_ps(A[r * rs + k * ks]);
      c0[r] = _mm512_fmadd_ps(a, b0, c0[r]);
      c1[r] = _mm512_fmadd_ps(a, b1, c1[r]);
    }
  }
  // The activation on the finished accumulators (last K block only).
  if (ep && ep->act)
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {
      c0[r] = act512v(c0[r], ep->act, ep->alpha, ep->beta);
      c1[r] = act512v(c1[r], ep->act, ep->alpha, ep->beta);
    }
  if (full)
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {
      _mm512_storeu_ps(C + r * ldc, c0[r]);
      _mm512_storeu_ps(C + r * ldc + 16, c1[r]);
    }
  else
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {
      _mm512_mask_storeu_ps(C + r * ldc, k0, c0[r]);
      _mm512_mask_storeu_ps(C + r * ldc + 16, k1, c1[r]);
    }
}

// The last panel of a row when it has 16 columns or fewer (N = 196 is six
// panels and 4 columns): one vector per row, so the empty half of the panel
// costs no FMAs. Same order per element as ukr512.
__attribute__((target("avx512f"), always_inline)) static inline void
ukr512h(const int mr, ptrdiff_t kc, const float *A, const ptrdiff_t rs, const float *P, float *C,
        ptrdiff_t ldc, const float *bias, int first, __mmask16 k0, const BKEpilogue *ep) {
  __m512 c0[MR512];
  _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++)
    c0[r] = first ? _mm512_set1_ps(bias ? bias[r] : 0.0f) : _mm512_maskz_loadu_ps(k0, C + r * ldc);
  for (ptrdiff_t k = 0; k < kc; k++) {
    __m512 b0 = _mm512_load_ps(P + k * 32);
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++)
      c0[r] = _mm512_fmadd_ps(_mm512_set1_ps(A[r * rs + k]), b0, c0[r]);
  }
  if (ep && ep->act)
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) c0[r] = act512v(c0[r], ep->act, ep->alpha, ep->beta);
  _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) _mm512_mask_storeu_ps(C + r * ldc, k0, c0[r]);
}

NO_MEMCPY __attribute__((target("avx512f"))) void
bk_gemm512(ptrdiff_t M, ptrdiff_t N, ptrdiff_t K, const float *A, ptrdiff_t lda,
        const BKConvGeom *g, const float *B, ptrdiff_t ldb, float *C,
        ptrdiff_t ldc, const float *bias, ptrdiff_t nbase,
        const BKEpilogue *ep) {
  float pack[KC * 32] __attribute__((aligned(64)));
  const int prefetch = !g && K * ldb > BK_PREFETCH_IMAGE, prefetch_c = M * ldc > BK_PREFETCH_IMAGE;
  for (ptrdiff_t n0 = 0; n0 < N; n0 += 32) {
    ptrdiff_t nr = N - n0 < 32 ? N - n0 : 32;
    const int full = nr == 32;
    __mmask16 k0 = nr >= 16 ? 0xFFFF : (__mmask16)((1u << nr) - 1);
    __mmask16 k1 = nr >= 32 ? 0xFFFF
                   : nr > 16 ? (__mmask16)((1u << (nr - 16)) - 1)
                             : 0;
    ptrdiff_t k0s = 0;
    do {
      ptrdiff_t kc = K - k0s < KC ? K - k0s : KC;
      if (g) {
        if (!bk_pack_conv512(pack, B, g, k0s, kc, nbase + n0, nr))
          bk_pack_conv_rows512(pack, 32, B, g, k0s, kc, nbase + n0, nr);
      }
      else
        for (ptrdiff_t k = 0; k < kc; k++) {
          const float *src = B + (k0s + k) * ldb + n0;
          // Each row of a big B is its own stream: fetch PF_COLS ahead.
          if (prefetch && n0 + PF_COLS < N) {
            __builtin_prefetch(src + PF_COLS, 0, 2);
            __builtin_prefetch(src + PF_COLS + 16, 0, 2);
          }
          _mm512_store_ps(pack + k * 32, _mm512_maskz_loadu_ps(k0, src));
          _mm512_store_ps(pack + k * 32 + 16, _mm512_maskz_loadu_ps(k1, src + 16));
        }
      if (prefetch_c && k0s == 0 && n0 + PF_COLS < N) bk_prefetch_out(C, ldc, M, n0 + PF_COLS, 2);
      int first = k0s == 0;
      const BKEpilogue *last = k0s + kc == K ? ep : NULL;
      for (ptrdiff_t m0 = 0; m0 < M; m0 += MR512) {
        int mr = M - m0 < MR512 ? (int)(M - m0) : MR512;
        float *c = C + m0 * ldc + n0;
        const float *bs = bias ? bias + m0 : NULL;
        const float *a = A + m0 * lda + k0s;
        if (nr <= 16) {
          switch (mr) {
#define CASE(R) case R: ukr512h(R, kc, a, lda, pack, c, ldc, bs, first, k0, last); break;
          CASE(12) CASE(11) CASE(10) CASE(9) CASE(8) CASE(7) CASE(6) CASE(5)
          CASE(4) CASE(3) CASE(2)
          default: ukr512h(1, kc, a, lda, pack, c, ldc, bs, first, k0, last); break;
#undef CASE
          }
          continue;
        }
        switch (mr) {
#define CASE(R) case R: ukr512(R, kc, a, lda, 1, pack, c, ldc, bs, first, full, k0, k1, last); break;
        CASE(12) CASE(11) CASE(10) CASE(9) CASE(8) CASE(7) CASE(6) CASE(5)
        CASE(4) CASE(3) CASE(2)
        default: ukr512(1, kc, a, lda, 1, pack, c, ldc, bs, first, full, k0, k1, last); break;
#undef CASE
        }
      }
      k0s += kc;
    } while (k0s < K);
  }
}
