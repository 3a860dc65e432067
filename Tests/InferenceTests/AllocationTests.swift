import CAllocCount
import Foundation
import Testing

@testable import Inference

/// Plan-time work happens once: after a first run, running a plan's steps on
/// one thread allocates nothing at all — buffers live in the plan's arena,
/// panels on the stack, offsets are computed when the plan is built, and no
/// closure context is boxed. Counted by a malloc hook on the calling thread
/// (CAllocCount) on every shipped model. (Across threads, handing a kernel's
/// non-escaping closure to the pool still boxes its context once per parallel
/// region; that is not asserted here.)
struct AllocationTests {
  @Test("A plan's run loop makes no heap allocation on one thread", arguments: ShippedModelTests.shipped)
  func runLoopDoesNotAllocate(_ name: String) throws {
    let path = ShippedModelTests.root.appendingPathComponent("Models/\(name).onnx").path
    let model = try InferenceModel(contentsOf: path)
    var shapes: [String: [Int]] = [:]
    for port in model.inputs {
      shapes[port.name] = try #require(port.shape).map { d -> Int in
        if case .value(let v) = d { return v }
        return 1
      }
    }
    let plan = try model.cache.plan(model.graph, shapes, isa: KernelISA.current)
    let exec = Exec(threads: 1, isa: KernelISA.current)
    plan.runSteps(exec)  // warm
    bk_alloc_count_start()
    plan.runSteps(exec)
    let count = bk_alloc_count_stop()
    #expect(count == 0, "\(name): \(count) allocations in the run loop")
  }

  @Test("The allocation hook counts what it should (so a zero above means something)")
  func hookCounts() {
    bk_alloc_count_start()
    let a = [Int](repeating: 7, count: 1000)
    let b = a.map { $0 + 1 }
    let count = bk_alloc_count_stop()
    #expect(b.count == 1000)
    #expect(count >= 2, "two arrays built, \(count) allocations seen")
  }
}
