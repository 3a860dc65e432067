#if canImport(Glibc)
  import Glibc
#endif

/// Replays files (or every file in folders) given on the command line through
/// a fuzz target's entry — how crashes found by libFuzzer become regression runs.
package enum FuzzReplay {
  package static func run(_ body: ([UInt8]) -> Void) {
    var count = 0
    for arg in CommandLine.arguments.dropFirst() {
      for path in files(arg) {
        guard let bytes = read(path) else { continue }
        body(bytes)
        count += 1
      }
    }
    print("replayed \(count) inputs without a crash")
  }

  static func files(_ path: String) -> [String] {
    guard let dir = opendir(path) else { return [path] }
    defer { closedir(dir) }
    var out: [String] = []
    while let e = readdir(dir) {
      let name = withUnsafeBytes(of: e.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
      if !name.hasPrefix(".") { out.append(path + "/" + name) }
    }
    return out.sorted()
  }

  static func read(_ path: String) -> [UInt8]? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = fread(&buf, 1, buf.count, f)
      if n <= 0 { break }
      out += buf[0..<n]
    }
    return out
  }
}
