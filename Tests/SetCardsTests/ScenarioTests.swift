import Canvas
import SetCards
@testable import Synth
@testable import Harness
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Scenarios/setcards/, found from this file's path.
let scenarioDir: String = {
  var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
  parts.removeLast(3)
  return parts.joined(separator: "/") + "/Scenarios/setcards"
}()

func scenarioFiles() -> [String] {
  guard let dir = opendir(scenarioDir) else { return [] }
  defer { closedir(dir) }
  var names: [String] = []
  while let entry = readdir(dir) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    if name.hasSuffix(".yaml") { names.append(name) }
  }
  return names.sorted()
}

func readText(_ path: String) throws -> String {
  guard let f = fopen(path, "r") else { throw SetCardsError.file(location: path, message: "cannot open") }
  defer { fclose(f) }
  var bytes: [UInt8] = []
  var buf = [UInt8](repeating: 0, count: 4096)
  while true {
    let n = fread(&buf, 1, buf.count, f)
    if n == 0 { break }
    bytes += buf[0..<n]
  }
  return String(decoding: bytes, as: UTF8.self)
}

@Suite struct ScenarioTests {
  @Test func everyListedCaseHasAFile() {
    let files = Set(scenarioFiles())
    for name in ["zero-sets", "max-14-sets", "merged-2.19", "merged-2.20", "merged-2.21", "merged-upper-median",
                 "merged-two-boxes", "class-confidence-0.799", "class-confidence-0.800", "rotation-0",
                 "rotation-45", "rotation-90", "rotation-180", "touching", "overlapping", "duplicates-two",
                 "duplicates-three", "cards-3", "cards-12", "cards-15", "cards-21"] {
      #expect(files.contains(name + ".yaml"), "missing \(name).yaml")
    }
  }

  @Test func scenarioListIsNotEmpty() {
    #expect(scenarioFiles().count >= 20, "the set-card scenario folder lists \(scenarioFiles().count) files")
  }

  @Test(arguments: scenarioFiles())
  func scenarioMeetsExpectations(file: String) throws {
    let path = scenarioDir + "/" + file
    let scenario = try SetScenarioFile.decode(try readText(path), path: path)
    #expect(scenario.expect != nil, "\(file) has no expectations")
    let outcome = try scenario.run(defaultID: file)
    #expect(outcome.failures.isEmpty, "\(file): \(outcome.failures.joined(separator: "; "))")
  }

  @Test(arguments: [
    ("kind: setcards\nsize: 100x100\ndetections: []\nbogus: 1\n", "s.yaml:4:1", "unknown key 'bogus'"),
    ("kind: archery\ndetections: []\n", "s.yaml:1:1", "kind 'archery' is not a Set scenario"),
    ("kind: setcards\ndetections:\n  - {box: [1, 2, 3], card: \"0000\"}\n", "s.yaml:3:", "box"),
    ("kind: setcards\ndetections:\n  - {box: [0, 0, 9, 9], card: \"0300\"}\n", "s.yaml:3:", "card '0300'"),
    ("kind: setcards\ntable:\n  seed: 1\n  colour: red\noracle: {}\n", "s.yaml:4:3", "unknown key 'table.colour'"),
    ("kind: setcards\ntable:\n  size: big\noracle: {}\n", "s.yaml:3:", "size 'big'"),
    ("kind: setcards\nsize: 100x100\n", "s.yaml:", "neither 'detections' nor 'oracle'"),
    ("kind: setcards\ndetections:\n  - {box: [0, 0, 9, 9], card: \"0000\", logits: [1]}\n", "s.yaml:3:", "exactly one"),
  ])
  func strictDecodingErrors(text: String, location: String, message: String) {
    do {
      _ = try SetScenarioFile.decode(text, path: "s.yaml")
      Issue.record("decoded without error: \(text)")
    } catch {
      #expect(error.description.hasPrefix(location), "\(error.description)")
      #expect(error.description.contains(message), "\(error.description)")
    }
  }
}
