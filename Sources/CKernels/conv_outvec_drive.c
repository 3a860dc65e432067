// Walking an outvec convolution (conv_outvec.c, conv_outvec256.c): tiles
// of one output row, channel groups, and the two ways padding is served —
// a padded copy of a small image in the node's workspace, or, for a big
// image, a zero-padded patch of the few tiles that touch its border.
#include "CKernels.h"
#include "internal.h"

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

// A padded copy of a big map costs more than packing saves (16 -> 32
// channels at stride 2 onto 160x160: 3.8 ms against 3.7 as GEMM); past this
// many floats the border tiles get patches instead.
#define OV_MAX_PAD ((ptrdiff_t)1 << 19)
// Tiles run on across rows only on narrow maps: from 40 columns on the
// short tiles are a small share of a row and the runs-on tiles measured no
// faster (AVX2 on an Intel Xeon, per node: rows of 7 took 0.81 of the time,
// 14 0.93, 28 0.99; 40 to 160 within the noise).
#define OV_ACROSS_MAX_OW 32
// Weights past this many floats (512 KiB, half of L2) are not re-read per tile.
#define OV_L2_WEIGHTS ((ptrdiff_t)1 << 17)
// How many pixels ahead a big output's channel rows are prefetched.
#define OV_PF_Y 48
// A border tile's patch (all channels, KH rows, the tile's span), on the stack
// (40 KiB): a 96-channel 3x3 layer at stride 2 takes 8352 with 14-pixel tiles.
#define OV_MAX_PATCH 10240
// Below this many multiply-adds per float of the padded copy, border tiles
// get patches instead (bk_conv_outvec_workspace).
#define OV_COPY_MACS 100
// Output staging. An NCHW output whose channel planes lie a multiple of
// 4 KiB apart (160x160 floats) puts one pixel's channels in one L1 set, more
// lines than its ways; a tile's masked stores of 13-14 pixels a channel row
// then fill a line in four or five visits, each re-fetching it. Tiles write
// into a small buffer instead, whose rows are OV_STAGE_LD apart, and a run of
// up to OV_STAGE_PX outputs goes to each channel row whole. The same floats
// land in the same places, so the bits do not change.
#define OV_STAGE_PX 128
#define OV_STAGE_LD (OV_STAGE_PX + 16)
#define OV_STAGE_M 64
// More channels than this in one L1 set and the output is staged.
#define OV_STAGE_SET_LINES 8

int bk_outvec_unpadded(const BKConvGeom *g) {
  return g->ph == 0 && g->pw == 0 && (g->OH - 1) * g->sh + (g->KH - 1) * g->dh < g->H &&
         (g->OW - 1) * g->sw + (g->KW - 1) * g->dw < g->W;
}

static ptrdiff_t padded_floats(const BKConvGeom *g) {
  return g->C * ((g->OH - 1) * g->sh + (g->KH - 1) * g->dh + 1) * ((g->OW - 1) * g->sw + (g->KW - 1) * g->dw + 1);
}

/// Floats in the patch of a tile of `np` pixels.
static ptrdiff_t patch_floats(const BKConvGeom *g, ptrdiff_t np) {
  return g->C * g->KH * ((np - 1) * g->sw + (g->KW - 1) * g->dw + 1);
}

int bk_outvec_padding_handled(const BKConvGeom *g) {
  return bk_outvec_unpadded(g) || padded_floats(g) <= OV_MAX_PAD || patch_floats(g, OV_MAX_NP) <= OV_MAX_PATCH;
}

ptrdiff_t bk_conv_outvec_workspace(ptrdiff_t M, const BKConvGeom *g) {
  if (bk_outvec_unpadded(g) || padded_floats(g) > OV_MAX_PAD) return 0;
  // Few multiply-adds per copied float, and the copy is the cost: 16 -> 32
  // channels at stride 2 onto 56x56 and 80x80 (71 a float) took 10 % less
  // with patches; at 32 -> 64 (139) the two were even; 64 -> 64 at stride 1
  // onto 28x28 and 80x80 (502, 548) were 8-28 % slower without the copy.
  // Patches need their tile to fit, though.
  const ptrdiff_t macs = M * g->KH * g->KW * g->OH * g->OW, floats = padded_floats(g) / g->C;
  if (macs < OV_COPY_MACS * floats && patch_floats(g, OV_MAX_NP) <= OV_MAX_PATCH) return 0;
  return padded_floats(g);
}

const float *bk_conv_outvec_pad(float *ws, const float *x, ptrdiff_t M, const BKConvGeom *g,
                               ptrdiff_t c0, ptrdiff_t c1, BKConvGeom *out) {
  *out = *g;
  if (bk_conv_outvec_workspace(M, g) == 0) return x;
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

/// Copies what a border tile reads — for each channel, kernel row i's input
/// row from column iw0 over `span` columns — into patch[c][i][span], zeros
/// outside the image; *pg is the geometry the tile then reads it with. Rows
/// are a few dozen floats, so each goes as 8-lane masked loads and stores
/// (three libc calls a row cost a big image's border tiles 8% of the layer);
/// the outvec kernels need AVX2 anyway. Stores are whole vectors (a masked
/// store is slow on AMD): up to 7 floats past the last row land in the
/// patch's slack.
__attribute__((target("avx2,fma"))) static void
fill_patch(float *patch, const float *x, const BKConvGeom *g, ptrdiff_t ih0, ptrdiff_t iw0,
           ptrdiff_t span, BKConvGeom *pg) {
  const ptrdiff_t lo = iw0 < 0 ? -iw0 : 0, hi = g->W - iw0 < span ? g->W - iw0 : span;
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  for (ptrdiff_t c = 0; c < g->C; c++)
    for (ptrdiff_t i = 0; i < g->KH; i++) {
      float *row = patch + (c * g->KH + i) * span;
      const ptrdiff_t ih = ih0 + i * g->dh;
      const int inside = ih >= 0 && ih < g->H && hi > lo;
      // Masked-off lanes are never read: addresses are formed as integers.
      const uintptr_t src = (uintptr_t)(x + (inside ? (c * g->H + ih) * g->W : 0)) + (uintptr_t)iw0 * sizeof(float);
      for (ptrdiff_t j = 0; j < span; j += 8) {
        const __m256i col = _mm256_add_epi32(lane, _mm256_set1_epi32((int)j));
        __m256 v = _mm256_setzero_ps();
        if (inside) {
          const __m256i in = _mm256_and_si256(_mm256_cmpgt_epi32(col, _mm256_set1_epi32((int)lo - 1)),
                                              _mm256_cmpgt_epi32(_mm256_set1_epi32((int)hi), col));
          v = _mm256_maskload_ps((const float *)(src + (uintptr_t)j * sizeof(float)), in);
        }
        _mm256_storeu_ps(row + j, v);  // past the row: the next row's, or the slack
      }
    }
  *pg = *g;
  pg->H = g->KH;
  pg->W = span;
  pg->dh = 1;
  pg->ph = pg->pw = 0;
}

/// Whether M channel rows ldc floats apart share L1 sets beyond their ways
/// (the channels a 4 KiB page offset holds: M times the planes' common 4 KiB fraction).
static int outvec_stages(ptrdiff_t M, ptrdiff_t ldc) {
  ptrdiff_t a = (ldc * 4) % 4096, b = 4096;
  while (a) {
    const ptrdiff_t t = b % a;
    b = a;
    a = t;
  }
  return M <= OV_STAGE_M && M * b / 4096 > OV_STAGE_SET_LINES;
}

/// Copies staged outputs [0, n) of M channel rows to y (rows ldc apart).
static void stage_out(float *y, ptrdiff_t ldc, const float *st, ptrdiff_t M, ptrdiff_t n) {
  for (ptrdiff_t m = 0; m < M; m++) memcpy(y + m * ldc, st + m * OV_STAGE_LD, (size_t)n * sizeof(float));
}

void bk_outvec_drive(ptrdiff_t M, ptrdiff_t n0, ptrdiff_t n1, const float *Ap, const float *x,
                     const BKConvGeom *g, float *y, const float *bias, const BKEpilogue *ep,
                     ptrdiff_t maxnp, ptrdiff_t group, OVTileFn tile, OVTileAcrossFn across) {
  const ptrdiff_t K = g->C * g->KH * g->KW, ldc = g->OH * g->OW, N = g->OH * g->OW;
  const ptrdiff_t reach = (g->KW - 1) * g->dw;
  ptrdiff_t toff[OV_MAX_TAP * OV_MAX_TAP], poff[OV_MAX_TAP * OV_MAX_TAP];
  float patch[OV_MAX_PATCH + 8];
  bk_outvec_tap_offsets(g, toff);
  // Pixel tiles outside, channel groups inside, re-reads all weights once
  // per tile: right while they stay in L2. Past OV_L2_WEIGHTS floats, and
  // when this range's input is the smaller of the two, each group's weights
  // stay put instead and the (small) input is re-read once per group.
  const ptrdiff_t input = (n1 - n0) * g->C * g->H * g->W / (N > 0 ? N : 1);
  const int groups_outer = M * K > OV_L2_WEIGHTS && input < M * K;
  // The input rows the next output row adds are prefetched at stride 1 only:
  // at stride 2 the hardware's streams keep up and the prefetches, two rows
  // per channel and tile, cost more than they save (per node on an Intel
  // Xeon, 16 -> 32 and 32 -> 64 channels at stride 2 onto 160x160 and 80x80
  // were 0.4-7 % faster without them over three runs; 16 -> 16 at stride 1
  // onto 160x160 was 5 % slower).
  const int prefetch = g->sh == 1 && g->C * g->H * g->W > BK_PREFETCH_IMAGE;
  const int prefetch_y = M * ldc > BK_PREFETCH_IMAGE;
  // Rows that do not split into whole tiles leave short ones (14 = 5 + 5 +
  // 4, 7 = 4 + 3), fewer accumulators than the FMA latency needs; on an
  // image without padding a tile may run on into the next row instead.
  const int flat = across && g->OW % maxnp != 0 && g->OW >= maxnp && g->OW <= OV_ACROSS_MAX_OW &&
                   bk_outvec_unpadded(g);
  // A pixel of the next row reads this much further than the row's next would.
  const ptrdiff_t jump = g->sh * g->W - g->OW * g->sw;
  const int stage = !groups_outer && outvec_stages(M, ldc);
  _Alignas(64) float staged[stage ? OV_STAGE_M * OV_STAGE_LD : 1];
  for (ptrdiff_t m0 = 0; m0 < M; m0 += group) {
    ptrdiff_t s0 = n0;  // the first output the staging buffer holds
    for (ptrdiff_t n = n0; n < n1;) {
      const ptrdiff_t oh = n / g->OW, ow = n % g->OW;
      ptrdiff_t np = g->OW - ow;
      if (np > n1 - n) np = n1 - n;
      np = bk_outvec_even_tile(np, maxnp);
      // A short tile that need not be runs on; its first `split` pixels end this row.
      if (flat && np < maxnp && n + np < n1) np = bk_outvec_even_tile(n1 - n, maxnp);
      const ptrdiff_t split = g->OW - ow < np ? g->OW - ow : np;
      const ptrdiff_t ih0 = oh * g->sh - g->ph, iw0 = ow * g->sw - g->pw;
      // A tile running on reads an image without padding: inside by construction.
      const int inside = split < np || (ih0 >= 0 && ih0 + (g->KH - 1) * g->dh < g->H && iw0 >= 0 &&
                                        iw0 + (np - 1) * g->sw + reach < g->W);
      const BKConvGeom *tg = g;
      const ptrdiff_t *to = toff;
      const float *xb = x + ih0 * g->W + iw0;  // used only when inside
      BKConvGeom pg;
      if (!inside) {
        const ptrdiff_t span = (np - 1) * g->sw + reach + 1;
        fill_patch(patch, x, g, ih0, iw0, span, &pg);
        for (ptrdiff_t i = 0; i < g->KH; i++)
          for (ptrdiff_t j = 0; j < g->KW; j++) poff[i * g->KW + j] = i * span + j * g->dw;
        tg = &pg;
        to = poff;
        xb = patch;
      }
      if (prefetch) {
        const ptrdiff_t r0 = ih0 + (g->KH - 1) * g->dh + 1;
        bk_prefetch_rows(x, g, r0, r0 + g->sh, iw0, iw0 + (np - 1) * g->sw + reach + 1);
      }
      const ptrdiff_t m1 = groups_outer && m0 + group < M ? m0 + group : M;
      // The channel rows this pass writes, a few tiles ahead.
      if (prefetch_y && n + OV_PF_Y < n1) bk_prefetch_out(y + m0 * ldc, ldc, m1 - m0, n + OV_PF_Y, 1);
      // Staged: channel m's outputs from s0 on are row m of the buffer.
      float *yt = stage ? staged + (n - s0) : y + n;
      const ptrdiff_t lt = stage ? OV_STAGE_LD : ldc;
      for (ptrdiff_t m = m0; m < m1; m += group)
        if (split < np)
          across(np, split, tg, Ap + m * K, to, xb, jump, yt + m * lt, lt, bias ? bias + m : NULL, ep);
        else
          tile(M, m, np, tg, Ap + m * K, K, to, xb, yt + m * lt, lt, bias ? bias + m : NULL, ep);
      n += np;
      if (stage && (n >= n1 || n - s0 + maxnp > OV_STAGE_PX)) {
        stage_out(y + s0, ldc, staged, M, n - s0);
        s0 = n;
      }
    }
    if (!groups_outer) break;
  }
}
