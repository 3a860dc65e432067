// The geometry both implicit-im2col panel packers (pack512.c, pack256.c)
// work out once per call: the output rows a panel of nr columns spans (its
// runs), and for each (tap, run) where lane 0's source lies and which lanes
// read inside the image. Private to CKernels.
#ifndef CKERNELS_PACK_TABLE_H
#define CKERNELS_PACK_TABLE_H

#include "CKernels.h"

#include <stdint.h>

#define PACK_MAX_TAPS 49
#define PACK_MAX_RUNS 4

/// A panel's runs: lanes [l0[r], l0[r + 1]) lie in output row oh[r] from
/// column ow[r]. `count` is 0 when the panel spans more than PACK_MAX_RUNS rows.
typedef struct {
  ptrdiff_t l0[PACK_MAX_RUNS + 1], oh[PACK_MAX_RUNS], ow[PACK_MAX_RUNS], count;
} PanelRuns;

static inline PanelRuns panel_runs(const BKConvGeom *g, ptrdiff_t n0, ptrdiff_t nr) {
  PanelRuns p;
  p.count = 0;
  ptrdiff_t oh = n0 / g->OW, ow = n0 % g->OW;
  for (ptrdiff_t l = 0; l < nr; p.count++) {
    if (p.count == PACK_MAX_RUNS) { p.count = 0; return p; }
    ptrdiff_t len = g->OW - ow < nr - l ? g->OW - ow : nr - l;
    p.l0[p.count] = l; p.oh[p.count] = oh; p.ow[p.count] = ow;
    l += len; ow = 0; oh++;
  }
  p.l0[p.count] = nr;
  return p;
}

/// Tap (i, j) of run r: sets *off to lane 0's source offset in a channel
/// (lane l reads off + l * sw) and *first to that column in its row, and
/// returns the lanes (bit l, l < 32) that read inside the image.
static inline uint32_t panel_tap(const BKConvGeom *g, const PanelRuns *p, ptrdiff_t r, ptrdiff_t i,
                                 ptrdiff_t j, ptrdiff_t *off, ptrdiff_t *first) {
  const ptrdiff_t sw = g->sw, l0 = p->l0[r], l1 = p->l0[r + 1];
  const ptrdiff_t ih = p->oh[r] * g->sh - g->ph + i * g->dh;
  const ptrdiff_t iw0 = p->ow[r] * sw - g->pw + j * g->dw;  // input column of lane l0
  *off = ih * g->W + iw0 - l0 * sw;
  *first = iw0 - l0 * sw;
  if (ih < 0 || ih >= g->H) return 0;
  // Lane l reads column iw0 + (l - l0) * sw; keep those inside the row.
  ptrdiff_t lo = iw0 >= 0 ? 0 : (-iw0 + sw - 1) / sw;
  ptrdiff_t hi = g->W - iw0 <= 0 ? 0 : (g->W - iw0 + sw - 1) / sw;
  if (hi > l1 - l0) hi = l1 - l0;
  ptrdiff_t a = l0 + lo, b = l0 + hi;
  if (b <= a) return 0;
  uint64_t upto = b >= 32 ? 0xFFFFFFFFull : ((1ull << b) - 1);
  return (uint32_t)(upto & ~((1ull << a) - 1));
}

/// Lane l of the low 16 -> bit 2l: stride 2 reads every other float of a span.
static inline uint32_t spread_even(uint32_t v) {
  uint32_t r = 0;
  for (int l = 0; l < 16; l++) r |= ((v >> l) & 1u) << (2 * l);
  return r;
}

#endif
