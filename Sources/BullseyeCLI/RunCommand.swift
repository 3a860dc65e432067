import ArgumentParser
import Canvas
import Core
import Detection
import Foundation
import Persistence
import Pipeline
import Scoring
import Synth

/// `bullseye run`: the app's whole pipeline on one photo.
struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Run the camera-scoring pipeline on a photo: detect → NMS → flip → score → adjust → persist.")

  @Option(help: "Scenario kind: archery, setcards or obstacles.") var kind: String = "archery"
  @Option(help: "An obstacles scenario file (--kind obstacles).") var scenario: String?
  @Option(help: "Truth JSON standing in for the card models (--kind setcards).") var truth: String?
  @Option(help: "Card classifier ONNX (--kind setcards; default Models/card-classifier.onnx).") var classifier: String?
  @Option(help: "Input photo (PNG).") var image: String?
  @Option(help: "Platform profile: ios or android.") var profile: String = "ios"
  @Option(help: "Face id or alias.") var face: String = "10_zone"
  @Option(name: .customLong("diameter-cm"), parsing: .unconditional) var diameterCm: Double?
  @Option(help: "Boundary rule.") var rule: String = "inclusive"
  @Option(name: .customLong("line-mm"), parsing: .unconditional,
          help: "Printed ring-line width in mm the target fit expects (0: ring edges taken as zone boundaries).")
  var lineMM: Double = Face.printedLineMM
  @Option(help: "Detection-time arithmetic: double, float32, float32-native.") var precision: String = "float32-native"
  @Option(help: "An ONNX detector (default: Models/arrow-detector.onnx when present).") var model: String?
  @Option(help: "An arrow refiner ONNX (e.g. Models/arrow-refiner.onnx): a second look at each candidate at the photo's resolution; off by default, as in the apps.")
  var refiner: String?
  /// Removed experiments: accepted only to name what replaced them.
  @Option(name: .customLong("refiner-views"), parsing: .unconditional, help: .hidden) var refinerViews: String?
  @Option(name: .customLong("pair-verifier"), help: .hidden) var pairVerifier: String?
  @Option(help: "Injected raw candidates instead of a model: YAML list of {cx, cy, w, h, confidence, class} in model-input pixels.")
  var detections: String?
  @Option(name: .customLong("expected-arrows"), parsing: .unconditional) var expectedArrows: Int = 6
  @Option(help: "Gesture script (YAML).") var gestures: String?
  @Option(help: "Round database (SQLite); the confirmed end is saved there.") var db: String?
  @Option(parsing: .unconditional, help: "Round id in --db (default: a new round).") var round: Int64?
  @Option(parsing: .unconditional, help: "End number to save into.") var end: Int = 1
  @Option(help: "Coordinates handed to the store: keep-coordinates or seed (dropped); default: the profile's (ios: seed, as seed 000's camera flow).") var coordinates: String?
  @Option(help: "Seed for derived ids.") var seed: UInt64 = 0
  @Option(help: "The injected clock (ISO 8601).") var clock: String = "1970-01-01T00:00:00Z"
  @Option(help: "Result JSON path.") var out: String

  func validate() throws {
    try RemovedFlags.check(["--refiner-views": refinerViews, "--pair-verifier": pairVerifier])
    guard (0...1000).contains(expectedArrows) else { throw ValidationError("--expected-arrows \(expectedArrows) is out of range: expected 0...1000") }
    guard (1...1000).contains(end) else { throw ValidationError("--end \(end) is out of range: expected 1...1000") }
    if round != nil, db == nil { throw ValidationError("--round needs --db") }
  }

  func run() throws {
    switch kind {
    case "archery": break
    case "obstacles": return try runObstacles()
    case "setcards": return try runSetCards()
    default: throw CLIError(message: "--kind '\(kind)' is unknown: expected archery, setcards or obstacles")
    }
    guard let image else { throw CLIError(message: "--image is required for --kind archery") }
    try checkLineMM(lineMM)
    try OutputPaths.checkWritable(out, flag: "--out")
    let photo: RGBA8Image
    do { photo = try PNG.read(path: image) } catch { throw CLIError(message: "--image '\(image)': \(error)") }
    let f: Face, r: BoundaryRule, p: Precision
    do { f = try FaceCatalog.face(named: face) } catch { throw CLIError(error) }
    guard let rr = BoundaryRule(rawValue: rule) else { throw CLIError(ScoringError.unknownRule(rule)) }
    guard let pp = Precision(rawValue: precision) else { throw CLIError(ScoringError.unknownPrecision(precision)) }
    let chosen: CoordinatePolicy? = try coordinates.map { try choice($0, flag: "--coordinates") }
    r = rr; p = pp
    let prof: PlatformProfile
    do { prof = try PlatformProfile.named(profile) } catch { throw CLIError(error) }
    var req = RunRequest(image: photo, profile: prof, face: f, diameterCm: diameterCm, rule: r,
                         detector: try detectorSource(), expectedArrows: expectedArrows)
    req.precision = p
    req.lineMM = lineMM
    req.seed = seed
    req.timestamp = clock
    if let refiner {
      do { req.refiner = try ArrowRefiner(contentsOf: refiner) } catch { throw CLIError(message: "--refiner '\(refiner)': \(error)") }
    }
    let script = try gestureScript()
    req.gestures = script.effectiveSteps
    req.viewRadius = script.viewRadius
    if let db {
      try OutputPaths.checkWritable(db, flag: "--db")
      req.persist = PersistRequest(path: db, round: round, end: end, coordinates: chosen ?? prof.coordinates)
    }
    do {
      let result = try ArcheryPipeline.run(req)
      try AtomicFile.write(try result.json.canonicalText(), to: out)
    } catch let e as PipelineError { throw CLIError(e) } catch let e as CoreError { throw CLIError(e) }
  }

  func detectorSource() throws -> DetectorSource {
    if let detections {
      guard let text = try? String(contentsOfFile: detections, encoding: .utf8) else {
        throw CLIError(message: "--detections '\(detections)' cannot be read: expected a YAML list of boxes")
      }
      do { return .boxes(try BoxList.decode(text, path: detections)) } catch { throw CLIError(error) }
    }
    if let model { return .model(path: model) }
    let shipped = "Models/arrow-detector.onnx"
    return FileManager.default.fileExists(atPath: shipped) ? .model(path: shipped) : .none
  }

  func gestureScript() throws -> GestureScript {
    guard let gestures else { return GestureScript() }
    guard let text = try? String(contentsOfFile: gestures, encoding: .utf8) else {
      throw CLIError(message: "--gestures '\(gestures)' cannot be read: expected a YAML gesture script")
    }
    do { return try SceneFile.decode(GestureScript.self, text, path: gestures) } catch { throw CLIError(error) }
  }
}
