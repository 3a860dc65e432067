import Scoring

/// An arrow whose score or X flag changes when recomputed from the persisted
/// 32-bit coordinates.
public struct RescoreChange: Sendable, Hashable {
  public let endNumber: Int, arrowNumber: Int
  public let x: Float, y: Float
  public let storedScore: Int, storedIsX: Bool
  public let rescoredScore: Int, rescoredIsX: Bool
  /// Distance recomputed from the widened Floats (hex in reports).
  public let distance: Double
}

/// The state the app shows after a restart.
public struct ResumeState: Sendable, Hashable {
  public let round: Int64
  public let semantics: ResumeSemantics
  public let currentEnd: Int
  public let currentArrowNumber: Int
  /// Restored arrows of the current end, by arrow number.
  public let arrows: [StoredArrow]
  /// Every persisted arrow whose verdict changes when rescored.
  public let rescoreChanges: [RescoreChange]
  /// Arrows checked by the rescore pass (those with coordinates).
  public let rescored: Int
  /// The round's status is `COMPLETED`: nothing is left to shoot, whatever end
  /// `semantics` would ask for (seed 002's app never finishes a round, so under
  /// its save steps this stays false and resume asks for the end after the last).
  public var finished: Bool = false
}

/// The Resume stage's entry point.
public enum ResumeStage {
  /// Loads the round as `semantics` does and rescores every stored coordinate
  /// (Float widened to Double, then `rule`) against the stored score.
  /// With `checkScores`, a stored score the face cannot give is refused (a user's database
  /// handed to `bullseye resume`); the conformance flows store whatever a case says, and keep it.
  public static func resume(_ store: RoundStore, round: Int64, semantics: ResumeSemantics = .seed002,
                            rule: BoundaryRule = .inclusive, diameterCm: Double? = nil,
                            checkScores: Bool = false) throws(PersistenceError) -> ResumeState {
    let snap = try store.snapshot(round: round)
    let face: Face
    do { face = try FaceCatalog.face(named: snap.face) } catch { throw PersistenceError("round \(round) has face '\(snap.face)': \(error)") }
    try checkWritable(snap)
    if checkScores { try Self.checkScores(snap, face: face) }
    let firstIncomplete = snap.ends.first { !$0.isCompleted }
    let firstWithArrows = snap.ends.first { !$0.isCompleted && !$0.arrows.isEmpty }
    let nextEnd = (snap.ends.filter(\.isCompleted).map(\.number).max() ?? 0) + 1
    let currentEnd: Int, arrows: [StoredArrow]
    switch semantics {
    case .seed002:
      // `ends.first { !isCompleted }`, restored only `if !incompleteEnd.arrows.isEmpty`. How the
      // seed numbers the current end otherwise is not shown; read as the end after the last completed one.
      if let e = firstIncomplete, !e.arrows.isEmpty { currentEnd = e.number; arrows = e.arrows.sorted { $0.arrowNumber < $1.arrowNumber } }
      else { currentEnd = nextEnd; arrows = [] }
    case .skipEmptyEnds:
      if let e = firstWithArrows { currentEnd = e.number; arrows = e.arrows.sorted { $0.arrowNumber < $1.arrowNumber } }
      else { currentEnd = nextEnd; arrows = [] }
    case .androidDocs:
      currentEnd = nextEnd; arrows = []
    }
    var changes: [RescoreChange] = []
    var checked = 0
    for end in snap.ends {
      for a in end.arrows {
        guard let x = a.x, let y = a.y else { continue }
        checked += 1
        let r = Scorer.scoreUnchecked(ScoreRequest(face: face, x: Double(x), y: Double(y), rule: rule,
                                                   diameterCm: diameterCm, precision: .double))
        if r.score != a.score || r.isX != a.isX {
          changes.append(RescoreChange(endNumber: end.number, arrowNumber: a.arrowNumber, x: x, y: y, storedScore: a.score,
                                       storedIsX: a.isX, rescoredScore: r.score, rescoredIsX: r.isX, distance: r.distance))
        }
      }
    }
    return ResumeState(round: round, semantics: semantics, currentEnd: currentEnd, currentArrowNumber: arrows.count + 1,
                       arrows: arrows, rescoreChanges: changes, rescored: checked, finished: snap.status == "COMPLETED")
  }

  /// Refuses a stored score the round's face cannot give (999 on a ten-zone face),
  /// or an X on a score that is not the face's X.
  static func checkScores(_ snap: RoundSnapshot, face: Face) throws(PersistenceError) {
    let scores = face.possibleScores, xScores = face.xScores
    for end in snap.ends {
      for a in end.arrows where !scores.contains(a.score) || (a.isX && !xScores.contains(a.score)) {
        throw PersistenceError("arrow_scores row \(a.rowID) (end \(end.number)) has score \(a.score)\(a.isX ? " with is_x" : ""): expected one of \(face.possibleScoresListed) on face \(face.id)\(xScores.isEmpty ? "" : ", X only on \(xScores.sorted().map(String.init).joined(separator: ", "))")")
      }
    }
  }

  /// Refuses a database the app could not have written (an arrow number past
  /// the end's size, two rows for one arrow); states the seed's separate save
  /// steps can leave behind (an end without arrows, a stale total) load as the app loads them.
  static func checkWritable(_ snap: RoundSnapshot) throws(PersistenceError) {
    for end in snap.ends {
      var seen = Set<Int>()
      for a in end.arrows {
        guard (1...snap.arrowsPerEnd).contains(a.arrowNumber) else {
          throw PersistenceError("arrow_scores row \(a.rowID) (end \(end.number)) has arrow number \(a.arrowNumber): expected 1...\(snap.arrowsPerEnd), the round's arrows per end")
        }
        guard seen.insert(a.arrowNumber).inserted else {
          throw PersistenceError("arrow_scores row \(a.rowID) is a second row for end \(end.number), arrow \(a.arrowNumber): expected one row per arrow")
        }
      }
    }
  }
}
