#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A 3-vector in camera space: x right, y down, z away from the camera.
struct Vec3: Sendable, Hashable {
  var x: Double, y: Double, z: Double
  static func + (a: Vec3, b: Vec3) -> Vec3 { Vec3(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z) }
  static func * (a: Vec3, s: Double) -> Vec3 { Vec3(x: a.x * s, y: a.y * s, z: a.z * s) }
  var length: Double { (x * x + y * y + z * z).squareRoot() }
  var normalized: Vec3 { self * (1 / length) }
}

/// A pinhole camera looking at the face plane.
///
/// Shape: face point (u, v) in face units (x right, y down) →
/// world `C + R·(u, v, 0)` → pixel `(f·X/Z + W/2, f·Y/Z + H/2)`.
/// The homography `H = K [r1 r2 C]` maps (u, v, 1) straight to pixels.
public struct Camera: Sendable, Hashable {
  /// Image size in pixels.
  public let width: Int, height: Int
  /// Focal length in pixels.
  let focalPx: Double
  /// Rows of R (face-to-camera rotation) and C (face centre in camera space).
  let r: [Double]  // 3×3 row-major
  let c: Vec3

  /// Builds the camera so that the face centre lands on `center` and an
  /// untilted face's outer ring has radius `radiusPx`; `rotationDeg` turns the
  /// face in its plane, `tiltDeg` turns it out of plane about an in-image axis
  /// at `tiltAxisDeg`.
  init(width: Int, height: Int, centerX: Double, centerY: Double, radiusPx: Double,
              rotationDeg: Double, tiltDeg: Double, tiltAxisDeg: Double, focalPx: Double) {
    self.width = width; self.height = height; self.focalPx = focalPx
    let z0 = focalPx / radiusPx
    c = Vec3(x: (centerX - Double(width) / 2) / focalPx * z0,
             y: (centerY - Double(height) / 2) / focalPx * z0, z: z0)
    let rot = Camera.rotationZ(rotationDeg * .pi / 180)
    let axis = Vec3(x: cos(tiltAxisDeg * .pi / 180), y: sin(tiltAxisDeg * .pi / 180), z: 0)
    let tilt = Camera.rotation(axis: axis, angle: tiltDeg * .pi / 180)
    r = Camera.multiply(tilt, rot)
  }

  /// The 3×3 homography (row-major) from face units to pixels.
  var homography: [Double] {
    let f = focalPx, px = Double(width) / 2, py = Double(height) / 2
    // K · [r1 r2 C]
    let cols = [Vec3(x: r[0], y: r[3], z: r[6]), Vec3(x: r[1], y: r[4], z: r[7]), c]
    var h = [Double](repeating: 0, count: 9)
    for (j, v) in cols.enumerated() {
      h[j] = f * v.x + px * v.z
      h[3 + j] = f * v.y + py * v.z
      h[6 + j] = v.z
    }
    return h
  }

  /// Face point → camera space.
  func world(u: Double, v: Double) -> Vec3 {
    Vec3(x: c.x + r[0] * u + r[1] * v, y: c.y + r[3] * u + r[4] * v, z: c.z + r[6] * u + r[7] * v)
  }

  /// A direction given in face-local axes (z toward the back of the face) → camera space.
  func direction(_ d: Vec3) -> Vec3 {
    Vec3(x: r[0] * d.x + r[1] * d.y + r[2] * d.z,
         y: r[3] * d.x + r[4] * d.y + r[5] * d.z,
         z: r[6] * d.x + r[7] * d.y + r[8] * d.z)
  }

  /// Camera space → pixel.
  func pixel(_ p: Vec3) -> (Double, Double) {
    (focalPx * p.x / p.z + Double(width) / 2, focalPx * p.y / p.z + Double(height) / 2)
  }

  /// Face point → pixel.
  func project(u: Double, v: Double) -> (x: Double, y: Double) {
    let p = pixel(world(u: u, v: v))
    return (p.0, p.1)
  }

  /// `n` points of the circle of radius `r` about (cx, cy) on the face, projected.
  public func projectCircle(cx: Double, cy: Double, r: Double, points n: Int) -> [(Double, Double)] {
    (0..<n).map { i in
      let t = Double(i) / Double(n) * 2 * .pi
      let p = project(u: cx + r * cos(t), v: cy + r * sin(t))
      return (p.x, p.y)
    }
  }

  /// Local scale at a face point: pixels per face unit (geometric mean of the
  /// two directions), for line widths and hole sizes.
  func pixelsPerUnit(u: Double, v: Double) -> Double {
    let e = 1e-3
    let p0 = project(u: u, v: v), px = project(u: u + e, v: v), py = project(u: u, v: v + e)
    let a = hypot(px.x - p0.x, px.y - p0.y) / e, b = hypot(py.x - p0.x, py.y - p0.y) / e
    return (a * b).squareRoot()
  }

  static func rotationZ(_ a: Double) -> [Double] {
    [cos(a), -sin(a), 0, sin(a), cos(a), 0, 0, 0, 1]
  }

  /// Rodrigues' rotation about a unit axis.
  static func rotation(axis k: Vec3, angle t: Double) -> [Double] {
    let c = cos(t), s = sin(t), v = 1 - c
    return [
      c + k.x * k.x * v, k.x * k.y * v - k.z * s, k.x * k.z * v + k.y * s,
      k.y * k.x * v + k.z * s, c + k.y * k.y * v, k.y * k.z * v - k.x * s,
      k.z * k.x * v - k.y * s, k.z * k.y * v + k.x * s, c + k.z * k.z * v,
    ]
  }

  static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
    var m = [Double](repeating: 0, count: 9)
    for i in 0..<3 { for j in 0..<3 { for k in 0..<3 { m[i * 3 + j] += a[i * 3 + k] * b[k * 3 + j] } } }
    return m
  }
}

/// An ellipse in pixels: the image of a circle on the tilted face.
public struct Ellipse: Sendable, Hashable {
  public let centerX: Double, centerY: Double
  /// Semi-axes, major first.
  public let semiMajor: Double, semiMinor: Double
  /// Direction of the major axis, degrees from +x toward +y.
  public let angleDeg: Double

  /// The image under `h` (row-major 3×3) of the circle of `radius` about (cx, cy) in face units.
  /// Shape: conic Q = H⁻ᵀ C H⁻¹ with C the circle's conic matrix.
  static func image(of h: [Double], cx: Double = 0, cy: Double = 0, radius: Double = 1) -> Ellipse? {
    guard let hi = invert3(h) else { return nil }
    let circle = [1, 0, -cx, 0, 1, -cy, -cx, -cy, cx * cx + cy * cy - radius * radius]
    let hit = transpose3(hi)
    let q = Camera.multiply(Camera.multiply(hit, circle), hi)
    let a = q[0], b = q[1], c = q[4], d = q[2], e = q[5], f = q[8]
    let det = a * c - b * b
    guard det != 0 else { return nil }
    let x0 = (b * e - c * d) / det, y0 = (b * d - a * e) / det
    let f0 = f + d * x0 + e * y0
    // Eigenvalues of [[a, b], [b, c]].
    let mean = (a + c) / 2, diff = ((a - c) * (a - c) / 4 + b * b).squareRoot()
    let l1 = mean - diff, l2 = mean + diff
    guard -f0 / l1 > 0, -f0 / l2 > 0 else { return nil }
    let major = (-f0 / l1).squareRoot(), minor = (-f0 / l2).squareRoot()
    let angle = (b == 0 && a <= c) ? 0 : atan2(l1 - a, b) * 180 / .pi
    return Ellipse(centerX: x0, centerY: y0, semiMajor: major, semiMinor: minor,
                   angleDeg: angle < 0 ? angle + 180 : (angle >= 180 ? angle - 180 : angle))
  }

  static func transpose3(_ m: [Double]) -> [Double] { [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]] }

  static func invert3(_ m: [Double]) -> [Double]? {
    let c00 = m[4] * m[8] - m[5] * m[7], c01 = m[5] * m[6] - m[3] * m[8], c02 = m[3] * m[7] - m[4] * m[6]
    let det = m[0] * c00 + m[1] * c01 + m[2] * c02
    guard det != 0, det.isFinite else { return nil }
    let inv = 1 / det
    return [
      c00 * inv, (m[2] * m[7] - m[1] * m[8]) * inv, (m[1] * m[5] - m[2] * m[4]) * inv,
      c01 * inv, (m[0] * m[8] - m[2] * m[6]) * inv, (m[2] * m[3] - m[0] * m[5]) * inv,
      c02 * inv, (m[1] * m[6] - m[0] * m[7]) * inv, (m[0] * m[4] - m[1] * m[3]) * inv,
    ]
  }
}
