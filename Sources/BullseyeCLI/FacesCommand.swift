import ArgumentParser
import Core
import Scoring

/// `bullseye faces`: the face table.
struct FacesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "faces", abstract: "List every face with its rings, scores and aliases.", discussion: "Example: bullseye faces --json")
  @Flag(help: "Print JSON.") var json = false

  func run() throws {
    if json {
      let faces: [JSONValue] = FaceCatalog.all.map { f in
        .object([
          "id": .string(f.id), "title": .string(f.title), "aliases": .array(f.aliases.map(JSONValue.string)),
          "diameters_cm": .array(f.diametersCm.map(JSONValue.double)), "buttons": .array(f.buttons.map(JSONValue.string)),
          "zones": .array(f.zones.map { .object(["radius": .double($0.radius), "score": .int($0.score), "label": .string($0.label)]) }),
          "spots": .array(f.spots.map { .array([.double($0.x), .double($0.y), .double($0.radius)]) }),
          "source": .string(f.source),
          // What a conformance testee needs to reproduce the score stage's arithmetic.
          "outer_fraction": .double(f.scoringFraction), "floor_unit": .double(f.floorUnit),
          "x_radius": f.xRadius.map(JSONValue.double) ?? .null,
        ])
      }
      print(try JSONValue.array(faces).canonicalText(), terminator: "")
      return
    }
    for f in FaceCatalog.all {
      let rings = f.zones.map { "\($0.label)≤\(($0.radius * 10000).rounded() / 10000)" }.joined(separator: " ")
      let aka = f.aliases.isEmpty ? "" : " (aka \(f.aliases.joined(separator: ", ")))"
      print("\(f.id)\(aka): \(f.title); \(f.spots.count) spot(s); \(rings)")
    }
  }
}
