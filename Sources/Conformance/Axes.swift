import Adjustment
import Detection
import Imaging
import Persistence
import Scoring

/// One semantics axis: a choice on which the seeds and real apps disagree.
/// The first value is the default (the seeds' iOS camera path).
package struct Axis: Sendable, Hashable {
  /// The key a testee declares, e.g. `boundary`.
  package let name: String
  /// The stage whose answers depend on it.
  package let stage: Stage
  /// Accepted values, default first.
  package let values: [String]
  /// The default value: what an undeclared axis is graded under.
  var defaultValue: String { values[0] }

  /// An axis over `values`, reordered so `defaultValue` comes first.
  init(name: String, stage: Stage, values: [String], default d: String) {
    self.name = name; self.stage = stage
    self.values = [d] + values.filter { $0 != d }
  }

  /// An axis over a library enum's names: the values are the library's own.
  init<E: RawRepresentable & CaseIterable>(_ name: String, _ stage: Stage, _: E.Type, default d: E) where E.RawValue == String {
    self.init(name: name, stage: stage, values: E.allCases.map(\.rawValue), default: d.rawValue)
  }
}

/// Axis → value, as a testee declares it (or as a combination to grade under).
package typealias Semantics = [String: String]

/// Every axis, as one table that grading, classification and tests iterate over.
/// Values come from the library's semantics enums, so a new named variant is a
/// new conformance value at once.
package enum AxisTable {
  /// All axes, grouped by stage in pipeline order.
  package static let all: [Axis] = [
    Axis("boundary", .score, BoundaryRule.self, default: .inclusive),
    Axis("precision", .score, Precision.self, default: .double),
    Axis("nms_overlap", .nms, NMSPolicy.Overlap.self, default: .greater),
    Axis("nms_classes", .nms, NMSPolicy.Classes.self, default: .agnostic),
    Axis("nms_order", .nms, NMSPolicy.Order.self, default: .byScore),
    Axis("nms_iou", .nms, NMSPolicy.Measure.self, default: .unionFloat32),
    Axis(name: "flip", stage: .visionFlip, values: ["flipped", "unflipped"], default: "flipped"),
    Axis(name: "input_mapping", stage: .mapToImage, values: ["stretch", "letterbox", "letterbox-unrounded"], default: "stretch"),
    Axis("decode_layout", .decode, OutputLayout.self, default: .ultralytics),
    Axis("decode_threshold", .decode, ConfidenceTest.Comparison.self, default: .greaterOrEqual),
    Axis("decode_precision", .decode, ConfidenceTest.Arithmetic.self, default: .float32),
    Axis("drag", .adjust, DragSemantics.self, default: .startPlusTranslation),
    Axis("resume", .resume, ResumeSemantics.self, default: .seed002),
    Axis("save", .resume, SaveMode.self, default: .seed002Steps),
  ]

  /// The axis named `name`, if any.
  package static func axis(_ name: String) -> Axis? { all.first { $0.name == name } }

  /// The axes of one stage, in table order.
  static func axes(of stage: Stage) -> [Axis] { all.filter { $0.stage == stage } }

  /// Every combination of the stage's axes' values (one empty combination for a
  /// stage without axes), defaults first.
  static func combinations(of stage: Stage) -> [Semantics] {
    var out: [Semantics] = [[:]]
    for axis in axes(of: stage) {
      out = out.flatMap { partial in axis.values.map { v in partial.merging([axis.name: v]) { $1 } } }
    }
    return out
  }

  /// The defaults of every axis.
  static let defaults: Semantics = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0.defaultValue) })

  /// Checks a declaration: every known axis's value must be one of its names.
  /// Unknown axis names are returned, not refused (a newer testee may know more).
  package static func validate(_ declared: Semantics) throws(ConformanceError) -> [String] {
    var unknown: [String] = []
    for (name, value) in declared.sorted(by: { $0.key < $1.key }) {
      guard let axis = axis(name) else { unknown.append(name); continue }
      guard axis.values.contains(value) else {
        throw .usage("semantics \(name)=\(Shown.terminal(value)) is unknown: expected one of \(axis.values.joined(separator: ", "))")
      }
    }
    return unknown
  }

  /// The key of a combination in `expected_by_semantics`: `axis=value` pairs in
  /// alphabetical order of the axes, joined by `,`.
  package static func key(_ s: Semantics, axes names: [String]) -> String {
    names.sorted().map { "\($0)=\(s[$0] ?? axis($0)?.defaultValue ?? "")" }.joined(separator: ",")
  }
}

/// The stages of the protocol, in pipeline order.
package enum Stage: String, Sendable, Hashable, CaseIterable, Comparable {
  case score, nms
  case visionFlip = "vision_flip"
  case mapToImage = "map_to_image"
  case decode, echo, adjust, resume, setcards

  /// Pipeline order, for stable listings.
  package static func < (a: Stage, b: Stage) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }

  /// How numbers in this stage's answers are compared.
  var tolerance: NumberTolerance {
    switch self {
    case .visionFlip, .mapToImage, .adjust: return .close
    default: return .exact
    }
  }
}

/// A named number tolerance, one per stage, as `docs/conformance.md` writes them.
enum NumberTolerance: String, Sendable, Hashable {
  /// Bit for bit (`-0.0` and `0.0` differ).
  case exact
  /// Within 1e-9 × max(1, |expected|): the same formula evaluated in another order.
  case close

  /// True when `got` is acceptable for `expected`.
  func accepts(_ expected: Double, _ got: Double) -> Bool {
    switch self {
    case .exact: return expected.bitPattern == got.bitPattern
    case .close: return abs(expected - got) <= 1e-9 * max(1, abs(expected))
    }
  }
}

/// Conformance's errors: one line naming the value and what was expected.
package enum ConformanceError: Error, Equatable, CustomStringConvertible {
  /// A bad command line, declaration or vector file (exit 2).
  case usage(String)
  /// A case input the stage cannot run (names the key and what was expected).
  case input(String)
  /// The testee could not be started or kept running (exit 2).
  case testee(String)

  package var description: String {
    switch self {
    case .usage(let m), .input(let m), .testee(let m): return m
    }
  }
}
