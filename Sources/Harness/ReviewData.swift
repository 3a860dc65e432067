import Canvas
import Core
import Foundation

/// What the review page shows beside verdicts, computed while the outputs are
/// in memory: thumbnails, the changed area of an image, a side-by-side JSON
/// diff, archery changes in archery terms and the truth beside detections.
enum ReviewData {
  /// Thumbnails are at most this wide, so a passing run's folder stays small.
  static let thumbWidth = 240

  /// A box-filtered copy at most `thumbWidth` wide (the image itself when narrower).
  static func thumbnail(_ img: RGBA8Image) -> RGBA8Image? {
    guard img.width > thumbWidth else { return img }
    let w = thumbWidth, h = max(1, img.height * thumbWidth / img.width)
    var out = [UInt8](repeating: 0, count: w * h * 4)
    for y in 0..<h {
      let y0 = y * img.height / h, y1 = max(y0 + 1, (y + 1) * img.height / h)
      for x in 0..<w {
        let x0 = x * img.width / w, x1 = max(x0 + 1, (x + 1) * img.width / w)
        var sum = [0, 0, 0, 0]
        for yy in y0..<y1 {
          for xx in x0..<x1 {
            let i = (yy * img.width + xx) * 4
            for c in 0..<4 { sum[c] += Int(img.pixels[i + c]) }
          }
        }
        let n = (y1 - y0) * (x1 - x0), o = (y * w + x) * 4
        for c in 0..<4 { out[o + c] = UInt8(sum[c] / n) }
      }
    }
    return try? RGBA8Image(width: w, height: h, pixels: out)
  }

  /// The changed box padded by a quarter of its size (at least 8 px), kept inside the image.
  static func padded(_ box: [Int], width: Int, height: Int) -> [Int] {
    let pad = max(8, max(box[2], box[3]) / 4)
    let x0 = max(0, box[0] - pad), y0 = max(0, box[1] - pad)
    let x1 = min(width, box[0] + box[2] + pad), y1 = min(height, box[1] + box[3] + pad)
    return [x0, y0, x1 - x0, y1 - y0]
  }

  /// Side-by-side rows `[op, golden line no, golden text, actual line no, actual text]`
  /// with `context` unchanged lines around each change; op is `eq`, `del`,
  /// `ins`, `chg` or `gap` (skipped lines). At most `limit` rows.
  static func sideBySide(golden: String, actual: String, context: Int = 3, limit: Int = 400) -> [[String]] {
    let a = golden.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let b = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var pre = 0
    while pre < a.count, pre < b.count, a[pre] == b[pre] { pre += 1 }
    var suf = 0
    while suf < a.count - pre, suf < b.count - pre, a[a.count - 1 - suf] == b[b.count - 1 - suf] { suf += 1 }
    let ma = Array(a[pre..<(a.count - suf)]), mb = Array(b[pre..<(b.count - suf)])
    // Edit script over the middle: LCS when small enough, else one replaced block.
    var ops: [(Int?, Int?)] = (0..<pre).map { ($0, $0) }
    if ma.count * mb.count <= 4_000_000 {
      var t = [[Int]](repeating: [Int](repeating: 0, count: mb.count + 1), count: ma.count + 1)
      for i in stride(from: ma.count - 1, through: 0, by: -1) {
        for j in stride(from: mb.count - 1, through: 0, by: -1) {
          t[i][j] = ma[i] == mb[j] ? t[i + 1][j + 1] + 1 : max(t[i + 1][j], t[i][j + 1])
        }
      }
      var i = 0, j = 0
      while i < ma.count || j < mb.count {
        if i < ma.count, j < mb.count, ma[i] == mb[j] { ops.append((pre + i, pre + j)); i += 1; j += 1 }
        else if j < mb.count, i == ma.count || t[i][j + 1] >= t[i + 1][j] { ops.append((nil, pre + j)); j += 1 }
        else { ops.append((pre + i, nil)); i += 1 }
      }
    } else {
      ops += ma.indices.map { (pre + $0, nil) } + mb.indices.map { (nil, pre + $0) }
    }
    ops += (0..<suf).map { (a.count - suf + $0, b.count - suf + $0) }
    // Pair runs of deletions and insertions into changed rows.
    var rows: [[String]] = []
    var k = 0
    while k < ops.count {
      if let i = ops[k].0, let j = ops[k].1 { rows.append(["eq", "\(i + 1)", a[i], "\(j + 1)", b[j]]); k += 1; continue }
      var dels: [Int] = [], inss: [Int] = []
      while k < ops.count, ops[k].0 == nil || ops[k].1 == nil {
        if let i = ops[k].0 { dels.append(i) } else if let j = ops[k].1 { inss.append(j) }
        k += 1
      }
      for n in 0..<max(dels.count, inss.count) {
        let l = n < dels.count ? dels[n] : nil, r = n < inss.count ? inss[n] : nil
        rows.append([l != nil && r != nil ? "chg" : l != nil ? "del" : "ins", l.map { "\($0 + 1)" } ?? "", l.map { a[$0] } ?? "",
                     r.map { "\($0 + 1)" } ?? "", r.map { b[$0] } ?? ""])
      }
    }
    let changed = rows.indices.filter { rows[$0][0] != "eq" }
    var keep = Set<Int>()
    for c in changed { for d in max(0, c - context)...min(rows.count - 1, c + context) { keep.insert(d) } }
    var out: [[String]] = []
    var last = -1
    for r in keep.sorted() {
      if r != last + 1 { out.append(["gap", "", "", "", ""]) }
      out.append(rows[r]); last = r
      if out.count >= limit { out.append(["gap", "", "", "", ""]); break }
    }
    return out
  }

  /// An archery result's changes in archery terms, one line per profile:
  /// `ios: arrow 3: 9 → 7, end total 45 → 43`. Empty for other JSON.
  static func archerySummary(golden: JSONValue, actual: JSONValue) -> [String] {
    guard case .object(let g) = golden, case .object(let a) = actual, g["kind"] == .string("archery"),
          case .object(let gr)? = g["runs"], case .object(let ar)? = a["runs"] else { return [] }
    var lines: [String] = []
    for profile in Set(gr.keys).union(ar.keys).sorted() {
      let ge = result(gr[profile]), ae = result(ar[profile])
      let gd = labels(ge?["detections"]), ad = labels(ae?["detections"])
      var parts: [String] = []
      if gd.count != ad.count { parts.append("arrows \(gd.count) → \(ad.count)") }
      for i in 0..<max(gd.count, ad.count) {
        let x = i < gd.count ? gd[i] : "none", y = i < ad.count ? ad[i] : "none"
        if x != y { parts.append("arrow \(i + 1): \(x) → \(y)") }
      }
      let gt = ge?["end_total"].map(JSONValue.oneLine) ?? "none", at = ae?["end_total"].map(JSONValue.oneLine) ?? "none"
      if gt != at { parts.append("end total \(gt) → \(at)") }
      if gr[profile] == nil { parts = ["profile added"] } else if ar[profile] == nil { parts = ["profile missing"] }
      if !parts.isEmpty { lines.append("\(profile): " + parts.joined(separator: ", ")) }
    }
    return lines
  }

  /// Ground truth beside each profile's nearest detection: a header row, then
  /// one row per truth arrow, then detections no truth arrow is nearest to.
  static func truthTable(_ actual: JSONValue) -> [[String]] {
    guard case .object(let o) = actual, case .object(let truth)? = o["truth"], case .array(let arrows)? = truth["arrows"],
          case .object(let runs)? = o["runs"] else { return [] }
    let profiles = runs.keys.sorted()
    var rows = [["#", "truth"] + profiles.map { "\($0) detected" }]
    var used: [String: Set<Int>] = [:]
    for (n, t) in arrows.enumerated() {
      var row = ["\(n + 1)", point(t)]
      for p in profiles {
        let dets = detections(result(runs[p])?["detections"])
        let tx = number(t, "pixel_x"), ty = number(t, "pixel_y")
        let best = dets.indices.min { dist(dets[$0], tx, ty) < dist(dets[$1], tx, ty) }
        if let b = best {
          used[p, default: []].insert(b)
          row.append(point(dets[b]) + String(format: " (%.1f px)", dist(dets[b], tx, ty)))
        } else { row.append("—") }
      }
      rows.append(row)
    }
    for p in profiles {
      for (i, d) in detections(result(runs[p])?["detections"]).enumerated() where !(used[p]?.contains(i) ?? false) {
        rows.append(["extra", "—"] + profiles.map { $0 == p ? point(d) : "" })
      }
    }
    return rows.count > 1 ? rows : []
  }

  private static func result(_ run: JSONValue?) -> [String: JSONValue]? {
    guard case .object(let r)? = run, case .object(let res)? = r["result"] else { return nil }
    return res
  }
  private static func detections(_ v: JSONValue?) -> [JSONValue] {
    guard case .array(let a)? = v else { return [] }
    return a
  }
  private static func labels(_ v: JSONValue?) -> [String] {
    detections(v).map { d in
      if case .object(let o) = d, case .string(let l)? = o["label"] { return l }
      return JSONValue.oneLine(d)
    }
  }
  private static func number(_ v: JSONValue, _ k: String) -> Double {
    guard case .object(let o) = v else { return .nan }
    switch o[k] {
    case .int(let i)?: return Double(i)
    case .double(let d)?: return d
    default: return .nan
    }
  }
  private static func dist(_ d: JSONValue, _ x: Double, _ y: Double) -> Double {
    let dx = number(d, "pixel_x") - x, dy = number(d, "pixel_y") - y
    let r = (dx * dx + dy * dy).squareRoot()
    return r.isNaN ? .infinity : r
  }
  private static func point(_ v: JSONValue) -> String {
    var label = "?"
    if case .object(let o) = v, case .string(let l)? = o["label"] { label = l }
    return "\(label) at " + String(format: "%.1f, %.1f", number(v, "pixel_x"), number(v, "pixel_y"))
  }
}
