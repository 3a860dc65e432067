import Core

/// The run's machine-readable and human-readable reports.
package enum ConformReports {
  static func compact(_ v: JSONValue?) -> String { JSONValue.oneLine(v) }

  /// The `--json` object (keys as the contract names them, plus more).
  package static func json(_ o: RunOutcome, unexpectedPasses: [String], unexpectedFailures: [String], conformant: Bool,
                          stages: Set<Stage>) -> JSONValue {
    var classification: [String: JSONValue] = [:]
    for c in o.classification where stages.contains(AxisTable.axis(c.axis)!.stage) {
      classification[c.axis] = .object([
        "declared": c.declared.map(JSONValue.string) ?? .null, "observed": c.observed.map(JSONValue.string) ?? .null,
        "graded": .string(c.graded), "matches": .object(c.matches.mapValues(JSONValue.int)), "distinguishing": .int(c.distinguishing),
        "contradicted": .bool(c.contradicted),
      ])
    }
    let failures = o.results.filter { $0.verdict == .failed }.map { r -> JSONValue in
      .object(["id": .string(r.vector.id), "stage": .string(r.vector.stage.rawValue), "input": r.vector.input,
               "expected": r.expected ?? .null, "got": r.got ?? .null, "flags": .array(r.vector.flags.map(JSONValue.string))])
    }
    let errors = o.results.filter { $0.verdict == .errored }.map { r -> JSONValue in
      .object(["id": .string(r.vector.id), "stage": .string(r.vector.stage.rawValue), "reason": .string(r.reason ?? "")])
    }
    return .object([
      "passed": .int(o.count(.passed)), "failed": .int(o.count(.failed)), "skipped": .int(o.count(.skipped)),
      "errored": .int(o.count(.errored)), "failures": .array(failures), "errors": .array(errors),
      "classification": .object(classification), "conformant": .bool(conformant),
      "unexpected_passes": .array(unexpectedPasses.map(JSONValue.string)),
      "unexpected_failures": .array(unexpectedFailures.map(JSONValue.string)),
      "testee": .object(["name": .string(o.ready.name), "stages": .array(o.ready.stages.map(JSONValue.string)),
                         "semantics": .object(o.semantics.mapValues(JSONValue.string)), "batch": .bool(o.ready.batch)]),
      "unknown_axes": .array(o.unknownAxes.map(JSONValue.string)),
      "stderr_tail": .array(o.stderrTail.map(JSONValue.string)),
    ])
  }

  static func xml(_ s: String) -> String {
    var out = ""
    for ch in s.unicodeScalars {
      switch ch {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default:
        // XML 1.0 cannot carry most control characters.
        if ch.value < 0x20 && ch != "\n" && ch != "\t" { out += "?" } else { out.unicodeScalars.append(ch) }
      }
    }
    return out
  }

  /// JUnit XML: one `<testcase>` per case, one `<testsuite>` per stage.
  package static func junit(_ o: RunOutcome) -> String {
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<testsuites name=\"bullseye conform\" tests=\"\(o.results.count)\" failures=\"\(o.count(.failed))\" errors=\"\(o.count(.errored))\" skipped=\"\(o.count(.skipped))\">\n"
    for stage in Stage.allCases {
      let rs = o.results.filter { $0.vector.stage == stage }
      guard !rs.isEmpty else { continue }
      let f = rs.filter { $0.verdict == .failed }.count, e = rs.filter { $0.verdict == .errored }.count
      let s = rs.filter { $0.verdict == .skipped }.count
      out += "  <testsuite name=\"\(stage.rawValue)\" tests=\"\(rs.count)\" failures=\"\(f)\" errors=\"\(e)\" skipped=\"\(s)\">\n"
      for r in rs {
        out += "    <testcase classname=\"conform.\(stage.rawValue)\" name=\"\(xml(r.vector.id))\""
        switch r.verdict {
        case .passed: out += "/>\n"
        case .failed:
          out += ">\n      <failure message=\"expected \(xml(compact(r.expected))), got \(xml(compact(r.got)))\">input: \(xml(compact(r.vector.input)))</failure>\n    </testcase>\n"
        case .errored: out += ">\n      <error message=\"\(xml(r.reason ?? ""))\"/>\n    </testcase>\n"
        case .skipped: out += ">\n      <skipped message=\"\(xml(r.reason ?? ""))\"/>\n    </testcase>\n"
        }
      }
      out += "  </testsuite>\n"
    }
    return out + "</testsuites>\n"
  }
}
