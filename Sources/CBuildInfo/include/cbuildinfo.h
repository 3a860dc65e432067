#ifndef CBUILDINFO_H
#define CBUILDINFO_H

/// The git commit the binary was built from (12 hex digits), or "unknown" when
/// it was built outside a git checkout. Package.swift stamps it.
const char *bullseye_build_commit(void);

/// Flushes standard output and returns nonzero when any write to it failed
/// (a full disk, a closed pipe): the process's last check before exit 0.
int bullseye_stdout_failed(void);

/// Remembers a child's process group (its leader's pid): SIGINT, SIGTERM, SIGHUP
/// or SIGQUIT then kill the group before the process dies of the signal, so no
/// testee outlives the harness. Up to 64 groups at once; the first call installs
/// the handlers (signals the parent ignored stay ignored).
void bullseye_child_group_add(int group);

/// Forgets a group added above (after it was killed and reaped).
void bullseye_child_group_remove(int group);

#endif
