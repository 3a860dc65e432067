import Testing

import Imaging
@testable import Inference

/// `ModelInput.window` (the refiner's crop) against `Training/refiner.py crop`
/// on a formula image both sides can build: the crops are 8-bit levels, so the
/// two must agree exactly (fixture: Fixtures/window-crops.npy).
struct WindowTests {
  static let width = 97, height = 61
  /// (cx, cy, side): 1, 3, 2 and 1 sub-samples per axis; the second and third cross the border.
  static let cases: [(Double, Double, Double)] = [(40.3, 20.7, 16), (5, 58, 40), (90.5, -3, 23), (48.25, 30.5, 7.5)]

  static func formulaImage() throws -> RGBA8Image {
    var px: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        px += [UInt8((x * 7 + y * 13) % 256), UInt8((x * x + 3 * y) % 256), UInt8((x * y + 50) % 256), 255]
      }
    }
    return try RGBA8Image(width: width, height: height, pixels: px)
  }

  @Test func matchesTheTrainingCrop() throws {
    let expected = try NPY.read(Fixtures.url("window-crops.npy").path)
    #expect(expected.shape == [Self.cases.count, 3, 16, 16])
    let img = try Self.formulaImage()
    for (i, (cx, cy, side)) in Self.cases.enumerated() {
      let t = try ModelInput.window(img, cx: cx, cy: cy, side: side, out: 16)
      #expect(t.count == 3 * 16 * 16)
      let want = Array(expected.scalars[(i * 768)..<((i + 1) * 768)])
      let diff = zip(t, want).filter { $0 != $1 }.count
      #expect(diff == 0, "window \(i) (\(cx), \(cy), side \(side)): \(diff) of 768 values differ")
    }
  }

  @Test func rejectsAbsurdWindows() throws {
    let img = try Self.formulaImage()
    for side in [0.0, -4, .nan, .infinity, 1e9] {
      #expect(throws: ImageError.self) {
        try ModelInput.window(img, cx: 10, cy: 10, side: side, out: 16)
      }
    }
    #expect(throws: ImageError.self) {
      try ModelInput.window(img, cx: .nan, cy: 10, side: 8, out: 16)
    }
  }
}
