// Depthwise convolution: scalar reference body, AVX2 and AVX-512 kernels.
#include "CKernels.h"
#include "activation.h"
#include "internal.h"

#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#pragma STDC FP_CONTRACT OFF

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
// block, reused for every output row and kernel row (kernels up to DW_MAX_KW
// wide; bk_depthwise sends wider ones to the scalar body).
#define DW_MAX_KW 16
__attribute__((target("avx2,fma"))) static void
depthwise_avx2(float *y, const float *x, const float *w, const float *bias,
               ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH, ptrdiff_t KW,
               ptrdiff_t sh, ptrdiff_t sw, ptrdiff_t ph, ptrdiff_t pw,
               ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH, ptrdiff_t OW,
               ptrdiff_t c0, ptrdiff_t c1) {
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

// Column blocks whose lane masks are worked out at once (a chunk of 8 x 16
// output columns).
__attribute__((target("avx512f"))) static void
depthwise512(float *y, const float *x, const float *w, const float *bias,
             ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH, ptrdiff_t KW,
             ptrdiff_t sh, ptrdiff_t sw, ptrdiff_t ph, ptrdiff_t pw,
             ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH, ptrdiff_t OW,
             ptrdiff_t c0, ptrdiff_t c1) {
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
  isa = bk_clamp_isa(isa);
  // Kernels wider than the SIMD paths' mask tables, or indices past int32,
  // take the scalar body (same bits).
  if (KW > DW_MAX_KW || W > (ptrdiff_t)1 << 28 || OW * sw > (ptrdiff_t)1 << 28) isa = BK_ISA_SCALAR;
  // Channels across the lanes, in bands of rows on big maps, for every block
  // of 16 channels; the row kernel takes the rest. Rows under 16 outputs
  // leave lanes of a row vector empty and stride 2 needs permutes or gathers
  // (5x5 on 7x7, 576 channels: 0.054 ms against 0.093 by rows; 3x3 at stride
  // 2 onto 56x56, 16 channels: 0.058 against 0.074), and at stride 1 on wide
  // rows the row kernel's masked edge blocks cost more than the transposes
  // (per node, interleaved: 3x3 on 28x28 x 88 channels 0.81 of the row
  // kernel's time, 5x5 on 28x28 x 240 0.73, 3x3 on 56x56 x 144 0.87, on
  // 112x112 x 32 0.94). On AVX2, whose row kernel blends and gathers, the
  // same (3x3 on 28x28, 88 channels: 0.076 against 0.117).
  if (isa == BK_ISA_AVX512)
    c0 = bk_depthwise_lanes512(y, x, w, bias, H, W, KH, KW, sh, sw, ph, pw, dh, dw, OH, OW, c0, c1);
  else if (isa == BK_ISA_AVX2)
    c0 = bk_depthwise_lanes256(y, x, w, bias, H, W, KH, KW, sh, sw, ph, pw, dh, dw, OH, OW, c0, c1);
  if (c0 >= c1) return;
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
