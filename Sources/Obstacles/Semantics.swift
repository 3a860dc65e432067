/// Which zone boundaries map a box centre to Left / Center / Right.
public enum ZoneVariant: String, Sendable, Hashable, CaseIterable {
  /// DetectedObject at HEAD: midX < 0.4 Left, > 0.6 Right, else Center.
  case batsight
  /// The older VisionDetection / YOLOv8Detection structs: < 0.33, > 0.67.
  case legacy
}

/// Which non-maximum suppression runs over the YOLO boxes before matching.
package enum NMSVariant: String, Sendable, Hashable, CaseIterable {
  /// None: the distance path at HEAD runs no NMS (the default).
  case none
  /// BatSight's `applyNMS`: input order, no confidence sort, ratio against the
  /// enclosing rectangle, later box dropped when the ratio is > 0.5.
  case batsight
  /// Standard greedy NMS: sort by confidence (stable), true IoU > 0.5 drops.
  case greedy
}

/// Which floating-point type confidences are compared in.
package enum ConfidenceArithmetic: String, Sendable, Hashable, CaseIterable {
  /// The app's `Float` (VNConfidence): 0.8 − 0.6 is 0.19999999 there.
  case float32
  /// Double, for contrast: 0.8 − 0.6 is 0.20000000000000007.
  case float64
}

/// Which Vision detection the pipeline goes on with when several sources kept one.
package enum VisionPick: String, Sendable, Hashable, CaseIterable {
  /// The app's code (VisionModelManager): the top detection of the first source,
  /// in priority order (objects, faces, classification), that kept anything.
  case priority
  /// The seed's prose ("the most confident detection"): the highest confidence
  /// among every source's top detection; equal confidences keep priority order.
  case mostConfident = "most-confident"
}

/// The named semantics a scenario runs under; `.batsight` is the app at HEAD.
public struct ObstacleSemantics: Sendable, Hashable {
  /// Zone boundaries.
  package var zones: ZoneVariant
  /// NMS over YOLO boxes.
  package var nms: NMSVariant
  /// Confidence arithmetic.
  package var confidenceArithmetic: ConfidenceArithmetic
  /// Which source's detection wins.
  package var pick: VisionPick

  /// Memberwise; defaults are the app at HEAD.
  package init(
    zones: ZoneVariant = .batsight, nms: NMSVariant = .none,
    confidenceArithmetic: ConfidenceArithmetic = .float32, pick: VisionPick = .priority
  ) {
    self.zones = zones
    self.nms = nms
    self.confidenceArithmetic = confidenceArithmetic
    self.pick = pick
  }

  /// The app at HEAD.
  package static let batsight = ObstacleSemantics()
}

/// Horizontal zone of a detection, spelled as the app speaks it.
public enum Zone: String, Sendable, Hashable, CaseIterable {
  case left = "Left", center = "Center", right = "Right"
}

/// A distance category with the fixed distance the app announces for it.
public struct DistanceCategory: Sendable, Hashable {
  /// Spoken name, e.g. "very close".
  public let name: String
  /// Announced distance in metres.
  public let meters: Double
}

/// Every constant of the pipeline, as data. Values from the BatSight app
/// (VisionModelManager, YOLOv8Model, DetectionState, SpeechManager).
package enum Table {
  /// Zone boundaries per variant: Left when midX < left, Right when > right.
  package static func zoneBounds(_ v: ZoneVariant) -> (left: Double, right: Double) {
    switch v {
    case .batsight: return (0.4, 0.6)
    case .legacy: return (0.33, 0.67)
    }
  }

  /// Distance bands, nearest first: (minimum area, inclusive, category).
  /// The last band is `> 0`; area 0 gets no category.
  package static let distanceBands: [(minArea: Double, inclusive: Bool, category: DistanceCategory)] = [
    (0.15, true, DistanceCategory(name: "very close", meters: 0.5)),
    (0.08, true, DistanceCategory(name: "close", meters: 1.0)),
    (0.04, true, DistanceCategory(name: "medium", meters: 1.5)),
    (0.02, true, DistanceCategory(name: "far", meters: 2.5)),
    (0.0, false, DistanceCategory(name: "very far", meters: 4.0)),
  ]

  /// Per Vision source: minimum confidence (≥), whether generic labels are
  /// removed, the label it forces, and the box it forces. Listed in priority order.
  package static let visionRules: [(source: VisionSource, minConfidence: Double, dropsGeneric: Bool,
    forcedLabel: String?, forcedBox: NormalizedBox?)] = [
    (.objects, 0.4, true, nil, nil),
    (.faces, 0.5, false, "Person", nil),
    (.classification, 0.3, true, nil, NormalizedBox.classificationCentre),
  ]

  /// YOLO boxes below this confidence are dropped (≥ keeps).
  package static let yoloMinConfidence = 0.3
  /// NMS drops a box whose overlap ratio with a kept one is > this.
  package static let nmsOverlap = 0.5
  /// Minimum time between object announcements (DetectionState), milliseconds.
  package static let announceIntervalMs = 4000
  /// SpeechManager cooldown after any speech, milliseconds.
  package static let speechCooldownMs = 2000
  /// A confidence change counts when |Δ| > this (in the chosen arithmetic).
  package static let confidenceChange = 0.2
  /// A centre move counts when |Δx| or |Δy| > this.
  package static let centreChange = 0.1

  /// Labels VisionModelManager drops as too generic (compared lowercased);
  /// labels containing "unknown" or "unidentified" are dropped too.
  package static let genericLabels: Set<String> = [
    "structure", "material", "object", "thing", "item", "surface", "texture",
    "pattern", "design", "background", "foreground", "scene", "image", "photo",
    "picture", "view", "area", "space", "place", "location", "setting",
    "environment", "atmosphere", "lighting", "shadow", "reflection", "color",
    "shape", "form", "line", "edge", "corner", "side", "part", "piece",
    "section", "element", "component", "feature", "detail", "aspect", "machine",
    "appliance", "textile", "rectangle", "consumer_electronics", "music",
    "musical_instrument", "furniture", "wood_processed", "interior_room",
    "conveyence", "conveyance", "vehicle", "transport", "portal", "cabinet",
  ]
  /// Substrings that make a label generic.
  package static let genericFragments = ["unknown", "unidentified"]
}

extension ConfidenceArithmetic {
  /// `value` as this arithmetic holds it, widened back to Double for reporting.
  package func held(_ value: Double) -> Double {
    switch self {
    case .float32: return Double(Float(value))
    case .float64: return value
    }
  }

  /// `a >= b` in this arithmetic.
  package func atLeast(_ a: Double, _ b: Double) -> Bool {
    switch self {
    case .float32: return Float(a) >= Float(b)
    case .float64: return a >= b
    }
  }

  /// `|a − b|` computed in this arithmetic.
  package func difference(_ a: Double, _ b: Double) -> Double {
    switch self {
    case .float32: return Double(abs(Float(a) - Float(b)))
    case .float64: return abs(a - b)
    }
  }

  /// `|a − b| > limit` in this arithmetic.
  package func differs(_ a: Double, _ b: Double, by limit: Double) -> Bool {
    switch self {
    case .float32: return abs(Float(a) - Float(b)) > Float(limit)
    case .float64: return abs(a - b) > limit
    }
  }
}

extension ZoneVariant {
  /// The zone of a centre x: strictly below the left bound is Left, strictly
  /// above the right bound is Right, the bounds themselves are Center.
  package func zone(midX: Double) -> Zone {
    let b = Table.zoneBounds(self)
    return midX < b.left ? .left : (midX > b.right ? .right : .center)
  }
}

extension DistanceCategory {
  /// The category of a normalized area, nil for area ≤ 0.
  package static func of(area: Double) -> DistanceCategory? {
    Table.distanceBands.first { area > $0.minArea || ($0.inclusive && area == $0.minArea) }?.category
  }
}
