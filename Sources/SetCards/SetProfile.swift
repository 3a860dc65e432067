/// The named Set-card profiles: which thresholds and which extra rules a run
/// follows. One table, so a run names its rules instead of carrying loose numbers,
/// and the seed's rules stay exactly the seed's.
public enum SetCardProfile: String, Sendable, Hashable, CaseIterable, Codable {
  /// Seed 004: the reference web app's thresholds and nothing more; the goldens pin it.
  case seed
  /// Bullseye's own, for users' photos: detections off the table (thumbnails, the
  /// game box, a strip of pictures at the frame's edge) and cards the classifier is
  /// unsure of are kept out of Sets and marked, not deleted.
  case photos

  /// Class-confidence threshold of `photos`, calibrated in Models/README.md: the
  /// lowest threshold at which 99 % of the shipped classifier's correctly read
  /// cards on held-out realistic renders still pass (0.864 there, rounded down).
  /// Retraining the classifier means calibrating again; this is the one place to change it.
  public static let photosClassThreshold = 0.83

  /// The profile's row of the table: its thresholds and rules.
  public var settings: SetProfileSettings {
    switch self {
    case .seed:
      return SetProfileSettings(pipeline: PipelineConfig(), tableFilter: nil, marksUncertain: false)
    case .photos:
      return SetProfileSettings(pipeline: PipelineConfig(classThreshold: Self.photosClassThreshold),
                                tableFilter: .photos, marksUncertain: true)
    }
  }

  /// One sentence on what the profile does, for `--help` and the docs.
  public var summary: String {
    switch self {
    case .seed:
      let c = settings.pipeline
      return "Seed 004's rules: the reference web app's thresholds (detection \(c.detectionThreshold), NMS IoU \(c.nmsIoUThreshold), merged \(c.mergedAreaRatio), class \(c.classThreshold))."
    case .photos:
      return "Bullseye's rules for your own photos: thumbnails, the game box and edge strips are marked off the table, and cards under class confidence \(Self.photosClassThreshold) are marked uncertain; neither joins a Set."
    }
  }
}

/// Everything a profile decides, as data.
public struct SetProfileSettings: Sendable, Hashable {
  /// The thresholds of detect → NMS → merged filter → class confidence.
  public var pipeline: PipelineConfig
  /// The off-table rules; nil leaves every detection on the table (the seed has none).
  public var tableFilter: TableFilterSettings?
  /// Whether cards under the class threshold are reported as uncertain (the seed
  /// only leaves them out of Sets).
  public var marksUncertain: Bool

  /// Memberwise, so a test or a scenario can build a variant.
  public init(pipeline: PipelineConfig, tableFilter: TableFilterSettings?, marksUncertain: Bool) {
    self.pipeline = pipeline
    self.tableFilter = tableFilter
    self.marksUncertain = marksUncertain
  }
}

/// The numbers of `TableFilter`'s rules, named so that a rule reads as its setting.
public struct TableFilterSettings: Sendable, Hashable {
  /// Thumbnail: a box whose area is under this share of the median card-box area.
  public var thumbnailAreaRatio: Double
  /// Card-shaped: width / height within this range (a card is 0.64 : 1, so 0.64
  /// upright or 1.56 lying); outside it the detection is a box, not a card.
  public var cardAspect: ClosedRange<Double>
  /// Edge strip: only boxes under this share of the median area can be part of one.
  public var stripAreaRatio: Double
  /// Edge strip: a box within this share of the image's side from an edge touches it.
  public var edgeMargin: Double
  /// Edge strip: the fewest such boxes along one edge that make a strip.
  public var stripMinCount: Int
  /// The fewest card-shaped boxes that give a median; with fewer, the size rules
  /// (thumbnail, edge strip) are off, as the merged filter is under 3 boxes.
  public var medianMinCount: Int

  /// Memberwise, so tests can vary one rule at a time.
  public init(thumbnailAreaRatio: Double, cardAspect: ClosedRange<Double>, stripAreaRatio: Double,
              edgeMargin: Double, stripMinCount: Int, medianMinCount: Int) {
    self.thumbnailAreaRatio = thumbnailAreaRatio
    self.cardAspect = cardAspect
    self.stripAreaRatio = stripAreaRatio
    self.edgeMargin = edgeMargin
    self.stripMinCount = stripMinCount
    self.medianMinCount = medianMinCount
  }

  /// The `photos` profile's rules (Bullseye's choice, for users' table photos).
  public static let photos = TableFilterSettings(
    thumbnailAreaRatio: 0.5, cardAspect: 0.45...2.2, stripAreaRatio: 0.7, edgeMargin: 0.03,
    stripMinCount: 3, medianMinCount: 3)
}
