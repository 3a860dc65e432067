import Obstacles
import Canvas

/// Outlines of the drawable object kinds, each in a unit box (0…1 both ways,
/// y down) that the caller maps onto the object's pixel box. Side views, so a
/// silhouette reads at a glance; filled with one colour.
enum Silhouette {
  /// Adds the kind's outline to the current path (unit-box coordinates).
  static func path(_ kind: ObjectKind, _ ctx: Context) {
    switch kind {
    case .person: person(ctx)
    case .chair: chair(ctx)
    case .dog: dog(ctx)
    case .door: door(ctx)
    case .table: table(ctx)
    case .bicycle: bicycle(ctx)
    }
  }

  /// Whether the outline is stroked (wire-like shapes) rather than filled.
  static func isStroked(_ kind: ObjectKind) -> Bool { kind == .bicycle }

  static func person(_ ctx: Context) {
    ctx.newSubPath()
    ctx.arc(cx: 0.5, cy: 0.08, radius: 0.08, from: 0, to: 2 * .pi)
    ctx.polygon([  // torso and arms
      (0.32, 0.18), (0.68, 0.18), (0.86, 0.52), (0.78, 0.55), (0.66, 0.32), (0.66, 0.56),
      (0.34, 0.56), (0.34, 0.32), (0.22, 0.55), (0.14, 0.52),
    ])
    ctx.polygon([(0.34, 0.55), (0.49, 0.55), (0.46, 1.0), (0.33, 1.0)])  // left leg
    ctx.polygon([(0.51, 0.55), (0.66, 0.55), (0.67, 1.0), (0.54, 1.0)])  // right leg
  }

  static func chair(_ ctx: Context) {
    ctx.rectangle(x: 0.12, y: 0.0, width: 0.14, height: 1.0)  // back post and rear leg
    ctx.rectangle(x: 0.12, y: 0.5, width: 0.8, height: 0.1)  // seat
    ctx.rectangle(x: 0.78, y: 0.6, width: 0.12, height: 0.4)  // front leg
    ctx.rectangle(x: 0.26, y: 0.08, width: 0.1, height: 0.34)  // back rest slat
  }

  static func dog(_ ctx: Context) {
    ctx.polygon([  // body, neck and head
      (0.12, 0.38), (0.62, 0.36), (0.72, 0.12), (0.86, 0.06), (0.98, 0.22), (0.96, 0.3),
      (0.82, 0.3), (0.78, 0.62), (0.14, 0.64),
    ])
    ctx.polygon([(0.78, 0.1), (0.84, 0.0), (0.88, 0.12)])  // ear
    ctx.polygon([(0.14, 0.42), (0.02, 0.2), (0.06, 0.18), (0.2, 0.38)])  // tail
    for x in [0.16, 0.3, 0.6, 0.72] {  // legs
      ctx.rectangle(x: x, y: 0.6, width: 0.08, height: 0.4)
    }
  }

  static func door(_ ctx: Context) {
    ctx.rectangle(x: 0, y: 0, width: 1, height: 1)
  }

  /// Inner details drawn lighter over the door (panels and knob).
  static func doorDetails(_ ctx: Context) {
    ctx.rectangle(x: 0.15, y: 0.08, width: 0.7, height: 0.36)
    ctx.rectangle(x: 0.15, y: 0.52, width: 0.7, height: 0.4)
    ctx.newSubPath()
    ctx.arc(cx: 0.82, cy: 0.5, radius: 0.05, from: 0, to: 2 * .pi)
  }

  static func table(_ ctx: Context) {
    ctx.rectangle(x: 0, y: 0, width: 1, height: 0.14)  // top
    ctx.rectangle(x: 0.06, y: 0.14, width: 0.1, height: 0.86)
    ctx.rectangle(x: 0.84, y: 0.14, width: 0.1, height: 0.86)
    ctx.rectangle(x: 0.06, y: 0.2, width: 0.88, height: 0.06)  // apron
  }

  static func bicycle(_ ctx: Context) {
    for cx in [0.22, 0.78] {
      ctx.newSubPath()
      ctx.arc(cx: cx, cy: 0.72, radius: 0.2, from: 0, to: 2 * .pi)
    }
    ctx.moveTo(0.22, 0.72)  // frame: rear wheel, seat, crank, head tube, front wheel
    ctx.lineTo(0.42, 0.3)
    ctx.lineTo(0.5, 0.72)
    ctx.lineTo(0.22, 0.72)
    ctx.moveTo(0.5, 0.72)
    ctx.lineTo(0.72, 0.32)
    ctx.lineTo(0.42, 0.3)
    ctx.moveTo(0.72, 0.32)
    ctx.lineTo(0.78, 0.72)
    ctx.moveTo(0.36, 0.22)  // saddle
    ctx.lineTo(0.5, 0.22)
    ctx.moveTo(0.66, 0.16)  // handlebar
    ctx.lineTo(0.72, 0.32)
  }
}
