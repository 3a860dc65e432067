import Adjustment
import Core
import Persistence
import Scoring
import SetCards

extension Oracle {
  /// `adjust`: the markers and interleaved drag callbacks replayed through the
  /// adjustment state machine, then confirmed (edit-time scoring in Double, `d ≤ r`).
  static func adjust(_ i: Input, _ s: Semantics) throws(ConformanceError) -> JSONValue {
    let face = try face(i.string("face"))
    let diameter = try i.number("diameter_cm")
    guard diameter > 0, diameter <= 1000 else { throw .input("'diameter_cm' is \(diameter), expected a face diameter in (0, 1000] cm") }
    let radius = try i.number("view_radius")
    guard radius > 0, radius <= 100_000 else { throw .input("'view_radius' is \(radius), expected a radius in (0, 100000] points") }
    var markers: [EditableArrow] = []
    for (n, m) in try i.array("markers").enumerated() {
      let p = try Input.numbers(m, "markers[\(n)]", count: 2)
      guard abs(p[0]) <= 1e6, abs(p[1]) <= 1e6 else { throw .input("'markers[\(n)]' is out of range: expected coordinates within ±1e6") }
      markers.append(EditableArrow(id: String(n), x: p[0], y: p[1], isManual: false, confidence: 1))
    }
    var gestures: [Gesture] = []
    for (n, e) in try i.array("events").enumerated() {
      let ev = try Input(e)
      let marker = try ev.int("marker", in: 0...100_000)
      if try ev.bool("end", default: false) {
        gestures.append(.dragEnded(arrow: marker))
      } else {
        let t = try Input.numbers(try ev.value("translation"), "events[\(n)].translation", count: 2)
        gestures.append(.dragChanged(arrow: marker, translation: Double2(t[0], t[1])))
      }
    }
    gestures.append(.confirm)
    let adjuster = Adjuster(drag: DragSemantics(rawValue: s["drag"]!)!, viewRadius: radius, ids: ArrowIDs(style: .int, seed: 0))
    let out = AdjustmentStage.run(AdjustmentInput(detected: markers, expected: markers.count, gestures: gestures),
                                  adjuster: adjuster, face: face, rule: .inclusive, diameterCm: diameter, arrowMM: 5.5)
    let confirmed = out.confirmed ?? []
    return .object(["markers": .array(confirmed.map { a in
      .object(["start": .int(Int(a.id) ?? -1), "position": .array([.double(a.x), .double(a.y)]), "points": .int(a.score),
               "x": .bool(a.isX), "adjusted": .bool(a.wasAdjusted)])
    })])
  }

  /// `resume`: the saved rows written to a real (in-memory) round database,
  /// then the app's restart read back under the declared resume semantics.
  static func resume(_ i: Input, _ s: Semantics) throws(ConformanceError) -> JSONValue {
    let faceName = try face(i.string("face")).id
    let perEnd = try i.int("arrows_per_end", in: 1...24)
    let saved = try i.array("saved")
    do {
      let store = try RoundStore(path: ":memory:")
      let round = try store.createRound(name: "conform", face: faceName, arrowsPerEnd: perEnd, ends: 100, createdAt: "2026-01-01T00:00:00Z")
      let mode = SaveMode(rawValue: s["save"]!)!
      for (n, e) in saved.enumerated() {
        let ev = try Input(e)
        let end = try ev.int("end", in: 1...100)
        if try ev.bool("complete", default: false) {
          try store.completeEnd(round: round, end: end)
          continue
        }
        if try ev.bool("create", default: false) {
          try store.openEnd(round: round, end: end)
          continue
        }
        // The app killed right after this step of this save: nothing after it happens.
        var crash: SaveStep?
        if ev.fields["crash_after"] != nil {
          let name = try ev.string("crash_after")
          guard let step = SaveStep(rawValue: name) else {
            throw ConformanceError.input("'saved[\(n)].crash_after' is '\(name)', expected one of \(SaveStep.allCases.map(\.rawValue).joined(separator: ", "))")
          }
          guard n == saved.count - 1 else { throw ConformanceError.input("'saved[\(n)].crash_after': only the last save can be interrupted") }
          crash = step
        }
        var x: Double?, y: Double?
        if ev.fields["position"] != nil {
          let p = try Input.numbers(try ev.value("position"), "saved[\(n)].position", count: 2)
          x = p[0]; y = p[1]
        }
        let arrow = try ev.int("arrow", in: 1...perEnd), points = try ev.int("points", in: 0...100), isX = try ev.bool("x", default: false)
        do {
          try store.saveArrowScore(round: round, end: end, arrow: arrow, score: points, isX: isX, x: x, y: y, mode: mode) { step in
            if step == crash { throw Killed() }
          }
        } catch {
          guard crash != nil else { throw error }
        }
      }
      let state = try ResumeStage.resume(store, round: round, semantics: ResumeSemantics(rawValue: s["resume"]!)!)
      return .object([
        "end": .int(state.currentEnd), "next_arrow": .int(state.currentArrowNumber),
        "arrows": .array(state.arrows.map { a in
          var o: [String: JSONValue] = ["arrow": .int(a.arrowNumber), "points": .int(a.score), "x": .bool(a.isX)]
          if let x = a.x, let y = a.y { o["position"] = .array([.double(Double(x)), .double(Double(y))]) }
          return .object(o)
        }),
      ])
    } catch let e as ConformanceError {
      throw e
    } catch {
      throw .input("the round database refused the saves: \(error)")
    }
  }

  /// Thrown at the crash point of a save: the process is gone.
  struct Killed: Error {}

  /// `setcards`: every Set among the cards, as sorted position triples.
  static func setcards(_ i: Input) throws(ConformanceError) -> JSONValue {
    var cards: [Card] = []
    for (n, c) in try i.array("cards").enumerated() {
      let f = try Input(c)
      func attr<A: CardAttribute>(_ key: String, _: A.Type) throws(ConformanceError) -> A {
        let name = try f.string(key)
        guard let a = A(name: name) else {
          throw .input("'cards[\(n)].\(key)' is '\(name)', expected one of \(A.allCases.map(\.name).joined(separator: ", "))")
        }
        return a
      }
      cards.append(Card(number: try attr("number", CardNumber.self), color: try attr("color", CardColor.self),
                        shape: try attr("shape", CardShape.self), fill: try attr("fill", CardFill.self)))
    }
    return .object(["sets": .array(SetFinder.thirdCard(cards).map { .array($0.map(JSONValue.int)) })])
  }
}
