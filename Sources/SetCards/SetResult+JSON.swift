import Core

extension Card {
  /// `number`, `color`, `shape`, `fill` (English names) and `label`.
  package var attributeFields: [String: JSONValue] {
    ["number": .string(number.name), "color": .string(color.name), "shape": .string(shape.name),
     "fill": .string(fill.name), "label": .string(label)]
  }
}

extension SetResult {
  /// RESULT.json: `cards[]` with `box` (int-truncated [x1,y1,x2,y2]), the four
  /// attribute names, `label`, `detection_confidence`, `class_confidence`,
  /// `attribute_confidences`, `included`; `sets` as index triples into `cards`.
  /// Under a profile other than the seed also `profile`, and per card `uncertain`
  /// and `off_table` (the reason, absent when on the table); the seed's bytes
  /// stay the goldens'.
  var json: JSONValue {
    let marked = profile != .seed
    let cardsJSON: [JSONValue] = cards.enumerated().map { i, c in
      var f = c.card.attributeFields
      f["index"] = .int(i)
      f["box"] = .array(c.box.truncated.map(JSONValue.int))
      f["box_float"] = .array(c.box.xyxy.map(JSONValue.double))
      f["detection_confidence"] = .double(c.detectionConfidence)
      f["class_confidence"] = .double(c.classConfidence)
      f["attribute_confidences"] = .object([
        "number": .double(c.attributeConfidences[0]), "color": .double(c.attributeConfidences[1]),
        "shape": .double(c.attributeConfidences[2]), "fill": .double(c.attributeConfidences[3]),
      ])
      f["included"] = .bool(c.included)
      if marked {
        f["uncertain"] = .bool(c.uncertain)
        if let reason = c.offTable { f["off_table"] = .string(reason.rawValue) }
      }
      return .object(f)
    }
    var root: [String: JSONValue] = [
      "version": .int(1),
      "image": .object(["width": .int(imageWidth), "height": .int(imageHeight)]),
      "cards": .array(cardsJSON),
      "sets": .array(sets.map { .array($0.map(JSONValue.int)) }),
      "header": .string(SetText.header(cardCount: cards.count, set: sets.isEmpty ? nil : 0,
                                          of: sets.count)),
    ]
    if marked { root["profile"] = .string(profile.rawValue) }
    return .object(root)
  }

  /// Canonical text of `json`.
  public func canonicalJSON() throws(SetCardsError) -> String {
    do { return try json.canonicalText() } catch { throw .invalid(name: "result", value: "\(error)", expected: "finite numbers") }
  }
}
