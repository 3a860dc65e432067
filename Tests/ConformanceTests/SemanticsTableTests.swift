import Adjustment
@testable import Conformance
import Detection
import Imaging
import Foundation
@testable import Obstacles
import Persistence
@testable import Pipelines
import Scoring
import Testing

/// `docs/semantics.md` names every semantics: each case of each semantics enum,
/// each conformance axis value and each platform-profile entry has its row.
struct SemanticsTableTests {
  /// One row of the table; cells trimmed, `semantics` without backticks.
  struct Row {
    let semantics: String, value: String, does: String, source: String, axis: String
    /// Marked as the default where nothing is chosen, or as conformance's default.
    var isConformanceDefault: Bool { does.hasPrefix("**Default.**") || does.hasPrefix("**Default (conformance") }
  }

  /// The table's rows, group header rows (empty value) left out.
  static let rows: [Row] = {
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let path = root.appendingPathComponent("docs/semantics.md").path
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
    var out: [Row] = []
    for line in text.split(separator: "\n") where line.hasPrefix("|") {
      var cells = line.split(separator: "|", omittingEmptySubsequences: false)
        .map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == 7 else { continue }  // empty before the first and after the last bar
      cells = Array(cells[1...5])
      if cells[0] == "semantics" || cells[0].hasPrefix("---") || cells[1].isEmpty { continue }
      out.append(Row(semantics: cells[0].replacingOccurrences(of: "`", with: ""), value: cells[1],
                     does: cells[2], source: cells[3], axis: cells[4]))
    }
    return out
  }()

  /// The rows of one semantics, by name as the table's first column writes it.
  static func group(_ name: String) -> [Row] { rows.filter { $0.semantics == name } }

  /// Every case of `E` has exactly one row in `name`'s group, and the group has no other values.
  static func expectCovers<E: RawRepresentable & CaseIterable>(_ name: String, _: E.Type, sourceLocation: SourceLocation = #_sourceLocation)
  where E.RawValue == String {
    expectCovers(name, E.allCases.map(\.rawValue), sourceLocation: sourceLocation)
  }

  static func expectCovers(_ name: String, _ names: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    let values = group(name).map(\.value)
    for n in names {
      #expect(values.filter { $0 == "`\(n)`" }.count == 1, "\(name): value `\(n)` needs one row", sourceLocation: sourceLocation)
    }
    #expect(values.sorted() == names.map { "`\($0)`" }.sorted(), "\(name): rows \(values) vs cases \(names)",
            sourceLocation: sourceLocation)
    for row in group(name) {
      #expect(!row.does.isEmpty && !row.source.isEmpty && !row.axis.isEmpty, "\(name) \(row.value): empty cell",
              sourceLocation: sourceLocation)
    }
  }

  /// `ArrowIDs.Style` is not `CaseIterable`: this switch stops compiling when a case is added.
  static let arrowIDStyles: [ArrowIDs.Style] = {
    let all: [ArrowIDs.Style] = [.uuid, .int]
    for s in all {
      switch s {
      case .uuid, .int: break
      }
    }
    return all
  }()

  @Test func tableIsFound() {
    #expect(Self.rows.count > 50, "docs/semantics.md is missing or has no table rows")
    for row in Self.rows {
      #expect(row.value.hasPrefix("`") && row.value.hasSuffix("`"), "\(row.semantics): value \(row.value) is not in backticks")
    }
  }

  @Test func scoringEnums() {
    Self.expectCovers("BoundaryRule", BoundaryRule.self)
    Self.expectCovers("Precision", Precision.self)
    Self.expectCovers("SpotRule", SpotRule.self)
  }

  @Test func detectionEnums() {
    // `Detection.NMSVariant` cannot be spelled here (the module has a type `Detection`):
    // the profile's field has that type.
    Self.expectCovers("NMSVariant", type(of: PlatformProfile.all[0].nms))
    Self.expectCovers("NMSPolicy.Overlap", NMSPolicy.Overlap.self)
    Self.expectCovers("NMSPolicy.Classes", NMSPolicy.Classes.self)
    Self.expectCovers("NMSPolicy.Order", NMSPolicy.Order.self)
    Self.expectCovers("NMSPolicy.Measure", NMSPolicy.Measure.self)
    Self.expectCovers("OutputLayout", OutputLayout.self)
    Self.expectCovers("ConfidenceTest.Comparison", ConfidenceTest.Comparison.self)
    Self.expectCovers("ConfidenceTest.Arithmetic", ConfidenceTest.Arithmetic.self)
    // Not a String enum: the names the `input_mapping` axis uses.
    Self.expectCovers("InputMapping", ["stretch", "letterbox", "letterbox-unrounded"])
    Self.expectCovers("visionToPixels(flipped:)", ["flipped", "unflipped"])
    Self.expectCovers("OrientationSemantics", OrientationSemantics.self)
    Self.expectCovers("OutsideImpacts", OutsideImpacts.self)
  }

  @Test func adjustmentEnums() {
    Self.expectCovers("DragSemantics", DragSemantics.self)
    Self.expectCovers("ArrowIDs.Style", Self.arrowIDStyles.map(\.rawValue))
  }

  @Test func persistenceEnums() {
    Self.expectCovers("UpsertSemantics", UpsertSemantics.self)
    Self.expectCovers("CoordinatePolicy", CoordinatePolicy.self)
    Self.expectCovers("ResumeSemantics", ResumeSemantics.self)
    Self.expectCovers("SaveMode", SaveMode.self)
    // Named, so that the table keeps them even if the enums are reordered.
    for name in [ResumeSemantics.seed002.rawValue, ResumeSemantics.androidDocs.rawValue, ResumeSemantics.skipEmptyEnds.rawValue] {
      #expect(Self.group("ResumeSemantics").contains { $0.value == "`\(name)`" }, "\(name)")
    }
    for name in [SaveMode.atomic.rawValue, SaveMode.seed002Steps.rawValue] {
      #expect(Self.group("SaveMode").contains { $0.value == "`\(name)`" }, "\(name)")
    }
  }

  @Test func obstacleEnums() {
    Self.expectCovers("ZoneVariant", ZoneVariant.self)
    // Obstacles' own NMSVariant, reached through its semantics' field for the same reason.
    Self.expectCovers("Obstacles.NMSVariant", type(of: ObstacleSemantics.batsight.nms))
    Self.expectCovers("ConfidenceArithmetic", ConfidenceArithmetic.self)
    Self.expectCovers("VisionPick", VisionPick.self)
    Self.expectCovers("VisionSource", VisionSource.self)
    Self.expectCovers("DecisionReason", DecisionReason.self)
    // The table lists the Vision sources in priority order, as the app tries them.
    #expect(Self.group("VisionSource").map(\.value) == VisionSource.allCases.map { "`\($0.rawValue)`" })
  }

  /// Every value of every conformance axis has a row naming that axis, and
  /// exactly the axis's default is marked as the (conformance) default.
  @Test func everyAxisValue() {
    for axis in AxisTable.all {
      for value in axis.values {
        let matching = Self.rows.filter { $0.value == "`\(value)`" && $0.axis.contains("`\(axis.name)`") }
        #expect(!matching.isEmpty, "axis \(axis.name): value \(value) has no row")
        let marked = matching.contains { $0.isConformanceDefault }
        #expect(marked == (value == axis.defaultValue),
                "axis \(axis.name): \(value) is \(marked ? "" : "not ")marked default; the default is \(axis.defaultValue)")
      }
    }
    // Every axis a row names first is one of AxisTable.all's.
    let known = Set(AxisTable.all.map(\.name))
    for row in Self.rows where row.axis.hasPrefix("`") {
      let name = row.axis.split(separator: "`").first.map(String.init) ?? ""
      #expect(known.contains(name), "\(row.semantics) \(row.value): axis `\(name)` is not in AxisTable.all")
    }
  }

  /// Each platform profile's entries, as the table's `PlatformProfile.<field>` rows list them:
  /// the row's "what it does" begins with the profiles that use the value.
  @Test func platformProfiles() {
    for p in PlatformProfile.all {
      let fields: [(String, String)] = [
        ("preprocess", p.preprocess), ("roundedPadding", "\(p.roundedPadding)"), ("inputSize", "\(p.inputSize)"),
        ("confidence", "\(p.confidence)"), ("nms", p.nms.rawValue), ("iou", "\(p.iou)"), ("ids", p.ids.rawValue),
        ("drag", p.drag.rawValue), ("layout", p.layout.rawValue), ("coordinates", p.coordinates.rawValue),
        ("refine", "\(p.refine)"), ("outside", p.outside.rawValue),
        ("zoom", p.zoom.map { "margin \($0.margin), share \($0.maximumShare), windows \($0.windows.rawValue)" } ?? "none"),
        ("gateFallback", p.gateFallback.map { "\($0)" } ?? "none"),
        ("shaftCheck", p.shaftCheck.map { "keep \($0.keepAbove)" } ?? "none"),
      ]
      // A new field needs a row (and a line above): name + the fields listed.
      #expect(Mirror(reflecting: p).children.count == fields.count + 1, "PlatformProfile gained a field")
      for (field, value) in fields {
        let row = Self.group("PlatformProfile.\(field)").first { $0.value == "`\(value)`" }
        let users = row?.does.split(separator: ":").first.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        #expect(users?.contains(p.name) == true, "profile \(p.name): \(field) = \(value) has no row naming it")
      }
    }
  }
}
