// LD_PRELOAD shim for bench_inference.py: onnxruntime's CPU dispatch reads
// CPUID once at start-up; with Linux CPUID faulting (ARCH_SET_CPUID, the
// `cpuid_fault` flag) every CPUID traps, and this handler answers it with the
// AVX-512 bits of leaf 7 cleared. onnxruntime then runs its AVX2 + FMA
// kernels, as on a machine without AVX-512: an AVX2 machine's comparison,
// measured on an AVX-512 one. Dev-time only; never linked into Bullseye.
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

static void cpuid_raw(uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *d) {
  __asm__ volatile("cpuid" : "+a"(*a), "=b"(*b), "+c"(*c), "=d"(*d));
}

// Leaf 7 sub-leaf 0: EBX AVX512F/DQ/IFMA/PF/ER/CD/BW/VL, ECX VBMI/VBMI2/VNNI/
// BITALG/VPOPCNTDQ, EDX 4VNNIW/4FMAPS/VP2INTERSECT/FP16; sub-leaf 1: EAX BF16.
#define EBX_512 ((1u << 16) | (1u << 17) | (1u << 21) | (1u << 26) | (1u << 27) | (1u << 28) | (1u << 30) | (1u << 31))
#define ECX_512 ((1u << 1) | (1u << 6) | (1u << 11) | (1u << 12) | (1u << 14))
#define EDX_512 ((1u << 2) | (1u << 3) | (1u << 8) | (1u << 23))

static void answer(uint32_t leaf, uint32_t sub, uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *d) {
  *a = leaf, *b = 0, *c = sub, *d = 0;
  syscall(SYS_arch_prctl, ARCH_SET_CPUID, 1);
  cpuid_raw(a, b, c, d);
  syscall(SYS_arch_prctl, ARCH_SET_CPUID, 0);
  if (leaf == 7 && sub == 0) *b &= ~EBX_512, *c &= ~ECX_512, *d &= ~EDX_512;
  if (leaf == 7 && sub == 1) *a &= ~(1u << 5);
}

static void on_segv(int sig, siginfo_t *si, void *ucv) {
  (void)si;
  greg_t *r = ((ucontext_t *)ucv)->uc_mcontext.gregs;
  const uint8_t *ip = (const uint8_t *)r[REG_RIP];
  if (ip[0] != 0x0F || ip[1] != 0xA2) {  // a real fault: die as without the shim
    signal(sig, SIG_DFL);
    return;
  }
  uint32_t a, b, c, d;
  answer((uint32_t)r[REG_RAX], (uint32_t)r[REG_RCX], &a, &b, &c, &d);
  r[REG_RAX] = a, r[REG_RBX] = b, r[REG_RCX] = c, r[REG_RDX] = d;
  r[REG_RIP] += 2;
}

/// 1 when CPUID, as a program sees it now, reports no AVX512F (the bench's check that the shim took).
int bullseye_avx512_hidden(void) {
  uint32_t a = 7, b = 0, c = 0, d = 0;
  cpuid_raw(&a, &b, &c, &d);
  return (b & (1u << 16)) == 0;
}

__attribute__((constructor)) static void install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO;
  if (sigaction(SIGSEGV, &sa, 0) == 0) syscall(SYS_arch_prctl, ARCH_SET_CPUID, 0);
}
