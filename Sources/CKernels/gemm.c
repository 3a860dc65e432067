// GEMM microkernels: AVX-512 (8x32 tiles), AVX2+FMA (6x16 tiles) and a
// scalar fmaf fallback. Every path computes each C[m, n] as one accumulator
// that starts at bias[m] and takes fmas for k = 0, 1, ..., K-1, so the paths
// agree bit for bit (see CKernels.h).
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

NO_MEMCPY __attribute__((target("avx512f"), always_inline)) static inline void
pack_conv512(float *pack, int width, const float *x, const BKConvGeom *g,
             ptrdiff_t k0, ptrdiff_t kc, ptrdiff_t n0, ptrdiff_t nr) {
  PACK_CONV_BODY(AVX512_COPY)
}

NO_MEMCPY __attribute__((always_inline)) static inline void
pack_conv(float *pack, int width, const float *x,
                      const BKConvGeom *g, ptrdiff_t k0, ptrdiff_t kc,
                      ptrdiff_t n0, ptrdiff_t nr) {
  PACK_CONV_BODY(SCALAR_COPY)
}

// MARK: AVX-512

// K is blocked by KC and each 32-column panel of B is packed contiguously, so
// the panel stays in L1 while every row block of A passes over it. Blocking
// K only stores and reloads accumulators; each element still takes its fmas
// in increasing k. Element (r, k) of A is at r*rs + k*ks.
#define KC 256
#define MR512 12

__attribute__((target("avx512f"), always_inline)) static inline void
ukr512(const int mr, ptrdiff_t kc, const float *A, const ptrdiff_t rs,
       const ptrdiff_t ks, const float *P, float *C, ptrdiff_t ldc,
       const float *bias, int first, int full, __mmask16 k0, __mmask16 k1,
       const BKEpilogue *ep) {
  __m512 c0[MR512], c1[MR512];
  _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {
    if (first) {
      c0[r] = _mm512_set1_ps(bias ? bias[r] : 0.0f);
      c1[r] = c0[r];
    } else if (full) {
      c0[r] = _mm512_loadu_ps(C + r * ldc);
      c1[r] = _mm512_loadu_ps(C + r * ldc + 16);
    } else {
      c0[r] = _mm512_maskz_loadu_ps(k0, C + r * ldc);
      c1[r] = _mm512_maskz_loadu_ps(k1, C + r * ldc + 16);
    }
  }
  for (ptrdiff_t k = 0; k < kc; k++) {
    __m512 b0 = _mm512_load_ps(P + k * 32);
    __m512 b1 = _mm512_load_ps(P + k * 32 + 16);
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {
      __m512 a = _mm512_set1_ps(A[r * rs + k * ks]);
      c0[r] = _mm512_fmadd_ps(a, b0, c0[r]);
      c1[r] = _mm512_fmadd_ps(a, b1, c1[r]);
    }
  }
  // The activation on the finished accumulators (last K block only).
  if (ep && ep->act)
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {
      c0[r] = act512v(c0[r], ep->act, ep->alpha, ep->beta);
      c1[r] = act512v(c1[r], ep->act, ep->alpha, ep->beta);
    }
  if (full)
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {
      _mm512_storeu_ps(C + r * ldc, c0[r]);
      _mm512_storeu_ps(C + r * ldc + 16, c1[r]);
    }
  else
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {
      _mm512_mask_storeu_ps(C + r * ldc, k0, c0[r]);
      _mm512_mask_storeu_ps(C + r * ldc + 16, k1, c1[r]);
    }
}

// The last panel of a row when it has 16 columns or fewer (N = 196 is six
// panels and 4 columns): one vector per row, so the empty half of the panel
// costs no FMAs. Same order per element as ukr512.
__attribute__((target("avx512f"), always_inline)) static inline void
ukr512h(const int mr, ptrdiff_t kc, const float *A, const ptrdiff_t rs, const float *P, float *C,
        ptrdiff_t ldc, const float *bias, int first, __mmask16 k0, const BKEpilogue *ep) {
  __m512 c0[MR512];
  _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++)
    c0[r] = first ? _mm512_set1_ps(bias ? bias[r] : 0.0f) : _mm512_maskz_loadu_ps(k0, C + r * ldc);
  for (ptrdiff_t k = 0; k < kc; k++) {
    __m512 b0 = _mm512_load_ps(P + k * 32);
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++)
      c0[r] = _mm512_fmadd_ps(_mm512_set1_ps(A[r * rs + k]), b0, c0[r]);
  }
  if (ep && ep->act)
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) c0[r] = act512v(c0[r], ep->act, ep->alpha, ep->beta);
  _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) _mm512_mask_storeu_ps(C + r * ldc, k0, c0[r]);
}

NO_MEMCPY __attribute__((target("avx512f"))) static void
gemm512(ptrdiff_t M, ptrdiff_t N, ptrdiff_t K, const float *A, ptrdiff_t lda,
        const BKConvGeom *g, const float *B, ptrdiff_t ldb, float *C,
        ptrdiff_t ldc, const float *bias, ptrdiff_t nbase,
        const BKEpilogue *ep) {
  float pack[KC * 32] __attribute__((aligned(64)));
  for (ptrdiff_t n0 = 0; n0 < N; n0 += 32) {
    ptrdiff_t nr = N - n0 < 32 ? N - n0 : 32;
    const int full = nr == 32;
    __mmask16 k0 = nr >= 16 ? 0xFFFF : (__mmask16)((1u << nr) - 1);
    __mmask16 k1 = nr >= 32 ? 0xFFFF
                   : nr > 16 ? (__mmask16)((1u << (nr - 16)) - 1)
                             : 0;
    ptrdiff_t k0s = 0;
    do {
      ptrdiff_t kc = K - k0s < KC ? K - k0s : KC;
      if (g) {
        if (!bk_pack_conv512(pack, B, g, k0s, kc, nbase + n0, nr))
          pack_conv512(pack, 32, B, g, k0s, kc, nbase + n0, nr);
      }
      else
        for (ptrdiff_t k = 0; k < kc; k++) {
          const float *src = B + (k0s + k) * ldb + n0;
          _mm512_store_ps(pack + k * 32, _mm512_maskz_loadu_ps(k0, src));
          _mm512_store_ps(pack + k * 32 + 16, _mm512_maskz_loadu_ps(k1, src + 16));
        }
      int first = k0s == 0;
      const BKEpilogue *last = k0s + kc == K ? ep : NULL;
      for (ptrdiff_t m0 = 0; m0 < M; m0 += MR512) {
        int mr = M - m0 < MR512 ? (int)(M - m0) : MR512;
        float *c = C + m0 * ldc + n0;
        const float *bs = bias ? bias + m0 : NULL;
        const float *a = A + m0 * lda + k0s;
        if (nr <= 16) {
          switch (mr) {
#define CASE(R) case R: ukr512h(R, kc, a, lda, pack, c, ldc, bs, first, k0, last); break;
          CASE(12) CASE(11) CASE(10) CASE(9) CASE(8) CASE(7) CASE(6) CASE(5)
          CASE(4) CASE(3) CASE(2)
          default: ukr512h(1, kc, a, lda, pack, c, ldc, bs, first, k0, last); break;
#undef CASE
          }
          continue;
        }
        switch (mr) {
#define CASE(R) case R: ukr512(R, kc, a, lda, 1, pack, c, ldc, bs, first, full, k0, k1, last); break;
        CASE(12) CASE(11) CASE(10) CASE(9) CASE(8) CASE(7) CASE(6) CASE(5)
        CASE(4) CASE(3) CASE(2)
        default: ukr512(1, kc, a, lda, 1, pack, c, ldc, bs, first, full, k0, k1, last); break;
#undef CASE
        }
      }
      k0s += kc;
    } while (k0s < K);
  }
}

// MARK: AVX2 + FMA

#define MR256 6

__attribute__((target("avx2,fma"), always_inline)) static inline void
ukr256(const int mr, ptrdiff_t kc, const float *A, const ptrdiff_t rs,
       const ptrdiff_t ks, const float *P, float *C, ptrdiff_t ldc,
       const float *bias, int first, int full, __m256i k0, __m256i k1,
       const BKEpilogue *ep) {
  __m256 c0[MR256], c1[MR256];
  _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {
    if (first) {
      c0[r] = _mm256_set1_ps(bias ? bias[r] : 0.0f);
      c1[r] = c0[r];
    } else if (full) {
      c0[r] = _mm256_loadu_ps(C + r * ldc);
      c1[r] = _mm256_loadu_ps(C + r * ldc + 8);
    } else {
      c0[r] = _mm256_maskload_ps(C + r * ldc, k0);
      c1[r] = _mm256_maskload_ps(C + r * ldc + 8, k1);
    }
  }
  for (ptrdiff_t k = 0; k < kc; k++) {
    __m256 b0 = _mm256_load_ps(P + k * 16);
    __m256 b1 = _mm256_load_ps(P + k * 16 + 8);
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {
      __m256 a = _mm256_broadcast_ss(A + r * rs + k * ks);
      c0[r] = _mm256_fmadd_ps(a, b0, c0[r]);
      c1[r] = _mm256_fmadd_ps(a, b1, c1[r]);
    }
  }
  if (ep && ep->act)
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {
      c0[r] = act256v(c0[r], ep->act, ep->alpha, ep->beta);
      c1[r] = act256v(c1[r], ep->act, ep->alpha, ep->beta);
    }
  // Masked stores are slow on AMD cores; a full panel stores plainly.
  if (full)
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {
      _mm256_storeu_ps(C + r * ldc, c0[r]);
      _mm256_storeu_ps(C + r * ldc + 8, c1[r]);
    }
  else
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {
      _mm256_maskstore_ps(C + r * ldc, k0, c0[r]);
      _mm256_maskstore_ps(C + r * ldc + 8, k1, c1[r]);
    }
}


NO_MEMCPY __attribute__((target("avx2,fma"))) static void
gemm256(ptrdiff_t M, ptrdiff_t N, ptrdiff_t K, const float *A, ptrdiff_t lda,
        const BKConvGeom *g, const float *B, ptrdiff_t ldb, float *C,
        ptrdiff_t ldc, const float *bias, ptrdiff_t nbase,
        const BKEpilogue *ep) {
  float pack[KC * 16] __attribute__((aligned(32)));
  for (ptrdiff_t n0 = 0; n0 < N; n0 += 16) {
    ptrdiff_t nr = N - n0 < 16 ? N - n0 : 16;
    const int full = nr == 16;
    __m256i k0 = lane_mask(nr >= 8 ? 8 : nr);
    __m256i k1 = lane_mask(nr > 8 ? nr - 8 : 0);
    ptrdiff_t k0s = 0;
    do {
      ptrdiff_t kc = K - k0s < KC ? K - k0s : KC;
      if (g) {
        if (!bk_pack_conv256(pack, B, g, k0s, kc, nbase + n0, nr))
          pack_conv(pack, 16, B, g, k0s, kc, nbase + n0, nr);
      }
      else
        for (ptrdiff_t k = 0; k < kc; k++) {
          const float *src = B + (k0s + k) * ldb + n0;
          _mm256_store_ps(pack + k * 16, _mm256_maskload_ps(src, k0));
          _mm256_store_ps(pack + k * 16 + 8, _mm256_maskload_ps(src + 8, k1));
        }
      int first = k0s == 0;
      const BKEpilogue *last = k0s + kc == K ? ep : NULL;
      for (ptrdiff_t m0 = 0; m0 < M; m0 += MR256) {
        float *c = C + m0 * ldc + n0;
        const float *bs = bias ? bias + m0 : NULL;
        int mr = M - m0 < MR256 ? (int)(M - m0) : MR256;
        const float *a = A + m0 * lda + k0s;
        switch (mr) {
#define CASE(R) case R: ukr256(R, kc, a, lda, 1, pack, c, ldc, bs, first, full, k0, k1, last); break;
        CASE(6) CASE(5) CASE(4) CASE(3) CASE(2)
        default: ukr256(1, kc, a, lda, 1, pack, c, ldc, bs, first, full, k0, k1, last); break;
#undef CASE
        }
      }
      k0s += kc;
    } while (k0s < K);
  }
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
      gemm512(M, N, K, A, K, g, x, 0, y + n0, ldc, bias, n0, ep);
  } else if (isa == BK_ISA_AVX2) {
    gemm256(M, N, K, A, K, g, x, 0, y + n0, ldc, bias, n0, ep);
  } else {
    // Scalar: pack 16 columns at a time, then the fmaf loop over them.
    float pack[256 * 16];
    for (ptrdiff_t c0 = n0; c0 < n1; c0 += 16) {
      ptrdiff_t nr = n1 - c0 < 16 ? n1 - c0 : 16;
      for (ptrdiff_t m = 0; m < M; m++)
        for (ptrdiff_t l = 0; l < nr; l++) y[m * ldc + c0 + l] = bias ? bias[m] : 0.0f;
      for (ptrdiff_t k0 = 0; k0 < K; k0 += 256) {
        ptrdiff_t kc = K - k0 < 256 ? K - k0 : 256;
        pack_conv(pack, 16, x, g, k0, kc, c0, nr);
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
    gemm512(M, N, K, A, lda, NULL, B, ldb, C, ldc, bias, 0, ep);
  else if (isa == BK_ISA_AVX2)
    gemm256(M, N, K, A, lda, NULL, B, ldb, C, ldc, bias, 0, ep);
  else
    gemm_scalar(M, N, K, A, lda, B, ldb, C, ldc, bias, ep);
}
