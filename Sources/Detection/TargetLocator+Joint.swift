import Dispatch
import Imaging
import Scoring

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension TargetLocator {
  /// A single-spot fit whose ring agreement is under this is fitted again to
  /// every ring edge at once (`jointRefit`), and the new fit kept when its
  /// agreement is higher. Chosen on the selection photos (`eval archery --seed
  /// 7100000 --images 60`): refitting under 0.1 only, 0.3, 0.5 or every fit moved
  /// realistic scores right 61.1 → 63.1, 64.7, 65.0, 65.0 %; classic stayed at
  /// 85.9 % up to 0.5 and fell to 85.0 % refitting all.
  public static let jointRefitBelow = 0.5

  /// Rays per ring edge the joint fit reads.
  static let jointRays = 120

  /// `fit` refitted as one homography to every ring edge of a single-spot face
  /// at once: edge points are sought along rays of the current map near each
  /// edge's radius, and the map's eight entries moved (Gauss–Newton, outliers
  /// down-weighted: arrows, old holes, numerals) until each point lies at its
  /// edge's radius; three rounds, each from the map the last one left. On a steep
  /// face two concentric ellipses leave the perspective loose, so rings far
  /// from the two fitted ones drift by a third of a ring; all of them at once
  /// do not. Nil when fewer than three edges show or the solve degenerates.
  public static func jointFit(_ image: RGBA8Image, fit: TargetFit, face: Face, lineWidth: Double) -> TargetFit? {
    guard face.spots.count == 1, fit.spots == nil else { return nil }
    let edges = contrastEdges(face, lineWidth: lineWidth)
    let zoneRadii = face.zones.map(\.radius)
    // An edge's close search window: clear of every other zone boundary.
    func close(_ e: (radius: Double, darkerInside: Bool)) -> Double {
      min(0.03, 0.45 * (zoneRadii.map { abs($0 - e.radius) }.filter { $0 > lineWidth }.min() ?? 0.1))
    }
    let s = max(fit.ellipse.a, fit.ellipse.b), tx = fit.centerX, ty = fit.centerY
    guard s > 4 else { return nil }
    var pairs: [(pixel: (Double, Double), face: (Double, Double))] = []
    for i in -2...2 {
      for j in -2...2 {
        let p = fit.pixel(Double(i) * 0.5, Double(j) * 0.5)
        pairs.append((p, fit.normalize(p.0, p.1)))
      }
    }
    guard var map = FaceHomography.through(pairs, tx: tx, ty: ty, s: s) else { return nil }
    var used = 0, median = 0.0
    // First the fill steps alone, each sought far from its ring (a steep face's inner rings sit a tenth
    // of the radius off any affine guess) but short of the next step of its sign; then every edge, close in.
    let fills = contrastEdges(face, lineWidth: lineWidth, fillsOnly: true)
    let wide = fills.map { e in
      let gap = fills.filter { $0.darkerInside == e.darkerInside && $0.radius != e.radius }.map { abs($0.radius - e.radius) }.min() ?? 0.4
      return min(0.15, 0.45 * gap, 0.8 * e.radius)
    }
    // Last the fill steps again, close in: a blurred printed line's step sits a little off its radius.
    let plan = [(fills, wide), (edges, edges.map(close)), (fills, fills.map(close))]
    for (set, win) in plan {
      let points = jointEdgePoints(image, map: map, edges: set, windows: win)
      guard Set(points.map(\.edge)).count >= min(3, set.count) else { return nil }
      guard let refined = gaussNewton(map, points: points.map { ($0.x, $0.y, set[$0.edge].radius) }) else { return nil }
      (map, used, median) = refined
    }
    var out = fit
    out.homography = map
    out.method = "ring-edges-joint"
    out.edgePoints = used
    out.medianResidual = median
    // The outline and its numbers: the outermost ring through the map (a conic, an ellipse on a face in view).
    let rim = (0..<64).map { k -> (Double, Double) in
      let a = Double(k) * 2 * .pi / 64
      return map.pixel(cos(a), sin(a))
    }
    // A rim that reaches the plane's horizon is no face in view.
    guard rim.allSatisfy({ $0.0.isFinite && $0.1.isFinite }), let outline = fitEllipse(rim),
          [outline.cx, outline.cy, outline.a, outline.b, outline.angleDeg].allSatisfy(\.isFinite), outline.a > 0, outline.b > 0
    else { return nil }
    out.ellipse = outline
    return out
  }

  /// Each edge's strongest step of the expected sign along `jointRays` rays of
  /// `map`, within its window, sub-pixel by a parabola; rays leaving the image are skipped.
  static func jointEdgePoints(_ img: RGBA8Image, map: FaceHomography, edges: [(radius: Double, darkerInside: Bool)],
                              windows: [Double]) -> [(x: Double, y: Double, edge: Int)] {
    var out: [(x: Double, y: Double, edge: Int)] = []
    let steps = 24
    var profile = [Double](repeating: 0, count: steps + 1)
    let w = Double(img.width), h = Double(img.height)
    for (k, e) in edges.enumerated() {
      let r0 = e.radius - windows[k], r1 = e.radius + windows[k]
      rays: for ray in 0..<jointRays {
        let t = Double(ray) * 2 * .pi / Double(jointRays), c = cos(t), sn = sin(t)
        // Pixels between neighbouring samples on this ray, for the step threshold and the sampler.
        let first = map.pixel(r0 * c, r0 * sn), last = map.pixel(r1 * c, r1 * sn)
        let spacing = hypot(last.0 - first.0, last.1 - first.1) / Double(steps)
        guard spacing > 0 else { continue }
        for i in 0...steps {
          let r = r0 + (r1 - r0) * Double(i) / Double(steps)
          let p = map.pixel(r * c, r * sn)
          guard p.0 >= 0, p.1 >= 0, p.0 < w, p.1 < h else { continue rays }
          profile[i] = rayLuma(img, centre: p, at: r, step: (r1 - r0) / Double(steps), spacing: spacing) { q in map.pixel(q * c, q * sn) }
        }
        let sign = e.darkerInside ? 1.0 : -1.0
        var best = -1, bestG = stepThreshold(spacing: spacing)
        for i in 1..<steps {
          let g = (profile[i + 1] - profile[i - 1]) * sign
          if g > bestG { bestG = g; best = i }
        }
        // A step at the window's end is the next boundary's, not this one's.
        guard best > 1, best < steps - 1 else { continue }
        let gl = (profile[best] - profile[best - 2]) * sign, gr = (profile[best + 2] - profile[best]) * sign
        let denom = gl - 2 * bestG + gr
        let shift = abs(denom) > 1e-9 ? max(-0.5, min(0.5, 0.5 * (gl - gr) / denom)) : 0
        let r = r0 + (r1 - r0) * (Double(best) + shift) / Double(steps)
        let p = map.pixel(r * c, r * sn)
        out.append((p.0, p.1, k))
      }
    }
    return out
  }

  /// Moves `start`'s entries so that each point (pixel x, y) maps to its radius:
  /// Gauss–Newton on the radial residuals, each weighted down beyond 1.5 median
  /// residuals (Huber) and dropped beyond six. Returns the map, the points kept
  /// and their median residual (face units); nil when the solve degenerates.
  static func gaussNewton(_ start: FaceHomography, points: [(Double, Double, Double)]) -> (FaceHomography, Int, Double)? {
    var map = start
    var kept = 0, median = 0.0
    for _ in 0..<12 {
      let residuals = points.map { p -> Double in
        let f = map.face(p.0, p.1)
        return hypot(f.0, f.1) - p.2
      }
      median = residuals.map(abs).sorted()[residuals.count / 2]
      let c = max(1.5 * median, 0.002), cut = 6 * max(median, 0.002)
      var ata = [Double](repeating: 0, count: 64), atb = [Double](repeating: 0, count: 8)
      kept = 0
      for (p, res) in zip(points, residuals) where abs(res) <= cut {
        let u = (p.0 - map.tx) / map.s, v = (p.1 - map.ty) / map.s
        let d = map.h[6] * u + map.h[7] * v + 1
        let X = (map.h[0] * u + map.h[1] * v + map.h[2]) / d, Y = (map.h[3] * u + map.h[4] * v + map.h[5]) / d
        let rho = hypot(X, Y)
        guard rho > 1e-9, abs(d) > 1e-9 else { continue }
        let gx = X / rho / d, gy = Y / rho / d
        let row = [gx * u, gx * v, gx, gy * u, gy * v, gy, -rho * u / d, -rho * v / d]
        FaceHomography.accumulate(row, -res, weight: abs(res) <= c ? 1 : c / abs(res), ata: &ata, atb: &atb)
        kept += 1
      }
      guard kept >= 16 else { return nil }
      // Turning the face in its plane leaves every radius alone: damping keeps that flat direction
      // from running away, and each step's turn is taken out again.
      var trace = 0.0
      for i in 0..<8 { trace += ata[i * 8 + i] }
      let damping: Double = 1e-8 * trace / 8
      for i in 0..<8 { ata[i * 8 + i] += damping }
      guard let step = FaceHomography.solveSystem(ata, atb),
            let next = FaceHomography(tx: map.tx, ty: map.ty, s: map.s, h: zip(map.h, step).map { $0 + $1 })?.unrotated()
      else { return nil }
      map = next
      if step.map(abs).max() ?? 0 < 1e-10 { break }
    }
    return (map, kept, median)
  }
}

extension TargetLocator {
  /// The joint fit (`jointFit`) from several starts, the one whose rings the
  /// picture bears out best (`ringAgreement`, then the smaller median residual):
  /// `fit` itself, its affine ellipse without perspective, and the perspective
  /// of every pair of ring edges `rectify` tries, consistent or not. One noisy
  /// inner ring can tip a two-ring rectification the wrong way on a steep face;
  /// the joint fit's windows cannot reach back from there, a better start can.
  /// Nil when no start gives a joint fit.
  /// `spacing`: the ring spacing the agreement is read at (`ringAgreement`).
  /// `threads`: starts are fitted on up to this many threads; each start's fit
  /// is the same on any, and the choice among them is made in order after.
  public static func jointRefit(_ image: RGBA8Image, fit: TargetFit, face: Face, lineWidth: Double,
                                spacing: Double = 12, threads: Int = 1) -> (fit: TargetFit, agreement: Double?)? {
    guard face.spots.count == 1, fit.spots == nil else { return nil }
    var affine = fit
    affine.rectification = nil; affine.rectifiedRing = nil; affine.ringRadius = 1; affine.homography = nil
    let starts = [fit, affine] + perspectiveStarts(image, fit: affine, edges: contrastEdges(face, lineWidth: lineWidth))
    var fitted = [(fit: TargetFit, agreement: Double?)?](repeating: nil, count: starts.count)
    let workers = max(1, min(threads, starts.count))
    fitted.withUnsafeMutableBufferPointer { buffer in
      let slots = JointSlots(buffer: buffer)
      DispatchQueue.concurrentPerform(iterations: workers) { worker in
        for i in stride(from: worker, to: starts.count, by: workers) {
          guard let joint = jointFit(image, fit: starts[i], face: face, lineWidth: lineWidth) else { continue }
          slots.buffer[i] = (joint, ringAgreement(image, fit: joint, face: face, spacing: spacing))
        }
      }
    }
    var best: (fit: TargetFit, agreement: Double?)?
    for case let (joint, agreement)? in fitted {
      if let b = best {
        let (x, y) = (agreement ?? 0, b.agreement ?? 0)
        guard x > y || (x == y && joint.medianResidual < b.fit.medianResidual) else { continue }
      }
      best = (joint, agreement)
    }
    return best
  }

  /// `fit` rectified by each pair of ring edges (the two strongest against every
  /// other at least 0.15 of the radius away), without `rectify`'s consistency test.
  static func perspectiveStarts(_ image: RGBA8Image, fit: TargetFit, edges: [(radius: Double, darkerInside: Bool)]) -> [TargetFit] {
    let fitted = edges.map { e in
      robustFit(edgePoints(image, around: fit.ellipse, radius: e.radius, darkerInside: e.darkerInside, window: 0.06))
    }
    var out: [TargetFit] = []
    for i in edges.indices.prefix(2) {
      guard let ea = fitted[i] else { continue }
      for j in edges.indices where j != i && abs(edges[j].radius - edges[i].radius) >= 0.15 {
        guard let eb = fitted[j], let (rect, ring) = rectified(ea, by: eb.0) else { continue }
        var f = fit
        f.ellipse = ea.0.scaled(1 / edges[i].radius)
        f.rectification = rect
        f.rectifiedRing = ring
        f.ringRadius = edges[i].radius
        out.append(f)
      }
    }
    return out
  }
}

/// The joint refit's result slots, handed to its workers: each writes the slots
/// of its own starts only.
private struct JointSlots: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<(fit: TargetFit, agreement: Double?)?>
}
