// GEMM: the naive reference, the scalar fmaf path, the general im2col panel
// packer and the dispatch to gemm512.c (12x32 tiles) and gemm256.c (6x16).
// Every path computes each C[m, n] as one accumulator that starts at bias[m]
// and takes fmas for k = 0, 1, ..., K-1, so the paths agree bit for bit (see
// CKernels.h).
#include "CKernels.h"
#include "activation.h"
#include "internal.h"

#include <immintrin.h>
#include <math.h>
#include <stdint.h>

#pragma STDC FP_CONTRACT OFF

void bk_gemm_naive(ptrdiff_t M, ptrdiff_t N, ptrdiff_t K, const float *A,
                   ptrdiff_t lda, const float *B, ptrdiff_t ldb, float *C,
                   ptrdiff_t ldc, const float *bias) {
  for (ptrdiff_t m = 0; m < M; m++)
    for (ptrdiff_t n = 0; n < N; n++) {
      float acc = bias ? bias[m] : 0.0f;
      for (ptrdiff_t k = 0; k < K; k++)
        acc = fmaf(A[m * lda + k], B[k * ldb + n], acc);
      C[m * ldc + n] = acc;
    }
}

// Same order per element as the naive loop; rows of C act as accumulators.
static void gemm_scalar(ptrdiff_t M, ptrdiff_t N, ptrdiff_t K, const float *A,
                        ptrdiff_t lda, const float *B, ptrdiff_t ldb, float *C,
                        ptrdiff_t ldc, const float *bias, const BKEpilogue *ep) {
  for (ptrdiff_t m = 0; m < M; m++) {
    float *c = C + m * ldc;
    float b = bias ? bias[m] : 0.0f;
    for (ptrdiff_t n = 0; n < N; n++) c[n] = b;
    for (ptrdiff_t k = 0; k < K; k++) {
      float a = A[m * lda + k];
      const float *bk = B + k * ldb;
      for (ptrdiff_t n = 0; n < N; n++) c[n] = fmaf(a, bk[n], c[n]);
    }
    if (ep && ep->act) bk_activate(c, N, ep->act, ep->alpha, ep->beta);
  }
}

// MARK: Implicit im2col

// Packs rows [k0, k0 + kc) of the im2col matrix of image x, columns
// [n0, n0 + nr), into pack[k * width + lane]; lanes past nr and padding taps
// are 0, exactly as bk_im2col writes them.
// no_builtin keeps short row copies inline instead of memcpy calls; the
// callers carry it too so the packer still inlines into them.
#define NO_MEMCPY __attribute__((no_builtin("memcpy", "memset")))

// Copies n (<= 32) lanes src[l * sw] into dst[l] with AVX-512; sw is 1 or 2.
// Loads are masked to the elements actually read.
__attribute__((target("avx512f"), always_inline)) static inline void
copy_lanes512(float *dst, const float *src, ptrdiff_t n, ptrdiff_t sw) {
  if (sw == 1) {
    __mmask16 m0 = n >= 16 ? 0xFFFF : (__mmask16)((1u << n) - 1);
    __mmask16 m1 = n >= 32 ? 0xFFFF : n > 16 ? (__mmask16)((1u << (n - 16)) - 1) : 0;
    _mm512_mask_storeu_ps(dst, m0, _mm512_maskz_loadu_ps(m0, src));
    if (m1) _mm512_mask_storeu_ps(dst + 16, m1, _mm512_maskz_loadu_ps(m1, src + 16));
    return;
  }
  // sw == 2: elements 0, 2, ..., 2(n - 1) of a span of 2n - 1 floats.
  ptrdiff_t span = 2 * n - 1;
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  __m512 v[4];
  for (int q = 0; q < 4; q++) {
    ptrdiff_t left = span - 16 * q;
    __mmask16 m = left >= 16 ? 0xFFFF : left > 0 ? (__mmask16)((1u << left) - 1) : 0;
    v[q] = _mm512_maskz_loadu_ps(m, src + 16 * q);
  }
  __mmask16 s0 = n >= 16 ? 0xFFFF : (__mmask16)((1u << n) - 1);
  __mmask16 s1 = n >= 32 ? 0xFFFF : n > 16 ? (__mmask16)((1u << (n - 16)) - 1) : 0;
  _mm512_mask_storeu_ps(dst, s0, _mm512_permutex2var_ps(v[0], even, v[1]));
  if (s1) _mm512_mask_storeu_ps(dst + 16, s1, _mm512_permutex2var_ps(v[2], even, v[3]));
}

#define PACK_CONV_BODY(COPY)                                                  \
  ptrdiff_t rl0[34], rl1[34], roh[34], row0[34], runs = 0;                   \
  ptrdiff_t oh = n0 / g->OW, ow = n0 % g->OW;                                \
  for (ptrdiff_t l = 0; l < nr;) {                                           \
    ptrdiff_t len = g->OW - ow < nr - l ? g->OW - ow : nr - l;               \
    rl0[runs] = l; rl1[runs] = l + len; roh[runs] = oh; row0[runs] = ow;     \
    runs++; l += len; ow = 0; oh++;                                          \
  }                                                                          \
  ptrdiff_t taps = g->KH * g->KW, sw = g->sw;                                \
  ptrdiff_t c = k0 / taps, i = (k0 % taps) / g->KW, j = k0 % g->KW;          \
  for (ptrdiff_t k = 0; k < kc; k++) {                                       \
    ptrdiff_t di = i * g->dh, dj = j * g->dw;                                \
    const float *xc = x + c * g->H * g->W;                                   \
    if (++j == g->KW) { j = 0; if (++i == g->KH) { i = 0; c++; } }           \
    float *dst = pack + k * width;                                           \
    for (ptrdiff_t r = 0; r < runs; r++) {                                   \
      ptrdiff_t l0 = rl0[r], l1 = rl1[r];                                    \
      ptrdiff_t ih = roh[r] * g->sh - g->ph + di;                            \
      if (ih < 0 || ih >= g->H) {                                            \
        for (ptrdiff_t l = l0; l < l1; l++) dst[l] = 0.0f;                   \
        continue;                                                            \
      }                                                                      \
      ptrdiff_t iw0 = row0[r] * sw - g->pw + dj, n = l1 - l0;                \
      ptrdiff_t lo = iw0 >= 0 ? 0 : (-iw0 + sw - 1) / sw;                    \
      ptrdiff_t hi = g->W - iw0 <= 0 ? 0 : (g->W - iw0 + sw - 1) / sw;       \
      if (hi > n) hi = n;                                                    \
      if (lo > hi) lo = hi;                                                  \
      const float *src = xc + ih * g->W + iw0;                               \
      for (ptrdiff_t l = 0; l < lo; l++) dst[l0 + l] = 0.0f;                 \
      COPY                                                                   \
      for (ptrdiff_t l = hi; l < n; l++) dst[l0 + l] = 0.0f;                 \
    }                                                                        \
    for (ptrdiff_t l = nr; l < width; l++) dst[l] = 0.0f;                    \
  }

#define SCALAR_COPY                                                          \
  if (sw == 1)                                                               \
    for (ptrdiff_t l = lo; l < hi; l++) dst[l0 + l] = src[l];                \
  else                                                                       \
    for (ptrdiff_t l = lo; l < hi; l++) dst[l0 + l] = src[l * sw];

#define AVX512_COPY                                                          \
  if (sw <= 2 && hi > lo)                                                    \
    copy_lanes512(dst + l0 + lo, src + lo * sw, hi - lo, sw);                \
  else                                                                       \
    for (ptrdiff_t l = lo; l < hi; l++) dst[l0 + l] = src[l * sw];

NO_MEMCPY __attribute__((target("avx512f"))) void
bk_pack_conv_rows512(float *pack, int width, const float *x, const BKConvGeom *g,
                     ptrdiff_t k0, ptrdiff_t kc, ptrdiff_t n0, ptrdiff_t nr) {
  PACK_CONV_BODY(AVX512_COPY)
}

NO_MEMCPY void bk_pack_conv_rows(float *pack, int width, const float *x, const BKConvGeom *g,
                                 ptrdiff_t k0, ptrdiff_t kc, ptrdiff_t n0, ptrdiff_t nr) {
  PACK_CONV_BODY(SCALAR_COPY)
}

NO_MEMCPY void bk_conv_gemm(int isa, ptrdiff_t M, ptrdiff_t n0, ptrdiff_t n1,
                  const float *A, const float *x, const BKConvGeom *g,
                  float *y, const float *bias, const BKEpilogue *ep) {
  ptrdiff_t N = n1 - n0, K = g->C * g->KH * g->KW, ldc = g->OH * g->OW;
  if (M <= 0 || N <= 0) return;
  int best = bk_best_isa();
  if (isa > best) isa = best;
  if (isa == BK_ISA_AVX512) {
    if (!bk_conv_direct512(M, n0, n1, A, x, g, y, bias, ep))
      bk_gemm512(M, N, K, A, K, g, x, 0, y + n0, ldc, bias, n0, ep);
  } else if (isa == BK_ISA_AVX2) {
    if (!bk_conv_direct256(M, n0, n1, A, x, g, y, bias, ep))
      bk_gemm256(M, N, K, A, K, g, x, 0, y + n0, ldc, bias, n0, ep);
  } else {
    // Scalar: pack 16 columns at a time, then the fmaf loop over them.
    float pack[256 * 16];
    for (ptrdiff_t c0 = n0; c0 < n1; c0 += 16) {
      ptrdiff_t nr = n1 - c0 < 16 ? n1 - c0 : 16;
      for (ptrdiff_t m = 0; m < M; m++)
        for (ptrdiff_t l = 0; l < nr; l++) y[m * ldc + c0 + l] = bias ? bias[m] : 0.0f;
      for (ptrdiff_t k0 = 0; k0 < K; k0 += 256) {
        ptrdiff_t kc = K - k0 < 256 ? K - k0 : 256;
        bk_pack_conv_rows(pack, 16, x, g, k0, kc, c0, nr);
        for (ptrdiff_t m = 0; m < M; m++) {
          float *c = y + m * ldc + c0;
          for (ptrdiff_t k = 0; k < kc; k++) {
            float a = A[m * K + k0 + k];
            for (ptrdiff_t l = 0; l < nr; l++) c[l] = fmaf(a, pack[k * 16 + l], c[l]);
          }
        }
      }
      if (ep && ep->act)
        for (ptrdiff_t m = 0; m < M; m++)
          bk_activate(y + m * ldc + c0, nr, ep->act, ep->alpha, ep->beta);
    }
  }
}

void bk_gemm(int isa, ptrdiff_t M, ptrdiff_t N, ptrdiff_t K, const float *A,
             ptrdiff_t lda, const float *B, ptrdiff_t ldb, float *C,
             ptrdiff_t ldc, const float *bias, const BKEpilogue *ep) {
  if (M <= 0 || N <= 0) return;
  int best = bk_best_isa();
  if (isa > best) isa = best;
  if (isa == BK_ISA_AVX512)
    bk_gemm512(M, N, K, A, lda, NULL, B, ldb, C, ldc, bias, 0, ep);
  else if (isa == BK_ISA_AVX2)
    bk_gemm256(M, N, K, A, lda, NULL, B, ldb, C, ldc, bias, 0, ep);
  else
    gemm_scalar(M, N, K, A, lda, B, ldb, C, ldc, bias, ep);
}
