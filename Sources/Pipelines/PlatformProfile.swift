import Adjustment
import Detection
import Persistence

/// One platform's constants (seeds 000/001), as data. A scenario may override any entry.
public struct PlatformProfile: Sendable, Hashable {
  public var name: String
  /// `stretch` (Vision `.scaleFill`) or `letterbox` (Ultralytics, gray 114).
  public var preprocess: String
  /// Letterbox back-transform pads rounded as Ultralytics does.
  public var roundedPadding: Bool
  var inputSize: Int
  public var confidence: Double
  public var nms: NMSVariant
  public var iou: Double
  var ids: ArrowIDs.Style
  public var drag: DragSemantics
  public var layout: OutputLayout
  /// What the confirmed camera arrows hand to the store: seed 000's camera flow
  /// calls `addScore(score, isX:)` without coordinates (stored NULL, `MANUAL`).
  public var coordinates: CoordinatePolicy
  /// Whether the run takes a second look at each candidate with the shipped
  /// arrow refiner (the apps have none; `best` does).
  public var refine: Bool
  /// What happens to impacts well outside the face (more than one ring width
  /// beyond the outermost ring of every spot): the apps keep and score them.
  public var outside: OutsideImpacts
  /// A second, closer look of the detector at a face that fills little of the
  /// photo (nil: one look, as the apps take).
  public var zoom: ZoomSettings? = nil
  /// With a gated refiner: a candidate the detector alone would report (at least
  /// `confidence`) whose window the gate passes at this probability, but in which the
  /// map finds no entry, keeps the gate's own point (nil: the map alone decides, as
  /// `--refiner` on an app profile reads it).
  public var gateFallback: Double? = nil
  /// With a refiner: a look along the shafts that drops nocks, old holes and
  /// points on shafts (nil: the refiner alone decides). No profile takes it by
  /// default: it trades recall for precision (`--shaft-check on`, Models/README.md).
  public var shaftCheck: ShaftCheck? = nil

  /// The table.
  public static let all: [PlatformProfile] = [
    PlatformProfile(name: "ios", preprocess: "stretch", roundedPadding: true, inputSize: 640, confidence: 0.40,
                    nms: .greedySorted, iou: 0.7, ids: .uuid, drag: .startPlusTranslation, layout: .ultralytics,
                    coordinates: .seed, refine: false, outside: .keep),
    PlatformProfile(name: "android", preprocess: "letterbox", roundedPadding: true, inputSize: 640, confidence: 0.35,
                    nms: .greedySorted, iou: 0.50, ids: .int, drag: .delta, layout: .ultralytics,
                    coordinates: .keepCoordinates, refine: false, outside: .keep),
    // Not an app: the most accurate configuration that ships (refiner on, Android's
    // NMS and letterbox, the drag that keeps overshoot, coordinates kept, off-face boxes dropped,
    // a closer look at a small face, confident boxes the gate believes kept where the map is empty).
    PlatformProfile(name: "best", preprocess: "letterbox", roundedPadding: true, inputSize: 640, confidence: 0.35,
                    nms: .greedySorted, iou: 0.50, ids: .int, drag: .startPlusTranslation, layout: .ultralytics,
                    coordinates: .keepCoordinates, refine: true, outside: .drop, zoom: .shipped, gateFallback: 0.3),
  ]

  /// Looks a profile up by name.
  public static func named(_ n: String) throws(PipelineError) -> PlatformProfile {
    guard let p = all.first(where: { $0.name == n }) else {
      throw PipelineError("unknown profile '\(n)': expected one of \(all.map(\.name).joined(separator: ", "))")
    }
    return p
  }

  /// The input mapping for an image of this size.
  public func mapping(width: Int, height: Int) -> InputMapping {
    preprocess == "letterbox"
      ? .letterbox(imageWidth: width, imageHeight: height, input: inputSize, roundedPadding: roundedPadding)
      : .stretch(imageWidth: width, imageHeight: height, input: inputSize)
  }
}

/// Pipeline's error: one sentence naming the actual value and what was expected.
public struct PipelineError: Error, CustomStringConvertible, Equatable {
  public let description: String
  public init(_ d: String) { description = d }
}

/// What a run does with an impact far outside the located face (more than one
/// ring width beyond the outermost scoring ring of every spot): on a real
/// photo that is a stand's bolt, a post or grass, not an arrow.
public enum OutsideImpacts: String, Sendable, Hashable, CaseIterable {
  /// Score it as the apps do (a miss, M).
  case keep
  /// Drop it before adjustment; a real miss just off the face (within one ring width) still scores M.
  case drop
  /// Keep it, scored, and mark it `outside: true` in the result (`--keep-outside` under `best`).
  case mark
}
