// GEMM for AVX2 + FMA: 6x16 register tiles over 16-column packed panels.
#include "CKernels.h"
#include "activation.h"
#include "internal.h"

#include <immintrin.h>
#include <math.h>
#include <stdint.h>

#pragma STDC FP_CONTRACT OFF

// no_builtin keeps short row copies inline instead of memcpy calls.
#define NO_MEMCPY __attribute__((no_builtin("memcpy", "memset")))

// K blocks as in gemm512.c.
#define KC 256

#define MR256 6

__attribute__((target("avx2,fma"), always_inline)) static inline void
ukr256(const int mr, ptrdiff_t kc, const float *A, const ptrdiff_t rs,
       const ptrdiff_t ks, const float *P, float *C, ptrdiff_t ldc,
       const float *bias, int first, int full, __m256i k0, __m256i k1,
       const BKEpilogue *ep) {
  __m256 c0[MR256], c1[MR256];
  _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {
    if (first) {
      c0[r] = _mm256_set1_ps(bias ? bias[r] : 0.0f);
      c1[r] = c0[r];
    } else if (full) {
      c0[r] = _mm256_loadu_ps(C + r * ldc);
      c1[r] = _mm256_loadu_ps(C + r * ldc + 8);
    } else {
      c0[r] = _mm256_maskload_ps(C + r * ldc, k0);
      c1[r] = _mm256_maskload_ps(C + r * ldc + 8, k1);
    }
  }
  for (ptrdiff_t k = 0; k < kc; k++) {
    __m256 b0 = _mm256_load_ps(P + k * 16);
    __m256 b1 = _mm256_load_ps(P + k * 16 + 8);
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {
      __m256 a = _mm256_broadcast_ss(A + r * rs + k * ks);
      c0[r] = _mm256_fmadd_ps(a, b0, c0[r]);
      c1[r] = _mm256_fmadd_ps(a, b1, c1[r]);
    }
  }
  if (ep && ep->act)
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {
      c0[r] = act256v(c0[r], ep->act, ep->alpha, ep->beta);
      c1[r] = act256v(c1[r], ep->act, ep->alpha, ep->beta);
    }
  // Masked stores are slow on AMD cores; a full panel stores plainly.
  if (full)
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {
      _mm256_storeu_ps(C + r * ldc, c0[r]);
      _mm256_storeu_ps(C + r * ldc + 8, c1[r]);
    }
  else
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {
      _mm256_maskstore_ps(C + r * ldc, k0, c0[r]);
      _mm256_maskstore_ps(C + r * ldc + 8, k1, c1[r]);
    }
}


NO_MEMCPY __attribute__((target("avx2,fma"))) void
bk_gemm256(ptrdiff_t M, ptrdiff_t N, ptrdiff_t K, const float *A, ptrdiff_t lda,
        const BKConvGeom *g, const float *B, ptrdiff_t ldb, float *C,
        ptrdiff_t ldc, const float *bias, ptrdiff_t nbase,
        const BKEpilogue *ep) {
  float pack[KC * 16] __attribute__((aligned(32)));
  // As bk_gemm512: a big B's rows and C's rows prefetched PF_COLS ahead.
  const int prefetch = !g && K * ldb > BK_PREFETCH_IMAGE, prefetch_c = M * ldc > BK_PREFETCH_IMAGE;
  for (ptrdiff_t n0 = 0; n0 < N; n0 += 16) {
    ptrdiff_t nr = N - n0 < 16 ? N - n0 : 16;
    const int full = nr == 16;
    __m256i k0 = lane_mask(nr >= 8 ? 8 : nr);
    __m256i k1 = lane_mask(nr > 8 ? nr - 8 : 0);
    ptrdiff_t k0s = 0;
    do {
      ptrdiff_t kc = K - k0s < KC ? K - k0s : KC;
      if (g) {
        if (!bk_pack_conv256(pack, B, g, k0s, kc, nbase + n0, nr))
          bk_pack_conv_rows(pack, 16, B, g, k0s, kc, nbase + n0, nr);
      }
      else
        for (ptrdiff_t k = 0; k < kc; k++) {
          const float *src = B + (k0s + k) * ldb + n0;
          if (prefetch && n0 + PF_COLS < N) __builtin_prefetch(src + PF_COLS, 0, 2);
          _mm256_store_ps(pack + k * 16, _mm256_maskload_ps(src, k0));
          _mm256_store_ps(pack + k * 16 + 8, _mm256_maskload_ps(src + 8, k1));
        }
      if (prefetch_c && k0s == 0 && n0 + PF_COLS < N) bk_prefetch_out(C, ldc, M, n0 + PF_COLS, 1);
      int first = k0s == 0;
      const BKEpilogue *last = k0s + kc == K ? ep : NULL;
      for (ptrdiff_t m0 = 0; m0 < M; m0 += MR256) {
        float *c = C + m0 * ldc + n0;
        const float *bs = bias ? bias + m0 : NULL;
        int mr = M - m0 < MR256 ? (int)(M - m0) : MR256;
        const float *a = A + m0 * lda + k0s;
        switch (mr) {
#define CASE(R) case R: ukr256(R, kc, a, lda, 1, pack, c, ldc, bs, first, full, k0, k1, last); break;
        CASE(6) CASE(5) CASE(4) CASE(3) CASE(2)
        default: ukr256(1, kc, a, lda, 1, pack, c, ldc, bs, first, full, k0, k1, last); break;
#undef CASE
        }
      }
      k0s += kc;
    } while (k0s < K);
  }
}
