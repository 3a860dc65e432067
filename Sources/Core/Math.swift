#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Thin aliases so Core needs no Foundation: libm's log/cos are the platform's.
@inline(__always) func _log(_ x: Double) -> Double { log(x) }
@inline(__always) func _cos(_ x: Double) -> Double { cos(x) }
