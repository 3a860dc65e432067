// In-register transposes shared by the kernels that turn channels-across-the-
// lanes blocks to and from NCHW rows (depthwise_lanes*.c, conv_outvec*.c).
// Private to CKernels.
#ifndef CKERNELS_TRANSPOSE_H
#define CKERNELS_TRANSPOSE_H

#include <immintrin.h>

/// Transposes a 16x16 block in registers: r[i] element j becomes r[j]
/// element i (unpacks within 128-bit lanes, then 128-bit lane shuffles).
__attribute__((target("avx512f"), always_inline)) static inline void transpose16(__m512 r[16]) {
  __m512 t[16], u[16];
  for (int k = 0; k < 8; k++) {
    t[2 * k] = _mm512_unpacklo_ps(r[2 * k], r[2 * k + 1]);
    t[2 * k + 1] = _mm512_unpackhi_ps(r[2 * k], r[2 * k + 1]);
  }
  for (int k = 0; k < 4; k++) {
    __m512d a = _mm512_castps_pd(t[4 * k]), b = _mm512_castps_pd(t[4 * k + 2]);
    __m512d c = _mm512_castps_pd(t[4 * k + 1]), d = _mm512_castps_pd(t[4 * k + 3]);
    u[4 * k] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, b));
    u[4 * k + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, b));
    u[4 * k + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(c, d));
    u[4 * k + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(c, d));
  }
  for (int m = 0; m < 4; m++) {
    __m512 v0 = _mm512_shuffle_f32x4(u[m], u[4 + m], 0x88), v1 = _mm512_shuffle_f32x4(u[m], u[4 + m], 0xDD);
    __m512 v2 = _mm512_shuffle_f32x4(u[8 + m], u[12 + m], 0x88), v3 = _mm512_shuffle_f32x4(u[8 + m], u[12 + m], 0xDD);
    r[m] = _mm512_shuffle_f32x4(v0, v2, 0x88);
    r[m + 4] = _mm512_shuffle_f32x4(v1, v3, 0x88);
    r[m + 8] = _mm512_shuffle_f32x4(v0, v2, 0xDD);
    r[m + 12] = _mm512_shuffle_f32x4(v1, v3, 0xDD);
  }
}

/// Transposes an 8x8 block in registers: r[i] element j becomes r[j] element i.
__attribute__((target("avx2,fma"), always_inline)) static inline void transpose8(__m256 r[8]) {
  __m256 t[8], u[8];
  for (int k = 0; k < 4; k++) {
    t[2 * k] = _mm256_unpacklo_ps(r[2 * k], r[2 * k + 1]);
    t[2 * k + 1] = _mm256_unpackhi_ps(r[2 * k], r[2 * k + 1]);
  }
  for (int h = 0; h < 2; h++) {
    u[4 * h] = _mm256_shuffle_ps(t[4 * h], t[4 * h + 2], 0x44);
    u[4 * h + 1] = _mm256_shuffle_ps(t[4 * h], t[4 * h + 2], 0xEE);
    u[4 * h + 2] = _mm256_shuffle_ps(t[4 * h + 1], t[4 * h + 3], 0x44);
    u[4 * h + 3] = _mm256_shuffle_ps(t[4 * h + 1], t[4 * h + 3], 0xEE);
  }
  for (int m = 0; m < 4; m++) {
    r[m] = _mm256_permute2f128_ps(u[m], u[4 + m], 0x20);
    r[m + 4] = _mm256_permute2f128_ps(u[m], u[4 + m], 0x31);
  }
}

#endif
