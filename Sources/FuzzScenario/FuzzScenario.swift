// libFuzzer target for the three scenario parsers (see FuzzPNG for the build modes).
import Fuzz
import Obstacles
import Pipeline
import SetCards

/// One input, as text, through every scenario decoder: errors, never crashes.
func fuzzOne(_ bytes: [UInt8]) {
  let text = String(decoding: bytes, as: UTF8.self)
  _ = try? ArcheryScenario.decode(text, path: "fuzz.yaml")
  _ = try? ObstacleScenario.decode(text, path: "fuzz.yaml")
  _ = try? SetScenarioFile.decode(text, path: "fuzz.yaml")
}

#if FUZZING
  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzzEntry(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzOne(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
  }
#else
  @main struct Replay {
    static func main() { FuzzReplay.run(fuzzOne) }
  }
#endif
