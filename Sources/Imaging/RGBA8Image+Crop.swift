/// Cropping: a rectangle of an image as an image of its own (the detector's
/// closer look at a small target reads one).
extension RGBA8Image {
  /// The `width`×`height` rectangle whose top-left pixel is (`x`, `y`); throws
  /// unless the rectangle is non-empty and lies inside the image.
  public func cropped(x: Int, y: Int, width w: Int, height h: Int) throws(ImageError) -> RGBA8Image {
    guard w >= 1, h >= 1, x >= 0, y >= 0, x <= width - w, y <= height - h else {
      throw .parameterOutOfRange(name: "crop", value: "\(w)x\(h) at (\(x), \(y))",
                                 expected: "a non-empty rectangle inside the \(width)x\(height) image")
    }
    let rowBytes = w * 4
    // Row by row, no zero fill first: a 12-MP photo's region is tens of megabytes.
    let out = pixels.withUnsafeBytes { src in
      [UInt8](unsafeUninitializedCapacity: rowBytes * h) { buffer, count in
        let dst = UnsafeMutableRawBufferPointer(buffer)
        for row in 0..<h {
          let from = ((y + row) * width + x) * 4
          UnsafeMutableRawBufferPointer(rebasing: dst[(row * rowBytes)..<((row + 1) * rowBytes)])
            .copyMemory(from: UnsafeRawBufferPointer(rebasing: src[from..<(from + rowBytes)]))
        }
        count = rowBytes * h
      }
    }
    return RGBA8Image(unchecked: w, height: h, pixels: out)
  }
}
