// GEMM microkernels: AVX-512 (8x32 tiles), AVX2+FMA (6x16 tiles) and a
// scalar fmaf fallback. Every path computes each C[m, n] as one accumulator
// that starts at bias[m] and takes fmas for k = 0, 1, ..., K-1, so the paths
// agree bit for bit (see CKernels.h).
#include "CKernels.h"

#include <cpuid.h>
#include <immintrin.h>
#include <math.h>
#include <stdint.h>

#pragma STDC FP_CONTRACT OFF

static int detect_isa(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return BK_ISA_SCALAR;
  int fma = (c >> 12) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
  if (!(fma && osxsave && avx)) return BK_ISA_SCALAR;
  unsigned lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if ((lo & 6) != 6) return BK_ISA_SCALAR; // OS saves XMM and YMM state
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return BK_ISA_SCALAR;
  if (!((b >> 5) & 1)) return BK_ISA_SCALAR; // AVX2
  if (((b >> 16) & 1) && (lo & 0xe0) == 0xe0) return BK_ISA_AVX512;
  return BK_ISA_AVX2;
}

int bk_best_isa(void) {
  static int cached = -1;
  int v = __atomic_load_n(&cached, __ATOMIC_RELAXED);
  if (v < 0) {
    v = detect_isa();
    __atomic_store_n(&cached, v, __ATOMIC_RELAXED);
  }
  return v;
}

void bk_gemm_naive(ptrdiff_t M, ptrdiff_t N, ptrdiff_t K, const float *A,
                   ptrdiff_t lda, const float *B, ptrdiff_t ldb, float *C,
                   ptrdiff_t ldc, const float *bias) {
  for (ptrdiff_t m = 0; m < M; m++)
    for (ptrdiff_t n = 0; n < N; n++) {
      float acc = bias ? bias[m] : 0.0f;
      for (ptrdiff_t k = 0; k < K; k++)
        acc = fmaf(A[m * lda + k], B[k * ldb + n], acc);
      C[m * ldc + n] = acc;
    }
}

// Same order per element as the naive loop; rows of C act as accumulators.
static void gemm_scalar(ptrdiff_t M, ptrdiff_t N, ptrdiff_t K, const float *A,
                        ptrdiff_t lda, const float *B, ptrdiff_t ldb, float *C,
                        ptrdiff_t ldc, const float *bias) {
  for (ptrdiff_t m = 0; m < M; m++) {
    float *c = C + m * ldc;
    float b = bias ? bias[m] : 0.0f;
    for (ptrdiff_t n = 0; n < N; n++) c[n] = b;
    for (ptrdiff_t k = 0; k < K; k++) {
      float a = A[m * lda + k];
      const float *bk = B + k * ldb;
      for (ptrdiff_t n = 0; n < N; n++) c[n] = fmaf(a, bk[n], c[n]);
    }
  }
}

// MARK: AVX-512

__attribute__((target("avx512f"), always_inline)) static inline void
ukr512(const int mr, ptrdiff_t K, const float *A, ptrdiff_t lda,
       const float *B, ptrdiff_t ldb, float *C, ptrdiff_t ldc,
       const float *bias, __mmask16 k0, __mmask16 k1) {
  __m512 c0[8], c1[8];
  for (int r = 0; r < mr; r++) {
    c0[r] = _mm512_set1_ps(bias ? bias[r] : 0.0f);
    c1[r] = c0[r];
  }
  for (ptrdiff_t k = 0; k < K; k++) {
    __m512 b0 = _mm512_maskz_loadu_ps(k0, B + k * ldb);
    __m512 b1 = _mm512_maskz_loadu_ps(k1, B + k * ldb + 16);
    for (int r = 0; r < mr; r++) {
      __m512 a = _mm512_set1_ps(A[r * lda + k]);
      c0[r] = _mm512_fmadd_ps(a, b0, c0[r]);
      c1[r] = _mm512_fmadd_ps(a, b1, c1[r]);
    }
  }
  for (int r = 0; r < mr; r++) {
    _mm512_mask_storeu_ps(C + r * ldc, k0, c0[r]);
    _mm512_mask_storeu_ps(C + r * ldc + 16, k1, c1[r]);
  }
}

__attribute__((target("avx512f"))) static void
gemm512(ptrdiff_t M, ptrdiff_t N, ptrdiff_t K, const float *A, ptrdiff_t lda,
        const float *B, ptrdiff_t ldb, float *C, ptrdiff_t ldc,
        const float *bias) {
  for (ptrdiff_t n0 = 0; n0 < N; n0 += 32) {
    ptrdiff_t nr = N - n0 < 32 ? N - n0 : 32;
    __mmask16 k0 = nr >= 16 ? 0xFFFF : (__mmask16)((1u << nr) - 1);
    __mmask16 k1 = nr >= 32 ? 0xFFFF
                   : nr > 16 ? (__mmask16)((1u << (nr - 16)) - 1)
                             : 0;
    for (ptrdiff_t m0 = 0; m0 < M; m0 += 8) {
      const float *a = A + m0 * lda;
      const float *b = B + n0;
      float *c = C + m0 * ldc + n0;
      const float *bs = bias ? bias + m0 : NULL;
      switch (M - m0 < 8 ? (int)(M - m0) : 8) {
      case 8: ukr512(8, K, a, lda, b, ldb, c, ldc, bs, k0, k1); break;
      case 7: ukr512(7, K, a, lda, b, ldb, c, ldc, bs, k0, k1); break;
      case 6: ukr512(6, K, a, lda, b, ldb, c, ldc, bs, k0, k1); break;
      case 5: ukr512(5, K, a, lda, b, ldb, c, ldc, bs, k0, k1); break;
      case 4: ukr512(4, K, a, lda, b, ldb, c, ldc, bs, k0, k1); break;
      case 3: ukr512(3, K, a, lda, b, ldb, c, ldc, bs, k0, k1); break;
      case 2: ukr512(2, K, a, lda, b, ldb, c, ldc, bs, k0, k1); break;
      default: ukr512(1, K, a, lda, b, ldb, c, ldc, bs, k0, k1); break;
      }
    }
  }
}

// MARK: AVX2 + FMA

__attribute__((target("avx2,fma"), always_inline)) static inline void
ukr256(const int mr, ptrdiff_t K, const float *A, ptrdiff_t lda,
       const float *B, ptrdiff_t ldb, float *C, ptrdiff_t ldc,
       const float *bias, __m256i k0, __m256i k1) {
  __m256 c0[6], c1[6];
  for (int r = 0; r < mr; r++) {
    c0[r] = _mm256_set1_ps(bias ? bias[r] : 0.0f);
    c1[r] = c0[r];
  }
  for (ptrdiff_t k = 0; k < K; k++) {
    __m256 b0 = _mm256_maskload_ps(B + k * ldb, k0);
    __m256 b1 = _mm256_maskload_ps(B + k * ldb + 8, k1);
    for (int r = 0; r < mr; r++) {
      __m256 a = _mm256_broadcast_ss(A + r * lda + k);
      c0[r] = _mm256_fmadd_ps(a, b0, c0[r]);
      c1[r] = _mm256_fmadd_ps(a, b1, c1[r]);
    }
  }
  for (int r = 0; r < mr; r++) {
    _mm256_maskstore_ps(C + r * ldc, k0, c0[r]);
    _mm256_maskstore_ps(C + r * ldc + 8, k1, c1[r]);
  }
}

__attribute__((target("avx2,fma"))) static __m256i lane_mask(ptrdiff_t n) {
  __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), idx);
}

__attribute__((target("avx2,fma"))) static void
gemm256(ptrdiff_t M, ptrdiff_t N, ptrdiff_t K, const float *A, ptrdiff_t lda,
        const float *B, ptrdiff_t ldb, float *C, ptrdiff_t ldc,
        const float *bias) {
  for (ptrdiff_t n0 = 0; n0 < N; n0 += 16) {
    ptrdiff_t nr = N - n0 < 16 ? N - n0 : 16;
    __m256i k0 = lane_mask(nr >= 8 ? 8 : nr);
    __m256i k1 = lane_mask(nr > 8 ? nr - 8 : 0);
    for (ptrdiff_t m0 = 0; m0 < M; m0 += 6) {
      const float *a = A + m0 * lda;
      const float *b = B + n0;
      float *c = C + m0 * ldc + n0;
      const float *bs = bias ? bias + m0 : NULL;
      switch (M - m0 < 6 ? (int)(M - m0) : 6) {
      case 6: ukr256(6, K, a, lda, b, ldb, c, ldc, bs, k0, k1); break;
      case 5: ukr256(5, K, a, lda, b, ldb, c, ldc, bs, k0, k1); break;
      case 4: ukr256(4, K, a, lda, b, ldb, c, ldc, bs, k0, k1); break;
      case 3: ukr256(3, K, a, lda, b, ldb, c, ldc, bs, k0, k1); break;
      case 2: ukr256(2, K, a, lda, b, ldb, c, ldc, bs, k0, k1); break;
      default: ukr256(1, K, a, lda, b, ldb, c, ldc, bs, k0, k1); break;
      }
    }
  }
}

void bk_gemm(int isa, ptrdiff_t M, ptrdiff_t N, ptrdiff_t K, const float *A,
             ptrdiff_t lda, const float *B, ptrdiff_t ldb, float *C,
             ptrdiff_t ldc, const float *bias) {
  if (M <= 0 || N <= 0) return;
  int best = bk_best_isa();
  if (isa > best) isa = best;
  if (isa == BK_ISA_AVX512)
    gemm512(M, N, K, A, lda, B, ldb, C, ldc, bias);
  else if (isa == BK_ISA_AVX2)
    gemm256(M, N, K, A, lda, B, ldb, C, ldc, bias);
  else
    gemm_scalar(M, N, K, A, lda, B, ldb, C, ldc, bias);
}
