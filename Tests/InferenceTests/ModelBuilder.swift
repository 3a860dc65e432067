@testable import Inference

/// Writes ONNX protobuf bytes for hand-built test graphs (the inverse of the
/// reader, for tests only).
struct ProtoWriter {
  var bytes: [UInt8] = []

  mutating func varint(_ v: UInt64) {
    var v = v
    while v >= 0x80 {
      bytes.append(UInt8(v & 0x7f) | 0x80)
      v >>= 7
    }
    bytes.append(UInt8(v))
  }
  mutating func key(_ field: Int, _ wire: Int) { varint(UInt64(field << 3 | wire)) }
  mutating func int(_ field: Int, _ v: Int64) { key(field, 0); varint(UInt64(bitPattern: v)) }
  mutating func bytes(_ field: Int, _ b: [UInt8]) { key(field, 2); varint(UInt64(b.count)); bytes += b }
  mutating func string(_ field: Int, _ s: String) { bytes(field, Array(s.utf8)) }
  mutating func message(_ field: Int, _ build: (inout ProtoWriter) -> Void) {
    var w = ProtoWriter()
    build(&w)
    bytes(field, w.bytes)
  }
  mutating func float(_ field: Int, _ f: Float) {
    key(field, 5)
    let b = f.bitPattern
    bytes += [UInt8(b & 0xff), UInt8((b >> 8) & 0xff), UInt8((b >> 16) & 0xff), UInt8(b >> 24)]
  }
}

/// A small graph description that serialises to a ModelProto.
struct TestGraph {
  struct Node {
    var op: String
    var name: String
    var inputs: [String]
    var outputs: [String]
    var ints: [String: [Int64]] = [:]
    var int: [String: Int64] = [:]
    var float: [String: Float] = [:]
  }
  var nodes: [Node] = []
  var inputs: [(String, [Int64])] = []
  /// ONNX element types of inputs other than float (1), by name.
  var inputTypes: [String: Int64] = [:]
  var outputs: [String] = []
  var initializers: [(String, [Int64], [Float])] = []
  var intInitializers: [(String, [Int64], [Int64])] = []
  var opset: Int64 = 17
  var externalInitializer = false

  func serialized() -> [UInt8] {
    var m = ProtoWriter()
    m.int(1, 8)
    m.message(8) { $0.string(1, ""); $0.int(2, opset) }
    m.message(7) { g in
      for n in nodes {
        g.message(1) { w in
          for i in n.inputs { w.string(1, i) }
          for o in n.outputs { w.string(2, o) }
          w.string(3, n.name)
          w.string(4, n.op)
          for (k, v) in n.ints.sorted(by: { $0.key < $1.key }) {
            w.message(5) { a in a.string(1, k); for x in v { a.int(8, x) }; a.int(20, 7) }
          }
          for (k, v) in n.int.sorted(by: { $0.key < $1.key }) {
            w.message(5) { a in a.string(1, k); a.int(3, v); a.int(20, 2) }
          }
          for (k, v) in n.float.sorted(by: { $0.key < $1.key }) {
            w.message(5) { a in a.string(1, k); a.float(2, v); a.int(20, 1) }
          }
        }
      }
      for (name, dims, values) in initializers {
        g.message(5) { t in
          for d in dims { t.int(1, d) }
          t.int(2, 1)
          t.string(8, name)
          if externalInitializer {
            t.message(13) { e in e.string(1, "location"); e.string(2, "weights.bin") }
            t.int(14, 1)
          } else {
            var raw: [UInt8] = []
            for f in values {
              let b = f.bitPattern
              raw += [UInt8(b & 0xff), UInt8((b >> 8) & 0xff), UInt8((b >> 16) & 0xff), UInt8(b >> 24)]
            }
            t.bytes(9, raw)
          }
        }
      }
      for (name, dims, values) in intInitializers {
        g.message(5) { t in
          for d in dims { t.int(1, d) }
          t.int(2, 7)
          t.string(8, name)
          var raw: [UInt8] = []
          for v in values { withUnsafeBytes(of: v.littleEndian) { raw += $0 } }
          t.bytes(9, raw)
        }
      }
      for (name, dims) in inputs { g.message(11) { valueInfo(&$0, name, dims, type: inputTypes[name] ?? 1) } }
      for name in outputs { g.message(12) { valueInfo(&$0, name, nil) } }
    }
    return m.bytes
  }

  private func valueInfo(_ w: inout ProtoWriter, _ name: String, _ dims: [Int64]?, type: Int64 = 1) {
    w.string(1, name)
    w.message(2) { t in
      t.message(1) { tt in
        tt.int(1, type)
        if let dims {
          tt.message(2) { s in for d in dims { s.message(1) { $0.int(1, d) } } }
        }
      }
    }
  }

  /// x[1,2,4,4] → Conv(3×3, pad 1) → Sigmoid·Mul (SiLU) → y.
  static var convSiLU: TestGraph {
    var g = TestGraph()
    g.inputs = [("x", [1, 2, 4, 4])]
    g.initializers = [
      ("w", [3, 2, 3, 3], (0..<54).map { Float($0 % 7) * 0.1 - 0.3 }),
      ("b", [3], [0.1, -0.2, 0.3]),
    ]
    g.nodes = [
      Node(op: "Conv", name: "conv", inputs: ["x", "w", "b"], outputs: ["c"], ints: ["pads": [1, 1, 1, 1]]),
      Node(op: "Sigmoid", name: "sig", inputs: ["c"], outputs: ["s"]),
      Node(op: "Mul", name: "mul", inputs: ["c", "s"], outputs: ["y"]),
    ]
    g.outputs = ["y"]
    return g
  }
}
