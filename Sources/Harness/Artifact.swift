import Canvas
import Core

/// One output a scenario produces and a golden file pins.
public struct Artifact: Sendable {
  /// What the file holds.
  public enum Body: Sendable {
    case json(JSONValue)
    case png(RGBA8Image)
    case text(String)
  }
  /// File name inside `Golden/<id>/`, e.g. `result.json`.
  public let name: String
  public let body: Body
  public init(_ name: String, _ body: Body) { self.name = name; self.body = body }

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
public struct KindOutput: Sendable {
  public var artifacts: [Artifact]
  /// Explicit expectations the scenario missed (checked besides goldens).
  public var failures: [String]
  /// Differences from the truth the scenario does not declare (archery truth gate).
  public var truthFailures: [String] = []
  /// Declared differences from the truth, shown in the report.
  public var truthDeclared: [String] = []
}

/// Named JSON tolerances: exact by default; `close` for floats that come out
/// of inference or fitting.
public enum JSONTolerance: String, Sendable, Hashable, CaseIterable, Decodable {
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
public struct PathTolerance: Sendable, Hashable {
  public let pattern: [Substring]
  public let tolerance: JSONTolerance
  public let reason: String
  public init(pattern: String, tolerance: JSONTolerance, reason: String) {
    self.pattern = pattern.split(separator: "."); self.tolerance = tolerance; self.reason = reason
  }
  func matches(_ path: [String]) -> Bool {
    pattern.count == path.count && zip(pattern, path).allSatisfy { $0 == "*" || $0 == $1 }
  }
}

/// Image comparison: a pixel differs when any channel moves by more than
/// `threshold`; the image fails when more than `maxPixels` differ. Zero by
/// default; any override carries a reason.
public struct ImageTolerance: Sendable, Hashable {
  public let threshold: Int
  public let maxPixels: Int
  public let reason: String
  public static let zero = ImageTolerance(threshold: 0, maxPixels: 0, reason: "")
  public init(threshold: Int, maxPixels: Int, reason: String) {
    self.threshold = threshold; self.maxPixels = maxPixels; self.reason = reason
  }
}
