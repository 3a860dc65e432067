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
//
// Chunk k belongs to thread k, but runs on whoever claims it first: a thread
// done with its own chunk claims the others' that have not started. On a VM
// whose other vCPU a neighbour is using, a worker can wake late; its chunk is
// then run by the caller instead of waited for (YOLO11n 320 on 2 threads
// beside a 50 %-duty neighbour on the second vCPU: 17.0 -> 16.4 ms).
// Unhindered, each thread runs its own share at the same cost as before;
// four smaller chunks a thread would let the caller take over more of a
// stalled worker, but cost MobileNetV3-small 7 % unhindered.
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
// claimed[k]: the last region (generation) in which chunk k was claimed, each
// on its own cache line, so a thread claiming its own chunk stays in its cache.
static struct {
  _Alignas(64) atomic_ulong g;
} claimed[MAX_WORKERS + 1];
// Chunks the workers have finished in the current region (each adds its count
// once, after its last claim).
static _Alignas(64) atomic_long done;
static atomic_int sleepers;
static int workers; // guarded by `region`

// The current task; written before `generation` is bumped (release), read
// after it is observed (acquire).
static BKTask task_fn;
static void *task_ctx;
static ptrdiff_t task_n;
static int task_t;
static int marked; // chunks ever used; those past a region's count are marked claimed

static void run_chunk(int k) {
  ptrdiff_t lo = task_n * k / task_t, hi = task_n * (k + 1) / task_t;
  if (hi > lo) task_fn(task_ctx, lo, hi);
}

/// Claims chunk k of region g: false when someone already has. Every chunk of
/// a region is claimed before it ends, and every other chunk ever used holds
/// that region or a later one, so a late worker whose region is over claims
/// nothing and never runs a newer region's task.
static int claim(int k, unsigned long g) {
  unsigned long seen = atomic_load_explicit(&claimed[k].g, memory_order_relaxed);
  // A failed exchange reloads `seen`: only a value of g or later refuses, so
  // a stale first read cannot leave a chunk that no thread claims.
  while (seen < g)
    if (atomic_compare_exchange_weak(&claimed[k].g, &seen, g)) return 1;
  return 0;
}

/// Thread `id`'s part of region g: its own chunk, then every other chunk not
/// yet claimed. Returns how many chunks it ran.
static long run_share(int id, unsigned long g) {
  const int t = task_t;
  long ran = 0;
  for (int j = 0; j < t; j++)
    if (claim((id + j) % t, g)) {
      run_chunk((id + j) % t);
      ran++;
    }
  return ran;
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
    // A worker past this region's threads finds every chunk it would try
    // already claimed (its own range is empty).
    long ran = id < task_t ? run_share(id, g) : 0;
    if (ran > 0) atomic_fetch_add_explicit(&done, ran, memory_order_release);
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
  // Chunks this region does not use are marked claimed by it; chunks used for
  // the first time start at the previous region, which a late worker of that
  // region (or an older one) cannot claim but this region can.
  const unsigned long g = atomic_load(&generation) + 1;
  for (int k = t; k < marked; k++) atomic_store_explicit(&claimed[k].g, g, memory_order_relaxed);
  for (int k = marked; k < t; k++) atomic_store_explicit(&claimed[k].g, g - 1, memory_order_relaxed);
  if (t > marked) marked = t;
  task_fn = fn;
  task_ctx = ctx;
  task_n = n;
  task_t = t;
  atomic_store_explicit(&done, 0, memory_order_relaxed);
  atomic_fetch_add(&generation, 1); // seq_cst: publishes the above; pairs with the sleepers check
  if (atomic_load(&sleepers) > 0) {
    pthread_mutex_lock(&sleep_mu);
    pthread_cond_broadcast(&sleep_cv);
    pthread_mutex_unlock(&sleep_mu);
  }
  const long mine = run_share(0, g);
  while (atomic_load_explicit(&done, memory_order_acquire) + mine < t) {
  }
  pthread_mutex_unlock(&region);
}
