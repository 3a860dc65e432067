/// Where each buffer of a plan lives in the arena, and which copy steps the
/// layout makes unnecessary.
///
/// A join (a Concat whose leading dimensions are all 1, so each input is one
/// contiguous slice of the output) becomes a set of views: every input is
/// written by its producer straight into its slice, and the Concat step is
/// dropped. YOLO-style graphs concatenate in every block; the copy was a
/// serial memory pass each time (YOLO11n at 320: 0.38 of 19.4 ms on one
/// thread, and a larger share on two, where it barely split).
struct ArenaLayout {
  /// One step as the layout sees it: buffer ids (nil: a constant or an
  /// absent optional input), and for a join each input's first element in
  /// the output.
  struct Step {
    var ins: [Int?]
    var outs: [Int]
    var ws: Int?
    var join: [Int]?
  }

  /// Offset of each buffer in the arena, in floats.
  private(set) var offsets: [Int]
  /// Floats the arena needs.
  private(set) var high = 0
  /// Steps whose outputs the layout already assembles (joins in place).
  private(set) var dropped: Set<Int> = []

  /// `sizes` in floats (multiples of 16); `lastUse` the last step reading
  /// each buffer (-1 never, `Int.max` a graph output); `inputs` the graph
  /// inputs' buffers, allocated first.
  init(sizes: [Int], lastUse: [Int], inputs: [Int], steps: [Step]) {
    offsets = [Int](repeating: 0, count: sizes.count)
    var def = [Int](repeating: -1, count: sizes.count)
    for (s, st) in steps.enumerated() { for id in st.outs { def[id] = s } }
    // View id -> (root id, offset in floats). Views never nest: a join's
    // output that is itself joined later keeps its copy.
    var root = [Int?](repeating: nil, count: sizes.count)
    var start = [Int](repeating: 0, count: sizes.count)
    var views: [Int: [Int]] = [:]
    for (s, st) in steps.enumerated() {
      guard let starts = st.join, st.outs.count == 1, starts.count == st.ins.count else { continue }
      let ids = st.ins.compactMap { $0 }
      let out = st.outs[0]
      guard ids.count == st.ins.count, Set(ids).count == ids.count,
        // Slices on 64-byte boundaries: every slice but the last then spans
        // whole 16-float blocks, so no producer's padding reaches the next.
        starts.allSatisfy({ $0 % 16 == 0 }),
        ids.allSatisfy({ def[$0] >= 0 && def[$0] < s && root[$0] == nil && views[$0] == nil && $0 != out })
      else { continue }
      for (k, id) in ids.enumerated() {
        root[id] = out
        start[id] = starts[k]
      }
      views[out] = ids
      dropped.insert(s)
    }

    // A root lives from the first step writing any part of it to the last
    // step reading any part of it.
    var allocAt: [Int: [Int]] = [:]
    var freeAt: [Int: [Int]] = [:]
    let inputSet = Set(inputs)
    let workspaces = Set(steps.compactMap(\.ws))
    for id in sizes.indices where root[id] == nil && !workspaces.contains(id) {
      var first = def[id], last = lastUse[id]
      for v in views[id] ?? [] {
        first = min(first, def[v])
        last = max(last, lastUse[v])
      }
      if !inputSet.contains(id), first >= 0 { allocAt[first, default: []].append(id) }
      if last >= 0, last != Int.max { freeAt[last, default: []].append(id) }
    }

    var free: [(Int, Int)] = []
    var top = 0
    func alloc(_ size: Int) -> Int {
      if let k = free.firstIndex(where: { $0.1 >= size }) {
        let (start, len) = free[k]
        if len == size { free.remove(at: k) } else { free[k] = (start + size, len - size) }
        return start
      }
      top += size
      return top - size
    }
    func release(_ start: Int, _ size: Int) {
      guard size > 0 else { return }
      free.append((start, size))
      free.sort { $0.0 < $1.0 }
      var merged: [(Int, Int)] = []
      for f in free {
        if let last = merged.last, last.0 + last.1 == f.0 {
          merged[merged.count - 1].1 += f.1
        } else {
          merged.append(f)
        }
      }
      if let last = merged.last, last.0 + last.1 == top {
        top = last.0
        merged.removeLast()
      }
      free = merged
    }
    for id in inputs { offsets[id] = alloc(sizes[id]) }
    high = top
    for (s, st) in steps.enumerated() {
      for id in (allocAt[s] ?? []).sorted() { offsets[id] = alloc(sizes[id]) }
      if let w = st.ws { offsets[w] = alloc(sizes[w]) }
      high = max(high, top)
      if let w = st.ws { release(offsets[w], sizes[w]) }
      for id in freeAt[s] ?? [] { release(offsets[id], sizes[id]) }
    }
    for id in sizes.indices { if let r = root[id] { offsets[id] = offsets[r] + start[id] } }
  }
}
