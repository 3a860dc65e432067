import Canvas
import Testing
@testable import Obstacles
@testable import Harness
@testable import Synth
@testable import Overlays

struct RenderTests {
  static func personScene(seed: UInt64) -> ObstacleScene {
    ObstacleScene(seed: seed, width: 320, height: 240, objects: [[
      DrawnObject(kind: .person, box: box(0.1, 0.2, 0.25, 0.7)),
      DrawnObject(kind: .door, box: box(0.45, 0.15, 0.2, 0.55)),
      DrawnObject(kind: .chair, box: box(0.7, 0.5, 0.15, 0.3)),
      DrawnObject(kind: .dog, box: box(0.55, 0.75, 0.2, 0.15)),
    ]])
  }

  @Test func sameScenarioSamePixels() throws {
    let s = Self.personScene(seed: 5)
    let a = try ObstacleRenderer.render(s, frame: 0), b = try ObstacleRenderer.render(s, frame: 0)
    #expect(a.pixels == b.pixels && a.width == 320 && a.height == 240)
    let other = try ObstacleRenderer.render(Self.personScene(seed: 6), frame: 0)
    #expect(other.pixels != a.pixels, "the seed should change background and lighting")
  }

  @Test func silhouettesAreDarkOnTheRoom() throws {
    let image = try ObstacleRenderer.render(Self.personScene(seed: 5), frame: 0)
    func luma(_ x: Double, _ y: Double) -> Int {
      let i = (Int(y * 240) * 320 + Int(x * 320)) * 4
      return (Int(image.pixels[i]) * 3 + Int(image.pixels[i + 1]) * 6 + Int(image.pixels[i + 2])) / 10
    }
    let torso = luma(0.225, 0.45), wall = luma(0.9, 0.1)
    #expect(torso + 60 < wall, "torso \(torso) vs wall \(wall)")
    #expect(image.pixels[3] == 255)  // opaque
  }

  @Test func overlayIsDeterministicAndDrawsOnTheFrame() throws {
    let r = try ScenarioFiles.run("nms-batsight-order")
    let base = try ObstacleRenderer.render(r.scenario.scene, frame: 0)
    let names = r.frames[0].detections.yolo.map { ObstacleOverlay.className($0, drawn: r.scenario.scene.objects[0]) }
    let facts = ObstacleOverlay.legendFacts(r.frames[0], nil)
    let a = try ObstacleOverlay.draw(r.frames[0], on: base, names: names, facts: facts)
    let b = try ObstacleRenderer.overlay(r.scenario.scene, r.run, frame: 0)
    #expect(a.pixels == b.pixels)
    #expect(a.height > base.height && Array(a.pixels.prefix(base.pixels.count)) != base.pixels)
    #expect(!names.contains { $0.hasPrefix("YOLO") })
  }

  @Test func everyKindDrawsSomething() throws {
    for kind in ObjectKind.allCases {
      let s = ObstacleScene(seed: 7, width: 64, height: 64, objects: [[DrawnObject(kind: kind, box: box(0.25, 0.25, 0.5, 0.5))]])
      let empty = try ObstacleRenderer.render(ObstacleScene(seed: 7, width: 64, height: 64, objects: [[]]), frame: 0)
      #expect(try ObstacleRenderer.render(s, frame: 0).pixels != empty.pixels, "\(kind)")
    }
  }

  @Test func frameIndexOutOfRangeIsAnError() {
    #expect(throws: ObstacleError.self) { try ObstacleRenderer.render(Self.personScene(seed: 1), frame: 3) }
  }
}
