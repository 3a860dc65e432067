import Core
@testable import Dataset
import Foundation
import Synth
import Testing

/// The dataset writer's labelling: which impacts become class-0 boxes is a
/// named choice (`ImpactSet`), the images never depend on it, and the YOLO
/// and COCO files agree.
@Suite struct DatasetWriterTests {
  struct Written {
    let yolo: [String: [String]]  // label file → lines
    let styles: [String]  // style attribute of every class-0 COCO annotation
    let cocoBoxes: Int
    let images: [String: Data]
    let yaml: String
    let shafts: [[Double]]  // every image record's shaft ends
  }

  func write(_ impacts: ImpactSet, box: ImpactBox = .wide, tag: String) throws -> Written {
    let dir = NSTemporaryDirectory() + "bullseye-dataset-\(tag)-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: dir) }
    var spec = DatasetSpec(kind: .target, count: 10, seed: 4242)
    spec.width = 320; spec.height = 240; spec.valEvery = 5; spec.impacts = impacts
    spec.impactBox = box
    let counts = try DatasetWriter.write(spec, to: dir)
    #expect(counts == ["train": 8, "val": 2])
    var yolo: [String: [String]] = [:], images: [String: Data] = [:], styles: [String] = [], boxes = 0, shafts: [[Double]] = []
    for split in ["train", "val"] {
      for f in try FileManager.default.contentsOfDirectory(atPath: "\(dir)/labels/\(split)") {
        yolo["\(split)/\(f)"] = try String(contentsOfFile: "\(dir)/labels/\(split)/\(f)", encoding: .utf8).split(separator: "\n").map(String.init)
      }
      for f in try FileManager.default.contentsOfDirectory(atPath: "\(dir)/images/\(split)") {
        images["\(split)/\(f)"] = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/images/\(split)/\(f)"))
      }
      let coco = try JSONParser.parse(String(contentsOfFile: "\(dir)/annotations/instances_\(split).json", encoding: .utf8))
      guard case .object(let top) = coco, case .array(let anns)? = top["annotations"] else { Issue.record("no annotations"); continue }
      boxes += anns.count
      if case .array(let records)? = top["images"] {
        for case .object(let r) in records {
          guard case .array(let list)? = r["shafts"] else { Issue.record("image without shafts"); continue }
          for case .array(let e) in list { shafts.append(e.compactMap {
            switch $0 { case .double(let v): v; case .int(let v): Double(v); default: nil }
          }) }
        }
      }
      for case .object(let a) in anns where a["category_id"] == .int(0) {
        guard case .object(let attrs)? = a["attributes"], case .string(let s)? = attrs["style"] else { Issue.record("arrow without style"); continue }
        styles.append(s)
      }
    }
    return Written(yolo: yolo, styles: styles, cocoBoxes: boxes, images: images,
                   yaml: try String(contentsOfFile: dir + "/data.yaml", encoding: .utf8), shafts: shafts)
  }

  @Test func impactSetsLabelTheSameImagesDifferently() throws {
    var written: [ImpactSet: Written] = [:]
    for set in ImpactSet.allCases {
      let w = try write(set, tag: set.rawValue)
      written[set] = w
      let arrows = w.yolo.values.joined().filter { $0.hasPrefix("0 ") }.count
      #expect(arrows == w.styles.count, "YOLO and COCO disagree under \(set)")
      #expect(w.yolo.values.joined().count == w.cocoBoxes)
      #expect(w.styles.allSatisfy { set.includes(ArrowStyle(rawValue: $0)!) }, "\(set) labelled \(w.styles)")
      #expect(w.yaml.contains("impacts \(set.rawValue)"))
      // every shaft's two ends, whatever the labelling
      #expect(!w.shafts.isEmpty && w.shafts.allSatisfy { $0.count == 4 })
      // every image has its face box
      #expect(w.yolo.values.allSatisfy { lines in lines.filter { $0.hasPrefix("1 ") }.count == 1 })
    }
    let all = try #require(written[.all]), shafts = try #require(written[.shafts])
    #expect(all.images == shafts.images, "the labelling must not change a pixel")
    let holes = all.styles.filter { $0 == "hole" }.count
    #expect(holes > 0, "seed 4242 should draw some holes without shafts")
    #expect(shafts.styles.count == all.styles.count - holes)
    #expect(shafts.styles.count > 0)
  }

  @Test func impactBoxesShrinkAboutTheSameCentres() throws {
    let wide = try write(.shafts, box: .wide, tag: "wide"), hole = try write(.shafts, box: .hole, tag: "hole")
    #expect(wide.images == hole.images)
    #expect(hole.yaml.contains("impact boxes hole"))
    var smaller = 0
    for (file, lines) in wide.yolo {
      let other = try #require(hole.yolo[file])
      #expect(other.count == lines.count)
      for (a, b) in zip(lines, other) {
        let p = a.split(separator: " ").compactMap { Double($0) }, q = b.split(separator: " ").compactMap { Double($0) }
        #expect(p[0] == q[0] && p[1] == q[1] && p[2] == q[2], "\(file): centres moved")
        if p[0] == 0 {
          #expect(q[3] <= p[3] && q[4] <= p[4])
          if q[3] < p[3] { smaller += 1 }
        } else {
          #expect(p == q, "\(file): the face box changed")
        }
      }
    }
    #expect(smaller > 0)
  }
}

