// Interposes the malloc family in the test executable (its definitions win
// over libc's for every library in the process) and forwards to glibc's
// own entry points. Only the thread that asked is counted, so tests running
// in parallel on other threads do not disturb the figure.
#include "CAllocCount.h"

#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static _Thread_local int counting;
static _Thread_local long counted;

static inline void note(void) {
  if (counting) counted++;
}

void bk_alloc_count_start(void) {
  counted = 0;
  counting = 1;
}

long bk_alloc_count_stop(void) {
  counting = 0;
  return counted;
}

void *malloc(size_t n) { note(); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { note(); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { note(); return __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t a, size_t n) { note(); return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { note(); return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
  note();
  if (a < sizeof(void *) || (a & (a - 1)) != 0) return EINVAL;
  void *p = __libc_memalign(a, n);
  if (!p && n) return ENOMEM;
  *out = p;
  return 0;
}
