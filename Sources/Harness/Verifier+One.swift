import Canvas
import Core
import Foundation

extension Verifier {
  /// Runs one scenario, writes its actual artifacts, compares them with the
  /// goldens, and writes goldens as the mode allows.
  static func verifyOne(_ h: ScenarioHeader, options o: VerifyOptions, mode: GoldenMode, work: String) -> ScenarioVerdict {
    let start = DispatchTime.now().uptimeNanoseconds
    func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
    guard let kind = scenarioKinds.first(where: { $0.name == h.kind }) else {
      var v = ScenarioVerdict(id: h.id, kind: h.kind, file: h.file, status: "failed",
                              messages: ["\(h.file): kind '\(h.kind)' is unknown: expected \(scenarioKinds.map(\.name).joined(separator: ", "))"],
                              artifacts: [], seconds: seconds())
      v.inputError = true
      return v
    }
    let output: KindOutput
    do {
      output = try kind.run(h, root: o.scenarioRoot, work: work, threads: o.threads)
    } catch {
      var v = ScenarioVerdict(id: h.id, kind: h.kind, file: h.file, status: "failed", messages: ["\(error)"], artifacts: [], seconds: seconds())
      v.inputError = true
      return v
    }
    let actualDir = o.reportDir + "/" + h.id, goldenDir = o.goldenRoot + "/" + h.id
    try? FileManager.default.createDirectory(atPath: actualDir, withIntermediateDirectories: true)
    var verdicts: [ArtifactVerdict] = []
    var messages = output.failures.map { "expectation: \($0)" }
    messages += output.truthFailures.map { "truth: \($0)" }
    // A run that misses its own expectations or the truth is never recorded as a golden.
    let gateFailed = !output.truthFailures.isEmpty || !output.failures.isEmpty
    if gateFailed, mode != .verify {
      messages.append("not recorded: the run fails \(output.truthFailures.isEmpty ? "its expectations" : "the truth gate (fix it, or declare it under expect_wrong with a reason)")")
    }
    var wrote = false
    var review = ReviewFiles(id: h.id, actualDir: actualDir)
    let pngs = output.artifacts.filter { if case .png = $0.body { return true } else { return false } }
    // A review-only picture (English Set labels) stands for the scenario when there is one.
    let thumbSource = output.review.isEmpty ? (pngs.first { $0.name.hasPrefix("overlay") } ?? pngs.first)?.name : nil
    for a in output.artifacts {
      let bytes: [UInt8]
      do { bytes = try a.bytes() } catch {
        messages.append("\(a.name): cannot encode the actual output: \(error)"); continue
      }
      let goldenPath = goldenDir + "/" + a.name
      var v = compare(a, bytes: bytes, goldenPath: goldenPath, header: h, actualDir: actualDir)
      if let d = v.diffImage { review.files.append(h.id + "/" + d) }
      let shouldWrite: Bool
      switch mode {
      case .verify: shouldWrite = false
      case .recordMissing: shouldWrite = v.status == "missing" && !gateFailed
      case .updateFailed: shouldWrite = v.status != "same" && !gateFailed
      case .updateAll: shouldWrite = v.status != "same" && !gateFailed
      }
      // The actual output and a copy of the golden beside it, for the report (full-size images only when they differ).
      do { try review.write(a, bytes: bytes, verdict: &v, goldenPath: goldenPath, full: v.status != "same" || gateFailed, thumb: a.name == thumbSource) }
      catch { messages.append("\(a.name): cannot write the actual output: \(error)") }
      if shouldWrite {
        do {
          try FileManager.default.createDirectory(atPath: goldenDir, withIntermediateDirectories: true)
          try AtomicFile.write(bytes, to: goldenPath)
          v = ArtifactVerdict(name: a.name, status: "written", detail: v.detail, diffImage: v.diffImage, size: v.size, changed: v.changed,
                              summary: v.summary, rows: v.rows, actualFile: v.actualFile, goldenFile: v.goldenFile)
          wrote = true
        } catch { messages.append("\(a.name): cannot write the golden: \(error)") }
      } else if v.status == "missing" {
        messages.append("\(a.name): no golden at \(goldenPath) (run with --mode record-missing)")
      } else if v.status == "differs" {
        messages.append("\(a.name): " + (v.summary.first.map { "\($0); " } ?? "") + (v.detail.first ?? "differs"))
      }
      verdicts.append(v)
    }
    // Tolerances no JSON output (nor its golden) has a path for.
    messages += staleTolerances(h, output: output, goldenDir: goldenDir).map {
      "tolerance '\($0)' matches no path of the scenario's JSON outputs or their goldens: fix the path or remove it"
    }
    // Golden files nothing produces any more.
    let produced = Set(output.artifacts.map(\.name))
    for f in (try? FileManager.default.contentsOfDirectory(atPath: goldenDir)) ?? [] where !produced.contains(f) && !f.hasPrefix(".") {
      if mode == .updateAll {
        try? FileManager.default.removeItem(atPath: goldenDir + "/" + f); wrote = true
      } else {
        verdicts.append(ArtifactVerdict(name: f, status: "stale", detail: ["golden file no output produces"], diffImage: nil))
        messages.append("\(f): stale golden file (no output produces it)")
      }
    }
    let failed = !messages.isEmpty
    var reviewImages: [String] = []
    for (i, a) in output.review.enumerated() {
      do { if let name = try review.writeReview(a, full: failed, thumb: i == 0) { reviewImages.append(name) } }
      catch { messages.append("\(a.name): cannot write the review picture: \(error)") }
    }
    return ScenarioVerdict(id: h.id, kind: h.kind, file: h.file, status: !messages.isEmpty ? "failed" : (wrote ? "recorded" : "passed"),
                           messages: messages, artifacts: verdicts, seconds: seconds(), truthDeclared: output.truthDeclared,
                           files: review.files, thumb: review.thumb, truth: review.truth, reviewImages: reviewImages)
  }

  static func compare(_ a: Artifact, bytes: [UInt8], goldenPath: String, header h: ScenarioHeader, actualDir: String) -> ArtifactVerdict {
    guard let data = FileManager.default.contents(atPath: goldenPath) else {
      return ArtifactVerdict(name: a.name, status: "missing", detail: [], diffImage: nil)
    }
    let golden = [UInt8](data)
    if golden == bytes { return ArtifactVerdict(name: a.name, status: "same", detail: [], diffImage: nil) }
    switch a.body {
    case .json(let actual):
      do {
        let expected = try JSONParser.parse(String(decoding: golden, as: UTF8.self))
        let d = diffJSON(expected: expected, actual: actual, tolerances: h.tolerances)
        if d.isEmpty { return ArtifactVerdict(name: a.name, status: "same", detail: [], diffImage: nil) }
        return ArtifactVerdict(name: a.name, status: "differs", detail: d.map(\.description), diffImage: nil,
                               summary: ReviewData.archerySummary(golden: expected, actual: actual),
                               rows: ReviewData.sideBySide(golden: String(decoding: golden, as: UTF8.self), actual: String(decoding: bytes, as: UTF8.self)))
      } catch { return ArtifactVerdict(name: a.name, status: "differs", detail: ["golden is not valid JSON: \(error)"], diffImage: nil) }
    case .png(let actual):
      do {
        let expected = try PNG.decode(golden)
        let d = diffImages(expected: expected, actual: actual, tolerance: h.image)
        if d.differing <= h.image.maxPixels && !d.sizeMismatch {
          return ArtifactVerdict(name: a.name, status: "same", detail: d.differing > 0 ? ["\(d.differing) pixels within tolerance (\(h.image.reason))"] : [], diffImage: nil)
        }
        let changed = d.changed.map { ReviewData.padded($0, width: actual.width, height: actual.height) }
        var diffName: String?
        if let img = d.diffImage {
          diffName = "diff-" + a.name
          try? PNG.write(img, to: actualDir + "/" + diffName!)
        }
        let msg = d.sizeMismatch ? "size \(actual.width)x\(actual.height), golden \(expected.width)x\(expected.height)"
          : "\(d.differing) pixels differ (max channel delta \(d.maxDelta), first at \(d.first!.0),\(d.first!.1); tolerance \(h.image.threshold)/\(h.image.maxPixels))"
        return ArtifactVerdict(name: a.name, status: "differs", detail: [msg], diffImage: diffName, size: [actual.width, actual.height], changed: changed)
      } catch { return ArtifactVerdict(name: a.name, status: "differs", detail: ["golden PNG unreadable: \(error)"], diffImage: nil) }
    case .text(let actual):
      let e = String(decoding: golden, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
      let g = actual.split(separator: "\n", omittingEmptySubsequences: false)
      let line = zip(e, g).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(e.count, g.count)
      let exp = line < e.count ? String(e[line]) : "(end)", act = line < g.count ? String(g[line]) : "(end)"
      return ArtifactVerdict(name: a.name, status: "differs", detail: ["line \(line + 1): expected '\(exp)', got '\(act)'"], diffImage: nil,
                             rows: ReviewData.sideBySide(golden: String(decoding: golden, as: UTF8.self), actual: actual))
    }
  }

  /// The patterns of `h`'s tolerances that match nothing in any JSON artifact
  /// the run produced or in that artifact's golden.
  static func staleTolerances(_ h: ScenarioHeader, output: KindOutput, goldenDir: String) -> [String] {
    let json = output.artifacts.compactMap { a -> (name: String, tree: JSONValue)? in
      if case .json(let actual) = a.body { return (a.name, actual) } else { return nil }
    }
    // The actual outputs answer nearly always; goldens are read only for a path they lack.
    let unmatched = h.tolerances.filter { t in !json.contains { t.matchesSomething(in: $0.tree) } }
    guard !unmatched.isEmpty else { return [] }
    let goldens = json.compactMap { a -> JSONValue? in
      FileManager.default.contents(atPath: goldenDir + "/" + a.name).flatMap { try? JSONParser.parse(String(decoding: $0, as: UTF8.self)) }
    }
    return unmatched.filter { t in !goldens.contains { t.matchesSomething(in: $0) } }.map { $0.pattern.joined(separator: ".") }
  }
}

