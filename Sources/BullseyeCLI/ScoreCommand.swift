import ArgumentParser
import Core
import Scoring

/// `bullseye score`: one point on one face under one rule.
struct ScoreCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "score", abstract: "Score one point on a face under a named boundary rule.", discussion: "Example: bullseye score --face 10_zone --x 0.1 --y 0 --rule strict --json")

  @Option(help: "Face id or alias (see `bullseye faces`).") var face: FaceName = .tenZone
  @Option(name: .customLong("diameter-cm"), parsing: .unconditional, help: "Nominal face diameter in cm (default: the face's first size).")
  var diameterCm: Double?
  @Option(help: "Boundary rule.") var rule: BoundaryRule = .inclusive
  @Option(parsing: .unconditional, help: "x in face units (right is positive).") var x: Double
  @Option(parsing: .unconditional, help: "y in face units (down is positive).") var y: Double
  @Option(name: .customLong("arrow-mm"), parsing: .unconditional, help: "Shaft diameter in mm (line-cutter).") var arrowMM: Double = 5.5
  @Option(help: "Arithmetic.") var precision: Precision = .double
  @Option(parsing: .unconditional, help: "Score on this spot index instead of the nearest (multi-spot faces).") var spot: Int?
  @Flag(help: "Print one JSON object.") var json = false

  var request: ScoreRequest {
    ScoreRequest(face: face.face, x: x, y: y, rule: rule, diameterCm: diameterCm, arrowMM: arrowMM,
                 precision: precision, spot: spot.map(SpotAssignment.index) ?? .nearest)
  }

  func validate() throws {
    // The scorer takes any positive size (conformance inputs may be scaled); a face a person
    // gives on the command line is at least a centimetre: 5e-324 is a typo, not a target.
    if let d = diameterCm, d.isFinite, d > 0, d < 1 {
      throw ValidationError("--diameter-cm \(d) is out of range: expected a face diameter in 1...1000 cm")
    }
    do { try Scorer.validate(request) } catch { throw ValidationError("\(error)") }
  }

  func run() throws {
    let result: ScoreResult
    do { result = try Scorer.score(request) } catch { throw CLIError(error) }
    if json {
      guard case .object(var fields) = result.json else { return }
      fields["x_ring"] = .bool(result.isX)
      fields["face"] = .string(request.face.id)
      fields["rule"] = .string(request.rule.rawValue)
      fields["precision"] = .string(request.precision.rawValue)
      fields["diameter_cm"] = .double(request.diameterCm)
      fields["arrow_mm"] = .double(request.arrowMM)
      fields["top_score"] = .int(request.face.topScore)
      print(try JSONValue.object(fields).canonicalText(), terminator: "")
    } else {
      print("\(result.label) (score \(result.score)) ring \(result.ring) distance \(result.distance) on \(request.face.id) [\(request.rule.rawValue), \(request.precision.rawValue)]")
    }
  }
}

