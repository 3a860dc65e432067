import Canvas
import Core
import Foundation

/// Writes one scenario's review files into `<report>/<id>/` and remembers
/// each path for the manifest: JSON and text outputs with a `golden-<name>`
/// copy beside them, full-size images (actual and golden) only when asked
/// (they differ), and one small thumbnail per scenario.
struct ReviewFiles {
  let id: String
  let actualDir: String
  /// Paths relative to the report folder.
  var files: [String] = []
  var thumb: String?
  var truth: [[String]] = []

  init(id: String, actualDir: String) { self.id = id; self.actualDir = actualDir }

  mutating func write(_ a: Artifact, bytes: [UInt8], verdict v: inout ArtifactVerdict, goldenPath: String, full: Bool, thumb wantThumb: Bool) throws {
    let goldenExists = FileManager.default.fileExists(atPath: goldenPath)
    switch a.body {
    case .png(let img):
      if full {
        try put(bytes, a.name)
        v.actualFile = a.name
        if goldenExists { try copyGolden(goldenPath, a.name); v.goldenFile = "golden-" + a.name }
      }
      if wantThumb, let t = ReviewData.thumbnail(img) {
        try put(try PNG.encode(t), "thumb-" + a.name)
        thumb = id + "/thumb-" + a.name
      }
    case .json(let value):
      try put(bytes, a.name)
      v.actualFile = a.name
      if goldenExists { try copyGolden(goldenPath, a.name); v.goldenFile = "golden-" + a.name }
      if truth.isEmpty { truth = ReviewData.truthTable(value) }
    case .text:
      try put(bytes, a.name)
      v.actualFile = a.name
      if goldenExists { try copyGolden(goldenPath, a.name); v.goldenFile = "golden-" + a.name }
    }
  }

  /// A review-only picture: its thumbnail always (it stands for the scenario),
  /// the full-size file only when asked; returns that file's name.
  mutating func writeReview(_ a: Artifact, full: Bool, thumb wantThumb: Bool) throws -> String? {
    guard case .png(let img) = a.body else { return nil }
    if wantThumb, let t = ReviewData.thumbnail(img) {
      try put(try PNG.encode(t), "thumb-" + a.name)
      thumb = id + "/thumb-" + a.name
    }
    guard full else { return nil }
    try put(try a.bytes(), a.name)
    return a.name
  }

  private mutating func put(_ bytes: [UInt8], _ name: String) throws {
    try AtomicFile.write(bytes, to: actualDir + "/" + name)
    files.append(id + "/" + name)
  }

  private mutating func copyGolden(_ path: String, _ name: String) throws {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw GoldenError("\(path): cannot be read: expected a readable golden file")
    }
    try put([UInt8](data), "golden-" + name)
  }
}
