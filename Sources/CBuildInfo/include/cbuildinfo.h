#ifndef CBUILDINFO_H
#define CBUILDINFO_H

/// The git commit the binary was built from (12 hex digits), or "unknown" when
/// it was built outside a git checkout. Package.swift stamps it.
const char *bullseye_build_commit(void);

/// Flushes standard output and returns nonzero when any write to it failed
/// (a full disk, a closed pipe): the process's last check before exit 0.
int bullseye_stdout_failed(void);

#endif
