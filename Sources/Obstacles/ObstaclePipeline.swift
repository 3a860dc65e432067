import Imaging

/// The BatSight obstacle-announcement pipeline on a virtual clock.
public enum ObstaclePipeline {
  /// Runs every frame and mode event of `sequence` in time order (at equal
  /// times, mode events first) and returns the transcript and decisions.
  /// `detector` gives each frame's raw detections (by default the frame's
  /// scripted ones); `render` draws frame i's pixels for a detector that
  /// needs them (the synthesizer's `ObstacleRenderer`, or a user's own
  /// frames); a scripted detector never calls it.
  public static func run(
    _ sequence: ObstacleSequence, detector: any ObstacleDetector = ScriptedDetector(),
    render: @escaping (Int) throws(ObstacleError) -> RGBA8Image = { _ throws(ObstacleError) in throw .invalid(name: "frames", value: "no pixels", expected: "a render function for a detector that reads pixels") }
  ) throws(ObstacleError) -> ObstacleRun {
    let source = detector
    var announcer = Announcer()
    var announcements: [Announcement] = []
    var frames: [FrameDecision] = []
    var modes = sequence.modes[...]
    for (index, frame) in sequence.frames.enumerated() {
      let ms = milliseconds(frame.time)
      while let m = modes.first, milliseconds(m.time) <= ms {
        announcer.mode(m, at: milliseconds(m.time))
        announcements.append(Announcement(time: seconds(milliseconds(m.time)), text: m.text, kind: .mode, frame: nil))
        modes.removeFirst()
      }
      let detections: FrameDetections
      do {
        detections = try source.detect(frame: frame, index: index) {
          try render(index)
        }
      } catch let e as ObstacleError {
        throw e
      } catch {
        throw .detector(frame: index, message: "\(error)")
      }
      let decision = decide(detections, index: index, ms: ms, sequence.semantics, &announcer)
      if decision.announced, let text = decision.text {
        announcements.append(Announcement(time: decision.time, text: text, kind: .object, frame: index))
      }
      frames.append(decision)
    }
    for m in modes {
      announcer.mode(m, at: milliseconds(m.time))
      announcements.append(Announcement(time: seconds(milliseconds(m.time)), text: m.text, kind: .mode, frame: nil))
    }
    return ObstacleRun(announcements: announcements, frames: frames)
  }

  /// One frame: Vision choice, YOLO match, zone, distance, announcement decision.
  static func decide(
    _ d: FrameDetections, index: Int, ms: Int, _ semantics: ObstacleSemantics, _ announcer: inout Announcer
  ) -> FrameDecision {
    let vision = VisionStage.select(d.vision, semantics.confidenceArithmetic, pick: semantics.pick)
    let yolo = YOLOStage.run(d.yolo, target: vision.choice?.box, semantics: semantics)
    var decision = FrameDecision(
      index: index, time: seconds(ms), detections: d, zones: semantics.zones, visionStatus: vision.status, yoloStatus: yolo.status,
      matchedYOLO: yolo.matched, matchIoU: yolo.iou, announced: false, reason: .noObject, detail: "")
    var tracked: TrackedObject?
    if let c = vision.choice {
      let matchedBox = yolo.matched.map { d.yolo[$0].box }
      let box = matchedBox ?? c.box
      let zone = semantics.zones.zone(midX: box.midX)
      let area = matchedBox?.area
      let category = area.flatMap { DistanceCategory.of(area: $0) }
      decision.source = c.source
      decision.label = c.label
      decision.confidence = c.confidence
      decision.visionBox = c.box
      decision.box = box
      decision.zone = zone
      decision.area = area
      decision.category = category
      decision.text = announcementText(label: c.label, zone: zone, category: category)
      tracked = TrackedObject(label: c.label, confidence: c.confidence, zone: zone, box: box)
    }
    let verdict = announcer.frame(tracked, at: ms, arithmetic: semantics.confidenceArithmetic)
    decision.announced = verdict.announced
    decision.reason = verdict.reason
    decision.detail = verdict.detail
    return decision
  }

  /// `{Label} detected {Pos}, {category}, {d.1} meters`; without a category
  /// (no YOLO box, or area 0) just `{Label} detected {Pos}`.
  static func announcementText(label: String, zone: Zone, category: DistanceCategory?) -> String {
    var text = "\(label) detected \(zone.rawValue)"
    if let category { text += ", \(category.name), \(oneDecimal(category.meters)) meters" }
    return text
  }

  /// `String(format: "%.1f")` for the non-negative table distances.
  static func oneDecimal(_ v: Double) -> String {
    let tenths = Int((v * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }

  /// Seconds to the clock's whole milliseconds.
  package static func milliseconds(_ t: Double) -> Int { Int((t * 1000).rounded()) }
  /// The clock's milliseconds back to seconds (3990 → 3.99).
  package static func seconds(_ ms: Int) -> Double { Double(ms) / 1000 }
}
