// Vector × matrix: scalar reference, AVX2 and AVX-512.
#include "CKernels.h"
#include "activation.h"
#include "internal.h"

#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#pragma STDC FP_CONTRACT OFF

// MARK: Vector × matrix

// y[n] = bias[n] + sum_k x[k] * B[k, n]: one accumulator per output, fmas in
// increasing k, SIMD across n. No packing: every B element is used once, so
// a copy would only add traffic (Linear layers at batch 1, 1x1 convs on a
// 1x1 map with pre-transposed weights).
static void vecmat_scalar(ptrdiff_t N, ptrdiff_t K, const float *x,
                          const float *B, ptrdiff_t ldb, float *y,
                          const float *bias) {
  for (ptrdiff_t n0 = 0; n0 < N; n0 += 16) {
    ptrdiff_t nr = N - n0 < 16 ? N - n0 : 16;
    float acc[16];
    for (ptrdiff_t l = 0; l < nr; l++) acc[l] = bias ? bias[n0 + l] : 0.0f;
    for (ptrdiff_t k = 0; k < K; k++) {
      const float *b = B + k * ldb + n0;
      for (ptrdiff_t l = 0; l < nr; l++) acc[l] = fmaf(x[k], b[l], acc[l]);
    }
    for (ptrdiff_t l = 0; l < nr; l++) y[n0 + l] = acc[l];
  }
}

// 256 columns per pass (16 accumulators): each row of B is read as a 1 KiB
// contiguous run, which the prefetcher follows; narrow passes over a wide B
// touch a new page per row instead.
#define VM512_Q 16
__attribute__((target("avx512f"))) static void
vecmat512(ptrdiff_t N, ptrdiff_t K, const float *x, const float *B,
          ptrdiff_t ldb, float *y, const float *bias) {
  ptrdiff_t n0 = 0;
  for (; n0 + 16 * VM512_Q <= N; n0 += 16 * VM512_Q) {
    __m512 acc[VM512_Q];
    _Pragma("clang loop unroll(full)") for (int q = 0; q < VM512_Q; q++)
      acc[q] = bias ? _mm512_loadu_ps(bias + n0 + 16 * q) : _mm512_setzero_ps();
    for (ptrdiff_t k = 0; k < K; k++) {
      __m512 a = _mm512_set1_ps(x[k]);
      const float *b = B + k * ldb + n0;
      _Pragma("clang loop unroll(full)") for (int q = 0; q < VM512_Q; q++)
        acc[q] = _mm512_fmadd_ps(a, _mm512_loadu_ps(b + 16 * q), acc[q]);
    }
    _Pragma("clang loop unroll(full)") for (int q = 0; q < VM512_Q; q++)
      _mm512_storeu_ps(y + n0 + 16 * q, acc[q]);
  }
  // The rest 64 columns at a time (4 accumulators, masked at the end).
  for (; n0 < N; n0 += 64) {
    __mmask16 m[4];
    __m512 acc[4];
    _Pragma("clang loop unroll(full)") for (int q = 0; q < 4; q++) {
      ptrdiff_t left = N - n0 - 16 * q;
      m[q] = left >= 16 ? 0xFFFF : left > 0 ? (__mmask16)((1u << left) - 1) : 0;
      acc[q] = bias ? _mm512_maskz_loadu_ps(m[q], bias + n0 + 16 * q) : _mm512_setzero_ps();
    }
    for (ptrdiff_t k = 0; k < K; k++) {
      __m512 a = _mm512_set1_ps(x[k]);
      const float *b = B + k * ldb + n0;
      _Pragma("clang loop unroll(full)") for (int q = 0; q < 4; q++)
        acc[q] = _mm512_fmadd_ps(a, _mm512_maskz_loadu_ps(m[q], b + 16 * q), acc[q]);
    }
    _Pragma("clang loop unroll(full)") for (int q = 0; q < 4; q++)
      _mm512_mask_storeu_ps(y + n0 + 16 * q, m[q], acc[q]);
  }
}

// 64 columns per pass (8 accumulators, enough chains to cover the FMA
// latency at two FMAs a cycle) with plain loads; the rest 32 at a time,
// masked. MobileNetV3's 576 -> 1024 Linear: 0.285 ms with only the masked
// 32-column passes.
#define VM256_Q 8
__attribute__((target("avx2,fma"))) static void
vecmat256(ptrdiff_t N, ptrdiff_t K, const float *x, const float *B,
          ptrdiff_t ldb, float *y, const float *bias) {
  ptrdiff_t n0 = 0;
  for (; n0 + 8 * VM256_Q <= N; n0 += 8 * VM256_Q) {
    __m256 acc[VM256_Q];
    _Pragma("clang loop unroll(full)") for (int q = 0; q < VM256_Q; q++)
      acc[q] = bias ? _mm256_loadu_ps(bias + n0 + 8 * q) : _mm256_setzero_ps();
    for (ptrdiff_t k = 0; k < K; k++) {
      __m256 a = _mm256_set1_ps(x[k]);
      const float *b = B + k * ldb + n0;
      _Pragma("clang loop unroll(full)") for (int q = 0; q < VM256_Q; q++)
        acc[q] = _mm256_fmadd_ps(a, _mm256_loadu_ps(b + 8 * q), acc[q]);
    }
    _Pragma("clang loop unroll(full)") for (int q = 0; q < VM256_Q; q++)
      _mm256_storeu_ps(y + n0 + 8 * q, acc[q]);
  }
  for (; n0 < N; n0 += 32) {
    __m256i m[4];
    __m256 acc[4];
    for (int q = 0; q < 4; q++) {
      ptrdiff_t left = N - n0 - 8 * q;
      m[q] = lane_mask(left >= 8 ? 8 : left > 0 ? left : 0);
      acc[q] = bias ? _mm256_maskload_ps(bias + n0 + 8 * q, m[q]) : _mm256_setzero_ps();
    }
    for (ptrdiff_t k = 0; k < K; k++) {
      __m256 a = _mm256_set1_ps(x[k]);
      const float *b = B + k * ldb + n0;
      for (int q = 0; q < 4; q++)
        acc[q] = _mm256_fmadd_ps(a, _mm256_maskload_ps(b + 8 * q, m[q]), acc[q]);
    }
    for (int q = 0; q < 4; q++) _mm256_maskstore_ps(y + n0 + 8 * q, m[q], acc[q]);
  }
}

void bk_vecmat(int isa, ptrdiff_t N, ptrdiff_t K, const float *x,
               const float *B, ptrdiff_t ldb, float *y, const float *bias,
               const BKEpilogue *ep) {
  if (N <= 0) return;
  int best = bk_best_isa();
  if (isa > best) isa = best;
  if (isa == BK_ISA_AVX512)
    vecmat512(N, K, x, B, ldb, y, bias);
  else if (isa == BK_ISA_AVX2)
    vecmat256(N, K, x, B, ldb, y, bias);
  else
    vecmat_scalar(N, K, x, B, ldb, y, bias);
  if (ep && ep->act) bk_activate_isa(isa, y, N, ep->act, ep->alpha, ep->beta);
}
