#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension AtomicFile {
  /// Puts the folder built at `staged` (beside `target`, on the same file system) in
  /// place as `target`, replacing an earlier one whole: the old folder is renamed
  /// aside, the new one renamed in, then the old one removed, so `target` is never
  /// missing or half-written. On failure the old folder is put back; `staged` is the
  /// caller's to remove.
  public static func placeFolder(_ staged: String, at given: String) throws(CoreError) {
    var target = given
    while target.count > 1, target.hasSuffix("/") { target.removeLast() }
    var info = stat()
    guard lstat(target, &info) == 0 else {
      guard rename(staged, target) == 0 else { throw .io(path: target, reason: reason(errno)) }
      return
    }
    let (directory, name) = split(target)
    let aside = "\(directory)/.\(name).old-\(getpid())"
    removeTree(aside)
    guard rename(target, aside) == 0 else { throw .io(path: target, reason: reason(errno)) }
    guard rename(staged, target) == 0 else {
      let code = errno
      _ = rename(aside, target)
      throw .io(path: target, reason: reason(code))
    }
    removeTree(aside)
    syncDirectory(directory)
  }

  /// Removes a file or folder tree, quietly: what is left is only clutter.
  static func removeTree(_ path: String) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    if (info.st_mode & S_IFMT) == S_IFDIR, let dir = opendir(path) {
      while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        if name != "." && name != ".." { removeTree(path + "/" + name) }
      }
      closedir(dir)
      rmdir(path)
    } else {
      unlink(path)
    }
  }
}
