import Core

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Session {
  /// Writes what it can of `out` and reads until one answer line is complete.
  /// Returns the line, nil at the deadline; throws when the testee is gone or
  /// a line passes the limit.
  func exchange(_ out: inout [UInt8], deadline: Double) throws(ConformanceError) -> [UInt8]? {
    guard let p = process else { throw .testee("the testee is not running") }
    while true {
      if let line = takeLine() { return line }
      if pendingBytes > Session.lineLimit { throw .testee("answer line longer than \(Session.lineLimit) bytes") }
      let now = Clock.now()
      if now >= deadline { return nil }
      var fds = [pollfd(fd: p.output, events: Int16(POLLIN), revents: 0), pollfd(fd: p.errors, events: Int16(POLLIN), revents: 0)]
      if !out.isEmpty, p.input >= 0 { fds.append(pollfd(fd: p.input, events: Int16(POLLOUT), revents: 0)) }
      let wait = Int32(min(1000, max(1, (deadline - now) * 1000)))
      let r = poll(&fds, nfds_t(fds.count), wait)
      if r < 0 && errno != EINTR { throw .testee("poll failed: \(String(cString: strerror(errno)))") }
      if fds.count == 3, fds[2].revents != 0 {
        let n = out.withUnsafeBytes { p.write($0) }
        guard let n else {
          // A write that fails because the testee just exited is reported as its exit, as a read would be.
          _ = p.hasExited() || { usleep(20_000); return p.hasExited() }()
          if p.hasExited() { throw .testee("the testee exited (\(p.exitDescription)) before reading every request") }
          throw .testee("the testee closed its stdin (still running)")
        }
        if n > 0 { out.removeFirst(n) }
      }
      if fds[1].revents != 0 { drainErrors() }
      if fds[0].revents != 0 {
        switch p.read(p.output, into: &inbox) {
        case false?:
          if let line = takeLine() { return line }
          _ = p.hasExited() || { usleep(20_000); return p.hasExited() }()
          throw .testee("the testee exited (\(p.hasExited() ? p.exitDescription : "closed its stdout"))")
        default: break
        }
      }
    }
  }

  /// Writes all of `bytes` before the deadline; false if the testee is gone.
  func send(_ bytes: [UInt8], deadline: Double) throws(ConformanceError) -> Bool {
    var out = bytes
    guard let p = process else { return false }
    while !out.isEmpty {
      if Clock.now() >= deadline { return false }
      var fds = [pollfd(fd: p.input, events: Int16(POLLOUT), revents: 0)]
      _ = poll(&fds, 1, 100)
      guard let n = out.withUnsafeBytes({ p.write($0) }) else { return false }
      if n > 0 { out.removeFirst(n) }
    }
    return true
  }

  /// Reads one line before the deadline (nil if none came).
  func readLine(deadline: Double) throws(ConformanceError) -> [UInt8]? {
    var none: [UInt8] = []
    do { return try exchange(&none, deadline: deadline) } catch {
      if case .testee(let m) = error, m.hasPrefix("the testee exited") { return nil }
      throw error
    }
  }

  /// The next complete line in the inbox, without its newline. Scans only
  /// bytes not scanned before, so a huge line costs linear time.
  func takeLine() -> [UInt8]? {
    let from = max(inboxHead, inboxScanned)
    let found: Int? = inbox.withUnsafeBufferPointer { b in
      guard from < b.count, let p = memchr(b.baseAddress! + from, 0x0A, b.count - from) else { return nil }
      return b.baseAddress!.distance(to: p.assumingMemoryBound(to: UInt8.self))
    }
    guard let nl = found else {
      inboxScanned = inbox.count
      return nil
    }
    var line = Array(inbox[inboxHead..<nl])
    inboxHead = nl + 1
    inboxScanned = inboxHead
    if inboxHead > 1 << 20 || inboxHead == inbox.count {
      inbox.removeFirst(inboxHead); inboxScanned -= inboxHead; inboxHead = 0
    }
    if line.last == 0x0D { line.removeLast() }
    return line
  }

  /// Bytes waiting in the inbox that are not yet a complete line.
  var pendingBytes: Int { inbox.count - inboxHead }

  /// Reads whatever the testee has written to stderr and keeps the last lines.
  func drainErrors() {
    guard let p = process else { return }
    while p.read(p.errors, into: &errText) == true {}
    let parts = errText.split(separator: 0x0A, omittingEmptySubsequences: false)
    // The text after the last newline stays, whole, until its line ends.
    errText = Array(parts.last ?? [])
    let lines = parts.dropLast().map { String(decoding: $0.prefix(500), as: UTF8.self) }
    stderrTail.append(contentsOf: lines)
    if stderrTail.count > Session.stderrLines { stderrTail.removeFirst(stderrTail.count - Session.stderrLines) }
    if errText.count > 65536 { errText.removeFirst(errText.count - 65536) }
  }
}
