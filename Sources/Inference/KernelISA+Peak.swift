import CKernels

/// One core's measured FMA throughput on the instruction set the kernels run
/// (`BULLSEYE_ISA` honoured), so benchmarks report a share of this machine's
/// peak instead of a datasheet figure.
public struct PeakFMA: Sendable {
  /// The instruction set measured: scalar, avx2 or avx512.
  public let isa: String
  /// Giga floating-point operations per second on one core (an FMA is 2).
  public let gflops: Double

  /// The instruction set the kernels run at now (scalar, avx2 or avx512).
  public static var currentISA: String { KernelISA.name }

  /// Times independent FMA chains for about `seconds`, best of `trials` (the
  /// best, since anything else on the core only slows it down).
  public static func measure(seconds: Double = 0.2, trials: Int = 5) throws -> PeakFMA {
    try KernelISA.validateEnvironment()
    let isa = KernelISA.current
    let clock = ContinuousClock()
    var sink = 0.0
    var iters: Int64 = 1 << 16
    // Grow the round until one takes a measurable time.
    while true {
      let t = clock.measure { _ = bk_peak_fma(isa, iters, &sink) }
      if t.seconds >= seconds / 4 || iters >= 1 << 40 { iters = Int64(Double(iters) * seconds / max(t.seconds, 1e-6)); break }
      iters *= 4
    }
    iters = max(iters, 1 << 16)
    var best = 0.0
    for _ in 0..<max(1, trials) {
      var flops: Int64 = 0
      let t = clock.measure { flops = bk_peak_fma(isa, iters, &sink) }
      best = max(best, Double(flops) / max(t.seconds, 1e-9) / 1e9)
    }
    return PeakFMA(isa: KernelISA.name, gflops: best)
  }
}

extension KernelISA {
  /// The name of the level the kernels run at.
  static var name: String { names.first { $0.1 == current }?.0 ?? "scalar" }
}

extension Duration {
  /// The duration in seconds.
  var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
