// CKernels: SIMD microkernels for Inference, with runtime CPU dispatch.
//
// Determinism rule (shared by every path): each output element is one
// accumulator that starts at its bias (or 0) and takes fused multiply-adds in
// increasing reduction index order. SIMD lanes run across independent outputs,
// never across the reduction, so the AVX-512, AVX2 and scalar (fmaf) paths
// give bit-identical results.
#ifndef CKERNELS_H
#define CKERNELS_H

#include <stddef.h>

enum {
  BK_ISA_SCALAR = 0,
  BK_ISA_AVX2 = 1,   // AVX2 + FMA
  BK_ISA_AVX512 = 2, // AVX-512F
};

/// The best instruction set this CPU and OS support (cpuid + xgetbv).
int bk_best_isa(void);

/// `bytes` (64-byte aligned; from 2 MiB on, 2 MiB-aligned and advised onto
/// transparent huge pages), or NULL when out of memory. Free with bk_free_huge.
void *bk_alloc_huge(size_t bytes);

/// Frees what bk_alloc_huge returned (NULL is fine).
void bk_free_huge(void *p);

/// Runs `iters` rounds of 12 independent FMA chains on `isa` (clamped to the
/// CPU) and returns the floating-point operations done; the chains' sum goes
/// to `sink` so nothing is optimised away. Timing it gives one core's peak.
long long bk_peak_fma(int isa, long long iters, double *sink);

/// An activation applied to GEMM outputs (`BK_ACT_*`), same bits as
/// bk_activate on the finished matrix.
typedef struct {
  int act;
  float alpha, beta;
} BKEpilogue;

/// C[m, n] = bias[m] + sum_k A[m, k] * B[k, n] (row-major, strides in floats),
/// then the epilogue. `bias` and `ep` may be NULL. `isa` above the machine's
/// best falls back down.
void bk_gemm(int isa, ptrdiff_t M, ptrdiff_t N, ptrdiff_t K,
             const float *A, ptrdiff_t lda, const float *B, ptrdiff_t ldb,
             float *C, ptrdiff_t ldc, const float *bias, const BKEpilogue *ep);

/// Geometry of a 2-D convolution over one image [C, H, W] (one group).
typedef struct {
  ptrdiff_t C, H, W, KH, KW, sh, sw, ph, pw, dh, dw, OH, OW;
} BKConvGeom;

/// Whether bk_conv_gemm runs this convolution (all M output channels) as a
/// direct convolution on `isa` rather than GEMM on packed panels (stems and
/// layers with few output channels over wide rows on AVX-512; on AVX2 the
/// layers of 8, 24 or 40 channels the outvec kernel cannot take).
int bk_conv_is_direct(int isa, ptrdiff_t M, const BKConvGeom *g);

/// Convolution as GEMM without an im2col buffer: y[m, n] for n in [n0, n1)
/// equals bk_gemm(A [M, C*KH*KW], im2col(x)) bit for bit (padding taps are
/// zeros in both). y has row stride OH*OW; A is row-major.
void bk_conv_gemm(int isa, ptrdiff_t M, ptrdiff_t n0, ptrdiff_t n1,
                  const float *A, const float *x, const BKConvGeom *g,
                  float *y, const float *bias, const BKEpilogue *ep);

/// Whether bk_conv_outvec runs this convolution on `isa`: AVX2 or AVX-512,
/// M a multiple of 16, column stride 1-2, kernels up to 8x8, and not a
/// shape the direct stem kernel takes.
int bk_conv_outvec_applies(int isa, ptrdiff_t M, const BKConvGeom *g);

/// Packs row-major A [M, K] (M a multiple of 16) for bk_conv_outvec: groups
/// of 16 rows, each [K][16], into dst (M * K floats). Done once, at load.
void bk_conv_outvec_pack(float *dst, const float *A, ptrdiff_t M, ptrdiff_t K);

/// Floats of workspace bk_conv_outvec_pad needs for g with M output
/// channels: 0 when g has no padding, or when its image is too big to copy
/// or too cheap per copied float (bk_conv_outvec then pads only the tiles on
/// the border, as it goes).
ptrdiff_t bk_conv_outvec_workspace(ptrdiff_t M, const BKConvGeom *g);

/// The image bk_conv_outvec reads: x itself when the workspace is 0, else
/// ws, into which this call copies channels [c0, c1) of x with the padding
/// as zeros (threads may split the channels); *out is the geometry to pass
/// (g, or no padding with H and W those of the copy).
const float *bk_conv_outvec_pad(float *ws, const float *x, ptrdiff_t M, const BKConvGeom *g,
                               ptrdiff_t c0, ptrdiff_t c1, BKConvGeom *out);

/// Input channels per block when bk_conv_outvec walks g (the geometry
/// bk_conv_outvec_pad gave) channel-blocked on `isa`, keeping each block's
/// weights in L1 across a segment of tiles; 0 for the plain walk (AVX2, a
/// 1x1 kernel, one block's worth of channels, or border tiles that read
/// patches). Either way the bits are the same.
ptrdiff_t bk_conv_outvec_blocks(int isa, const BKConvGeom *g);

/// bk_conv_gemm with output channels across the lanes and A packed by
/// bk_conv_outvec_pack: the same bits, for columns [n0, n1) of y (row
/// stride OH*OW). x and g come from bk_conv_outvec_pad. A caller may split
/// the channels in groups of 16 (A, y and bias offset to match) once
/// bk_conv_outvec_applies accepted the whole layer. Returns 0, writing
/// nothing, for a shape the kernel cannot run (M not a multiple of 16, the
/// scalar ISA, stride above 2, a kernel over 8x8).
int bk_conv_outvec(int isa, ptrdiff_t M, ptrdiff_t n0, ptrdiff_t n1, const float *Ap,
                   const float *x, const BKConvGeom *g, float *y, const float *bias,
                   const BKEpilogue *ep);

/// y[n] = bias[n] + sum_k x[k] * B[k, n] for n in [0, N) (B row stride ldb),
/// fmas in increasing k, then the epilogue; the same bits as bk_gemm with
/// M = 1 and the bias per column. `bias` and `ep` may be NULL.
void bk_vecmat(int isa, ptrdiff_t N, ptrdiff_t K, const float *x,
               const float *B, ptrdiff_t ldb, float *y, const float *bias,
               const BKEpilogue *ep);

/// Reference for bk_gemm: a plain triple loop with fmaf.
void bk_gemm_naive(ptrdiff_t M, ptrdiff_t N, ptrdiff_t K,
                   const float *A, ptrdiff_t lda, const float *B,
                   ptrdiff_t ldb, float *C, ptrdiff_t ldc, const float *bias);

enum {
  BK_ACT_NONE = 0,
  BK_ACT_RELU = 1,
  BK_ACT_SIGMOID = 2,
  BK_ACT_SILU = 3,        // x * sigmoid(x), the product of the two ops
  BK_ACT_HARDSIGMOID = 4, // max(0, min(1, alpha * x + beta))
  BK_ACT_HARDSWISH = 5,   // x * hardsigmoid(x)
};

/// Applies an activation in place. Scalar code without contraction, so every
/// machine and every fused/unfused graph gives the same bits.
void bk_activate(float *x, ptrdiff_t n, int act, float alpha, float beta);

/// bk_activate with SIMD on `isa` for sigmoid and SiLU; bit-identical to the
/// scalar path (same operations in the same order, no contraction).
void bk_activate_isa(int isa, float *x, ptrdiff_t n, int act, float alpha,
                     float beta);

/// exp(x) from +, * and bit operations only (about 1 ulp): identical on every
/// machine, unlike libm variants picked at load time.
float bk_expf(float x);

/// Unfolds one image [C, H, W] into cols[(c*KH + i)*KW + j][oh*OW + ow] for
/// channels [c0, c1). Padding reads as 0.
void bk_im2col(float *cols, const float *x, ptrdiff_t C, ptrdiff_t H,
               ptrdiff_t W, ptrdiff_t KH, ptrdiff_t KW, ptrdiff_t sh,
               ptrdiff_t sw, ptrdiff_t ph, ptrdiff_t pw, ptrdiff_t dh,
               ptrdiff_t dw, ptrdiff_t OH, ptrdiff_t OW, ptrdiff_t c0,
               ptrdiff_t c1);

/// Depthwise convolution of channels [c0, c1) of one image: y[c] = bias[c] +
/// sum_{i,j} w[c,i,j] * x[c, ...] over in-bounds taps, fmaf in (i, j) order.
void bk_depthwise(int isa, float *y, const float *x, const float *w,
                  const float *bias, ptrdiff_t H, ptrdiff_t W, ptrdiff_t KH,
                  ptrdiff_t KW, ptrdiff_t sh, ptrdiff_t sw, ptrdiff_t ph,
                  ptrdiff_t pw, ptrdiff_t dh, ptrdiff_t dw, ptrdiff_t OH,
                  ptrdiff_t OW, ptrdiff_t c0, ptrdiff_t c1);

/// y[c] = (sum of the hw values of channel c, added in order from 0) / hw for
/// c in [c0, c1): GlobalAveragePool's sum, eight channels at a time.
void bk_channel_mean(float *y, const float *x, ptrdiff_t hw, ptrdiff_t c0,
                     ptrdiff_t c1);

/// bk_channel_mean on an instruction set (`BK_ISA_*`, clamped to the CPU's):
/// 16 or 8 channels in the lanes, each sum still in increasing order, so the
/// bits equal bk_channel_mean's.
void bk_channel_mean_isa(int isa, float *y, const float *x, ptrdiff_t hw, ptrdiff_t c0, ptrdiff_t c1);

/// Max pooling of channels [c0, c1) of one image over in-bounds taps
/// (padding never wins); NaN propagates. Output rows of OW, planes of OH*OW.
void bk_maxpool(int isa, float *y, const float *x, ptrdiff_t H, ptrdiff_t W,
                ptrdiff_t KH, ptrdiff_t KW, ptrdiff_t sh, ptrdiff_t sw,
                ptrdiff_t ph, ptrdiff_t pw, ptrdiff_t dh, ptrdiff_t dw,
                ptrdiff_t OH, ptrdiff_t OW, ptrdiff_t c0, ptrdiff_t c1);

/// Softmax over k of one slab x[len, inner], columns [i0, i1): max (NaN
/// ignored), exp(x - max) by bk_expf's arithmetic, a sum in increasing k, and
/// a division. Every ISA gives the scalar code's bits.
void bk_softmax(int isa, float *y, const float *x, ptrdiff_t len,
                ptrdiff_t inner, ptrdiff_t i0, ptrdiff_t i1);

/// One chunk of a parallel loop: indices [lo, hi) of the caller's range.
typedef void (*BKTask)(void *ctx, ptrdiff_t lo, ptrdiff_t hi);

/// Runs fn over [0, n) split into min(threads, n) contiguous chunks
/// [n*k/t, n*(k+1)/t), chunk 0 on the caller, the others on persistent pool
/// workers; returns when all are done. While another region is running (or
/// when called from inside a chunk) the whole range runs on the caller.
void bk_parallel_for(int threads, ptrdiff_t n, BKTask fn, void *ctx);

#endif
