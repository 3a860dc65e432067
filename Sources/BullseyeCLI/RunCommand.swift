import ArgumentParser
import Canvas
import Core
import Detection
import Foundation
import Harness
import Imaging
import Inference
import Overlays
import Persistence
import Pipelines
import Scoring
import Synth

/// `bullseye run`: one kind's pipeline on one input, a subcommand per kind.
struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Run one pipeline on your own input: archery photos, Set-card tables or obstacle frame sequences.",
    discussion: "The old spelling `run --kind KIND …` still works for one minor release, with a deprecation line on stderr.",
    subcommands: [RunArcheryCommand.self, RunSetCardsCommand.self, RunObstaclesCommand.self])
}

/// `bullseye run archery`: the app's whole pipeline on one photo.
struct RunArcheryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "archery",
    abstract: "Run the camera-scoring pipeline on a photo: detect → NMS → flip → score → adjust → persist.",
    discussion: "Example: bullseye run archery --image IMG_0412.HEIC --profile best --overlay review.png --out result.json")

  @Option(help: "Input photo: PNG, JPEG or HEIC (told apart by content).") var image: String?
  @Option(help: "apply: turn the photo upright by its EXIF orientation (HEIC: its container's rotation) before detecting; ignore: hand the stored pixels over as they are (seed 000's trap).")
  var orientation: OrientationSemantics = .apply
  @Option(help: "Also draw the review overlay (photo with detections and fitted face, the face with the confirmed arrows, the score table) to this PNG.")
  var overlay: String?
  @Option(help: "Platform profile: ios and android are the apps as they are (no refiner); best is the most accurate that ships — the shipped refiner on, Android's NMS (IoU 0.5) and letterbox, the drag that keeps overshoot, coordinates kept, boxes more than a ring width off the face dropped, a closer look of the detector at a face that fills less than three quarters of the photo (its region at the model input's size or more, never enlarged), whose pixels the refiner then reads its windows in, and a box the detector alone would report kept at the refiner's gate point where the gate believes it but the entry map finds nothing.")
  var profile: ProfileName = .ios
  @Flag(name: .customLong("keep-outside"), help: "Under --profile best: keep boxes far outside the face, each marked outside: true, instead of dropping them.")
  var keepOutside = false
  @Option(name: .customLong("shaft-check"),
          help: "With a refiner: on drops points whose shaft runs the wrong way or that have none (nocks, old holes, points along a shaft), fewer false arrows for a few more missed ones (Models/README.md); off (the default) lets the refiner alone decide.")
  var shaftCheck: Switch = .off
  @Option(help: "Face id or alias.") var face: FaceName = .tenZone
  @Option(name: .customLong("diameter-cm"), parsing: .unconditional, help: "Nominal face diameter in cm (default: the face's first size).") var diameterCm: Double?
  @Option(help: "Boundary rule.") var rule: BoundaryRule = .inclusive
  @Option(name: .customLong("line-mm"), parsing: .unconditional,
          help: "Printed ring-line width in mm the target fit expects (0: ring edges taken as zone boundaries).")
  var lineMM: Double = Face.printedLineMM
  @Option(help: "Detection-time arithmetic.") var precision: Precision = .float32Native
  @Option(help: "An ONNX detector (default: the shipped Models/arrow-detector.onnx, found beside the installed executable).") var model: String?
  @Option(help: "An arrow refiner ONNX (e.g. Models/arrow-refiner.onnx): a second look at each candidate at the photo's resolution; off by default, as in the apps.")
  var refiner: String?
  /// Removed experiments: accepted only to name what replaced them.
  @Option(name: .customLong("refiner-views"), parsing: .unconditional,
          help: "How many of a window's eight mirrored and transposed views the refiner reads where it found one entry, its offsets averaged, 1...8 (default 4; the shipped refiner was trained on all eight views, 1 suits a refiner that was not).")
  var refinerViews: Int?
  @Option(name: .customLong("pair-verifier"), help: .hidden) var pairVerifier: String?
  @Option(help: "Injected raw candidates instead of a model: YAML list of {cx, cy, w, h, confidence, class} in model-input pixels.")
  var detections: String?
  @Option(name: .customLong("expected-arrows"), parsing: .unconditional) var expectedArrows: Int = 6
  @Option(help: "Gesture script (YAML).") var gestures: String?
  @Option(help: "Round database (SQLite); the confirmed end is saved there.") var db: String?
  @Option(parsing: .unconditional, help: "Round id in --db (default: a new round).") var round: Int64?
  @Option(parsing: .unconditional, help: "End number to save into.") var end: Int = 1
  @Option(help: "Coordinates handed to the store: keep-coordinates or seed (dropped); default: the profile's (ios: seed, as seed 000's camera flow).") var coordinates: CoordinatePolicy?
  @Option(parsing: .unconditional, help: "Seed for derived ids.", transform: seedArgument) var seed: UInt64 = 0
  @Option(help: "The injected clock (ISO 8601).") var clock: String = "1970-01-01T00:00:00Z"
  @Option(help: "Result JSON path; - (the default) writes it to standard output.") var out: String = AtomicFile.standardOutput
  @Option(parsing: .unconditional, help: "Threads the detector runs on (default: the CPUs this process may use; results do not depend on it).")
  var threads: Int?

  func validate() throws {
    if let threads, !(1...256).contains(threads) { throw ValidationError("--threads \(threads) is out of range: expected 1...256") }
    try RemovedFlags.check(["--pair-verifier": pairVerifier])
    if let refinerViews, !(1...8).contains(refinerViews) {
      throw ValidationError("--refiner-views \(refinerViews) is out of range: expected 1...8")
    }
    guard (0...1000).contains(expectedArrows) else { throw ValidationError("--expected-arrows \(expectedArrows) is out of range: expected 0...1000") }
    guard (1...1000).contains(end) else { throw ValidationError("--end \(end) is out of range: expected 1...1000") }
    if round != nil, db == nil { throw ValidationError("--round needs --db") }
    // Flags that would do nothing are refused, as --round without --db is.
    if db?.isEmpty == true { throw ValidationError("--db is empty: expected a round database file path") }
    if end != 1, db == nil { throw ValidationError("--end needs --db: the end number says where the confirmed end is saved") }
    if coordinates != nil, db == nil { throw ValidationError("--coordinates needs --db: it says what the store keeps") }
    if refinerViews != nil, refiner == nil, !profile.profile.refine {
      throw ValidationError("--refiner-views needs a refiner: --refiner FILE, or --profile best")
    }
    if detections != nil, model != nil { throw ValidationError("--detections and --model exclude each other: injected boxes replace the model") }
    if let round, !(1...Self.maxRound).contains(round) {
      throw ValidationError("--round \(round) is out of range: expected a round id 1...\(Self.maxRound)")
    }
    if shaftCheck == .on, refiner == nil, !profile.profile.refine {
      throw ValidationError("--shaft-check on needs a refiner: --refiner FILE, or --profile best")
    }
    if keepOutside, profile.profile.outside == .keep {
      throw ValidationError("--keep-outside cannot go with --profile \(profile.profile.name): that profile keeps every box already (only best drops them)")
    }
    if let d = diameterCm, !(d.isFinite && d > 0 && d <= 1000) {
      throw ValidationError("--diameter-cm \(d) is out of range: expected a face diameter in cm, more than 0 and at most 1000")
    }
    try checkLineMM(lineMM)
    guard ArcheryScenario.isISO8601(clock) else {
      throw ValidationError("--clock '\(clock)' is not an ISO 8601 time: expected e.g. 2026-01-01T09:00:00Z")
    }
  }

  /// The largest round id `--round` takes (SQLite's rowid range, with room left).
  static let maxRound: Int64 = 1 << 53


  func run() throws {
    guard let image else { throw CLIError(message: "--image is required: the photo to score") }
    try OutputPaths.checkWritable(out, flag: "--out")
    if let overlay { try OutputPaths.checkWritable(overlay, flag: "--overlay") }
    try OutputPaths.checkDistinct(
      inputs: [("--image", image), ("--model", model), ("--refiner", refiner), ("--detections", detections), ("--gestures", gestures)],
      outputs: [("--out", out), ("--overlay", overlay), ("--db", db)])
    let photo: RGBA8Image
    do { photo = try orientation.pixels(of: try readPhoto(image, flag: "--image"), threads: threads ?? ProcessorCount.available) } catch let e as ImageError {
      throw CLIError(message: "--image '\(image)': \(e)")
    }
    let f: Face, r: BoundaryRule, p: Precision
    f = face.face
    let chosen = coordinates
    r = rule; p = precision
    var prof = profile.profile
    if keepOutside { prof.outside = .mark }
    if shaftCheck == .on { prof.shaftCheck = .shipped }
    var req = RunRequest(image: photo, profile: prof, face: f, diameterCm: diameterCm, rule: r,
                         detector: try detectorSource(), expectedArrows: expectedArrows)
    req.precision = p
    req.lineMM = lineMM
    req.seed = seed
    req.timestamp = clock
    if let threads { req.threads = threads }
    // The profile's own refiner is the shipped one unless --refiner names another.
    let refinerPath = try refiner ?? (prof.refine && detections == nil ? ProductPaths.require("arrow-refiner.onnx") : nil)
    if let refinerPath {
      var settings = RefinerSettings.shipped
      if let refinerViews { settings.views = refinerViews }
      do { req.refiner = try ArrowRefiner(contentsOf: refinerPath, settings: settings) } catch { throw CLIError(message: "--refiner '\(refinerPath)': \(error)") }
    }
    let script = try gestureScript()
    req.gestures = script.effectiveSteps
    req.viewRadius = script.viewRadius
    // The end is saved into a copy of the database beside it, which replaces the
    // database last, after the result and overlay are in place: a failure anywhere
    // leaves the database as it was.
    var staged: String?
    defer { if let staged { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: staged + suffix) } } }
    if let db {
      try OutputPaths.checkWritable(db, flag: "--db")
      let copy = try Self.stageDatabase(db)
      staged = copy
      req.persist = PersistRequest(path: copy, round: round, end: end, coordinates: chosen ?? prof.coordinates)
      req.persist?.displayName = db
    }
    do {
      let result = try ArcheryPipeline.run(req)
      // A detector that ran and failed (non-finite outputs, a tensor it cannot decode)
      // is the run failing, not a finding about the picture: nothing is written.
      if let e = result.error, !result.noTarget {
        throw CLIError(message: "the detector \(model.map { "--model '\($0)'" } ?? "Models/arrow-detector.onnx") failed: \(e)")
      }
      // No face in the picture is an answer (target null, no arrows), said on stderr, not a failure.
      if result.target == nil, let e = result.error {
        FileHandle.standardError.write(Data("warning: \(e); the result has target null and no arrows\n".utf8))
      }
      // A photo with no target saves nothing: the staged copy never came to be,
      // and the database stays as it was (absent, when it was new).
      if let copy = staged, !FileManager.default.fileExists(atPath: copy) { staged = nil }
      // The overlay and the result placed together: a failure at either leaves neither.
      var batch = OutputBatch()
      if let overlay {
        let name = URL(fileURLWithPath: image).lastPathComponent
        let picture = try ArcheryOverlay.draw(result, profile: prof.name, truth: nil, image: photo, id: name)
        batch.add(try PNG.encode(picture), to: overlay)
      }
      batch.add(try result.json.canonicalText(), to: out)
      try batch.commit()
      if let db, let copy = staged {
        guard rename(copy, db) == 0 else { throw CLIError(message: "--db '\(db)' cannot be replaced: \(String(cString: strerror(errno)))") }
        staged = nil
      }
    } catch let e as PipelineError { throw CLIError(e) } catch let e as CoreError { throw CLIError(e) } catch let e as CanvasError {
      throw CLIError(message: "--overlay '\(overlay ?? "")': \(e)")
    }
  }

  /// A copy of `db` (empty when it does not exist yet) beside it, with any
  /// write-ahead log folded in first, for the run to save into.
  static func stageDatabase(_ db: String) throws -> String {
    let fm = FileManager.default
    let url = URL(fileURLWithPath: db)
    let copy = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).run-\(getpid())").path
    for suffix in ["", "-wal", "-shm"] { try? fm.removeItem(atPath: copy + suffix) }
    guard fm.fileExists(atPath: db) else { return copy }
    do {
      // Opening and closing the store checkpoints its WAL into the main file.
      _ = try RoundStore(path: db)
      try fm.copyItem(atPath: db, toPath: copy)
    } catch let e as PersistenceError { throw CLIError(message: "--db \(e)") } catch {
      throw CLIError(message: "--db '\(db)' cannot be read as a round database: \(error)")
    }
    return copy
  }

  func detectorSource() throws -> DetectorSource {
    if let detections {
      guard let text = try? String(contentsOfFile: detections, encoding: .utf8) else {
        throw CLIError(message: "--detections '\(detections)' cannot be read: expected a YAML list of boxes")
      }
      do { return .boxes(try BoxList.decode(text, path: detections)) } catch { throw CLIError(error) }
    }
    if let model { return .loaded(try loadDetector(model, flag: "--model"), name: model) }
    guard let shipped = ProductPaths.model("arrow-detector.onnx") else {
      throw CLIError(message: "no detector: \(ProductPaths.expected("arrow-detector.onnx")) not found; expected --model FILE or --detections FILE")
    }
    return .loaded(try loadDetector(shipped, flag: "the shipped detector"), name: "Models/arrow-detector.onnx")
  }

  func gestureScript() throws -> GestureScript {
    guard let gestures else { return GestureScript() }
    guard let text = try? String(contentsOfFile: gestures, encoding: .utf8) else {
      throw CLIError(message: "--gestures '\(gestures)' cannot be read: expected a YAML gesture script")
    }
    do { return try SceneFile.decode(GestureScript.self, text, path: gestures) } catch { throw CLIError(error) }
  }
}
