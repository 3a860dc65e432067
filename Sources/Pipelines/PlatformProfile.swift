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

  /// The table.
  public static let all: [PlatformProfile] = [
    PlatformProfile(name: "ios", preprocess: "stretch", roundedPadding: true, inputSize: 640, confidence: 0.40,
                    nms: .greedySorted, iou: 0.7, ids: .uuid, drag: .startPlusTranslation, layout: .ultralytics,
                    coordinates: .seed),
    PlatformProfile(name: "android", preprocess: "letterbox", roundedPadding: true, inputSize: 640, confidence: 0.35,
                    nms: .greedySorted, iou: 0.50, ids: .int, drag: .delta, layout: .ultralytics,
                    coordinates: .keepCoordinates),
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
