#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A shaft in camera space: from the impact point out toward the camera.
struct ShaftGeometry {
  let index: Int
  let arrow: Scene.Arrow
  let start: Vec3, dir: Vec3, length: Double, radius: Double
  var nockDepth: Double { (start + dir * length).z }
  func point(_ t: Double) -> Vec3 { start + dir * t }
}

/// A shaft's outline in pixels: a quad from the entry point (half-width `w0`)
/// to the nock (`w1`), `(nx, ny)` the unit normal across it.
struct ShaftSilhouette {
  let p0: (Double, Double), p1: (Double, Double)
  let w0: Double, w1: Double
  let nx: Double, ny: Double
  var quad: [(Double, Double)] {
    [(p0.0 + nx * w0, p0.1 + ny * w0), (p1.0 + nx * w1, p1.1 + ny * w1),
     (p1.0 - nx * w1, p1.1 - ny * w1), (p0.0 - nx * w0, p0.1 - ny * w0)]
  }
}

/// One fletching vane as painted: its outline in pixels and its depth (far first).
struct Vane {
  let depth: Double
  let pixels: [(Double, Double)]
}

extension Scene {
  /// Face units per metre on the sheet.
  var unitsPerMetre: Double { face.spots[0].radius * 1000 / face.spotRadiusMM(diameterCm: diameterCm) }

  /// Every shafted arrow's geometry in painting order: farthest nock first, so
  /// nearer shafts occlude farther ones.
  var shaftsInPaintOrder: [ShaftGeometry] {
    arrows.indices.filter { arrows[$0].style == .shaft }.map { shaftGeometry($0) }.sorted { $0.nockDepth > $1.nockDepth }
  }

  func shaftGeometry(_ i: Int) -> ShaftGeometry {
    let a = arrows[i]
    let start = camera.world(u: a.x, v: a.y)
    let dir = camera.direction(a.dir).normalized
    var length = a.lengthM * unitsPerMetre
    // Keep the nock well in front of the camera.
    if dir.z < 0 { length = min(length, 0.6 * start.z / -dir.z) }
    return ShaftGeometry(index: i, arrow: a, start: start, dir: dir, length: length, radius: a.shaftMM / 2000 * unitsPerMetre)
  }

  /// The shaft's silhouette in pixels: entry and nock ends with their
  /// perspective half-widths and the unit normal across the shaft; nil when
  /// seen end-on (under half a pixel long).
  func silhouette(_ s: ShaftGeometry) -> ShaftSilhouette? {
    let p0 = camera.pixel(s.start), p1 = camera.pixel(s.point(s.length))
    let w0 = camera.focalPx * s.radius / s.start.z, w1 = camera.focalPx * s.radius / s.point(s.length).z
    let dx = p1.0 - p0.0, dy = p1.1 - p0.1, len = (dx * dx + dy * dy).squareRoot()
    guard len > 0.5 else { return nil }
    return ShaftSilhouette(p0: p0, p1: p1, w0: w0, w1: w1, nx: -dy / len, ny: dx / len)
  }

  /// Three vanes near the nock, rolled about the shaft, far side first.
  func vanes(_ s: ShaftGeometry) -> [Vane] {
    let d = s.dir
    // Two unit vectors perpendicular to the shaft.
    let helper = abs(d.z) < 0.9 ? Vec3(x: 0, y: 0, z: 1) : Vec3(x: 1, y: 0, z: 0)
    let e1 = cross(d, helper).normalized, e2 = cross(d, e1).normalized
    let tA = max(0, s.length - 0.11 * unitsPerMetre), tB = max(0, s.length - 0.025 * unitsPerMetre)
    let height = 0.013 * unitsPerMetre
    var out: [Vane] = []
    for k in 0..<3 {
      let phi = s.arrow.roll + Double(k) * 2 * .pi / 3
      let off = e1 * cos(phi) + e2 * sin(phi)
      let base0 = s.point(tA) + off * s.radius, base1 = s.point(tB) + off * s.radius
      let top0 = s.point(tA + (tB - tA) * 0.35) + off * (s.radius + height)
      let top1 = s.point(tB) + off * (s.radius + height * 0.8)
      out.append(Vane(depth: (top0 + top1).z, pixels: [base0, top0, top1, base1].map { camera.pixel($0) }))
    }
    return out.sorted { $0.depth > $1.depth }
  }

  /// The nock's disc in pixels: centre and radius.
  func nockDisc(_ s: ShaftGeometry) -> (x: Double, y: Double, r: Double) {
    let nock = s.point(s.length), p = camera.pixel(nock)
    return (p.0, p.1, max(0.8, camera.focalPx * s.radius * 1.15 / nock.z))
  }

  /// For every arrow, whether its entry point is painted over: by a shaft,
  /// vane or nock drawn after its own shaft (or after the holes, for a hole),
  /// its own vanes and nock included (an arrow seen end-on hides its entry
  /// behind them).
  func hiddenEntries() -> [Bool] {
    let order = shaftsInPaintOrder
    let quads = order.map { silhouette($0)?.quad ?? [] }
    let vanes = order.map { self.vanes($0) }
    let nocks = order.map { nockDisc($0) }
    return arrows.indices.map { i in
      let p = camera.project(u: arrows[i].x, v: arrows[i].y)
      let from = order.firstIndex { $0.index == i } ?? 0
      return order.indices.dropFirst(from).contains { k in
        (order[k].index != i && contains(quads[k], p.x, p.y))
          || vanes[k].contains { contains($0.pixels, p.x, p.y) }
          || (p.x - nocks[k].x) * (p.x - nocks[k].x) + (p.y - nocks[k].y) * (p.y - nocks[k].y) <= nocks[k].r * nocks[k].r
      }
    }
  }

  func cross(_ a: Vec3, _ b: Vec3) -> Vec3 {
    Vec3(x: a.y * b.z - a.z * b.y, y: a.z * b.x - a.x * b.z, z: a.x * b.y - a.y * b.x)
  }

  /// Even-odd point-in-polygon test.
  func contains(_ poly: [(Double, Double)], _ x: Double, _ y: Double) -> Bool {
    var inside = false
    var j = poly.count - 1
    for k in poly.indices {
      let (xi, yi) = poly[k], (xj, yj) = poly[j]
      if (yi > y) != (yj > y), x < (xj - xi) * (y - yi) / (yj - yi) + xi { inside.toggle() }
      j = k
    }
    return inside
  }
}
