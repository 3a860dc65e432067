import Core
@testable import Dataset
import Foundation
import Testing

/// `DatasetSpec.faces`: a target dataset drawn from named faces (to match a
/// pipeline's photos), the default mix's draws unchanged, and unknown faces
/// refused before anything is written.
@Suite struct DatasetFacesTests {
  /// Writes four small images; returns each image's `face` (COCO, train then
  /// val) and the bytes of every PNG by name.
  func write(_ faces: [String]?, tag: String) throws -> (faces: [String], images: [String: Data]) {
    let dir = NSTemporaryDirectory() + "bullseye-faces-\(tag)-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: dir) }
    var spec = DatasetSpec(kind: .target, count: 4, seed: 5151)
    spec.width = 240; spec.height = 180; spec.valEvery = 4; spec.faces = faces
    _ = try DatasetWriter.write(spec, to: dir)
    var drawn: [String] = [], images: [String: Data] = [:]
    for split in ["train", "val"] {
      let coco = try JSONParser.parse(String(contentsOfFile: "\(dir)/annotations/instances_\(split).json", encoding: .utf8))
      guard case .object(let top) = coco, case .array(let imgs)? = top["images"] else { Issue.record("no images in \(split)"); continue }
      for case .object(let r) in imgs {
        guard case .string(let f)? = r["face"] else { Issue.record("image without face"); continue }
        drawn.append(f)
      }
      for f in try FileManager.default.contentsOfDirectory(atPath: "\(dir)/images/\(split)") {
        images["\(split)/\(f)"] = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/images/\(split)/\(f)"))
      }
    }
    return (drawn, images)
  }

  @Test func oneFaceDrawsOnlyThatFace() throws {
    let w = try write(["10_zone"], tag: "one")
    #expect(w.faces == Array(repeating: "10_zone", count: 4))
  }

  @Test func theDefaultIsTheNamedMix() throws {
    let a = try write(nil, tag: "default"), b = try write(DatasetSpec.faceMix, tag: "mix")
    #expect(a.images == b.images)
    #expect(a.faces == b.faces)
    #expect(a.faces.allSatisfy { DatasetSpec.faceMix.contains($0) })
    // Four seeds drawing from ten faces: not all the same one.
    #expect(Set(a.faces).count > 1)
  }

  @Test(arguments: [["no_such_face"], [], ["10_zone", ""]])
  func unknownFacesAreRefusedBeforeWriting(_ faces: [String]) throws {
    let dir = NSTemporaryDirectory() + "bullseye-faces-bad-\(getpid())-\(faces.count)"
    var spec = DatasetSpec(kind: .target, count: 2, seed: 1)
    spec.faces = faces
    #expect(throws: CoreError.self) { try DatasetWriter.write(spec, to: dir) }
    #expect(!FileManager.default.fileExists(atPath: dir))
  }
}
