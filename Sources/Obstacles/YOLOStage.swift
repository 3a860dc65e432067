import Imaging

/// YOLO boxes as the distance path uses them: a confidence floor (≥ 0.3), the
/// chosen NMS variant, then the box with the highest true IoU against the
/// Vision box — no minimum, and on ties (all-zero included) the first box in
/// list order wins, as Swift's `max(by:)` keeps the first maximum.
enum YOLOStage {
  /// Result of one frame's YOLO processing; indices refer to the frame's list.
  struct Outcome: Hashable {
    /// Boxes left after filtering and NMS, in the order matching scans them.
    var kept: [Int]
    /// One status line per input box.
    var status: [String]
    /// The matched box's index, nil when no box is left or nothing to match.
    var matched: Int?
    /// Its IoU with the Vision box.
    var iou: Double?
  }

  /// Filters, suppresses and matches `boxes` against `target` (the Vision box).
  static func run(
    _ boxes: [YOLOBox], target: NormalizedBox?, semantics: ObstacleSemantics
  ) -> Outcome {
    let arithmetic = semantics.confidenceArithmetic
    var status = [String](repeating: "kept", count: boxes.count)
    var candidates: [Int] = []
    for (i, b) in boxes.enumerated() {
      if arithmetic.atLeast(b.confidence, Table.yoloMinConfidence) {
        candidates.append(i)
      } else {
        status[i] = "below YOLO threshold \(Table.yoloMinConfidence)"
      }
    }
    let kept = suppress(candidates, boxes, semantics, &status)
    guard let target else { return Outcome(kept: kept, status: status, matched: nil, iou: nil) }
    var best: (index: Int, iou: Double)?
    for i in kept {
      let v = boxes[i].box.iou(target)
      if v > best?.iou ?? -1 { best = (i, v) }  // strictly greater: the first maximum stays
    }
    if let best { status[best.index] = "matched" }
    return Outcome(kept: kept, status: status, matched: best?.index, iou: best?.iou)
  }

  /// Applies the NMS variant (a row of Imaging's `NMSPolicy`) to the
  /// candidates; returns survivors in the order kept.
  static func suppress(
    _ candidates: [Int], _ boxes: [YOLOBox], _ semantics: ObstacleSemantics, _ status: inout [String]
  ) -> [Int] {
    let policy: NMSPolicy
    switch semantics.nms {
    case .none: return candidates
    case .batsight: policy = NMSPolicy(overlap: .greater, order: .inputOrder, measure: .enclosing)
    case .greedy: policy = NMSPolicy(overlap: .greater, order: .byScore, measure: .union)
    }
    let rects = candidates.map { boxes[$0].box }
    let overlap = { (i: Int, j: Int) in policy.measure == .enclosing ? rects[i].enclosingIoU(rects[j]) : rects[i].iou(rects[j]) }
    let scores = candidates.map { semantics.confidenceArithmetic.held(boxes[$0].confidence) }
    var notes: [(Int, Int)] = []
    let kept = Imaging.suppress(corners: rects.map(\.corners), scores: scores, classes: candidates.map { _ in 0 }, policy: policy,
                                threshold: Table.nmsOverlap, overlapOf: overlap) { notes.append(($0, $1)) }
    for (i, j) in notes {
      status[candidates[j]] = "suppressed by box \(candidates[i]) (overlap \(rounded(overlap(i, j))) > \(Table.nmsOverlap))"
    }
    return kept.map { candidates[$0] }
  }

  /// Four decimals, for status text only.
  static func rounded(_ v: Double) -> Double { (v * 10_000).rounded() / 10_000 }
}
