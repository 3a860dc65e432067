// libFuzzer target for the ONNX reader (see FuzzPNG for the build modes).
import Fuzz
import Inference

/// One input: loading must throw or succeed, never crash.
func fuzzOne(_ bytes: [UInt8]) {
  _ = try? InferenceModel(bytes: bytes, memoryLimit: 64 << 20)
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
