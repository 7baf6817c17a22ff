#!/usr/bin/env bash
# Runs every test three times: plainly, under ThreadSanitizer and under AddressSanitizer (LeakSanitizer on,
# with suppressions only for toolchain runtime allocations: Scripts/lsan.supp). Each sanitizer builds in its own
# directory so the plain build stays cached; the DocC catalog must build without warnings; the differential sample,
# the name-constraint matrix and the fuzz targets run between. First, the fixture package's unit tests and a
# regeneration of every fixture set compared byte for byte with the committed files (~2 min). `--quick` runs the
# plain pass only.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/bootstrap.sh
python3 -m unittest discover -s Tests/Mutation -q  # the mutation tool's reading of swift test runs
Scripts/mutation.sh --check >/dev/null  # every mutant's original text still found exactly once (stale list fails)
echo "== Fixture sets (Scripts/fixtures.sh: the package's unit tests, then every set regenerated and compared)"
Scripts/fixtures.sh --test
Scripts/fixtures.sh --check
swift build --build-tests
echo "== Public API (Tests/API: changes only with a deliberate baseline update, Scripts/api.sh --update)"
Scripts/api.sh --check >/dev/null
swift test --skip-build
echo "== Newcomer stories (Tests/Stories/stories.sh: the Docs' stories with the built binary, real servers on 127.0.0.1)"
Tests/Stories/stories.sh
if [ "${1:-}" = "--quick" ]; then exit 0; fi
echo "== Documentation (DocC, warnings are errors)"
Scripts/docs.sh
echo "== Differential sample (2,000 fixed-seed cases against openssl, certtool and pyca)"
# Fails on an unexplained accept (certkit trusts, a reference rejects, no row of Tests/Differential/known-differences.md
# explains it), a backend disagreement where one certkit backend trusts, a crash, a signal or a 20 s case.
# Disagreements where both backends reject with different checks are printed, not gated.
python3 -m unittest discover -s Tests/Differential -p 'test_*.py'
Scripts/differential.sh --ci --gate unexplained-accept,backend-disagreement,crash,ablation-unexplained --out .build/differential-ci
Scripts/differential.sh --ci --audit --gate unexplained-accept,backend-disagreement,crash,ablation-unexplained --out .build/differential-ci-audit
echo "== Name-constraint matrix (~29,000 BetterTLS-style cases, both backends, default and audit modes)"
# Both modes fail on any backend disagreement and on any case where a backend's verdict differs from the rule model;
# the default mode also on a difference between the model and pyca/cryptography that no documented rule explains
# (Tests/Fixtures/README.md, "Name-constraint matrix").
python3 -m unittest discover -s Tests/NCMatrix -q  # the matrix's rule model, clause by clause
Scripts/ncmatrix.sh --mode default --gate backend,model --pyca
Scripts/ncmatrix.sh --mode audit --gate backend,model
echo "== Fuzzing (every target 60 s on its committed corpus, AddressSanitizer)"
Scripts/fuzz.sh --ci
echo "== ThreadSanitizer"
CERTKIT_SANITIZER_SLOWDOWN=15 swift test --sanitize=thread --scratch-path .build/tsan
echo "== AddressSanitizer"
CERTKIT_SANITIZER_SLOWDOWN=5 LSAN_OPTIONS="suppressions=$PWD/Scripts/lsan.supp" swift test --sanitize=address --scratch-path .build/asan
