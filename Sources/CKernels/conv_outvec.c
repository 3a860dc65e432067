// Convolution with output channels across the lanes ("outvec"), AVX-512.
//
// The im2col GEMM puts output pixels in the lanes and must pack every panel
// of the image first; on maps of a few thousand pixels or less, packing and
// the wasted lanes of a short last panel cost a third of the layer. Here 16
// or 32 output channels sit in one or two vectors, weights come pre-packed
// (bk_conv_outvec_pack, done once at load), and each input pixel is one
// broadcast read straight from the image: a tile of up to 14 pixels of one
// output row keeps 28 accumulators. Padding taps read zeros from a padded
// copy or an edge tile's patch (conv_outvec_drive.c), so every tap is a
// plain load. Every output still starts at its bias and takes its fmas in
// increasing k = (c, i, j), a padding tap adding w * 0, so the bits equal
// bk_conv_gemm's.
#include "CKernels.h"
#include "activation.h"
#include "internal.h"
#include "transpose.h"

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#pragma STDC FP_CONTRACT OFF

/// Whether the kernel can run g at all (any share of the output channels a
/// caller splits off): the routing choice against the direct kernel is
/// bk_conv_outvec_applies's, made once for the whole layer.
static int outvec_can_run(int isa, ptrdiff_t M, const BKConvGeom *g) {
  if (bk_clamp_isa(isa) < BK_ISA_AVX2 || M <= 0 || M % 16 != 0) return 0;
  if (g->sw < 1 || g->sw > 2 || g->KH > OV_MAX_TAP || g->KW > OV_MAX_TAP) return 0;
  if (g->W > (ptrdiff_t)1 << 28 || g->H * g->W > (ptrdiff_t)1 << 28) return 0;
  return bk_outvec_padding_handled(g);
}

int bk_conv_outvec_applies(int isa, ptrdiff_t M, const BKConvGeom *g) {
  // 1x1 kernels are never run direct (the caller multiplies them as a GEMM).
  return outvec_can_run(isa, M, g) && (g->KH * g->KW == 1 || !bk_conv_direct_preferred(isa, M, g));
}

void bk_conv_outvec_pack(float *dst, const float *A, ptrdiff_t M, ptrdiff_t K) {
  for (ptrdiff_t m0 = 0; m0 + 16 <= M; m0 += 16)
    for (ptrdiff_t k = 0; k < K; k++)
      for (ptrdiff_t l = 0; l < 16; l++) dst[m0 * K + k * 16 + l] = A[(m0 + l) * K + k];
}

// Weights are read once per tile, a line per tap and vector, from L2 when
// they outgrow L1 (32 channels x 576 taps: 72 KiB). Prefetching each stream
// OV_PF_TAPS taps ahead took 3-7 % off every such layer of arrow-detector on
// an Intel Xeon (balanced A/B, per node; an A/A run moved them < 1 %).
#define OV_PF_TAPS 8

// One tile: NV vectors of 16 channels (weights wp, [NV][K][16]) by NP
// pixels SW apart from xb (channel 0, tap (0, 0)); tap t is toff[t] further.
// Input channels [c0, c1) only: with `part` ([NV][pv floats], 16 a pixel),
// sums start from it unless c0 is 0 and are parked in it unless c1 is the
// last channel; without it, c0..c1 is every channel.
__attribute__((target("avx512f"), always_inline)) static inline void
ov_tile512(const int NV, const int NP, const int SW, const BKConvGeom *g, const float *wp,
           ptrdiff_t K, const ptrdiff_t *toff, const float *xb, float *y, ptrdiff_t ldc,
           const float *bias, const BKEpilogue *ep, ptrdiff_t c0, ptrdiff_t c1, float *part,
           ptrdiff_t pv) {
  __m512 acc[2][OV_MAX_NP];
  if (part && c0 > 0) {
    _Pragma("clang loop unroll(full)") for (int v = 0; v < NV; v++)
      _Pragma("clang loop unroll(full)") for (int p = 0; p < NP; p++)
        acc[v][p] = _mm512_load_ps(part + v * pv + 16 * p);
  } else {
    _Pragma("clang loop unroll(full)") for (int v = 0; v < NV; v++) {
      __m512 b = bias ? _mm512_loadu_ps(bias + 16 * v) : _mm512_setzero_ps();
      _Pragma("clang loop unroll(full)") for (int p = 0; p < NP; p++) acc[v][p] = b;
    }
  }
  const ptrdiff_t taps = g->KH * g->KW, plane = g->H * g->W;
  const float *w0 = wp + c0 * taps * 16, *w1 = wp + 16 * K + c0 * taps * 16;
  for (ptrdiff_t c = c0; c < c1; c++) {
    const float *xc = xb + c * plane;
    for (ptrdiff_t t = 0; t < taps; t++) {
      const float *xp = xc + toff[t];
      _mm_prefetch((const char *)(w0 + 16 * OV_PF_TAPS), _MM_HINT_T0);
      if (NV == 2) _mm_prefetch((const char *)(w1 + 16 * OV_PF_TAPS), _MM_HINT_T0);
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
  if (part && c1 < g->C) {
    _Pragma("clang loop unroll(full)") for (int v = 0; v < NV; v++)
      _Pragma("clang loop unroll(full)") for (int p = 0; p < NP; p++)
        _mm512_store_ps(part + v * pv + 16 * p, acc[v][p]);
    return;
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
                          const float *, float *, ptrdiff_t, const float *, const BKEpilogue *,
                          ptrdiff_t, ptrdiff_t, float *, ptrdiff_t);

#define OV_FN(NV, NP, SW)                                                                         \
  __attribute__((target("avx512f"))) static void ov512_##NV##_##NP##_##SW(                       \
      const BKConvGeom *g, const float *wp, ptrdiff_t K, const ptrdiff_t *toff, const float *xb, \
      float *y, ptrdiff_t ldc, const float *bias, const BKEpilogue *ep, ptrdiff_t c0,             \
      ptrdiff_t c1, float *part, ptrdiff_t pv) {                                                  \
    ov_tile512(NV, NP, SW, g, wp, K, toff, xb, y, ldc, bias, ep, c0, c1, part, pv);              \
  }
#define OV_NPS(NV, SW)                                                                             \
  OV_FN(NV, 1, SW) OV_FN(NV, 2, SW) OV_FN(NV, 3, SW) OV_FN(NV, 4, SW) OV_FN(NV, 5, SW)             \
  OV_FN(NV, 6, SW) OV_FN(NV, 7, SW) OV_FN(NV, 8, SW) OV_FN(NV, 9, SW) OV_FN(NV, 10, SW)            \
  OV_FN(NV, 11, SW) OV_FN(NV, 12, SW) OV_FN(NV, 13, SW) OV_FN(NV, 14, SW)
OV_NPS(1, 1) OV_NPS(1, 2) OV_NPS(2, 1) OV_NPS(2, 2)
#define OV_ROW(NV, SW)                                                                             \
  { ov512_##NV##_1_##SW, ov512_##NV##_2_##SW, ov512_##NV##_3_##SW, ov512_##NV##_4_##SW,            \
    ov512_##NV##_5_##SW, ov512_##NV##_6_##SW, ov512_##NV##_7_##SW, ov512_##NV##_8_##SW,            \
    ov512_##NV##_9_##SW, ov512_##NV##_10_##SW, ov512_##NV##_11_##SW, ov512_##NV##_12_##SW,        \
    ov512_##NV##_13_##SW, ov512_##NV##_14_##SW }
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
  ov512_table[nv - 1][g->sw - 1][np - 1](g, wp, K, toff, xb, y, ldc, bias, ep, 0, g->C, NULL, 0);
}

// The channel-blocked walk (AVX-512, kernels wider than 1x1, every tile
// inside the image or its padded copy). The plain walk reads a 32-channel
// group's weights once per tile: 72 KiB for 64 input channels at 3x3, more
// than L1 holds, so every tap's weights came from L2. Here a segment of up
// to OV_SEG output pixels (whole tiles, possibly several short rows) is
// swept once per block of input channels, the block's weights (OV_BLOCK_TAPS
// taps of 32 channels: 18 KiB) staying in L1 across the segment's tiles and
// the partial sums parked in `part` between blocks. A float stored and
// reloaded is the same float, and each output still takes its fmas in
// increasing k, so the bits equal the plain walk's. On an Intel Xeon, per
// node of arrow-detector: 64 -> 64 channels onto 80x80 2-4 % faster, the
// stride-2 layers 5 %; blocks of 72 taps were as fast, 36 and 288 slower.
#define OV_SEG 128
#define OV_BLOCK_TAPS 144

// A 1x1 kernel is not blocked: too few fmas per block to pay for parking
// the sums (20x20 layers of arrow-detector lost 7-14 %).
ptrdiff_t bk_conv_outvec_blocks(int isa, const BKConvGeom *g) {
  const ptrdiff_t taps = g->KH * g->KW, cb = OV_BLOCK_TAPS / taps > 0 ? OV_BLOCK_TAPS / taps : 1;
  if (bk_clamp_isa(isa) != BK_ISA_AVX512 || taps == 1 || cb >= g->C) return 0;
  return bk_outvec_unpadded(g) ? cb : 0;
}

/// Outputs [n0, n1) of g in segments: for each 32-channel group, each block
/// of cb input channels over all the segment's tiles.
__attribute__((target("avx512f"))) static void
drive_blocked512(ptrdiff_t M, ptrdiff_t n0, ptrdiff_t n1, const float *Ap, const float *x,
                 const BKConvGeom *g, float *y, const float *bias, const BKEpilogue *ep,
                 ptrdiff_t cb) {
  const ptrdiff_t K = g->C * g->KH * g->KW, ldc = g->OH * g->OW;
  ptrdiff_t toff[OV_MAX_TAP * OV_MAX_TAP];
  bk_outvec_tap_offsets(g, toff);
  _Alignas(64) float part[2 * OV_SEG * 16];  // [vector][pixel][16]
  // Each tile: its first pixel (from the segment's), pixel count, first input.
  ptrdiff_t tp[OV_SEG], tn[OV_SEG];
  const float *tx[OV_SEG];
  for (ptrdiff_t n = n0; n < n1;) {
    ptrdiff_t nt = 0, seg = 0;
    // Whole row pieces while they fit; a row longer than OV_SEG is cut.
    while (n + seg < n1 && seg < OV_SEG) {
      const ptrdiff_t at = n + seg, oh = at / g->OW, ow = at % g->OW;
      ptrdiff_t piece = g->OW - ow;
      if (piece > n1 - at) piece = n1 - at;
      if (piece > OV_SEG - seg) {
        if (seg > 0) break;
        piece = OV_SEG;
      }
      for (ptrdiff_t p = 0; p < piece;) {
        const ptrdiff_t np = bk_outvec_even_tile(piece - p, OV_MAX_NP);
        tp[nt] = seg + p;
        tn[nt] = np;
        tx[nt++] = x + oh * g->sh * g->W + (ow + p) * g->sw;
        p += np;
      }
      seg += piece;
    }
    for (ptrdiff_t m0 = 0; m0 < M; m0 += 32) {
      const int nv = M - m0 >= 32 ? 2 : 1;
      for (ptrdiff_t c0 = 0; c0 < g->C; c0 += cb) {
        const ptrdiff_t c1 = c0 + cb < g->C ? c0 + cb : g->C;
        for (ptrdiff_t t = 0; t < nt; t++)
          ov512_table[nv - 1][g->sw - 1][tn[t] - 1](g, Ap + m0 * K, K, toff, tx[t], y + m0 * ldc + n + tp[t],
                                                    ldc, bias ? bias + m0 : NULL, ep, c0, c1,
                                                    part + 16 * tp[t], OV_SEG * 16);
      }
    }
    n += seg;
  }
}

int bk_conv_outvec(int isa, ptrdiff_t M, ptrdiff_t n0, ptrdiff_t n1, const float *Ap,
                   const float *x, const BKConvGeom *g, float *y, const float *bias,
                   const BKEpilogue *ep) {
  if (!outvec_can_run(isa, M, g)) return 0;
  if (n1 <= n0) return 1;
  const ptrdiff_t cb = bk_conv_outvec_blocks(isa, g);
  if (cb > 0)
    drive_blocked512(M, n0, n1, Ap, x, g, y, bias, ep, cb);
  else if (bk_clamp_isa(isa) == BK_ISA_AVX512)
    bk_outvec_drive(M, n0, n1, Ap, x, g, y, bias, ep, OV_MAX_NP, 32, tile512, NULL);
  else
    bk_outvec_drive(M, n0, n1, Ap, x, g, y, bias, ep, OV2_MAX_NP, 16, bk_outvec_tile256,
                    bk_outvec_tile256_across);
  return 1;
}
