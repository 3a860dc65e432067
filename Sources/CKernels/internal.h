// Declarations shared between CKernels sources; not part of the module's API.
#ifndef CKERNELS_INTERNAL_H
#define CKERNELS_INTERNAL_H

#include "CKernels.h"

#include <immintrin.h>

/// `isa` lowered to what this CPU runs (see bk_best_isa in isa.c).
int bk_clamp_isa(int isa);

/// The first n (0...8) lanes set, for AVX2 masked loads and stores.
__attribute__((target("avx2,fma"))) static inline __m256i lane_mask(ptrdiff_t n) {
  __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), idx);
}

/// Images past this many floats (1 MiB, half of L2) stream from L3 or memory:
/// the kernels that read them a few rows at a time prefetch the rows the
/// next output row adds. Their hardware prefetch does not keep up with one
/// stream per channel and row (16 -> 32 channels at stride 2 onto 160x160:
/// 2.7 ms with it, 3.5 without).
#define BK_PREFETCH_IMAGE ((ptrdiff_t)1 << 18)

/// How far ahead along a row the GEMMs prefetch a big B and C (512 bytes;
/// four AVX-512 panels).
#define PF_COLS 128

/// Prefetches for writing `lines` cache lines from column `col` of each of
/// `rows` rows of y (row stride ldc). A store to a line not in cache waits
/// for it, and an NCHW output is one stream per channel, more than the
/// hardware prefetcher follows (32 -> 32 channels 1x1 on 160x160 by GEMM:
/// 1.00 -> 0.74 ms).
static inline void bk_prefetch_out(const float *y, ptrdiff_t ldc, ptrdiff_t rows, ptrdiff_t col, int lines) {
  for (ptrdiff_t m = 0; m < rows; m++)
    for (int l = 0; l < lines; l++) __builtin_prefetch(y + m * ldc + col + 16 * l, 1, 2);
}

/// Prefetches into L2 columns [c0, c1) of input rows [r0, r1) of every
/// channel of g's image x (rows past the image are skipped): what the tile
/// at the same columns one output row further down will add.
static inline void bk_prefetch_rows(const float *x, const BKConvGeom *g, ptrdiff_t r0,
                                    ptrdiff_t r1, ptrdiff_t c0, ptrdiff_t c1) {
  if (c0 < 0) c0 = 0;
  if (c1 > g->W) c1 = g->W;
  if (r0 < 0) r0 = 0;
  if (r1 > g->H) r1 = g->H;
  for (ptrdiff_t c = 0; c < g->C; c++)
    for (ptrdiff_t r = r0; r < r1; r++) {
      const char *row = (const char *)(x + (c * g->H + r) * g->W);
      for (ptrdiff_t b = (c0 * 4) & ~(ptrdiff_t)63; b < c1 * 4; b += 64) __builtin_prefetch(row + b, 0, 2);
    }
}

/// A direct kernel's kernel rows for output row oh: rowok[i] whether row i
/// reads inside the image, rowoff[i] its offset (0 when not); with
/// `prefetch`, the rows the next output row adds, columns [c0, c1), go to L2.
static inline void bk_direct_rows(const float *x, const BKConvGeom *g, ptrdiff_t oh, int prefetch,
                                  ptrdiff_t c0, ptrdiff_t c1, int *rowok, ptrdiff_t *rowoff) {
  for (ptrdiff_t i = 0; i < g->KH; i++) {
    const ptrdiff_t ih = oh * g->sh - g->ph + i * g->dh;
    rowok[i] = ih >= 0 && ih < g->H;
    rowoff[i] = rowok[i] ? ih * g->W : 0;
  }
  if (prefetch) {
    const ptrdiff_t r0 = oh * g->sh - g->ph + (g->KH - 1) * g->dh + 1;
    bk_prefetch_rows(x, g, r0, r0 + g->sh, c0, c1);
  }
}

/// Direct convolution for stem layers (K = C*KH*KW <= 32 and M in {8, 16,
/// 24}) over output columns [n0, n1), AVX-512 only. Returns 0, writing
/// nothing, when the shape is not one it handles.
int bk_conv_direct512(ptrdiff_t M, ptrdiff_t n0, ptrdiff_t n1, const float *A,
                      const float *x, const BKConvGeom *g, float *y,
                      const float *bias, const BKEpilogue *ep);

/// Whether the AVX2 direct kernel takes g: 8, 24 or 40 output channels
/// (which the outvec kernel cannot take), strides 1-2, kernels up to 8x8,
/// and a stem (K = C*KH*KW <= 32) or a kernel wider than 1x1 over rows of
/// 16 or more.
int bk_conv_direct256_applies(ptrdiff_t M, const BKConvGeom *g);

/// Direct convolution for AVX2 + FMA (conv_direct256.c) of the shapes
/// bk_conv_direct256_applies takes, 8 output channels at a time; returns 0,
/// writing nothing, for any other shape.
int bk_conv_direct256(ptrdiff_t M, ptrdiff_t n0, ptrdiff_t n1, const float *A,
                      const float *x, const BKConvGeom *g, float *y,
                      const float *bias, const BKEpilogue *ep);

/// Whether the direct kernel is the one to run even where the outvec kernel
/// could: a stem (K <= 32, at most 24 output channels), or a channel count
/// outvec's two-vector tile does not divide. Layers of 32, 64, ... channels go
/// to outvec: its tile of 32 channels by 14 pixels takes 16 loads per 28 FMAs
/// where the direct kernel's pass takes one unaligned row load and 16
/// broadcasts per 16. On an Intel Xeon (two 512-bit FMA ports) 32 -> 32
/// channels, 3x3 onto 160x160 took 5.8-6.8 ms direct, 3.6-3.8 outvec; at 16
/// channels outvec's one-vector tile lost (YOLO11n's and the refiner's layers,
/// 10-40 % slower), so those stay direct.
int bk_conv_direct_preferred(int isa, ptrdiff_t M, const BKConvGeom *g);

/// The most pixels an outvec tile holds on AVX-512 (28 accumulators, the
/// two weight vectors and the broadcast: 31 of 32 registers) and on AVX2
/// (12), and the largest kernel side it takes. 14 rather than 12 cut rows of
/// 28 and 14 into two tiles and one, not three and two: 64 -> 64 channels
/// onto 28x28 took 9 % less, 128 -> 128 onto 14x14 13 % less, and wide rows
/// the same.
#define OV_MAX_NP 14
#define OV2_MAX_NP 6
#define OV_MAX_TAP 8

/// The first tile's width when `left` pixels of a row are cut into tiles of
/// at most `maxnp`: the fewest tiles, as even as they come (28 = 14 + 14,
/// 20 = 10 + 10 rather than 14 + 6).
static inline ptrdiff_t bk_outvec_even_tile(ptrdiff_t left, ptrdiff_t maxnp) {
  const ptrdiff_t tiles = (left + maxnp - 1) / maxnp;
  return (left + tiles - 1) / tiles;
}

/// toff[i * KW + j]: how far tap (i, j) of g reads from tap (0, 0).
static inline void bk_outvec_tap_offsets(const BKConvGeom *g, ptrdiff_t *toff) {
  for (ptrdiff_t i = 0; i < g->KH; i++)
    for (ptrdiff_t j = 0; j < g->KW; j++) toff[i * g->KW + j] = i * g->dh * g->W + j * g->dw;
}

/// Whether every tap of g reads inside the image: no padding, and the last
/// output's taps inside the last row and column.
int bk_outvec_unpadded(const BKConvGeom *g);

/// Whether the outvec driver can serve g's padding: none, a padded copy
/// small enough for the workspace, or patches of its border tiles.
int bk_outvec_padding_handled(const BKConvGeom *g);

/// One outvec tile: the channel group at m0 of M (weights wp), np pixels of
/// one output row from xb, tap offsets toff; y is the tile's first output.
typedef void (*OVTileFn)(ptrdiff_t M, ptrdiff_t m0, ptrdiff_t np, const BKConvGeom *g,
                         const float *wp, ptrdiff_t K, const ptrdiff_t *toff, const float *xb,
                         float *y, ptrdiff_t ldc, const float *bias, const BKEpilogue *ep);

/// A tile of np pixels whose first `split` lie in one output row and the
/// rest at the start of the next: those read `jump` floats further than a
/// row's continuation would.
typedef void (*OVTileAcrossFn)(ptrdiff_t np, ptrdiff_t split, const BKConvGeom *g, const float *wp,
                               const ptrdiff_t *toff, const float *xb, ptrdiff_t jump, float *y,
                               ptrdiff_t ldc, const float *bias, const BKEpilogue *ep);

/// Walks columns [n0, n1) of an outvec convolution in tiles of at most maxnp
/// pixels and channel groups of `group`, calling `tile` for each (conv_outvec.c);
/// with `across` (may be NULL) and an unpadded g, tiles run on across rows.
void bk_outvec_drive(ptrdiff_t M, ptrdiff_t n0, ptrdiff_t n1, const float *Ap, const float *x,
                     const BKConvGeom *g, float *y, const float *bias, const BKEpilogue *ep,
                     ptrdiff_t maxnp, ptrdiff_t group, OVTileFn tile, OVTileAcrossFn across);

/// The AVX2 tile across two rows (conv_outvec256.c): 2 <= np <= OV2_MAX_NP,
/// 1 <= split < np.
void bk_outvec_tile256_across(ptrdiff_t np, ptrdiff_t split, const BKConvGeom *g, const float *wp,
                              const ptrdiff_t *toff, const float *xb, ptrdiff_t jump, float *y,
                              ptrdiff_t ldc, const float *bias, const BKEpilogue *ep);

/// The AVX2 tile (conv_outvec256.c): 16 channels by np <= OV2_MAX_NP pixels.
void bk_outvec_tile256(ptrdiff_t M, ptrdiff_t m0, ptrdiff_t np, const BKConvGeom *g, const float *wp,
                       ptrdiff_t K, const ptrdiff_t *toff, const float *xb, float *y, ptrdiff_t ldc,
                       const float *bias, const BKEpilogue *ep);

/// Packs rows [k0, k0 + kc) and columns [n0, n0 + nr) of image x's im2col
/// matrix into pack[k * 32 + lane] (64-byte aligned), zeros where bk_im2col
/// has them. AVX-512; returns 0, writing nothing, for geometry it does not
/// handle (stride above 2, more than 49 taps, a panel over more than 4 rows).
int bk_pack_conv512(float *pack, const float *x, const BKConvGeom *g,
                    ptrdiff_t k0, ptrdiff_t kc, ptrdiff_t n0, ptrdiff_t nr);

/// bk_pack_conv512 for AVX2's 16-column panels: pack[k * 16 + lane], 32-byte
/// aligned; the same limits, 0 when it does not apply.
int bk_pack_conv256(float *pack, const float *x, const BKConvGeom *g,
                    ptrdiff_t k0, ptrdiff_t kc, ptrdiff_t n0, ptrdiff_t nr);

/// Depthwise convolution of channels [c0, c1) in blocks of 16 channels across
/// the lanes (maps of at most 1024 pixels, kernels of at most 49 taps);
/// returns the first channel it left (the caller does the rest). AVX-512.
ptrdiff_t bk_depthwise_lanes512(float *y, const float *x, const float *w, const float *bias,
                                ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH, ptrdiff_t KW,
                                ptrdiff_t sh, ptrdiff_t sw, ptrdiff_t ph, ptrdiff_t pw,
                                ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH, ptrdiff_t OW,
                                ptrdiff_t c0, ptrdiff_t c1);

/// bk_depthwise_lanes512 for AVX2: blocks of 8 channels, the same limits.
ptrdiff_t bk_depthwise_lanes256(float *y, const float *x, const float *w, const float *bias,
                                ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH, ptrdiff_t KW,
                                ptrdiff_t sh, ptrdiff_t sw, ptrdiff_t ph, ptrdiff_t pw,
                                ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH, ptrdiff_t OW,
                                ptrdiff_t c0, ptrdiff_t c1);

/// C = bias + A B then the epilogue on AVX-512 (gemm512.c); with `g` set, B
/// is image x and its im2col panels (columns from `nbase`) are packed on the
/// fly, else B is a row-major matrix with row stride `ldb`.
void bk_gemm512(ptrdiff_t M, ptrdiff_t N, ptrdiff_t K, const float *A, ptrdiff_t lda,
                const BKConvGeom *g, const float *B, ptrdiff_t ldb, float *C,
                ptrdiff_t ldc, const float *bias, ptrdiff_t nbase, const BKEpilogue *ep);

/// bk_gemm512 for AVX2 + FMA (gemm256.c).
void bk_gemm256(ptrdiff_t M, ptrdiff_t N, ptrdiff_t K, const float *A, ptrdiff_t lda,
                const BKConvGeom *g, const float *B, ptrdiff_t ldb, float *C,
                ptrdiff_t ldc, const float *bias, ptrdiff_t nbase, const BKEpilogue *ep);

/// The general im2col packer (any stride, taps or rows per panel): rows
/// [k0, k0 + kc), columns [n0, n0 + nr) into pack[k * width + lane], zeros
/// where bk_im2col has them; the AVX-512 build copies rows with masked loads.
void bk_pack_conv_rows(float *pack, int width, const float *x, const BKConvGeom *g,
                       ptrdiff_t k0, ptrdiff_t kc, ptrdiff_t n0, ptrdiff_t nr);
void bk_pack_conv_rows512(float *pack, int width, const float *x, const BKConvGeom *g,
                          ptrdiff_t k0, ptrdiff_t kc, ptrdiff_t n0, ptrdiff_t nr);

/// The taps t in [0, taps) whose coordinate start + t * step lies in
/// [0, limit), as [*t0, *t1): validity is monotonic in t, so they are one
/// range (the depthwise lanes kernels take each output's taps this way).
static inline void tap_span(ptrdiff_t start, ptrdiff_t step, ptrdiff_t taps, ptrdiff_t limit,
                            ptrdiff_t *t0, ptrdiff_t *t1) {
  ptrdiff_t a = 0, b = taps;
  while (a < taps && start + a * step < 0) a++;
  while (b > a && start + (b - 1) * step >= limit) b--;
  *t0 = a;
  *t1 = b;
}

/// Output rows per band for the channels-across-lanes depthwise kernels: as
/// many as keep a band's input rows and its outputs within `cap` pixels each
/// (0: not even one row fits).
static inline ptrdiff_t lanes_band(ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH, ptrdiff_t sh, ptrdiff_t dh,
                                   ptrdiff_t OH, ptrdiff_t OW, ptrdiff_t cap) {
  if (W <= 0 || OW <= 0 || OW > cap) return 0;
  ptrdiff_t rows_in = cap / W, span = (KH - 1) * dh + 1;
  if (rows_in > H) rows_in = H;
  if (rows_in < (span < H ? span : H)) return 0;
  // The whole image in one buffer serves any band; else (band - 1) * sh +
  // span input rows must fit.
  ptrdiff_t band = rows_in >= H ? OH : span >= rows_in ? 1 : (rows_in - span) / sh + 1;
  if (band > cap / OW) band = cap / OW;
  if (band > OH) band = OH;
  return band;
}

/// The input rows [*r0, *r1) (clipped to the image) output rows [oh0, oh1) read.
static inline void band_rows(ptrdiff_t oh0, ptrdiff_t oh1, ptrdiff_t H, ptrdiff_t KH, ptrdiff_t sh,
                             ptrdiff_t ph, ptrdiff_t dh, ptrdiff_t *r0, ptrdiff_t *r1) {
  ptrdiff_t a = oh0 * sh - ph, b = (oh1 - 1) * sh - ph + (KH - 1) * dh + 1;
  *r0 = a < 0 ? 0 : a;
  *r1 = b > H ? H : b;
  if (*r1 < *r0) *r1 = *r0;
}

#endif
