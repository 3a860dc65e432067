import Canvas
import Core
import Foundation

/// Writes the review page `report.html` (every link relative, into the
/// scenario folders beside it), `junit.xml`, the machine-readable
/// `report.json` a shard merge reads, and the `.manifest` of every file written.
public enum Reports {
  /// Writes a verify run's reports; `options` (when given) spell the accept command's non-default folders.
  public static func write(_ r: VerifyReport, to dir: String, options: VerifyOptions? = nil) throws {
    let review = ReviewReport(r) { file in acceptCommand(file: file, options: options) }
    try write(review, to: dir)
  }

  /// Writes page, JUnit, report.json and the manifest for `r` into `dir`.
  public static func write(_ r: ReviewReport, to dir: String) throws {
    var batch = OutputBatch()
    batch.add(html(r), to: dir + "/report.html")
    batch.add(junit(r), to: dir + "/junit.xml")
    batch.add(try r.json.canonicalText(), to: dir + "/report.json")
    batch.add(ReportManifest.text(["report.html", "junit.xml", "report.json"] + r.scenarios.flatMap(\.files)), to: dir + "/" + ReportManifest.name)
    try batch.commit()
  }

  /// The one line that accepts this scenario's new output: `bullseye verify FILE --mode update-failed`.
  public static func acceptCommand(file: String, options: VerifyOptions? = nil) -> String {
    var args = ["bullseye", "verify", file, "--mode", GoldenMode.updateFailed.rawValue]
    if let o = options, o.goldenRoot != "Golden" { args += ["--golden", o.goldenRoot] }
    if let o = options, o.scenarioRoot != "Scenarios" { args += ["--scenario-root", o.scenarioRoot] }
    return args.map(shellQuoted).joined(separator: " ")
  }

  /// `s` as one shell word: bare when it holds only safe characters, else single-quoted.
  static func shellQuoted(_ s: String) -> String {
    if !s.isEmpty, s.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_./=:,+@".contains($0)) }) { return s }
    return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
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

  /// JUnit XML: one `<testcase>` per scenario, failures naming golden or truth.
  static func junit(_ r: ReviewReport) -> String {
    let time = r.scenarios.reduce(0) { $0 + $1.seconds }
    var x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    x += "<testsuites tests=\"\(r.scenarios.count)\" failures=\"\(r.failed)\" time=\"\(String(format: "%.3f", time))\">\n"
    x += "<testsuite name=\"bullseye-verify\" tests=\"\(r.scenarios.count)\" failures=\"\(r.failed)\" skipped=\"0\">\n"
    for v in r.scenarios {
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
