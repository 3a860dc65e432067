/// A dense float32 tensor in C (row-major) order.
public struct Tensor: Sendable, Equatable {
  /// The size of each dimension, outermost first.
  public private(set) var shape: [Int]
  /// The elements in row-major order; `scalars.count` is the product of `shape`.
  public private(set) var scalars: [Float]

  /// Creates a tensor, checking that `scalars` fills `shape` exactly.
  public init(shape: [Int], scalars: [Float]) throws {
    let n = try SizeMath.count(shape, what: "Tensor")
    guard n == scalars.count else {
      throw InferenceError.shape("Tensor of shape \(shape) needs \(n) scalars, got \(scalars.count).")
    }
    self.shape = shape
    self.scalars = scalars
  }

  /// A tensor of zeros.
  init(zeros shape: [Int]) throws {
    let n = try SizeMath.count(shape, what: "Tensor")
    self.shape = shape
    self.scalars = [Float](repeating: 0, count: n)
  }

  init(unchecked shape: [Int], _ scalars: [Float]) {
    self.shape = shape
    self.scalars = scalars
  }
}

/// Element types the runtime represents. Integers and booleans are stored as
/// Int64; they only take part in constant folding (shape arithmetic).
enum DType: Sendable, Equatable {
  case float, int32, int64, bool

  init?(onnx code: Int64) {
    switch code {
    case 1: self = .float
    case 6: self = .int32
    case 7: self = .int64
    case 9: self = .bool
    default: return nil
    }
  }

  var onnxName: String {
    switch self {
    case .float: return "float"
    case .int32: return "int32"
    case .int64: return "int64"
    case .bool: return "bool"
    }
  }

  static func name(ofOnnx code: Int64) -> String {
    let names: [Int64: String] = [
      1: "float", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32", 7: "int64",
      8: "string", 9: "bool", 10: "float16", 11: "double", 12: "uint32", 13: "uint64",
      16: "bfloat16",
    ]
    return names[code] ?? "type \(code)"
  }
}

extension Int64 {
  /// Truncates toward zero, saturating; NaN becomes 0.
  init(saturating x: Float) {
    if x.isNaN { self = 0 } else if x >= 9.2e18 { self = .max } else if x <= -9.2e18 { self = .min } else { self = Int64(x) }
  }
}

/// A tensor of any supported element type (internal).
struct Value: Sendable {
  var shape: [Int]
  var dtype: DType
  /// Elements when `dtype == .float`.
  var f: [Float] = []
  /// Elements for integer and boolean types.
  var i: [Int64] = []

  var count: Int { dtype == .float ? f.count : i.count }

  init(shape: [Int], floats: [Float]) {
    self.shape = shape
    self.dtype = .float
    self.f = floats
  }

  init(shape: [Int], dtype: DType, ints: [Int64]) {
    self.shape = shape
    self.dtype = dtype
    self.i = ints
  }

  /// The elements as floats (integers converted).
  var asFloats: [Float] { dtype == .float ? f : i.map { Float($0) } }

  /// The elements as integers (floats truncated toward zero, saturating).
  var asInts: [Int64] {
    if dtype != .float { return i }
    return f.map { Int64(saturating: $0) }
  }

  var tensor: Tensor { Tensor(unchecked: shape, asFloats) }
}

extension Value {
  /// Decodes a TensorProto, checking its sizes against `limit` bytes.
  init(_ t: OnnxTensor, limit: Int) throws {
    let label = "Tensor '\(t.name)'"
    guard !t.isExternal else {
      throw InferenceError.unsupported("\(label) refers to external data; expected data stored in the model file.")
    }
    guard !t.hasSegment else {
      throw InferenceError.unsupported("\(label) is segmented; expected an unsegmented tensor.")
    }
    guard let dtype = DType(onnx: t.dataType) else {
      throw InferenceError.unsupported("\(label) has element type \(DType.name(ofOnnx: t.dataType)); expected float, int32, int64 or bool.")
    }
    var dims: [Int] = []
    for d in t.dims {
      guard d >= 0, d <= Int64(Int.max) else {
        throw InferenceError.shape("\(label) has dimension \(d); expected a dimension >= 0.")
      }
      dims.append(Int(d))
    }
    let n = try SizeMath.count(dims, what: label)
    let width = dtype == .float || dtype == .int32 ? 4 : (dtype == .bool ? 1 : 8)
    try SizeMath.checkBytes(n, width: max(width, dtype == .float ? 4 : 8), limit: limit, what: label)
    func check(_ have: Int, _ field: String) throws {
      guard have == n else {
        throw InferenceError.malformed("\(label) of shape \(dims) has \(have) values in \(field); expected \(n).")
      }
    }
    if let raw = t.raw {
      try check(raw.count / width, "raw_data")
      guard raw.count % width == 0 else {
        throw InferenceError.malformed("\(label) has \(raw.count) bytes of raw_data; expected a multiple of \(width).")
      }
      self.init(shape: dims, dtype: dtype, ints: [])
      raw.withUnsafeBytes { p in
        switch dtype {
        case .float:
          f = (0..<n).map { Float(bitPattern: UInt32(littleEndian: p.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        case .int32:
          i = (0..<n).map { Int64(Int32(littleEndian: p.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self))) }
        case .int64:
          i = (0..<n).map { Int64(littleEndian: p.loadUnaligned(fromByteOffset: $0 * 8, as: Int64.self)) }
        case .bool:
          i = (0..<n).map { p[$0] != 0 ? 1 : 0 }
        }
      }
      return
    }
    switch dtype {
    case .float:
      try check(t.floatData.count, "float_data")
      self.init(shape: dims, floats: t.floatData)
    case .int32:
      try check(t.int32Data.count, "int32_data")
      self.init(shape: dims, dtype: dtype, ints: t.int32Data)
    case .bool:
      try check(t.int32Data.count, "int32_data")
      self.init(shape: dims, dtype: dtype, ints: t.int32Data.map { $0 != 0 ? 1 : 0 })
    case .int64:
      try check(t.int64Data.count, "int64_data")
      self.init(shape: dims, dtype: dtype, ints: t.int64Data)
    }
  }
}
