/// Where each buffer of a plan lives in the arena, and which copy steps the
/// layout makes unnecessary.
///
/// A join (a Concat whose leading dimensions are all 1, so each input is one
/// contiguous slice of the output) becomes a set of views: every input is
/// written by its producer straight into its slice, and the Concat step is
/// dropped. A Split of the same kind whose outputs are read where they lie:
/// when they are consecutive slices of one join, its input is written there
/// (YOLO's C2f and C3k2 blocks split a convolution's output in two and join
/// both halves again); otherwise each output is a view of its input. The
/// copies were serial memory passes in every block (YOLO11n at 320: 0.46 of
/// 19.4 ms on one thread, and a larger share on two, where they barely split).
struct ArenaLayout {
  /// One step as the layout sees it: buffer ids (nil: a constant or an
  /// absent optional input), and whether it only moves slices.
  struct Step {
    var ins: [Int?]
    var outs: [Int]
    var ws: Int?
    var slices: Slices?
  }

  /// Offset of each buffer in the arena, in floats.
  private(set) var offsets: [Int]
  /// Floats the arena needs.
  private(set) var high = 0
  /// Steps whose copy the layout makes unnecessary (joins and splits in place).
  private(set) var dropped: Set<Int> = []

  /// `sizes` in floats (multiples of 16); `lastUse` the last step reading
  /// each buffer (-1 never, `Int.max` a graph output); `inputs` the graph
  /// inputs' buffers, allocated first.
  init(sizes: [Int], lastUse: [Int], inputs: [Int], steps: [Step]) {
    offsets = [Int](repeating: 0, count: sizes.count)
    var def = [Int](repeating: -1, count: sizes.count)
    for (s, st) in steps.enumerated() { for id in st.outs { def[id] = s } }
    // View id -> (root id, offset in floats); roots are never views.
    var root = [Int?](repeating: nil, count: sizes.count)
    var start = [Int](repeating: 0, count: sizes.count)
    var views: [Int: [Int]] = [:]
    func plain(_ id: Int) -> Bool { root[id] == nil && views[id] == nil }
    func place(_ id: Int, in r: Int, at offset: Int) {
      root[id] = r
      start[id] = offset
      views[r, default: []].append(id)
    }
    // Slices on 64-byte boundaries: every slice but the last then spans
    // whole 16-float blocks, so no producer's padding reaches the next.
    func aligned(_ starts: [Int]) -> Bool { starts.allSatisfy { $0 % 16 == 0 } }

    // Joins first, so that a Split feeding one can then be folded into it.
    for (s, st) in steps.enumerated() {
      guard case .join(let starts) = st.slices, st.outs.count == 1, starts.count == st.ins.count else { continue }
      let ids = st.ins.compactMap { $0 }
      let out = st.outs[0]
      guard ids.count == st.ins.count, Set(ids).count == ids.count, aligned(starts),
        ids.allSatisfy({ def[$0] >= 0 && def[$0] < s && plain($0) && $0 != out })
      else { continue }
      for (k, id) in ids.enumerated() { place(id, in: out, at: starts[k]) }
      dropped.insert(s)
    }
    for (s, st) in steps.enumerated() {
      guard case .split(let starts) = st.slices, let first = st.ins.first, let x = first, starts.count == st.outs.count,
        aligned(starts), def[x] >= 0, !st.outs.contains(x)
      else { continue }
      let outs = st.outs
      if plain(x), let r = root[outs[0]],
        outs.indices.allSatisfy({ root[outs[$0]] == r && start[outs[$0]] == start[outs[0]] + starts[$0] })
      {
        // The outputs already lie in order in one join: write the input there.
        place(x, in: r, at: start[outs[0]])
        dropped.insert(s)
      } else if outs.allSatisfy(plain) {
        let r = root[x] ?? x
        for (k, id) in outs.enumerated() { place(id, in: r, at: start[x] + starts[k]) }
        dropped.insert(s)
      }
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
