import Core

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `bullseye conform testee`: Bullseye's own library behind the protocol,
/// declaring the semantics it was given, so the suite can grade itself and so
/// a wrong declaration can be shown to be caught.
package struct TesteeServer {
  /// What it computes with (every axis: given, else default).
  let semantics: Semantics
  /// What it says it computes with (defaults to `semantics`).
  let declared: Semantics
  let batch: Bool

  /// A server computing under `semantics` and declaring `declared`.
  package init(semantics: Semantics, declared: Semantics? = nil, batch: Bool = true) {
    self.semantics = Grading.effective(semantics); self.declared = declared ?? self.semantics; self.batch = batch
  }

  /// Serves stdin → stdout until `stop` or end of input.
  package func serve() {
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return }
      buffer.append(contentsOf: chunk[0..<n])
      var out = ""
      var start = 0
      var stop = false
      while let nl = buffer[start...].firstIndex(of: 0x0A) {
        let line = Array(buffer[start..<nl])
        start = nl + 1
        if let answer = respond(line) {
          if answer.isEmpty { stop = true; break }
          out += answer + "\n"
        }
      }
      buffer.removeFirst(start)
      write(out)
      if stop { return }
    }
  }

  func write(_ s: String) {
    var bytes = Array(s.utf8)[...]
    while !bytes.isEmpty {
      let n = bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
      if n <= 0 { if errno == EINTR { continue }; return }
      bytes = bytes.dropFirst(n)
    }
  }

  /// The answer line to one request line; "" for stop, nil for nothing to say.
  func respond(_ line: [UInt8]) -> String? {
    guard case .object(let o)? = try? JSONParser.parse(bytes: line) else {
      logError("not a JSON object: \(String(decoding: line.prefix(80), as: UTF8.self))")
      return nil
    }
    let seq = o["seq"] ?? .null
    switch o["cmd"] {
    case .string("start")?:
      return text(.object([
        "ready": .bool(true), "name": .string("bullseye"), "stages": .array(Stage.allCases.map { .string($0.rawValue) }),
        "semantics": .object(declared.mapValues(JSONValue.string)), "batch": .bool(batch),
      ]))
    case .string("stop")?: return ""
    case .string("run")?:
      return text(.object(answer(o["stage"], o["input"]).merging(["seq": seq]) { $1 }))
    case .string("run_batch")? where batch:
      guard case .array(let cases)? = o["cases"] else { return text(.object(["seq": seq, "error": .string("run_batch has no cases array")])) }
      let answers = cases.map { c -> JSONValue in
        guard case .object(let f) = c else { return .object(["error": .string("a case is not an object")]) }
        return .object(answer(o["stage"], f["input"]))
      }
      return text(.object(["seq": seq, "answers": .array(answers)]))
    default:
      return text(.object(["seq": seq, "error": .string("unknown cmd")]))
    }
  }

  func answer(_ stage: JSONValue?, _ input: JSONValue?) -> [String: JSONValue] {
    guard case .string(let name)? = stage, let s = Stage(rawValue: name) else { return ["skipped": .string("unknown stage")] }
    guard let input else { return ["error": .string("no input")] }
    do { return ["output": try Oracle.answer(s, input, semantics)] } catch { return ["error": .string(error.description)] }
  }

  func text(_ v: JSONValue) -> String {
    (try? v.compactText()) ?? "{\"error\":\"answer not representable\"}"
  }

  func logError(_ s: String) {
    let bytes = Array("bullseye testee: \(s)\n".utf8)
    _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
  }
}
