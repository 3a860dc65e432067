import Foundation
import StrictYAML
import Yams

/// The keys every scenario shares, read before the kind's own strict decoder:
/// id, kind, and golden tolerances (each override needs a reason). The file is
/// read and parsed here once; the kind decodes the same `document`.
struct ScenarioHeader: Sendable {
  static let keys: Set<String> = ["tolerances", "image_tolerance"]
  let file: String
  let id: String
  let kind: String
  let tolerances: [PathTolerance]
  let image: ImageTolerance
  /// The parsed file.
  let document: YAMLDocument

  /// Reads and parses `file`.
  init(file: String) throws {
    let text: String
    do { text = try String(contentsOfFile: file, encoding: .utf8) } catch {
      // Foundation's reason ("the file isn't in the correct format") says neither which nor what.
      let readable = FileManager.default.isReadableFile(atPath: file)
      throw GoldenError(readable ? "\(file): is not UTF-8 text: expected a UTF-8 YAML file"
                                 : "\(file): cannot be read: \(error.localizedDescription)")
    }
    try self.init(file: file, text: text)
  }

  init(file: String, text: String) throws {
    self.file = file
    do { document = try StrictYAML.parse(text, path: file) } catch {
      throw GoldenError("\(file): \(error.message)")
    }
    guard let map = document.root.mapping else {
      throw GoldenError("\(file): a scenario is a YAML mapping")
    }
    func str(_ k: String) -> String? { map.first { $0.key.string == k }?.value.string }
    let base = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
    id = str("id") ?? base
    kind = str("kind") ?? "archery"
    guard !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }), !id.hasPrefix("."),
          !["gallery", "report"].contains(id) else {
      throw GoldenError("\(file): scenario id '\(id)' is not a plain name: expected letters, digits, '-', '_' or '.' (not gallery/report)")
    }
    var tol: [PathTolerance] = []
    for t in map.first(where: { $0.key.string == "tolerances" })?.value.sequence ?? [] {
      guard let m = t.mapping, let p = m["path"]?.string, let name = m["tolerance"]?.string,
            let kind = JSONTolerance(rawValue: name), let reason = m["reason"]?.string, !reason.isEmpty else {
        throw GoldenError("\(file): each tolerance needs path, tolerance (exact|close|loose) and a reason")
      }
      // A path is dot-separated keys or array positions, '*' for any one: anything else matches nothing, silently.
      let parts = p.split(separator: ".", omittingEmptySubsequences: false)
      guard parts.allSatisfy({ $0 == "*" || (!$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) }) else {
        throw GoldenError("\(file): tolerance path '\(p)' is not a result path: expected keys and positions joined by '.', '*' for any one (e.g. runs.*.result.target.*)")
      }
      tol.append(PathTolerance(pattern: p, tolerance: kind, reason: reason))
    }
    tolerances = tol
    if let m = map.first(where: { $0.key.string == "image_tolerance" })?.value.mapping {
      guard let th = m["threshold"]?.int, let mp = m["max_pixels"]?.int, let reason = m["reason"]?.string, !reason.isEmpty,
            (0...255).contains(th), mp >= 0 else {
        throw GoldenError("\(file): image_tolerance needs threshold (0...255), max_pixels (≥ 0) and a reason")
      }
      image = ImageTolerance(threshold: th, maxPixels: mp, reason: reason)
    } else {
      image = .zero
    }
  }
}
