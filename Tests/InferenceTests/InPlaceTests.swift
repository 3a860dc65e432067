import Testing

@testable import Inference

/// Concat in place (`ArenaLayout`): where the producers write straight into
/// the output's slices, the result must be what the copy gives, at every
/// thread count; where they cannot (an input used twice, a graph input,
/// slices off a 64-byte boundary, a join of a join), the copy stays.
struct JoinTests {
  /// x[1, C, S, S] → a = Conv(x), b = Conv(a); y = Concat(parts) on axis 1;
  /// z = Sigmoid(a) after the Concat, so `a` must outlive it unharmed.
  static func graph(channels c: Int64, side s: Int64, parts: [String], outputs: [String]) -> TestGraph {
    var g = TestGraph()
    g.inputs = [("x", [1, c, s, s])]
    let n = Int(c * c * 9)
    g.initializers = [
      ("w1", [c, c, 3, 3], (0..<n).map { Float($0 % 11) * 0.05 - 0.25 }),
      ("w2", [c, c, 3, 3], (0..<n).map { Float($0 % 5) * 0.1 - 0.2 }),
    ]
    g.nodes = [
      .init(op: "Conv", name: "conv1", inputs: ["x", "w1"], outputs: ["a"], ints: ["pads": [1, 1, 1, 1]]),
      .init(op: "Conv", name: "conv2", inputs: ["a", "w2"], outputs: ["b"], ints: ["pads": [1, 1, 1, 1]]),
      .init(op: "Concat", name: "join", inputs: parts, outputs: ["y"], int: ["axis": 1]),
      .init(op: "Concat", name: "outer", inputs: ["y", "b"], outputs: ["yy"], int: ["axis": 1]),
      .init(op: "Sigmoid", name: "sig", inputs: ["a"], outputs: ["z"]),
    ]
    g.outputs = outputs
    return g
  }

  struct Case: CustomTestStringConvertible {
    var name: String
    var channels: Int64
    var side: Int64
    var parts: [String]
    /// The Concats expected in place ("outer" joins y and b).
    var inPlace: [String]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    // "outer" then joins a join's output: it copies.
    Case(name: "two conv outputs, 16-float slices", channels: 2, side: 4, parts: ["a", "b"], inPlace: ["join"]),
    Case(name: "the same input twice", channels: 2, side: 4, parts: ["a", "a"], inPlace: ["outer"]),
    Case(name: "a graph input", channels: 2, side: 4, parts: ["x", "a"], inPlace: ["outer"]),
    Case(name: "slices off a 64-byte boundary (3x3 planes)", channels: 1, side: 3, parts: ["a", "b"], inPlace: []),
  ]

  @Test(arguments: cases)
  func joinEqualsTheCopy(_ c: Case) throws {
    let joined = try InferenceModel(bytes: Self.graph(channels: c.channels, side: c.side, parts: c.parts, outputs: ["y", "yy", "z"]).serialized())
    let parts = try InferenceModel(bytes: Self.graph(channels: c.channels, side: c.side, parts: c.parts, outputs: ["x", "a", "b", "z"]).serialized())
    let count = Int(c.channels * c.side * c.side)
    var rng = SplitMix64(seed: 41)
    let x = try Tensor(shape: [1, Int(c.channels), Int(c.side), Int(c.side)], scalars: (0..<count).map { _ in Float.random(in: -1...1, using: &rng) })
    let p = try parts.run(["x": x])
    func scalars(_ name: String) -> [Float] { name == "x" ? x.scalars : p[name]?.scalars ?? [] }
    let y = c.parts.flatMap(scalars)
    for threads in [1, 2] {
      let out = try joined.run(["x": x], threads: threads)
      #expect(compare(out["y"]?.scalars ?? [], y, .exact) == nil, "\(c.name), \(threads) threads: y")
      #expect(compare(out["yy"]?.scalars ?? [], y + scalars("b"), .exact) == nil, "\(c.name), \(threads) threads: yy")
      #expect(compare(out["z"]?.scalars ?? [], scalars("z"), .exact) == nil, "\(c.name), \(threads) threads: z")
    }
    let notes = joined.summary.prepared.filter { $0.contains("written into its slice") }
    #expect(notes.map { String($0.prefix { $0 != ":" }) } == c.inPlace, "\(c.name): \(notes)")
  }

  @Test("Layout: views share their root's memory, and the root lives from its first slice's writer to its last reader")
  func layoutOfAJoin() {
    // Step 0 writes buffer 1, step 1 writes 2, step 2 joins 1 and 2 into 3,
    // step 3 reads 1 and writes 4, step 4 reads 3.
    let steps = [
      ArenaLayout.Step(ins: [0], outs: [1], ws: nil, slices: nil),
      ArenaLayout.Step(ins: [1], outs: [2], ws: nil, slices: nil),
      ArenaLayout.Step(ins: [1, 2], outs: [3], ws: nil, slices: .join([0, 32])),
      ArenaLayout.Step(ins: [1], outs: [4], ws: nil, slices: nil),
      ArenaLayout.Step(ins: [3], outs: [5], ws: nil, slices: nil),
    ]
    let layout = ArenaLayout(sizes: [16, 32, 16, 48, 32, 48], lastUse: [0, 3, 2, 4, 3, Int.max], inputs: [0], steps: steps)
    #expect(layout.dropped == [2])
    let o = layout.offsets
    #expect(o[1] == o[3] && o[2] == o[3] + 32)
    // Nothing allocated while the root is live may overlap it.
    for id in [0, 4, 5] {
      let disjoint = o[id] + [16, 32, 16, 48, 32, 48][id] <= o[3] || o[3] + 48 <= o[id]
      #expect(disjoint, "buffer \(id) at \(o[id]) overlaps the root at \(o[3])")
    }
  }
}

/// Split in place: a Split whose outputs lie in order in one join has its
/// input written there; otherwise its outputs are views of its input.
struct SplitInPlaceTests {
  /// x[1, 2, 4, 4] → a = Conv(x) [1, 4, 4, 4] → Split(a) = (s0, s1) on axis 1;
  /// b = Conv(s1) [1, 2, 4, 4]; y = Concat(parts); z = Sigmoid(s1).
  static func graph(parts: [String], outputs: [String]) -> TestGraph {
    var g = TestGraph()
    g.inputs = [("x", [1, 2, 4, 4])]
    g.initializers = [
      ("w1", [4, 2, 3, 3], (0..<72).map { Float($0 % 13) * 0.04 - 0.2 }),
      ("w2", [2, 2, 3, 3], (0..<36).map { Float($0 % 7) * 0.07 - 0.2 }),
    ]
    g.nodes = [
      .init(op: "Conv", name: "conv1", inputs: ["x", "w1"], outputs: ["a"], ints: ["pads": [1, 1, 1, 1]]),
      .init(op: "Split", name: "split", inputs: ["a"], outputs: ["s0", "s1"], int: ["axis": 1]),
      .init(op: "Conv", name: "conv2", inputs: ["s1", "w2"], outputs: ["b"], ints: ["pads": [1, 1, 1, 1]]),
      .init(op: "Concat", name: "join", inputs: parts, outputs: ["y"], int: ["axis": 1]),
      .init(op: "Sigmoid", name: "sig", inputs: ["s1"], outputs: ["z"]),
    ]
    g.outputs = outputs
    return g
  }

  struct Case: CustomTestStringConvertible {
    var name: String
    var parts: [String]
    /// The nodes expected in place.
    var inPlace: [String]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "both halves joined in order: a is written into the join", parts: ["s0", "s1", "b"], inPlace: ["split", "join"]),
    Case(name: "halves joined out of order: the Split copies", parts: ["s1", "s0", "b"], inPlace: ["join"]),
    Case(name: "a itself joined: the halves are views of its slice", parts: ["b", "a"], inPlace: ["split", "join"]),
  ]

  @Test(arguments: cases)
  func inPlaceEqualsTheCopy(_ c: Case) throws {
    let model = try InferenceModel(bytes: Self.graph(parts: c.parts, outputs: ["y", "s0", "z"]).serialized())
    let parts = try InferenceModel(bytes: Self.graph(parts: c.parts, outputs: ["a", "b", "z"]).serialized())
    var rng = SplitMix64(seed: 43)
    let x = try Tensor(shape: [1, 2, 4, 4], scalars: (0..<32).map { _ in Float.random(in: -1...1, using: &rng) })
    let p = try parts.run(["x": x])
    let a = p["a"]?.scalars ?? []
    let value: [String: [Float]] = ["a": a, "b": p["b"]?.scalars ?? [], "s0": Array(a.prefix(32)), "s1": Array(a.suffix(32))]
    for threads in [1, 2] {
      let out = try model.run(["x": x], threads: threads)
      #expect(compare(out["y"]?.scalars ?? [], c.parts.flatMap { value[$0] ?? [] }, .exact) == nil, "\(c.name), \(threads) threads: y")
      #expect(compare(out["s0"]?.scalars ?? [], value["s0"] ?? [], .exact) == nil, "\(c.name), \(threads) threads: s0")
      #expect(compare(out["z"]?.scalars ?? [], p["z"]?.scalars ?? [], .exact) == nil, "\(c.name), \(threads) threads: z")
    }
    let notes = model.summary.prepared.filter { $0.contains("in place: each") }
    #expect(notes.map { String($0.prefix { $0 != ":" }) } == c.inPlace, "\(c.name): \(notes)")
  }
}
