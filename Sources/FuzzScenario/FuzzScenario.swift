// libFuzzer target for the three scenario parsers (see FuzzPNG for the build modes).
import Fuzz
import Obstacles
import Harness
import SetCards

/// One input, as text, through every scenario decoder: errors, never crashes.
func fuzzOne(_ bytes: [UInt8]) {
  let text = String(decoding: bytes, as: UTF8.self)
  _ = try? ArcheryScenario.decode(text, path: "fuzz.yaml")
  _ = try? ObstacleScenario.decode(text, path: "fuzz.yaml")
  _ = try? SetScenarioFile.decode(text, path: "fuzz.yaml")
}

#if FUZZING
  import CFuzzDriver

  /// The executable's entry under `make fuzz`: hand control to libFuzzer.
  @_cdecl("FuzzScenario_main")
  func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    bullseye_run_fuzzer(argc, argv) { data, size in
      fuzzOne(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
      return 0
    }
  }
#else
  @main struct Replay {
    static func main() { FuzzReplay.run(fuzzOne) }
  }
#endif
