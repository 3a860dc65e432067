import Foundation
import Testing

@testable import Imaging

/// A header may claim more than the file holds; the readers find out before they
/// allocate for the claim (a 12-byte chunk header claiming 2 GiB cost 2 GiB).
struct DeclaredSizeTests {
  /// `quadrants.png` with a tEXt chunk after IHDR that declares `length` bytes but holds three.
  func pngClaiming(_ length: UInt32) throws -> [UInt8] {
    let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: ImageFileTests.fixture("quadrants.png"))))
    return Array(png[..<33]) + be32(length) + Array("tEXtabc".utf8)
  }

  @Test(arguments: [UInt32(0x7fff_ffff), 0x4000_0000, 100])
  func aPNGChunkLongerThanTheFileIsTruncation(length: UInt32) throws {
    #expect { try PNG.decode(try pngClaiming(length)) } throws: { e in
      "\(e)".contains("chunk 'tEXt' at offset 33 declares \(length) bytes but only")
    }
  }

  /// `quadrants.jpg` with its frame header set to 16000x16000: a few kilobytes cannot hold that.
  @Test func aJPEGFrameLargerThanItsDataIsTruncation() throws {
    var jpg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: ImageFileTests.fixture("quadrants.jpg"))))
    let sof = try #require(jpg.indices.first { jpg[$0] == 0xFF && jpg[$0 + 1] == 0xC0 })
    jpg[sof + 5] = 0x3E; jpg[sof + 6] = 0x80; jpg[sof + 7] = 0x3E; jpg[sof + 8] = 0x80  // 16000, 16000
    #expect(JPEG.isHuffmanCoded(jpg))
    #expect { try JPEG.decode(jpg) } throws: { "\($0)".contains("cannot hold a 16000x16000 image: expected at least 500000") }
  }

  /// The bound leaves real files alone: every fixture still decodes.
  @Test(arguments: ["quadrants.jpg", "quadrants-cmyk.jpg", "quadrants-exif6.jpg"])
  func realJPEGsPass(name: String) throws {
    let jpg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: ImageFileTests.fixture(name))))
    let image = try JPEG.decode(jpg)
    #expect(image.width * image.height == 64 * 48, "\(name): \(image.width)x\(image.height)")
  }

  /// A FIFO is refused without opening it for reading (which would wait for a writer forever).
  @Test func aFIFOIsNotRead() throws {
    let path = NSTemporaryDirectory() + "bullseye-fifo-\(getpid()).png"
    unlink(path)
    #expect(mkfifo(path, 0o600) == 0)
    defer { unlink(path) }
    #expect { try ImageFile.read(path: path) } throws: { "\($0)".contains("not a regular file") }
  }
}
