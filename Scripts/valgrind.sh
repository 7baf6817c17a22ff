#!/usr/bin/env bash
# Runs certkit under valgrind memcheck on cases that exercise every C handle type of both backends
# (certificates, stores, contexts, CRLs, trust lists, the GnuTLS fallback verifier, TLS clients, PKCS#12 files and
# private keys, and the TLS servers of the ClientTrustServer sample).
# Fails on any definite or indirect leak and on any memory error.
# valgrind 3.19 cannot read the DWARF 5 the Swift toolchain emits, so the binary is run without debug info.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind: not installed (apt-get install valgrind)" >&2; exit 1; }
swift build --product certkit >/dev/null
swift build --product ClientTrustServer >/dev/null
bin=$(swift build --show-bin-path)
binary=$(mktemp /tmp/certkit-valgrind.XXXXXX)
server_binary=$(mktemp /tmp/clienttrustserver-valgrind.XXXXXX)
trap 'rm -f "$binary" "$server_binary"' EXIT
strip -g -o "$binary" "$bin/certkit"
strip -g -o "$server_binary" "$bin/ClientTrustServer"
VALGRIND=(valgrind --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect
  --suppressions=Scripts/valgrind.supp --error-exitcode=99 -q)
S=Tests/Fixtures/scenarios
run() {
  echo "valgrind: certkit $*"
  status=0
  "${VALGRIND[@]}" "$binary" "$@" >/dev/null || status=$?
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
# Client identities: PKCS#12 and key handles of both backends (import, the GnuTLS bag walk, PKCS#8 export),
# then mutual TLS through both TLS clients with keys imported by either library.
I=Tests/Fixtures/identity
P=(--password-file $I/password.txt)
keyout=$(mktemp -d /tmp/certkit-valgrind-key.XXXXXX)
trap 'rm -f "$binary" "$server_binary"; rm -rf "$keyout"; [ -n "${server:-}" ] && kill "$server" 2>/dev/null || true' EXIT
for b in openssl gnutls; do
  run inspect --backend $b "${P[@]}" $I/client.p12
  run inspect --backend $b "${P[@]}" $I/client-nokey.p12
  run inspect --backend $b "${P[@]}" $I/client-mismatch.p12
  run inspect --backend $b --password-env PATH $I/client.p12
  run convert --backend $b "${P[@]}" --include-key --out "$keyout/$b.pem" $I/client.p12
  CERTKIT_VALGRIND_P12=$(cat $I/password.txt) run convert --backend $b --password-env CERTKIT_VALGRIND_P12 \
    --include-key --out "$keyout/$b-env.pem" $I/client.p12
done
run inspect --backend openssl "${P[@]}" $I/client-legacy.p12
run inspect --backend gnutls "${P[@]}" $I/client-legacy.p12
port=$((20000 + RANDOM % 20000))
openssl s_server -accept 127.0.0.1:$port -cert Samples/server.pem -key Samples/server.key \
  -cert_chain Samples/intermediate-ca.pem -Verify 5 -verify_return_error -CAfile $I/client-root-ca.pem \
  -www -quiet >/dev/null 2>&1 &
server=$!
sleep 1
for tls in openssl gnutls; do
  run connect 127.0.0.1:$port --tls $tls --anchors Samples/root-ca.pem --identity $I/client.p12 "${P[@]}"
  run connect 127.0.0.1:$port --tls $tls --anchors Samples/root-ca.pem \
    --cert $I/client-chain.pem --key "$keyout/gnutls.pem"
  run connect 127.0.0.1:$port --tls $tls --anchors Samples/root-ca.pem \
    --cert $I/client-chain.pem --key $I/client-encrypted.key "${P[@]}"
  run connect 127.0.0.1:$port --tls $tls --anchors Samples/root-ca.pem
  run connect 127.0.0.1:$port --tls $tls --anchors Samples/root-ca.pem --identity $I/other-client.p12 "${P[@]}"
done
kill "$server" 2>/dev/null || true
server=
# The server side: the ClientTrustServer sample under valgrind on each TLS library (server credentials or context,
# server sessions, the verification hook, the server's key) serving a trusted client, a refused one (expired) and
# one without a certificate; the clients run without valgrind.
for tls in openssl gnutls; do
  port=$((20000 + RANDOM % 20000))
  echo "valgrind: ClientTrustServer --tls $tls (3 clients)"
  "${VALGRIND[@]}" "$server_binary" --tls $tls --anchor $I/client-root-ca.pem --cert Samples/server-chain.pem \
    --key Samples/server.key --port $port --connections 3 --timeout 300 >"$keyout/server-$tls.log" 2>&1 &
  server=$!
  for _ in $(seq 600); do grep -q "^listening" "$keyout/server-$tls.log" && break; sleep 0.2; done
  client=("$bin/certkit" connect 127.0.0.1:$port --timeout 120 --anchors Samples/root-ca.pem)
  "${client[@]}" --tls openssl --identity $I/client.p12 "${P[@]}" >/dev/null 2>&1 || true
  "${client[@]}" --tls gnutls --cert $I/client-expired-chain.pem --key $I/client.key >/dev/null 2>&1 || true
  "${client[@]}" --tls openssl >/dev/null 2>&1 || true
  status=0
  wait "$server" || status=$?
  server=
  if [ "$status" -ne 0 ]; then
    cat "$keyout/server-$tls.log" >&2
    echo "valgrind: memory errors or leaks (or a failure, status $status) in: ClientTrustServer --tls $tls" >&2
    exit 1
  fi
done
echo "valgrind: no leaks, no memory errors"
