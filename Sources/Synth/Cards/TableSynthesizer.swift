import SetCards
import Canvas
import Core

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One card's ground truth in output pixels.
public struct CardTruth: Sendable, Hashable {
  /// The card.
  public let card: Card
  /// Axis-aligned box of the projected rounded outline, clipped to the image.
  public let box: Box
  /// Projected sharp corners: top-left, top-right, bottom-right, bottom-left of
  /// the upright card.
  public let corners: [[Double]]
  /// Rotation on the flat table, degrees clockwise.
  let rotationDeg: Double

  /// Memberwise, for truth read back from a file.
  package init(card: Card, box: Box, corners: [[Double]], rotationDeg: Double) {
    self.card = card; self.box = box; self.corners = corners; self.rotationDeg = rotationDeg
  }
}

/// A rendered table and what is really on it.
public struct TableRender: Sendable {
  /// The photo.
  public let image: RGBA8Image
  /// The resolved table it came from.
  let table: SetTable
  /// One entry per card, in table order.
  public let cards: [CardTruth]
  /// Every Set on the table (all cards, occluded or not), sorted triples.
  public let sets: [[Int]]
  /// Things in frame that are not table cards (thumbnails, the game box): never labelled as cards.
  public var distractors: [Distractor] = []
}

/// Something in a realistic photo that looks like a card but is not on the table.
public struct Distractor: Sendable, Hashable {
  /// `thumbnail` or `box`.
  public let kind: String
  /// Axis-aligned box in output pixels, clipped to the image.
  public let box: Box
}

/// The card synthesizer's entry point: a table spec in, a photo-like image and
/// its ground truth out. Same spec → byte-identical pixels and truth.
public enum TableSynthesizer {
  /// Resolves and renders.
  public static func render(_ spec: SetTableSpec) throws(SetCardsError) -> TableRender {
    try render(SetTable.resolve(spec))
  }

  /// Draws the flat table with cairo, warps it through the perspective, then
  /// applies warm light, soft focus and sensor noise.
  static func render(_ table: SetTable) throws(SetCardsError) -> TableRender {
    let w = table.width, h = table.height, fw = w + 2 * table.marginX
    var root = SeededGenerator(seed: table.seed)
    _ = root.fork("deal"); _ = root.fork("layout"); _ = root.fork("look")
    var paintRNG = root.fork("paint"), noiseRNG = root.fork("noise")
    let flat: RGBA8Image
    do {
      let surface = try Surface(width: fw, height: h)
      let ctx = try Context(surface)
      TablePainter(table: table, ctx: ctx).paint(&paintRNG)
      try ctx.check()
      flat = surface.image()
    } catch { throw .canvas(error) }

    var rgb = [Float](repeating: 0, count: fw * h * 3)
    for i in 0..<(fw * h) {
      for c in 0..<3 { rgb[i * 3 + c] = Float(flat.pixels[i * 4 + c]) }
    }
    let outToFlat = table.outputToFlat
    if table.marginX > 0 {
      rgb = warp(rgb, width: fw, height: h, outWidth: w, outHeight: h, outToFlat: outToFlat)
    }
    let look = table.look
    applyLight(&rgb, width: w, height: h, warmth: look.warmth, gradient: look.lighting,
               angleDeg: look.lightAngleDeg, vignette: look.vignette)
    if let r = look.realism {
      applyCamera(&rgb, whiteBalance: r.whiteBalance, exposure: r.exposure, contrast: r.contrast)
      if let m = r.motion { motionBlur(&rgb, width: w, height: h, length: m[0], angleDeg: m[1]) }
    }
    blur(&rgb, width: w, height: h, sigma: look.blur)
    addNoise(&rgb, sigma: look.noise, rng: &noiseRNG)
    var out = [UInt8](repeating: 255, count: w * h * 4)
    for i in 0..<(w * h) {
      for c in 0..<3 { out[i * 4 + c] = UInt8(min(255, max(0, rgb[i * 3 + c].rounded()))) }
    }
    var image: RGBA8Image
    do { image = try RGBA8Image(width: w, height: h, pixels: out) } catch { throw .canvas(error) }
    if let q = look.realism?.jpegQuality {
      do { image = try jpegRoundTrip(image, quality: q) } catch {
        throw .invalid(name: "jpeg quality", value: "\(q)", expected: "an image libjpeg-turbo encodes (\(error))")
      }
    }
    let flatToOut = outToFlat.inverse
    let truth = cardTruth(table, flatToOut: flatToOut)
    return TableRender(image: image, table: table, cards: truth, sets: SetFinder.bruteForce(table.cards.map(\.card)),
                       distractors: distractorTruth(table, flatToOut: flatToOut))
  }

  static func cardTruth(_ table: SetTable, flatToOut: Homography) -> [CardTruth] {
    // Pixel centres sit at +0.5 in the warp, so flat and output share one frame.
    table.cards.map { p in
      let outline = SetTable.cardOutline(p).map { flatToOut.apply($0.0, $0.1) }
      let box = Box(x1: outline.map(\.0).min()!, y1: outline.map(\.1).min()!,
                    x2: outline.map(\.0).max()!, y2: outline.map(\.1).max()!)
        .clipped(width: table.width, height: table.height)
      let corners = SetTable.cardCorners(x: p.x, y: p.y, height: p.heightPx, rotationDeg: p.rotationDeg)
        .map { flatToOut.apply($0.0, $0.1) }
      return CardTruth(card: p.card, box: box.rounded, corners: corners.map { [round2($0.0), round2($0.1)] },
                       rotationDeg: p.rotationDeg)
    }
  }
}

extension TableSynthesizer {
  /// Boxes of the thumbnails and the game box as the camera sees them; those wholly outside the frame are left out.
  static func distractorTruth(_ table: SetTable, flatToOut: Homography) -> [Distractor] {
    func box(_ pts: [(Double, Double)]) -> Box? {
      let out = pts.map { flatToOut.apply($0.0, $0.1) }
      let b = Box(x1: out.map(\.0).min()!, y1: out.map(\.1).min()!, x2: out.map(\.0).max()!, y2: out.map(\.1).max()!)
        .clipped(width: table.width, height: table.height)
      return b.x2 - b.x1 >= 1 && b.y2 - b.y1 >= 1 ? b.rounded : nil
    }
    var list = table.thumbnails.compactMap { p in box(SetTable.cardOutline(p)).map { Distractor(kind: "thumbnail", box: $0) } }
    if let g = table.gameBox {
      let (c, s) = (cos(g.rotationDeg * .pi / 180), sin(g.rotationDeg * .pi / 180))
      let corners = [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map { (u, v) in
        (g.x + u * g.width / 2 * c - v * g.height / 2 * s, g.y + u * g.width / 2 * s + v * g.height / 2 * c)
      }
      if let b = box(corners) { list.append(Distractor(kind: "box", box: b)) }
    }
    return list
  }
}

func round2(_ v: Double) -> Double { (v * 100).rounded() / 100 }

extension Box {
  /// Outward-rounded to 2 decimals, so it still contains what it bounded.
  var rounded: Box {
    Box(x1: (x1 * 100).rounded(.down) / 100, y1: (y1 * 100).rounded(.down) / 100,
        x2: (x2 * 100).rounded(.up) / 100, y2: (y2 * 100).rounded(.up) / 100)
  }
}

extension TableRender {
  /// The truth file: `cards[]` with `box` [x1,y1,x2,y2], `corners`, `number`,
  /// `color`, `shape`, `fill` (English names), `label`; `sets` sorted triples.
  var truthJSON: JSONValue {
    let cardsJSON: [JSONValue] = cards.enumerated().map { i, t in
      var f = t.card.attributeFields
      f["index"] = .int(i)
      f["box"] = .array(t.box.xyxy.map(JSONValue.double))
      f["corners"] = .array(t.corners.map { .array($0.map(JSONValue.double)) })
      f["rotation_deg"] = .double(round2(t.rotationDeg))
      return .object(f)
    }
    let look = table.look
    var fields: [String: JSONValue] = [
      "version": .int(1), "kind": .string("setcards"),
      "seed": .int(Int(truncatingIfNeeded: table.seed)),
      "image": .object(["width": .int(table.width), "height": .int(table.height)]),
      "table": .object([
        "kind": .string(look.table.rawValue), "tilt_deg": .double(round2(look.tiltDeg)),
        "warmth": .double(round2(look.warmth)), "blur": .double(round2(look.blur)),
        "noise": .double(round2(look.noise)),
      ]),
      "cards": .array(cardsJSON),
      "sets": .array(sets.map { .array($0.map(JSONValue.int)) }),
    ]
    // Classic truth files keep their keys; realistic ones say their style and what else is in frame.
    if let r = look.realism {
      fields["style"] = .string(r.style.rawValue)
      fields["distractors"] = .array(distractors.map { .object(["kind": .string($0.kind), "box": .array($0.box.xyxy.map(JSONValue.double))]) })
    }
    return .object(fields)
  }

  /// Canonical text of `truthJSON`.
  public func canonicalTruth() throws(SetCardsError) -> String {
    do { return try truthJSON.canonicalText() } catch { throw .invalid(name: "truth", value: "\(error)", expected: "finite numbers") }
  }
}
