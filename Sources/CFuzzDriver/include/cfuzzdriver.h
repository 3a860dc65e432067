// Starts libFuzzer's driver from a SwiftPM executable (whose `main` is the
// target's own entry symbol). Without -DFUZZING it only reports "not built for fuzzing".
#include <stddef.h>
#include <stdint.h>
int bullseye_run_fuzzer(int argc, char **argv, int (*callback)(const uint8_t *data, size_t size));
