import CKernels
import Foundation

/// How a kernel runs: thread count and instruction set (`BK_ISA_*`).
struct Exec {
  var threads: Int
  var isa: Int32
}

/// The buffers a kernel reads and writes, fixed when the plan is built.
struct Buffers {
  var ins: [UnsafePointer<Float>?]
  var outs: [UnsafeMutablePointer<Float>]
  var ws: UnsafeMutablePointer<Float>?

  func input(_ k: Int) -> UnsafePointer<Float> {
    // Lowering validated presence; a missing optional input never reaches here.
    ins[k] ?? UnsafePointer(outs[0])
  }
}

typealias Kernel = (Exec) -> Void
typealias KernelFactory = (Buffers) -> Kernel

struct OutSpec {
  var shape: [Int]
  var dtype: DType = .float
}

/// A copy between one buffer and contiguous slices of it, in elements from
/// its start.
enum Slices {
  /// Input k is output 0 from element `starts[k]` on (Concat).
  case join([Int])
  /// Output k is input 0 from element `starts[k]` on (Split).
  case split([Int])
}

/// What an operator becomes in a plan.
enum Lowering {
  /// Outputs computed now (constant folding).
  case fold([Value])
  /// Output 0 is input 0 viewed with a new shape (no copy).
  case alias([Int])
  /// A kernel over float buffers, with a workspace of `workspace` floats.
  case kernel([OutSpec], workspace: Int = 0, macs: Int = 0, KernelFactory)
  /// The inner kernel only moves whole slices (`Slices`): the planner may
  /// lay the buffers over each other and drop the copy (`ArenaLayout`).
  indirect case sliced(Slices, Lowering)
}

/// An executable plan for one set of input shapes. Buffers are laid out once
/// in one arena; steps never allocate. Runs are serialised by `lock`.
final class Plan: @unchecked Sendable {
  struct Step {
    let label: String
    let op: String
    /// Multiply-adds the step does (for the profile's GFLOP/s).
    let macs: Int
    let run: Kernel
  }
  enum Source {
    case constant(Value)
    case buffer(UnsafeMutablePointer<Float>, [Int], DType)
  }

  var steps: [Step] = []
  var arena: UnsafeMutableRawPointer?
  var consts: UnsafeMutablePointer<Float>?
  var inputs: [String: (ptr: UnsafeMutablePointer<Float>, shape: [Int])] = [:]
  var outputs: [(String, Source)] = []
  var macs = 0
  var arenaFloats = 0
  /// Plan-time work per node (`NodeContext.note`), in graph order.
  var prepared: [(node: String, note: String)] = []
  let lock = NSLock()
  /// `BULLSEYE_PROFILE=1` prints time per operator type to stderr.
  static let profiling = ProcessInfo.processInfo.environment["BULLSEYE_PROFILE"] == "1"

  deinit {
    bk_free_huge(arena)
    bk_free_huge(consts)
  }

  /// The steps alone: the loop that must not allocate (tests count it).
  /// Indexed, not `for s in steps`: an unspecialised (debug) iterator moves
  /// each Step through a heap buffer.
  func runSteps(_ exec: Exec) {
    for i in steps.indices { steps[i].run(exec) }
  }

  /// Runs the plan; `inputs` must match the shapes it was built for.
  func run(_ values: [String: [Float]], exec: Exec) -> [String: Value] {
    lock.lock()
    defer { lock.unlock() }
    for (name, slot) in inputs {
      if let v = values[name] {
        v.withUnsafeBufferPointer { p in
          if let b = p.baseAddress { slot.ptr.update(from: b, count: p.count) }
        }
      }
    }
    if Plan.profiling {
      var byOp: [String: Double] = [:]
      var byNode: [(String, Double, Int)] = []
      for s in steps {
        let t = DispatchTime.now().uptimeNanoseconds
        s.run(exec)
        let ms = Double(DispatchTime.now().uptimeNanoseconds - t) / 1e6
        byOp[s.op, default: 0] += ms
        byNode.append((s.label, ms, s.macs))
      }
      // BULLSEYE_PROFILE_NODES=N also lists the N slowest nodes.
      if let n = Int(ProcessInfo.processInfo.environment["BULLSEYE_PROFILE_NODES"] ?? ""), n > 0 {
        for (l, ms, m) in byNode.sorted(by: { $0.1 > $1.1 }).prefix(n) {
          let rate = m > 0 && ms > 0 ? String(format: " %.1f GFLOP/s", 2 * Double(m) / (ms * 1e6)) : ""
          FileHandle.standardError.write(Data(String(format: "  %@ %.3f ms%@\n", l, ms, rate).utf8))
        }
      }
      let total = byOp.values.reduce(0, +)
      let lines = byOp.sorted { $0.value > $1.value }.map { String(format: "%@ %.2f ms", $0.key, $0.value) }
      FileHandle.standardError.write(Data("profile: \(String(format: "%.2f", total)) ms, arena \((arenaFloats * 4) >> 20) MiB: \(lines.joined(separator: ", "))\n".utf8))
    } else {
      runSteps(exec)
    }
    var result: [String: Value] = [:]
    for (name, src) in outputs {
      switch src {
      case .constant(let v): result[name] = v
      case .buffer(let p, let shape, let dtype):
        let n = shape.reduce(1, *)
        let f = Array(UnsafeBufferPointer(start: p, count: n))
        result[name] = dtype == .float
          ? Value(shape: shape, floats: f)
          : Value(shape: shape, dtype: dtype, ints: f.map { Int64(saturating: $0) })
      }
    }
    return result
  }
}

/// Splits `0..<n` into at most `threads` contiguous ranges run in parallel on
/// the kernel pool (`bk_parallel_for`). Only independent outputs are ever
/// split, so results do not depend on it.
func parallelFor(_ n: Int, threads: Int, _ body: (Int, Int) -> Void) {
  let t = max(1, min(threads, n))
  if t == 1 {
    body(0, n)
    return
  }
  withoutActuallyEscaping(body) { f in
    var fn = f
    withUnsafeMutablePointer(to: &fn) { p in
      bk_parallel_for(Int32(t), n, { ctx, lo, hi in
        ctx?.assumingMemoryBound(to: ((Int, Int) -> Void).self).pointee(lo, hi)
      }, p)
    }
  }
}

