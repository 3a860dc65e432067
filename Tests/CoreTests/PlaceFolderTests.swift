import Foundation
import Testing
@testable import Core

/// A folder built beside its target replaces it whole: never mixed with the old
/// one, never missing, nothing left aside.
struct PlaceFolderTests {
  func folder(_ path: String, files: [String]) throws {
    try FileManager.default.createDirectory(atPath: path + "/sub", withIntermediateDirectories: true)
    for f in files { try AtomicFile.write("x", to: path + "/" + f) }
  }

  @Test func replacesWholeAndLeavesNothingAside() throws {
    let dir = NSTemporaryDirectory() + "bullseye-place-\(getpid())"
    try? FileManager.default.removeItem(atPath: dir)
    try folder(dir + "/target", files: ["old.txt", "sub/deep.txt"])
    try folder(dir + "/.target.staged", files: ["new.txt"])
    try AtomicFile.placeFolder(dir + "/.target.staged", at: dir + "/target/")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/target").sorted() == ["new.txt", "sub"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["target"], "the old folder is gone, not aside")
    try folder(dir + "/.fresh.staged", files: ["a.txt"])
    try AtomicFile.placeFolder(dir + "/.fresh.staged", at: dir + "/fresh")
    #expect(FileManager.default.fileExists(atPath: dir + "/fresh/a.txt"))
    #expect(throws: CoreError.self) { try AtomicFile.placeFolder(dir + "/.missing", at: dir + "/target") }
    #expect(FileManager.default.fileExists(atPath: dir + "/target/new.txt"), "a failed placement puts the old folder back")
  }
}
