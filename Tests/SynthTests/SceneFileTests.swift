import Testing
@testable import Synth

struct SceneFileTests {
  @Test func decodesAFullFile() throws {
    let yaml = """
      id: demo
      face: 10_zone
      seed: 3
      size: 640x480
      camera: {center: [320, 240], radius: 150, tilt_deg: 10}
      scene: {background: straw, noise: 0}
      arrows:
        - {x: 0, y: 0.05, style: shaft, shaft_mm: 5.5}
        - {x: 0.3, y: 0}
      """
    let s = try SceneFile.decode(yaml, path: "demo.yaml")
    #expect(s.id == "demo" && s.size == ImageSize(width: 640, height: 480) && s.arrows?.count == 2)
    #expect(s.camera.tiltDeg == 10 && s.scene.background == .straw && s.arrows?[0].shaftMM == 5.5)
  }

  @Test func unknownKeyIsNamedWithLineAndColumn() {
    let yaml = "face: 10_zone\ncamera:\n  radius: 100\n  tilt: 5\n"
    #expect {
      try SceneFile.decode(yaml, path: "x.yaml")
    } throws: { e in
      "\(e)".hasPrefix("x.yaml:4:3: unknown key 'camera.tilt'")
    }
  }

  @Test func wrongTypeAndBadSizeAreErrors() {
    #expect {
      try SceneFile.decode("face: 10_zone\nseed: seven\n", path: "y.yaml")
    } throws: { e in "\(e)".hasPrefix("y.yaml:2:") && "\(e)".contains("'seed'") }
    #expect {
      try SceneFile.decode("face: 10_zone\nsize: 10by10\n", path: "z.yaml")
    } throws: { e in "\(e)".contains("size '10by10' is not WIDTHxHEIGHT") }
    #expect(throws: SynthError.self) { try SceneFile.decode("face: [unclosed\n", path: "w.yaml") }
    #expect(throws: SynthError.self) { try SceneFile.decode("kind: setcards\nface: 10_zone\n", path: "k.yaml") }
  }
}
