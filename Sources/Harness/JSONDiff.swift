import Core

/// One difference between two JSON trees.
struct JSONDifference: Sendable, Hashable, CustomStringConvertible {
  let path: String
  let expected: String
  let actual: String
  let tolerance: JSONTolerance
  var description: String { "\(path): expected \(expected), got \(actual) (tolerance \(tolerance.rawValue))" }
}

/// Compares parsed trees, not text: key order and number spelling cannot
/// fail a check, values can. Paths read `runs.ios.detections.0.score`.
func diffJSON(expected: JSONValue, actual: JSONValue, tolerances: [PathTolerance] = []) -> [JSONDifference] {
  var out: [JSONDifference] = []
  walk(expected, actual, path: [], tolerances, &out)
  return out
}

private func show(_ v: JSONValue?) -> String {
  guard let v else { return "(absent)" }
  switch v {
  case .null: return "null"
  case .bool(let b): return String(b)
  case .int(let i): return String(i)
  case .double(let d): return d.description
  case .string(let s): return "\"\(s)\""
  case .array(let a): return "[\(a.count) items]"
  case .object(let o): return "{\(o.count) keys}"
  }
}

private func number(_ v: JSONValue) -> Double? {
  switch v {
  case .int(let i): return Double(i)
  case .double(let d): return d
  default: return nil
  }
}

private func walk(_ e: JSONValue?, _ a: JSONValue?, path: [String], _ tol: [PathTolerance], _ out: inout [JSONDifference]) {
  let t = tol.last { $0.matches(path) }?.tolerance ?? .exact
  let here = path.isEmpty ? "(root)" : path.joined(separator: ".")
  switch (e, a) {
  case (.object(let eo)?, .object(let ao)?):
    for k in Set(eo.keys).union(ao.keys).sorted() { walk(eo[k], ao[k], path: path + [k], tol, &out) }
  case (.array(let ea)?, .array(let aa)?):
    if ea.count != aa.count {
      out.append(JSONDifference(path: here + ".count", expected: String(ea.count), actual: String(aa.count), tolerance: .exact))
    }
    for i in 0..<min(ea.count, aa.count) { walk(ea[i], aa[i], path: path + [String(i)], tol, &out) }
  case (let x?, let y?) where number(x) != nil && number(y) != nil:
    if !t.accepts(number(x)!, number(y)!) {
      out.append(JSONDifference(path: here, expected: show(x), actual: show(y), tolerance: t))
    }
  default:
    if e != a { out.append(JSONDifference(path: here, expected: show(e), actual: show(a), tolerance: t)) }
  }
}

extension PathTolerance {
  /// Whether any value of `tree` lies at a path this pattern matches. A
  /// tolerance that matches nothing loosens nothing: a mistyped path would
  /// otherwise leave the check exact while the scenario reads as loosened.
  func matchesSomething(in tree: JSONValue) -> Bool { reaches(tree, pattern[...]) }

  private func reaches(_ v: JSONValue, _ rest: ArraySlice<Substring>) -> Bool {
    guard let head = rest.first else { return true }
    let tail = rest.dropFirst()
    switch v {
    case .object(let o):
      if head == "*" { return o.values.contains { reaches($0, tail) } }
      return o[String(head)].map { reaches($0, tail) } ?? false
    case .array(let a):
      if head == "*" { return a.contains { reaches($0, tail) } }
      guard let i = Int(head), a.indices.contains(i) else { return false }
      return reaches(a[i], tail)
    default:
      return false
    }
  }
}
