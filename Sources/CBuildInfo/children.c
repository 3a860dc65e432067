#include <signal.h>
#include <stddef.h>
#include <sys/types.h>
#include "cbuildinfo.h"

// Testees run in their own process groups, so a signal that stops bullseye does
// not reach them: these slots remember the groups, and the handler kills them
// before bullseye dies the way the signal asked. Only async-signal-safe calls.
#define SLOTS 64
static volatile pid_t groups[SLOTS];
static volatile int installed;

static void on_signal(int sig) {
  for (int i = 0; i < SLOTS; i++) {
    pid_t g = __atomic_load_n(&groups[i], __ATOMIC_SEQ_CST);
    if (g > 0) kill(-g, SIGKILL);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void bullseye_child_group_add(int group) {
  if (!__atomic_exchange_n(&installed, 1, __ATOMIC_SEQ_CST)) {
    int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (unsigned i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
      struct sigaction sa = {0};
      sa.sa_handler = on_signal;
      sigemptyset(&sa.sa_mask);
      struct sigaction old;
      // A signal the parent chose to ignore (nohup) stays ignored.
      if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
      sigaction(sigs[i], &sa, NULL);
    }
  }
  for (int i = 0; i < SLOTS; i++) {
    pid_t expected = 0;
    if (__atomic_compare_exchange_n(&groups[i], &expected, (pid_t)group, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return;
  }
}

void bullseye_child_group_remove(int group) {
  for (int i = 0; i < SLOTS; i++) {
    pid_t expected = (pid_t)group;
    if (__atomic_compare_exchange_n(&groups[i], &expected, 0, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return;
  }
}
