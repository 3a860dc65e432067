import Foundation
import Imaging
import Core
import Scoring
import SetCards
import Synth

/// Which scenes a dataset holds.
package enum DatasetKind: String, Sendable, CaseIterable {
  /// Target photos: class 0 = arrow impact (box centred on the entry point),
  /// class 1 = target face (box around the outermost scoring ring); each COCO
  /// image record lists its shafts as `[entryX, entryY, nockX, nockY]`.
  case target
  /// Set-card tables: class 0 = card; each card's attributes in the COCO file.
  case setcards
}

/// A dataset request.
package struct DatasetSpec: Sendable {
  /// Images one dataset may hold.
  package static let counts = 1...1_000_000
  var kind: DatasetKind
  var count: Int
  var seed: UInt64
  package var width = 960, height = 720
  /// Every `valEvery`-th image goes to the validation split.
  var valEvery = 10
  /// Which impacts are labelled as class 0 (target datasets); each labelled
  /// arrow's style is in its COCO attributes.
  package var impacts = ImpactSet.shafts
  /// How big each impact's box is (target datasets).
  package var impactBox = ImpactBox.wide
  /// Share of arrows drawn touching the one before (target datasets; nil: the
  /// synthesizer's default, `SceneSpec.touchingShare`).
  package var touchingShare: Double?
  /// Faces a target dataset's scenes are drawn from, uniformly (nil: `faceMix`).
  /// A list of one matches a pipeline's photos, e.g. `eval archery`'s 10-zone ones.
  package var faces: [String]?
  /// Look of Set-card tables (`realism` unless a caller asks for another).
  package var cardStyle = CardStyle.realism
  /// The look of target scenes.
  package var archeryStyle = ArcheryStyle.classic
  /// The default mix: twelve entries, plain 10-zone three times (a quarter of the scenes).
  static let faceMix = ["10_zone", "10_zone", "10_zone", "10_zone_6_ring", "10_zone_5_ring", "5_zone", "WA_field", "nfaa_indoor",
                               "wa_vegas_3_spot", "wa_vertical_3_spot", "11_zone", "10_zone_compound"]
  package init(kind: DatasetKind, count: Int, seed: UInt64) { self.kind = kind; self.count = count; self.seed = seed }
}

/// One labelled box in pixels.
struct LabelledBox {
  let classID: Int
  let box: (Double, Double, Double, Double)  // x1, y1, x2, y2
  var attributes: [String: JSONValue] = [:]
}

/// Writes images plus YOLO txt labels, `data.yaml` and COCO JSON, so users can
/// train their own detectors on Bullseye scenes. Domain randomization comes
/// from the synthesizers: pose, tilt, light, noise, blur, backgrounds, wear,
/// crossing and touching shafts, holes without shafts.
package enum DatasetWriter {
  /// Writes the dataset as `dir`; returns per-split counts. It is built in a folder
  /// beside `dir` and renamed into place whole, so a failure leaves `dir` as it was and
  /// an earlier dataset there is replaced, never mixed with (its images beyond the new
  /// count would train too). A folder that holds anything but a dataset is refused.
  package static func write(_ spec: DatasetSpec, to dir: String, progress: (Int) -> Void = { _ in }) throws -> [String: Int] {
    guard DatasetSpec.counts.contains(spec.count) else {
      throw CoreError.invalidValue("--count \(spec.count) is out of range: expected \(DatasetSpec.counts.lowerBound)...\(DatasetSpec.counts.upperBound)")
    }
    try checkFaces(spec.faces)
    let fm = FileManager.default
    let target = URL(fileURLWithPath: dir).standardizedFileURL
    var isDir: ObjCBool = false
    let exists = fm.fileExists(atPath: target.path, isDirectory: &isDir)
    if exists {
      guard isDir.boolValue else { throw CoreError.io(path: dir, reason: "it is a file: expected a folder for the dataset") }
      let items = (try? fm.contentsOfDirectory(atPath: target.path)) ?? []
      guard items.isEmpty || items.contains("data.yaml") else {
        throw CoreError.io(path: dir, reason: "it holds files and no data.yaml: expected a new or empty folder, or an earlier dataset to replace")
      }
    }
    let parent = target.deletingLastPathComponent().path
    guard !target.lastPathComponent.isEmpty, target.path != "/" else { throw CoreError.io(path: dir, reason: "expected a folder path") }
    try makeDirectory(parent)
    let staging = parent + "/.\(target.lastPathComponent).synth-\(getpid())"
    try? fm.removeItem(atPath: staging)
    defer { try? fm.removeItem(atPath: staging) }
    let counts = try writeAll(spec, to: staging, progress: progress)
    try AtomicFile.placeFolder(staging, at: target.path)
    return counts
  }

  /// The dataset's files under `dir`, created if needed.
  static func writeAll(_ spec: DatasetSpec, to dir: String, progress: (Int) -> Void) throws -> [String: Int] {
    for sub in ["images/train", "images/val", "labels/train", "labels/val", "annotations"] { try makeDirectory(dir + "/" + sub) }
    var root = SeededGenerator(seed: spec.seed)
    var coco: [String: (images: [JSONValue], annotations: [JSONValue])] = ["train": ([], []), "val": ([], [])]
    var counts = ["train": 0, "val": 0]
    for i in 0..<spec.count {
      var g = root.fork("image-\(i)")
      let (image, boxes, face, shafts) = try render(spec, seed: g.next())
      let split = (i % spec.valEvery == spec.valEvery - 1) ? "val" : "train"
      let name = String(repeating: "0", count: max(0, 6 - String(i).count)) + String(i)
      try PNG.write(image, to: "\(dir)/images/\(split)/\(name).png")
      let w = Double(image.width), h = Double(image.height)
      var lines = ""
      for b in boxes {
        let x1 = max(0, b.box.0), y1 = max(0, b.box.1), x2 = min(w, b.box.2), y2 = min(h, b.box.3)
        guard x2 > x1, y2 > y1 else { continue }
        lines += "\(b.classID) \(fmt((x1 + x2) / 2 / w)) \(fmt((y1 + y2) / 2 / h)) \(fmt((x2 - x1) / w)) \(fmt((y2 - y1) / h))\n"
        var ann: [String: JSONValue] = [
          "id": .int(coco[split]!.annotations.count + 1), "image_id": .int(i), "category_id": .int(b.classID),
          "bbox": .array([x1, y1, x2 - x1, y2 - y1].map(JSONValue.double)), "area": .double((x2 - x1) * (y2 - y1)), "iscrowd": .int(0),
        ]
        if !b.attributes.isEmpty { ann["attributes"] = .object(b.attributes) }
        coco[split]!.annotations.append(.object(ann))
      }
      try AtomicFile.write(lines, to: "\(dir)/labels/\(split)/\(name).txt")
      var record: [String: JSONValue] = ["id": .int(i), "file_name": .string("\(split)/\(name).png"),
                                         "width": .int(image.width), "height": .int(image.height)]
      if let face { record["face"] = .string(face) }
      // Each shaft's entry and nock, in pixels (they may lie outside the picture).
      if spec.kind == .target { record["shafts"] = .array(shafts.map { .array($0.map(JSONValue.double)) }) }
      coco[split]!.images.append(.object(record))
      counts[split, default: 0] += 1
      progress(i + 1)
    }
    let names = spec.kind == .target ? ["arrow", "target"] : ["card"]
    let labelling = spec.kind == .target ? ", impacts \(spec.impacts.rawValue), impact boxes \(spec.impactBox.rawValue)" : ""
    try AtomicFile.write("""
      # Bullseye \(spec.kind.rawValue) dataset: \(spec.count) images, seed \(spec.seed)\(labelling)
      path: .
      train: images/train
      val: images/val
      nc: \(names.count)
      names: [\(names.joined(separator: ", "))]

      """, to: dir + "/data.yaml")
    for split in ["train", "val"] {
      let cats = names.enumerated().map { JSONValue.object(["id": .int($0), "name": .string($1)]) }
      try AtomicFile.write(try JSONValue.object(["images": .array(coco[split]!.images), "annotations": .array(coco[split]!.annotations),
                                                 "categories": .array(cats)]).canonicalText(),
                           to: "\(dir)/annotations/instances_\(split).json")
    }
    return counts
  }

  /// Refuses an empty face list or a name the catalogue does not know, before anything is written.
  static func checkFaces(_ faces: [String]?) throws {
    guard let faces else { return }
    guard !faces.isEmpty else { throw CoreError.invalidValue("--faces is empty: expected one or more face ids (`bullseye faces` lists them)") }
    for f in faces where (try? FaceCatalog.face(named: f)) == nil {
      throw CoreError.invalidValue("--faces '\(f)' is not a known face: expected an id or alias that `bullseye faces` lists")
    }
  }

  /// One image, its boxes and (target scenes) the face drawn.
  static func render(_ spec: DatasetSpec, seed: UInt64) throws -> (RGBA8Image, [LabelledBox], String?, [[Double]]) {
    switch spec.kind {
    case .target:
      var g = SeededGenerator(seed: seed)
      let face = g.pick(spec.faces ?? DatasetSpec.faceMix)
      var s = SceneSpec(face: face, seed: seed, size: ImageSize(width: spec.width, height: spec.height), arrowCount: g.int(0...12))
      // Realistic scenes tilt up to 60° (the same draw, stretched: classic datasets keep their bytes).
      s.camera.tiltDeg = g.uniform(0...30) * (spec.archeryStyle == .realistic ? 2 : 1)
      s.style = spec.archeryStyle
      s.touchingShare = spec.touchingShare
      let r = try Synthesizer.render(s)
      var boxes = r.truth.arrows(in: spec.impacts).map {
        let b = $0.box(spec.impactBox)
        return LabelledBox(classID: 0, box: (b[0], b[1], b[2], b[3]), attributes: ["style": .string($0.style.rawValue), "entry_hidden": .bool($0.entryHidden)])
      }
      let t = r.truth.targetBox
      boxes.append(LabelledBox(classID: 1, box: (t[0], t[1], t[2], t[3])))
      return (r.image, boxes, face, r.truth.shaftEnds)
    case .setcards:
      var g = SeededGenerator(seed: seed)
      var table = SetTableSpec(seed: seed, size: ImageSize(width: spec.width, height: spec.height), cardCount: g.int(3...21))
      table.style = spec.cardStyle
      let r = try TableSynthesizer.render(table)
      let boxes = r.cards.map { c in
        LabelledBox(classID: 0, box: (c.box.x1, c.box.y1, c.box.x2, c.box.y2), attributes: [
          "number": .string(c.card.number.name), "color": .string(c.card.color.name), "shape": .string(c.card.shape.name),
          "fill": .string(c.card.fill.name), "label": .string(c.card.label),
          "corners": .array(c.corners.map { .array($0.map(JSONValue.double)) }),
        ])
      }
      return (r.image, boxes, nil, [])
    }
  }

  static func fmt(_ v: Double) -> String {
    let s = String(Int((v * 1_000_000).rounded()))
    let padded = String(repeating: "0", count: max(0, 7 - s.count)) + s
    return padded.dropLast(6) + "." + padded.suffix(6)
  }

  static func makeDirectory(_ path: String) throws {
    var built = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
      built += "/" + part
      mkdir(built, 0o755)
    }
    var st = stat()
    guard stat(path, &st) == 0 else { throw CoreError.io(path: path, reason: "cannot create the directory") }
  }
}

#if canImport(Glibc)
  import Glibc
#endif
