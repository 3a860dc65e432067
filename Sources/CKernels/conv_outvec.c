// Convolution with output channels across the lanes ("outvec"), AVX-512.
//
// The im2col GEMM puts output pixels in the lanes and must pack every panel
// of the image first; on maps of a few thousand pixels or less, packing and
// the wasted lanes of a short last panel cost a third of the layer. Here 16
// or 32 output channels sit in one or two vectors, weights come pre-packed
// (bk_conv_outvec_pack, done once at load), and each input pixel is one
// broadcast read straight from the image: a tile of up to 12 pixels of one
// output row keeps 24 accumulators. The image comes zero-padded
// (bk_conv_outvec_pad, into the node's workspace), so every tap is a plain
// load. Every output still starts at its bias and takes its fmas in
// increasing k = (c, i, j), a padding tap adding w * 0, so the bits equal
// bk_conv_gemm's.
#include "CKernels.h"
#include "activation.h"
#include "internal.h"

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#pragma STDC FP_CONTRACT OFF

#define OV_MAX_NP 12
#define OV_MAX_TAP 8
#define OV_MAX_PAD ((ptrdiff_t)1 << 19)  // floats (2 MiB)
#define OV_L2_WEIGHTS ((ptrdiff_t)1 << 17)  // floats (512 KiB, half of L2)

static int unpadded(const BKConvGeom *g);

int bk_conv_outvec_applies(int isa, ptrdiff_t M, const BKConvGeom *g) {
  if (bk_clamp_isa(isa) < BK_ISA_AVX2 || M <= 0 || M % 16 != 0) return 0;
  if (g->sw < 1 || g->sw > 2 || g->KH > OV_MAX_TAP || g->KW > OV_MAX_TAP) return 0;
  if (g->W > (ptrdiff_t)1 << 28 || g->H * g->W > (ptrdiff_t)1 << 28) return 0;
  // A padded copy of a big map costs more than packing saves (16 -> 32
  // channels at stride 2 onto 160x160: 3.8 ms against 3.7 as GEMM).
  if (bk_conv_outvec_workspace(g) > OV_MAX_PAD) return 0;
  // 1x1 kernels are never run direct (the caller multiplies them as a GEMM).
  return g->KH * g->KW == 1 || !bk_conv_is_direct(isa, M, g);
}

void bk_conv_outvec_pack(float *dst, const float *A, ptrdiff_t M, ptrdiff_t K) {
  for (ptrdiff_t m0 = 0; m0 + 16 <= M; m0 += 16)
    for (ptrdiff_t k = 0; k < K; k++)
      for (ptrdiff_t l = 0; l < 16; l++) dst[m0 * K + k * 16 + l] = A[(m0 + l) * K + k];
}

/// Transposes a 16x16 block held as 16 vectors: afterwards lane i of r[j]
/// is what lane j of r[i] was (unpack, in-lane shuffle, two 128-bit shuffles).
__attribute__((target("avx512f"), always_inline)) static inline void transpose16(__m512 r[16]) {
  __m512 t[16], u[16], v[16];
  _Pragma("clang loop unroll(full)") for (int k = 0; k < 8; k++) {
    t[2 * k] = _mm512_unpacklo_ps(r[2 * k], r[2 * k + 1]);
    t[2 * k + 1] = _mm512_unpackhi_ps(r[2 * k], r[2 * k + 1]);
  }
  _Pragma("clang loop unroll(full)") for (int q = 0; q < 4; q++) {
    u[4 * q] = _mm512_shuffle_ps(t[4 * q], t[4 * q + 2], 0x44);
    u[4 * q + 1] = _mm512_shuffle_ps(t[4 * q], t[4 * q + 2], 0xEE);
    u[4 * q + 2] = _mm512_shuffle_ps(t[4 * q + 1], t[4 * q + 3], 0x44);
    u[4 * q + 3] = _mm512_shuffle_ps(t[4 * q + 1], t[4 * q + 3], 0xEE);
  }
  _Pragma("clang loop unroll(full)") for (int h = 0; h < 2; h++)
    _Pragma("clang loop unroll(full)") for (int i = 0; i < 4; i++) {
      v[8 * h + i] = _mm512_shuffle_f32x4(u[8 * h + i], u[8 * h + 4 + i], 0x88);
      v[8 * h + 4 + i] = _mm512_shuffle_f32x4(u[8 * h + i], u[8 * h + 4 + i], 0xDD);
    }
  _Pragma("clang loop unroll(full)") for (int i = 0; i < 8; i++) {
    r[i] = _mm512_shuffle_f32x4(v[i], v[8 + i], 0x88);
    r[8 + i] = _mm512_shuffle_f32x4(v[i], v[8 + i], 0xDD);
  }
}

// One tile: NV vectors of 16 channels (weights wp, [NV][K][16]) by NP
// pixels SW apart from xb (channel 0, tap (0, 0)); tap t is toff[t] further.
__attribute__((target("avx512f"), always_inline)) static inline void
ov_tile512(const int NV, const int NP, const int SW, const BKConvGeom *g, const float *wp,
           ptrdiff_t K, const ptrdiff_t *toff, const float *xb, float *y, ptrdiff_t ldc,
           const float *bias, const BKEpilogue *ep) {
  __m512 acc[2][OV_MAX_NP];
  _Pragma("clang loop unroll(full)") for (int v = 0; v < NV; v++) {
    __m512 b = bias ? _mm512_loadu_ps(bias + 16 * v) : _mm512_setzero_ps();
    _Pragma("clang loop unroll(full)") for (int p = 0; p < NP; p++) acc[v][p] = b;
  }
  const ptrdiff_t taps = g->KH * g->KW, plane = g->H * g->W;
  const float *w0 = wp, *w1 = wp + 16 * K;
  for (ptrdiff_t c = 0; c < g->C; c++) {
    const float *xc = xb + c * plane;
    for (ptrdiff_t t = 0; t < taps; t++) {
      const float *xp = xc + toff[t];
      __m512 a0 = _mm512_loadu_ps(w0), a1 = a0;
      if (NV == 2) a1 = _mm512_loadu_ps(w1);
      w0 += 16;
      w1 += 16;
      _Pragma("clang loop unroll(full)") for (int p = 0; p < NP; p++) {
        __m512 b = _mm512_set1_ps(xp[p * SW]);
        acc[0][p] = _mm512_fmadd_ps(a0, b, acc[0][p]);
        if (NV == 2) acc[1][p] = _mm512_fmadd_ps(a1, b, acc[1][p]);
      }
    }
  }
  // Channels to rows of y: each 16-channel group transposed in registers,
  // then one masked store of NP pixels per channel.
  const __mmask16 keep = (__mmask16)((1u << NP) - 1);
  _Pragma("clang loop unroll(full)") for (int v = 0; v < NV; v++) {
    __m512 r[16];
    _Pragma("clang loop unroll(full)") for (int p = 0; p < 16; p++) {
      r[p] = p < NP ? acc[v][p] : _mm512_setzero_ps();
      if (p < NP && ep && ep->act) r[p] = act512v(r[p], ep->act, ep->alpha, ep->beta);
    }
    transpose16(r);
    _Pragma("clang loop unroll(full)") for (int l = 0; l < 16; l++)
      _mm512_mask_storeu_ps(y + (16 * v + l) * ldc, keep, r[l]);
  }
}

typedef void (*OVTile512)(const BKConvGeom *, const float *, ptrdiff_t, const ptrdiff_t *,
                          const float *, float *, ptrdiff_t, const float *, const BKEpilogue *);

#define OV_FN(NV, NP, SW)                                                                         \
  __attribute__((target("avx512f"))) static void ov512_##NV##_##NP##_##SW(                       \
      const BKConvGeom *g, const float *wp, ptrdiff_t K, const ptrdiff_t *toff, const float *xb, \
      float *y, ptrdiff_t ldc, const float *bias, const BKEpilogue *ep) {                        \
    ov_tile512(NV, NP, SW, g, wp, K, toff, xb, y, ldc, bias, ep);                                \
  }
#define OV_NPS(NV, SW)                                                                             \
  OV_FN(NV, 1, SW) OV_FN(NV, 2, SW) OV_FN(NV, 3, SW) OV_FN(NV, 4, SW) OV_FN(NV, 5, SW)             \
  OV_FN(NV, 6, SW) OV_FN(NV, 7, SW) OV_FN(NV, 8, SW) OV_FN(NV, 9, SW) OV_FN(NV, 10, SW)            \
  OV_FN(NV, 11, SW) OV_FN(NV, 12, SW)
OV_NPS(1, 1) OV_NPS(1, 2) OV_NPS(2, 1) OV_NPS(2, 2)
#define OV_ROW(NV, SW)                                                                             \
  { ov512_##NV##_1_##SW, ov512_##NV##_2_##SW, ov512_##NV##_3_##SW, ov512_##NV##_4_##SW,            \
    ov512_##NV##_5_##SW, ov512_##NV##_6_##SW, ov512_##NV##_7_##SW, ov512_##NV##_8_##SW,            \
    ov512_##NV##_9_##SW, ov512_##NV##_10_##SW, ov512_##NV##_11_##SW, ov512_##NV##_12_##SW }
// [NV - 1][SW - 1][NP - 1]
static const OVTile512 ov512_table[2][2][OV_MAX_NP] = {
  {OV_ROW(1, 1), OV_ROW(1, 2)},
  {OV_ROW(2, 1), OV_ROW(2, 2)},
};

/// ov512_table's tile for the channel group at m0 (two vectors while 32
/// channels remain, else one).
__attribute__((target("avx512f"))) static void
tile512(ptrdiff_t M, ptrdiff_t m0, ptrdiff_t np, const BKConvGeom *g, const float *wp, ptrdiff_t K,
        const ptrdiff_t *toff, const float *xb, float *y, ptrdiff_t ldc, const float *bias,
        const BKEpilogue *ep) {
  const int nv = M - m0 >= 32 ? 2 : 1;
  ov512_table[nv - 1][g->sw - 1][np - 1](g, wp, K, toff, xb, y, ldc, bias, ep);
}

void bk_outvec_drive(ptrdiff_t M, ptrdiff_t n0, ptrdiff_t n1, const float *Ap, const float *x,
                     const BKConvGeom *g, float *y, const float *bias, const BKEpilogue *ep,
                     ptrdiff_t maxnp, ptrdiff_t group, OVTileFn tile) {
  const ptrdiff_t K = g->C * g->KH * g->KW, ldc = g->OH * g->OW, N = g->OH * g->OW;
  ptrdiff_t toff[OV_MAX_TAP * OV_MAX_TAP];
  for (ptrdiff_t i = 0; i < g->KH; i++)
    for (ptrdiff_t j = 0; j < g->KW; j++) toff[i * g->KW + j] = i * g->dh * g->W + j * g->dw;
  // Pixel tiles outside, channel groups inside, re-reads all weights once
  // per tile: right while they stay in L2. Past OV_L2_WEIGHTS floats, and
  // when this range's input is the smaller of the two, each group's weights
  // stay put instead and the (small) input is re-read once per group.
  const ptrdiff_t span = (n1 - n0) * g->C * g->H * g->W / (N > 0 ? N : 1);
  const int groups_outer = M * K > OV_L2_WEIGHTS && span < M * K;
  for (ptrdiff_t m0 = 0; m0 < M; m0 += group) {
    for (ptrdiff_t n = n0; n < n1;) {
      const ptrdiff_t oh = n / g->OW, ow = n % g->OW;
      ptrdiff_t np = g->OW - ow;
      if (np > n1 - n) np = n1 - n;
      np = (np + (np + maxnp - 1) / maxnp - 1) / ((np + maxnp - 1) / maxnp);  // even tiles
      const float *xb = x + oh * g->sh * g->W + ow * g->sw;
      if (groups_outer) {
        tile(M, m0, np, g, Ap + m0 * K, K, toff, xb, y + m0 * ldc + n, ldc, bias ? bias + m0 : NULL, ep);
      } else {
        for (ptrdiff_t m = 0; m < M; m += group)
          tile(M, m, np, g, Ap + m * K, K, toff, xb, y + m * ldc + n, ldc, bias ? bias + m : NULL, ep);
      }
      n += np;
    }
    if (!groups_outer) break;
  }
}

/// Whether every tap of g reads inside the image: no padding, and the last
/// output's taps inside the last row and column.
static int unpadded(const BKConvGeom *g) {
  return g->ph == 0 && g->pw == 0 && (g->OH - 1) * g->sh + (g->KH - 1) * g->dh < g->H &&
         (g->OW - 1) * g->sw + (g->KW - 1) * g->dw < g->W;
}

ptrdiff_t bk_conv_outvec_workspace(const BKConvGeom *g) {
  if (unpadded(g)) return 0;
  return g->C * ((g->OH - 1) * g->sh + (g->KH - 1) * g->dh + 1) * ((g->OW - 1) * g->sw + (g->KW - 1) * g->dw + 1);
}

const float *bk_conv_outvec_pad(float *ws, const float *x, const BKConvGeom *g, ptrdiff_t c0,
                               ptrdiff_t c1, BKConvGeom *out) {
  *out = *g;
  if (unpadded(g)) return x;
  const ptrdiff_t Hp = (g->OH - 1) * g->sh + (g->KH - 1) * g->dh + 1;
  const ptrdiff_t Wp = (g->OW - 1) * g->sw + (g->KW - 1) * g->dw + 1;
  // Columns [lo, hi) of a padded row come from the image, the rest are 0.
  const ptrdiff_t lo = g->pw < Wp ? g->pw : Wp, hi = g->pw + g->W < Wp ? g->pw + g->W : Wp;
  for (ptrdiff_t c = c0 < 0 ? 0 : c0; c < c1 && c < g->C; c++)
    for (ptrdiff_t r = 0; r < Hp; r++) {
      float *row = ws + (c * Hp + r) * Wp;
      const ptrdiff_t ih = r - g->ph;
      if (ih < 0 || ih >= g->H || hi <= lo) {
        memset(row, 0, (size_t)Wp * sizeof(float));
        continue;
      }
      memset(row, 0, (size_t)lo * sizeof(float));
      memcpy(row + lo, x + (c * g->H + ih) * g->W + (lo - g->pw), (size_t)(hi - lo) * sizeof(float));
      memset(row + hi, 0, (size_t)(Wp - hi) * sizeof(float));
    }
  out->H = Hp;
  out->W = Wp;
  out->ph = out->pw = 0;
  return ws;
}

int bk_conv_outvec(int isa, ptrdiff_t M, ptrdiff_t n0, ptrdiff_t n1, const float *Ap,
                   const float *x, const BKConvGeom *g, float *y, const float *bias,
                   const BKEpilogue *ep) {
  if (!bk_conv_outvec_applies(isa, M, g) || !unpadded(g)) return 0;
  if (n1 <= n0) return 1;
  if (bk_clamp_isa(isa) == BK_ISA_AVX512)
    bk_outvec_drive(M, n0, n1, Ap, x, g, y, bias, ep, OV_MAX_NP, 32, tile512);
  else
    bk_outvec_drive(M, n0, n1, Ap, x, g, y, bias, ep, OV2_MAX_NP, 16, bk_outvec_tile256);
  return 1;
}
