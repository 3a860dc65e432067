// Profile `tap`: seed 002 (visual tap scoring, ScoringOperations save, loadRound resume).
// Line numbers: /work/shared/seeds/002_908253216ff5ed47.txt.

/// The seed's scoring systems (lines 49, 192-196): ringCount equal rings over the normalized radius,
/// scores by ring index (0 = outermost, as TargetFaceView draws them, lines 64-66), X at 0.05 where the
/// button list has an X.
struct ScoringSystem {
    let ringCount: Int
    let scoresOutermostFirst: [Int]
    let hasXRing: Bool

    static func forFace(_ id: String) -> ScoringSystem? {
        switch id {
        // Standard 10-Ring: X, 10 … 1, M
        case "10_zone", "wa_10_zone", "wa_full", "seed_standard_10_ring", "Standard 10-Ring", "standard10Ring":
            return ScoringSystem(ringCount: 10, scoresOutermostFirst: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], hasXRing: true)
        // Indoor 5-Ring: X, 10, 9, 8, 7, 6, M
        case "seed_indoor_5_ring", "Indoor 5-Ring", "indoor5Ring":
            return ScoringSystem(ringCount: 5, scoresOutermostFirst: [6, 7, 8, 9, 10], hasXRing: true)
        // Vegas 2-Ring: X, 10, 9, M
        case "seed_vegas_2_ring", "Vegas 2-Ring", "vegas2Ring":
            return ScoringSystem(ringCount: 2, scoresOutermostFirst: [9, 10], hasXRing: true)
        // Field 5-Ring: 5, 5, 5, 3, 1, M (no X)
        case "seed_field_5_ring", "Field 5-Ring", "field5Ring":
            return ScoringSystem(ringCount: 5, scoresOutermostFirst: [1, 3, 5, 5, 5], hasXRing: false)
        default:
            return nil
        }
    }
}

/// TargetFaceViewModel, lines 108-125.
struct TargetFaceViewModel {
    let scoringSystem: ScoringSystem
    static let xRingRadiusFraction = 0.05
    var ringCount: Int { scoringSystem.ringCount }

    func getScoreForRing(at index: Int) -> Int { scoringSystem.scoresOutermostFirst[index] }

    // Calculate score from tap coordinates
    func calculateScore(x: Double, y: Double) -> Int {
        let distance = sqrt(x * x + y * y)
        if distance > 1.0 { return 0 }  // Miss

        let ringWidth = 1.0 / Double(ringCount)
        let ringFromCenter = Int(distance / ringWidth)
        let ringIndex = ringCount - 1 - min(ringFromCenter, ringCount - 1)

        return getScoreForRing(at: ringIndex)
    }

    // Check X-ring hit
    func isXRing(x: Double, y: Double) -> Bool {
        guard scoringSystem.hasXRing else { return false }
        let distance = sqrt(x * x + y * y)
        return distance <= Self.xRingRadiusFraction  // 0.05 = 5% of target radius
    }
}

enum TapProfile {
    static func make() -> Profile {
        Profile(
            name: "tap",
            stages: ["score", "resume"],
            semantics: [
                ("boundary", "floor"),       // line 114: Int(distance / ringWidth)
                ("precision", "double"),     // lines 109-110: Double x, y
                ("resume", "seed-002"),      // lines 262-283
                ("save", "seed-002-steps"),  // lines 304-333: three awaited steps
            ],
            handle: { stage, input in
                switch stage {
                case "score": return try score(input)
                case "resume": return try resume(input)
                default: return .skipped("no stage \(stage)")
                }
            })
    }

    static func score(_ input: JSON) throws -> Answer {
        let face = try input.string("face")
        guard let system = ScoringSystem.forFace(face) else {
            return .skipped("seed 002 has no scoring system for \(face)")
        }
        let vm = TargetFaceViewModel(scoringSystem: system)
        let R = outerRadiusMM(diameterCm: try input.double("diameter_cm"))
        let x = try input.double("x_mm") / R
        let y = try input.double("y_mm") / R
        return .output(.object([("points", int(vm.calculateScore(x: x, y: y))), ("x", .bool(vm.isXRing(x: x, y: y)))]))
    }

    // MARK: resume — an in-memory model of the tables ScoringOperations writes (lines 304-333).

    struct ArrowScore {
        let arrowNumber: Int
        var scoreValue: Int
        var isX: Bool
        var xCoordinate: Float?   // KotlinFloat(value: Float($0)), lines 251-252
        var yCoordinate: Float?
    }

    struct EndScore {
        let endNumber: Int
        var isCompleted = false
        var arrows: [ArrowScore] = []
    }

    struct RoundDB {
        var ends: [EndScore] = []

        mutating func getOrCreateEndScore(_ endNumber: Int) -> Int {
            if let i = ends.firstIndex(where: { $0.endNumber == endNumber }) { return i }
            ends.append(EndScore(endNumber: endNumber))
            return ends.count - 1
        }

        mutating func saveArrowScore(endNumber: Int, arrowNumber: Int, score: Int, isX: Bool,
                                     xCoordinate: Double?, yCoordinate: Double?) {
            let e = getOrCreateEndScore(endNumber)
            let arrowScore = ArrowScore(arrowNumber: arrowNumber, scoreValue: score, isX: isX,
                                        xCoordinate: xCoordinate.map { Float($0) },
                                        yCoordinate: yCoordinate.map { Float($0) })
            if let existing = ends[e].arrows.firstIndex(where: { $0.arrowNumber == arrowNumber }) {
                ends[e].arrows[existing] = arrowScore   // UPDATE existing
            } else {
                ends[e].arrows.append(arrowScore)       // INSERT new
            }
        }

        mutating func completeEnd(endNumber: Int) {
            let e = getOrCreateEndScore(endNumber)
            ends[e].isCompleted = true
        }

        /// getRoundWithDetails: ends by end number.
        var details: [EndScore] { ends.sorted { $0.endNumber < $1.endNumber } }
    }

    static func resume(_ input: JSON) throws -> Answer {
        var db = RoundDB()
        for s in try input.array("saved") {
            let end = try s.int("end")
            if s["complete"]?.boolValue == true {
                db.completeEnd(endNumber: end)
                continue
            }
            // An end row with no arrow: what step 1 of an interrupted save leaves behind.
            if s["create"]?.boolValue == true {
                _ = db.getOrCreateEndScore(end)
                continue
            }
            // Killed inside this save: the seed's save is separate awaited steps (lines 304-333),
            // so the steps before the kill stay. After "end" only the end row exists.
            if case .string(let step)? = s["crash_after"], step == "end" {
                _ = db.getOrCreateEndScore(end)
                break
            }
            var xc: Double?, yc: Double?
            if let p = s["position"], p != .null {
                let q = try doublesOf(p, "position", count: 2)
                xc = q[0]; yc = q[1]
            }
            guard let isX = s["x"]?.boolValue else { throw InputError(why: "saved arrow without x") }
            db.saveArrowScore(endNumber: end, arrowNumber: try s.int("arrow"), score: try s.int("points"),
                              isX: isX, xCoordinate: xc, yCoordinate: yc)
            // Killed after the arrow row or the total: the arrow is stored (this model keeps no totals).
            if s["crash_after"] != nil { break }
        }

        // loadRound (lines 262-283).
        let ends = db.details
        // Not shown in the seed ("... load round details ..."): without an unfinished end to restore, the
        // app goes on at the end after the last completed one, arrow 1.
        var currentEndNumber = (ends.filter { $0.isCompleted }.map { $0.endNumber }.max() ?? 0) + 1
        var currentArrowNumber = 1
        var currentEndArrows: [(Int, ArrowScore)] = []

        // Check for incomplete end with existing arrows
        let incompleteEnd = ends.first { !$0.isCompleted }
        if let incompleteEnd = incompleteEnd, !incompleteEnd.arrows.isEmpty {
            let sortedArrows = incompleteEnd.arrows.sorted { $0.arrowNumber < $1.arrowNumber }
            currentEndArrows = sortedArrows.map { ($0.arrowNumber, $0) }
            currentArrowNumber = currentEndArrows.count + 1
            currentEndNumber = incompleteEnd.endNumber
        }

        let arrows: [JSON] = currentEndArrows.map { number, arrow in
            var pairs: [(String, JSON)] = [("arrow", int(number)), ("points", int(arrow.scoreValue)), ("x", .bool(arrow.isX))]
            if let x = arrow.xCoordinate, let y = arrow.yCoordinate {
                pairs.append(("position", .array([num(Double(x)), num(Double(y))])))
            }
            return .object(pairs)
        }
        return .output(.object([("end", int(currentEndNumber)), ("next_arrow", int(currentArrowNumber)),
                                ("arrows", .array(arrows))]))
    }
}
