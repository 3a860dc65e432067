// A malloc hook for tests: counts heap allocations made on the calling thread
// between bk_alloc_count_start and bk_alloc_count_stop. The test binary's
// malloc family forwards to glibc's (__libc_*), so only counting is added.
#ifndef CALLOCCOUNT_H
#define CALLOCCOUNT_H

/// Starts counting allocations made on this thread (from zero).
void bk_alloc_count_start(void);
/// Stops counting and returns how many allocations this thread made.
long bk_alloc_count_stop(void);

#endif
