// libFuzzer target for the PNG reader. `make fuzz` builds it with
import Fuzz
// -sanitize=fuzzer -DFUZZING; a plain build replays files given as arguments.
import Imaging

/// One input: decoding must throw or succeed, never crash.
func fuzzOne(_ bytes: [UInt8]) {
  _ = try? PNG.decode(bytes, limits: ImageLimits(maxSide: 4096, maxPixels: 4096 * 4096))
}

#if FUZZING
  import CFuzzDriver

  /// The executable's entry under `make fuzz`: hand control to libFuzzer.
  @_cdecl("FuzzPNG_main")
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
