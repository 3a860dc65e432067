// Direct convolution for stems and layers with few output channels, AVX-512.
#include "CKernels.h"
#include "activation.h"
#include "internal.h"

#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#pragma STDC FP_CONTRACT OFF

// MARK: Direct convolution (stem layers)

// For few input channels (K = C*KH*KW <= 32, e.g. the RGB stem) packing im2col
// panels costs more than the multiply. Here sixteen output pixels of one row
// sit in a vector and each of the MB output channels has its own accumulator;
// taps go in increasing k, and a padding tap adds w*0 exactly as the packed
// path's zero does, so the bits equal bk_conv_gemm's.
#define DIRECT_MAX_K 32

/// One tap: its row's masked load (two and a permute at stride 2) feeding MB
/// fmas, the weights a[m * K] broadcast.
__attribute__((target("avx512f"), always_inline)) static inline void
direct_tap(const int MB, ptrdiff_t sw, int rowok, uintptr_t row, ptrdiff_t col0, __mmask16 m0, __mmask16 m1,
           __m512i even, const float *a, ptrdiff_t K, __m512 *acc) {
  __m512 v = _mm512_setzero_ps();
  if (rowok) {
    const float *p = (const float *)(row + (uintptr_t)col0 * sizeof(float));
    if (sw == 1)
      v = _mm512_maskz_loadu_ps(m0, p);
    else
      v = _mm512_permutex2var_ps(_mm512_maskz_loadu_ps(m0, p), even, _mm512_maskz_loadu_ps(m1, p + 16));
  }
  _Pragma("clang loop unroll(full)") for (int m = 0; m < MB; m++)
    acc[m] = _mm512_fmadd_ps(_mm512_set1_ps(a[m * K]), v, acc[m]);
}

// A segment's column masks (one per kernel column) and row offsets (one per
// kernel row) are worked out once, outside the channel loop, so each tap is
// one or two masked loads (and a permute at stride 2) feeding MB FMAs.
// Strides 1 and 2, kernels up to 8x8 (others go to the packed GEMM).
#define HOIST_MAX 8
__attribute__((target("avx512f"), always_inline)) static inline void
direct512h(const int MB, const int KWC, const int SWC, ptrdiff_t n0, ptrdiff_t n1, const float *A,
           const float *x, const BKConvGeom *g, float *y, const float *bias,
           const BKEpilogue *ep) {
  const ptrdiff_t K = g->C * g->KH * g->KW, ldc = g->OH * g->OW, plane = g->H * g->W;
  const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i zero = _mm512_setzero_si512(), wlimit = _mm512_set1_epi32((int)g->W);
  // KWC and SWC: the kernel width and stride when known at compile time (0: g's).
  const ptrdiff_t sw = SWC ? SWC : g->sw, KH = g->KH, KW = KWC ? KWC : g->KW;
  const int prefetch = g->C * plane > BK_PREFETCH_IMAGE, prefetch_y = MB * ldc > BK_PREFETCH_IMAGE;
  for (ptrdiff_t n = n0; n < n1;) {
    ptrdiff_t oh = n / g->OW, ow = n % g->OW;
    ptrdiff_t len = g->OW - ow < 16 ? g->OW - ow : 16;
    if (len > n1 - n) len = n1 - n;
    __mmask16 tail = (__mmask16)((1u << len) - 1);
    __mmask16 m0[HOIST_MAX], m1[HOIST_MAX];
    ptrdiff_t col0[HOIST_MAX], rowoff[HOIST_MAX];
    int rowok[HOIST_MAX];
    for (ptrdiff_t j = 0; j < KW; j++) {
      ptrdiff_t iw0 = ow * sw - g->pw + j * g->dw;
      __m512i c0 = _mm512_add_epi32(lane, _mm512_set1_epi32((int)iw0));
      __m512i c1 = _mm512_add_epi32(c0, _mm512_set1_epi32(16));
      m0[j] = _mm512_mask_cmplt_epi32_mask(_mm512_cmpge_epi32_mask(c0, zero), c0, wlimit);
      m1[j] = _mm512_mask_cmplt_epi32_mask(_mm512_cmpge_epi32_mask(c1, zero), c1, wlimit);
      col0[j] = iw0;
    }
    bk_direct_rows(x, g, oh, prefetch, col0[0], col0[KW - 1] + (len - 1) * sw + 1, rowok, rowoff);
    if (prefetch_y && n + 64 < n1) bk_prefetch_out(y, ldc, MB, n + 64, 1);
    __m512 acc[24];
    _Pragma("clang loop unroll(full)") for (int m = 0; m < MB; m++)
      acc[m] = _mm512_set1_ps(bias ? bias[m] : 0.0f);
    ptrdiff_t k = 0;
    for (ptrdiff_t c = 0; c < g->C; c++)
      for (ptrdiff_t i = 0; i < KH; i++) {
        // Masked-off lanes are never read, so a start before the row is
        // fine; addresses are formed as integers for that reason.
        uintptr_t row = (uintptr_t)(x + c * plane + rowoff[i]);
        // A known kernel width unrolls the taps.
        if (KWC)
          _Pragma("clang loop unroll(full)") for (int j = 0; j < KWC; j++, k++)
            direct_tap(MB, sw, rowok[i], row, col0[j], m0[j], m1[j], even, A + k, K, acc);
        else
          for (ptrdiff_t j = 0; j < KW; j++, k++)
            direct_tap(MB, sw, rowok[i], row, col0[j], m0[j], m1[j], even, A + k, K, acc);
      }
    if (ep && ep->act)
      _Pragma("clang loop unroll(full)") for (int m = 0; m < MB; m++)
        acc[m] = act512v(acc[m], ep->act, ep->alpha, ep->beta);
    _Pragma("clang loop unroll(full)") for (int m = 0; m < MB; m++)
      _mm512_mask_storeu_ps(y + m * ldc + n, tail, acc[m]);
    n += len;
  }
}

// Few output channels (up to 48, in passes of 24, 16 or 8) over wide rows at
// stride 1 also run direct, whatever K, when the GEMM is asked for them (the
// lowering gives those with a multiple of 32 channels to the outvec kernel,
// bk_conv_direct_preferred): with so few rows to share a packed
// panel, packing is a burst of loads the FMAs cannot hide; here each load
// feeds a pass's FMAs directly (32 -> 32 channels, 3x3, 160x160: 5.5 ms
// against 6.4 as GEMM). At stride 2 each tap's two loads and permute feed
// only one pass, where a packed panel's serve every row block: 16 -> 32
// channels at stride 2 took 6.9 ms direct against 5.0 as GEMM, so those stay.
#define DIRECT_WIDE_MAX_M 48
#define DIRECT_WIDE_MIN_OW 16

/// A stem: so few taps (K = C*KH*KW <= 32) and channels that packing costs more than the FMAs.
static int is_stem(ptrdiff_t M, const BKConvGeom *g) {
  return g->C * g->KH * g->KW <= DIRECT_MAX_K && M <= 24;
}

static int direct_applies(ptrdiff_t M, const BKConvGeom *g) {
  if (g->W > (ptrdiff_t)1 << 28 || M <= 0 || M % 8 != 0) return 0;
  if (g->sw > 2 || g->KW > HOIST_MAX || g->KH > HOIST_MAX) return 0;
  int stem = is_stem(M, g);
  int wide = M <= DIRECT_WIDE_MAX_M && g->OW >= DIRECT_WIDE_MIN_OW && g->sw == 1;
  return stem || wide;
}

int bk_conv_direct256_applies(ptrdiff_t M, const BKConvGeom *g) {
  if (g->W > (ptrdiff_t)1 << 28 || M <= 0 || M % 8 != 0 || (M % 16 == 0 && !is_stem(M, g))) return 0;
  if (g->sw > 2 || g->KW > HOIST_MAX || g->KH > HOIST_MAX) return 0;
  return is_stem(M, g) || (M <= DIRECT_WIDE_MAX_M && g->KH * g->KW > 1 && g->OW >= DIRECT_WIDE_MIN_OW);
}

// On AVX2 only layers the outvec kernel cannot take (8, 24 or 40 channels)
// run direct, instead of by GEMM: per node on an Intel Xeon,
// setcards-detector's 3 -> 8 stem at stride 2 onto 320x320 took 1.7 ms
// against 2.5, 8 -> 8 and 16 -> 8 channels at stride 1 (arrow-refiner,
// YOLO11n) 0.61-0.66 of their time, 24-channel layers the same as by GEMM.
// Stems of 16 channels (which outvec could take) run direct too: 3 -> 16 at
// stride 2 onto 112x112 (setcards-classifier, MobileNetV3) took 0.92-0.93 of
// outvec's time, onto 320x320 (arrow-detector, YOLOv8n) 0.99-1.01.
int bk_conv_is_direct(int isa, ptrdiff_t M, const BKConvGeom *g) {
  const int i = bk_clamp_isa(isa);
  return (i == BK_ISA_AVX512 && direct_applies(M, g)) ||
         (i == BK_ISA_AVX2 && bk_conv_direct256_applies(M, g));
}

int bk_conv_direct_preferred(int isa, ptrdiff_t M, const BKConvGeom *g) {
  return bk_conv_is_direct(isa, M, g) && (is_stem(M, g) || M % 32 != 0);
}

__attribute__((target("avx512f"))) int
bk_conv_direct512(ptrdiff_t M, ptrdiff_t n0, ptrdiff_t n1, const float *A,
               const float *x, const BKConvGeom *g, float *y, const float *bias,
               const BKEpilogue *ep) {
  const ptrdiff_t K = g->C * g->KH * g->KW, ldc = g->OH * g->OW;
  if (!direct_applies(M, g)) return 0;
  const ptrdiff_t mb = M % 24 == 0 ? 24 : M % 16 == 0 ? 16 : 8;
  for (ptrdiff_t m0 = 0; m0 < M; m0 += mb) {
    const float *a = A + m0 * K, *b = bias ? bias + m0 : NULL;
    float *out = y + m0 * ldc;
    // 3-wide kernels (strides 1 and 2 only reach here) with their taps unrolled.
#define DIRECT_PASS(MB)                                                              \
  if (g->KW == 3 && g->sw == 1) direct512h(MB, 3, 1, n0, n1, a, x, g, out, b, ep);   \
  else if (g->KW == 3) direct512h(MB, 3, 2, n0, n1, a, x, g, out, b, ep);            \
  else direct512h(MB, 0, 0, n0, n1, a, x, g, out, b, ep);
    switch (mb) {
    case 8: DIRECT_PASS(8) break;
    case 16: DIRECT_PASS(16) break;
    default: DIRECT_PASS(24) break;
    }
#undef DIRECT_PASS
  }
  return 1;
}
