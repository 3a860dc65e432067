// Entry point: command line, handshake and the JSON Lines loop (docs/conformance.md, protocol v1).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes all of `s` to a file descriptor (1 = stdout, 2 = stderr); no stdio globals (Swift 6 mode).
func writeFD(_ fd: Int32, _ s: String) {
    var bytes = Array(s.utf8)
    var off = 0
    while off < bytes.count {
        let n = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + off, $0.count - off) }
        if n <= 0 {
            if n < 0 && errno == EINTR { continue }
            exit(0)  // the harness has gone
        }
        off += n
    }
}

func logErr(_ s: String) { writeFD(2, "swift-seed-app: " + s + "\n") }

enum Answer {
    case output(JSON)
    case skipped(String)
    case error(String)
}

/// An error thrown while reading a case's input: answered as `error`.
struct InputError: Error { let why: String }

struct Profile {
    let name: String
    let stages: [String]
    var semantics: [(String, String)]
    let handle: (String, JSON) throws -> Answer
}

func usage(_ message: String) -> Never {
    logErr(message)
    writeFD(2, "usage: SeedApp --profile camera|tap|batsight [--declare AXIS=VALUE,...] [--stale-capture] [--nms-iou union|union-float32|enclosing]\n")
    exit(2)
}

func parseArguments(_ args: [String]) -> Profile {
    var profileName: String?
    var declare: [(String, String)] = []
    var staleCapture = false
    var nmsIoU: String?
    var k = 0
    func next(_ flag: String) -> String {
        k += 1
        guard k < args.count else { usage("\(flag) needs a value") }
        return args[k]
    }
    while k < args.count {
        let a = args[k]
        switch a {
        case "--profile": profileName = next(a)
        case "--declare":
            for item in next(a).split(separator: ",") where !item.isEmpty {
                let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { usage("--declare wants AXIS=VALUE, got '\(item)'") }
                declare.append((parts[0], parts[1]))
            }
        case "--stale-capture": staleCapture = true
        case "--nms-iou": nmsIoU = next(a)
        default:
            if a.hasPrefix("--profile=") { profileName = String(a.dropFirst("--profile=".count)) }
            else if a.hasPrefix("--declare=") {
                for item in a.dropFirst("--declare=".count).split(separator: ",") where !item.isEmpty {
                    let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
                    guard parts.count == 2 else { usage("--declare wants AXIS=VALUE, got '\(item)'") }
                    declare.append((parts[0], parts[1]))
                }
            } else { usage("unknown argument '\(a)'") }
        }
        k += 1
    }
    var profile: Profile
    switch profileName {
    case "camera"?:
        if nmsIoU != nil { usage("--nms-iou belongs to --profile batsight") }
        profile = CameraProfile.make(staleCapture: staleCapture)
    case "tap"?:
        if staleCapture || nmsIoU != nil { usage("--stale-capture and --nms-iou do not apply to --profile tap") }
        profile = TapProfile.make()
    case "batsight"?:
        if staleCapture { usage("--stale-capture belongs to --profile camera") }
        let variant: BatSightProfile.IoU
        switch nmsIoU ?? "enclosing" {
        case "union": variant = .union
        case "union-float32": variant = .unionFloat32
        case "enclosing": variant = .enclosing
        default: usage("--nms-iou takes union, union-float32 or enclosing")
        }
        profile = BatSightProfile.make(iou: variant)
    case nil: usage("--profile is required")
    case let other?: usage("unknown profile '\(other)'")
    }
    for (axis, value) in declare {
        if let n = profile.semantics.firstIndex(where: { $0.0 == axis }) {
            profile.semantics[n].1 = value
        } else {
            profile.semantics.append((axis, value))
        }
    }
    return profile
}

func answerJSON(_ a: Answer) -> JSON {
    switch a {
    case let .output(o): return .object([("output", o)])
    case let .skipped(w): return .object([("skipped", .string(w))])
    case let .error(w): return .object([("error", .string(w))])
    }
}

func runCase(_ profile: Profile, stage: String, input: JSON?) -> Answer {
    guard let input else { return .error("no input") }
    if stage == "echo" { return .output(input) }
    guard profile.stages.contains(stage) else { return .skipped("stage \(stage) is not in profile \(profile.name)") }
    do {
        let a = try profile.handle(stage, input)
        if case let .output(o) = a {
            do { _ = try serialize(o) } catch { return .error("result is not finite") }
        }
        return a
    } catch let e as InputError {
        return .error(e.why)
    } catch {
        return .error("\(error)")
    }
}

func emit(_ v: JSON) {
    let line: String
    do { line = try serialize(v) } catch { line = "{\"error\":\"unserializable\"}" }
    writeFD(1, line + "\n")
}

func serve(_ profile: Profile) {
    while let line = readLine(strippingNewline: true) {
        if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
        let msg: JSON
        do { msg = try JSONReader.parse(line) } catch {
            logErr("unreadable line: \(error)")
            continue
        }
        let seq = msg["seq"] ?? .null
        switch msg["cmd"]?.stringValue {
        case "start"?:
            var sem: [(String, JSON)] = []
            for (k, v) in profile.semantics { sem.append((k, .string(v))) }
            emit(.object([
                ("ready", .bool(true)),
                ("name", .string("swift-seed-app \(profile.name)")),
                ("stages", .array((profile.stages + ["echo"]).map { .string($0) })),
                ("semantics", .object(sem)),
                ("batch", .bool(true)),
            ]))
        case "run"?:
            let stage = msg["stage"]?.stringValue ?? ""
            var pairs: [(String, JSON)] = [("seq", seq)]
            if case let .object(a) = answerJSON(runCase(profile, stage: stage, input: msg["input"])) { pairs += a }
            emit(.object(pairs))
        case "run_batch"?:
            let stage = msg["stage"]?.stringValue ?? ""
            let cases = msg["cases"]?.arrayValue ?? []
            let answers = cases.map { answerJSON(runCase(profile, stage: stage, input: $0["input"])) }
            emit(.object([("seq", seq), ("answers", .array(answers))]))
        case "stop"?:
            exit(0)
        default:
            logErr("unknown message: \(line.prefix(200))")
            emit(.object([("seq", seq), ("error", .string("unknown cmd"))]))
        }
    }
}

serve(parseArguments(Array(CommandLine.arguments.dropFirst())))
