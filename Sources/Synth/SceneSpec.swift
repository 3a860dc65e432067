/// What a scene file or the `synth` command asks for. Every field is optional
/// except the face: whatever is left out is drawn from the seed, so a scene can
/// pin only what it cares about and stay reproducible.
public struct SceneSpec: Sendable, Hashable, Decodable {
  var id: String?
  var face: String
  public var diameterCm: Double?
  public var seed: UInt64
  var size: ImageSize
  public var camera: CameraSpec
  var scene: LookSpec
  public var arrows: [ArrowSpec]?
  var arrowCount: Int?
  /// Share of drawn arrows placed touching the arrow drawn before them (nil: 0.10,
  /// `Scene.defaultTouchingShare`); more of them make pair-rich training scenes.
  public var touchingShare: Double?
  /// The shares `touchingShare` may take: what the ring-line (0.15) and wide (0.07)
  /// bands of `Scene.randomPoint` leave.
  public static let touchingShares: ClosedRange<Double> = 0...0.78
  /// The scene's look: `classic` (the default) or `realistic`.
  public var style: ArcheryStyle = .classic

  /// A spec with everything but the face, seed, size and arrow count left to the seed.
  public init(face: String, seed: UInt64, size: ImageSize = ImageSize(width: 1280, height: 960),
              arrowCount: Int? = nil) {
    self.face = face; self.seed = seed; self.size = size; self.arrowCount = arrowCount
    camera = CameraSpec(); scene = LookSpec()
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case id, kind, description, face, seed, size, camera, scene, arrows, style
    case diameterCm = "diameter_cm", arrowCount = "arrow_count", touchingShare = "touching_share"
  }

  public init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    if let kind = try c.decodeIfPresent(String.self, forKey: .kind), kind != "archery" {
      throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "kind '\(kind)' is not a target scene: expected archery")
    }
    id = try c.decodeIfPresent(String.self, forKey: .id)
    // Read only by people, but a list or mapping there is a mistake in the file.
    _ = try c.decodeIfPresent(String.self, forKey: .description)
    face = try c.decode(String.self, forKey: .face)
    diameterCm = try c.decodeIfPresent(Double.self, forKey: .diameterCm)
    seed = try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? 0
    size = try c.decodeIfPresent(ImageSize.self, forKey: .size) ?? ImageSize(width: 1280, height: 960)
    camera = try c.decodeIfPresent(CameraSpec.self, forKey: .camera) ?? CameraSpec()
    scene = try c.decodeIfPresent(LookSpec.self, forKey: .scene) ?? LookSpec()
    arrows = try c.decodeIfPresent([ArrowSpec].self, forKey: .arrows)
    arrowCount = try c.decodeIfPresent(Int.self, forKey: .arrowCount)
    touchingShare = try c.decodeIfPresent(Double.self, forKey: .touchingShare)
    if let word = try c.decodeIfPresent(String.self, forKey: .style) {
      guard let s = ArcheryStyle(rawValue: word) else {
        throw DecodingError.dataCorruptedError(forKey: .style, in: c,
          debugDescription: "style '\(word)' is unknown: expected one of \(ArcheryStyle.allCases.map(\.rawValue).joined(separator: ", "))")
      }
      style = s
    }
  }
}

/// An image size written `WIDTHxHEIGHT`.
public struct ImageSize: Sendable, Hashable, Decodable, CustomStringConvertible {
  public let width: Int, height: Int
  public init(width: Int, height: Int) { self.width = width; self.height = height }

  /// Parses `1280x960`; nil when the text is not two positive integers.
  public init?(parsing text: String) {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
    width = w; height = h
  }

  public init(from decoder: Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let s = ImageSize(parsing: text) else {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
        debugDescription: "size '\(text)' is not WIDTHxHEIGHT: expected e.g. 1280x960"))
    }
    self = s
  }

  public var description: String { "\(width)x\(height)" }
}

/// Camera pose; nil fields come from the seed.
public struct CameraSpec: Sendable, Hashable, Decodable {
  var center: [Double]?
  var radius: Double?
  var rotationDeg: Double?
  public var tiltDeg: Double?
  var tiltAxisDeg: Double?
  var focalPx: Double?
  init() {}

  enum CodingKeys: String, CodingKey, CaseIterable {
    case center, radius
    case rotationDeg = "rotation_deg", tiltDeg = "tilt_deg", tiltAxisDeg = "tilt_axis_deg", focalPx = "focal_px"
  }

  public init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    center = try c.decodeIfPresent([Double].self, forKey: .center)
    radius = try c.decodeIfPresent(Double.self, forKey: .radius)
    rotationDeg = try c.decodeIfPresent(Double.self, forKey: .rotationDeg)
    tiltDeg = try c.decodeIfPresent(Double.self, forKey: .tiltDeg)
    tiltAxisDeg = try c.decodeIfPresent(Double.self, forKey: .tiltAxisDeg)
    focalPx = try c.decodeIfPresent(Double.self, forKey: .focalPx)
  }
}

/// The look of the photo; nil fields come from the seed.
struct LookSpec: Sendable, Hashable, Decodable {
  var background: Background?
  var boss: Boss?
  var lighting: Double?
  var vignette: Double?
  var whiteBalance: WhiteBalance?
  var blur: Double?
  var noise: Double?
  var jpeg: Double?
  var oldHoles: Int?
  var tornCentre: Bool?
  init() {}

  enum CodingKeys: String, CodingKey, CaseIterable {
    case background, boss, lighting, vignette, blur, noise, jpeg
    case whiteBalance = "white_balance", oldHoles = "old_holes", tornCentre = "torn_centre"
  }

  init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    background = try c.decodeIfPresent(Background.self, forKey: .background)
    boss = try c.decodeIfPresent(Boss.self, forKey: .boss)
    lighting = try c.decodeIfPresent(Double.self, forKey: .lighting)
    vignette = try c.decodeIfPresent(Double.self, forKey: .vignette)
    whiteBalance = try c.decodeIfPresent(WhiteBalance.self, forKey: .whiteBalance)
    blur = try c.decodeIfPresent(Double.self, forKey: .blur)
    noise = try c.decodeIfPresent(Double.self, forKey: .noise)
    jpeg = try c.decodeIfPresent(Double.self, forKey: .jpeg)
    oldHoles = try c.decodeIfPresent(Int.self, forKey: .oldHoles)
    tornCentre = try c.decodeIfPresent(Bool.self, forKey: .tornCentre)
  }
}

/// What is behind the boss.
enum Background: String, Sendable, Hashable, Decodable, CaseIterable { case plain, gradient, straw }
/// What the face is pinned to.
enum Boss: String, Sendable, Hashable, Decodable, CaseIterable { case straw, foam }
/// Colour cast of the photo.
enum WhiteBalance: String, Sendable, Hashable, Decodable, CaseIterable { case neutral, warm, cool }
/// How an arrow appears: a bare hole, or a shaft with fletching and nock.
public enum ArrowStyle: String, Sendable, Hashable, Decodable, CaseIterable { case hole, shaft }

/// One arrow by its impact point in face units.
public struct ArrowSpec: Sendable, Hashable, Decodable {
  var x: Double
  var y: Double
  var style: ArrowStyle?
  var shaftMM: Double?
  public init(x: Double, y: Double, style: ArrowStyle? = nil, shaftMM: Double? = nil) {
    self.x = x; self.y = y; self.style = style; self.shaftMM = shaftMM
  }

  enum CodingKeys: String, CodingKey, CaseIterable { case x, y, style, shaftMM = "shaft_mm" }

  public init(from decoder: Decoder) throws {
    try decoder.rejectUnknownKeys(CodingKeys.self)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    x = try c.decode(Double.self, forKey: .x)
    y = try c.decode(Double.self, forKey: .y)
    style = try c.decodeIfPresent(ArrowStyle.self, forKey: .style)
    shaftMM = try c.decodeIfPresent(Double.self, forKey: .shaftMM)
  }
}
