// libFuzzer target for the PNG reader. `make fuzz` builds it with
import Fuzz
// -sanitize=fuzzer -DFUZZING; a plain build replays files given as arguments.
import Canvas

/// One input: decoding must throw or succeed, never crash.
func fuzzOne(_ bytes: [UInt8]) {
  _ = try? PNG.decode(bytes, limits: ImageLimits(maxSide: 4096, maxPixels: 4096 * 4096))
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
