// The one place that picks the instruction set: every kernel asks here, so
// the dispatch does not tie kernel files to each other.
#include "CKernels.h"
#include "internal.h"

#include <cpuid.h>

static int detect_isa(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return BK_ISA_SCALAR;
  int fma = (c >> 12) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
  if (!(fma && osxsave && avx)) return BK_ISA_SCALAR;
  unsigned lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if ((lo & 6) != 6) return BK_ISA_SCALAR; // OS saves XMM and YMM state
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return BK_ISA_SCALAR;
  if (!((b >> 5) & 1)) return BK_ISA_SCALAR; // AVX2
  if (((b >> 16) & 1) && (lo & 0xe0) == 0xe0) return BK_ISA_AVX512;
  return BK_ISA_AVX2;
}

int bk_best_isa(void) {
  static int cached = -1;
  int v = __atomic_load_n(&cached, __ATOMIC_RELAXED);
  if (v < 0) {
    v = detect_isa();
    __atomic_store_n(&cached, v, __ATOMIC_RELAXED);
  }
  return v;
}

int bk_clamp_isa(int isa) {
  int best = bk_best_isa();
  return isa > best ? best : isa;
}
