import Obstacles
import Canvas
import Core

/// Synthesizes a scenario's frames with cairo: a room (wall, floor, window)
/// whose colours and lighting come from the scenario seed, and each frame's
/// objects as silhouettes at their boxes. Same scenario, same pixels.
public enum ObstacleRenderer {
  /// `render` bound to one scene: the frame source `ObstaclePipeline.run` takes.
  public static func frames(of scenario: ObstacleScene) -> (Int) throws(ObstacleError) -> RGBA8Image {
    { i throws(ObstacleError) in try render(scenario, frame: i) }
  }

  /// Frame `frame` of `scenario` as an opaque RGBA image.
  public static func render(_ scenario: ObstacleScene, frame: Int) throws(ObstacleError) -> RGBA8Image {
    guard scenario.objects.indices.contains(frame) else {
      throw .invalid(name: "frame index", value: String(frame), expected: "0…\(scenario.objects.count - 1)")
    }
    let w = Double(scenario.width), h = Double(scenario.height)
    // Independent sub-streams, so adding an object never shifts the room's colours.
    var base = SeededGenerator(seed: scenario.seed)
    var room = base.fork("room")
    var flicker = base.fork("frame-\(frame)")
    var objects = base.fork("objects")
    let look = RoomLook(&room)
    do {
      let surface = try Surface(width: scenario.width, height: scenario.height)
      let ctx = try Context(surface)
      paintRoom(ctx, look, w: w, h: h)
      for (i, object) in scenario.objects[frame].enumerated() {
        var rng = objects.fork("object-\(i)")
        paintObject(ctx, object, shade: rng.uniform(0.08...0.22), w: w, h: h)
      }
      // Light falls off away from the light's x; a per-frame flicker of ±4 %.
      let light = look.lightX * w
      ctx.setRadialGradient(
        cx0: light, cy0: 0, r0: 0, cx1: light, cy1: 0, r1: max(w, h) * 1.2,
        stops: [(0, Color(hex: 0xFFFFFF, alpha: look.lightStrength)), (1, Color(hex: 0x000000, alpha: look.lightStrength))])
      ctx.paint()
      let f = flicker.uniform(-0.04...0.04)
      ctx.setSource(f > 0 ? Color(hex: 0xFFFFFF, alpha: f) : Color(hex: 0x000000, alpha: -f))
      ctx.paint()
      try ctx.check()
      return surface.image()
    } catch { throw .canvas(error) }
  }

  /// The seeded look of the room, drawn once per scenario.
  struct RoomLook {
    var wall: Color, floor: Color, trim: Color
    var horizon: Double, lightX: Double, lightStrength: Double
    var window: (x: Double, width: Double)?

    init(_ rng: inout SeededGenerator) {
      let walls: [UInt32] = [0xD8D2C4, 0xC9D6DF, 0xE3D5C0, 0xBFC8B8, 0xD9CFE0]
      let floors: [UInt32] = [0x8A6A4A, 0x6F6A64, 0x9C8A70, 0x5E5048]
      wall = Self.jitter(Color(hex: rng.pick(walls)), &rng)
      floor = Self.jitter(Color(hex: rng.pick(floors)), &rng)
      trim = Color(hex: 0xF2F0EA)
      horizon = rng.uniform(0.58...0.7)
      lightX = rng.uniform(0.1...0.9)
      lightStrength = rng.uniform(0.08...0.22)
      window = rng.chance(0.6) ? (rng.uniform(0.05...0.6), rng.uniform(0.15...0.3)) : nil
    }

    static func jitter(_ c: Color, _ rng: inout SeededGenerator) -> Color {
      let k = rng.uniform(0.9...1.05)
      return Color(r: min(1, c.r * k), g: min(1, c.g * k), b: min(1, c.b * k))
    }
  }

  static func paintRoom(_ ctx: Context, _ look: RoomLook, w: Double, h: Double) {
    let y = look.horizon * h
    ctx.setLinearGradient(x0: 0, y0: 0, x1: 0, y1: y, stops: [(0, shaded(look.wall, 0.85)), (1, look.wall)])
    ctx.rectangle(x: 0, y: 0, width: w, height: y)
    ctx.fill()
    ctx.setLinearGradient(x0: 0, y0: y, x1: 0, y1: h, stops: [(0, shaded(look.floor, 0.8)), (1, look.floor)])
    ctx.rectangle(x: 0, y: y, width: w, height: h - y)
    ctx.fill()
    ctx.setSource(look.trim)  // skirting board
    ctx.rectangle(x: 0, y: y - h * 0.02, width: w, height: h * 0.02)
    ctx.fill()
    if let win = look.window {
      ctx.setSource(Color(hex: 0xEAF4FF))
      ctx.rectangle(x: win.x * w, y: h * 0.12, width: win.width * w, height: h * 0.28)
      ctx.fill()
      ctx.setSource(look.trim)
      ctx.setLineWidth(max(2, w / 160))
      ctx.rectangle(x: win.x * w, y: h * 0.12, width: win.width * w, height: h * 0.28)
      ctx.moveTo((win.x + win.width / 2) * w, h * 0.12)
      ctx.lineTo((win.x + win.width / 2) * w, h * 0.4)
      ctx.stroke()
    }
  }

  /// A soft floor shadow, then the silhouette mapped onto the pixel box.
  static func paintObject(_ ctx: Context, _ o: DrawnObject, shade: Double, w: Double, h: Double) {
    let bx = o.box.x * w, by = o.box.y * h, bw = o.box.width * w, bh = o.box.height * h
    guard bw > 0.5, bh > 0.5 else { return }
    ctx.save()
    ctx.translate(bx + bw / 2, by + bh)
    ctx.scale(bw * 0.6, max(2, bh * 0.05))
    ctx.newSubPath()
    ctx.arc(cx: 0, cy: 0, radius: 1, from: 0, to: 2 * .pi)
    ctx.restore()
    ctx.setSource(Color(hex: 0x000000, alpha: 0.25))
    ctx.fill()
    let ink = Color(r: shade, g: shade * 0.95, b: shade * 1.1)
    ctx.save()
    ctx.translate(bx, by)
    ctx.scale(bw, bh)
    Silhouette.path(o.kind, ctx)
    ctx.restore()
    ctx.setSource(ink)
    if Silhouette.isStroked(o.kind) {
      ctx.setLineWidth(max(2, min(bw, bh) * 0.05))
      ctx.stroke()
    } else {
      ctx.fill()
    }
    if o.kind == .door {
      ctx.save()
      ctx.translate(bx, by)
      ctx.scale(bw, bh)
      Silhouette.doorDetails(ctx)
      ctx.restore()
      ctx.setSource(Color(r: shade + 0.12, g: shade + 0.1, b: shade + 0.08))
      ctx.fill()
    }
  }

  static func shaded(_ c: Color, _ k: Double) -> Color { Color(r: c.r * k, g: c.g * k, b: c.b * k, a: c.a) }
}
