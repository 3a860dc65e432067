#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole-file reads and atomic writes over POSIX calls, with errno turned into
/// `CanvasError` sentences.
enum FileIO {
  /// Reads every byte of the regular file at `path`.
  static func readAll(path: String) throws(CanvasError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw .cannotRead(path: path, reason: reason(errno)) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .cannotRead(path: path, reason: reason(errno)) }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      throw .cannotRead(path: path, reason: "not a regular file")
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(info.st_size))
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw .cannotRead(path: path, reason: reason(errno))
      }
      if n == 0 { break }
      bytes.append(contentsOf: chunk[0..<n])
    }
    return bytes
  }

  /// Writes `bytes` to a temp file beside `path`, fsyncs it, renames it into place and
  /// fsyncs the directory. On any failure the temp file is removed and `path` untouched.
  static func writeAtomically(_ bytes: [UInt8], to path: String) throws(CanvasError) {
    let (directory, name) = split(path)
    guard !name.isEmpty else { throw .cannotWrite(path: path, reason: "path names a directory") }
    var info = stat()
    guard stat(directory, &info) == 0 else {
      let code = errno
      throw .cannotWrite(
        path: path, reason: code == ENOENT ? "directory does not exist" : reason(code))
    }
    guard (info.st_mode & S_IFMT) == S_IFDIR else {
      throw .cannotWrite(path: path, reason: "'\(directory)' is not a directory")
    }

    var template = Array("\(directory)/.\(name).tmp-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw .cannotWrite(path: path, reason: reason(errno)) }
    let tempPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    var closed = false
    var renamed = false
    defer {
      if !closed { close(fd) }
      if !renamed { unlink(tempPath) }
    }

    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes { raw in
        posixWrite(fd, raw.baseAddress! + offset, raw.count - offset)
      }
      if n < 0 {
        if errno == EINTR { continue }
        throw .cannotWrite(path: path, reason: reason(errno))
      }
      offset += n
    }
    guard fchmod(fd, 0o644) == 0, fsync(fd) == 0 else {
      throw .cannotWrite(path: path, reason: reason(errno))
    }
    closed = true
    guard close(fd) == 0 else { throw .cannotWrite(path: path, reason: reason(errno)) }
    guard rename(tempPath, path) == 0 else { throw .cannotWrite(path: path, reason: reason(errno)) }
    renamed = true

    // Make the rename itself durable; failure here cannot un-write the file, so ignore it.
    let dirFD = open(directory, O_RDONLY | O_CLOEXEC)
    if dirFD >= 0 {
      _ = fsync(dirFD)
      close(dirFD)
    }
  }

  /// `("dir", "name")`; a bare name lives in ".".
  private static func split(_ path: String) -> (String, String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }

  /// `strerror` text for an errno value.
  private static func reason(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
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
