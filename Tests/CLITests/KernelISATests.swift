import Foundation
import Testing

/// `BULLSEYE_ISA` lowers the instruction set; a typo is refused, never run as the best.
struct KernelISATests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  @Test(arguments: ["AVX2", "bogus", "sse4"])
  func unknownValuesAreRefusedListingTheAcceptedOnes(value: String) throws {
    let r = try CLIRunner.run(["faces"], env: ["BULLSEYE_ISA": value])
    #expect(r.status == 2, "\(value): \(r.stderr)")
    #expect(r.stderr.contains("BULLSEYE_ISA '\(value)' is unknown: expected one of scalar, avx2, avx512"), "\(r.stderr)")
  }

  /// The portable path (what an x86-64 without AVX2 runs) gives the same bytes as the best ISA.
  @Test func thePortablePathGivesTheSameOutputBytes() throws {
    let dir = try CLIRunner.scratch("isa")
    let model = Self.root + "/Models/setcards-classifier.onnx"
    let image = Self.root + "/Tests/CanvasTests/Fixtures/quadrants.png"
    var outputs: [Data] = []
    for isa in ["scalar", "avx2", ""] {
      let out = dir + "/o-\(isa.isEmpty ? "best" : isa).npy"
      let r = try CLIRunner.run(["model", "run", model, "--image", image, "--stretch", "--output", out], env: ["BULLSEYE_ISA": isa])
      #expect(r.status == 0, "\(isa): \(r.stderr)")
      outputs.append(try Data(contentsOf: URL(fileURLWithPath: out)))
    }
    #expect(outputs[0] == outputs[2] && outputs[1] == outputs[2], "scalar, avx2 and the best ISA differ")
  }

  /// `bench peak` measures the instruction set the kernels run at and says
  /// which (its figures are a benchmark's, never asserted here).
  @Test func benchPeakMeasuresTheChosenPath() throws {
    for isa in ["scalar", ""] {
      let r = try CLIRunner.run(["bench", "peak", "--seconds", "0.02", "--trials", "2", "--json"], env: ["BULLSEYE_ISA": isa])
      #expect(r.status == 0, "\(r.stderr)")
      let j = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
      let name = j?["isa"] as? String ?? "?"
      #expect(isa == "scalar" ? name == "scalar" : ["scalar", "avx2", "avx512"].contains(name), "\(name)")
      #expect((j?["gflops"] as? Double ?? 0) > 0)
    }
    let bad = try CLIRunner.run(["bench", "peak", "--seconds", "0"])
    #expect(bad.status == 2 && bad.stderr.contains("--seconds 0.0 is out of range"), "\(bad.stderr)")
  }
}
