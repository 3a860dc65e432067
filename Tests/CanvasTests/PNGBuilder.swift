// Minimal PNG writer for test inputs: any colour type / bit depth, optional Adam7,
// PLTE/tRNS, and zlib "stored" blocks so no compressor is needed. Lets the tests build
// exactly the encodings the decoder must handle without fixture files.

enum PNGColorType: UInt8 {
  case gray = 0, rgb = 2, palette = 3, grayAlpha = 4, rgba = 6
  var channels: Int {
    switch self {
    case .gray, .palette: 1
    case .grayAlpha: 2
    case .rgb: 3
    case .rgba: 4
    }
  }
}

struct PNGBuilder {
  var width: Int
  var height: Int
  var colorType: PNGColorType
  var bitDepth: Int
  var interlaced = false
  var palette: [UInt8]? = nil  // PLTE payload (RGB triples)
  var transparency: [UInt8]? = nil  // tRNS payload
  /// Samples for pixel (x, y), one per channel, each < 2^bitDepth.
  var samples: (Int, Int) -> [UInt16]

  func build() -> [UInt8] {
    var out: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
    var ihdr = be32(UInt32(width)) + be32(UInt32(height))
    ihdr += [UInt8(bitDepth), colorType.rawValue, 0, 0, interlaced ? 1 : 0]
    out += PNGBuilder.chunk("IHDR", ihdr)
    if let palette { out += PNGBuilder.chunk("PLTE", palette) }
    if let transparency { out += PNGBuilder.chunk("tRNS", transparency) }
    out += PNGBuilder.chunk("IDAT", zlibStored(rawScanlines()))
    out += PNGBuilder.chunk("IEND", [])
    return out
  }

  /// Filter-type-0 scanlines, pass by pass when interlaced.
  func rawScanlines() -> [UInt8] {
    let passes: [(Int, Int, Int, Int)] =
      interlaced
      ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
      : [(0, 0, 1, 1)]
    var data: [UInt8] = []
    for (x0, y0, dx, dy) in passes {
      let xs = Array(stride(from: x0, to: width, by: dx))
      let ys = Array(stride(from: y0, to: height, by: dy))
      if xs.isEmpty || ys.isEmpty { continue }
      for y in ys {
        data.append(0)
        data += packRow(xs.map { samples($0, y) })
      }
    }
    return data
  }

  func packRow(_ pixels: [[UInt16]]) -> [UInt8] {
    var bytes: [UInt8] = []
    if bitDepth >= 8 {
      for pixel in pixels {
        precondition(pixel.count == colorType.channels)
        for s in pixel {
          if bitDepth == 16 { bytes += [UInt8(s >> 8), UInt8(s & 0xFF)] } else { bytes.append(UInt8(s)) }
        }
      }
      return bytes
    }
    var acc = 0
    var bits = 0
    for pixel in pixels {
      for s in pixel {
        acc = (acc << bitDepth) | Int(s)
        bits += bitDepth
        if bits == 8 {
          bytes.append(UInt8(acc))
          acc = 0
          bits = 0
        }
      }
    }
    if bits > 0 { bytes.append(UInt8(acc << (8 - bits))) }
    return bytes
  }

  static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    let typeBytes = Array(type.utf8)
    return be32(UInt32(payload.count)) + typeBytes + payload + be32(crc32(typeBytes + payload))
  }

  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}

func be32(_ v: UInt32) -> [UInt8] {
  [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
}

/// zlib stream of uncompressed deflate blocks plus Adler-32.
func zlibStored(_ data: [UInt8]) -> [UInt8] {
  var out: [UInt8] = [0x78, 0x01]
  var offset = 0
  repeat {
    let n = min(65535, data.count - offset)
    let last: UInt8 = offset + n == data.count ? 1 : 0
    out += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
    out += data[offset..<offset + n]
    offset += n
  } while offset < data.count
  var a: UInt32 = 1
  var b: UInt32 = 0
  for byte in data {
    a = (a + UInt32(byte)) % 65521
    b = (b + a) % 65521
  }
  return out + be32((b << 16) | a)
}

/// Chunk types in file order (walks length/type/payload/CRC records after the signature).
func chunkTypes(_ png: [UInt8]) -> [String] {
  var types: [String] = []
  var i = 8
  while i + 8 <= png.count {
    let length = Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
    types.append(String(decoding: png[i + 4..<i + 8], as: UTF8.self))
    i += 12 + length
  }
  return types
}
