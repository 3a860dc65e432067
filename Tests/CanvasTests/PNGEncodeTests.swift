#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Testing

@testable import Canvas

/// A 37x23 image using every byte value in every channel somewhere.
func patternImage() throws -> RGBA8Image {
  var image = try RGBA8Image(width: 37, height: 23, fill: RGBA(0, 0, 0, 0))
  for y in 0..<23 {
    for x in 0..<37 {
      let i = y * 37 + x
      image[x, y] = RGBA(UInt8(i % 256), UInt8((i * 3) % 256), UInt8((i * 7 + y) % 256), UInt8((i * 11) % 256))
    }
  }
  return image
}

/// A fresh empty directory under /tmp.
func temporaryDirectory() -> String {
  var template = Array("/tmp/canvas-tests-XXXXXX".utf8CString)
  let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
  precondition(made != nil, "mkdtemp failed")
  return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

func directoryEntries(_ path: String) -> [String] {
  guard let dir = opendir(path) else { return [] }
  defer { closedir(dir) }
  var names: [String] = []
  while let entry = readdir(dir) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
      String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
    }
    if name != "." && name != ".." { names.append(name) }
  }
  return names.sorted()
}

@Suite("PNG encode and files")
struct PNGEncodeTests {
  @Test("encode then decode is exact, including alpha 0 pixels")
  func roundTrip() throws {
    let image = try patternImage()
    #expect(try PNG.decode(try PNG.encode(image)) == image)
  }

  @Test("same pixels give byte-identical PNGs")
  func deterministic() throws {
    let a = try PNG.encode(try patternImage())
    let b = try PNG.encode(try patternImage())
    #expect(a == b)
    var changed = try patternImage()
    changed[0, 0] = RGBA(9, 9, 9, 9)
    #expect(try PNG.encode(changed) != a)
  }

  @Test("only IHDR, IDAT and IEND chunks are written")
  func noAncillaryChunks() throws {
    let types = chunkTypes(try PNG.encode(try patternImage()))
    #expect(types.first == "IHDR" && types.last == "IEND")
    #expect(Set(types) == ["IHDR", "IDAT", "IEND"])
    for banned in ["tIME", "tEXt", "zTXt", "iTXt", "pHYs"] { #expect(!types.contains(banned)) }
  }

  @Test("write then read round trips and leaves no temp file")
  func writeRead() throws {
    let dir = temporaryDirectory()
    let path = dir + "/out.png"
    let image = try patternImage()
    try PNG.write(image, to: path)
    try PNG.write(image, to: path)  // overwrite in place
    #expect(try PNG.read(path: path) == image)
    #expect(directoryEntries(dir) == ["out.png"])
    unlink(path)
    rmdir(dir)
  }

  @Test("write into a missing directory throws and creates nothing")
  func writeMissingDirectory() throws {
    let dir = temporaryDirectory()
    let path = dir + "/missing/out.png"
    #expect(throws: CanvasError.cannotWrite(path: path, reason: "directory does not exist")) {
      try PNG.write(try patternImage(), to: path)
    }
    #expect(CanvasError.cannotWrite(path: "/x/y.png", reason: "directory does not exist").description
      == "cannot write '/x/y.png': directory does not exist")
    #expect(directoryEntries(dir).isEmpty)
    #expect(access(path, F_OK) != 0)
    rmdir(dir)
  }

  @Test("reading a missing file throws cannotRead")
  func readMissing() {
    #expect(throws: CanvasError.cannotRead(path: "/nonexistent/a.png", reason: "No such file or directory")) {
      try PNG.read(path: "/nonexistent/a.png")
    }
  }
}
