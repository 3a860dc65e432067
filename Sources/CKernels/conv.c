// im2col, depthwise convolution and activations.
#include "CKernels.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#pragma STDC FP_CONTRACT OFF

void bk_im2col(float *cols, const float *x, ptrdiff_t C, ptrdiff_t H,
               ptrdiff_t W, ptrdiff_t KH, ptrdiff_t KW, ptrdiff_t sh,
               ptrdiff_t sw, ptrdiff_t ph, ptrdiff_t pw, ptrdiff_t dh,
               ptrdiff_t dw, ptrdiff_t OH, ptrdiff_t OW, ptrdiff_t c0,
               ptrdiff_t c1) {
  (void)C;
  ptrdiff_t N = OH * OW;
  for (ptrdiff_t c = c0; c < c1; c++)
    for (ptrdiff_t i = 0; i < KH; i++)
      for (ptrdiff_t j = 0; j < KW; j++) {
        float *row = cols + ((c * KH + i) * KW + j) * N;
        // Valid ow: 0 <= ow*sw - pw + j*dw < W.
        ptrdiff_t off = j * dw - pw;
        ptrdiff_t lo = off >= 0 ? 0 : (-off + sw - 1) / sw;
        ptrdiff_t hi = W - off <= 0 ? 0 : (W - off + sw - 1) / sw;
        if (hi > OW) hi = OW;
        if (lo > hi) lo = hi;
        for (ptrdiff_t oh = 0; oh < OH; oh++) {
          float *r = row + oh * OW;
          ptrdiff_t ih = oh * sh - ph + i * dh;
          if (ih < 0 || ih >= H) {
            memset(r, 0, (size_t)OW * sizeof(float));
            continue;
          }
          const float *xr = x + (c * H + ih) * W + off;
          for (ptrdiff_t ow = 0; ow < lo; ow++) r[ow] = 0;
          if (sw == 1)
            memcpy(r + lo, xr + lo, (size_t)(hi - lo) * sizeof(float));
          else
            for (ptrdiff_t ow = lo; ow < hi; ow++) r[ow] = xr[ow * sw];
          for (ptrdiff_t ow = hi; ow < OW; ow++) r[ow] = 0;
        }
      }
}

// One body, compiled twice: the fmaf calls become vfmadd (and vectorise across
// ow) under the avx2,fma target. fmaf is exact either way, so both agree.
#define DEPTHWISE_BODY                                                        \
  for (ptrdiff_t c = c0; c < c1; c++) {                                       \
    const float *xc = x + c * H * W;                                          \
    const float *wc = w + c * KH * KW;                                        \
    float b = bias ? bias[c] : 0.0f;                                          \
    for (ptrdiff_t oh = 0; oh < OH; oh++) {                                   \
      float *yr = y + (c * OH + oh) * OW;                                     \
      for (ptrdiff_t ow = 0; ow < OW; ow++) yr[ow] = b;                       \
      for (ptrdiff_t i = 0; i < KH; i++) {                                    \
        ptrdiff_t ih = oh * sh - ph + i * dh;                                 \
        if (ih < 0 || ih >= H) continue;                                      \
        const float *xr = xc + ih * W;                                        \
        for (ptrdiff_t j = 0; j < KW; j++) {                                  \
          float wv = wc[i * KW + j];                                          \
          ptrdiff_t off = j * dw - pw;                                        \
          ptrdiff_t lo = off >= 0 ? 0 : (-off + sw - 1) / sw;                 \
          ptrdiff_t hi = W - off <= 0 ? 0 : (W - off + sw - 1) / sw;          \
          if (hi > OW) hi = OW;                                               \
          const float *xs = xr + off;                                         \
          for (ptrdiff_t ow = lo; ow < hi; ow++)                              \
            yr[ow] = fmaf(wv, xs[ow * sw], yr[ow]);                           \
        }                                                                     \
      }                                                                       \
    }                                                                         \
  }

static void depthwise_scalar(float *y, const float *x, const float *w,
                             const float *bias, ptrdiff_t H, ptrdiff_t W,
                             ptrdiff_t KH, ptrdiff_t KW, ptrdiff_t sh,
                             ptrdiff_t sw, ptrdiff_t ph, ptrdiff_t pw,
                             ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH,
                             ptrdiff_t OW, ptrdiff_t c0, ptrdiff_t c1) {
  DEPTHWISE_BODY
}

__attribute__((target("avx2,fma"))) static void
depthwise_avx2(float *y, const float *x, const float *w, const float *bias,
               ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH, ptrdiff_t KW,
               ptrdiff_t sh, ptrdiff_t sw, ptrdiff_t ph, ptrdiff_t pw,
               ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH, ptrdiff_t OW,
               ptrdiff_t c0, ptrdiff_t c1) {
  DEPTHWISE_BODY
}

void bk_depthwise(int isa, float *y, const float *x, const float *w,
                  const float *bias, ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH,
                  ptrdiff_t KW, ptrdiff_t sh, ptrdiff_t sw, ptrdiff_t ph,
                  ptrdiff_t pw, ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH,
                  ptrdiff_t OW, ptrdiff_t c0, ptrdiff_t c1) {
  if (isa > bk_best_isa()) isa = bk_best_isa();
  if (isa >= BK_ISA_AVX2)
    depthwise_avx2(y, x, w, bias, H, W, KH, KW, sh, sw, ph, pw, dh, dw, OH, OW,
                   c0, c1);
  else
    depthwise_scalar(y, x, w, bias, H, W, KH, KW, sh, sw, ph, pw, dh, dw, OH,
                     OW, c0, c1);
}

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

static float sigmoid(float x) { return 1.0f / (1.0f + bk_expf(-x)); }

static float hardsigmoid(float x, float alpha, float beta) {
  float v = alpha * x + beta;
  return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
}

void bk_activate(float *x, ptrdiff_t n, int act, float alpha, float beta) {
  switch (act) {
  case BK_ACT_RELU:
    for (ptrdiff_t i = 0; i < n; i++) x[i] = x[i] < 0.0f ? 0.0f : x[i];
    break;
  case BK_ACT_SIGMOID:
    for (ptrdiff_t i = 0; i < n; i++) x[i] = sigmoid(x[i]);
    break;
  case BK_ACT_SILU:
    for (ptrdiff_t i = 0; i < n; i++) x[i] = x[i] * sigmoid(x[i]);
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
