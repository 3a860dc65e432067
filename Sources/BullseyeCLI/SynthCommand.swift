import ArgumentParser
import Canvas
import Overlays
import Core
import Dataset
import Foundation
import Harness
import Pipelines
import Synth

/// `bullseye synth`: render a target photo and its ground truth.
struct SynthCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "synth",
    abstract: "Render a synthetic target photo (random from a seed, or described by a scene file) and its ground truth.", discussion: "Example: bullseye synth --seed 7 --face wa_vegas_3_spot --out photo.png --truth truth.json --overlay truth.png")

  @Option(help: "What to draw (archery is another name for target).") var kind: SynthKind = .target
  @Option(parsing: .unconditional, help: "Number of cards (setcards, 3...21).") var cards: Int?
  @Option(help: "Look: for setcards classic (the scenarios' look; default for one image), realism (phone-photo domain randomization; default for --dataset) or realism-holdout (the same from ranges outside realism's, for test sets); for target classic (the default) or realistic (practice and worn faces, stands, posts, grass, patched bosses, steep angles, shallow shafts, overcast light).")
  var style: SynthStyle?
  @Option(help: "Face id or alias.") var face: FaceName = .tenZone
  @Option(name: .customLong("diameter-cm"), parsing: .unconditional, help: "Nominal face diameter in cm.") var diameterCm: Double?
  @Option(parsing: .unconditional, help: "Seed for everything not pinned.", transform: seedArgument) var seed: UInt64 = 0
  @Option(parsing: .unconditional, help: "Number of arrows (random scenes).") var arrows: Int?
  @Option(parsing: .unconditional, help: "Image size WIDTHxHEIGHT, sides 1...16384.", transform: ImageSize.argument) var size = ImageSize(width: 1280, height: 960)
  @Option(help: "A scene file (YAML) describing the scene.") var scenario: String?
  @Option(help: "Write a training dataset here instead of one image (with --count).") var dataset: String?
  @Option(parsing: .unconditional, help: "Images in the dataset (default 100).") var count: Int?
  @Option(help: "Which impacts a target dataset labels: shafts (holes without shafts are negatives, like old holes; the default) or all.")
  var impacts: ImpactSet?
  @Option(name: .customLong("impact-box"), help: "Label box of a target dataset's impacts: wide (six shaft diameters, at least 12 px; the default) or hole (two, at least 8 px).")
  var impactBox: ImpactBox?
  @Option(name: .customLong("touching-share"), parsing: .unconditional,
          help: "Share of drawn arrows placed touching the arrow before them (random target scenes and datasets; default 0.10, at most 0.78).")
  var touchingShare: Double?
  @Option(help: "Faces a target dataset draws from, comma-separated ids or aliases (default: a mix of ten faces, plain 10-zone a quarter of the scenes).")
  var faces: String?
  @Option(help: "Output PNG path.") var out: String?
  @Option(help: "Ground-truth JSON path.") var truth: String?
  @Option(help: "Also write a review overlay PNG here.") var overlay: String?

  func validate() throws {
    let shares = SceneSpec.touchingShares
    if let touchingShare, !(touchingShare.isFinite && shares.contains(touchingShare)) {
      throw ValidationError("--touching-share \(touchingShare) is out of range: expected \(shares.lowerBound)...\(shares.upperBound)")
    }
    if let style, !style.applies(to: kind) {
      let accepted = SynthStyle.allCases.filter { $0.applies(to: kind) }.map(\.rawValue).joined(separator: ", ")
      throw ValidationError("--style \(style.rawValue) does not apply to --kind \(kind.rawValue): expected one of \(accepted)")
    }
    if cards != nil, kind != .setcards { throw ValidationError("--cards needs --kind setcards: a target scene has arrows (--arrows)") }
    if let cards, !SceneLimits.cardCount.contains(cards) {
      throw ValidationError("--cards \(cards) is out of range: expected \(SceneLimits.cardCount.lowerBound)...\(SceneLimits.cardCount.upperBound)")
    }
    if let arrows, !(0...SceneLimits.maxArrows).contains(arrows) {
      throw ValidationError("--arrows \(arrows) is out of range: expected 0...\(SceneLimits.maxArrows)")
    }
    if let d = diameterCm, !(d.isFinite && SceneLimits.diameterCm.contains(d)) {
      throw ValidationError("--diameter-cm \(d) is out of range: expected \(SceneLimits.diameterCm.lowerBound)...\(SceneLimits.diameterCm.upperBound)")
    }
    if let count, !DatasetSpec.counts.contains(count) {
      throw ValidationError("--count \(count) is out of range: expected \(DatasetSpec.counts.lowerBound)...\(DatasetSpec.counts.upperBound)")
    }
    // A flag that does nothing here is a mistake worth saying, not a silent default.
    if dataset == nil {
      for (flag, given) in [("--count", count != nil), ("--faces", faces != nil), ("--impacts", impacts != nil), ("--impact-box", impactBox != nil)] where given {
        throw ValidationError("\(flag) needs --dataset: one image is drawn from --seed, --face and --arrows")
      }
    } else {
      for (flag, given) in [("--out", out != nil), ("--truth", truth != nil), ("--overlay", overlay != nil), ("--scenario", scenario != nil)] where given {
        throw ValidationError("\(flag) does not go with --dataset: a dataset writes its own images, labels and annotations")
      }
    }
  }

  func run() throws {
    if let dataset { return try writeDataset(dataset) }
    guard let out else { throw CLIError(message: "--out is required (or --dataset DIR)") }
    for (flag, path) in [("--out", out), ("--truth", truth), ("--overlay", overlay)] {
      if let path { try OutputPaths.checkWritable(path, flag: flag) }
    }
    try OutputPaths.checkDistinct(inputs: [("--scenario", scenario)],
                                  outputs: [("--out", out), ("--truth", truth), ("--overlay", overlay)])
    if kind == .setcards { return try synthSetCards() }
    let spec: SceneSpec
    if let scenario {
      guard let text = try? String(contentsOfFile: scenario, encoding: .utf8) else {
        throw CLIError(message: "--scenario '\(scenario)' cannot be read: expected a readable YAML file")
      }
      // Corpus files carry pipeline keys too; the scene is the part synth needs.
      do { spec = try ArcheryScenario.decode(text, path: scenario).scene } catch { throw CLIError(error) }
    } else {
      var s2 = SceneSpec(face: face.face.id, seed: seed, size: size, arrowCount: arrows)
      s2.style = style?.archery ?? .classic
      s2.diameterCm = diameterCm
      s2.touchingShare = touchingShare
      spec = s2
    }
    do {
      let result = try Synthesizer.render(spec)
      // Every output produced first, then placed together: a late failure leaves none of them.
      var batch = OutputBatch()
      batch.add(try PNG.encode(result.image), to: out)
      if let truth { batch.add(try result.truth.json.canonicalText(), to: truth) }
      if let overlay { batch.add(try PNG.encode(try TruthOverlay.draw(result.truth, on: result.image)), to: overlay) }
      try batch.commit()
    } catch let e as SynthError { throw CLIError(e) }
    catch let e as CanvasError { throw CLIError(e) }
    catch let e as CoreError { throw CLIError(e) }
    catch let e as ImageError { throw CLIError(message: "\(e)") }
  }
}
