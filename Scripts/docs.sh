#!/usr/bin/env bash
# Builds the CertKit DocC archive with the toolchain's own docc (the DocC plugin package cannot be fetched):
# symbol graphs from `swift build`, then `docc convert` over Sources/CertKit/CertKit.docc. Warnings are errors.
# Output: .build/docs/CertKit.doccarchive
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/docs
# A clean build every time: symbol graphs are emitted only when the module is compiled.
rm -rf "$out"
mkdir -p "$out/symbols"
swift build --target CertKit --scratch-path "$out/scratch" \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$out/symbols" >/dev/null
docc=$(command -v docc || echo "$(dirname "$(command -v swift)")/docc")
"$docc" convert Sources/CertKit/CertKit.docc \
  --additional-symbol-graph-dir "$out/symbols" \
  --fallback-display-name CertKit --fallback-bundle-identifier org.certkit.CertKit \
  --output-path "$out/CertKit.doccarchive" --warnings-as-errors
echo "docs: $out/CertKit.doccarchive"
