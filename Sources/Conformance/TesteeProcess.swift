import CBuildInfo

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one C-facing type of the harness: a testee started as `/bin/sh -c CMD`
/// in its own process group, with its stdin, stdout and stderr on pipes. The
/// harness's ends are non-blocking; killing the group takes any children too.
final class TesteeProcess {
  let pid: pid_t
  /// Harness ends: write requests, read answers, read logs.
  private(set) var input: Int32
  let output: Int32
  let errors: Int32
  private var reaped = false
  /// One read's worth of bytes, reused (no allocation per read).
  private let scratch = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
  private(set) var exitStatus: Int32?

  /// Starts `command`; throws when the shell itself cannot be started.
  init(command: String) throws(ConformanceError) {
    // A testee that exits while we write must not kill the harness.
    signal(SIGPIPE, SIG_IGN)
    var ends: [[Int32]] = []
    for _ in 0..<3 {
      var fd: [Int32] = [-1, -1]
      guard pipe(&fd) == 0 else { throw .testee("cannot create a pipe for '\(command)': \(String(cString: strerror(errno)))") }
      for f in fd { _ = fcntl(f, F_SETFD, FD_CLOEXEC) }
      ends.append(fd)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, ends[0][0], 0)
    posix_spawn_file_actions_adddup2(&actions, ends[1][1], 1)
    posix_spawn_file_actions_adddup2(&actions, ends[2][1], 2)
    var attr = posix_spawnattr_t()
    posix_spawnattr_init(&attr)
    defer { posix_spawnattr_destroy(&attr) }
    var defaults = sigset_t(), mask = sigset_t()
    sigemptyset(&defaults); sigaddset(&defaults, SIGPIPE); sigemptyset(&mask)
    posix_spawnattr_setsigdefault(&attr, &defaults)
    posix_spawnattr_setsigmask(&attr, &mask)
    posix_spawnattr_setpgroup(&attr, 0)
    posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(command), nil]
    defer { for a in argv { free(a) } }
    var child: pid_t = 0
    let rc = posix_spawn(&child, "/bin/sh", &actions, &attr, argv, environ)
    close(ends[0][0]); close(ends[1][1]); close(ends[2][1])
    guard rc == 0 else {
      close(ends[0][1]); close(ends[1][0]); close(ends[2][0])
      throw .testee("cannot start '\(command)': \(String(cString: strerror(rc)))")
    }
    pid = child
    bullseye_child_group_add(child)
    input = ends[0][1]; output = ends[1][0]; errors = ends[2][0]
    for f in [input, output, errors] { _ = fcntl(f, F_SETFL, fcntl(f, F_GETFL) | O_NONBLOCK) }
  }

  deinit {
    scratch.deallocate()
    kill()
    for f in [input, output, errors] where f >= 0 { close(f) }
  }

  /// Writes what the pipe takes now; returns the bytes written (0 when full), or nil when the testee is gone.
  func write(_ bytes: UnsafeRawBufferPointer) -> Int? {
    guard input >= 0 else { return nil }
    let n = Glibc.write(input, bytes.baseAddress, bytes.count)
    if n >= 0 { return n }
    return errno == EAGAIN || errno == EINTR ? 0 : nil
  }

  /// Reads what is there from `fd`: bytes, an empty array at end of file, nil when nothing is ready.
  func read(_ fd: Int32, into buffer: inout [UInt8]) -> Bool? {
    let n = Glibc.read(fd, scratch, 1 << 16)
    if n > 0 { buffer.append(contentsOf: UnsafeRawBufferPointer(start: scratch, count: n)); return true }
    if n == 0 { return false }
    return errno == EAGAIN || errno == EINTR ? nil : false
  }

  /// Closes the testee's stdin (it sees end of file).
  func closeInput() {
    if input >= 0 { close(input); input = -1 }
  }

  /// True once the process has exited (reaps it).
  func hasExited() -> Bool {
    if reaped { return true }
    var status: Int32 = 0
    let r = waitpid(pid, &status, WNOHANG)
    if r == pid || r < 0 { reaped = true; exitStatus = status; bullseye_child_group_remove(pid) }
    return reaped
  }

  /// Kills the whole process group and reaps the shell.
  func kill() {
    guard !reaped else { return }
    _ = Glibc.kill(-pid, SIGKILL)
    var status: Int32 = 0
    _ = waitpid(pid, &status, 0)
    bullseye_child_group_remove(pid)
    reaped = true
    exitStatus = status
  }

  /// Waits up to `seconds` for the testee to exit by itself, then kills it.
  func stop(within seconds: Double) {
    let deadline = Clock.now() + seconds
    while !hasExited() && Clock.now() < deadline { usleep(5_000) }
    if !hasExited() { kill() } else { _ = Glibc.kill(-pid, SIGKILL) }
  }

  /// A readable account of how the process ended, once it has.
  var exitDescription: String {
    guard let s = exitStatus else { return "still running" }
    if s & 0x7F == 0 { return "exit status \((s >> 8) & 0xFF)" }
    return "signal \(s & 0x7F)"
  }
}

/// Monotonic seconds, for timeouts (never the wall clock).
enum Clock {
  static func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
  }
}
