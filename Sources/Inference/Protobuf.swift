/// A reader of the protobuf wire format over a byte array.
///
/// Every length and varint is checked against the bytes that remain; a
/// malformed message throws `InferenceError.malformed` naming the message and
/// the byte offset.
struct ProtoReader {
  let bytes: [UInt8]
  private(set) var pos: Int
  let end: Int
  /// The message being read, for error messages ("NodeProto").
  let context: String

  init(_ bytes: [UInt8], context: String) {
    self.bytes = bytes
    self.pos = 0
    self.end = bytes.count
    self.context = context
  }

  init(_ bytes: [UInt8], range: Range<Int>, context: String) {
    self.bytes = bytes
    self.pos = range.lowerBound
    self.end = range.upperBound
    self.context = context
  }

  var isAtEnd: Bool { pos >= end }

  private func fail(_ what: String) -> InferenceError {
    .malformed("\(context) is malformed at byte \(pos): \(what).")
  }

  /// The next field's number and wire type, or nil at the end.
  mutating func nextField() throws -> (number: Int, wire: Int)? {
    if pos >= end { return nil }
    let key = try varint()
    let number = key >> 3
    let wire = Int(key & 7)
    guard number >= 1, number <= 536_870_911 else {
      throw fail("field number \(number), expected 1...536870911")
    }
    guard wire == 0 || wire == 1 || wire == 2 || wire == 5 else {
      throw fail("wire type \(wire) for field \(number), expected 0, 1, 2 or 5")
    }
    return (Int(number), wire)
  }

  mutating func varint() throws -> UInt64 {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard pos < end else { throw fail("varint runs past the end (\(end) bytes)") }
      let b = bytes[pos]
      pos += 1
      if shift == 63 && b > 1 { throw fail("varint longer than 64 bits") }
      result |= UInt64(b & 0x7f) << shift
      if b & 0x80 == 0 { return result }
      shift += 7
      guard shift <= 63 else { throw fail("varint longer than 10 bytes") }
    }
  }

  mutating func int64() throws -> Int64 { Int64(bitPattern: try varint()) }

  /// An int32 field: protobuf sign-extends negatives to 10 bytes.
  mutating func int32() throws -> Int32 { Int32(truncatingIfNeeded: try varint()) }

  mutating func fixed32() throws -> UInt32 {
    guard end - pos >= 4 else { throw fail("fixed32 needs 4 bytes, \(end - pos) remain") }
    var v: UInt32 = 0
    for i in 0..<4 { v |= UInt32(bytes[pos + i]) << (8 * UInt32(i)) }
    pos += 4
    return v
  }

  mutating func fixed64() throws -> UInt64 {
    guard end - pos >= 8 else { throw fail("fixed64 needs 8 bytes, \(end - pos) remain") }
    var v: UInt64 = 0
    for i in 0..<8 { v |= UInt64(bytes[pos + i]) << (8 * UInt64(i)) }
    pos += 8
    return v
  }

  mutating func float() throws -> Float { Float(bitPattern: try fixed32()) }

  /// The byte range of a length-delimited field.
  mutating func lengthDelimited() throws -> Range<Int> {
    let n = try varint()
    guard n <= UInt64(end - pos) else {
      throw fail("length \(n) exceeds the \(end - pos) bytes that remain")
    }
    let r = pos..<(pos + Int(n))
    pos += Int(n)
    return r
  }

  mutating func bytesField() throws -> [UInt8] { Array(bytes[try lengthDelimited()]) }

  mutating func string() throws -> String {
    String(decoding: bytes[try lengthDelimited()], as: UTF8.self)
  }

  mutating func message(_ name: String) throws -> ProtoReader {
    ProtoReader(bytes, range: try lengthDelimited(), context: name)
  }

  mutating func skip(wire: Int) throws {
    switch wire {
    case 0: _ = try varint()
    case 1: _ = try fixed64()
    case 2: _ = try lengthDelimited()
    default: _ = try fixed32()
    }
  }

  /// A repeated varint field, packed (wire 2) or not (wire 0).
  mutating func varints(wire: Int, into out: inout [Int64]) throws {
    if wire == 2 {
      var sub = ProtoReader(bytes, range: try lengthDelimited(), context: context)
      while !sub.isAtEnd { out.append(try sub.int64()) }
    } else if wire == 0 {
      out.append(try int64())
    } else {
      throw fail("wire type \(wire) for a varint field, expected 0 or 2")
    }
  }

  /// A repeated float field, packed (wire 2) or not (wire 5).
  mutating func floats(wire: Int, into out: inout [Float]) throws {
    if wire == 2 {
      let r = try lengthDelimited()
      guard r.count % 4 == 0 else {
        throw fail("packed floats of \(r.count) bytes, expected a multiple of 4")
      }
      out.reserveCapacity(out.count + r.count / 4)
      var sub = ProtoReader(bytes, range: r, context: context)
      while !sub.isAtEnd { out.append(try sub.float()) }
    } else if wire == 5 {
      out.append(try float())
    } else {
      throw fail("wire type \(wire) for a float field, expected 2 or 5")
    }
  }

  /// A repeated double field, packed (wire 2) or not (wire 1).
  mutating func doubles(wire: Int, into out: inout [Double]) throws {
    if wire == 2 {
      let r = try lengthDelimited()
      guard r.count % 8 == 0 else {
        throw fail("packed doubles of \(r.count) bytes, expected a multiple of 8")
      }
      var sub = ProtoReader(bytes, range: r, context: context)
      while !sub.isAtEnd { out.append(Double(bitPattern: try sub.fixed64())) }
    } else if wire == 1 {
      out.append(Double(bitPattern: try fixed64()))
    } else {
      throw fail("wire type \(wire) for a double field, expected 1 or 2")
    }
  }

  /// Throws unless `wire` is `expected` (for singular fields).
  func expect(_ wire: Int, _ expected: Int, field: String) throws {
    guard wire == expected else {
      throw fail("wire type \(wire) for \(field), expected \(expected)")
    }
  }
}
