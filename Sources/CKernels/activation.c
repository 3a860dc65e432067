// exp, sigmoid and the activations, scalar and SIMD (same bits).
#include "CKernels.h"
#include "activation.h"
#include "internal.h"

#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#pragma STDC FP_CONTRACT OFF

static float from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

float bk_expf(float x) {
  if (x != x) return x;
  if (x > 88.72283f) return INFINITY;
  if (x < -103.97208f) return 0.0f;
  // x = n ln2 + r, |r| <= ln2/2; n by the round-to-nearest magic constant.
  float t = x * 1.44269504f + 12582912.0f;
  float n = t - 12582912.0f;
  float r = x - n * 0.693145752f; // ln2 high part: n * hi is exact
  r = r - n * 1.42860677e-06f;     // ln2 low part
  float p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  // Scale by 2^n in two steps so subnormal results stay exact-ish.
  int ni = (int)n;
  int n1 = ni / 2, n2 = ni - n1;
  p = p * from_bits((uint32_t)(n1 + 127) << 23);
  return p * from_bits((uint32_t)(n2 + 127) << 23);
}

// The scalar twin of SIG_BODY (activation.h), operation for operation.
static float sigmoid(float x) {
  float z = 0.0f - x;
  z = z < 87.0f ? z : 87.0f;
  z = z > -87.0f ? z : -87.0f;
  float n = fmaf(z, 1.44269504f, 12582912.0f) - 12582912.0f;
  float r = fmaf(-n, 0.693145752f, z);
  r = fmaf(-n, 1.42860677e-06f, r);
  float p = 1.0f / 5040.0f;
  p = fmaf(p, r, 1.0f / 720.0f);
  p = fmaf(p, r, 1.0f / 120.0f);
  p = fmaf(p, r, 1.0f / 24.0f);
  p = fmaf(p, r, 1.0f / 6.0f);
  p = fmaf(p, r, 0.5f);
  p = fmaf(p, r, 1.0f);
  p = fmaf(p, r, 1.0f);
  float e = p * from_bits((uint32_t)((int)n + 127) << 23);
  return 1.0f / (1.0f + e);
}

// NaN inputs pass through unchanged (same bits) in every path.
static float sigmoid_act(float x) { return x != x ? x : sigmoid(x); }
static float silu_act(float x) { return x != x ? x : x * sigmoid(x); }

static float hardsigmoid(float x, float alpha, float beta) {
  float v = alpha * x + beta;
  return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
}

// Whole vectors through the register activations; the scalar code finishes
// the tail. Each returns how many elements it did.
__attribute__((target("avx512f"))) static ptrdiff_t
act512(float *x, ptrdiff_t n, int act, float alpha, float beta) {
  ptrdiff_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps(x + i, act512v(_mm512_loadu_ps(x + i), act, alpha, beta));
  return i;
}

__attribute__((target("avx2,fma"))) static ptrdiff_t
act256(float *x, ptrdiff_t n, int act, float alpha, float beta) {
  ptrdiff_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(x + i, act256v(_mm256_loadu_ps(x + i), act, alpha, beta));
  return i;
}

void bk_activate_isa(int isa, float *x, ptrdiff_t n, int act, float alpha,
                     float beta) {
  isa = bk_clamp_isa(isa);
  ptrdiff_t done = 0;
  if (act >= BK_ACT_RELU && act <= BK_ACT_HARDSWISH) {
    if (isa == BK_ISA_AVX512) done = act512(x, n, act, alpha, beta);
    else if (isa == BK_ISA_AVX2) done = act256(x, n, act, alpha, beta);
  }
  bk_activate(x + done, n - done, act, alpha, beta);
}

void bk_activate(float *x, ptrdiff_t n, int act, float alpha, float beta) {
  switch (act) {
  case BK_ACT_RELU:
    for (ptrdiff_t i = 0; i < n; i++) x[i] = x[i] < 0.0f ? 0.0f : x[i];
    break;
  case BK_ACT_SIGMOID:
    for (ptrdiff_t i = 0; i < n; i++) x[i] = sigmoid_act(x[i]);
    break;
  case BK_ACT_SILU:
    for (ptrdiff_t i = 0; i < n; i++) x[i] = silu_act(x[i]);
    break;
  case BK_ACT_HARDSIGMOID:
    for (ptrdiff_t i = 0; i < n; i++) x[i] = hardsigmoid(x[i], alpha, beta);
    break;
  case BK_ACT_HARDSWISH:
    for (ptrdiff_t i = 0; i < n; i++)
      x[i] = x[i] * hardsigmoid(x[i], alpha, beta);
    break;
  default:
    break;
  }
}
