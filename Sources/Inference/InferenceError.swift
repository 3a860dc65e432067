/// The one error type of the Inference module.
///
/// Every message is one sentence that gives the actual and the expected
/// values, e.g. "Node conv1 (Conv), attribute 'strides': expected 2 ints,
/// got 3." Bad input of any kind (a truncated or corrupted file, an
/// unsupported operator, a mismatched input shape) is reported with this error,
/// never with a crash.
struct InferenceError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Broad classes of failure, for callers that branch on them.
  enum Kind: String, Sendable, Equatable {
    /// The bytes are not a well-formed ONNX protobuf.
    case malformed
    /// The model is well-formed but uses something this runtime lacks.
    case unsupported
    /// The graph is inconsistent (cycle, missing value, bad attribute).
    case invalidGraph
    /// A tensor's shape or size does not match what is expected.
    case shapeMismatch
    /// A size exceeds the memory limit or overflows `Int`.
    case limitExceeded
    /// A file could not be read or written, or has the wrong format.
    case io
  }

  /// The class of failure.
  let kind: Kind
  /// One sentence with actual and expected values.
  let message: String

  /// Creates an error of `kind` with a one-sentence `message`.
  init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  var description: String { message }
}

extension InferenceError {
  static func malformed(_ m: String) -> InferenceError { .init(.malformed, m) }
  static func unsupported(_ m: String) -> InferenceError { .init(.unsupported, m) }
  static func invalid(_ m: String) -> InferenceError { .init(.invalidGraph, m) }
  static func shape(_ m: String) -> InferenceError { .init(.shapeMismatch, m) }
  static func limit(_ m: String) -> InferenceError { .init(.limitExceeded, m) }
}

/// Overflow-checked products for sizes that come from files.
enum SizeMath {
  /// The product of `dims`, or an error if one is negative or it overflows.
  static func count(_ dims: [Int], what: @autoclosure () -> String) throws -> Int {
    var n = 1
    for d in dims {
      guard d >= 0 else {
        throw InferenceError.shape("\(what()) has dimension \(d); expected a dimension >= 0.")
      }
      let (p, o) = n.multipliedReportingOverflow(by: d)
      guard !o else {
        throw InferenceError.limit("\(what()) has shape \(dims), whose element count overflows Int; expected at most \(Int.max).")
      }
      n = p
    }
    return n
  }

  /// Checks that `count` elements of `width` bytes fit under `limit` bytes.
  static func checkBytes(_ count: Int, width: Int, limit: Int, what: @autoclosure () -> String) throws {
    let (b, o) = count.multipliedReportingOverflow(by: width)
    guard !o, b <= limit else {
      throw InferenceError.limit("\(what()) needs \(o ? "more than \(Int.max)" : "\(b)") bytes; expected at most \(limit) (the memory limit).")
    }
  }
}
