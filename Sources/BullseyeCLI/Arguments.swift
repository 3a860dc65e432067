import ArgumentParser
import Dataset
import Harness
import Persistence
import Pipelines
import Scoring
import Synth

// Every option with a fixed set of values is one of these enums: `--help` lists
// the values, and a wrong value is refused with them listed (exit 2).

extension BoundaryRule: ExpressibleByArgument {}
extension Precision: ExpressibleByArgument {}
extension CoordinatePolicy: ExpressibleByArgument {}
extension ResumeSemantics: ExpressibleByArgument {}
extension SaveMode: ExpressibleByArgument {}
extension ZoomSettings.WindowScale: ExpressibleByArgument {}
extension ImpactSet: ExpressibleByArgument {}
extension ImpactBox: ExpressibleByArgument {}
extension GoldenMode: ExpressibleByArgument {}

/// A platform profile by name; the accepted names are `PlatformProfile.all`'s.
struct ProfileName: ExpressibleByArgument {
  /// The profile's table row.
  let profile: PlatformProfile
  var rawValue: String { profile.name }
  static let ios = ProfileName(profile: PlatformProfile.all.first { $0.name == "ios" }!)

  init(profile: PlatformProfile) { self.profile = profile }
  init?(argument: String) {
    guard let p = PlatformProfile.all.first(where: { $0.name == argument }) else { return nil }
    profile = p
  }
  static var allValueStrings: [String] { PlatformProfile.all.map(\.name) }
  var defaultValueDescription: String { rawValue }
}

/// A face by id or alias (case-insensitive); `--help` lists the ids, `bullseye
/// faces` the aliases too.
struct FaceName: ExpressibleByArgument {
  /// The face's table row.
  let face: Face
  static let tenZone = FaceName(face: FaceCatalog.all.first { $0.id == "10_zone" }!)

  init(face: Face) { self.face = face }
  init?(argument: String) {
    guard let f = try? FaceCatalog.face(named: argument) else { return nil }
    face = f
  }
  static var allValueStrings: [String] { FaceCatalog.all.map(\.id) }
  var defaultValueDescription: String { face.id }
}

/// `WIDTHxHEIGHT`, each side 1...16384 (`SceneLimits.maxSide`, the limit every
/// image reader shares); commands with tighter needs check further.
extension ImageSize: ExpressibleByArgument {
  public init?(argument: String) {
    guard let s = ImageSize(parsing: argument),
          (1...SceneLimits.maxSide).contains(s.width), (1...SceneLimits.maxSide).contains(s.height) else { return nil }
    self = s
  }
  public var defaultValueDescription: String { description }

  /// The option's transform: the same parse, refused with the expected form and range named.
  static func argument(_ text: String) throws -> ImageSize {
    guard let s = ImageSize(argument: text) else {
      throw ValidationError("expected WIDTHxHEIGHT with each side 1...\(SceneLimits.maxSide), e.g. 1280x960")
    }
    return s
  }
}

/// A `--seed`: read even when it starts with a minus, so `-1` is refused with
/// the range named instead of being taken for an option.
func seedArgument(_ text: String) throws -> UInt64 {
  guard let v = UInt64(text) else { throw ValidationError("expected a whole number 0...\(UInt64.max)") }
  return v
}

/// What `run` runs (the deprecated `run --kind` spelling).
enum RunKind: String, CaseIterable, ExpressibleByArgument {
  case archery, setcards, obstacles
}

/// What `synth` draws; `archery` is accepted as another name for `target`.
enum SynthKind: String, CaseIterable, ExpressibleByArgument {
  case target, setcards, archery
  /// The dataset kind it writes with `--dataset`.
  var dataset: DatasetKind { self == .setcards ? .setcards : .target }
}

/// `eval archery --detector`: the shipped (or given) model, or the perfect detector.
enum EvalDetector: String, CaseIterable, ExpressibleByArgument {
  case model, truth
}
