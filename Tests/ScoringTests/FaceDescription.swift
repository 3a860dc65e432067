import Testing
@testable import Scoring
@_exported import TestSupport

extension Face: CustomTestStringConvertible {
  public var testDescription: String { id }
}
