import Foundation
import Testing

/// `docs/architecture.md`'s module table against `Package.swift`: one row per
/// library, executable and C target (test targets left out), the "depends on"
/// column equal to the target's dependencies inside the package, every such
/// dependency of strictly lower rank, and no cycle. `Package.swift` is read as
/// text, so the test sees exactly what the manifest declares.
struct ArchitectureTableTests {
  /// One row of the module table; `rank` is nil when its cell is not an integer.
  struct Row: Equatable {
    let module: String, rankText: String, dependsOn: [String], holds: String
    var rank: Int? { Int(rankText) }
  }

  /// One target of the manifest: its kind (`target`, `executableTarget`,
  /// `systemLibrary`, `testTarget`, …), name, and the names of its dependencies
  /// given as strings, `.target(name:)` or `.byName(name:)` (`.product(...)`
  /// entries are other packages' and left out).
  struct Target: Equatable {
    let kind: String, name: String, dependencies: [String]
    var isTest: Bool { kind == "testTarget" }
  }

  /// What the manifest parser read, and what it could not read (each a sentence).
  struct Manifest {
    var targets: [Target] = []
    var unreadable: [String] = []
  }

  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func text(_ relative: String) -> String? {
    try? String(contentsOfFile: root.appendingPathComponent(relative).path, encoding: .utf8)
  }

  static let header = ["module", "rank", "depends on", "what it holds"]

  // MARK: The module table

  /// The rows of the table whose header is `| module | rank | depends on | what it holds |`;
  /// rows with the wrong number of cells come back in `malformed`.
  static func parseTable(_ markdown: String) -> (rows: [Row], malformed: [String]) {
    let lines = markdown.components(separatedBy: "\n")
    guard let start = lines.firstIndex(where: { cells($0) == header }) else { return ([], []) }
    var rows: [Row] = [], malformed: [String] = []
    for line in lines[(start + 1)...] {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      guard trimmed.hasPrefix("|") else { break }
      let c = cells(trimmed)
      if c.allSatisfy({ $0.allSatisfy { "-:".contains($0) } }) { continue }  // the |---|---| line
      guard c.count == header.count else {
        malformed.append("module table row has \(c.count) cells, expected \(header.count): \(trimmed)")
        continue
      }
      let deps = c[2].split(separator: ",").map { unticked(String($0)) }.filter { !["", "—", "–", "-"].contains($0) }
      rows.append(Row(module: unticked(c[0]), rankText: c[1], dependsOn: deps, holds: c[3]))
    }
    return (rows, malformed)
  }

  /// A table line's cells, trimmed, without the empty ones outside the first and last bar;
  /// `\|` is a bar inside a cell.
  static func cells(_ line: String) -> [String] {
    let t = line.trimmingCharacters(in: .whitespaces)
    guard t.hasPrefix("|") else { return [] }
    let marker = "\u{0}"
    var parts = t.replacingOccurrences(of: "\\|", with: marker).components(separatedBy: "|")
      .map { $0.replacingOccurrences(of: marker, with: "|").trimmingCharacters(in: .whitespaces) }
    parts.removeFirst()
    if parts.last == "" { parts.removeLast() }
    return parts
  }

  static func unticked(_ s: String) -> String {
    s.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "").trimmingCharacters(in: .whitespaces)
  }

  /// Every disagreement between the table and the manifest, one sentence each,
  /// naming the module and, where there is one, the offending dependency.
  static func problems(rows: [Row], targets: [Target]) -> [String] {
    var out: [String] = []
    if rows.isEmpty { out.append("the module table of docs/architecture.md has no rows") }
    let modules = targets.filter { !$0.isTest }
    let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    var rowOf: [String: Row] = [:]
    for row in rows {
      if rowOf[row.module] != nil {
        out.append("`\(row.module)` has more than one row in the module table")
      } else {
        rowOf[row.module] = row
      }
      if row.rank == nil { out.append("`\(row.module)`: rank '\(row.rankText)' is not an integer") }
      if row.holds.isEmpty { out.append("`\(row.module)`: the 'what it holds' cell is empty") }
      if Set(row.dependsOn).count != row.dependsOn.count {
        out.append("`\(row.module)`: the depends-on column names a module twice: \(row.dependsOn)")
      }
      switch byName[row.module] {
      case nil: out.append("`\(row.module)` has a row but is no target in Package.swift")
      case let t? where t.isTest: out.append("`\(row.module)` is a test target: the module table lists no test targets")
      default: break
      }
    }
    for t in modules {
      guard let row = rowOf[t.name] else {
        out.append("`\(t.name)` (.\(t.kind) in Package.swift) has no row in the module table")
        continue
      }
      // Dependencies inside the package: names of its non-test targets.
      let inside = t.dependencies.filter { byName[$0].map { !$0.isTest } ?? false }
      for d in inside {
        guard let rank = row.rank else { continue }
        guard let depRank = rowOf[d]?.rank else {
          out.append("`\(t.name)` depends on `\(d)`, which has no integer rank in the module table")
          continue
        }
        if depRank >= rank {
          out.append("`\(t.name)` (rank \(rank)) depends on `\(d)` (rank \(depRank)): "
                     + "a module may only depend on modules of strictly lower rank")
        }
      }
      for d in Set(inside).subtracting(row.dependsOn).sorted() {
        out.append("`\(t.name)`: Package.swift declares the dependency `\(d)`, which its depends-on column leaves out")
      }
      for d in Set(row.dependsOn).subtracting(inside).sorted() {
        out.append("`\(t.name)`: its depends-on column lists `\(d)`, which Package.swift does not declare as its dependency")
      }
    }
    out += cycles(modules).map { "dependency cycle: " + $0.map { "`\($0)`" }.joined(separator: " → ") }
    return out
  }

  /// Each cycle among `targets`' dependencies, as a path that ends where it starts.
  static func cycles(_ targets: [Target]) -> [[String]] {
    let deps = Dictionary(targets.map { ($0.name, $0.dependencies) }, uniquingKeysWith: { a, _ in a })
    var state: [String: Int] = [:]  // 1: on the current path, 2: done
    var path: [String] = []
    var found: [[String]] = []
    func visit(_ n: String) {
      state[n] = 1
      path.append(n)
      for d in deps[n] ?? [] where deps[d] != nil {
        if state[d] == 1, let i = path.firstIndex(of: d) {
          found.append(Array(path[i...]) + [d])
        } else if state[d] == nil {
          visit(d)
        }
      }
      path.removeLast()
      state[n] = 2
    }
    for t in targets.map(\.name).sorted() where state[t] == nil { visit(t) }
    return found
  }

  // MARK: Tests

  static let table = parseTable(text("docs/architecture.md") ?? "")
  static let manifest = parseManifest(text("Package.swift") ?? "")

  @Test func tableIsFound() {
    #expect(Self.text("docs/architecture.md") != nil, "docs/architecture.md cannot be read")
    #expect(!Self.table.rows.isEmpty, "docs/architecture.md has no module table (header \(Self.header))")
    for m in Self.table.malformed { Issue.record("\(m)") }
  }

  @Test func manifestIsRead() {
    #expect(Self.text("Package.swift") != nil, "Package.swift cannot be read")
    for u in Self.manifest.unreadable { Issue.record("\(u)") }
    let t = Self.manifest.targets
    #expect(t.contains { $0.name == "BullseyeCLI" && $0.kind == "executableTarget" && $0.dependencies.contains("Harness") })
    #expect(t.contains { $0.name == "CCairo" && $0.kind == "systemLibrary" })
    #expect(t.contains { $0.name == "Core" && $0.kind == "target" && $0.dependencies.isEmpty })
    #expect(t.contains { $0.isTest }, "no test targets read: the parser missed `.testTarget(`")
  }

  @Test func tableMatchesPackage() {
    let found = Self.problems(rows: Self.table.rows, targets: Self.manifest.targets)
    for p in found { Issue.record("\(p)") }
  }

  // The checker itself, on a small manifest and table, so that it can be seen to fail.

  static let sampleManifest = """
    // swift-tools-version:6.0
    import PackageDescription
    let package = Package(
      name: "Sample",
      products: [.library(name: "Lib", targets: ["A"])],  // .target(name: "Commented") is no target
      dependencies: [.package(url: "https://example.com/yams", from: "1.0.0")],
      targets: [
        .systemLibrary(name: "CShim", pkgConfig: "shim"),
        .target(name: "A", dependencies: ["CShim"]),
        /* .target(name: "Hidden"), */
        .target(name: "B", dependencies: ["A", .product(name: "Yams", package: "yams")]),
        .executableTarget(name: "Tool", dependencies: [.target(name: "B"), "A"]),
        .testTarget(name: "BTests", dependencies: ["B"]),
      ]
    )
    """

  static func sampleTable(_ rows: [String]) -> [Row] {
    parseTable((["| module | rank | depends on | what it holds |", "|---|---|---|---|"] + rows).joined(separator: "\n")).rows
  }

  static let goodRows = [
    "| `CShim` | 0 | — | C |", "| `A` | 1 | CShim | a |", "| `B` | 2 | A | b |", "| `Tool` | 3 | `B`, `A` | tool |",
  ]

  @Test func checkerPassesAConsistentSample() {
    let m = Self.parseManifest(Self.sampleManifest)
    #expect(m.unreadable.isEmpty, "\(m.unreadable)")
    #expect(m.targets.map(\.name) == ["CShim", "A", "B", "Tool", "BTests"])
    #expect(m.targets.first { $0.name == "B" }?.dependencies == ["A"])
    #expect(m.targets.first { $0.name == "Tool" }?.dependencies == ["B", "A"])
    #expect(Self.problems(rows: Self.sampleTable(Self.goodRows), targets: m.targets) == [])
  }

  @Test func checkerCatchesAnUpwardDependency() {
    // A dependency added upward: A now depends on Tool (rank 3), which depends on A.
    let m = Self.parseManifest(Self.sampleManifest.replacingOccurrences(
      of: #".target(name: "A", dependencies: ["CShim"])"#, with: #".target(name: "A", dependencies: ["CShim", "Tool"])"#))
    let found = Self.problems(rows: Self.sampleTable(Self.goodRows), targets: m.targets)
    #expect(found.contains("`A` (rank 1) depends on `Tool` (rank 3): a module may only depend on modules of strictly lower rank"),
            "\(found)")
    #expect(found.contains("`A`: Package.swift declares the dependency `Tool`, which its depends-on column leaves out"), "\(found)")
    #expect(found.contains { $0.hasPrefix("dependency cycle:") && $0.contains("`A`") && $0.contains("`Tool`") }, "\(found)")
  }

  @Test func checkerCatchesRanksRowsAndColumns() {
    let m = Self.parseManifest(Self.sampleManifest).targets
    // Equal rank is not lower.
    var rows = Self.goodRows
    rows[1] = "| `A` | 2 | CShim | a |"
    #expect(Self.problems(rows: Self.sampleTable(rows), targets: m).contains {
      $0.hasPrefix("`B` (rank 2) depends on `A` (rank 2)")
    })
    // A target without a row, a row without a target, a test target's row.
    rows = Array(Self.goodRows.dropLast()) + ["| `Ghost` | 9 | — | nothing |", "| `BTests` | 9 | B | tests |"]
    let found = Self.problems(rows: Self.sampleTable(rows), targets: m)
    #expect(found.contains("`Tool` (.executableTarget in Package.swift) has no row in the module table"), "\(found)")
    #expect(found.contains("`Ghost` has a row but is no target in Package.swift"), "\(found)")
    #expect(found.contains { $0.hasPrefix("`BTests` is a test target") }, "\(found)")
    // The depends-on column must say what the manifest says.
    rows = Self.goodRows
    rows[2] = "| `B` | 2 | CShim | b |"
    let column = Self.problems(rows: Self.sampleTable(rows), targets: m)
    #expect(column.contains("`B`: Package.swift declares the dependency `A`, which its depends-on column leaves out"), "\(column)")
    #expect(column.contains("`B`: its depends-on column lists `CShim`, which Package.swift does not declare as its dependency"),
            "\(column)")
    // No rows at all.
    #expect(Self.problems(rows: [], targets: m).contains("the module table of docs/architecture.md has no rows"))
  }
}
