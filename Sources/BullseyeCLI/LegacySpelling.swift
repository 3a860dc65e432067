#if canImport(Glibc)
  import Glibc
#endif

/// Old command lines that keep working for one minor release: each is rewritten
/// to its new spelling before parsing, with one deprecation line on stderr.
enum LegacySpelling {
  /// The release that drops the old spellings (CHANGELOG.md, "Deprecated").
  static let removedIn = "0.3.0"

  /// `run --kind KIND …` (and `run …`, which meant `--kind archery`) → `run KIND …`.
  static func rewrite(_ args: [String]) -> [String] {
    guard args.first == "run" else { return args }
    var rest = Array(args.dropFirst())
    let kinds = RunKind.allCases.map(\.rawValue)
    if let next = rest.first, kinds.contains(next) || ["-h", "--help", "help"].contains(next) { return args }
    if rest.isEmpty { return args }
    var kind = "archery", old = "bullseye run` without a kind"
    if let i = rest.firstIndex(of: "--kind"), i + 1 < rest.count {
      kind = rest[i + 1]
      old = "bullseye run --kind \(kind)`"
      rest.removeSubrange(i...(i + 1))
    } else if let i = rest.firstIndex(where: { $0.hasPrefix("--kind=") }) {
      kind = String(rest[i].dropFirst("--kind=".count))
      old = "bullseye run --kind \(kind)`"
      rest.remove(at: i)
    }
    guard kinds.contains(kind) else {
      warn("--kind '\(kind)' is unknown: expected \(kinds.joined(separator: ", "))", prefix: "error")
      exit(2)
    }
    warn("`\(old) is deprecated: use `bullseye run \(kind)` (the old spelling goes in \(removedIn))")
    return ["run", kind] + rest
  }

  static func warn(_ text: String, prefix: String = "warning") {
    let line = Array("\(prefix): \(text)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  }
}
