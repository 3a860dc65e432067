import Canvas

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Painter {
  /// Holes first (under everything), then shafts from the farthest nock to the
  /// nearest so crossing shafts occlude each other correctly.
  func paintArrows() {
    for a in scene.arrows {
      let r = a.shaftMM / 2000 * unitsPerMetre
      fillPolygon(circle(cx: a.x, cy: a.y, r: r * 1.45), Color(hex: 0x6E6455, alpha: 0.45))
      fillPolygon(circle(cx: a.x, cy: a.y, r: r), Color(hex: 0x15110D))
    }
    let shafts = scene.arrows.filter { $0.style == .shaft }.map { geometry($0) }
    for s in shafts.sorted(by: { $0.nockDepth > $1.nockDepth }) { paintShaft(s) }
  }

  /// A shaft in camera space: from the impact point out toward the camera.
  struct ShaftGeometry {
    let arrow: Scene.Arrow
    let start: Vec3, dir: Vec3, length: Double, radius: Double
    var nockDepth: Double { (start + dir * length).z }
    func point(_ t: Double) -> Vec3 { start + dir * t }
  }

  func geometry(_ a: Scene.Arrow) -> ShaftGeometry {
    let start = camera.world(u: a.x, v: a.y)
    let dir = camera.direction(a.dir).normalized
    var length = a.lengthM * unitsPerMetre
    // Keep the nock well in front of the camera.
    if dir.z < 0 { length = min(length, 0.6 * start.z / -dir.z) }
    return ShaftGeometry(arrow: a, start: start, dir: dir, length: length, radius: a.shaftMM / 2000 * unitsPerMetre)
  }

  func paintShaft(_ s: ShaftGeometry) {
    let a = s.arrow
    let p0 = camera.pixel(s.start), p1 = camera.pixel(s.point(s.length))
    let w0 = camera.focalPx * s.radius / s.start.z, w1 = camera.focalPx * s.radius / s.point(s.length).z
    let dx = p1.0 - p0.0, dy = p1.1 - p0.1, len = (dx * dx + dy * dy).squareRoot()
    if len > 0.5 {
      let nx = -dy / len, ny = dx / len
      let quad = [(p0.0 + nx * w0, p0.1 + ny * w0), (p1.0 + nx * w1, p1.1 + ny * w1),
                  (p1.0 - nx * w1, p1.1 - ny * w1), (p0.0 - nx * w0, p0.1 - ny * w0)]
      // Cylinder shading across the shaft: dark rims, a highlight off-centre.
      let base = color(a.shaftColor)
      let lit = Color(r: min(1, base.r + 0.35), g: min(1, base.g + 0.35), b: min(1, base.b + 0.35))
      let dark = Color(r: base.r * 0.5, g: base.g * 0.5, b: base.b * 0.5)
      let mx = (p0.0 + p1.0) / 2, my = (p0.1 + p1.1) / 2, mw = (w0 + w1) / 2
      ctx.setLinearGradient(x0: mx - nx * mw, y0: my - ny * mw, x1: mx + nx * mw, y1: my + ny * mw,
                            stops: [(0, dark), (0.35, lit), (0.6, base), (1, dark)])
      ctx.polygon(quad)
      ctx.fill()
    }
    paintFletching(s)
    // Nock: a short coloured cylinder end.
    let nock = s.point(s.length)
    let nr = camera.focalPx * s.radius * 1.15 / nock.z
    ctx.setSource(color(a.nockColor))
    ctx.arc(cx: p1.0, cy: p1.1, radius: max(0.8, nr), from: 0, to: 2 * .pi)
    ctx.fill()
  }

  /// Three vanes near the nock, rolled about the shaft, drawn far side first.
  func paintFletching(_ s: ShaftGeometry) {
    let d = s.dir
    // Two unit vectors perpendicular to the shaft.
    let helper = abs(d.z) < 0.9 ? Vec3(x: 0, y: 0, z: 1) : Vec3(x: 1, y: 0, z: 0)
    let e1 = cross(d, helper).normalized, e2 = cross(d, e1).normalized
    let tA = max(0, s.length - 0.11 * unitsPerMetre), tB = max(0, s.length - 0.025 * unitsPerMetre)
    let height = 0.013 * unitsPerMetre
    var vanes: [(depth: Double, pts: [(Double, Double)])] = []
    for k in 0..<3 {
      let phi = s.arrow.roll + Double(k) * 2 * .pi / 3
      let off = e1 * cos(phi) + e2 * sin(phi)
      let base0 = s.point(tA) + off * s.radius, base1 = s.point(tB) + off * s.radius
      let top0 = s.point(tA + (tB - tA) * 0.35) + off * (s.radius + height)
      let top1 = s.point(tB) + off * (s.radius + height * 0.8)
      let pts = [base0, top0, top1, base1].map { camera.pixel($0) }
      vanes.append(((top0 + top1).z, pts))
    }
    for v in vanes.sorted(by: { $0.depth > $1.depth }) {
      fillPolygon(v.pts, color(s.arrow.fletchColor, 0.92))
      ctx.setSource(Color(hex: 0x000000, alpha: 0.35))
      ctx.setLineWidth(0.8)
      ctx.polygon(v.pts)
      ctx.stroke()
    }
  }

  func cross(_ a: Vec3, _ b: Vec3) -> Vec3 {
    Vec3(x: a.y * b.z - a.z * b.y, y: a.z * b.x - a.x * b.z, z: a.x * b.y - a.y * b.x)
  }
}
