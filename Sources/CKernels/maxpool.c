// Max pooling: a general loop over in-bounds taps, and for stride 1 a
// separable form, with explicit AVX-512 and AVX2 passes.
#include "CKernels.h"
#include "internal.h"

#include <immintrin.h>
#include <math.h>
#include <stdint.h>

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

// Stride 1 (YOLO's SPPF: 5x5, pad 2) separably: each input row's maximum
// over the kernel's columns once, into a ring of KH rows, then the column of
// those. Max is exact and both passes go in tap order, keeping a later NaN
// and the first of equal values, so the result equals MAXPOOL_BODY's bit for
// bit — in KH + KW comparisons per output instead of KH * KW.
#define SEP_MAX_KH 8
#define SEP_MAX_OW 1024

/// Stride 1, no dilation, kernels up to SEP_MAX_KH a side with padding
/// inside them (every output column then has a tap in the row).
static int maxpool_separable(ptrdiff_t KH, ptrdiff_t KW, ptrdiff_t sh, ptrdiff_t sw, ptrdiff_t ph,
                             ptrdiff_t pw, ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OW) {
  return sh == 1 && sw == 1 && dh == 1 && dw == 1 && KH <= SEP_MAX_KH && KW <= SEP_MAX_KH &&
         ph < KH && pw < KW && OW <= SEP_MAX_OW;
}

// The separable passes, written once for a lane type: AVX-512 (16 lanes),
// AVX2 (8) and the portable path (1). Rows of SPPF's maps are short (20
// floats for a 640 input), where the compiler's loops ran 4 lanes and a
// scalar tail per tap. Each pass takes a row a vector at a time, lanes whose
// tap falls outside the row (or past the output) masked off and read as
// -inf, which folds in as a skipped tap would; both passes fold their taps
// in the same order with the same rule: a greater value or a NaN replaces
// the running one. The taps are read straight from the image: a padded copy
// of each row was slower (every shifted load waited on the copy's stores),
// and so was a modulo per row and tap to find ring slots.
// A block of L outputs at yr + o: whole, or the row's last OW - o under a mask.
#define STORE_BLOCK(STORE, STOREM, L)                                         \
  if (o + L <= OW)                                                            \
    STORE(yr + o, m);                                                         \
  else                                                                        \
    STOREM(yr + o, OW - o, m);

#define SEP_PASSES(V, L, NEG, MASK, LOADM, LOAD, FOLD, STORE, STOREM)           \
  float ring[SEP_MAX_KH][SEP_MAX_OW + L];                                     \
  const V neg = NEG;                                                          \
  for (ptrdiff_t c = c0; c < c1; c++) {                                       \
    const float *xc = x + c * H * W;                                          \
    ptrdiff_t next = 0, slot = 0, topslot = 0;                                \
    for (ptrdiff_t oh = 0; oh < OH; oh++) {                                   \
      const ptrdiff_t top = oh - ph < 0 ? 0 : oh - ph;                        \
      const ptrdiff_t end = oh - ph + KH > H ? H : oh - ph + KH;              \
      if (oh - ph > 0 && ++topslot == KH) topslot = 0;                        \
      for (; next < end; next++, slot = slot + 1 == KH ? 0 : slot + 1) {      \
        const float *xr = xc + next * W;                                      \
        for (ptrdiff_t o = 0; o < OW; o += L) {                               \
          V m = neg;                                                          \
          /* Column o + l + j - pw inside the row for lanes lo <= l < hi. */  \
          if (o >= pw && o + L + KW - 1 - pw <= W && o + L <= OW)             \
            for (ptrdiff_t j = 0; j < KW; j++) m = FOLD(m, LOAD(xr + o + j - pw)); \
          else                                                                \
            for (ptrdiff_t j = 0; j < KW; j++) {                              \
              const ptrdiff_t hi = W + pw - j - o < OW - o ? W + pw - j - o : OW - o; \
              m = FOLD(m, LOADM(MASK(pw - j - o, hi), xr, o + j - pw));       \
            }                                                                 \
          STORE(ring[slot] + o, m);                                           \
        }                                                                     \
      }                                                                       \
      float *yr = y + (c * OH + oh) * OW;                                     \
      for (ptrdiff_t o = 0; o < OW; o += L) {                                 \
        V m = neg;                                                            \
        for (ptrdiff_t ih = top, r = topslot; ih < end; ih++, r = r + 1 == KH ? 0 : r + 1) \
          m = FOLD(m, LOAD(ring[r] + o));                                     \
        STORE_BLOCK(STORE, STOREM, L)                                         \
      }                                                                       \
    }                                                                         \
  }

/// Lanes l with lo <= l < hi.
static inline __mmask16 lanes16(ptrdiff_t lo, ptrdiff_t hi) {
  if (lo < 0) lo = 0;
  if (hi > 16) hi = 16;
  return hi <= lo ? 0 : (__mmask16)(((1u << hi) - 1) & ~((1u << lo) - 1));
}
__attribute__((target("avx2,fma"))) static inline __m256i lanes8(ptrdiff_t lo, ptrdiff_t hi) {
  if (lo < 0) lo = 0;
  if (hi > 8) hi = 8;
  if (hi < 0) hi = 0;
  const __m256i l = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_andnot_si256(_mm256_cmpgt_epi32(_mm256_set1_epi32((int)lo), l),
                             _mm256_cmpgt_epi32(_mm256_set1_epi32((int)hi), l));
}

// Masked-off lanes are never read: addresses are formed as integers, so a
// tap left of the row's start is no out-of-bounds pointer.
__attribute__((target("avx512f"))) static inline __m512 load16m(__mmask16 k, const float *row, ptrdiff_t at) {
  return _mm512_mask_loadu_ps(_mm512_set1_ps(-INFINITY), k, (const float *)((uintptr_t)row + (uintptr_t)at * sizeof(float)));
}
__attribute__((target("avx512f"))) static inline __m512 fold16(__m512 m, __m512 v) {
  const __mmask16 take = _mm512_cmp_ps_mask(v, m, _CMP_GT_OQ) | _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
  return _mm512_mask_mov_ps(m, take, v);
}
__attribute__((target("avx512f"))) static inline void store16m(float *dst, ptrdiff_t n, __m512 v) {
  _mm512_mask_storeu_ps(dst, lanes16(0, n), v);
}
__attribute__((target("avx2,fma"))) static inline __m256 load8m(__m256i k, const float *row, ptrdiff_t at) {
  const __m256 v = _mm256_maskload_ps((const float *)((uintptr_t)row + (uintptr_t)at * sizeof(float)), k);
  return _mm256_blendv_ps(_mm256_set1_ps(-INFINITY), v, _mm256_castsi256_ps(k));
}
__attribute__((target("avx2,fma"))) static inline __m256 fold8(__m256 m, __m256 v) {
  const __m256 take = _mm256_or_ps(_mm256_cmp_ps(v, m, _CMP_GT_OQ), _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
  return _mm256_blendv_ps(m, v, take);
}
__attribute__((target("avx2,fma"))) static inline void store8m(float *dst, ptrdiff_t n, __m256 v) {
  _mm256_maskstore_ps(dst, lane_mask(n), v);
}
// One lane: the mask is whether lane 0 is in [lo, hi).
static inline int lanes1(ptrdiff_t lo, ptrdiff_t hi) { return lo <= 0 && 0 < hi; }
static inline float load1m(int k, const float *row, ptrdiff_t at) { return k ? row[at] : -INFINITY; }
static inline float load1(const float *p) { return *p; }
static inline float fold1(float m, float v) { return (v > m || v != v) ? v : m; }
static inline void store1(float *dst, float v) { *dst = v; }
static inline void store1m(float *dst, ptrdiff_t n, float v) { if (n > 0) *dst = v; }

__attribute__((target("avx512f"))) static void
maxpool_sep512(float *y, const float *x, ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH, ptrdiff_t KW,
               ptrdiff_t ph, ptrdiff_t pw, ptrdiff_t OH, ptrdiff_t OW, ptrdiff_t c0, ptrdiff_t c1) {
  SEP_PASSES(__m512, 16, _mm512_set1_ps(-INFINITY), lanes16, load16m, _mm512_loadu_ps, fold16,
             _mm512_storeu_ps, store16m)
}

static void maxpool_sep_scalar(float *y, const float *x, ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH,
                               ptrdiff_t KW, ptrdiff_t ph, ptrdiff_t pw, ptrdiff_t OH, ptrdiff_t OW,
                               ptrdiff_t c0, ptrdiff_t c1) {
  SEP_PASSES(float, 1, -INFINITY, lanes1, load1m, load1, fold1, store1, store1m)
}

__attribute__((target("avx2,fma"))) static void
maxpool_sep256(float *y, const float *x, ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH, ptrdiff_t KW,
               ptrdiff_t ph, ptrdiff_t pw, ptrdiff_t OH, ptrdiff_t OW, ptrdiff_t c0, ptrdiff_t c1) {
  SEP_PASSES(__m256, 8, _mm256_set1_ps(-INFINITY), lanes8, load8m, _mm256_loadu_ps, fold8,
             _mm256_storeu_ps, store8m)
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

// Stride 2 across the row (ResNet's 3x3 pad 1): the body's taps, in its
// order, for a vector of outputs at once. Output o + l of tap (i, j) reads
// column 2 (o + l) + j dw - pw: two row loads under in-row masks (lanes
// outside read -inf, which folds in as a skipped tap would), then their even
// lanes. The generic loop read each tap strided, one float at a time: 1.30
// ms for ResNet-18's pool against 0.45 now (onnxruntime 0.23).
#define S2_MAX_KW 16
#define S2_BODY(V, L, K, NEG, MASK, LOAD, LOADM, EVEN, FOLD, STORE, STOREM)     \
  const V neg = NEG;                                                          \
  for (ptrdiff_t c = c0; c < c1; c++) {                                       \
    const float *xc = x + c * H * W;                                          \
    for (ptrdiff_t oh = 0; oh < OH; oh++) {                                   \
      float *yr = y + (c * OH + oh) * OW;                                     \
      for (ptrdiff_t o = 0; o < OW; o += L) {                                 \
        /* Tap j reads columns base + t, t < 2 L: the masks keep those inside \
           the row and under the last output's; all lanes in: plain loads. */ \
        K ma[S2_MAX_KW], mb[S2_MAX_KW];                                       \
        int full[S2_MAX_KW];                                                  \
        for (ptrdiff_t j = 0; j < KW; j++) {                                  \
          const ptrdiff_t base = 2 * o + j * dw - pw;                         \
          ptrdiff_t hi = W - base, lim = 2 * (OW - o) - 1;                    \
          if (hi > lim) hi = lim;                                             \
          full[j] = base >= 0 && hi >= 2 * L;                                 \
          ma[j] = MASK(-base, hi);                                            \
          mb[j] = MASK(-base - L, hi - L);                                    \
        }                                                                     \
        V m = neg;                                                            \
        for (ptrdiff_t i = 0; i < KH; i++) {                                  \
          const ptrdiff_t ih = oh * sh - ph + i * dh;                         \
          if (ih < 0 || ih >= H) continue;                                    \
          const float *xr = xc + ih * W;                                      \
          for (ptrdiff_t j = 0; j < KW; j++) {                                \
            const ptrdiff_t base = 2 * o + j * dw - pw;                       \
            if (full[j])                                                      \
              m = FOLD(m, EVEN(LOAD(xr + base), LOAD(xr + base + L)));        \
            else                                                              \
              m = FOLD(m, EVEN(LOADM(ma[j], xr, base), LOADM(mb[j], xr, base + L))); \
          }                                                                   \
        }                                                                     \
        STORE_BLOCK(STORE, STOREM, L)                                         \
      }                                                                       \
    }                                                                         \
  }

__attribute__((target("avx512f"))) static inline __m512 even16(__m512 a, __m512 b) {
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  return _mm512_permutex2var_ps(a, even, b);
}

/// Lanes 0, 2, 4, 6 of a, then those of b.
__attribute__((target("avx2,fma"))) static inline __m256 even8(__m256 a, __m256 b) {
  const __m256 e = _mm256_shuffle_ps(a, b, 0x88);  // a0 a2 b0 b2 | a4 a6 b4 b6
  return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(e), 0xD8));
}

__attribute__((target("avx512f"))) static void
maxpool_s2_512(float *y, const float *x, ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH, ptrdiff_t KW, ptrdiff_t sh,
               ptrdiff_t ph, ptrdiff_t pw, ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH, ptrdiff_t OW, ptrdiff_t c0,
               ptrdiff_t c1) {
  S2_BODY(__m512, 16, __mmask16, _mm512_set1_ps(-INFINITY), lanes16, _mm512_loadu_ps, load16m, even16, fold16,
          _mm512_storeu_ps, store16m)
}

__attribute__((target("avx2,fma"))) static void
maxpool_s2_256(float *y, const float *x, ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH, ptrdiff_t KW, ptrdiff_t sh,
               ptrdiff_t ph, ptrdiff_t pw, ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH, ptrdiff_t OW, ptrdiff_t c0,
               ptrdiff_t c1) {
  S2_BODY(__m256, 8, __m256i, _mm256_set1_ps(-INFINITY), lanes8, _mm256_loadu_ps, load8m, even8, fold8,
          _mm256_storeu_ps, store8m)
}

void bk_maxpool(int isa, float *y, const float *x, ptrdiff_t H, ptrdiff_t W,
                ptrdiff_t KH, ptrdiff_t KW, ptrdiff_t sh, ptrdiff_t sw,
                ptrdiff_t ph, ptrdiff_t pw, ptrdiff_t dh, ptrdiff_t dw,
                ptrdiff_t OH, ptrdiff_t OW, ptrdiff_t c0, ptrdiff_t c1) {
  isa = bk_clamp_isa(isa);
  if (maxpool_separable(KH, KW, sh, sw, ph, pw, dh, dw, OW)) {
    if (isa >= BK_ISA_AVX512)
      maxpool_sep512(y, x, H, W, KH, KW, ph, pw, OH, OW, c0, c1);
    else if (isa >= BK_ISA_AVX2)
      maxpool_sep256(y, x, H, W, KH, KW, ph, pw, OH, OW, c0, c1);
    else
      maxpool_sep_scalar(y, x, H, W, KH, KW, ph, pw, OH, OW, c0, c1);
  } else if (sw == 2 && KW <= S2_MAX_KW && isa >= BK_ISA_AVX512)
    maxpool_s2_512(y, x, H, W, KH, KW, sh, ph, pw, dh, dw, OH, OW, c0, c1);
  else if (sw == 2 && KW <= S2_MAX_KW && isa >= BK_ISA_AVX2)
    maxpool_s2_256(y, x, H, W, KH, KW, sh, ph, pw, dh, dw, OH, OW, c0, c1);
  else if (isa >= BK_ISA_AVX2)
    maxpool_avx2(y, x, H, W, KH, KW, sh, sw, ph, pw, dh, dw, OH, OW, c0, c1);
  else
    maxpool_scalar(y, x, H, W, KH, KW, sh, sw, ph, pw, dh, dw, OH, OW, c0, c1);
}
