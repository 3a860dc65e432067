import Foundation
import Adjustment
import Core
import Imaging
import Detection
import Inference
import Persistence
import Scoring

/// Where detections come from.
public enum DetectorSource: Sendable {
  /// Raw candidates in model-input pixels, as a scenario scripts them.
  case boxes([RawBox])
  /// A raw output tensor, [1, 4 + classes, anchors].
  case tensor(values: [Float], shape: [Int])
  /// An ONNX model run by the CPU backend, read from `path` for this run.
  case model(path: String)
  /// An ONNX model already loaded: runs over many photos parse the file and
  /// plan its buffers once.
  case loaded(InferenceModel, name: String)
  /// No detector: the target comes from the hint; no arrows are detected.
  case none
  /// Detections given in face coordinates (x right, y down, 1 = the scoring edge),
  /// bypassing the detector and the ring fit: for scenarios that test arithmetic.
  case face([[Double]])
}

/// Which spot of a multi-spot face each arrow is scored on.
public enum SpotRule: String, Sendable, Hashable, CaseIterable {
  /// The spot it hit.
  case nearest
  /// Arrow i → spot i mod n (the seed style).
  case sequential
}

/// Where and how to persist the confirmed end.
public struct PersistRequest: Sendable {
  var path: String
  var round: Int64?
  var end: Int
  var coordinates: CoordinatePolicy
  var upsert: UpsertSemantics
  /// A simulated crash: only the first `limit` arrows are saved.
  var limit: Int?
  /// How errors name the database (the user's path when `path` is a staged copy of it).
  public var displayName: String?
  public init(path: String, round: Int64?, end: Int, coordinates: CoordinatePolicy = .keepCoordinates,
              upsert: UpsertSemantics = .update, limit: Int? = nil) {
    self.path = path; self.round = round; self.end = end; self.coordinates = coordinates; self.upsert = upsert; self.limit = limit
  }
}

/// Everything one run needs; every semantic choice explicit.
public struct RunRequest: Sendable {
  var image: RGBA8Image
  public var profile: PlatformProfile
  public var face: Face
  var diameterCm: Double
  package var rule: BoundaryRule
  /// Arithmetic of the detection-time score (seed 000's `DetectedArrow` is Float).
  public var precision: Precision = .float32Native
  public var arrowMM: Double = 5.5
  /// Printed ring-line width (mm) the target fit expects each ring edge to be
  /// offset by half of; 0 takes the zone-colour steps as the zone boundaries (the
  /// fit without line awareness, every ring half a line too large).
  public var lineMM: Double = Face.printedLineMM
  public var spots: SpotRule = .nearest
  /// The arithmetic of edit-time scoring at confirm (seed 000 edits `EditableArrow` in Double;
  /// `precision` is the detection-time arithmetic, seed 000's Float `DetectedArrow`).
  public var confirmPrecision: Precision = .double
  public var detector: DetectorSource
  /// A second look at each arrow candidate at the photo's resolution (nil: the
  /// detector's boxes at the profile's threshold, as the apps do).
  public var refiner: ArrowRefiner?
  /// A starting estimate of the face outline (pixels), when no target box is detected.
  public var targetHint: FittedEllipse?
  public var expectedArrows: Int
  public var gestures: [Gesture] = []
  public var viewRadius: Double = 150
  public var seed: UInt64 = 0
  /// The injected clock's reading, ISO 8601.
  public var timestamp: String = "1970-01-01T00:00:00Z"
  public var persist: PersistRequest?
  /// Threads the detector model runs on (results do not depend on it).
  public var threads: Int = ProcessorCount.available
  /// Where a benchmark collects each stage's wall time; nil in every run that
  /// is not timed (the result never depends on it).
  public var stageTimes: StageTimes?

  public init(image: RGBA8Image, profile: PlatformProfile, face: Face, diameterCm: Double? = nil, rule: BoundaryRule = .inclusive,
              detector: DetectorSource, expectedArrows: Int) {
    self.image = image; self.profile = profile; self.face = face; self.diameterCm = diameterCm ?? face.diametersCm[0]
    self.rule = rule; self.detector = detector; self.expectedArrows = expectedArrows
  }
}

/// Wall time per pipeline stage of one run, in the order the stages ran
/// (`bench photo`): detect (model, NMS, closer look), refine, locate, score,
/// adjust, persist. A class so the run can fill in what its caller reads.
public final class StageTimes: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [(stage: String, time: Duration)] = []

  /// An empty record.
  public init() {}

  /// The stages recorded so far, in order.
  public var stages: [(stage: String, time: Duration)] {
    lock.lock()
    defer { lock.unlock() }
    return entries
  }

  func add(_ stage: String, _ time: Duration) {
    lock.lock()
    entries.append((stage, time))
    lock.unlock()
  }
}

/// Times the stages of one run into `times` (nothing when nil).
struct StageClock {
  let times: StageTimes?
  let clock = ContinuousClock()
  var last: ContinuousClock.Instant

  init(_ times: StageTimes?) { self.times = times; last = clock.now }

  /// Ends the stage named `stage` now; the next one starts here.
  mutating func mark(_ stage: String) {
    guard let times else { return }
    let now = clock.now
    times.add(stage, now - last)
    last = now
  }
}
