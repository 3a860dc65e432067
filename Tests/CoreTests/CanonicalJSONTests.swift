import Testing
@testable import Core
#if canImport(Glibc)
  import Glibc
#endif

struct CanonicalJSONTests {
  @Test func keysAreSortedAndFloatsUseOurFormat() throws {
    let v = JSONValue.object(["b": .double(0.1), "a": .int(3), "c": .array([.double(-0.0), .double(1e-5), .bool(true), .null])])
    let text = try v.canonicalText()
    #expect(text == "{\n  \"a\": 3,\n  \"b\": 0.1,\n  \"c\": [\n    -0.0,\n    1e-05,\n    true,\n    null\n  ]\n}\n")
  }

  @Test func shortestRoundTripDigits() throws {
    #expect(try JSONValue.format(0.1 + 0.2) == "0.30000000000000004")
    #expect(try JSONValue.format(5) == "5.0")
    #expect(try Double(JSONValue.format(0.0500000007450580596923828125)) == 0.0500000007450580596923828125)
  }

  @Test func negativeZeroKeepsItsSignThroughAFile() throws {
    #expect(try JSONValue.format(-0.0) == "-0.0" && JSONValue.format(0.0) == "0.0")
    let back = try JSONParser.parse(bytes: Array(JSONValue.array([.double(-0.0)]).canonicalText().utf8))
    guard case .array(let a) = back, case .double(let d)? = a.first else { Issue.record("\(back)"); return }
    #expect(d == 0 && d.sign == .minus)
  }

  @Test func nonFiniteNumbersAreRefused() {
    #expect(throws: CoreError.self) { try JSONValue.double(.nan).canonicalText() }
    #expect(throws: CoreError.self) { try JSONValue.array([.double(.infinity)]).canonicalText() }
  }

  @Test func stringsAreEscaped() throws {
    #expect(try JSONValue.string("a\"b\\c\n\u{01}").canonicalText() == "\"a\\\"b\\\\c\\n\\u0001\"\n")
  }

  @Test func atomicWriteLeavesNothingOnFailure() throws {
    let dir = "/tmp/bullseye-core-test-\(getpid())"
    mkdir(dir, 0o755)
    defer { rmdir(dir) }
    #expect(throws: CoreError.self) { try AtomicFile.write("x", to: dir + "/missing/file.json") }
    try AtomicFile.write("hello", to: dir + "/ok.json")
    let f = fopen(dir + "/ok.json", "r")!
    var buf = [CChar](repeating: 0, count: 16)
    fgets(&buf, 16, f); fclose(f)
    #expect(String(cString: buf) == "hello")
    unlink(dir + "/ok.json")
    // Only the file we wrote was ever there: no temp files left behind.
    let d = opendir(dir)!
    var names: [String] = []
    while let e = readdir(d) {
      let name = withUnsafeBytes(of: e.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
      if name != "." && name != ".." { names.append(name) }
    }
    closedir(d)
    #expect(names.isEmpty)
  }
}

struct JSONParserTests {
  @Test func roundTripsCanonicalText() throws {
    let v = JSONValue.object(["a": .array([.int(1), .double(0.1), .double(5), .null, .bool(false)]), "b": .string("x\"y\n\u{01}"), "c": .object([:])])
    #expect(try JSONParser.parse(v.canonicalText()) == v)
  }

  @Test func malformedInputIsAnErrorNotACrash() {
    for bad in ["", "{", "[1,", "{\"a\" 1}", "tru", "\"abc", "1.2.3", "[1] x", "{\"a\":}", String(repeating: "[", count: 600)] {
      #expect(throws: CoreError.self, "\(bad.prefix(10))") { try JSONParser.parse(bad) }
    }
  }
}
