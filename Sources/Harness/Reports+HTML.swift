import Foundation

extension Reports {
  /// The review page: a header whose counts link to the failures, a status
  /// filter and search, failures first (expanded, with full-size images),
  /// then passing scenarios collapsed behind lazily loaded thumbnails.
  static func html(_ r: ReviewReport) -> String {
    let failures = r.scenarios.filter { $0.status == "failed" }
    let recorded = r.scenarios.filter { $0.status == "recorded" }
    let passing = r.scenarios.filter { $0.status == "passed" }
    var h = """
      <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
      <title>Bullseye verify: \(r.failed) failed, \(r.passed) passed</title><style>\(css)</style></head><body>
      <header><h1>Bullseye verify</h1>
      <p class="counts"><a class="failed" href="#failures">\(r.failed) failed</a> · <a class="passed" href="#passing">\(passing.count) passed</a>\(recorded.isEmpty ? "" : " · <a class=\"recorded\" href=\"#recorded\">\(recorded.count) recorded</a>") · \(r.scenarios.count) scenarios</p>
      <p class="env">Environment: \(r.environment.map { esc($0.joined(separator: " ")) }.joined(separator: " · "))</p>
      <div id="controls"><label>Status <select id="status-filter"><option value="">all</option><option value="failed">failed</option><option value="recorded">recorded</option><option value="passed">passed</option></select></label>
      <input id="search" type="search" placeholder="Search id, kind, file or message" aria-label="Search"><span id="shown"></span></div>

      """
    if !r.notes.isEmpty { h += "<p>" + r.notes.map(esc).joined(separator: "<br>") + "</p>\n" }
    if !r.orphans.isEmpty { h += "<p class=\"failed\">Orphan goldens (no scenario): \(r.orphans.map(esc).joined(separator: ", "))</p>\n" }
    h += "</header><main>\n<section id=\"failures\"><h2>Failures (\(failures.count))</h2>\n"
    if failures.isEmpty { h += "<p>No failures.</p>\n" }
    for v in failures { h += article(v) }
    h += "</section>\n"
    if !recorded.isEmpty {
      h += "<section id=\"recorded\"><h2>Recorded (\(recorded.count))</h2>\n" + recorded.map(article).joined() + "</section>\n"
    }
    h += "<details id=\"passing\"><summary><h2 style=\"display:inline\">Passing (\(passing.count))</h2></summary>\n"
    for v in passing {
      h += "<details class=\"scenario passed\" id=\"\(esc(v.id))\" data-status=\"passed\" data-search=\"\(searchText(v))\"><summary>"
      h += thumb(v) + "<span>\(esc(v.id))</span><span class=\"env\">\(esc(v.kind)) · \(String(format: "%.2f", v.seconds)) s</span></summary>\n"
      h += body(v) + "</details>\n"
    }
    return h + "</details>\n</main><script>\(script)</script></body></html>\n"
  }

  static func article(_ v: ReviewScenario) -> String {
    var h = "<article class=\"scenario \(esc(v.status))\" id=\"\(esc(v.id))\" data-status=\"\(esc(v.status))\" data-search=\"\(searchText(v))\">\n"
    h += "<h3 class=\"\(esc(v.status))\">\(thumb(v)) \(esc(v.id)) — \(esc(v.status))</h3>\n"
    return h + body(v) + "</article>\n"
  }

  static func searchText(_ v: ReviewScenario) -> String {
    esc(([v.id, v.kind, v.file, v.status] + v.messages).joined(separator: " ").lowercased())
  }

  static func thumb(_ v: ReviewScenario) -> String {
    guard let t = v.thumb else { return "" }
    return "<img class=\"thumb\" loading=\"lazy\" src=\"\(esc(t))\" alt=\"\(esc(v.id)) thumbnail\">"
  }

  /// One scenario's detail: messages, accept command, truth, each output, the scenario file.
  static func body(_ v: ReviewScenario) -> String {
    var h = "<p class=\"env\">\(esc(v.file)) · \(esc(v.kind)) · \(String(format: "%.2f", v.seconds)) s</p>\n"
    if !v.truthFailures.isEmpty { h += "<h4 class=\"failed\">Truth gate</h4><pre>" + v.truthFailures.map(esc).joined(separator: "\n") + "</pre>\n" }
    if !v.truthDeclared.isEmpty { h += "<h4>Declared differences from the truth</h4><pre>" + v.truthDeclared.map(esc).joined(separator: "\n") + "</pre>\n" }
    let others = v.messages.filter { !$0.hasPrefix("truth: ") }
    if !others.isEmpty { h += "<pre>" + others.map(esc).joined(separator: "\n") + "</pre>\n" }
    if v.status == "failed" {
      h += "<p class=\"accept\">Accept this output: <code>\(esc(v.accept))</code> <button type=\"button\" class=\"copy\" data-copy=\"\(esc(v.accept))\">Copy</button></p>\n"
    }
    if !v.truth.isEmpty {
      h += "<details\(v.status == "failed" ? " open" : "")><summary>Ground truth beside detections</summary><table>"
      for (i, row) in v.truth.enumerated() {
        let cell = i == 0 ? "th" : "td"
        h += "<tr>" + row.map { "<\(cell)>\(esc($0))</\(cell)>" }.joined() + "</tr>"
      }
      h += "</table></details>\n"
    }
    if !v.reviewImages.isEmpty {
      h += "<h4>Read in English (review only; the goldens below keep seed 004's shorthand)</h4><p class=\"review\">"
      h += v.reviewImages.map { "<a href=\"\(esc(v.id))/\(esc($0))\"><img src=\"\(esc(v.id))/\(esc($0))\" alt=\"\(esc($0))\"></a>" }.joined() + "</p>\n"
    }
    let same = v.artifacts.filter { $0.status == "same" }
    for a in v.artifacts where a.status != "same" { h += artifact(a, id: v.id) }
    if !same.isEmpty {
      h += "<p>Unchanged: " + same.map { a in a.actual.map { "<a href=\"\(esc(v.id))/\(esc($0))\">\(esc(a.name))</a>" } ?? esc(a.name) }.joined(separator: ", ") + "</p>\n"
    }
    if !v.scenarioText.isEmpty {
      h += "<details><summary>Scenario file</summary><pre>\(esc(v.scenarioText))</pre></details>\n"
    }
    return h
  }

  static func artifact(_ a: ReviewArtifact, id: String) -> String {
    let dir = esc(id) + "/"
    var h = "<h4>\(esc(a.name)): \(esc(a.status))</h4>\n"
    if !a.summary.isEmpty { h += "<ul class=\"summary\">" + a.summary.map { "<li>\(esc($0))</li>" }.joined() + "</ul>\n" }
    if a.name.hasSuffix(".png"), let actual = a.actual {
      let golden = a.golden.map { dir + esc($0) }, act = dir + esc(actual), diff = a.diff.map { dir + esc($0) }
      h += "<table class=\"images\"><tr><th>actual</th><th>golden</th><th>diff</th></tr><tr>"
      h += "<td><a href=\"\(act)\"><img src=\"\(act)\" alt=\"actual\"></a></td>"
      h += "<td>" + (golden.map { "<a href=\"\($0)\"><img src=\"\($0)\" alt=\"golden\"></a>" } ?? "no golden") + "</td>"
      h += "<td>" + (diff.map { "<a href=\"\($0)\"><img src=\"\($0)\" alt=\"diff\"></a>" } ?? "—") + "</td></tr></table>\n"
      if let golden {
        let w = min(a.size?[0] ?? 480, 480)
        h += "<div class=\"cmp\"><div class=\"stack\" style=\"width:\(w)px\"><img src=\"\(golden)\" alt=\"golden\"><img class=\"over\" src=\"\(act)\" alt=\"actual\"></div><br>"
        h += "<label>View <select><option value=\"slider\">slider (actual left of the line)</option><option value=\"onion\">onion skin (actual opacity)</option></select></label> "
        h += "<input type=\"range\" min=\"0\" max=\"100\" value=\"50\" aria-label=\"actual versus golden\"></div>\n"
        if let size = a.size, let c = a.changed { h += zoom(size: size, box: c, sources: [("golden", golden), ("actual", act)] + (diff.map { [("diff", $0)] } ?? [])) }
      }
    } else if !a.rows.isEmpty {
      let g = a.golden.map { "<a href=\"\(dir)\(esc($0))\">golden</a>" } ?? "golden"
      let x = a.actual.map { "<a href=\"\(dir)\(esc($0))\">actual</a>" } ?? "actual"
      h += "<table class=\"sbs\"><tr><th></th><th>\(g)</th><th></th><th>\(x)</th></tr>\n"
      for row in a.rows where row.count == 5 {
        if row[0] == "gap" { h += "<tr class=\"gap\"><td colspan=\"4\">…</td></tr>\n"; continue }
        h += "<tr class=\"\(esc(row[0]))\"><td class=\"ln\">\(row[1])</td><td>\(esc(row[2]))</td><td class=\"ln\">\(row[3])</td><td>\(esc(row[4]))</td></tr>\n"
      }
      h += "</table>\n"
    }
    if !a.detail.isEmpty { h += "<details><summary>\(a.detail.count) difference(s)</summary><pre>" + a.detail.map(esc).joined(separator: "\n") + "</pre></details>\n" }
    return h
  }

  /// The changed area of each image, cropped and enlarged in CSS (no extra file).
  static func zoom(size: [Int], box: [Int], sources: [(String, String)]) -> String {
    guard size.count == 2, box.count == 4, box[2] > 0, box[3] > 0 else { return "" }
    let s = min(8, max(1, 240 / Double(max(box[2], box[3]))))
    func px(_ v: Double) -> String { String(format: "%.1fpx", v) }
    var h = "<p>Changed area (\(box[2])×\(box[3]) px at \(box[0]),\(box[1]), ×\(String(format: "%.1f", s))):</p><div class=\"zoom\">"
    for (label, src) in sources {
      let style = "width:\(px(Double(box[2]) * s));height:\(px(Double(box[3]) * s));background-image:url('\(src)');"
        + "background-size:\(px(Double(size[0]) * s)) \(px(Double(size[1]) * s));background-position:\(px(-Double(box[0]) * s)) \(px(-Double(box[1]) * s))"
      h += "<figure><div style=\"\(style)\" role=\"img\" aria-label=\"\(label) crop\"></div><figcaption>\(label)</figcaption></figure>"
    }
    return h + "</div>\n"
  }
}
