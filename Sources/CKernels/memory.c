// Big buffers on 2 MiB pages where the kernel allows it.
//
// A plan's arena and constants are touched by every run, an NCHW layer
// reads one stream per channel and kernel row, and with 4 KiB pages those
// streams cost a TLB entry each. Where transparent huge pages are on
// "madvise" (Debian's default) only advised ranges get them.
#include "CKernels.h"

#include <stdlib.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)1 << 21)

void *bk_alloc_huge(size_t bytes) {
  if (bytes == 0) bytes = 64;
  const int huge = bytes >= HUGE_PAGE;
  const size_t size = huge ? (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1) : bytes;
  void *p = NULL;
  if (posix_memalign(&p, huge ? HUGE_PAGE : 64, size) != 0) return NULL;
  // Advice only: where huge pages are off or none are free, plain pages.
  if (huge) (void)madvise(p, size, MADV_HUGEPAGE);
  return p;
}

void bk_free_huge(void *p) { free(p); }
