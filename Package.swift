// swift-tools-version:6.0
// Bullseye: golden-data verification and simulation for camera-based scoring apps.
// Dependencies flow one way: C shims → Canvas → Synth / Scoring / Inference → … → CLI.
import Foundation
import PackageDescription

/// The git commit of this checkout (12 hex digits), read from `.git` when the
/// manifest is evaluated; "unknown" outside a git checkout. `bullseye --version` shows it.
let buildCommit: String = {
  let git = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(".git")
  func read(_ path: String) -> String? {
    (try? String(contentsOf: git.appendingPathComponent(path), encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
  }
  guard var sha = read("HEAD") else { return "unknown" }
  if sha.hasPrefix("ref: ") {
    let ref = String(sha.dropFirst(5))
    if let loose = read(ref) {
      sha = loose
    } else if let line = read("packed-refs")?.split(separator: "\n").first(where: { $0.hasSuffix(" " + ref) }) {
      sha = String(line.prefix(40))
    } else {
      return "unknown"
    }
  }
  let short = sha.prefix(12)
  return short.count == 12 && short.allSatisfy(\.isHexDigit) ? String(short) : "unknown"
}()

let package = Package(
  name: "Bullseye",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "bullseye", targets: ["BullseyeCLI"]),
    .library(
      name: "BullseyeKit",
      targets: ["Core", "Scoring", "Imaging", "Canvas", "Synth", "Inference", "Detection", "Adjustment", "Persistence", "Pipelines",
                "Harness", "SetCards", "Obstacles"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
  ],
  targets: [
    // C layer: cairo through pkg-config, libpng behind a small shim that owns setjmp.
    .systemLibrary(
      name: "CCairo", pkgConfig: "cairo",
      providers: [.apt(["libcairo2-dev"])]),
    .target(
      name: "CPNG",
      linkerSettings: [.linkedLibrary("png"), .linkedLibrary("z")]),
    // JPEG through libjpeg-turbo's TurboJPEG API and HEIC through libheif: both
    // report failures as codes, so Imaging wraps each handle in one Swift type.
    .systemLibrary(
      name: "CTurboJPEG", pkgConfig: "libturbojpeg",
      providers: [.apt(["libturbojpeg0-dev"])]),
    .systemLibrary(
      name: "CHeif", pkgConfig: "libheif",
      providers: [.apt(["libheif-dev"])]),
    // Pure Swift stages.
    .target(name: "Core"),
    // Images without cairo: the pixel type, PNG reading and writing, their errors.
    .target(name: "Imaging", dependencies: ["Core", "CPNG", "CTurboJPEG", "CHeif"]),
    .target(name: "Canvas", dependencies: ["Imaging", "CCairo", "CPNG"]),
    .target(name: "StrictYAML", dependencies: ["Core", .product(name: "Yams", package: "Yams")]),
    .target(name: "Scoring"),
    .target(
      name: "Synth",
      dependencies: ["Core", "Scoring", "Canvas", "Imaging", "StrictYAML", "SetCards", "Obstacles"]),
    .target(name: "CKernels"),
    .target(name: "Inference", dependencies: ["CKernels"]),
    .target(name: "Detection", dependencies: ["Core", "Imaging", "Scoring"]),
    .target(name: "SetCards", dependencies: ["Core", "Imaging", "Inference"]),
    .target(name: "Obstacles", dependencies: ["Core", "Imaging"]),
    .target(name: "Adjustment", dependencies: ["Core", "Scoring"]),
    .target(
      name: "Persistence",
      dependencies: ["Core", "Scoring", .product(name: "GRDB", package: "GRDB.swift")]),
    // One image through the stages: the product's pipelines.
    .target(
      name: "Pipelines",
      dependencies: ["Core", "Imaging", "Scoring", "Inference", "Detection", "Adjustment", "Persistence"]),
    .target(name: "Fuzz", dependencies: ["Core", "Scoring"]),
    .target(
      name: "Conformance",
      dependencies: ["Core", "Imaging", "Scoring", "Detection", "Adjustment", "Persistence", "SetCards", "CBuildInfo"]),
    .target(name: "Dataset", dependencies: ["Core", "Imaging", "Scoring", "Synth", "SetCards"]),
    // libFuzzer targets (`make fuzz` builds them with -sanitize=fuzzer); plain builds replay files.
    .target(name: "CFuzzDriver"),
    // The commit `bullseye --version` reports, stamped from the checkout.
    .target(name: "CBuildInfo", cSettings: [.define("BULLSEYE_COMMIT", to: "\"\(buildCommit)\"")]),
    .executableTarget(name: "FuzzPNG", dependencies: ["Imaging", "Fuzz", "CFuzzDriver"]),
    .executableTarget(name: "FuzzONNX", dependencies: ["Inference", "Fuzz", "CFuzzDriver"]),
    .executableTarget(name: "FuzzScenario", dependencies: ["Harness", "Obstacles", "SetCards", "Fuzz", "CFuzzDriver"]),
    // Review overlays drawn over photos: archery runs, ground truth, Set tables, obstacle frames.
    .target(
      name: "Overlays",
      dependencies: ["Core", "Imaging", "Canvas", "Scoring", "Detection", "Adjustment", "Synth", "Pipelines", "SetCards", "Obstacles"]),
    // The harness: scenario files, their runner, evaluators, the truth gate, golden diffs and reports.
    .target(
      name: "Harness",
      dependencies: [
        "Core", "StrictYAML", "Imaging", "Canvas", "Scoring", "Synth", "Inference", "Detection", "Adjustment", "Persistence", "Pipelines",
        "Overlays", "SetCards", "Obstacles", .product(name: "Yams", package: "Yams"),
      ]),
    .executableTarget(
      name: "BullseyeCLI",
      dependencies: [
        "Core", "Scoring", "Canvas", "Synth", "Inference", "Detection", "Adjustment", "Persistence", "Pipelines", "Overlays", "Obstacles", "SetCards", "Harness", "Fuzz", "Dataset", "Conformance", "CBuildInfo",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Yams", package: "Yams"),
      ]),
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(name: "CoreTests", dependencies: ["Core"]),
    .testTarget(name: "ScoringTests", dependencies: ["Scoring", "TestSupport"]),
    .testTarget(name: "CanvasTests", dependencies: ["Canvas", "Imaging", "Core", "TestSupport"], resources: [.copy("Fixtures")]),
    .testTarget(name: "SynthTests", dependencies: ["Synth", "Scoring", "Canvas", "Core", "TestSupport"]),
    // Test-only: a malloc hook that counts allocations (the run-loop allocation test).
    .target(name: "CAllocCount", path: "Tests/CAllocCount"),
    .testTarget(name: "InferenceTests", dependencies: ["Inference", "Imaging", "CAllocCount"], resources: [.copy("Fixtures")]),
    .testTarget(name: "DetectionTests", dependencies: ["Detection", "Imaging", "Synth", "Scoring", "Core", "TestSupport"]),
    .testTarget(name: "AdjustmentTests", dependencies: ["Adjustment", "Scoring", "TestSupport"]),
    .testTarget(
      name: "PersistenceTests",
      dependencies: ["Persistence", "Scoring", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
    .testTarget(name: "PipelinesTests", dependencies: ["Pipelines", "Harness", "Synth", "Scoring", "Canvas", "Core", "Imaging", "Detection", "TestSupport"], exclude: ["Fixtures"]),
    .testTarget(name: "SetCardsTests", dependencies: ["SetCards", "Synth", "Overlays", "Harness", "Core", "Canvas", "StrictYAML"]),
    .testTarget(name: "ObstaclesTests", dependencies: ["Obstacles", "Synth", "Overlays", "Harness", "Core", "Canvas", "Imaging"]),
    .testTarget(
      name: "FuzzTests",
      dependencies: [
        "Fuzz", "Scoring", "Core", "Adjustment", "Persistence",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]),
    .testTarget(name: "HarnessTests", dependencies: ["Harness", "Overlays", "Core", "Canvas", "Inference", "Pipelines", "Obstacles", "SetCards", "Synth", "TestSupport"]),
    .testTarget(
      name: "ConformanceTests",
      dependencies: ["Conformance", "Core", "Imaging", "Scoring", "Detection", "Adjustment", "Persistence", "Obstacles", "Pipelines"]),
    .testTarget(name: "DatasetTests", dependencies: ["Dataset", "Synth", "Core"]),
    .testTarget(name: "CLITests", dependencies: ["BullseyeCLI", "Core", "Persistence"]),
  ]
)
