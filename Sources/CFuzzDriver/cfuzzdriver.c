#include "cfuzzdriver.h"

#ifdef FUZZING
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int bullseye_run_fuzzer(int argc, char **argv, int (*callback)(const uint8_t *data, size_t size)) {
  return LLVMFuzzerRunDriver(&argc, &argv, callback);
}
#else
int bullseye_run_fuzzer(int argc, char **argv, int (*callback)(const uint8_t *data, size_t size)) {
  (void)argc; (void)argv; (void)callback;
  return 2;
}
#endif
