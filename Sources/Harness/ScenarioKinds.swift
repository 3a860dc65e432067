import Canvas
import Core
import Foundation
import Obstacles
import Overlays
import Pipelines
import SetCards
import StrictYAML
import Synth

/// A kind of scenario (archery, setcards, obstacles): decodes its file and
/// produces the artifacts its golden pins, running models on `threads`.
protocol ScenarioKind: Sendable {
  var name: String { get }
  func run(_ header: ScenarioHeader, root: String, work: String, threads: Int) throws -> KindOutput
}

/// The kinds, as a table.
let scenarioKinds: [any ScenarioKind] = [ArcheryKind(), SetCardsKind(), ObstaclesKind()]

struct ArcheryKind: ScenarioKind {
  let name = "archery"
  func run(_ header: ScenarioHeader, root: String, work: String, threads: Int) throws -> KindOutput {
    let file = header.file, id = header.id
    var s = try ArcheryScenario.decode(header.document)
    if let m = s.detector.model { s.detector.model = try PathGuard.resolve(m, from: file, root: root) }
    if let m = s.detector.refiner { s.detector.refiner = try PathGuard.resolve(m, from: file, root: root) }
    if let n = s.detector.npy { s.detector.npy = try PathGuard.resolve(n, from: file, root: root) }
    if let i = s.image { s.image = try PathGuard.resolve(i, from: file, root: root) }
    if s.detector.source == "model", s.detector.model == nil {
      guard let shipped = ProductPaths.model("arrow-detector.onnx") else {
        throw GoldenError("\(file): detector source 'model' without a path reads the shipped \(ProductPaths.expected("arrow-detector.onnx")), which is not there")
      }
      s.detector.model = shipped
    }
    let out = try ScenarioRunner.run(s, id: id, workDir: work, threads: threads)
    var runs: [String: JSONValue] = [:]
    // A photo file pins itself; a rendered scene's picture is pinned as input.png.
    var artifacts = s.image == nil ? [Artifact("input.png", .png(out.image))] : []
    for run in out.runs {
      runs[run.profile] = .object(["result": run.result.json, "resume": run.resume?.json ?? .null])
      artifacts.append(Artifact("overlay-\(run.profile).png", .png(try ArcheryOverlay.draw(run.result, profile: run.profile, truth: out.truth, marks: out.marks, image: out.image, id: id))))
      if let dump = run.databaseDump { artifacts.append(Artifact("database-\(run.profile).txt", .text(dump))) }
    }
    var result: [String: JSONValue] = [
      "id": .string(id), "kind": .string(name), "truth": out.truth?.json ?? .null, "runs": .object(runs),
      "expectation_failures": .array(out.failures.map(JSONValue.string)),
    ]
    if let p = out.photo { result["photo"] = p }
    if !out.marks.isEmpty { result["marks"] = .array(out.marks.map { .array($0.map(JSONValue.double)) }) }
    artifacts.insert(Artifact("result.json", .json(.object(result))), at: s.image == nil ? 1 : 0)
    return KindOutput(artifacts: artifacts, failures: out.failures, truthFailures: out.truthFailures, truthDeclared: out.truthDeclared)
  }
}

struct SetCardsKind: ScenarioKind {
  let name = "setcards"
  func run(_ header: ScenarioHeader, root: String, work: String, threads: Int) throws -> KindOutput {
    let id = header.id
    let s = try SetScenarioFile.decode(header.document)
    let out = try s.run(defaultID: id)
    var artifacts = [Artifact("input.png", .png(out.image)),
                     Artifact("result.json", .json(try JSONParser.parse(out.result.canonicalJSON())))]
    if let render = out.render { artifacts.append(Artifact("truth.json", .json(try JSONParser.parse(render.canonicalTruth())))) }
    for (i, img) in try SetOverlay.renderAll(image: out.image, result: out.result, labels: s.labels).enumerated() {
      artifacts.append(Artifact("overlay-\(i + 1).png", .png(img)))
    }
    // A reviewer reads English on the card; the goldens keep the seed's shorthand.
    var review: [Artifact] = []
    if s.labels != .english {
      for (i, img) in try SetOverlay.renderAll(image: out.image, result: out.result, labels: .english).enumerated() {
        review.append(Artifact("review-overlay-\(i + 1).png", .png(img)))
      }
    }
    return KindOutput(artifacts: artifacts, failures: out.failures, review: review)
  }
}

struct ObstaclesKind: ScenarioKind {
  let name = "obstacles"
  func run(_ header: ScenarioHeader, root: String, work: String, threads: Int) throws -> KindOutput {
    let s = try ObstacleScenario.decode(header.document)
    let result = try ObstacleResult.run(s)
    var artifacts = [Artifact("result.json", .json(result.json))]
    let transcript = result.announcements.map { a in "\(String(format: "%.3f", a.time)) s  \(a.text)" }.joined(separator: "\n")
    artifacts.append(Artifact("transcript.txt", .text(transcript + "\n")))
    for f in s.overlays { artifacts.append(Artifact("frame-\(f).png", .png(try ObstacleRenderer.overlay(s.scene, result.run, frame: f, semantics: s.semantics)))) }
    return KindOutput(artifacts: artifacts, failures: result.expectationFailures)
  }
}

/// Keeps file references inside the scenario tree: no absolute paths, no
/// `..`, and no symlink that resolves outside.
enum PathGuard {
  static func resolve(_ ref: String, from file: String, root: String) throws -> String {
    guard !ref.hasPrefix("/") else { throw GoldenError("\(file): path '\(ref)' is absolute: expected a path inside \(root)") }
    guard !ref.split(separator: "/").contains("..") else {
      throw GoldenError("\(file): path '\(ref)' contains '..': expected a path inside \(root)")
    }
    let dir = URL(fileURLWithPath: file).deletingLastPathComponent()
    let full = dir.appendingPathComponent(ref).path
    let real = URL(fileURLWithPath: full).resolvingSymlinksInPath().path
    let realRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
    guard real == realRoot || real.hasPrefix(realRoot + "/") else {
      throw GoldenError("\(file): path '\(ref)' resolves to '\(real)', outside \(root)")
    }
    return full
  }
}

/// Golden's error: one sentence.
public struct GoldenError: Error, CustomStringConvertible, Equatable {
  public let description: String
  init(_ d: String) { description = d }
}
