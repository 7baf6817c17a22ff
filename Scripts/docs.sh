#!/usr/bin/env bash
# Builds the CertKit DocC archive with the toolchain's own docc (the DocC plugin package cannot be fetched):
# symbol graphs of the debug build's CertKit module, then `docc convert` over Sources/CertKit/CertKit.docc. Warnings are errors.
# Output: .build/docs/CertKit.doccarchive
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/docs
rm -rf "$out"
mkdir -p "$out/symbols"
# Symbol graphs read from the debug build's module (as Scripts/api.sh reads them): no second build of the library.
swift build --target CertKit >/dev/null
bin="$(swift build --show-bin-path)"
swift symbolgraph-extract -module-name CertKit -I "$bin/Modules" -I Sources/COpenSSL -I Sources/CGnuTLS \
  -I Sources/COpenSSLShims/include -I Sources/CGnuTLSShims/include \
  -target "$(uname -m)-unknown-linux-gnu" -minimum-access-level public \
  -output-dir "$out/symbols" >/dev/null
docc=$(command -v docc || echo "$(dirname "$(command -v swift)")/docc")
"$docc" convert Sources/CertKit/CertKit.docc \
  --additional-symbol-graph-dir "$out/symbols" \
  --fallback-display-name CertKit --fallback-bundle-identifier org.certkit.CertKit \
  --output-path "$out/CertKit.doccarchive" --warnings-as-errors
echo "docs: $out/CertKit.doccarchive"
