#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How many CPUs this process may run on: its affinity mask where the system
/// has one (a container or `taskset` narrows it), else the online CPUs. The
/// default thread count of every command that runs models.
public enum ProcessorCount {
  /// At least 1; read once per process (every run request and verify job asks).
  public static let available: Int = {
    if let n = affinityCount(), n > 0 { return n }
    return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
  }()

  /// Bits set in the `Cpus_allowed` mask of /proc/self/status (Linux), or nil.
  static func affinityCount() -> Int? {
    guard let f = fopen("/proc/self/status", "r") else { return nil }
    defer { fclose(f) }
    var buffer = [CChar](repeating: 0, count: 4096)
    while fgets(&buffer, Int32(buffer.count), f) != nil {
      let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      guard line.hasPrefix("Cpus_allowed:") else { continue }
      return line.dropFirst("Cpus_allowed:".count).reduce(0) { n, c in n + (c.hexDigitValue ?? 0).nonzeroBitCount }
    }
    return nil
  }

  /// Threads for each of `jobs` runs at once: the available CPUs shared out, at least 1.
  public static func perJob(_ jobs: Int) -> Int { max(1, available / max(1, jobs)) }
}
