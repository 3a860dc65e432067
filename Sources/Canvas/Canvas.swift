// Canvas draws with cairo; the image type, PNG coding and their errors live in
// the cairo-free `Imaging` below it, re-exported so a drawing module needs one import.
@_exported import Imaging

/// Drawing and image failures are one type (`ImageError`, its `cairo` case raised here).
public typealias CanvasError = ImageError
