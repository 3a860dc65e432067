#ifndef CBUILDINFO_H
#define CBUILDINFO_H

/// The git commit the binary was built from (12 hex digits), or "unknown" when
/// it was built outside a git checkout. Package.swift stamps it.
const char *bullseye_build_commit(void);

#endif
