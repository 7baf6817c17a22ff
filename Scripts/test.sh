#!/usr/bin/env bash
# Runs every test: the whole suite, then the concurrency tests again under ThreadSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/bootstrap.sh
swift build --build-tests
swift test --skip-build
# Concurrency tests under TSan (separate build directory so the normal build stays cached).
swift test --sanitize=thread --scratch-path .build/tsan --filter 'Concurrency|Concurrent|Serial|Stress|ThreadSafety'
