#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes files so a reader never sees half of one: bytes go to a temporary file
/// in the same directory, are flushed with fsync, then renamed over the target.
public enum AtomicFile {
  /// Atomically replaces `path` with `bytes`; on any failure nothing is left behind.
  public static func write(_ bytes: [UInt8], to path: String) throws(CoreError) {
    let dir = directory(of: path)
    var st = stat()
    guard stat(dir, &st) == 0 else { throw .io(path: path, reason: "directory '\(dir)' does not exist") }
    guard (st.st_mode & S_IFMT) == S_IFDIR else { throw .io(path: path, reason: "'\(dir)' is not a directory") }
    if stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
      throw .io(path: path, reason: "it is a directory, expected a file path")
    }
    let tmp = dir + "/.\(basename(of: path)).tmp-\(getpid())"
    let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { throw .io(path: path, reason: errnoText()) }
    var offset = 0
    let ok: Bool = bytes.withUnsafeBytes { raw in
      while offset < raw.count {
        let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
        if n <= 0 { return false }
        offset += n
      }
      return true
    }
    let synced = ok && fsync(fd) == 0
    close(fd)
    guard synced, rename(tmp, path) == 0 else {
      let reason = errnoText()
      unlink(tmp)
      throw .io(path: path, reason: reason)
    }
  }

  /// Atomically writes UTF-8 text.
  public static func write(_ text: String, to path: String) throws(CoreError) {
    try write(Array(text.utf8), to: path)
  }

  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let d = String(path[..<slash])
    return d.isEmpty ? "/" : d
  }

  static func basename(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }

  static func errnoText() -> String { String(cString: strerror(errno)) }
}
