import Foundation

/// Reads and writes float32 tensors in NumPy's .npy format (versions 1 and
/// 2, C order, little-endian `<f4`); also reads unsigned bytes (`|u1`, each
/// byte's value as a Float), the compact form of 8-bit image fixtures.
public enum NPY {
  /// Reads a float32 C-order .npy file.
  public static func read(_ path: String) throws -> Tensor {
    try decode(try readFile(path, limit: InferenceModel.defaultMemoryLimit), name: path)
  }

  /// Writes `tensor` as a version 1 .npy file (version 2 for huge headers).
  public static func write(_ tensor: Tensor, to path: String) throws {
    let data = Data(encode(tensor))
    guard FileManager.default.createFile(atPath: path, contents: data) else {
      throw InferenceError(.io, "Cannot write '\(path)'; expected a writable path.")
    }
  }

  /// Writes `tensor` to `path` (same as `write(_:to:)`).
  static func write(_ tensor: Tensor, _ path: String) throws {
    try write(tensor, to: path)
  }

  /// The .npy bytes of `tensor` (version 1.0 header, or 2.0 when it would not fit).
  public static func encode(_ tensor: Tensor) -> [UInt8] {
    let dims = tensor.shape.map(String.init)
    let shape = dims.count == 1 ? "(\(dims[0]),)" : "(\(dims.joined(separator: ", ")))"
    var header = "{'descr': '<f4', 'fortran_order': False, 'shape': \(shape), }"
    let v2 = header.utf8.count + 12 > 65535
    let prefix = v2 ? 12 : 10
    let total = (prefix + header.utf8.count + 1 + 63) / 64 * 64
    header += String(repeating: " ", count: total - prefix - header.utf8.count - 1) + "\n"
    var out: [UInt8] = [0x93] + Array("NUMPY".utf8) + [v2 ? 2 : 1, 0]
    let n = header.utf8.count
    if v2 {
      out += [UInt8(n & 0xff), UInt8((n >> 8) & 0xff), UInt8((n >> 16) & 0xff), UInt8(n >> 24)]
    } else {
      out += [UInt8(n & 0xff), UInt8(n >> 8)]
    }
    out += Array(header.utf8)
    out.reserveCapacity(out.count + tensor.scalars.count * 4)
    for f in tensor.scalars {
      let b = f.bitPattern.littleEndian
      out += [UInt8(b & 0xff), UInt8((b >> 8) & 0xff), UInt8((b >> 16) & 0xff), UInt8(b >> 24)]
    }
    return out
  }

  /// Parses .npy bytes; `name` labels errors.
  static func decode(_ bytes: [UInt8], name: String = "input") throws -> Tensor {
    func fail(_ m: String) -> InferenceError { InferenceError(.io, "NPY '\(name)' \(m).") }
    guard bytes.count >= 10, bytes[0] == 0x93, Array(bytes[1..<6]) == Array("NUMPY".utf8) else {
      throw fail("does not start with the \\x93NUMPY magic; expected a .npy file")
    }
    let major = bytes[6]
    let headerLen: Int, start: Int
    switch major {
    case 1:
      headerLen = Int(bytes[8]) | Int(bytes[9]) << 8
      start = 10
    case 2, 3:
      guard bytes.count >= 12 else { throw fail("is truncated at \(bytes.count) bytes; expected a 12-byte preamble") }
      headerLen = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
      start = 12
    default:
      throw fail("has format version \(major); expected 1, 2 or 3")
    }
    guard headerLen <= bytes.count - start else {
      throw fail("declares a \(headerLen)-byte header but has \(bytes.count - start) bytes left; expected the full header")
    }
    let header = String(decoding: bytes[start..<(start + headerLen)], as: UTF8.self)
    guard let descr = field(header, "descr") else { throw fail("has no 'descr' in its header; expected '<f4'") }
    let d = descr.trimmingCharacters(in: CharacterSet(charactersIn: "'\" "))
    guard d == "<f4" || d == "|u1" else { throw fail("has dtype '\(d)'; expected '<f4' (float32) or '|u1' (bytes)") }
    let width = d == "|u1" ? 1 : 4
    guard let fo = field(header, "fortran_order") else { throw fail("has no 'fortran_order'; expected False") }
    guard fo.trimmingCharacters(in: .whitespaces) == "False" else {
      throw fail("is in Fortran order; expected C order")
    }
    guard let shapeText = field(header, "shape") else { throw fail("has no 'shape'; expected a tuple") }
    let inner = shapeText.trimmingCharacters(in: CharacterSet(charactersIn: "() "))
    var shape: [Int] = []
    for part in inner.split(separator: ",") {
      let t = part.trimmingCharacters(in: .whitespaces)
      if t.isEmpty { continue }
      guard let v = Int(t), v >= 0 else { throw fail("has shape entry '\(t)'; expected a non-negative integer") }
      shape.append(v)
    }
    let n = try SizeMath.count(shape, what: "NPY '\(name)'")
    let dataStart = start + headerLen
    let (need, o) = n.multipliedReportingOverflow(by: width)
    guard !o, bytes.count - dataStart == need else {
      throw fail("has \(bytes.count - dataStart) data bytes for shape \(shape); expected \(o ? -1 : need)")
    }
    var f = [Float](repeating: 0, count: n)
    if width == 1 {
      for i in 0..<n { f[i] = Float(bytes[dataStart + i]) }
      return Tensor(unchecked: shape, f)
    }
    bytes.withUnsafeBytes { p in
      for i in 0..<n {
        f[i] = Float(bitPattern: UInt32(littleEndian: p.loadUnaligned(fromByteOffset: dataStart + 4 * i, as: UInt32.self)))
      }
    }
    return Tensor(unchecked: shape, f)
  }

  /// The text after `'key':` up to the next top-level comma.
  private static func field(_ header: String, _ key: String) -> String? {
    guard let r = header.range(of: "'\(key)':") ?? header.range(of: "\"\(key)\":") else { return nil }
    var depth = 0
    var out = ""
    for ch in header[r.upperBound...] {
      if ch == "(" { depth += 1 }
      if ch == ")" { depth -= 1 }
      if (ch == "," && depth == 0) || ch == "}" { break }
      out.append(ch)
    }
    return out.trimmingCharacters(in: .whitespaces)
  }
}
