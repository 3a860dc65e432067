/// The detection the pipeline goes on with after Vision filtering: the top
/// observation of the highest-priority source that has any left.
struct VisionChoice: Hashable {
  var index: Int
  var source: VisionSource
  var label: String
  /// Confidence as held by the arithmetic in use.
  var confidence: Double
  var box: NormalizedBox
}

/// Vision filtering as VisionModelManager does it: per source, a confidence
/// floor (≥), generic-label removal, label cleanup, top-1 by confidence;
/// then the first source, in priority order, that kept anything.
enum VisionStage {
  /// The choice (nil when nothing survives) and one status line per observation.
  static func select(_ observations: [VisionObservation], _ arithmetic: ConfidenceArithmetic, pick: VisionPick = .priority)
    -> (choice: VisionChoice?, status: [String])
  {
    var status = [String](repeating: "", count: observations.count)
    var tops: [VisionChoice] = []
    for rule in Table.visionRules {
      var kept: [VisionChoice] = []
      for (i, o) in observations.enumerated() where o.source == rule.source {
        if !arithmetic.atLeast(o.confidence, rule.minConfidence) {
          status[i] = "below \(rule.source.rawValue) threshold \(rule.minConfidence)"
        } else if rule.dropsGeneric && isGeneric(o.label) {
          status[i] = "generic label"
        } else {
          let box = rule.forcedBox ?? o.box ?? .classificationCentre
          kept.append(VisionChoice(
            index: i, source: o.source, label: rule.forcedLabel ?? cleanup(o.label),
            confidence: arithmetic.held(o.confidence), box: box))
        }
      }
      // Top-1 by confidence; on equal confidence the earlier observation stays.
      let top = kept.reduce(nil as VisionChoice?) { best, c in
        guard let best else { return c }
        return c.confidence > best.confidence ? c : best
      }
      for c in kept where c.index != top?.index { status[c.index] = "not the top \(rule.source.rawValue) detection" }
      if let top { tops.append(top) }
    }
    // Tops are in priority order; the prose's reading takes the most confident (ties: priority).
    let choice: VisionChoice?
    switch pick {
    case .priority: choice = tops.first
    case .mostConfident: choice = tops.reduce(nil as VisionChoice?) { best, c in best.map { c.confidence > $0.confidence ? c : $0 } ?? c }
    }
    for t in tops {
      status[t.index] = t.index == choice?.index ? "chosen"
        : pick == .priority ? "outranked by \(choice!.source.rawValue)" : "less confident than \(choice!.source.rawValue)"
    }
    return (choice, status)
  }

  /// Lowercased label in the generic set, or containing a generic fragment.
  static func isGeneric(_ label: String) -> Bool {
    let lower = label.lowercased()
    return Table.genericLabels.contains(lower) || Table.genericFragments.contains { lower.contains($0) }
  }

  /// The app's cleanup: a label starting with "n" and longer than 10
  /// characters loses its first 10 (meant for ImageNet ids such as
  /// "n02084071_dog"; it also mangles "notebook_computer"), the first letter
  /// is capitalized, and underscores become spaces.
  static func cleanup(_ label: String) -> String {
    var s = Substring(label)
    if s.hasPrefix("n") && s.count > 10 { s = s.dropFirst(10) }
    let capitalized = s.prefix(1).uppercased() + s.dropFirst()
    return String(capitalized.map { $0 == "_" ? " " : $0 })
  }
}
