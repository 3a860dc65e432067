// im2col, depthwise convolution and activations.
#include "CKernels.h"
#include "activation.h"

#include <immintrin.h>
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

// AVX2: eight neighbouring outputs of one row per vector. Each lane is its own
// accumulator taking the taps in (i, j) order, exactly as the scalar loop; a
// tap that falls outside the row for some lanes is computed and then blended
// away for those lanes, so "skip" semantics (and -0, Inf, NaN) are kept.
// Column masks and gather indices depend only on (block, j): computed once per
// block, reused for every output row and kernel row. Kernels wider than
// DW_MAX_KW take the scalar body.
#define DW_MAX_KW 16
__attribute__((target("avx2,fma"))) static void
depthwise_avx2(float *y, const float *x, const float *w, const float *bias,
               ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH, ptrdiff_t KW,
               ptrdiff_t sh, ptrdiff_t sw, ptrdiff_t ph, ptrdiff_t pw,
               ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH, ptrdiff_t OW,
               ptrdiff_t c0, ptrdiff_t c1) {
  if (KW > DW_MAX_KW || W > (ptrdiff_t)1 << 28 || OW * sw > (ptrdiff_t)1 << 28) {
    DEPTHWISE_BODY
    return;
  }
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i wlimit = _mm256_set1_epi32((int)W);
  __m256i mask[DW_MAX_KW], index[DW_MAX_KW], pair[DW_MAX_KW][2];
  int full[DW_MAX_KW];
  for (ptrdiff_t ow0 = 0; ow0 < OW; ow0 += 8) {
    ptrdiff_t nv = OW - ow0 < 8 ? OW - ow0 : 8;
    __m256i tail = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)nv), lane);
    for (ptrdiff_t j = 0; j < KW; j++) {
      // input column of lane l: (ow0 + l) * sw + j * dw - pw
      __m256i col = _mm256_add_epi32(
          _mm256_mullo_epi32(_mm256_add_epi32(lane, _mm256_set1_epi32((int)ow0)),
                             _mm256_set1_epi32((int)sw)),
          _mm256_set1_epi32((int)(j * dw - pw)));
      __m256i ok = _mm256_and_si256(
          _mm256_cmpgt_epi32(col, _mm256_set1_epi32(-1)),
          _mm256_cmpgt_epi32(wlimit, col));
      ok = _mm256_and_si256(ok, tail);
      mask[j] = ok;
      index[j] = col;
      if (sw == 2) {
        // the 16 consecutive inputs from column 2*ow0 + j*dw - pw, in two
        // halves; the even ones are this block's taps
        for (int h = 0; h < 2; h++) {
          __m256i e = _mm256_add_epi32(
              lane, _mm256_set1_epi32((int)(2 * ow0 + j * dw - pw + 8 * h)));
          pair[j][h] = _mm256_and_si256(_mm256_cmpgt_epi32(e, _mm256_set1_epi32(-1)),
                                        _mm256_cmpgt_epi32(wlimit, e));
        }
      }
      full[j] = _mm256_movemask_ps(_mm256_castsi256_ps(ok)) == 0xff && sw == 1;
    }
    for (ptrdiff_t c = c0; c < c1; c++) {
      const float *xc = x + c * H * W;
      const float *wc = w + c * KH * KW;
      __m256 b = _mm256_set1_ps(bias ? bias[c] : 0.0f);
      for (ptrdiff_t oh = 0; oh < OH; oh++) {
        __m256 acc = b;
        for (ptrdiff_t i = 0; i < KH; i++) {
          ptrdiff_t ih = oh * sh - ph + i * dh;
          if (ih < 0 || ih >= H) continue;
          const float *xr = xc + ih * W;
          for (ptrdiff_t j = 0; j < KW; j++) {
            __m256 wv = _mm256_set1_ps(wc[i * KW + j]);
            if (full[j]) {
              // every lane in bounds: a plain load, no blend needed
              acc = _mm256_fmadd_ps(wv, _mm256_loadu_ps(xr + ow0 + j * dw - pw), acc);
              continue;
            }
            __m256 v;
            if (sw == 1) {
              // Masked-off lanes are never read (no fault), so the address may
              // lie before the row; it is formed as an integer for that reason.
              const float *p = (const float *)((uintptr_t)xr +
                                               (uintptr_t)(ow0 + j * dw - pw) * sizeof(float));
              v = _mm256_maskload_ps(p, mask[j]);
            } else if (sw == 2) {
              const float *p = (const float *)((uintptr_t)xr +
                                               (uintptr_t)(2 * ow0 + j * dw - pw) * sizeof(float));
              __m256 a = _mm256_maskload_ps(p, pair[j][0]);
              __m256 e = _mm256_maskload_ps(p + 8, pair[j][1]);
              // [a0 a2 e0 e2 | a4 a6 e4 e6] -> [a0 a2 a4 a6 e0 e2 e4 e6]
              __m256 s2 = _mm256_shuffle_ps(a, e, _MM_SHUFFLE(2, 0, 2, 0));
              v = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(s2), 0xD8));
            } else {
              v = _mm256_mask_i32gather_ps(_mm256_setzero_ps(), xr, index[j],
                                           _mm256_castsi256_ps(mask[j]), 4);
            }
            acc = _mm256_blendv_ps(acc, _mm256_fmadd_ps(wv, v, acc),
                                   _mm256_castsi256_ps(mask[j]));
          }
        }
        float *yr = y + (c * OH + oh) * OW + ow0;
        if (nv == 8)
          _mm256_storeu_ps(yr, acc);
        else
          _mm256_maskstore_ps(yr, tail, acc);
      }
    }
  }
}

// AVX-512: sixteen neighbouring outputs per vector and DW_ROWS output rows
// at a time (one weight broadcast serves them all). Masked FMAs leave lanes
// whose tap is outside the row untouched, which is the scalar loop's skip.
// Each lane still takes its taps in (i, j) order.
#define DW_ROWS 4
// One 16-wide column block of every channel in [c0, c1). Inlined per stride
// (1, 2, other), so the load choice is not a branch in the tap loop. A row
// outside the image gets an all-zero mask: its taps leave the accumulators
// unchanged, as the scalar loop's skip does.
__attribute__((target("avx512f"), always_inline)) static inline void
dw512_block(float *y, const float *x, const float *w, const float *bias,
            ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH, ptrdiff_t KW, ptrdiff_t sw,
            ptrdiff_t sh, ptrdiff_t ph, ptrdiff_t pw, ptrdiff_t dh,
            ptrdiff_t dw, ptrdiff_t OH, ptrdiff_t OW, ptrdiff_t c0,
            ptrdiff_t c1, ptrdiff_t ow0, __mmask16 tail, const __mmask16 *mask,
            __mmask16 (*pair)[2], const __m512i *index) {
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  for (ptrdiff_t c = c0; c < c1; c++) {
    const float *xc = x + c * H * W;
    const float *wc = w + c * KH * KW;
    __m512 b = _mm512_set1_ps(bias ? bias[c] : 0.0f);
    for (ptrdiff_t oh0 = 0; oh0 < OH; oh0 += DW_ROWS) {
      ptrdiff_t nr = OH - oh0 < DW_ROWS ? OH - oh0 : DW_ROWS;
      __m512 acc[DW_ROWS];
      for (int r = 0; r < DW_ROWS; r++) acc[r] = b;
      for (ptrdiff_t i = 0; i < KH; i++) {
        uintptr_t rows[DW_ROWS];
        __mmask16 live[DW_ROWS];
        for (int r = 0; r < DW_ROWS; r++) {
          ptrdiff_t ih = (oh0 + r) * sh - ph + i * dh;
          int ok = r < nr && ih >= 0 && ih < H;
          rows[r] = (uintptr_t)(xc + (ok ? ih : 0) * W);
          live[r] = ok ? 0xFFFF : 0;
        }
        for (ptrdiff_t j = 0; j < KW; j++) {
          __m512 wv = _mm512_set1_ps(wc[i * KW + j]);
          // Masked-off lanes are never read (no fault), so the start may lie
          // before the row; it is formed as an integer for that reason.
          uintptr_t off = (uintptr_t)(ow0 * sw + j * dw - pw) * sizeof(float);
          _Pragma("clang loop unroll(full)") for (int r = 0; r < DW_ROWS; r++) {
            __mmask16 m = mask[j] & live[r];
            const float *p = (const float *)(rows[r] + off);
            __m512 v;
            if (sw == 1) {
              v = _mm512_maskz_loadu_ps(m, p);
            } else if (sw == 2) {
              v = _mm512_permutex2var_ps(_mm512_maskz_loadu_ps(pair[j][0] & live[r], p), even,
                                         _mm512_maskz_loadu_ps(pair[j][1] & live[r], p + 16));
            } else {
              v = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), m, index[j], (const float *)rows[r], 4);
            }
            acc[r] = _mm512_mask3_fmadd_ps(wv, v, acc[r], m);
          }
        }
      }
      for (ptrdiff_t r = 0; r < nr; r++)
        _mm512_mask_storeu_ps(y + (c * OH + oh0 + r) * OW + ow0, tail, acc[r]);
    }
  }
}

__attribute__((target("avx512f"))) static void
depthwise512(float *y, const float *x, const float *w, const float *bias,
             ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH, ptrdiff_t KW,
             ptrdiff_t sh, ptrdiff_t sw, ptrdiff_t ph, ptrdiff_t pw,
             ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH, ptrdiff_t OW,
             ptrdiff_t c0, ptrdiff_t c1) {
  if (KW > DW_MAX_KW || W > (ptrdiff_t)1 << 28 || OW * sw > (ptrdiff_t)1 << 28) {
    DEPTHWISE_BODY
    return;
  }
  const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m512i wlimit = _mm512_set1_epi32((int)W), zero = _mm512_setzero_si512();
  __mmask16 mask[DW_MAX_KW], pair[DW_MAX_KW][2];
  __m512i index[DW_MAX_KW];
  for (ptrdiff_t ow0 = 0; ow0 < OW; ow0 += 16) {
    ptrdiff_t nv = OW - ow0 < 16 ? OW - ow0 : 16;
    __mmask16 tail = (__mmask16)((1u << nv) - 1);
    for (ptrdiff_t j = 0; j < KW; j++) {
      __m512i col = _mm512_add_epi32(
          _mm512_mullo_epi32(_mm512_add_epi32(lane, _mm512_set1_epi32((int)ow0)),
                             _mm512_set1_epi32((int)sw)),
          _mm512_set1_epi32((int)(j * dw - pw)));
      index[j] = col;
      mask[j] = _mm512_mask_cmplt_epi32_mask(_mm512_cmpge_epi32_mask(col, zero), col, wlimit) & tail;
      if (sw == 2)
        for (int h = 0; h < 2; h++) {
          __m512i e = _mm512_add_epi32(lane, _mm512_set1_epi32((int)(2 * ow0 + j * dw - pw + 16 * h)));
          pair[j][h] = _mm512_mask_cmplt_epi32_mask(_mm512_cmpge_epi32_mask(e, zero), e, wlimit);
        }
    }
    if (sw == 1)
      dw512_block(y, x, w, bias, H, W, KH, KW, 1, sh, ph, pw, dh, dw, OH, OW, c0, c1, ow0, tail, mask, pair, index);
    else if (sw == 2)
      dw512_block(y, x, w, bias, H, W, KH, KW, 2, sh, ph, pw, dh, dw, OH, OW, c0, c1, ow0, tail, mask, pair, index);
    else
      dw512_block(y, x, w, bias, H, W, KH, KW, sw, sh, ph, pw, dh, dw, OH, OW, c0, c1, ow0, tail, mask, pair, index);
  }
}

void bk_depthwise(int isa, float *y, const float *x, const float *w,
                  const float *bias, ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH,
                  ptrdiff_t KW, ptrdiff_t sh, ptrdiff_t sw, ptrdiff_t ph,
                  ptrdiff_t pw, ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH,
                  ptrdiff_t OW, ptrdiff_t c0, ptrdiff_t c1) {
  if (isa > bk_best_isa()) isa = bk_best_isa();
  if (isa == BK_ISA_AVX512)
    depthwise512(y, x, w, bias, H, W, KH, KW, sh, sw, ph, pw, dh, dw, OH, OW,
                 c0, c1);
  else if (isa == BK_ISA_AVX2)
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
  if (isa > bk_best_isa()) isa = bk_best_isa();
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

// Max pooling of channels [c0, c1) of one image, in-bounds taps only; a NaN
// tap wins (propagates). Max is exact, so tap order cannot change results.
#define MAXPOOL_BODY                                                          \
  for (ptrdiff_t c = c0; c < c1; c++) {                                       \
    const float *xc = x + c * H * W;                                          \
    for (ptrdiff_t oh = 0; oh < OH; oh++) {                                   \
      float *yr = y + (c * OH + oh) * OW;                                     \
      for (ptrdiff_t ow = 0; ow < OW; ow++) yr[ow] = -INFINITY;               \
      for (ptrdiff_t i = 0; i < KH; i++) {                                    \
        ptrdiff_t ih = oh * sh - ph + i * dh;                                 \
        if (ih < 0 || ih >= H) continue;                                      \
        const float *xr = xc + ih * W;                                        \
        for (ptrdiff_t j = 0; j < KW; j++) {                                  \
          ptrdiff_t off = j * dw - pw;                                        \
          ptrdiff_t lo = off >= 0 ? 0 : (-off + sw - 1) / sw;                 \
          ptrdiff_t hi = W - off <= 0 ? 0 : (W - off + sw - 1) / sw;          \
          if (hi > OW) hi = OW;                                               \
          const float *xs = xr + off;                                         \
          for (ptrdiff_t ow = lo; ow < hi; ow++) {                            \
            float v = xs[ow * sw];                                            \
            yr[ow] = (v > yr[ow] || v != v) ? v : yr[ow];                     \
          }                                                                   \
        }                                                                     \
      }                                                                       \
    }                                                                         \
  }

static void maxpool_scalar(float *y, const float *x, ptrdiff_t H, ptrdiff_t W,
                           ptrdiff_t KH, ptrdiff_t KW, ptrdiff_t sh,
                           ptrdiff_t sw, ptrdiff_t ph, ptrdiff_t pw,
                           ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH,
                           ptrdiff_t OW, ptrdiff_t c0, ptrdiff_t c1) {
  MAXPOOL_BODY
}

__attribute__((target("avx2,fma"))) static void
maxpool_avx2(float *y, const float *x, ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH,
             ptrdiff_t KW, ptrdiff_t sh, ptrdiff_t sw, ptrdiff_t ph,
             ptrdiff_t pw, ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH,
             ptrdiff_t OW, ptrdiff_t c0, ptrdiff_t c1) {
  MAXPOOL_BODY
}

void bk_maxpool(int isa, float *y, const float *x, ptrdiff_t H, ptrdiff_t W,
                ptrdiff_t KH, ptrdiff_t KW, ptrdiff_t sh, ptrdiff_t sw,
                ptrdiff_t ph, ptrdiff_t pw, ptrdiff_t dh, ptrdiff_t dw,
                ptrdiff_t OH, ptrdiff_t OW, ptrdiff_t c0, ptrdiff_t c1) {
  if (isa > bk_best_isa()) isa = bk_best_isa();
  if (isa >= BK_ISA_AVX2)
    maxpool_avx2(y, x, H, W, KH, KW, sh, sw, ph, pw, dh, dw, OH, OW, c0, c1);
  else
    maxpool_scalar(y, x, H, W, KH, KW, sh, sw, ph, pw, dh, dw, OH, OW, c0, c1);
}

// MARK: Softmax

// One slab [len, inner], columns [i0, i1): max over k (NaN ignored), e = exp(x
// - max), a sum in increasing k, then e / sum. SIMD runs across columns, or,
// when inner == 1, across k for exp and division only; sums stay sequential.
#define SOFTMAX_COLUMNS(V, W, LOAD, STORE, SET1, SUB, ADD, DIV, GT_BLEND, EXP)   \
  for (; i + W <= i1; i += W) {                                               \
    V m = SET1(-INFINITY);                                                    \
    for (ptrdiff_t k = 0; k < len; k++) {                                     \
      V v = LOAD(x + k * inner + i);                                          \
      m = GT_BLEND(v, m);                                                     \
    }                                                                         \
    V s = SET1(0.0f);                                                         \
    for (ptrdiff_t k = 0; k < len; k++) {                                     \
      V e = EXP(SUB(LOAD(x + k * inner + i), m));                             \
      STORE(y + k * inner + i, e);                                            \
      s = ADD(s, e);                                                          \
    }                                                                         \
    for (ptrdiff_t k = 0; k < len; k++)                                       \
      STORE(y + k * inner + i, DIV(LOAD(y + k * inner + i), s));              \
  }

__attribute__((target("avx512f"))) static inline __m512 gt512(__m512 v, __m512 m) {
  return _mm512_mask_mov_ps(m, _mm512_cmp_ps_mask(v, m, _CMP_GT_OQ), v);
}
__attribute__((target("avx2,fma"))) static inline __m256 gt256(__m256 v, __m256 m) {
  return _mm256_blendv_ps(m, v, _mm256_cmp_ps(v, m, _CMP_GT_OQ));
}

static void softmax_scalar_cols(float *y, const float *x, ptrdiff_t len,
                                ptrdiff_t inner, ptrdiff_t i, ptrdiff_t i1) {
  for (; i < i1; i++) {
    float m = -INFINITY;
    for (ptrdiff_t k = 0; k < len; k++)
      if (x[k * inner + i] > m) m = x[k * inner + i];
    float s = 0.0f;
    for (ptrdiff_t k = 0; k < len; k++) {
      float e = bk_expf(x[k * inner + i] - m);
      y[k * inner + i] = e;
      s = s + e;
    }
    for (ptrdiff_t k = 0; k < len; k++) y[k * inner + i] = y[k * inner + i] / s;
  }
}

__attribute__((target("avx512f"))) static void
softmax512(float *y, const float *x, ptrdiff_t len, ptrdiff_t inner,
           ptrdiff_t i0, ptrdiff_t i1) {
  ptrdiff_t i = i0;
  if (inner == 1) {
    float m = -INFINITY;
    for (ptrdiff_t k = 0; k < len; k++) if (x[k] > m) m = x[k];
    ptrdiff_t k = 0;
    for (; k + 16 <= len; k += 16)
      _mm512_storeu_ps(y + k, exp512(_mm512_sub_ps(_mm512_loadu_ps(x + k), _mm512_set1_ps(m))));
    for (; k < len; k++) y[k] = bk_expf(x[k] - m);
    float s = 0.0f;
    for (k = 0; k < len; k++) s = s + y[k];
    for (k = 0; k + 16 <= len; k += 16)
      _mm512_storeu_ps(y + k, _mm512_div_ps(_mm512_loadu_ps(y + k), _mm512_set1_ps(s)));
    for (; k < len; k++) y[k] = y[k] / s;
    return;
  }
  SOFTMAX_COLUMNS(__m512, 16, _mm512_loadu_ps, _mm512_storeu_ps, _mm512_set1_ps,
                  _mm512_sub_ps, _mm512_add_ps, _mm512_div_ps, gt512, exp512)
  softmax_scalar_cols(y, x, len, inner, i, i1);
}

__attribute__((target("avx2,fma"))) static void
softmax256(float *y, const float *x, ptrdiff_t len, ptrdiff_t inner,
           ptrdiff_t i0, ptrdiff_t i1) {
  ptrdiff_t i = i0;
  if (inner == 1) {
    float m = -INFINITY;
    for (ptrdiff_t k = 0; k < len; k++) if (x[k] > m) m = x[k];
    ptrdiff_t k = 0;
    for (; k + 8 <= len; k += 8)
      _mm256_storeu_ps(y + k, exp256(_mm256_sub_ps(_mm256_loadu_ps(x + k), _mm256_set1_ps(m))));
    for (; k < len; k++) y[k] = bk_expf(x[k] - m);
    float s = 0.0f;
    for (k = 0; k < len; k++) s = s + y[k];
    for (k = 0; k + 8 <= len; k += 8)
      _mm256_storeu_ps(y + k, _mm256_div_ps(_mm256_loadu_ps(y + k), _mm256_set1_ps(s)));
    for (; k < len; k++) y[k] = y[k] / s;
    return;
  }
  SOFTMAX_COLUMNS(__m256, 8, _mm256_loadu_ps, _mm256_storeu_ps, _mm256_set1_ps,
                  _mm256_sub_ps, _mm256_add_ps, _mm256_div_ps, gt256, exp256)
  softmax_scalar_cols(y, x, len, inner, i, i1);
}

void bk_softmax(int isa, float *y, const float *x, ptrdiff_t len,
                ptrdiff_t inner, ptrdiff_t i0, ptrdiff_t i1) {
  if (isa > bk_best_isa()) isa = bk_best_isa();
  if (isa == BK_ISA_AVX512)
    softmax512(y, x, len, inner, i0, i1);
  else if (isa == BK_ISA_AVX2)
    softmax256(y, x, len, inner, i0, i1);
  else
    softmax_scalar_cols(y, x, len, inner, i0, i1);
}

void bk_channel_mean(float *y, const float *x, ptrdiff_t hw, ptrdiff_t c0,
                     ptrdiff_t c1) {
  ptrdiff_t c = c0;
  // Eight channels side by side: eight independent sequential sums, so the
  // adds overlap instead of waiting on one another (same order per sum).
  for (; c + 8 <= c1; c += 8) {
    float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    const float *p = x + c * hw;
    for (ptrdiff_t i = 0; i < hw; i++)
      for (int l = 0; l < 8; l++) s[l] += p[l * hw + i];
    for (int l = 0; l < 8; l++) y[c + l] = s[l] / (float)hw;
  }
  for (; c < c1; c++) {
    float s = 0;
    const float *p = x + c * hw;
    for (ptrdiff_t i = 0; i < hw; i++) s += p[i];
    y[c] = s / (float)hw;
  }
}
