// swift-tools-version:6.0
// A conformance testee transliterating seeds 000, 002 and 003 (docs/conformance.md, protocol v1).
// Deliberately no dependencies: its own JSON, no Bullseye module.
import PackageDescription

let package = Package(
    name: "SeedApp",
    targets: [
        .executableTarget(name: "SeedApp", path: "Sources/SeedApp")
    ]
)
