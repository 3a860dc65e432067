import Core
import Foundation

/// The review page's data, exactly what `report.json` holds, so the page,
/// the JUnit file and a merge of shards all come from the same record.
/// Shape: `{"report": "verify", "environment": [[name, version]], "notes": [],
/// "orphans": [], "scenarios": [ReviewScenario]}`.
public struct ReviewReport: Sendable {
  public var environment: [[String]]
  public var notes: [String]
  public var orphans: [String]
  public var scenarios: [ReviewScenario]
  public var passed: Int { scenarios.filter { $0.status != "failed" }.count }
  public var failed: Int { scenarios.count - passed }

  public init(environment: [[String]], notes: [String], orphans: [String], scenarios: [ReviewScenario]) {
    self.environment = environment; self.notes = notes; self.orphans = orphans; self.scenarios = scenarios
  }

  /// The record of a verify run; `accept` gives the command line that accepts one scenario's output.
  public init(_ r: VerifyReport, accept: (String) -> String = { Reports.acceptCommand(file: $0) }) {
    environment = Reports.environment.map { [$0.0, $0.1] }
    notes = r.notes; orphans = r.orphans
    scenarios = r.verdicts.map { v in
      let text = (try? String(contentsOfFile: v.file, encoding: .utf8)).map { String($0.prefix(65_536)) } ?? ""
      return ReviewScenario(
        id: v.id, kind: v.kind, file: v.file, status: v.status, messages: v.messages, truthDeclared: v.truthDeclared,
        seconds: v.seconds, thumb: v.thumb, scenarioText: text, accept: accept(v.file), truth: v.truth, files: v.files,
        reviewImages: v.reviewImages,
        artifacts: v.artifacts.map {
          ReviewArtifact(name: $0.name, status: $0.status, detail: Array($0.detail.prefix(200)), actual: $0.actualFile, golden: $0.goldenFile,
                         diff: $0.diffImage, size: $0.size, changed: $0.changed, summary: $0.summary, rows: $0.rows)
        })
    }
  }

  /// The value `report.json` holds (written with the canonical encoder).
  public var json: JSONValue {
    .object(["report": .string("verify"), "environment": .array(environment.map(strings)), "notes": strings(notes),
             "orphans": strings(orphans), "scenarios": .array(scenarios.map(\.json))])
  }

  /// Reads `report.json`'s value; the error names the key that is wrong.
  public init(json v: JSONValue) throws {
    let o = try Field(v, "report.json")
    environment = try o.array("environment").map { try Field.strings($0, "environment") }
    notes = try o.strings("notes"); orphans = try o.strings("orphans")
    scenarios = try o.array("scenarios").map(ReviewScenario.init(json:))
  }
}

/// One scenario in `report.json`.
public struct ReviewScenario: Sendable {
  /// Status is `passed`, `failed` or `recorded`.
  public var id, kind, file, status: String
  public var messages, truthDeclared: [String]
  public var seconds: Double
  public var thumb: String?
  public var scenarioText, accept: String
  public var truth: [[String]]
  /// Files under the report folder this scenario wrote (relative to it).
  public var files: [String]
  /// Review-only pictures (English Set labels), relative to the scenario folder; failures only.
  public var reviewImages: [String] = []
  public var artifacts: [ReviewArtifact]
  public var truthFailures: [String] { messages.filter { $0.hasPrefix("truth: ") } }

  /// This scenario's object in `report.json`.
  var json: JSONValue {
    .object(["id": .string(id), "kind": .string(kind), "file": .string(file), "status": .string(status), "messages": strings(messages),
             "truth_declared": strings(truthDeclared), "seconds": .double((seconds * 1000).rounded() / 1000), "thumb": thumb.map(JSONValue.string) ?? .null,
             "scenario_text": .string(scenarioText), "accept": .string(accept), "truth": .array(truth.map(strings)),
             "files": strings(files), "review_images": strings(reviewImages), "artifacts": .array(artifacts.map(\.json))])
  }
}

extension ReviewScenario {
  init(json v: JSONValue) throws {
    let o = try Field(v, "scenario")
    id = try o.string("id"); kind = try o.string("kind"); file = try o.string("file"); status = try o.string("status")
    messages = try o.strings("messages"); truthDeclared = try o.strings("truth_declared")
    seconds = try o.number("seconds"); thumb = try o.optionalString("thumb")
    scenarioText = try o.string("scenario_text"); accept = try o.string("accept")
    truth = try o.array("truth").map { try Field.strings($0, "truth") }
    files = try o.strings("files")
    reviewImages = o.o["review_images"] == nil ? [] : try o.strings("review_images")
    artifacts = try o.array("artifacts").map(ReviewArtifact.init(json:))
  }
}

/// One output in `report.json`: file names are relative to the scenario folder.
public struct ReviewArtifact: Sendable {
  public var name, status: String
  public var detail: [String]
  public var actual, golden, diff: String?
  /// Width and height; the padded changed box (x, y, w, h).
  public var size, changed: [Int]?
  public var summary: [String]
  public var rows: [[String]]

  /// This output's object in `report.json`.
  var json: JSONValue {
    func opt(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
    func ints(_ a: [Int]?) -> JSONValue { a.map { .array($0.map(JSONValue.int)) } ?? .null }
    return .object(["name": .string(name), "status": .string(status), "detail": strings(detail), "actual": opt(actual), "golden": opt(golden),
                    "diff": opt(diff), "size": ints(size), "changed": ints(changed), "summary": strings(summary), "rows": .array(rows.map(strings))])
  }

  init(name: String, status: String, detail: [String], actual: String?, golden: String?, diff: String?, size: [Int]?, changed: [Int]?,
       summary: [String], rows: [[String]]) {
    self.name = name; self.status = status; self.detail = detail; self.actual = actual; self.golden = golden; self.diff = diff
    self.size = size; self.changed = changed; self.summary = summary; self.rows = rows
  }

  init(json v: JSONValue) throws {
    let o = try Field(v, "artifact")
    name = try o.string("name"); status = try o.string("status"); detail = try o.strings("detail")
    actual = try o.optionalString("actual"); golden = try o.optionalString("golden"); diff = try o.optionalString("diff")
    size = try o.optionalInts("size"); changed = try o.optionalInts("changed")
    summary = try o.strings("summary"); rows = try o.array("rows").map { try Field.strings($0, "rows") }
  }
}

private func strings(_ a: [String]) -> JSONValue { .array(a.map(JSONValue.string)) }

/// Typed reads from a JSON object, each failure one line naming the key.
struct Field {
  let o: [String: JSONValue]
  let what: String
  init(_ v: JSONValue, _ what: String) throws {
    guard case .object(let o) = v else { throw GoldenError("\(what) is not a JSON object: expected {...}") }
    self.o = o; self.what = what
  }
  func fail(_ k: String, _ expected: String) -> GoldenError { GoldenError("\(what) key '\(k)' is missing or wrong: expected \(expected)") }
  func string(_ k: String) throws -> String {
    guard case .string(let s)? = o[k] else { throw fail(k, "a string") }
    return s
  }
  func optionalString(_ k: String) throws -> String? {
    if o[k] == nil || o[k] == .null { return nil }
    return try string(k)
  }
  func number(_ k: String) throws -> Double {
    switch o[k] {
    case .int(let i)?: return Double(i)
    case .double(let d)?: return d
    default: throw fail(k, "a number")
    }
  }
  func array(_ k: String) throws -> [JSONValue] {
    guard case .array(let a)? = o[k] else { throw fail(k, "an array") }
    return a
  }
  func strings(_ k: String) throws -> [String] { try Field.strings(o[k] ?? .null, "\(what) key '\(k)'") }
  func optionalInts(_ k: String) throws -> [Int]? {
    if o[k] == nil || o[k] == .null { return nil }
    return try array(k).map { v -> Int in
      guard case .int(let i) = v else { throw fail(k, "an array of integers") }
      return i
    }
  }
  static func strings(_ v: JSONValue, _ what: String) throws -> [String] {
    guard case .array(let a) = v else { throw GoldenError("\(what) is not an array: expected strings") }
    return try a.map { x -> String in
      guard case .string(let s) = x else { throw GoldenError("\(what) holds a non-string: expected strings") }
      return s
    }
  }
}
