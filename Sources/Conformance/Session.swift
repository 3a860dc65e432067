import Core

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a testee said in its `ready` line.
package struct Ready: Sendable {
  package let name: String
  package let stages: [String]
  package let semantics: Semantics
  /// It takes `run_batch` messages.
  let batch: Bool
}

/// One case's outcome on the wire.
enum Answer: Sendable, Hashable {
  case output(JSONValue)
  case skipped(String)
  case errored(String)
}

/// One case to send.
struct WireCase: Sendable {
  let id: String
  let stage: Stage
  let input: JSONValue
  init(id: String, stage: Stage, input: JSONValue) { self.id = id; self.stage = stage; self.input = input }
}

/// A conversation with one testee command: handshake, pipelined requests
/// matched by `seq`, timeouts, and restarts after a broken answer.
package final class Session {
  let command: String
  let timeout: Double
  /// Longest answer line kept; a longer one errors its case.
  static let lineLimit = 64 << 20
  static let stderrLines = 20
  var process: TesteeProcess?
  var inbox: [UInt8] = []
  /// Start of the unread part of `inbox`, and how far it has been searched for a newline.
  var inboxHead = 0
  var inboxScanned = 0
  var errText: [UInt8] = []
  /// The testee's last complete stderr lines.
  var stderrTail: [String] = []
  /// The last stderr lines with the unterminated text after them (a testee that dies
  /// mid-line, or never ends its message with a newline), at most 500 bytes of it.
  var stderrLines: [String] {
    errText.isEmpty ? stderrTail : stderrTail + [String(decoding: errText.suffix(500), as: UTF8.self)]
  }
  var seq = 0
  /// Use `run_batch` when the testee offers it.
  let allowBatch: Bool
  /// Cases per `run_batch`: docs/conformance.md promises testees at most 64, fuzzing included.
  let batchSize = 64
  private(set) var ready: Ready?
  /// Restarts in a row with no good answer between them.
  var failures = 0
  /// Every request line sent, when asked to keep them (`--repro`).
  package var keepLines = false
  package private(set) var sentLines: [String] = []
  package private(set) var answerLines: [String] = []

  /// A session for `command` (run by `/bin/sh -c`), `timeoutMs` per case.
  package init(command: String, timeoutMs: Int, allowBatch: Bool = true) {
    self.command = command; timeout = Double(timeoutMs) / 1000; self.allowBatch = allowBatch
  }

  deinit { process?.kill() }

  /// Starts the testee and reads its `ready` line.
  package func open() throws(ConformanceError) -> Ready {
    do { return try start() } catch { throw .testee("testee '\(command)' did not start: \(error)\(lastLog)") }
  }

  var lastLog: String {
    drainErrors()
    guard let last = stderrLines.last(where: { !$0.isEmpty }) else { return " (its stderr is empty)" }
    return "; its stderr ends: \(Shown.terminal(last))"
  }

  func start() throws(ConformanceError) -> Ready {
    process?.kill()
    // An earlier process's unterminated stderr is its last line, not the start of the next one's.
    drainErrors()
    if !errText.isEmpty { stderrTail.append(stderrLines.last!); errText = [] }
    inbox = []; inboxHead = 0; inboxScanned = 0
    let p = try TesteeProcess(command: command)
    process = p
    let line = "{\"cmd\":\"start\",\"version\":1}\n"
    guard try send(Array(line.utf8), deadline: Clock.now() + max(timeout, 10)) else { throw .testee("it closed its stdin") }
    guard let answer = try readLine(deadline: Clock.now() + max(timeout, 10)) else {
      throw .testee(p.hasExited() ? "it exited (\(p.exitDescription)) before answering start" : "no ready line within \(Int(max(timeout, 10) * 1000)) ms")
    }
    let value: JSONValue
    do { value = try JSONParser.parse(bytes: answer) } catch { throw .testee("its ready line is not JSON: \(preview(answer))") }
    guard case .object(let o) = value, o["ready"] == .bool(true) else { throw .testee("its first line is not {\"ready\":true,…}: \(preview(answer))") }
    // A misspelt ready line would otherwise skip every case and look like a pass.
    guard let v = o["stages"] else { throw .testee("its ready line has no stages, expected an array of stage names: \(preview(answer))") }
    guard case .array(let a) = v else { throw .testee("its ready line's stages is \(Input.kind(v)), expected an array of stage names: \(preview(answer))") }
    var stages: [String] = []
    for item in a {
      guard case .string(let s) = item else { throw .testee("its ready line's stages holds \(Input.kind(item)), expected stage names (strings): \(preview(answer))") }
      guard Stage(rawValue: s) != nil else {
        throw .testee("its ready line's stage '\(s)' is unknown, expected \(Stage.allCases.map(\.rawValue).joined(separator: ", ")): \(preview(answer))")
      }
      stages.append(s)
    }
    var semantics: Semantics = [:]
    if let v = o["semantics"] {
      guard case .object(let s) = v else { throw .testee("its ready line's semantics is \(Input.kind(v)), expected an object of axis names to values: \(preview(answer))") }
      for (k, v) in s {
        guard case .string(let str) = v else { throw .usage("semantics \(k) is \(Input.kind(v)), expected a string") }
        semantics[k] = str
      }
    }
    var name = "testee"
    if let v = o["name"] {
      guard case .string(let n) = v else { throw .testee("its ready line's name is \(Input.kind(v)), expected a string: \(preview(answer))") }
      name = n
    }
    if let v = o["batch"], case .bool = v {} else if let v = o["batch"] {
      throw .testee("its ready line's batch is \(Input.kind(v)), expected true or false: \(preview(answer))")
    }
    let r = Ready(name: name, stages: stages, semantics: semantics, batch: o["batch"] == .bool(true))
    ready = r
    return r
  }

  /// Runs `cases` in order, pipelining requests, and returns one answer per case.
  /// Throws after 3 restarts in a row with no good answer between them.
  func run(_ cases: [WireCase]) throws(ConformanceError) -> [Answer] {
    var answers = [Answer?](repeating: nil, count: cases.count)
    let batched = allowBatch && (ready?.batch ?? false)
    // Requests: a batch is consecutive cases of one stage.
    var requests: [[Int]] = []
    var i = 0
    while i < cases.count {
      var j = i + 1
      if batched { while j < cases.count, j - i < batchSize, cases[j].stage == cases[i].stage { j += 1 } }
      requests.append(Array(i..<j))
      i = j
    }
    var next = 0
    while next < requests.count {
      let done = try pump(requests[next...], cases, batched: batched, into: &answers)
      next += done
    }
    return answers.map { $0 ?? .errored("no answer") }
  }

  /// Sends requests from `pending` (a window at a time) and reads answers until
  /// all are answered or the testee breaks; returns how many requests completed.
  func pump(_ pending: ArraySlice<[Int]>, _ cases: [WireCase], batched: Bool, into answers: inout [Answer?]) throws(ConformanceError) -> Int {
    let window = batched ? 4 : 64
    var inFlight: [(seq: Int, cases: [Int], sent: Double)] = []
    var out: [UInt8] = []
    var nextToSend = pending.startIndex
    var completed = 0
    var lastAnswer = Clock.now()
    while completed < pending.count {
      while inFlight.count < window, nextToSend < pending.endIndex {
        seq += 1
        let idx = pending[nextToSend]
        let line = try requestLine(seq: seq, idx.map { cases[$0] }, batch: batched)
        if keepLines { sentLines.append(line) }
        out.append(contentsOf: line.utf8); out.append(0x0A)
        inFlight.append((seq, idx, Clock.now()))
        nextToSend += 1
      }
      let head = inFlight[0]
      let limit = timeout * Double(head.cases.count)
      let deadline = max(head.sent, lastAnswer) + limit
      let line: [UInt8]?
      do {
        line = try exchange(&out, deadline: deadline)
      } catch {
        try fail(head.cases, "\(error)", &answers)
        return completed + 1
      }
      guard let line else {
        try fail(head.cases, "no answer within \(Int(limit * 1000)) ms", &answers)
        return completed + 1
      }
      lastAnswer = Clock.now()
      if keepLines { answerLines.append(String(decoding: line.prefix(4096), as: UTF8.self)) }
      switch decode(line, seq: head.seq, count: head.cases.count, batch: batched) {
      case .success(let list):
        for (c, a) in zip(head.cases, list) { answers[c] = a }
        failures = 0
      case .failure(let e):
        try fail(head.cases, e.description, &answers)
        return completed + 1
      }
      inFlight.removeFirst()
      completed += 1
    }
    return completed
  }

  /// Errors the cases of a broken request and restarts the testee.
  func fail(_ idx: [Int], _ reason: String, _ answers: inout [Answer?]) throws(ConformanceError) {
    drainErrors()
    for c in idx { answers[c] = .errored(reason) }
    failures += 1
    process?.kill()
    if failures >= 3 {
      throw .testee("testee '\(command)' failed 3 times in a row (last: \(reason))\(lastLog)")
    }
    do { _ = try start() } catch {
      failures += 1
      if failures >= 3 { throw .testee("testee '\(command)' could not be restarted: \(error)\(lastLog)") }
      do { _ = try start() } catch { throw .testee("testee '\(command)' could not be restarted: \(error)\(lastLog)") }
    }
  }

  func requestLine(seq: Int, _ cs: [WireCase], batch: Bool) throws(ConformanceError) -> String {
    let value: JSONValue
    if batch {
      value = .object(["cmd": .string("run_batch"), "seq": .int(seq), "stage": .string(cs[0].stage.rawValue),
                       "cases": .array(cs.map { .object(["id": .string($0.id), "input": $0.input]) })])
    } else {
      value = .object(["cmd": .string("run"), "seq": .int(seq), "stage": .string(cs[0].stage.rawValue), "id": .string(cs[0].id),
                       "input": cs[0].input])
    }
    do { return try value.compactText() } catch { throw .usage("case \(cs[0].id) cannot be sent: \(error)") }
  }

  /// Parses an answer line for request `seq`.
  func decode(_ line: [UInt8], seq: Int, count: Int, batch: Bool) -> Result<[Answer], ConformanceError> {
    let value: JSONValue
    do { value = try JSONParser.parse(bytes: line) } catch { return .failure(.testee("answer is not JSON (\(error)): \(preview(line))")) }
    guard case .object(let o) = value else { return .failure(.testee("answer is not a JSON object: \(preview(line))")) }
    guard let s = o["seq"] else { return .failure(.testee("answer has no seq: \(preview(line))")) }
    guard s == .int(seq) else { return .failure(.testee("answer has seq \(JSONValue.oneLine(s).prefix(40)), expected \(seq)")) }
    if !batch { return Session.one(o).map { [$0] } }
    guard case .array(let list)? = o["answers"] else { return .failure(.testee("batch answer has no 'answers' array: \(preview(line))")) }
    guard list.count == count else { return .failure(.testee("batch answer has \(list.count) answers, expected \(count)")) }
    var out: [Answer] = []
    for a in list {
      guard case .object(let f) = a else { return .failure(.testee("a batch answer is not an object")) }
      switch Session.one(f) {
      case .success(let x): out.append(x)
      case .failure(let e): return .failure(e)
      }
    }
    return .success(out)
  }

  static func one(_ o: [String: JSONValue]) -> Result<Answer, ConformanceError> {
    if let v = o["output"] { return .success(.output(v)) }
    if let v = o["skipped"] { return .success(.skipped(text(v))) }
    if let v = o["error"] { return .success(.errored("testee error: " + text(v))) }
    return .failure(.testee("answer has none of output, skipped, error"))
  }

  static func text(_ v: JSONValue) -> String {
    if case .string(let s) = v { return s }
    return (try? v.compactText()) ?? "?"
  }

  func preview(_ line: [UInt8]) -> String {
    let s = Shown.terminal(String(decoding: line.prefix(120), as: UTF8.self))
    return line.count > 120 ? s + "… (\(line.count) bytes)" : s
  }

  /// Stops the testee: `stop`, then at most 2 s before it is killed.
  package func close() {
    guard let p = process else { return }
    let line = Array("{\"cmd\":\"stop\"}\n".utf8)
    _ = line.withUnsafeBytes { p.write($0) }
    p.closeInput()
    p.stop(within: 2)
    drainErrors()
    process = nil
  }
}
