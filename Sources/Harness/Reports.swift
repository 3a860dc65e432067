import Canvas
import Core
import Foundation

/// Writes `report.html` (a self-contained folder: every link relative) and
/// `junit.xml` into the report folder.
public enum Reports {
  public static func write(_ r: VerifyReport, to dir: String) throws {
    try AtomicFile.write(html(r), to: dir + "/report.html")
    try AtomicFile.write(junit(r), to: dir + "/junit.xml")
  }

  static func esc(_ s: String) -> String {
    s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }

  /// The renderer's versions, stamped into every report (font and rasteriser
  /// versions are what make pixels drift between machines).
  static var environment: [(String, String)] {
    [("cairo", CanvasVersions.cairo), ("pixman", CanvasVersions.pixman ?? "unknown"), ("libpng", CanvasVersions.libpng),
     ("freetype", CanvasVersions.freetype ?? "unknown")]
  }

  static func html(_ r: VerifyReport) -> String {
    var h = """
      <!doctype html><html><head><meta charset="utf-8"><title>Bullseye verify</title><style>
      body{font:14px system-ui,sans-serif;margin:20px;background:#fafafa}h2{margin-top:28px}
      .passed{color:#1a7f37}.failed{color:#cf222e}.recorded{color:#9a6700}
      table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top}
      img{max-width:420px;border:1px solid #888;background:#fff}pre{background:#f0f0f0;padding:6px;white-space:pre-wrap}
      </style></head><body>
      <h1>Bullseye verify: \(r.passed) passed, \(r.failed) failed</h1>
      <p>Environment: \(environment.map { "\($0.0) \(esc($0.1))" }.joined(separator: " · "))</p>
      """
    if !r.notes.isEmpty { h += "<p>" + r.notes.map(esc).joined(separator: "<br>") + "</p>" }
    if !r.orphans.isEmpty { h += "<p class=failed>Orphan goldens (no scenario): \(r.orphans.map(esc).joined(separator: ", "))</p>" }
    h += "<table><tr><th>scenario</th><th>kind</th><th>status</th><th>seconds</th></tr>"
    for v in r.verdicts {
      h += "<tr><td><a href=\"#\(esc(v.id))\">\(esc(v.id))</a></td><td>\(v.kind)</td><td class=\(v.status)>\(v.status)</td><td>\(String(format: "%.2f", v.seconds))</td></tr>"
    }
    h += "</table>"
    for v in r.verdicts {
      h += "<h2 id=\"\(esc(v.id))\" class=\(v.status)>\(esc(v.id)) — \(v.status)</h2><p>\(esc(v.file))</p>"
      // The truth gate apart from golden diffs: what is wrong against the truth, then what is declared wrong.
      if !v.truthFailures.isEmpty { h += "<h3 class=failed>Truth gate</h3><pre>" + v.truthFailures.map(esc).joined(separator: "\n") + "</pre>" }
      if !v.truthDeclared.isEmpty { h += "<h3>Declared differences from the truth</h3><pre>" + v.truthDeclared.map(esc).joined(separator: "\n") + "</pre>" }
      let others = v.messages.filter { !$0.hasPrefix("truth: ") }
      if !others.isEmpty { h += "<pre>" + others.map(esc).joined(separator: "\n") + "</pre>" }
      for a in v.artifacts {
        h += "<h3>\(esc(a.name)): \(a.status)</h3>"
        if a.name.hasSuffix(".png") {
          h += "<table><tr><th>golden</th><th>actual</th><th>diff</th></tr><tr>"
          h += "<td><img src=\"\(esc(v.id))/golden-\(esc(a.name))\" alt=\"no golden\"></td>"
          h += "<td><img src=\"\(esc(v.id))/\(esc(a.name))\"></td>"
          h += "<td>" + (a.diffImage.map { "<img src=\"\(esc(v.id))/\(esc($0))\">" } ?? "—") + "</td></tr></table>"
        }
        if !a.detail.isEmpty { h += "<pre>" + a.detail.prefix(200).map(esc).joined(separator: "\n") + "</pre>" }
      }
    }
    return h + "</body></html>\n"
  }

  static func junit(_ r: VerifyReport) -> String {
    let time = r.verdicts.reduce(0) { $0 + $1.seconds }
    var x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    x += "<testsuites tests=\"\(r.verdicts.count)\" failures=\"\(r.failed)\" time=\"\(String(format: "%.3f", time))\">\n"
    x += "<testsuite name=\"bullseye-verify\" tests=\"\(r.verdicts.count)\" failures=\"\(r.failed)\" skipped=\"0\">\n"
    for v in r.verdicts {
      x += "  <testcase classname=\"\(esc(v.kind))\" name=\"\(esc(v.id))\" time=\"\(String(format: "%.3f", v.seconds))\""
      if v.status == "failed" {
        let type = v.truthFailures.isEmpty ? "golden" : "truth"
        x += ">\n    <failure type=\"\(type)\" message=\"\(esc(v.truthFailures.first ?? v.messages.first ?? "failed"))\">\(esc(v.messages.joined(separator: "\n")))\nartifacts: \(esc(v.id))/</failure>\n  </testcase>\n"
      } else {
        x += "/>\n"
      }
    }
    return x + "</testsuite>\n</testsuites>\n"
  }
}
