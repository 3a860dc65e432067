/// A Double as exact C99 hex-float text, e.g. `0x1.999999999999ap-5`:
/// boundary findings and rescore reports print distances this way so the
/// bits are visible.
public func hexString(_ d: Double) -> String {
  guard d.isFinite else { return "\(d)" }
  if d == 0 { return d.sign == .minus ? "-0x0p+0" : "0x0p+0" }
  let sign = d.sign == .minus ? "-" : ""
  var hex = String(d.significandBitPattern, radix: 16)
  hex = String(repeating: "0", count: 13 - hex.count) + hex
  while hex.hasSuffix("0") { hex.removeLast() }
  let e = d.isSubnormal ? -1022 : Int(d.exponent)
  let lead = d.isSubnormal ? "0" : "1"
  return "\(sign)0x\(lead)\(hex.isEmpty ? "" : "." + hex)p\(e >= 0 ? "+" : "")\(e)"
}
