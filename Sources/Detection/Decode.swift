/// Decodes a detector's output tensor into candidates, one per anchor.
///
/// Shape: `values` is row-major [1, rows, anchors]; rows 0–3 are cx, cy, w, h in
/// input pixels. Ultralytics: rows 4… are class scores (the best class wins);
/// seed 001: row 4 is the confidence and row 5 the class id.
public func decodeOutput(_ values: [Float], shape: [Int], layout: OutputLayout) throws(DetectionError) -> [RawBox] {
  guard shape.count == 3, shape[0] == 1, shape[1] >= 5, shape[2] > 0 else {
    throw .badTensor("output shape \(shape) is not a detector output: expected [1, 4 + classes, anchors], e.g. [1, 6, 8400]")
  }
  let rows = shape[1], anchors = shape[2]
  guard values.count == rows * anchors else {
    throw .badTensor("output has \(values.count) values: expected \(rows) × \(anchors) = \(rows * anchors)")
  }
  if layout == .seed001, rows != 6 {
    throw .badTensor("seed-001 layout needs 6 rows (box, confidence, class id): got \(rows)")
  }
  let broken = values.lazy.filter { !$0.isFinite }.count
  guard broken == 0 else {
    throw .badTensor("output holds \(broken) non-finite values (NaN or infinity): expected finite box coordinates and scores")
  }
  // Sigmoid scores and image-sized boxes: a model whose numbers are neither is broken,
  // and its "detections" (confidence 1.9e32 at x 1.9e32) must not be scored.
  let scoreRows = layout == .seed001 ? 4..<5 : 4..<rows
  for r in scoreRows {
    for a in 0..<anchors where !(0...1).contains(values[r * anchors + a]) {
      throw .badTensor("output row \(r) holds \(values[r * anchors + a]) at anchor \(a): expected scores in 0...1")
    }
  }
  for r in 0..<4 {
    for a in 0..<anchors where abs(values[r * anchors + a]) > 1e6 {
      throw .badTensor("output row \(r) holds \(values[r * anchors + a]) at anchor \(a): expected box values within ±1e6 input pixels")
    }
  }
  var out: [RawBox] = []
  out.reserveCapacity(anchors)
  for a in 0..<anchors {
    @inline(__always) func v(_ r: Int) -> Double { Double(values[r * anchors + a]) }
    var best = 0, score = v(4)
    switch layout {
    case .ultralytics:
      for c in 1..<(rows - 4) where v(4 + c) > score { best = c; score = v(4 + c) }
    case .seed001:
      // A class id past any real one is no class (and must not trap converting).
      best = abs(v(5)) < 1e6 ? Int(v(5).rounded()) : -1
    }
    out.append(RawBox(cx: v(0), cy: v(1), w: v(2), h: v(3), confidence: score, classID: best))
  }
  return out
}

/// How a candidate's confidence is held against the threshold: both apps
/// hold confidences as Float, so a score equal to `Float(0.35)` passes a Float
/// test and fails a Double one.
public struct ConfidenceTest: Sendable, Hashable {
  /// `≥` (both seeds) or `>`.
  public enum Comparison: String, Sendable, Hashable, CaseIterable { case greaterOrEqual = "greater-or-equal", greater }
  /// The arithmetic of the comparison: `Float(score)` against `Float(threshold)`, or Doubles.
  public enum Arithmetic: String, Sendable, Hashable, CaseIterable { case float32, double }

  var comparison: Comparison
  var arithmetic: Arithmetic
  /// A test; the defaults are seed 000's (`observation.confidence >= confidenceThreshold`, both Float).
  public init(comparison: Comparison = .greaterOrEqual, arithmetic: Arithmetic = .float32) {
    self.comparison = comparison; self.arithmetic = arithmetic
  }

  /// True when `score` passes `threshold`.
  public func passes(_ score: Double, threshold: Double) -> Bool {
    switch arithmetic {
    case .float32: return compare(Float(score), Float(threshold))
    case .double: return compare(score, threshold)
    }
  }

  @inline(__always) func compare<T: Comparable>(_ a: T, _ b: T) -> Bool {
    comparison == .greaterOrEqual ? a >= b : a > b
  }
}
