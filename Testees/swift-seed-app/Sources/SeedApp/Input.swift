// Reading a case's input: a missing or mistyped key is an InputError (answered as `error`).

extension JSON {
    func double(_ key: String) throws -> Double {
        guard let v = self[key] else { throw InputError(why: "missing \(key)") }
        guard let d = v.number else { throw InputError(why: "\(key) is not a number") }
        return d
    }

    func int(_ key: String) throws -> Int {
        guard let v = self[key] else { throw InputError(why: "missing \(key)") }
        guard let n = v.integer else { throw InputError(why: "\(key) is not an integer") }
        return n
    }

    func string(_ key: String) throws -> String {
        guard let v = self[key]?.stringValue else { throw InputError(why: "missing string \(key)") }
        return v
    }

    func array(_ key: String) throws -> [JSON] {
        guard let v = self[key]?.arrayValue else { throw InputError(why: "missing array \(key)") }
        return v
    }

    func doubles(_ key: String, count: Int? = nil) throws -> [Double] {
        let a = try array(key)
        let ds = try a.map { (j: JSON) -> Double in
            guard let d = j.number else { throw InputError(why: "\(key) holds a non-number") }
            return d
        }
        if let count, ds.count != count { throw InputError(why: "\(key) wants \(count) numbers") }
        return ds
    }
}

func doublesOf(_ j: JSON, _ what: String, count: Int) throws -> [Double] {
    guard let a = j.arrayValue, a.count == count else { throw InputError(why: "\(what) wants \(count) numbers") }
    return try a.map {
        guard let d = $0.number else { throw InputError(why: "\(what) holds a non-number") }
        return d
    }
}

/// docs/conformance.md §4 steps 1–2: the outer scoring radius in mm, in Double, left to right.
/// Every face this testee knows has outer_fraction 1.0.
func outerRadiusMM(diameterCm: Double) -> Double {
    diameterCm * 10 / 2 * 1.0
}
