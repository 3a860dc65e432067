/// A coding key that accepts any string, used to list every key actually present.
public struct AnyCodingKey: CodingKey, Hashable, Sendable {
  public let stringValue: String
  public let intValue: Int?
  public init(stringValue: String) { self.stringValue = stringValue; intValue = nil }
  public init(intValue: Int) { stringValue = String(intValue); self.intValue = intValue }
}

extension CodingUserInfoKey {
  /// Top-level keys another decoder on the same document owns (a set of strings),
  /// so two strict decoders can share one file.
  public static let extraTopLevelKeys = CodingUserInfoKey(rawValue: "bullseye.extraTopLevelKeys")!
}

extension Decoder {
  /// Throws when the current object has a key that `Keys` does not declare:
  /// scenario files are decoded strictly so a typo never passes silently.
  public func rejectUnknownKeys<Keys: CodingKey & CaseIterable>(_: Keys.Type) throws {
    let present = try container(keyedBy: AnyCodingKey.self).allKeys
    var allowed = Set(Keys.allCases.map(\.stringValue))
    if codingPath.isEmpty, let extra = userInfo[.extraTopLevelKeys] as? Set<String> { allowed.formUnion(extra) }
    for key in present where !allowed.contains(key.stringValue) {
      let path = (codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: ".")
      throw DecodingError.dataCorrupted(.init(
        codingPath: codingPath + [key],
        debugDescription: "unknown key '\(path)': expected one of \(allowed.sorted().joined(separator: ", "))"))
    }
  }
}
