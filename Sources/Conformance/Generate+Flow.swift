import Core
import Persistence
import SetCards

/// Built-in cases for number transport (`echo`), drag adjustment, resume after
/// a crash, and Set finding.
enum FlowCases {
  static func echo() throws(ConformanceError) -> [VectorGroup] {
    var tests: [Vector] = []
    func add(_ id: String, _ comment: String, _ flags: [String], _ v: JSONValue) throws(ConformanceError) {
      tests.append(try Vector.computed(id: "echo.\(id)", stage: .echo, group: "echo", comment: comment, flags: flags, input: v))
    }
    let specials: [(String, Double)] = [
      ("neg-zero", -0.0), ("zero", 0.0), ("min-subnormal", Double(bitPattern: 1)), ("max", .greatestFiniteMagnitude),
      ("min-normal", 2.2250738585072014e-308), ("tenth", 0.1), ("third", 1.0 / 3), ("big-int-like", 9007199254740993.0),
      ("1e22", 1e22), ("1e23", 1e23), ("neg-max", -.greatestFiniteMagnitude), ("float32-0.35", Double(Float(0.35))),
      ("ring-trap", 0.30000000000000004), ("3-subnormals", Double(bitPattern: 3)), ("huge-exp", 1.7976931348623157e308 / 3),
    ]
    for (name, d) in specials { try add(name, "the Double \(d)", ["special"], .object(["value": .double(d)])) }
    try add("strings", "escapes and non-ASCII text", ["string"],
            .object(["text": .string("quote \" backslash \\ tab \t newline \n é 中 😀 \u{1}")]))
    try add("ints", "integers at the edges of 64 bits", ["integer"],
            .object(["values": .array([.int(0), .int(-1), .int(Int.max), .int(Int.min + 1), .int(1 << 53)])]))
    try add("nested", "nested arrays and objects", ["nested"],
            .object(["a": .array([.array([]), .object([:]), .null, .bool(true), .bool(false)]), "b": .object(["c": .double(-2.5)])]))
    var rng = SeededGenerator(seed: SeededGenerator.hash("echo"))
    // 200 cases of 500 random doubles: 100,000 Doubles through every testee's transport.
    for n in 0..<200 {
      var values: [JSONValue] = []
      for _ in 0..<500 {
        var d: Double
        repeat { d = Double(bitPattern: rng.next()) } while !d.isFinite
        values.append(.double(d))
      }
      let f = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
      values.append(.double(f.isFinite ? Double(f) : 1))
      try add("random\(n)", "random bit patterns", ["random"], .object(["values": .array(values)]))
    }
    let notes = ["special": "A Double that transports often get wrong.", "string": "Escapes, non-ASCII and astral characters.",
                 "integer": "64-bit integers.", "nested": "Nested containers, null and booleans.",
                 "random": "Doubles with random bit patterns: every one must come back bit for bit."]
    return [VectorGroup(stage: .echo, group: "echo", notes: notes, tests: tests)]
  }

  static func adjust() throws(ConformanceError) -> [VectorGroup] {
    var tests: [Vector] = []
    func add(_ id: String, _ comment: String, _ flags: [String], markers: [[Double]], events: [JSONValue], radius: Double,
             face: String = "10_zone") throws(ConformanceError) {
      let input: JSONValue = .object([
        "face": .string(face), "diameter_cm": .double(122), "view_radius": .double(radius),
        "markers": .array(markers.map { .array($0.map(JSONValue.double)) }), "events": .array(events),
      ])
      tests.append(try Vector.computed(id: "adjust.\(id)", stage: .adjust, group: "adjust", comment: comment, flags: flags, input: input))
    }
    func move(_ m: Int, _ tx: Double, _ ty: Double) -> JSONValue { .object(["marker": .int(m), "translation": .array([.double(tx), .double(ty)])]) }
    func end(_ m: Int) -> JSONValue { .object(["marker": .int(m), "end": .bool(true)]) }
    try add("interleaved-two", "two drags in alternation, each 10 pt then 20 pt right (radius 100)", ["interleaved"],
            markers: [[0, 0], [0.5, 0]], events: [move(0, 10, 0), move(1, 10, 0), move(0, 20, 0), move(1, 20, 0), end(0), end(1)], radius: 100)
    try add("off-edge", "a marker dragged past the edge is removed on release", ["removal"],
            markers: [[0.9, 0], [0, 0]], events: [move(0, 30, 0), move(0, 60, 0), end(0), move(0, 5, 5), end(0)], radius: 100)
    try add("clamp", "dragging far is clamped at ±1.5 while dragging", ["clamp"],
            markers: [[0, 0]], events: [move(0, 1000, -1000), move(0, 10, 0), end(0)], radius: 100)
    // A drag that overshoots the ±1.5 clamp and comes back: the iOS fix (start + translation) returns
    // to where the finger is, Android's deltas keep the clamped loss, the stale capture runs away.
    for n in 0..<40 {
      let start = [Double(n % 5) * 0.2 - 0.4, Double(n % 3) * 0.3 - 0.3]
      let out = Double(150 + 20 * n), back = Double(40 + 10 * (n % 7))
      let axisY = n % 2 == 1
      let events: [JSONValue] = [
        move(0, axisY ? 0 : out / 2, axisY ? out / 2 : 0), move(0, axisY ? 0 : out, axisY ? out : 0),
        move(0, axisY ? 0 : back, axisY ? -back : 0), end(0),
      ]
      try add("overshoot\(n)", "a drag past the clamp and back", ["clamp"], markers: [start, [0.1, 0.1]], events: events,
              radius: [100, 150, 87.5][n % 3])
    }
    var rng = SeededGenerator(seed: SeededGenerator.hash("adjust"))
    for n in 0..<220 {
      let count = rng.int(1...4)
      let markers = (0..<count).map { _ in [(rng.uniform(-0.9...0.9) * 1000).rounded() / 1000, (rng.uniform(-0.9...0.9) * 1000).rounded() / 1000] }
      var events: [JSONValue] = []
      var flags: Set<String> = ["random"]
      var alive = count
      let drags = rng.int(1...4)
      let interleave = rng.chance(0.3) && count > 1
      if interleave { flags.insert("interleaved") }
      for _ in 0..<drags where alive > 0 {
        let m = rng.int(0...(alive - 1))
        let other = interleave ? (m + 1) % alive : m
        var t = (0.0, 0.0), u = (0.0, 0.0)
        for _ in 0..<rng.int(1...5) {
          t.0 += (rng.uniform(-40...40) * 4).rounded() / 4; t.1 += (rng.uniform(-40...40) * 4).rounded() / 4
          events.append(move(m, t.0, t.1))
          if interleave && other != m {
            u.0 += (rng.uniform(-30...30) * 4).rounded() / 4; u.1 += (rng.uniform(-30...30) * 4).rounded() / 4
            events.append(move(other, u.0, u.1))
          }
        }
        events.append(end(m))
        if interleave && other != m { events.append(end(other)) }
        if rng.chance(0.2) {
          // Push the marker well off the face: released past the edge, it goes.
          events.append(move(m, 400, 0)); events.append(end(m)); flags.insert("removal"); alive -= 1
        }
      }
      try add("random\(n)", "\(count) markers, \(drags) drags", flags.sorted(), markers: markers, events: events,
              radius: rng.pick([100, 150, 87.5]), face: rng.pick(["10_zone", "10_zone", "wa_6_ring", "5_zone"]))
    }
    let notes = ["random": "Random markers and drags.", "interleaved": "Two markers' drag callbacks alternate.",
                 "removal": "A marker released past the edge (distance > 1) is removed.", "clamp": "A drag past ±1.5 is clamped."]
    return [VectorGroup(stage: .adjust, group: "adjust", notes: notes, tests: tests)]
  }

  static func resume() throws(ConformanceError) -> [VectorGroup] {
    var tests: [Vector] = []
    var rng = SeededGenerator(seed: SeededGenerator.hash("resume"))
    for n in 0..<220 {
      let perEnd = rng.pick([3, 6])
      var saved: [JSONValue] = []
      var flags: Set<String> = []
      let ends = rng.int(1...3)
      // An end row left empty by an earlier crashed save (the app went on with later ends).
      let emptyEnd = rng.chance(0.15) ? rng.int(1...ends) : 0
      if emptyEnd > 0 { saved.append(.object(["end": .int(emptyEnd), "create": .bool(true)])); flags.insert("empty-end") }
      for e in 1...ends where e != emptyEnd {
        for a in 1...perEnd {
          let points = rng.int(0...10)
          var o: [String: JSONValue] = ["end": .int(e), "arrow": .int(a), "points": .int(points), "x": .bool(points == 10 && rng.chance(0.5))]
          if rng.chance(0.5) {
            o["position"] = .array([.double(rng.uniform(-1...1)), .double(rng.uniform(-1...1))]); flags.insert("positions")
          }
          saved.append(.object(o))
          if rng.chance(0.1) { saved.append(.object(o.merging(["points": .int(max(0, points - 1))]) { $1 })); flags.insert("re-save") }
        }
        saved.append(.object(["end": .int(e), "complete": .bool(true)]))
      }
      // The crash: everything after this point never reached the database;
      // sometimes the kill lands inside the last save, after one of its steps.
      let cut = rng.int(0...saved.count)
      var kept = Array(saved.prefix(cut))
      if case .object(var last)? = kept.last, last["complete"] == nil, rng.chance(0.4) {
        last["crash_after"] = .string(rng.pick(SaveStep.allCases).rawValue)
        kept[kept.count - 1] = .object(last)
        flags.insert("crash-mid-save")
      }
      if cut == saved.count { flags.insert("after-end") }
      if cut == 0 { flags.insert("empty") }
      let input: JSONValue = .object(["face": .string("10_zone"), "arrows_per_end": .int(perEnd), "saved": .array(kept)])
      tests.append(try Vector.computed(id: "resume.\(n)", stage: .resume, group: "resume",
                                       comment: "killed after \(cut) of \(saved.count) writes", flags: flags.sorted(), input: input))
    }
    // Every crash point of the seed's save, for the first, a middle and the last arrow of an end, and before completeEnd.
    for (k, arrowNo) in [1, 2, 3].enumerated() {
      for step in SaveStep.allCases {
        var saved: [JSONValue] = [
          .object(["end": .int(1), "arrow": .int(1), "points": .int(9), "x": .bool(false)]),
          .object(["end": .int(1), "arrow": .int(2), "points": .int(10), "x": .bool(true), "position": .array([.double(0.01), .double(-0.02)])]),
          .object(["end": .int(1), "arrow": .int(3), "points": .int(8), "x": .bool(false)]),
          .object(["end": .int(1), "complete": .bool(true)]),
        ]
        // End 2: arrows up to `arrowNo`, the last one killed after `step`.
        for a in 1...arrowNo {
          var o: [String: JSONValue] = ["end": .int(2), "arrow": .int(a), "points": .int(7 + a), "x": .bool(false)]
          if a == arrowNo { o["crash_after"] = .string(step.rawValue) }
          saved.append(.object(o))
        }
        let input: JSONValue = .object(["face": .string("10_zone"), "arrows_per_end": .int(3), "saved": .array(saved)])
        tests.append(try Vector.computed(id: "resume.crash.\(k + 1).\(step.rawValue)", stage: .resume, group: "resume",
                                         comment: "killed after step '\(step.rawValue)' of end 2's arrow \(arrowNo)", flags: ["crash-mid-save"],
                                         input: input))
      }
      var full: [JSONValue] = (1...3).map { a in .object(["end": .int(1), "arrow": .int(a), "points": .int(5 + a), "x": .bool(false)]) }
      if arrowNo > 1 { full.append(.object(["end": .int(1), "complete": .bool(true)])) }
      tests.append(try Vector.computed(id: "resume.before-complete.\(k + 1)", stage: .resume, group: "resume",
                                       comment: arrowNo > 1 ? "end 1 completed, end 2 empty" : "killed after end 1's last arrow, before completeEnd",
                                       flags: ["before-complete"], input: .object(["face": .string("10_zone"), "arrows_per_end": .int(3), "saved": .array(full)])))
    }
    let notes = ["empty-end": "An end row exists with no arrows (left by an earlier crashed save).",
                 "crash-mid-save": "The last save was killed after one of its steps (end row, arrow row, end total).",
                 "before-complete": "Killed between an end's last arrow and completeEnd.",
                 "positions": "Some arrows carry stored positions (Float32, widened on load).",
                 "re-save": "An arrow saved twice: the second save replaces the first.",
                 "after-end": "Killed right after an end was completed.", "empty": "Killed before anything was saved."]
    return [VectorGroup(stage: .resume, group: "resume", notes: notes, tests: tests)]
  }

  static func setcards() throws(ConformanceError) -> [VectorGroup] {
    var tests: [Vector] = []
    var rng = SeededGenerator(seed: SeededGenerator.hash("setcards"))
    for n in 0..<220 {
      let count = rng.int(0...15)
      var cards: [JSONValue] = []
      var flags: Set<String> = ["random"]
      var indices: [Int] = []
      for _ in 0..<count {
        let i = !indices.isEmpty && rng.chance(0.08) ? rng.pick(indices) : rng.int(0...80)
        if indices.contains(i) { flags.insert("duplicate") }
        indices.append(i)
        let c = Card(index: i)!
        cards.append(.object(["number": .string(c.number.name), "color": .string(c.color.name),
                              "shape": .string(c.shape.name), "fill": .string(c.fill.name)]))
      }
      tests.append(try Vector.computed(id: "setcards.\(n)", stage: .setcards, group: "setcards", comment: "\(count) cards",
                                       flags: flags.sorted(), input: .object(["cards": .array(cards)])))
    }
    let notes = ["random": "Random cards from the 81.", "duplicate": "The same card twice: two copies and a third are never a Set."]
    return [VectorGroup(stage: .setcards, group: "setcards", notes: notes, tests: tests)]
  }
}

extension VectorSuite {
  /// The built-in suite, computed from the library (same bytes every time);
  /// `only` builds just those stages' groups (the same cases as in the whole suite).
  package static func builtIn(only: Set<Stage>? = nil) throws(ConformanceError) -> VectorSuite {
    let makers: [(Stage, () throws(ConformanceError) -> [VectorGroup])] = [
      (.score, ScoreCases.groups), (.nms, GeometryCases.nms), (.visionFlip, GeometryCases.visionFlip),
      (.mapToImage, GeometryCases.mapToImage), (.decode, GeometryCases.decode), (.echo, FlowCases.echo),
      (.adjust, FlowCases.adjust), (.resume, FlowCases.resume), (.setcards, FlowCases.setcards),
    ]
    var groups: [VectorGroup] = []
    for (stage, make) in makers where only?.contains(stage) ?? true { groups += try make() }
    return VectorSuite(version: builtInVersion, groups: groups)
  }
}
