import Foundation
import Core

/// Checks output paths before any work, so a run that cannot write its
/// results fails at once and writes nothing.
enum OutputPaths {
  static func checkWritable(_ path: String, flag: String) throws {
    if path == AtomicFile.standardOutput { return }
    guard !path.isEmpty else { throw CLIError(message: "\(flag) is empty: expected a file path") }
    let url = URL(fileURLWithPath: path)
    let dir = url.deletingLastPathComponent().path
    var isDir: ObjCBool = false
    guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
      throw CLIError(message: "\(flag) '\(path)' cannot be written: directory '\(dir)' does not exist")
    }
    guard FileManager.default.isWritableFile(atPath: dir) else {
      throw CLIError(message: "\(flag) '\(path)' cannot be written: directory '\(dir)' is not writable")
    }
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
      throw CLIError(message: "\(flag) '\(path)' is a directory: expected a file path")
    }
  }

  /// Refuses an output that is also an input or another output (`--out photo.jpg`,
  /// `--out r.json --overlay r.json`): the first would destroy the user's file,
  /// the second lose one of the two. Paths are compared after resolving links;
  /// devices and pipes (`/dev/null`) may be shared.
  static func checkDistinct(inputs: [(flag: String, path: String?)], outputs: [(flag: String, path: String?)]) throws {
    var seen: [String: String] = [:]
    for (flag, path) in inputs { if let path, let key = identity(path) { seen[key] = seen[key] ?? flag } }
    for (flag, path) in outputs {
      guard let path, let key = identity(path) else { continue }
      if let other = seen[key] {
        throw CLIError(message: "\(flag) '\(path)' is the same file as \(other): expected a path of its own")
      }
      seen[key] = flag
    }
  }

  /// The resolved absolute path, nil for a device or pipe.
  static func identity(_ path: String) -> String? {
    if path == AtomicFile.standardOutput { return nil }
    var info = stat()
    if stat(path, &info) == 0 {
      if (info.st_mode & S_IFMT) != S_IFREG, (info.st_mode & S_IFMT) != S_IFDIR { return nil }
      // An existing file is itself by device and inode, so a hard link to an input is caught too.
      return "inode \(info.st_dev):\(info.st_ino)"
    }
    let url = URL(fileURLWithPath: path).standardizedFileURL
    // The directory resolved (it exists: checkWritable ran), the name kept, so a file still to be made compares too.
    return url.deletingLastPathComponent().resolvingSymlinksInPath().appendingPathComponent(url.lastPathComponent)
      .resolvingSymlinksInPath().path
  }

  /// Checks before any work that `dir` is, or can be made as, a writable folder:
  /// an existing file, or a path under one, is refused at once rather than after a run.
  static func checkDirectory(_ dir: String, flag: String) throws {
    let fm = FileManager.default
    var path = URL(fileURLWithPath: dir).standardizedFileURL.path
    var isDir: ObjCBool = false
    // The nearest part of the path that exists must be a folder we may write in.
    while !fm.fileExists(atPath: path, isDirectory: &isDir) { path = (path as NSString).deletingLastPathComponent }
    guard isDir.boolValue else {
      throw CLIError(message: "\(flag) '\(dir)' cannot be a folder: '\(path)' is a file, expected a directory")
    }
    guard fm.isWritableFile(atPath: path) else { throw CLIError(message: "\(flag) '\(dir)' cannot be written: '\(path)' is not writable") }
  }

  /// Creates `dir` (and parents) or explains why not.
  static func makeDirectory(_ dir: String) throws {
    do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
    catch { throw CLIError(message: "cannot create directory '\(dir)': \(error.localizedDescription)") }
  }
}
