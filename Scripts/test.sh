#!/usr/bin/env bash
# Runs every test three times: plainly, under ThreadSanitizer and under AddressSanitizer (LeakSanitizer on,
# with suppressions only for toolchain runtime allocations: Scripts/lsan.supp). Each sanitizer builds in its own
# directory so the plain build stays cached; the DocC catalog must build without warnings. `--quick` runs the plain
# pass only.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/bootstrap.sh
swift build --build-tests
swift test --skip-build
if [ "${1:-}" = "--quick" ]; then exit 0; fi
echo "== Documentation (DocC, warnings are errors)"
Scripts/docs.sh
echo "== Differential sample (2,000 fixed-seed cases against openssl, certtool and pyca; fails on a crash or timeout)"
# Unexplained accepts and backend disagreements are counted and printed but do not fail CI yet (open classes are
# listed in Tests/Differential/findings.md); a crash, a signal or a 20 s case does.
Scripts/differential.sh --ci --gate crash --out .build/differential-ci
echo "== ThreadSanitizer"
CERTKIT_SANITIZER_SLOWDOWN=15 swift test --sanitize=thread --scratch-path .build/tsan
echo "== AddressSanitizer"
CERTKIT_SANITIZER_SLOWDOWN=5 LSAN_OPTIONS="suppressions=$PWD/Scripts/lsan.supp" swift test --sanitize=address --scratch-path .build/asan
