#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one atomic writer every output goes through, so a reader never sees half
/// a file: bytes go to a unique temporary file beside the target (`mkstemp`),
/// are written through `EINTR`, fsynced and renamed over the target, and the
/// directory is fsynced so the rename itself survives a crash. On any failure
/// the temporary file is removed and the target is untouched.
public enum AtomicFile {
  /// Atomically replaces `path` with `bytes`.
  /// An existing device or pipe (`/dev/stdout`, `/dev/full`) is written into,
  /// never renamed over: replacing it would swap the device for a plain file.
  public static func write(_ bytes: [UInt8], to path: String) throws(CoreError) {
    if isSpecial(path) { return try writeDirect(bytes, to: path) }
    let temp = try stage(bytes, for: path)
    guard rename(temp, path) == 0 else {
      let code = errno
      unlink(temp)
      throw .io(path: path, reason: reason(code))
    }
    // The rename made durable; a failure here cannot un-write the file, so it is not an error.
    syncDirectory(split(path).0)
  }

  /// Writes `bytes` to a fsynced temporary file beside `path` and returns its
  /// path (the caller renames it into place or unlinks it); `path` is untouched.
  static func stage(_ bytes: [UInt8], for path: String) throws(CoreError) -> String {
    let (directory, name) = split(path)
    guard !name.isEmpty else { throw .io(path: path, reason: "path names a directory") }
    var info = stat()
    guard stat(directory, &info) == 0 else {
      let code = errno
      throw .io(path: path, reason: code == ENOENT ? "directory does not exist" : reason(code))
    }
    guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .io(path: path, reason: "'\(directory)' is not a directory") }
    if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
      throw .io(path: path, reason: "it is a directory, expected a file path")
    }
    // A rename would replace a file its owner made read-only; refuse as a plain write would.
    if access(path, F_OK) == 0, access(path, W_OK) != 0 {
      throw .io(path: path, reason: "it is read-only: expected a file that may be replaced")
    }

    var template = Array("\(directory)/.\(name).tmp-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw .io(path: path, reason: reason(errno)) }
    let tempPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    var closed = false, done = false
    defer {
      if !closed { close(fd) }
      if !done { unlink(tempPath) }
    }
    try writeAll(fd, bytes, path: path)
    guard fchmod(fd, 0o644) == 0, fsync(fd) == 0 else { throw .io(path: path, reason: reason(errno)) }
    closed = true
    guard close(fd) == 0 else { throw .io(path: path, reason: reason(errno)) }
    done = true
    return tempPath
  }

  /// The path that names standard output, as command-line tools spell it.
  public static let standardOutput = "-"

  /// True for `-` (standard output) and for an existing path that is not a
  /// regular file or directory (a device, a pipe).
  static func isSpecial(_ path: String) -> Bool {
    if path == standardOutput { return true }
    var info = stat()
    guard stat(path, &info) == 0 else { return false }
    let kind = info.st_mode & S_IFMT
    return kind != S_IFREG && kind != S_IFDIR
  }

  /// Writes `bytes` straight into an existing special file (a device, a pipe), never replacing it.
  static func writeDirect(_ bytes: [UInt8], to path: String) throws(CoreError) {
    if path == standardOutput { return try writeAll(STDOUT_FILENO, bytes, path: "standard output") }
    let fd = open(path, O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { throw .io(path: path, reason: reason(errno)) }
    defer { close(fd) }
    try writeAll(fd, bytes, path: path)
  }

  /// `write` until every byte is out, through `EINTR`.
  static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(CoreError) {
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes { raw in posixWrite(fd, raw.baseAddress! + offset, raw.count - offset) }
      if n < 0 {
        if errno == EINTR { continue }
        throw .io(path: path, reason: reason(errno))
      }
      offset += n
    }
  }

  /// fsyncs a directory so renames in it survive a crash (best effort).
  static func syncDirectory(_ directory: String) {
    let dirFD = open(directory, O_RDONLY | O_CLOEXEC)
    if dirFD >= 0 {
      _ = fsync(dirFD)
      close(dirFD)
    }
  }

  /// Atomically writes UTF-8 text.
  public static func write(_ text: String, to path: String) throws(CoreError) {
    try write(Array(text.utf8), to: path)
  }

  /// `("dir", "name")`; a bare name lives in ".".
  static func split(_ path: String) -> (String, String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }

  static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// POSIX `write`, named apart from Swift's `write` overloads.
@inline(__always)
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    return Glibc.write(fd, buffer, count)
  #else
    return Darwin.write(fd, buffer, count)
  #endif
}
