import Core
@testable import SetCards
@testable import Synth
@testable import Harness
import Testing

func cards(_ digits: String) -> [Card] {
  digits.split(separator: " ").map { Card(parsing: String($0))! }
}

/// The anchor's boards (section 5) and the classic counts.
@Suite struct SetFinderTests {
  static let zeroSets = "0012 0020 0122 0200 1001 1101 1212 1222 2120 2122 2201 2202"
  static let fourteen = "0120 0121 0122 1120 1121 1122 1210 1212 2001 2120 2121 2122"
  /// A 20-card Set-free collection (a maximal cap in AG(4,3)).
  static let cap20 = "0110 0111 0121 0201 0202 0221 1002 1010 1012 1102 1120 1210 1212 1220 2001 2020 2021 2101 2111 2112"

  @Test func zeroSetBoard() {
    #expect(SetFinder.bruteForce(cards(Self.zeroSets)).isEmpty)
    #expect(SetFinder.thirdCard(cards(Self.zeroSets)).isEmpty)
  }

  @Test func fourteenSetBoard() {
    let board = cards(Self.fourteen)
    let sets = SetFinder.bruteForce(board)
    #expect(sets.count == 14)
    #expect(SetFinder.thirdCard(board) == sets)
    #expect(sets == sets.sorted { $0.lexicographicallyPrecedes($1) })
    for s in sets { #expect(Card.isSet(board[s[0]], board[s[1]], board[s[2]]) && s[0] < s[1] && s[1] < s[2]) }
  }

  @Test func capSetOfTwentyHasNoSet() {
    let cap = cards(Self.cap20)
    #expect(Set(cap).count == 20)
    #expect(SetFinder.bruteForce(cap).isEmpty)
    #expect(SetFinder.thirdCard(cap).isEmpty)
  }

  @Test func fullDeckHas1080Sets() {
    #expect(Card.deck.count == 81)
    #expect(SetFinder.thirdCard(Card.deck).count == 1080)
    #expect(SetFinder.bruteForce(Card.deck).count == 1080)
  }

  @Test func planeOfNineHasTwelveSets() {
    // Two attributes fixed (one, red): the 3×3 plane of shape × fill.
    let plane = Card.deck.filter { $0.number == .one && $0.color == .red }
    #expect(plane.count == 9)
    #expect(SetFinder.bruteForce(plane).count == 12)
    #expect(SetFinder.thirdCard(plane).count == 12)
  }

  @Test func everyPairHasOneThirdCard() {
    for a in Card.deck.prefix(20) {
      for b in Card.deck where b != a {
        let c = Card.third(a, b)
        #expect(Card.isSet(a, b, c) && c != a && c != b)
        #expect(Card.deck.filter { Card.isSet(a, b, $0) } == [c])
      }
    }
  }

  @Test func findersAgreeOn2000RandomDeals() {
    var g = SeededGenerator(seed: 2000)
    for deal in 0..<2000 {
      var deck = Card.deck
      let n = g.int(3...21)
      for i in 0..<n { deck.swapAt(i, g.int(i...80)) }
      let hand = Array(deck[0..<n])
      let brute = SetFinder.bruteForce(hand)
      #expect(SetFinder.thirdCard(hand) == brute, "deal \(deal): \(hand)")
    }
  }

  @Test func duplicatesFollowBruteForce() {
    let a = Card(parsing: "0120")!, b = Card(parsing: "1201")!
    // Two copies plus a different third: never a Set (naive lookup: −2a ≡ a would say yes).
    #expect(Card.third(a, a) == a)
    #expect(SetFinder.bruteForce([a, a, b]).isEmpty)
    #expect(SetFinder.thirdCard([a, a, b]).isEmpty)
    // Three copies: one Set of three positions.
    #expect(SetFinder.bruteForce([a, a, a]) == [[0, 1, 2]])
    #expect(SetFinder.thirdCard([a, a, a]) == [[0, 1, 2]])
    // Random deals drawn with replacement: both ways still agree.
    var g = SeededGenerator(seed: 55)
    for deal in 0..<300 {
      let hand = (0..<g.int(3...15)).map { _ in Card(index: g.int(0...8))! }
      #expect(SetFinder.thirdCard(hand) == SetFinder.bruteForce(hand), "deal \(deal): \(hand)")
    }
  }

  @Test func excludedCardsAreLeftOut() {
    let board = cards("0000 1111 2222 0120")
    #expect(SetFinder.sets(in: board, included: [true, true, true, true]) == [[0, 1, 2]])
    #expect(SetFinder.sets(in: board, included: [true, false, true, true]).isEmpty)
  }

  @Test func labelsAndNames() {
    let c = Card(number: .two, color: .red, shape: .diamond, fill: .solid)
    #expect(c.label == "2实红菱")
    #expect(Card(parsing: "2实红菱") == c)
    #expect(Card(parsing: "1001") == c)
    #expect(Card(parsing: "3线紫弯")?.description == "2222")
    #expect(Card(parsing: "1空绿圆")?.description == "0110")
    #expect(Card(parsing: "0130") == nil && Card(parsing: "2实红") == nil)
    #expect([c.number.name, c.color.name, c.shape.name, c.fill.name] == ["two", "red", "diamond", "solid"])
    #expect(CardColor(name: "purple")?.rawValue == 2 && CardFill(name: "striped")?.rawValue == 2)
    #expect(Card.deck.map(\.index) == Array(0..<81))
  }
}
