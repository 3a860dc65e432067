import Core

/// `report.json` of a `conform run --report DIR`: every case with its verdict,
/// so shard folders merge into one page and one JUnit file whose counts equal
/// an unsharded run's. Shape: `{"report": "conform", "testee": NAME,
/// "conformant": BOOL, "unexpected_passes": [ID], "cases": [{"id", "stage",
/// "verdict", "input", "expected", "got", "reason", "known"}]}`.
package enum ConformRecord {
  /// The record of one run.
  package static func json(_ o: RunOutcome, known: Set<String>, unexpectedPasses: [String], conformant: Bool) -> JSONValue {
    .object([
      "report": .string("conform"), "testee": .string(o.ready.name), "conformant": .bool(conformant),
      "unexpected_passes": .array(unexpectedPasses.map(JSONValue.string)),
      "cases": .array(o.results.map { r in
        .object(["id": .string(r.vector.id), "stage": .string(r.vector.stage.rawValue), "verdict": .string(r.verdict.rawValue),
                 "input": r.vector.input, "expected": r.expected ?? .null, "got": r.got ?? .null,
                 "reason": r.reason.map(JSONValue.string) ?? .null, "known": .bool(known.contains(r.vector.id))])
      }),
    ])
  }

  /// Why `record` is not a conform report this merge can trust, or nil: every
  /// case needs a string id, a known stage and a verdict, or the merged counts
  /// would silently leave it out.
  package static func problem(_ record: JSONValue) -> String? {
    guard let casesValue = field(record, "cases") else { return "has no \"cases\": expected an array of cases" }
    guard case .array(let a) = casesValue else { return "has \"cases\" as \(Input.kind(casesValue)): expected an array of cases" }
    for (i, item) in a.enumerated() {
      guard case .object(let o) = item else { return "case \(i) is \(Input.kind(item)): expected an object" }
      guard case .string? = o["id"] else { return "case \(i) has no string \"id\"" }
      guard case .string(let st)? = o["stage"], Stage(rawValue: st) != nil else {
        return "case \(i) has stage \(o["stage"].map(Input.kind) ?? "missing"): expected one of \(Stage.allCases.map(\.rawValue).joined(separator: ", "))"
      }
      guard case .string(let v)? = o["verdict"], Verdict(rawValue: v) != nil else {
        return "case \(i) has verdict \(o["verdict"].map(Input.kind) ?? "missing"): expected passed, failed, skipped or errored"
      }
    }
    if let c = field(record, "conformant"), case .bool = c {} else { return "has no true/false \"conformant\"" }
    return nil
  }

  /// Case ids of a record, for the duplicate check across shards.
  package static func ids(_ record: JSONValue) -> [String] { cases(record).compactMap { $0["id"]?.text } }

  /// Failed and errored cases in a record; with `known: false`, only those the
  /// run's expectations did not list (a listed failure leaves a run conformant).
  package static func failing(_ record: JSONValue, known: Bool = true) -> Int {
    cases(record).filter { ["failed", "errored"].contains($0["verdict"]?.text ?? "") && (known || $0["known"] != .bool(true)) }.count
  }

  /// Whether the record says its run was conformant.
  package static func conformant(_ record: JSONValue) -> Bool { field(record, "conformant") == .bool(true) }

  /// The testee a record is of, so shards of different testees are never merged into one verdict.
  package static func testee(_ record: JSONValue) -> String? { field(record, "testee")?.text }

  /// One record holding every shard's cases (in stage order, then shard order).
  package static func merge(_ records: [JSONValue]) -> JSONValue {
    var all = records.flatMap(cases)
    let order = Dictionary(uniqueKeysWithValues: Stage.allCases.enumerated().map { ($1.rawValue, $0) })
    all = all.enumerated().sorted { (order[$0.element["stage"]?.text ?? ""] ?? 99, $0.offset) < (order[$1.element["stage"]?.text ?? ""] ?? 99, $1.offset) }
      .map(\.element)
    let names = Set(records.compactMap { field($0, "testee")?.text }).sorted()
    let conformant = records.allSatisfy { field($0, "conformant") == .bool(true) }
    let passes = records.flatMap { r -> [JSONValue] in if case .array(let a)? = field(r, "unexpected_passes") { return a } else { return [] } }
    return .object(["report": .string("conform"), "testee": .string(names.joined(separator: ", ")), "conformant": .bool(conformant),
                    "unexpected_passes": .array(passes), "cases": .array(all.map(JSONValue.object))])
  }

  /// JUnit XML in `ConformReports.junit`'s shape: one suite per stage.
  package static func junit(_ record: JSONValue) -> String {
    let cs = cases(record)
    func n(_ rs: [[String: JSONValue]], _ v: String) -> Int { rs.filter { $0["verdict"]?.text == v }.count }
    let x = ConformReports.xml
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<testsuites name=\"bullseye conform\" tests=\"\(cs.count)\" failures=\"\(n(cs, "failed"))\" errors=\"\(n(cs, "errored"))\" skipped=\"\(n(cs, "skipped"))\">\n"
    for stage in Stage.allCases {
      let rs = cs.filter { $0["stage"]?.text == stage.rawValue }
      guard !rs.isEmpty else { continue }
      out += "  <testsuite name=\"\(stage.rawValue)\" tests=\"\(rs.count)\" failures=\"\(n(rs, "failed"))\" errors=\"\(n(rs, "errored"))\" skipped=\"\(n(rs, "skipped"))\">\n"
      for r in rs {
        out += "    <testcase classname=\"conform.\(stage.rawValue)\" name=\"\(x(r["id"]?.text ?? ""))\""
        let reason = x(r["reason"]?.text ?? "")
        switch r["verdict"]?.text {
        case "failed":
          out += ">\n      <failure message=\"expected \(x(JSONValue.oneLine(r["expected"]))), got \(x(JSONValue.oneLine(r["got"])))\">input: \(x(JSONValue.oneLine(r["input"])))</failure>\n    </testcase>\n"
        case "errored": out += ">\n      <error message=\"\(reason)\"/>\n    </testcase>\n"
        case "skipped": out += ">\n      <skipped message=\"\(reason)\"/>\n    </testcase>\n"
        default: out += "/>\n"
        }
      }
      out += "  </testsuite>\n"
    }
    return out + "</testsuites>\n"
  }

  /// The merged page: counts linking to the failures, failures first, then
  /// passing and skipped cases collapsed; a status filter and a search.
  package static func html(_ record: JSONValue) -> String {
    let cs = cases(record), h = ConformReports.xml
    let bad = cs.filter { ["failed", "errored"].contains($0["verdict"]?.text ?? "") }
    let rest = cs.filter { !["failed", "errored"].contains($0["verdict"]?.text ?? "") }
    let conformant = field(record, "conformant") == .bool(true)
    var p = """
      <!doctype html><html lang="en"><head><meta charset="utf-8"><title>bullseye conform: \(h(field(record, "testee")?.text ?? ""))</title><style>
      body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:.5em 0}
      td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}code{font:12px monospace;word-break:break-all}
      .bad{color:#b00020}.ok{color:#0a7d32}
      </style></head><body>
      <h1>\(h(field(record, "testee")?.text ?? "")): <span class="\(conformant ? "ok" : "bad")">\(conformant ? "conformant" : "not conformant")</span></h1>
      <p><a class="bad" href="#failures">\(bad.count) failed or errored</a> · \(rest.count) passed or skipped · \(cs.count) cases</p>
      <p><label>Status <select id="status-filter"><option value="">all</option><option>failed</option><option>errored</option><option>passed</option><option>skipped</option></select></label>
      <input id="search" type="search" placeholder="Search id or stage" aria-label="Search"></p>
      <h2 id="failures">Failures (\(bad.count))</h2>
      <table><tr><th>id</th><th>stage</th><th>verdict</th><th>input</th><th>expected</th><th>got</th></tr>

      """
    func row(_ r: [String: JSONValue]) -> String {
      let v = r["verdict"]?.text ?? "", id = r["id"]?.text ?? "", stage = r["stage"]?.text ?? ""
      let got = v == "errored" ? "errored: " + (r["reason"]?.text ?? "") : JSONValue.oneLine(r["got"])
      return "<tr class=\"case\" data-status=\"\(h(v))\" data-search=\"\(h((id + " " + stage).lowercased()))\"><td><code>\(h(id))</code>\(r["known"] == .bool(true) ? " (known)" : "")</td><td>\(h(stage))</td><td>\(h(v))</td><td><code>\(h(JSONValue.oneLine(r["input"])))</code></td><td><code>\(h(JSONValue.oneLine(r["expected"])))</code></td><td><code>\(h(got))</code></td></tr>\n"
    }
    p += bad.map(row).joined() + "</table>\n<details id=\"passing\"><summary>Passed and skipped (\(rest.count))</summary><table>\n"
    p += rest.map(row).joined() + "</table></details>\n"
    p += """
      <script>(function(){var s=document.getElementById('status-filter'),q=document.getElementById('search');
      function f(){var v=s.value,t=q.value.toLowerCase();document.querySelectorAll('tr.case').forEach(function(e){
      e.hidden=!((!v||e.getAttribute('data-status')===v)&&(!t||e.getAttribute('data-search').indexOf(t)>=0));});
      if(v==='passed'||v==='skipped'||t)document.getElementById('passing').open=true;}
      s.addEventListener('change',f);q.addEventListener('input',f);})();</script></body></html>

      """
    return p
  }

  static func field(_ v: JSONValue, _ k: String) -> JSONValue? {
    guard case .object(let o) = v else { return nil }
    return o[k]
  }

  static func cases(_ v: JSONValue) -> [[String: JSONValue]] {
    guard case .array(let a)? = field(v, "cases") else { return [] }
    return a.compactMap { if case .object(let o) = $0 { return o } else { return nil } }
  }
}

extension JSONValue {
  /// The string this value holds, if it is one.
  var text: String? { if case .string(let s) = self { return s } else { return nil } }
}
