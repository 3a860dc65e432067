/// A coding key that accepts any string, used to list every key actually present.
public struct AnyCodingKey: CodingKey, Hashable, Sendable {
  public let stringValue: String
  public let intValue: Int?
  public init(stringValue: String) { self.stringValue = stringValue; intValue = nil }
  public init(intValue: Int) { stringValue = String(intValue); self.intValue = intValue }
}

extension Decoder {
  /// Throws when the current object has a key that `Keys` does not declare:
  /// scenario files are decoded strictly so a typo never passes silently.
  public func rejectUnknownKeys<Keys: CodingKey & CaseIterable>(_: Keys.Type) throws {
    let present = try container(keyedBy: AnyCodingKey.self).allKeys
    let allowed = Set(Keys.allCases.map(\.stringValue))
    for key in present where !allowed.contains(key.stringValue) {
      let path = (codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: ".")
      throw DecodingError.dataCorrupted(.init(
        codingPath: codingPath + [key],
        debugDescription: "unknown key '\(path)': expected one of \(allowed.sorted().joined(separator: ", "))"))
    }
  }
}
