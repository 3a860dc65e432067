import Canvas
import Core

/// One output a scenario produces and a golden file pins.
struct Artifact: Sendable {
  /// What the file holds.
  enum Body: Sendable {
    case json(JSONValue)
    case png(RGBA8Image)
    case text(String)
  }
  /// File name inside `Golden/<id>/`, e.g. `result.json`.
  let name: String
  let body: Body
  init(_ name: String, _ body: Body) { self.name = name; self.body = body }

  /// The bytes written to disk.
  func bytes() throws -> [UInt8] {
    switch body {
    case .json(let v): return Array(try v.canonicalText().utf8)
    case .png(let img): return try PNG.encode(img)
    case .text(let t): return Array(t.utf8)
    }
  }
}

/// What one scenario run produced.
struct KindOutput: Sendable {
  var artifacts: [Artifact]
  /// Explicit expectations the scenario missed (checked besides goldens).
  var failures: [String]
  /// Differences from the truth the scenario does not declare (archery truth gate).
  var truthFailures: [String] = []
  /// Declared differences from the truth, shown in the report.
  var truthDeclared: [String] = []
  /// Pictures for the review page only, never goldens: the Set overlays in
  /// English when the goldens keep seed 004's shorthand.
  var review: [Artifact] = []
}

/// Named JSON tolerances: exact by default; `close` for floats that come out
/// of inference or fitting.
enum JSONTolerance: String, Sendable, Hashable, CaseIterable, Decodable {
  /// Equal values only.
  case exact
  /// |a − b| ≤ 1e-6 · max(1, |a|, |b|).
  case close
  /// |a − b| ≤ 1e-3 · max(1, |a|, |b|).
  case loose

  func accepts(_ a: Double, _ b: Double) -> Bool {
    let scale = max(1, abs(a), abs(b))
    switch self {
    case .exact: return a == b
    case .close: return abs(a - b) <= 1e-6 * scale
    case .loose: return abs(a - b) <= 1e-3 * scale
    }
  }
}

/// A tolerance for the JSON paths matching `pattern` (dot-separated, `*`
/// matches one component, e.g. `runs.*.detections.*.pixel_x`); a reason is required.
struct PathTolerance: Sendable, Hashable {
  let pattern: [Substring]
  let tolerance: JSONTolerance
  let reason: String
  init(pattern: String, tolerance: JSONTolerance, reason: String) {
    self.pattern = pattern.split(separator: "."); self.tolerance = tolerance; self.reason = reason
  }
  func matches(_ path: [String]) -> Bool {
    pattern.count == path.count && zip(pattern, path).allSatisfy { $0 == "*" || $0 == $1 }
  }
}

/// Image comparison: a pixel differs when any channel moves by more than
/// `threshold`; the image fails when more than `maxPixels` differ. Zero by
/// default; any override carries a reason.
struct ImageTolerance: Sendable, Hashable {
  let threshold: Int
  let maxPixels: Int
  let reason: String
  static let zero = ImageTolerance(threshold: 0, maxPixels: 0, reason: "")
  init(threshold: Int, maxPixels: Int, reason: String) {
    self.threshold = threshold; self.maxPixels = maxPixels; self.reason = reason
  }
}
