import Canvas
import Core
import Dispatch
import Foundation

/// What `verify` does with goldens.
public enum GoldenMode: String, Sendable, CaseIterable {
  /// Compare only (the default, and forced whenever CI is set).
  case verify
  /// Write goldens that do not exist yet; compare the rest.
  case recordMissing = "record-missing"
  /// Rewrite goldens that are missing or fail; leave passing ones untouched.
  case updateFailed = "update-failed"
  /// Rewrite every golden whose bytes changed.
  case updateAll = "update-all"
}

/// One `verify` invocation.
public struct VerifyOptions: Sendable {
  public var inputs: [String] = ["Scenarios"]
  public var scenarioRoot = "Scenarios"
  public var goldenRoot = "Golden"
  public var reportDir = "Renders"
  public var mode: GoldenMode = .verify
  public var filter: String?
  public var shard: (k: Int, n: Int)?
  public var jobs = 1
  /// Threads each scenario's models run on (default: the available CPUs shared among `jobs`).
  public var threads = ProcessorCount.available
  public var prune = false
  /// True when the environment's CI variable is set (and not false/0/empty).
  public var ci = false
  public init() {}
}

/// One artifact's comparison.
struct ArtifactVerdict: Sendable {
  let name: String
  /// `same`, `differs`, `missing`, `written`, `stale`.
  let status: String
  let detail: [String]
  let diffImage: String?
  /// Image size and the padded box of changed pixels (x, y, w, h), for the zoomed crop.
  var size: [Int]? = nil
  var changed: [Int]? = nil
  /// The change in archery terms (archery result JSON only).
  var summary: [String] = []
  /// Side-by-side JSON diff rows (see `ReviewData.sideBySide`).
  var rows: [[String]] = []
  /// Full-size files written for review, relative to the scenario folder.
  var actualFile: String? = nil
  var goldenFile: String? = nil
}

/// One scenario's verdict.
public struct ScenarioVerdict: Sendable {
  public let id: String, kind: String, file: String
  /// `passed`, `failed`, `recorded`.
  public let status: String
  public let messages: [String]
  let artifacts: [ArtifactVerdict]
  let seconds: Double
  /// Declared differences from the truth (shown, not failing).
  var truthDeclared: [String] = []
  /// Every file written under the report folder, relative to it (for the manifest).
  var files: [String] = []
  /// The thumbnail, relative to the report folder.
  var thumb: String? = nil
  /// Ground truth beside detections (`ReviewData.truthTable`).
  var truth: [[String]] = []
  /// Review-only pictures written full size (failures only), relative to the scenario folder.
  var reviewImages: [String] = []
  /// Messages from the truth gate, apart from golden diffs.
  var truthFailures: [String] { messages.filter { $0.hasPrefix("truth: ") } }
  /// The scenario could not be read or run at all (malformed file, a photo
  /// outside the tree, a corrupt asset): bad input, not a difference.
  public var inputError = false
}

/// The whole run.
public struct VerifyReport: Sendable {
  public let verdicts: [ScenarioVerdict]
  public let orphans: [String]
  public let notes: [String]
  public var passed: Int { verdicts.filter { $0.status != "failed" }.count }
  public var failed: Int { verdicts.count - passed }
  /// Non-zero when anything failed, or a recording happened under CI.
  public let exitCode: Int32
}

/// The Golden stage's entry point: run scenarios, diff against `Golden/`,
/// write actual outputs and reports under `Renders/`.
public enum Verifier {
  public static func run(_ o: VerifyOptions, progress: @Sendable (String) -> Void) throws -> VerifyReport {
    var notes: [String] = []
    var mode = o.mode
    if o.ci && mode != .verify {
      notes.append("CI is set: recording refused, ran in verify mode")
      mode = .verify
    }
    let files = try discover(o.inputs)
    var headers: [ScenarioHeader] = []
    var seen: [String: String] = [:]
    var headerErrors: [ScenarioVerdict] = []
    for f in files {
      do {
        let h = try ScenarioHeader(file: f)
        if let other = seen[h.id] { throw GoldenError("duplicate scenario id '\(h.id)' in \(f) and \(other)") }
        seen[h.id] = f
        headers.append(h)
      } catch {
        var v = ScenarioVerdict(id: URL(fileURLWithPath: f).lastPathComponent, kind: "?", file: f, status: "failed",
                                messages: ["\(error)"], artifacts: [], seconds: 0)
        v.inputError = true
        headerErrors.append(v)
      }
    }
    var selected = headers
    if let f = o.filter {
      selected = selected.filter { $0.id.contains(f) || $0.kind == f || $0.file.contains(f) }
      // A typo in CI must not silently test nothing.
      if selected.isEmpty {
        let near = headers.map(\.id).sorted { (editDistance($0, f), $0) < (editDistance($1, f), $1) }.prefix(3)
        throw GoldenError("--filter '\(f)' matches no scenario: nearest are \(near.joined(separator: ", "))")
      }
    }
    if let (k, n) = o.shard {
      selected = selected.filter { Int(SeededGenerator.hash($0.id) % UInt64(n)) == k - 1 }
      if selected.isEmpty { notes.append("shard \(k)/\(n) holds no scenario of this selection") }
    }

    // Files the previous run into this folder wrote go first; nothing else is touched.
    ReportManifest.clean(o.reportDir)
    let work = o.reportDir + "/.work"
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    let box = VerdictBox(count: selected.count)
    let jobs = max(1, min(o.jobs, 16))
    let counter = Counter()
    let chosen = selected, runMode = mode
    DispatchQueue.concurrentPerform(iterations: jobs) { worker in
      var i = worker
      while i < chosen.count {
        let v = verifyOne(chosen[i], options: o, mode: runMode, work: work)
        box.set(i, v)
        progress("[\(counter.next())/\(chosen.count)] \(v.id): \(v.status)\(v.status == "failed" ? " — " + (v.messages.first ?? "") : "")")
        i += jobs
      }
    }
    let verdicts = headerErrors + box.all()

    // Orphans: golden folders no scenario anywhere in the scenario tree produces (judged on the
    // whole tree, never on the selection or the paths given).
    var inTree = Set(seen.keys)
    let parsed = Set(files)  // already read above: each file is parsed once
    for f in (try? discover([o.scenarioRoot])) ?? [] where !parsed.contains(f) {
      if let h = try? ScenarioHeader(file: f) { inTree.insert(h.id) }
    }
    var orphans: [String] = []
    if let dirs = try? FileManager.default.contentsOfDirectory(atPath: o.goldenRoot) {
      orphans = dirs.filter { !$0.hasPrefix(".") && !inTree.contains($0) }.sorted()
    }
    if o.prune && !orphans.isEmpty {
      if o.filter != nil || o.shard != nil || !headerErrors.isEmpty {
        notes.append("--prune refused: the run is filtered or sharded, or a scenario did not decode, so orphans cannot be judged")
      } else {
        for d in orphans { try? FileManager.default.removeItem(atPath: o.goldenRoot + "/" + d) }
        notes.append("pruned \(orphans.count) orphan golden folder(s)")
      }
    }
    let recorded = verdicts.contains { $0.status == "recorded" }
    let failed = verdicts.contains { $0.status == "failed" }
    return VerifyReport(verdicts: verdicts, orphans: orphans, notes: notes,
                        exitCode: failed || (recorded && o.ci) ? 1 : 0)
  }

  static func discover(_ inputs: [String]) throws -> [String] {
    var out: [String] = []
    for p in inputs {
      var isDir: ObjCBool = false
      guard FileManager.default.fileExists(atPath: p, isDirectory: &isDir) else {
        throw GoldenError("path '\(p)' does not exist: expected a scenario file or folder")
      }
      if isDir.boolValue {
        let items = FileManager.default.enumerator(atPath: p)?.compactMap { $0 as? String } ?? []
        out += items.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted().map { p + "/" + $0 }
      } else {
        out.append(p)
      }
    }
    return out
  }
}

/// Thread-safe slots for verdicts, in scenario order.
final class VerdictBox: @unchecked Sendable {
  private var slots: [ScenarioVerdict?]
  private let lock = NSLock()
  init(count: Int) { slots = Array(repeating: nil, count: count) }
  func set(_ i: Int, _ v: ScenarioVerdict) { lock.lock(); slots[i] = v; lock.unlock() }
  func all() -> [ScenarioVerdict] { lock.lock(); defer { lock.unlock() }; return slots.compactMap { $0 } }
}

/// A thread-safe progress counter.
final class Counter: @unchecked Sendable {
  private var n = 0
  private let lock = NSLock()
  func next() -> Int { lock.lock(); defer { lock.unlock() }; n += 1; return n }
}

/// Levenshtein distance, for "nearest scenario" hints.
func editDistance(_ a: String, _ b: String) -> Int {
  let x = Array(a), y = Array(b)
  guard !x.isEmpty else { return y.count }
  var row = Array(0...y.count)
  for i in 1...x.count {
    var prev = row[0]
    row[0] = i
    for j in stride(from: 1, through: y.count, by: 1) {
      let cur = row[j]
      row[j] = min(row[j] + 1, row[j - 1] + 1, prev + (x[i - 1] == y[j - 1] ? 0 : 1))
      prev = cur
    }
  }
  return row[y.count]
}
