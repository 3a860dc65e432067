// libFuzzer target for the ONNX reader (see FuzzPNG for the build modes).
import Fuzz
import Inference

/// One input: loading must throw or succeed, never crash.
func fuzzOne(_ bytes: [UInt8]) {
  _ = try? InferenceModel(bytes: bytes, memoryLimit: 64 << 20)
}

#if FUZZING
  import CFuzzDriver

  /// The executable's entry under `make fuzz`: hand control to libFuzzer.
  @_cdecl("FuzzONNX_main")
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
