/// Bullseye's one source of randomness: xoshiro256** seeded through SplitMix64.
///
/// Why our own: `SystemRandomNumberGenerator` is not reproducible, and Swift's
/// `Double.random(in:using:)` is allowed to change its algorithm between releases.
/// Every method here is specified bit for bit, so the same seed gives the same
/// numbers on every platform and toolchain.
///
/// References: Blackman & Vigna, "Scrambled linear pseudorandom number
/// generators" (2018) for xoshiro256**; Steele, Lea & Flood, "Fast splittable
/// pseudorandom number generators" (2014) for SplitMix64.
public struct SeededGenerator: RandomNumberGenerator, Sendable, Hashable {
  private var s0: UInt64
  private var s1: UInt64
  private var s2: UInt64
  private var s3: UInt64

  /// Expands `seed` into the 256-bit state with four SplitMix64 steps.
  public init(seed: UInt64) {
    var sm = SplitMix64(state: seed)
    s0 = sm.next()
    s1 = sm.next()
    s2 = sm.next()
    s3 = sm.next()
  }

  /// The next 64 raw bits (xoshiro256**).
  public mutating func next() -> UInt64 {
    let result = rotl(s1 &* 5, 7) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotl(s3, 45)
    return result
  }

  /// A uniform Double in [0, 1): the top 53 bits scaled by 2⁻⁵³.
  public mutating func unit() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  /// A uniform Double in `range` (lower + unit × width).
  public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
    range.lowerBound + unit() * (range.upperBound - range.lowerBound)
  }

  /// A uniform integer in `range`, by Lemire's multiply-shift with rejection (unbiased).
  public mutating func int(_ range: ClosedRange<Int>) -> Int {
    let width = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound)) &+ 1
    if width == 0 { return Int(truncatingIfNeeded: next()) }  // full 64-bit range
    var m = next().multipliedFullWidth(by: width)
    if m.low < width {
      let threshold = (0 &- width) % width
      while m.low < threshold { m = next().multipliedFullWidth(by: width) }
    }
    return range.lowerBound &+ Int(truncatingIfNeeded: m.high)
  }

  /// True with probability `p`.
  public mutating func chance(_ p: Double) -> Bool { unit() < p }

  /// A standard normal sample (Box–Muller, cosine branch only, so one call
  /// consumes exactly two raw draws).
  public mutating func gaussian() -> Double {
    let u1 = 1.0 - unit()  // (0, 1]: log never sees 0
    let u2 = unit()
    return (-2.0 * _log(u1)).squareRoot() * _cos(2.0 * Double.pi * u2)
  }

  /// One element of a non-empty array, uniformly.
  public mutating func pick<T>(_ items: [T]) -> T {
    items[int(0...(items.count - 1))]
  }

  /// A child generator for an independent sub-stream (e.g. one per arrow), derived
  /// from this generator's next draw and a label so that adding draws elsewhere does
  /// not shift the child's numbers.
  public mutating func fork(_ label: String) -> SeededGenerator {
    SeededGenerator(seed: next() ^ Self.hash(label))
  }

  /// FNV-1a over UTF-8: a stable string hash (Swift's `hashValue` is randomised per run).
  public static func hash(_ text: String) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      h ^= UInt64(byte)
      h = h &* 0x100_0000_01b3
    }
    return h
  }

  @inline(__always) private func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 {
    (x << k) | (x >> (64 - k))
  }
}

/// SplitMix64, used only to expand a 64-bit seed into xoshiro state.
struct SplitMix64 {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}
