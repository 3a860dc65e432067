import Foundation
import Testing
import TestSupport

@testable import Imaging

/// Photos in every format, told apart by content, turned upright by their
/// orientation. The fixtures are one 64×48 picture in four coloured
/// quadrants (red top-left, green top-right, blue bottom-left, white
/// bottom-right), written by Pillow and pillow-heif (quadrants-cmyk.jpg:
/// Pillow's CMYK conversion, saved with Adobe's inverted inks).
struct ImageFileTests {
  static func fixture(_ name: String) -> String {
    Bundle.module.url(forResource: "Fixtures/" + name, withExtension: nil)!.path
  }

  /// The colour at the middle of each upright quadrant: TL, TR, BL, BR.
  static func quadrants(_ image: RGBA8Image) -> [RGBA] {
    let w = image.width, h = image.height
    return [image[w / 4, h / 4], image[3 * w / 4, h / 4], image[w / 4, 3 * h / 4], image[3 * w / 4, 3 * h / 4]]
  }

  static let expected = [RGBA(220, 30, 30), RGBA(30, 200, 40), RGBA(30, 40, 210), RGBA(240, 240, 240)]

  static func close(_ a: [RGBA], _ b: [RGBA]) -> Bool {
    zip(a, b).allSatisfy { x, y in
      Tolerance.lossyLevels.accepts(Double(x.r), Double(y.r)) && Tolerance.lossyLevels.accepts(Double(x.g), Double(y.g))
        && Tolerance.lossyLevels.accepts(Double(x.b), Double(y.b))
    }
  }

  @Test(arguments: [("quadrants.png", ImageFormat.png), ("quadrants.jpg", .jpeg), ("quadrants.heic", .heic),
                    ("quadrants-rot.heic", .heic), ("quadrants-cmyk.jpg", .jpeg)])
  func everyFormatReadsUpright(name: String, format: ImageFormat) throws {
    let photo = try ImageFile.read(path: Self.fixture(name))
    #expect(photo.format == format)
    let up = photo.upright
    #expect(up.width == 64 && up.height == 48, "\(name): \(up.width)x\(up.height)")
    #expect(Self.close(Self.quadrants(up), Self.expected), "\(name): \(Self.quadrants(up))")
  }

  /// The stored pixels are the upright picture turned by the tag; `upright` turns them back.
  @Test(arguments: [("quadrants-exif3.jpg", Orientation.down), ("quadrants-exif6.jpg", .right),
                    ("quadrants-exif8.jpg", .left), ("quadrants-exif6.png", .right)])
  func exifOrientationIsRead(name: String, orientation: Orientation) throws {
    let photo = try ImageFile.read(path: Self.fixture(name))
    #expect(photo.orientation == orientation)
    // Pillow stored the pixels unturned: the tag says how a viewer turns them.
    #expect(Self.close(Self.quadrants(photo.stored), Self.expected))
    let up = photo.upright
    #expect(up.width == (orientation.swapsSides ? 48 : 64))
  }

  /// A tag outside 1...8 reads as stored, as viewers read it, with a note the
  /// CLI shows as a warning; a valid tag gives no note.
  @Test(arguments: [0, 9, 255])
  func exifOrientationOutOfRangeReadsAsStoredWithANote(value: UInt8) throws {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fixture("quadrants-exif6.jpg"))))
    #expect(try ImageFile.decode(bytes).notes.isEmpty)
    // Tag 0x0112, type SHORT, count 1, in either byte order; the value sits 8 bytes in.
    let big: [UInt8] = [0x01, 0x12, 0x00, 0x03], little: [UInt8] = [0x12, 0x01, 0x03, 0x00]
    let at = try #require(bytes.indices.first { i in i + 10 <= bytes.count && (Array(bytes[i..<i + 4]) == big || Array(bytes[i..<i + 4]) == little) })
    let isBig = bytes[at] == 0x01
    #expect(bytes[at + (isBig ? 9 : 8)] == 6)
    bytes[at + (isBig ? 9 : 8)] = value
    let photo = try ImageFile.decode(bytes)
    #expect(photo.orientation == .up)
    #expect(photo.notes == ["EXIF orientation \(value) is not one of 1...8: read as 1 (the pixels as stored)"])
  }

  /// HEIC's own rotation is applied by the decoder; an EXIF tag in the file never turns it again.
  @Test func heicContainerRotationWinsOverExif() throws {
    let photo = try ImageFile.read(path: Self.fixture("quadrants-rot.heic"))
    #expect(photo.orientation == .up)
  }

  /// `ignore` on HEIC: the coded image, its container's turn and crop not
  /// applied, and the orientation that turns it back into the displayed one.
  @Test func heicCodedImageAndItsTurn() throws {
    let turned = try ImageFile.read(path: Self.fixture("quadrants-rot.heic"))
    let coded = try turned.codedTurn()
    #expect(coded.orientation.swapsSides && [coded.image.width, coded.image.height] == [48, 64])
    #expect(Photo.meanDifference(turned.stored, coded.image, coded.orientation) <= Photo.turnTolerance)
    #expect(try OrientationSemantics.ignore.pixels(of: turned) == coded.image)
    let plain = try ImageFile.read(path: Self.fixture("quadrants.heic"))
    let same = try plain.codedTurn()
    #expect(same.orientation == .up && same.image == plain.stored)
    // Other formats: the stored pixels and their EXIF tag.
    let jpeg = try ImageFile.read(path: Self.fixture("quadrants-exif6.jpg")).codedTurn()
    #expect(jpeg.orientation.rawValue == 6 && [jpeg.image.width, jpeg.image.height] == [64, 48])
  }

  @Test(arguments: ["truncated.jpg", "truncated.heic", "notes.txt"])
  func badFilesAreOneLineErrorsNamingTheFile(name: String) {
    do {
      _ = try ImageFile.read(path: Self.fixture(name))
      Issue.record("\(name) decoded")
    } catch {
      #expect(error.description.contains(name) && !error.description.contains("\n"), "\(error)")
    }
  }

  @Test func unknownBytesAreNamed() {
    #expect(throws: ImageError.unknownFormat(found: "text starting 'hello wo'")) {
      try ImageFile.decode(Array("hello world".utf8))
    }
    #expect(throws: ImageError.unknownFormat(found: "an empty file")) { try ImageFile.decode([]) }
  }

  @Test func limitsAreCheckedBeforeDecoding() throws {
    let tiny = ImageLimits(maxSide: 32, maxPixels: 32 * 32)
    for name in ["quadrants.jpg", "quadrants.heic", "quadrants.png"] {
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.fixture(name))))
      #expect(throws: ImageError.self) { try ImageFile.decode(bytes, limits: tiny) }
    }
  }

  /// Every orientation maps the stored corners where the EXIF specification puts them,
  /// and points and pixels agree.
  @Test(arguments: Orientation.allCases)
  func orientationMapsPixelsAndPoints(o: Orientation) throws {
    var px = [UInt8](repeating: 0, count: 3 * 2 * 4)
    for i in 0..<6 { px[i * 4] = UInt8(i + 1); px[i * 4 + 3] = 255 }
    let stored = try RGBA8Image(width: 3, height: 2, pixels: px)
    let up = o.upright(stored)
    #expect(up.width == (o.swapsSides ? 2 : 3) && up.height == (o.swapsSides ? 3 : 2))
    for y in 0..<up.height {
      for x in 0..<up.width {
        let s = o.storedPixel(uprightX: x, y: y, width: 3, height: 2)
        #expect(up[x, y] == stored[s.x, s.y])
        let p = o.storedPoint(uprightX: Double(x) + 0.5, y: Double(y) + 0.5, width: 3, height: 2)
        #expect(Int(p.x) == s.x && Int(p.y) == s.y, "\(o) (\(x), \(y))")
      }
    }
    // Tag 6: the stored top-left pixel ends at the upright top-right.
    if o == .right { #expect(up[1, 0] == stored[0, 0]) }
    if o == .left { #expect(up[0, 2] == stored[0, 0]) }
  }
}

/// Writing photos as a phone saves them: the stored buffer and its tag.
struct PhotoWriteTests {
  static var picture: RGBA8Image {
    // 5×3 with every pixel distinct, so a wrong turn cannot go unnoticed.
    var px: [UInt8] = []
    for i in 0..<15 { px += [UInt8(i * 16), UInt8(255 - i * 16), UInt8(i * 7), 255] }
    return RGBA8Image(unchecked: 5, height: 3, pixels: px)
  }

  @Test(arguments: Orientation.allCases)
  func storedIsTheInverseOfUpright(o: Orientation) {
    let s = o.stored(Self.picture)
    #expect((s.width, s.height) == (o.swapsSides ? (3, 5) : (5, 3)))
    #expect(o.upright(s) == Self.picture)
  }

  /// A photo big enough to be turned by several threads (over a megapixel, an
  /// odd size so bands end mid-tile) turns to the same bytes at any count.
  @Test(arguments: Orientation.allCases)
  func threadsTurnToTheSameBytes(o: Orientation) {
    let w = 1283, h = 901
    var px = [UInt8](repeating: 0, count: w * h * 4)
    for i in 0..<(w * h) { px[i * 4] = UInt8(i & 255); px[i * 4 + 1] = UInt8((i >> 8) & 255); px[i * 4 + 2] = UInt8((i >> 16) & 255); px[i * 4 + 3] = 255 }
    let stored = RGBA8Image(unchecked: w, height: h, pixels: px)
    let one = o.upright(stored)
    for threads in [2, 3, 8] { #expect(o.upright(stored, threads: threads) == one, "\(threads) threads") }
    #expect(o.stored(one) == stored)
  }

  @Test(arguments: Orientation.allCases)
  func storedAffineIsStoredPoint(o: Orientation) {
    let m = o.storedAffine(width: 7, height: 4)
    let points: [(Double, Double)] = [(0, 0), (2.5, 1.25), (3, 6.5)]
    for (x, y) in points {
      let p = o.storedPoint(uprightX: x, y: y, width: 7, height: 4)
      let mx: Double = m[0] * x + m[1] * y + m[2]
      let my: Double = m[3] * x + m[4] * y + m[5]
      #expect(Tolerance.exact.accepts(mx, p.x) && Tolerance.exact.accepts(my, p.y))
    }
  }

  @Test(arguments: Orientation.allCases)
  func pngAndJPEGCarryTheTagTheyWereWrittenWith(o: Orientation) throws {
    let png = try ImageFile.decode(try PNG.encode(o.stored(Self.picture), orientation: o))
    #expect(png.format == .png && png.orientation == o && png.upright == Self.picture)
    let jpeg = try ImageFile.decode(try JPEG.encode(o.stored(Self.picture), quality: 95, orientation: o))
    #expect(jpeg.format == .jpeg && jpeg.orientation == o)
    #expect((jpeg.upright.width, jpeg.upright.height) == (5, 3))
  }

  @Test func jpegQualityOutsideOneToHundredIsRefused() {
    #expect(throws: ImageError.parameterOutOfRange(name: "JPEG quality", value: "0", expected: "1...100")) {
      _ = try JPEG.encode(Self.picture, quality: 0)
    }
  }
}
