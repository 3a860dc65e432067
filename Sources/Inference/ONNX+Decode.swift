/// ONNX messages as decoded from the wire: only the fields Inference uses.
/// Field numbers follow onnx/onnx.proto3.
struct OnnxModel {
  var irVersion: Int64 = 0
  var producerName = ""
  var producerVersion = ""
  /// Operator-set versions by domain ("" is the default ai.onnx domain).
  var opsets: [String: Int64] = [:]
  var graph = OnnxGraph()
}

struct OnnxGraph {
  var name = ""
  var nodes: [OnnxNode] = []
  var initializers: [OnnxTensor] = []
  var inputs: [OnnxValueInfo] = []
  var outputs: [OnnxValueInfo] = []
  var valueInfo: [OnnxValueInfo] = []
  var hasSparseInitializers = false
}

struct OnnxNode {
  var name = ""
  var opType = ""
  var domain = ""
  var inputs: [String] = []
  var outputs: [String] = []
  var attributes: [OnnxAttribute] = []
}

struct OnnxAttribute {
  var name = ""
  var type: Int64 = 0
  var f: Float?
  var i: Int64?
  var s: [UInt8]?
  var t: OnnxTensor?
  var hasGraph = false
  var floats: [Float] = []
  var ints: [Int64] = []
  var strings: [[UInt8]] = []
}

struct OnnxTensor {
  var name = ""
  var dims: [Int64] = []
  var dataType: Int64 = 0
  var raw: [UInt8]?
  var floatData: [Float] = []
  var int32Data: [Int64] = []
  var int64Data: [Int64] = []
  var doubleData: [Double] = []
  var stringCount = 0
  var isExternal = false
  var hasSegment = false
}

/// A dimension of a declared shape.
public enum Dimension: Sendable, Hashable, CustomStringConvertible {
  /// A fixed size.
  case value(Int)
  /// A symbolic size such as "batch".
  case param(String)
  /// No size given.
  case unknown

  /// The size when it is fixed, nil when symbolic or unknown.
  public var fixed: Int? {
    if case .value(let v) = self { return v }
    return nil
  }

  public var description: String {
    switch self {
    case .value(let v): return String(v)
    case .param(let p): return p
    case .unknown: return "?"
    }
  }
}

struct OnnxValueInfo {
  var name = ""
  var elemType: Int64 = 0
  var isTensor = false
  var dims: [Dimension]?
}

extension OnnxModel {
  static func decode(_ bytes: [UInt8]) throws -> OnnxModel {
    guard !bytes.isEmpty else {
      throw InferenceError.malformed("The model file is empty; expected an ONNX ModelProto.")
    }
    var r = ProtoReader(bytes, context: "ModelProto")
    var m = OnnxModel()
    var sawGraph = false
    while let (field, wire) = try r.nextField() {
      switch field {
      case 1:
        try r.expect(wire, 0, field: "ir_version")
        m.irVersion = try r.int64()
      case 2: try r.expect(wire, 2, field: "producer_name"); m.producerName = try r.string()
      case 3: try r.expect(wire, 2, field: "producer_version"); m.producerVersion = try r.string()
      case 7:
        try r.expect(wire, 2, field: "graph")
        var sub = try r.message("GraphProto")
        m.graph = try OnnxGraph.decode(&sub)
        sawGraph = true
      case 8:
        try r.expect(wire, 2, field: "opset_import")
        var sub = try r.message("OperatorSetIdProto")
        var domain = ""
        var version: Int64 = 0
        while let (f, w) = try sub.nextField() {
          switch f {
          case 1: try sub.expect(w, 2, field: "domain"); domain = try sub.string()
          case 2: try sub.expect(w, 0, field: "version"); version = try sub.int64()
          default: try sub.skip(wire: w)
          }
        }
        m.opsets[domain] = version
      default:
        try r.skip(wire: wire)
      }
    }
    guard sawGraph else {
      throw InferenceError.malformed("ModelProto has no graph (field 7); expected exactly one GraphProto.")
    }
    guard m.irVersion >= 3 else {
      throw InferenceError.malformed("ModelProto has ir_version \(m.irVersion); expected 3 or later.")
    }
    return m
  }
}

extension OnnxGraph {
  static func decode(_ r: inout ProtoReader) throws -> OnnxGraph {
    var g = OnnxGraph()
    while let (field, wire) = try r.nextField() {
      switch field {
      case 1:
        try r.expect(wire, 2, field: "node")
        var sub = try r.message("NodeProto")
        g.nodes.append(try OnnxNode.decode(&sub))
      case 2: try r.expect(wire, 2, field: "name"); g.name = try r.string()
      case 5:
        try r.expect(wire, 2, field: "initializer")
        var sub = try r.message("TensorProto")
        g.initializers.append(try OnnxTensor.decode(&sub))
      case 11, 12, 13:
        try r.expect(wire, 2, field: "value info")
        var sub = try r.message("ValueInfoProto")
        let v = try OnnxValueInfo.decode(&sub)
        if field == 11 { g.inputs.append(v) } else if field == 12 { g.outputs.append(v) } else { g.valueInfo.append(v) }
      case 15:
        try r.skip(wire: wire)
        g.hasSparseInitializers = true
      default:
        try r.skip(wire: wire)
      }
    }
    return g
  }
}

extension OnnxNode {
  static func decode(_ r: inout ProtoReader) throws -> OnnxNode {
    var n = OnnxNode()
    while let (field, wire) = try r.nextField() {
      switch field {
      case 1: try r.expect(wire, 2, field: "input"); n.inputs.append(try r.string())
      case 2: try r.expect(wire, 2, field: "output"); n.outputs.append(try r.string())
      case 3: try r.expect(wire, 2, field: "name"); n.name = try r.string()
      case 4: try r.expect(wire, 2, field: "op_type"); n.opType = try r.string()
      case 5:
        try r.expect(wire, 2, field: "attribute")
        var sub = try r.message("AttributeProto")
        n.attributes.append(try OnnxAttribute.decode(&sub))
      case 7: try r.expect(wire, 2, field: "domain"); n.domain = try r.string()
      default: try r.skip(wire: wire)
      }
    }
    return n
  }
}

extension OnnxAttribute {
  static func decode(_ r: inout ProtoReader) throws -> OnnxAttribute {
    var a = OnnxAttribute()
    while let (field, wire) = try r.nextField() {
      switch field {
      case 1: try r.expect(wire, 2, field: "name"); a.name = try r.string()
      case 2: try r.expect(wire, 5, field: "f"); a.f = try r.float()
      case 3: try r.expect(wire, 0, field: "i"); a.i = try r.int64()
      case 4: try r.expect(wire, 2, field: "s"); a.s = try r.bytesField()
      case 5:
        try r.expect(wire, 2, field: "t")
        var sub = try r.message("TensorProto")
        a.t = try OnnxTensor.decode(&sub)
      case 6: try r.skip(wire: wire); a.hasGraph = true
      case 7: try r.floats(wire: wire, into: &a.floats)
      case 8: try r.varints(wire: wire, into: &a.ints)
      case 9: try r.expect(wire, 2, field: "strings"); a.strings.append(try r.bytesField())
      case 20: try r.expect(wire, 0, field: "type"); a.type = try r.int64()
      default: try r.skip(wire: wire)
      }
    }
    return a
  }
}

extension OnnxTensor {
  static func decode(_ r: inout ProtoReader) throws -> OnnxTensor {
    var t = OnnxTensor()
    while let (field, wire) = try r.nextField() {
      switch field {
      case 1: try r.varints(wire: wire, into: &t.dims)
      case 2: try r.expect(wire, 0, field: "data_type"); t.dataType = try r.int64()
      case 3: try r.skip(wire: wire); t.hasSegment = true
      case 4: try r.floats(wire: wire, into: &t.floatData)
      case 5:
        // int32_data holds int32, int16, int8, uint8, bool, float16 values.
        var v: [Int64] = []
        try r.varints(wire: wire, into: &v)
        t.int32Data.append(contentsOf: v.map { Int64(Int32(truncatingIfNeeded: $0)) })
      case 6: try r.skip(wire: wire); t.stringCount += 1
      case 7: try r.varints(wire: wire, into: &t.int64Data)
      case 8: try r.expect(wire, 2, field: "name"); t.name = try r.string()
      case 9: try r.expect(wire, 2, field: "raw_data"); t.raw = try r.bytesField()
      case 10: try r.doubles(wire: wire, into: &t.doubleData)
      case 13: try r.skip(wire: wire); t.isExternal = true
      case 14:
        try r.expect(wire, 0, field: "data_location")
        if try r.int64() == 1 { t.isExternal = true }
      default: try r.skip(wire: wire)
      }
    }
    return t
  }
}

extension OnnxValueInfo {
  static func decode(_ r: inout ProtoReader) throws -> OnnxValueInfo {
    var v = OnnxValueInfo()
    while let (field, wire) = try r.nextField() {
      switch field {
      case 1: try r.expect(wire, 2, field: "name"); v.name = try r.string()
      case 2:
        try r.expect(wire, 2, field: "type")
        var type = try r.message("TypeProto")
        while let (f, w) = try type.nextField() {
          guard f == 1 else { try type.skip(wire: w); continue }
          try type.expect(w, 2, field: "tensor_type")
          v.isTensor = true
          var tt = try type.message("TypeProto.Tensor")
          while let (f2, w2) = try tt.nextField() {
            switch f2 {
            case 1: try tt.expect(w2, 0, field: "elem_type"); v.elemType = try tt.int64()
            case 2:
              try tt.expect(w2, 2, field: "shape")
              var shape = try tt.message("TensorShapeProto")
              var dims: [Dimension] = []
              while let (f3, w3) = try shape.nextField() {
                guard f3 == 1 else { try shape.skip(wire: w3); continue }
                try shape.expect(w3, 2, field: "dim")
                var dim = try shape.message("TensorShapeProto.Dimension")
                var d = Dimension.unknown
                while let (f4, w4) = try dim.nextField() {
                  switch f4 {
                  case 1:
                    try dim.expect(w4, 0, field: "dim_value")
                    let x = try dim.int64()
                    d = x >= 0 ? .value(Int(x)) : .unknown
                  case 2: try dim.expect(w4, 2, field: "dim_param"); d = .param(try dim.string())
                  default: try dim.skip(wire: w4)
                  }
                }
                dims.append(d)
              }
              v.dims = dims
            default: try tt.skip(wire: w2)
            }
          }
        }
      default: try r.skip(wire: wire)
      }
    }
    return v
  }
}
