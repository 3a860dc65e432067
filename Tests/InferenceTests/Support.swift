import Foundation
import Testing

@testable import Inference

/// Fixture paths inside the test bundle.
enum Fixtures {
  static let root: URL = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")

  static func url(_ path: String) -> URL { root.appendingPathComponent(path) }

  static func bytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: url(path)))
  }

  /// Reads a serialized TensorProto (.pb) as an internal value.
  static func tensorProto(_ path: String) throws -> (String, Value) {
    var r = ProtoReader(try bytes(path), context: "TensorProto")
    let t = try OnnxTensor.decode(&r)
    return (t.name, try Value(t, limit: 1 << 30))
  }
}

/// Named tolerances (never bare literals at call sites).
enum Tolerance {
  /// Bit-for-bit equality.
  case exact
  /// |a − b| ≤ atol + rtol·|b| (the ONNX backend-test rule).
  case close(rtol: Float, atol: Float)
  /// |a − b| ≤ fraction · max|reference| (model goldens).
  case relativeToMax(Float)

  static let onnxBackend = Tolerance.close(rtol: 1e-3, atol: 1e-7)
  static let golden = Tolerance.relativeToMax(1e-4)
  /// A Float32 transcendental (sigmoid, SiLU) against Double, about an ulp.
  static let float32Function = Tolerance.close(rtol: 1e-6, atol: 0)
}

struct Mismatch: CustomStringConvertible {
  var index: Int
  var actual: Float
  var expected: Float
  var maxDiff: Float
  var description: String { "max |Δ| \(maxDiff) at index \(index) (actual \(actual), expected \(expected))" }
}

/// The first element outside `tol`, or nil.
func compare(_ actual: [Float], _ expected: [Float], _ tol: Tolerance) -> Mismatch? {
  guard actual.count == expected.count else {
    return Mismatch(index: -1, actual: Float(actual.count), expected: Float(expected.count), maxDiff: .infinity)
  }
  let scale = expected.reduce(Float(0)) { max($0, abs($1)) }
  var worst: Mismatch?
  var maxDiff: Float = 0
  for i in actual.indices {
    let a = actual[i], e = expected[i]
    if a.isNaN && e.isNaN { continue }
    let d = abs(a - e)
    maxDiff = max(maxDiff, d.isNaN ? .infinity : d)
    let ok: Bool
    switch tol {
    case .exact: ok = a.bitPattern == e.bitPattern
    case .close(let rtol, let atol): ok = a == e || d <= atol + rtol * abs(e)
    case .relativeToMax(let f): ok = d <= f * scale
    }
    if !ok && worst == nil { worst = Mismatch(index: i, actual: a, expected: e, maxDiff: 0) }
  }
  worst?.maxDiff = maxDiff
  return worst
}

/// SplitMix64: the seeded generator for every randomised test.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func float(in range: ClosedRange<Float>) -> Float {
    let u = Float(next() >> 40) / Float(1 << 24)
    return range.lowerBound + (range.upperBound - range.lowerBound) * u
  }
}
