@testable import Synth

/// A scene with every realism effect off, so pixel colours are exactly the
/// face's paint away from edges.
func cleanSpec(face: String = "10_zone", tilt: Double = 0, size: Int = 400) -> SceneSpec {
  var s = SceneSpec(face: face, seed: 11, size: ImageSize(width: size, height: size))
  s.camera.center = [Double(size) / 2, Double(size) / 2]
  s.camera.radius = Double(size) * 0.4
  s.camera.rotationDeg = 0
  s.camera.tiltDeg = tilt
  s.camera.tiltAxisDeg = 30
  s.camera.focalPx = Double(size) * 2.5
  s.scene.background = .plain
  s.scene.boss = .foam
  s.scene.lighting = 0
  s.scene.vignette = 0
  s.scene.whiteBalance = .neutral
  s.scene.blur = 0
  s.scene.noise = 0
  s.scene.jpeg = 0
  s.scene.oldHoles = 0
  s.scene.tornCentre = false
  s.arrows = []
  return s
}
