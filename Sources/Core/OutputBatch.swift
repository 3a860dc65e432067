#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A command's outputs written all or nothing: every file is produced in memory
/// first, then each goes to a temporary file beside its target; only when all
/// are staged are they renamed into place, in the order given. If any step
/// fails, every temporary file is removed and no target is touched (a rename
/// that fails part-way also removes the targets this batch already placed).
/// Special files (`/dev/stdout`, a pipe, `-`) are written directly, never replaced,
/// before any file is renamed into place.
///
/// `BULLSEYE_FAIL_WRITE=NAME` makes staging the output whose file name is NAME
/// fail, so tests can prove a failure at each output leaves nothing behind.
public struct OutputBatch {
  private var items: [(path: String, bytes: [UInt8])] = []

  /// An empty batch.
  public init() {}

  /// Adds `bytes` for `path` (written at `commit`).
  public mutating func add(_ bytes: [UInt8], to path: String) { items.append((path, bytes)) }

  /// Adds UTF-8 `text` for `path`.
  public mutating func add(_ text: String, to path: String) { add(Array(text.utf8), to: path) }

  /// Stages every output, then moves them all into place.
  public func commit() throws(CoreError) {
    var staged: [(temp: String, path: String)] = []
    var direct: [(path: String, bytes: [UInt8])] = []
    do throws(CoreError) {
      for item in items {
        if let name = getenv("BULLSEYE_FAIL_WRITE").map({ String(cString: $0) }), !name.isEmpty,
           AtomicFile.split(item.path).1 == name {
          throw CoreError.io(path: item.path, reason: "failure injected by BULLSEYE_FAIL_WRITE")
        }
        if AtomicFile.isSpecial(item.path) { direct.append(item); continue }
        staged.append((try AtomicFile.stage(item.bytes, for: item.path), item.path))
      }
    } catch {
      for s in staged { unlink(s.temp) }
      throw error
    }
    // Devices and pipes first: a write there cannot be staged, and one that fails
    // (`--overlay /dev/full`) must leave no file of this batch in place.
    do throws(CoreError) {
      for d in direct { try AtomicFile.writeDirect(d.bytes, to: d.path) }
    } catch {
      for s in staged { unlink(s.temp) }
      throw error
    }
    var placed: [String] = []
    for (i, s) in staged.enumerated() {
      guard rename(s.temp, s.path) == 0 else {
        let reason = AtomicFile.reason(errno)
        for rest in staged[i...] { unlink(rest.temp) }
        for p in placed { unlink(p) }
        throw .io(path: s.path, reason: reason)
      }
      placed.append(s.path)
    }
    for p in Set(placed.map { AtomicFile.split($0).0 }) { AtomicFile.syncDirectory(p) }
  }
}
