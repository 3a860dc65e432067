/// Finds every Set among the cards on a table, two ways.
///
/// Duplicate cards (a misclassification, or two decks mixed): Sets are triples
/// of *table positions* `i < j < k`, and a triple counts when its three cards
/// satisfy the rule. So two identical cards plus a different third are never a
/// Set (the differing attribute has exactly two values), and three identical
/// cards are one Set — what the reference's brute force reports. The third-card
/// method keeps the same answer by only completing a pair with positions after
/// both, so a card never completes a pair with itself (the naive lookup would
/// report a "Set" from two copies, because −2a ≡ a mod 3).
public enum SetFinder {
  /// Every Set by checking all C(n,3) triples; sorted triples in lexicographic
  /// order of positions.
  /// - Complexity: O(n³).
  public static func bruteForce(_ cards: [Card]) -> [[Int]] {
    var out: [[Int]] = []
    let n = cards.count
    guard n >= 3 else { return out }
    for i in 0..<(n - 2) {
      for j in (i + 1)..<(n - 1) {
        for k in (j + 1)..<n where Card.isSet(cards[i], cards[j], cards[k]) {
          out.append([i, j, k])
        }
      }
    }
    return out
  }

  /// Every Set by the third-card method (ekzhang/setwithfriends): for each pair
  /// the completing card is −(a+b) mod 3 per attribute, looked up among later
  /// positions. Same output and order as `bruteForce`.
  /// - Complexity: O(n² + number of Sets) with an 81-slot position table.
  public static func thirdCard(_ cards: [Card]) -> [[Int]] {
    var positions = [[Int]](repeating: [], count: 81)
    for (i, card) in cards.enumerated() { positions[card.index].append(i) }
    var out: [[Int]] = []
    let n = cards.count
    guard n >= 3 else { return out }
    for i in 0..<(n - 2) {
      for j in (i + 1)..<(n - 1) {
        let third = Card.third(cards[i], cards[j])
        for k in positions[third.index] where k > j { out.append([i, j, k]) }
      }
    }
    return out
  }

  /// The Sets among the positions in `included` only (cards under the class
  /// confidence threshold are left out); triples index into `cards`.
  static func sets(in cards: [Card], included: [Bool]) -> [[Int]] {
    let kept = cards.indices.filter { included[$0] }
    return thirdCard(kept.map { cards[$0] }).map { $0.map { kept[$0] } }
  }
}
