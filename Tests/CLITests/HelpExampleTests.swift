import Foundation
import Testing

/// Every subcommand's help ends its overview with an example, and the
/// example only uses options that command's help lists.
struct HelpExampleTests {
  static let commands: [[String]] = [
    ["verify"], ["fuzz"], ["fuzz", "scoring"], ["model", "inspect"], ["model", "run"], ["model", "list"],
    ["eval", "setcards"], ["eval", "card-crops"], ["eval", "archery"], ["score"], ["synth"], ["render"], ["run", "archery"], ["run", "setcards"],
    ["run", "obstacles"], ["resume"], ["simulate-round"], ["faces"], ["bench", "synth"], ["bench", "scoring"],
    ["bench", "conform"], ["bench", "pipeline"], ["bench", "photo"], ["bench", "peak"], ["conform", "run"], ["conform", "export"], ["conform", "testee"],
    ["report", "merge"],
  ]

  @Test(arguments: commands)
  func helpHasAnExampleUsingItsOwnOptions(command: [String]) throws {
    let r = try CLIRunner.run(command + ["--help"])
    #expect(r.status == 0)
    let example = r.stdout.split(separator: "\n").first { $0.contains("Example: ") }.map(String.init)
    guard let example else { Issue.record("\(command.joined(separator: " ")): no example in --help"); return }
    // The example runs this command (or, for a parent-level helper, one of its documented siblings).
    #expect(example.contains("bullseye " + command[0]), "\(example)")
    if example.contains("bullseye " + command.joined(separator: " ") + " ") {
      for flag in example.split(separator: " ").filter({ $0.hasPrefix("--") }) {
        #expect(r.stdout.contains(String(flag) + " ") || r.stdout.contains(String(flag) + "\n"), "\(command): example uses \(flag), which --help does not list")
      }
    }
  }
}
