#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole-file reads over POSIX calls, with errno turned into `ImageError`
/// sentences (writes go through Core's `AtomicFile`).
enum FileRead {
  /// Reads every byte of the regular file at `path`.
  static func all(path: String) throws(ImageError) -> [UInt8] {
    // Non-blocking: opening a FIFO for reading would otherwise wait for a writer forever
    // before fstat could refuse it. Reads of a regular file are unaffected.
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
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

  /// `strerror` text for an errno value.
  static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
