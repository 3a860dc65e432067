import Obstacles

/// Silhouettes the frame synthesizer can draw.
public enum ObjectKind: String, Sendable, Hashable, CaseIterable {
  case person, chair, dog, door, table, bicycle
}

/// An object drawn at a box.
public struct DrawnObject: Sendable, Hashable {
  /// What to draw.
  public var kind: ObjectKind
  /// Where, normalized.
  public var box: NormalizedBox
  /// Memberwise.
  public init(kind: ObjectKind, box: NormalizedBox) {
    self.kind = kind
    self.box = box
  }
}

/// What the obstacle renderer draws: a seeded room of `width`×`height` and,
/// per frame, the objects standing in it.
public struct ObstacleScene: Sendable, Hashable {
  /// The one seed the room's look and every drawing choice derive from.
  public var seed: UInt64
  /// Frame size in pixels.
  public var width: Int, height: Int
  /// Objects of each frame, by frame index.
  public var objects: [[DrawnObject]]
  /// Memberwise.
  public init(seed: UInt64, width: Int, height: Int, objects: [[DrawnObject]]) {
    self.seed = seed
    self.width = width
    self.height = height
    self.objects = objects
  }
}
