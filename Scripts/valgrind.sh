#!/usr/bin/env bash
# Runs certkit under valgrind memcheck on cases that exercise every C handle type of both backends
# (certificates, stores, contexts, CRLs, trust lists, the GnuTLS fallback verifier, TLS clients).
# Fails on any definite or indirect leak and on any memory error.
# valgrind 3.19 cannot read the DWARF 5 the Swift toolchain emits, so the binary is run without debug info.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind: not installed (apt-get install valgrind)" >&2; exit 1; }
swift build --product certkit >/dev/null
binary=$(mktemp /tmp/certkit-valgrind.XXXXXX)
trap 'rm -f "$binary"' EXIT
strip -g -o "$binary" "$(swift build --show-bin-path)/certkit"
S=Tests/Fixtures/scenarios
run() {
  echo "valgrind: certkit $*"
  status=0
  valgrind --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
    --suppressions=Scripts/valgrind.supp \
    --error-exitcode=99 -q "$binary" "$@" >/dev/null || status=$?
  if [ "$status" -eq 99 ]; then echo "valgrind: memory errors or leaks in: certkit $*" >&2; exit 1; fi
}
run evaluate --anchors Samples/root-ca.pem --host localhost --backend both Samples/server-chain.pem
run evaluate --anchors $S/revoked-leaf/root-rsa.pem --crl $S/revoked-leaf/int-revokes-leaf.crl.pem \
  --host leaf.example --at 2030-06-01 --backend both $S/revoked-leaf/chain.pem
run evaluate --anchors $S/bad-signature-intermediate/root-rsa.pem --at 2030-06-01 --backend both \
  $S/bad-signature-intermediate/chain.pem
run evaluate --anchors $S/duplicate-extension/root-rsa.pem --at 2030-06-01 --backend both \
  $S/duplicate-extension/chain.pem
run evaluate --anchors Samples/root-ca.pem --system-roots --backend both Samples/server-chain.pem
run inspect --backend gnutls Samples/bundle.pem
run convert --to der --backend gnutls Samples/server.pem
echo "valgrind: no leaks, no memory errors"
