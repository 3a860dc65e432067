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

  /// Applies the NMS variant to `order`; returns survivors in scan order.
  static func suppress(
    _ candidates: [Int], _ boxes: [YOLOBox], _ semantics: ObstacleSemantics, _ status: inout [String]
  ) -> [Int] {
    let order: [Int]
    let overlap: (NormalizedBox, NormalizedBox) -> Double
    switch semantics.nms {
    case .none:
      return candidates
    case .batsight:
      order = candidates
      overlap = { $0.enclosingIoU($1) }
    case .greedy:
      let held = { (i: Int) in semantics.confidenceArithmetic.held(boxes[i].confidence) }
      // Stable sort: equal confidences keep input order.
      order = candidates.enumerated()
        .sorted { held($0.element) > held($1.element) || (held($0.element) == held($1.element) && $0.offset < $1.offset) }
        .map(\.element)
      overlap = { $0.iou($1) }
    }
    var kept: [Int] = []
    var dropped = Set<Int>()
    for (n, i) in order.enumerated() where !dropped.contains(i) {
      kept.append(i)
      for j in order[(n + 1)...] where !dropped.contains(j) {
        let r = overlap(boxes[i].box, boxes[j].box)
        if r > Table.nmsOverlap {
          dropped.insert(j)
          status[j] = "suppressed by box \(i) (overlap \(rounded(r)) > \(Table.nmsOverlap))"
        }
      }
    }
    return kept
  }

  /// Four decimals, for status text only.
  static func rounded(_ v: Double) -> Double { (v * 10_000).rounded() / 10_000 }
}
