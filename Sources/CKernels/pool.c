// A small persistent thread pool for bk_parallel_for.
//
// Why not libdispatch: a MobileNet-sized graph has ~100 nodes of 5-50 us each,
// and waking dispatch workers per node costs about as much as the node. These
// workers spin briefly (then sleep on a condition variable), so a parallel
// region costs a cache-line round trip instead of a wake-up.
//
// Only one region runs at a time; a call made while another region is running
// (another plan on another thread, or a nested call from inside a chunk) runs
// its whole range on the calling thread. Chunk boundaries depend only on n and
// t, and callers only split independent outputs, so results never depend on
// which thread ran what.
#include "CKernels.h"

#include <immintrin.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#define MAX_WORKERS 63
// About 1 ms of polling before a worker goes to sleep: longer than the serial
// stretches between parallel nodes of a typical graph. The loop polls without
// PAUSE: under a hypervisor a PAUSE loop triggers pause-loop exiting, and the
// host may park the spinning vCPU just before work arrives.
#define SPIN_LIMIT 1000000

static pthread_mutex_t region = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t sleep_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t sleep_cv = PTHREAD_COND_INITIALIZER;
static atomic_ulong generation;
static atomic_int pending;
static atomic_int sleepers;
static int workers; // guarded by `region`

// The current task; written before `generation` is bumped (release), read
// after it is observed (acquire).
static BKTask task_fn;
static void *task_ctx;
static ptrdiff_t task_n;
static int task_t;

static void run_chunk(int k) {
  ptrdiff_t lo = task_n * k / task_t, hi = task_n * (k + 1) / task_t;
  if (hi > lo) task_fn(task_ctx, lo, hi);
}

// A worker's identity and the generation current when it was created (before
// the region that created it is published), so it cannot miss that region.
typedef struct {
  int id;
  unsigned long start;
} WorkerArg;

static void *worker_main(void *arg) {
  WorkerArg a = *(WorkerArg *)arg;
  free(arg);
  int id = a.id;
  unsigned long seen = a.start;
  for (;;) {
    unsigned long g;
    int spins = 0;
    while ((g = atomic_load_explicit(&generation, memory_order_acquire)) == seen) {
      if (++spins < SPIN_LIMIT) continue;
      pthread_mutex_lock(&sleep_mu);
      atomic_fetch_add(&sleepers, 1);
      while (atomic_load(&generation) == seen) pthread_cond_wait(&sleep_cv, &sleep_mu);
      atomic_fetch_sub(&sleepers, 1);
      pthread_mutex_unlock(&sleep_mu);
      spins = 0;
    }
    seen = g;
    if (id < task_t) {
      run_chunk(id);
      atomic_fetch_sub_explicit(&pending, 1, memory_order_release);
    }
  }
  return NULL;
}

void bk_parallel_for(int threads, ptrdiff_t n, BKTask fn, void *ctx) {
  int t = threads;
  if (t > MAX_WORKERS + 1) t = MAX_WORKERS + 1;
  if (n < t) t = (int)n;
  if (t <= 1 || pthread_mutex_trylock(&region) != 0) {
    if (n > 0) fn(ctx, 0, n);
    return;
  }
  while (workers < t - 1) {
    pthread_t th;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    WorkerArg *arg = malloc(sizeof *arg);
    if (!arg) break;
    arg->id = workers + 1;
    arg->start = atomic_load(&generation);
    int rc = pthread_create(&th, &attr, worker_main, arg);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
      free(arg);
      break;
    }
    workers++;
  }
  if (t > workers + 1) t = workers + 1;
  task_fn = fn;
  task_ctx = ctx;
  task_n = n;
  task_t = t;
  atomic_store(&pending, t - 1);
  atomic_fetch_add(&generation, 1); // seq_cst: pairs with the sleepers check
  if (atomic_load(&sleepers) > 0) {
    pthread_mutex_lock(&sleep_mu);
    pthread_cond_broadcast(&sleep_cv);
    pthread_mutex_unlock(&sleep_mu);
  }
  run_chunk(0);
  while (atomic_load_explicit(&pending, memory_order_acquire) > 0) {
  }
  pthread_mutex_unlock(&region);
}
