#!/usr/bin/env bash
# Release build of the testee (idempotent: SwiftPM rebuilds only what changed).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
cd "$REPO"
exec swift build -c release --package-path Testees/swift-seed-app \
    --scratch-path "$REPO/.build/testees/swift-seed-app" "$@"
