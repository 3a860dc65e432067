#include <stdio.h>
#include "cbuildinfo.h"

// Package.swift defines BULLSEYE_COMMIT from the checkout's .git when it
// evaluates the manifest; a build outside git leaves it undefined.
#ifndef BULLSEYE_COMMIT
#define BULLSEYE_COMMIT "unknown"
#endif

const char *bullseye_build_commit(void) { return BULLSEYE_COMMIT; }

int bullseye_stdout_failed(void) { return fflush(stdout) != 0 || ferror(stdout) != 0; }
