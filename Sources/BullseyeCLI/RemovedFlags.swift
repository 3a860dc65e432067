import ArgumentParser

/// Flags of experiments that never shipped. They are still parsed so that an old
/// command line fails with a line naming what replaced the flag, not with
/// "unknown option".
enum RemovedFlags {
  /// What each removed flag became.
  static let replacements: [String: String] = [
    "--views": "use --refiner-views N (offsets averaged over a one-entry window's views; which entries are found stays the first reading's)",
    "--pair-verifier": "the shipped refiner's own partner channel decides touching pairs; the pair verifier was an experiment (Training/experiments/README.md)",
    "--pair-verifier-accept": "the shipped refiner's own partner channel decides touching pairs (tune it with --pair-accept)",
  ]

  /// Throws for the first removed flag given a value.
  static func check(_ given: [String: String?]) throws {
    for flag in given.keys.sorted() where given[flag].flatMap({ $0 }) != nil {
      throw ValidationError("\(flag) was removed: \(replacements[flag] ?? "no replacement")")
    }
  }
}
