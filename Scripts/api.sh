#!/usr/bin/env bash
# The public API of certkit's library products (CertKit, CertKitOpenSSL, CertKitGnuTLS, CertKitSockets), as one
# sorted line per public declaration and conformance, read from the compiler's symbol graph of the debug build.
#
#   Scripts/api.sh              print the API (and a count of types and declarations on stderr)
#   Scripts/api.sh --check      exit 1, with the diff, when it differs from the baseline Tests/API/<module>.txt
#   Scripts/api.sh --update     rewrite the baseline (commit it with the change that changed the API, on purpose)
#
# Needs `swift build` first (Scripts/test.sh runs it). The baseline is the review point: a change that adds,
# removes or changes a public declaration fails --check until the baseline changes in the same commit.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-print}"
modules=(CertKit CertKitOpenSSL CertKitGnuTLS CertKitSockets)
bin="$(swift build --show-bin-path)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
status=0
for module in "${modules[@]}"; do
  mkdir -p "$out/$module"
  swift symbolgraph-extract -module-name "$module" -I "$bin/Modules" -I Sources/COpenSSL -I Sources/CGnuTLS \
    -I Sources/COpenSSLShims/include -I Sources/CGnuTLSShims/include \
    -Xcc -fmodule-map-file="$bin/COpenSSLShims.build/module.modulemap" \
    -Xcc -fmodule-map-file="$bin/CGnuTLSShims.build/module.modulemap" \
    -target "$(uname -m)-unknown-linux-gnu" -minimum-access-level public -skip-synthesized-members \
    -output-dir "$out/$module" >/dev/null
  python3 Scripts/api_lines.py "$out/$module" > "$out/$module.txt"
  case "$mode" in
    --check)
      if ! diff -u "Tests/API/$module.txt" "$out/$module.txt" >&2; then
        echo "api: the public API of $module differs from Tests/API/$module.txt; if the change is deliberate," \
             "run Scripts/api.sh --update and commit the baseline with it" >&2
        status=1
      fi ;;
    --update) mkdir -p Tests/API && cp "$out/$module.txt" "Tests/API/$module.txt" ;;
    print) cat "$out/$module.txt" ;;
    *) echo "api.sh: unknown argument $mode" >&2; exit 2 ;;
  esac
  python3 Scripts/api_lines.py --count "$out/$module" >&2
done
exit $status
