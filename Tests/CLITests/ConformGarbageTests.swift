import Foundation
import Testing

/// Garbage from a testee errors the case it answered, restarts the testee, and
/// the run goes on; nothing crashes or hangs past the timeout.
struct ConformGarbageTests {
  /// A Python testee that misbehaves on the cases whose id ends in one of the
  /// modes below, and answers setcards correctly otherwise (by delegating to Bullseye).
  func script(_ dir: String) throws -> String {
    let path = dir + "/bad_testee.py"
    try """
      import json, subprocess, sys, time
      real = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
      def ask(line):
          real.stdin.write(line + "\\n"); real.stdin.flush(); return real.stdout.readline().strip()
      mode = sys.argv[0].split("/")[-1]
      for line in sys.stdin:
          req = json.loads(line)
          if req["cmd"] == "start":
              print(ask(line).replace('"batch":true', '"batch":false'), flush=True); continue
          if req["cmd"] == "stop":
              break
          n = int(req["id"].split(".")[-1])
          seq = req["seq"]
          if n == 3: print("this is not json", flush=True)
          elif n == 5: print(json.dumps({"seq": seq + 100, "output": {"sets": []}}), flush=True)
          elif n == 7: print(json.dumps({"seq": seq, "output": {"sets": "none"}}), flush=True)
          elif n == 9: print('{"seq": %d, "output": {"sets": [[NaN]]}}' % seq, flush=True)
          elif n == 11: time.sleep(30)
          elif n == 13: sys.exit(4)
          elif n == 15: sys.stdout.buffer.write(b'{"seq": %d, "output": "\\xff\\xfe"}\\n' % seq); sys.stdout.flush()
          elif n == 17: sys.stdout.write('{"seq": %d, "output": "' % seq + "x" * (70 << 20) + '"}\\n'); sys.stdout.flush()
          elif n == 19: print(json.dumps({"seq": seq}), flush=True)
          else: print(ask(line), flush=True)
      """.write(toFile: path, atomically: true, encoding: .utf8)
    return "python3 \(path) '\(CLIRunner.binary.path)' conform testee"
  }

  @Test func garbageErrorsTheCaseAndTheRunGoesOn() throws {
    let dir = try CLIRunner.scratch("conform-garbage")
    let t0 = Date()
    let r = try CLIRunner.run(["conform", "run", "--testee", try script(dir), "--stages", "setcards", "--timeout-ms", "3000", "--json",
                               "--junit", dir + "/junit.xml", "--report", dir + "/report"])
    #expect(Date().timeIntervalSince(t0) < 60, "timeouts bound the run")
    #expect(r.status == 1, "\(r.stderr)")
    let o = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
    let errors = (o["errors"] as? [[String: Any]] ?? []).map { ($0["id"] as? String ?? "", $0["reason"] as? String ?? "") }
    let ids = Set(errors.map(\.0))
    for n in [3, 5, 7, 9, 11, 13, 15, 17, 19] { #expect(ids.contains("setcards.\(n)"), "setcards.\(n) errored: \(errors)") }
    #expect(o["failed"] as? Int == 0)
    #expect(o["passed"] as? Int ?? 0 > 200, "the run went on after every restart")
    let reason = Dictionary(errors, uniquingKeysWith: { a, _ in a })
    #expect(reason["setcards.3"]?.contains("not JSON") ?? false, "\(reason)")
    #expect(reason["setcards.5"]?.contains("seq") ?? false)
    #expect(reason["setcards.7"]?.contains("expected an array") ?? false)
    #expect(reason["setcards.11"]?.contains("within 3000 ms") ?? false)
    #expect(reason["setcards.13"]?.contains("exited") ?? false)
    #expect(reason["setcards.17"]?.contains("longer than") ?? false)
    let junit = try String(contentsOfFile: dir + "/junit.xml", encoding: .utf8)
    #expect(junit.components(separatedBy: "<testcase ").count - 1 == o["passed"] as! Int + 9)
    let html = try String(contentsOfFile: dir + "/report/index.html", encoding: .utf8)
    #expect(!(html.contains("<script") || html.contains("src=") || html.contains("href=")), "self-contained")
  }

  @Test func threeFailuresInARowStopTheRunWithExit2() throws {
    let r = try CLIRunner.run(["conform", "run", "--stages", "echo", "--timeout-ms", "500", "--testee",
                               "read line; echo '{\"ready\":true,\"stages\":[\"echo\"]}'; read line; echo garbage"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("3 times in a row"), "\(r.stderr)")
  }
}
