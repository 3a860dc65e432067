import Canvas
import Core

/// A rendered scene and what is really in it.
public struct SynthResult: Sendable {
  public let image: RGBA8Image
  public let truth: GroundTruth
}

/// The Synth stage's entry point: a scene spec in, a photo-like image and its
/// ground truth out. Same spec → byte-identical pixels.
public enum Synthesizer {
  /// Resolves and renders a spec.
  public static func render(_ spec: SceneSpec) throws(SynthError) -> SynthResult {
    try render(Scene.resolve(spec))
  }

  /// The truth of a spec without drawing it: the arrows' pixels and scores, cheap
  /// enough to lay out every scenario's overlay labels in a test.
  package static func truth(_ spec: SceneSpec) throws(SynthError) -> GroundTruth {
    GroundTruth(scene: try Scene.resolve(spec))
  }

  /// Renders a resolved scene: cairo draws the geometry, then the photo kernels
  /// add light, blur, compression artefacts and sensor noise.
  static func render(_ scene: Scene) throws(SynthError) -> SynthResult {
    let w = scene.camera.width, h = scene.camera.height
    var root = SeededGenerator(seed: scene.seed)
    _ = root.fork("camera"); _ = root.fork("look"); _ = root.fork("arrows")
    var paintRNG = root.fork("paint")
    var noiseRNG = root.fork("noise")
    // The drawing, the float copy and the result are each the image's size: the
    // drawing is dropped once copied, so at most two are alive at a time.
    var rgb: [Float]
    do {
      let surface = try Surface(width: w, height: h)
      let ctx = try Context(surface)
      Painter(scene: scene, ctx: ctx).paint(&paintRNG)
      try ctx.check()
      let drawn = surface.image()
      rgb = [Float](repeating: 0, count: w * h * 3)
      for i in 0..<(w * h) {
        rgb[i * 3] = Float(drawn.pixels[i * 4])
        rgb[i * 3 + 1] = Float(drawn.pixels[i * 4 + 1])
        rgb[i * 3 + 2] = Float(drawn.pixels[i * 4 + 2])
      }
    } catch { throw .canvas(error) }
    let look = scene.look
    let gains: (Float, Float, Float) = switch look.whiteBalance {
    case .neutral: (1, 1, 1)
    case .warm: (1.06, 1.0, 0.88)
    case .cool: (0.92, 0.99, 1.08)
    }
    applyLighting(&rgb, width: w, height: h, gains: gains, amount: look.lighting,
                  angleDeg: look.lightingAngleDeg, vignette: look.vignette)
    if let real = scene.realistic { overcast(&rgb, contrast: real.contrast, saturation: real.saturation) }
    gaussianBlur(&rgb, width: w, height: h, sigma: look.blur)
    jpegArtefacts(&rgb, width: w, height: h, strength: look.jpeg)
    addNoise(&rgb, sigma: look.noise, rng: &noiseRNG)

    var out = [UInt8](repeating: 255, count: w * h * 4)
    for i in 0..<(w * h) {
      for c in 0..<3 { out[i * 4 + c] = UInt8(min(255, max(0, rgb[i * 3 + c].rounded()))) }
    }
    do {
      return SynthResult(image: try RGBA8Image(width: w, height: h, pixels: out), truth: GroundTruth(scene: scene))
    } catch { throw .canvas(error) }
  }
}

/// Overcast light: every pixel pulled towards its own grey by `1 − saturation`,
/// then towards mid-grey by `1 − contrast`.
func overcast(_ rgb: inout [Float], contrast: Double, saturation: Double) {
  let c = Float(contrast), s = Float(saturation)
  for i in stride(from: 0, to: rgb.count, by: 3) {
    let grey = 0.299 * rgb[i] + 0.587 * rgb[i + 1] + 0.114 * rgb[i + 2]
    for k in 0..<3 {
      let v = grey + (rgb[i + k] - grey) * s
      rgb[i + k] = 128 + (v - 128) * c
    }
  }
}
