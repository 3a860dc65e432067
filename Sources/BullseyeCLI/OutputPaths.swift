import Foundation

/// Checks output paths before any work, so a run that cannot write its
/// results fails at once and writes nothing.
enum OutputPaths {
  static func checkWritable(_ path: String, flag: String) throws {
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

  /// Creates `dir` (and parents) or explains why not.
  static func makeDirectory(_ dir: String) throws {
    do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
    catch { throw CLIError(message: "cannot create directory '\(dir)': \(error.localizedDescription)") }
  }
}
