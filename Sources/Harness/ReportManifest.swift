import Core
import Foundation

/// `<report>/.manifest`: every file one run wrote into its report folder, one
/// relative path a line. The next run into the same folder deletes exactly
/// those files, so stale outputs go while anything else (a gallery, another
/// shard's folder, a reviewer's notes) survives.
public enum ReportManifest {
  /// The manifest's name inside a report folder.
  public static let name = ".manifest"

  /// Paths the manifest in `dir` lists; empty when there is none.
  public static func read(_ dir: String) -> [String] {
    guard let text = try? String(contentsOfFile: dir + "/" + name, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").map(String.init).filter(isSafe)
  }

  /// Writes the manifest listing `files` (sorted, deduplicated).
  public static func write(_ files: [String], to dir: String) throws {
    try AtomicFile.write(text(files), to: dir + "/" + name)
  }

  /// The manifest's text for `files`: sorted, deduplicated, one a line.
  static func text(_ files: [String]) -> String {
    Set(files).filter(isSafe).sorted().map { $0 + "\n" }.joined()
  }

  /// Moves a finished run's report out of `staging` into `dir`: the previous
  /// run's files (its manifest) go first, then every staged entry replaces its
  /// namesake; the staging folder's `.work` stays behind with it.
  public static func place(_ staging: String, into dir: String) throws {
    let fm = FileManager.default
    clean(dir)
    for entry in try fm.contentsOfDirectory(atPath: staging).sorted() where entry != ".work" {
      let target = dir + "/" + entry
      if fm.fileExists(atPath: target) { try fm.removeItem(atPath: target) }
      try fm.moveItem(atPath: staging + "/" + entry, toPath: target)
    }
  }

  /// Deletes the files the previous manifest lists, then folders those left
  /// empty, then the manifest itself.
  public static func clean(_ dir: String) {
    let fm = FileManager.default
    var folders = Set<String>()
    for f in read(dir) {
      try? fm.removeItem(atPath: dir + "/" + f)
      if let slash = f.lastIndex(of: "/") { folders.insert(String(f[..<slash])) }
    }
    for d in folders.sorted(by: >) where (try? fm.contentsOfDirectory(atPath: dir + "/" + d))?.isEmpty == true {
      try? fm.removeItem(atPath: dir + "/" + d)
    }
    try? fm.removeItem(atPath: dir + "/" + name)
  }

  /// A relative path that stays inside the folder: no `..`, no absolute path, no empty part.
  static func isSafe(_ path: String) -> Bool {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    return !path.isEmpty && !path.hasPrefix("/") && parts.allSatisfy { !$0.isEmpty && $0 != ".." && $0 != "." }
  }
}
