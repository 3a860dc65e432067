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
    var out = [UInt8](repeating: 0, count: w * h * 4)
    let rowBytes = w * 4
    pixels.withUnsafeBufferPointer { src in
      out.withUnsafeMutableBufferPointer { dst in
        for row in 0..<h {
          let from = ((y + row) * width + x) * 4
          for i in 0..<rowBytes { dst[row * rowBytes + i] = src[from + i] }
        }
      }
    }
    return RGBA8Image(unchecked: w, height: h, pixels: out)
  }
}
