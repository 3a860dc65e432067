// A measure of this core's FMA throughput per instruction set: independent
// FMA chains, enough of them to cover the latency on every x86-64 core we
// know (4 cycles x 2 ports needs 8; 12 leaves room). `bench peak` times it,
// so "share of peak" in the inference benchmark is measured, not assumed.
#include "CKernels.h"
#include "internal.h"

#include <immintrin.h>
#include <math.h>

#define CHAINS 12

__attribute__((target("avx512f"))) static double peak512(long long iters) {
  __m512 acc[CHAINS];
  for (int i = 0; i < CHAINS; i++) acc[i] = _mm512_set1_ps((float)i);
  const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
  for (long long n = 0; n < iters; n++) {
    _Pragma("clang loop unroll(full)") for (int i = 0; i < CHAINS; i++) acc[i] = _mm512_fmadd_ps(acc[i], a, b);
    __asm__ volatile("" : "+v"(acc[0]), "+v"(acc[5]), "+v"(acc[11]));
  }
  __m512 s = acc[0];
  for (int i = 1; i < CHAINS; i++) s = _mm512_add_ps(s, acc[i]);
  return (double)_mm512_reduce_add_ps(s);
}

__attribute__((target("avx2,fma"))) static double peak256(long long iters) {
  __m256 acc[CHAINS];
  for (int i = 0; i < CHAINS; i++) acc[i] = _mm256_set1_ps((float)i);
  const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
  for (long long n = 0; n < iters; n++) {
    _Pragma("clang loop unroll(full)") for (int i = 0; i < CHAINS; i++) acc[i] = _mm256_fmadd_ps(acc[i], a, b);
    __asm__ volatile("" : "+x"(acc[0]), "+x"(acc[5]), "+x"(acc[11]));
  }
  float lanes[8];
  __m256 s = acc[0];
  for (int i = 1; i < CHAINS; i++) s = _mm256_add_ps(s, acc[i]);
  _mm256_storeu_ps(lanes, s);
  double t = 0;
  for (int i = 0; i < 8; i++) t += lanes[i];
  return t;
}

// The portable path's fmaf (a libm call where the build has no FMA).
static double peak_scalar(long long iters) {
  float acc[CHAINS];
  for (int i = 0; i < CHAINS; i++) acc[i] = (float)i;
  for (long long n = 0; n < iters; n++) {
    for (int i = 0; i < CHAINS; i++) acc[i] = fmaf(acc[i], 0.999999f, 1e-7f);
    __asm__ volatile("" : "+x"(acc[0]), "+x"(acc[5]), "+x"(acc[11]));
  }
  double t = 0;
  for (int i = 0; i < CHAINS; i++) t += acc[i];
  return t;
}

long long bk_peak_fma(int isa, long long iters, double *sink) {
  isa = bk_clamp_isa(isa);
  int lanes = isa == BK_ISA_AVX512 ? 16 : isa == BK_ISA_AVX2 ? 8 : 1;
  double s = isa == BK_ISA_AVX512 ? peak512(iters) : isa == BK_ISA_AVX2 ? peak256(iters) : peak_scalar(iters);
  if (sink) *sink = s;
  return iters * CHAINS * lanes * 2;
}
