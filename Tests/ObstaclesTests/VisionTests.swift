import Testing
@testable import Obstacles
@testable import Harness
@testable import Synth

struct VisionTests {
  @Test func prioritySourcesAndFloors() throws {
    let r = try ScenarioFiles.run("vision-priority")
    #expect(r.frames[0].source == .objects && r.frames[0].label == "Dog")
    #expect(r.frames[2].source == .faces && r.frames[2].label == "Person")
    #expect(r.frames[4].source == .classification && r.frames[4].visionBox == .classificationCentre)
    #expect(r.frames[4].visionStatus == ["generic label", "below faces threshold 0.5", "chosen", "generic label"])
  }

  @Test func floorsAreInclusiveInFloat() {
    let o = VisionObservation(source: .objects, label: "chair", confidence: 0.4, box: box(0, 0, 0.1, 0.1))
    #expect(VisionStage.select([o], .float32).choice?.label == "Chair")
    var low = o
    low.confidence = 0.3999
    #expect(VisionStage.select([low], .float32).choice == nil)
  }

  @Test func topDetectionKeepsTheEarlierOnTies() {
    let a = VisionObservation(source: .objects, label: "cat", confidence: 0.7, box: box(0, 0, 0.1, 0.1))
    let b = VisionObservation(source: .objects, label: "dog", confidence: 0.7, box: box(0.5, 0, 0.1, 0.1))
    let c = VisionObservation(source: .objects, label: "horse", confidence: 0.8, box: box(0.8, 0, 0.1, 0.1))
    #expect(VisionStage.select([a, b], .float32).choice?.label == "Cat")
    #expect(VisionStage.select([a, b, c], .float32).choice?.label == "Horse")
  }

  @Test(arguments: [
    ("dining_table", "Dining table"), ("n02084071_dog", "Dog"), ("nightstand", "Nightstand"),
    ("notebook_computer", "Omputer"),
  ])
  func labelCleanupIsTheApps(raw: String, cleaned: String) {
    #expect(VisionStage.cleanup(raw) == cleaned)
  }

  @Test func genericLabels() {
    #expect(VisionStage.isGeneric("Furniture") && VisionStage.isGeneric("cabinet"))
    #expect(VisionStage.isGeneric("unknown_animal") && VisionStage.isGeneric("Unidentified object"))
    #expect(!VisionStage.isGeneric("chair"))
  }
}
