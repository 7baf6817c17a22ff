#!/usr/bin/env bash
# The newcomer stories of the README and Docs/CLI.md, run end to end with the built certkit binary against real
# servers on 127.0.0.1 only: a private CA (evaluate, the system roots, the trust store), a self-signed server and a
# private CA's server (openssl s_server, connect), mutual TLS (a PKCS#12 client identity), AIA (a python http.server
# serving the intermediate, --network), revocation (a CRL file, an OCSP response file, an openssl ocsp responder),
# lint (every client's verdict on one chain) and a 1,000-line batch. Each step asserts its exit code and the output
# lines a user reads. Every server started is stopped on exit, by its process id. Usage: Tests/Stories/stories.sh [--certkit PATH] (default: the debug build).
set -uo pipefail
cd "$(dirname "$0")/../.."
certkit=""
if [ "${1:-}" = "--certkit" ]; then certkit=$2; fi
if [ -z "$certkit" ]; then
    swift build --product certkit >/dev/null || exit 1
    certkit=$(swift build --show-bin-path)/certkit
fi
work=$(mktemp -d /tmp/certkit-stories.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT
cd "$work"

passed=0
failed=0
# step NAME EXPECTED-EXIT [--env VAR=VALUE ...] -- ARGUMENTS... : runs certkit, then `has TEXT` / `lacks TEXT` check
# its output (stdout and stderr together, in $out).
out=""
step() {
    local name=$1 expected=$2
    shift 2
    local environment=()
    while [ "$1" != "--" ]; do environment+=("$1"); shift; done
    shift
    current=$name
    out=$(env "${environment[@]}" "$certkit" "$@" 2>&1)
    local status=$?
    if [ "$status" -eq "$expected" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $name: exit $status, expected $expected"
        echo "$out" | cut -c1-200 | sed 's/^/    /' | head -8
    fi
}
has() {
    if grep -qF -- "$1" <<<"$out"; then passed=$((passed + 1)); else
        failed=$((failed + 1)); echo "FAIL $current: no line with: $1"; echo "$out" | cut -c1-200 | sed 's/^/    /' | head -8; fi
}
lacks() {
    if grep -qF -- "$1" <<<"$out"; then
        failed=$((failed + 1)); echo "FAIL $current: unexpected: $1"; echo "$out" | cut -c1-200 | sed 's/^/    /' | head -8
    else passed=$((passed + 1)); fi
}
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# wait_for PORT: until something accepts on 127.0.0.1:PORT (10 s at most).
wait_for() {
    for _ in $(seq 100); do
        if python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.2).close()' "$1" 2>/dev/null
        then return 0; fi
        sleep 0.1
    done
    echo "FAIL: nothing listens on 127.0.0.1:$1"; failed=$((failed + 1)); return 1
}
quiet() { "$@" >/dev/null 2>&1 || { echo "setup failed: $*"; exit 1; }; }
system=("SSL_CERT_DIR=")  # no directory of system roots unless a step names one

# ---- A private CA: root → intermediate → server (app.internal, 127.0.0.1) → client CA and client --------------------
http_port=$(free_port)
ocsp_port=$(free_port)
cat >ext.cnf <<EOF
[ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[int]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[server]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:app.internal, IP:127.0.0.1
authorityKeyIdentifier = keyid
authorityInfoAccess = caIssuers;URI:http://127.0.0.1:$http_port/int.der, OCSP;URI:http://127.0.0.1:$ocsp_port
[client]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = clientAuth
subjectAltName = email:alice@example.com
EOF
key() { quiet openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1.key"; }
for name in root int server revoked clientca client self; do key $name; done
quiet openssl req -new -x509 -key root.key -subj "/CN=Story Root CA" -days 30 -sha256 -extensions ca -config ext.cnf -out root.pem
quiet openssl req -new -x509 -key clientca.key -subj "/CN=Story Client CA" -days 30 -sha256 -extensions ca -config ext.cnf -out clientca.pem
issue() {  # issue NAME SUBJECT ISSUER SECTION SERIAL
    quiet openssl req -new -key "$1.key" -subj "$2" -out "$1.csr"
    quiet openssl x509 -req -in "$1.csr" -CA "$3.pem" -CAkey "$3.key" -set_serial "$5" -days 20 -sha256 \
        -extfile ext.cnf -extensions "$4" -out "$1.pem"
}
issue int "/CN=Story Intermediate CA" root int 2
issue server "/CN=app.internal" int server 3
issue revoked "/CN=app.internal" int server 4
issue client "/CN=alice" clientca client 5
cat server.pem int.pem >chain.pem
quiet openssl x509 -in int.pem -outform DER -out int.der

step "private CA: --anchors" 0 -- evaluate --anchors root.pem --host app.internal chain.pem
has "unspecified: trusted"
has "  anchors: root.pem (1 certificate)"
has "  revocation not checked (no CRL, OCSP or --network)"
step "private CA: a wrong host names the name and where it came from" 10 -- evaluate --anchors root.pem --host www.example chain.pem
has "errSecHostNameMismatch"
has 'the name checked, "www.example", is from --host'
step "private CA: no --anchors means the system roots, which do not hold it" 10 -- evaluate --host app.internal chain.pem
has "  anchors: system roots ("
step "private CA: its root in SSL_CERT_FILE is a system root" 0 "${system[@]}" SSL_CERT_FILE=root.pem -- \
    evaluate --host app.internal chain.pem
has "  anchors: system roots (root.pem, 1 certificate)"
step "private CA: no system roots to be found is an input error" 1 "${system[@]}" SSL_CERT_FILE=/nonexistent/ca.pem -- \
    evaluate --host app.internal chain.pem
has "certkit: /nonexistent/ca.pem: "
step "private CA: import the root into a trust store" 0 -- trust add --store store root.pem
step "private CA: the trust store's setting trusts it" 0 -- evaluate --trust-store=store --host app.internal chain.pem
has "trusted"
has "trust store store (1 entry)"
step "private CA: a private key given as a certificate is named" 1 -- evaluate --anchors root.pem server.key
has "server.key"
quiet openssl pkcs8 -topk8 -nocrypt -in server.key -outform DER -out server-key.der
step "private CA: a DER private key given as a certificate is named by content" 1 -- evaluate --anchors root.pem server-key.der
has "certkit: server-key.der: a private key (PKCS#8), not a certificate"

# ---- A self-signed server and the private CA's server: openssl s_server, certkit connect ---------------------------
quiet openssl req -new -x509 -key self.key -subj "/CN=localhost" -days 30 -sha256 \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" -out self.pem
self_port=$(free_port)
openssl s_server -accept "127.0.0.1:$self_port" -cert self.pem -key self.key -quiet -naccept 100 </dev/null >/dev/null 2>&1 &
pids+=($!)
wait_for "$self_port"
step "self-signed server: pinned as the only anchor" 0 -- connect "127.0.0.1:$self_port" --anchors self.pem
has "unspecified: trusted"
step "self-signed server: against the system roots it is not trusted, and says so" 10 -- connect "127.0.0.1:$self_port"
has "AnchorTrusted"
has "  anchors: system roots ("
step "self-signed server: --show-chain and --save-chain without anchors" 10 -- \
    connect "127.0.0.1:$self_port" --show-chain --save-chain saved.pem
has "presented 1 certificate (openssl)"
grep -q "BEGIN CERTIFICATE" saved.pem && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: saved.pem"; }

server_port=$(free_port)
openssl s_server -accept "127.0.0.1:$server_port" -cert server.pem -key server.key -cert_chain int.pem -quiet -naccept 100 \
    </dev/null >/dev/null 2>&1 &
pids+=($!)
wait_for "$server_port"
step "private CA server: --servername is the name checked, the root a system root" 0 "${system[@]}" SSL_CERT_FILE=root.pem -- \
    connect "127.0.0.1:$server_port" --servername app.internal --show-chain
has "presented 2 certificates (openssl)"
has "unspecified: trusted"
has "  anchors: system roots (root.pem, 1 certificate)"
step "private CA server: another --servername fails, naming it" 10 -- connect "127.0.0.1:$server_port" --anchors root.pem \
    --servername other.internal --tls gnutls
has 'the name checked, "other.internal", is from --servername'

# ---- Lint: every client's verdict at once, every broken rule with its fix ------------------------------------------
step "lint: the private CA's chain, judged for every client" 0 -- lint --anchors root.pem --host app.internal chain.pem
has "ios  macos  chrome  firefox  rfc5280  openssl  gnutls"
has "(no rule broken for any target)"
has "issuance (CA/B Forum Baseline Requirements"
step "lint: the server sent only its leaf: the missing intermediate, where it is, and the fix" 10 -- \
    lint --anchors root.pem --host app.internal server.pem
has "[0] certkit.missing-intermediate"
has "names its issuer at http://127.0.0.1:$http_port/int.der"
has "fix: add the intermediate to the chain the server sends"
step "lint: a wrong host is refused by every client, not by the libraries' own verifiers" 10 -- \
    lint --anchors root.pem --host www.example --targets chrome,openssl chain.pem
has "[0] certkit.peer-name"
step "lint: connect --lint judges what the server sent" 0 -- \
    connect "127.0.0.1:$server_port" --servername app.internal --anchors root.pem --lint --json
has '"allTrusted": true'

# ---- Mutual TLS: a server that requires a client certificate of the client CA --------------------------------------
quiet openssl pkcs12 -export -in client.pem -inkey client.key -certfile clientca.pem -passout pass:story -out client.p12
quiet openssl pkcs12 -export -legacy -in client.pem -inkey client.key -passout pass:story -out client-legacy.p12
mtls_port=$(free_port)
openssl s_server -accept "127.0.0.1:$mtls_port" -cert server.pem -key server.key -cert_chain int.pem -Verify 1 \
    -verify_return_error -CAfile clientca.pem -quiet -naccept 100 </dev/null >/dev/null 2>&1 &
pids+=($!)
wait_for "$mtls_port"
step "mutual TLS: the PKCS#12 identity is presented and accepted" 0 P12_PASSWORD=story -- \
    connect "127.0.0.1:$mtls_port" --anchors root.pem --servername app.internal --identity client.p12 --password-env P12_PASSWORD
has "unspecified: trusted"
step "mutual TLS: no identity is a connection error that says what to give" 1 -- \
    connect "127.0.0.1:$mtls_port" --anchors root.pem --servername app.internal
has "--identity FILE.p12"
step "mutual TLS: a legacy PKCS#12 names the option that reads it" 1 P12_PASSWORD=story -- \
    connect "127.0.0.1:$mtls_port" --anchors root.pem --servername app.internal --identity client-legacy.p12 --password-env P12_PASSWORD
has "(--tls gnutls)"
step "mutual TLS: --tls gnutls reads it" 0 P12_PASSWORD=story -- \
    connect "127.0.0.1:$mtls_port" --anchors root.pem --servername app.internal --identity client-legacy.p12 \
    --password-env P12_PASSWORD --tls gnutls
step "mutual TLS: the server side's check of the client chain" 0 -- \
    evaluate --policy ssl-client --email alice@example.com --anchors clientca.pem client.pem
has "unspecified: trusted"

# ---- AIA: the leaf alone; its issuer served over http:// -----------------------------------------------------------
mkdir aia && cp int.der aia/
python3 -m http.server "$http_port" --bind 127.0.0.1 --directory aia >/dev/null 2>&1 &
pids+=($!)
wait_for "$http_port"
step "AIA: the leaf alone has no issuer; the hint names the URL" 10 -- evaluate --anchors root.pem --host app.internal server.pem
has "the certificate names its issuer at http://127.0.0.1:$http_port/int.der; --network fetches it"
step "AIA: --network fetches it" 0 -- evaluate --anchors root.pem --host app.internal --network --revocation off server.pem
has "unspecified: trusted"
has "(fetched from http://127.0.0.1:$http_port/int.der)"

# ---- Revocation: a CRL file, an OCSP response file, the responder the leaf names ----------------------------------
printf 'V\t301231000000Z\t\t03\tunknown\t/CN=app.internal\nR\t301231000000Z\t250101000000Z,keyCompromise\t04\tunknown\t/CN=app.internal\n' >index.txt
echo 01 >crlnumber
cat >ca.cnf <<EOF
[ca]
default_ca = int
[int]
database = index.txt
crlnumber = crlnumber
default_md = sha256
default_crl_days = 7
EOF
quiet openssl ca -config ca.cnf -gencrl -keyfile int.key -cert int.pem -out int.crl.pem
quiet openssl ocsp -issuer int.pem -cert revoked.pem -no_nonce -reqout revoked.req
quiet openssl ocsp -index index.txt -CA int.pem -rsigner int.pem -rkey int.key -reqin revoked.req -respout revoked.ocsp -ndays 1
step "revocation: a CRL file" 11 -- evaluate --anchors root.pem --intermediates int.pem --host app.internal --crl int.crl.pem revoked.pem
has "revocation: revoked (CRL file) on 2025-01-01T00:00:00Z, reason keyCompromise"
step "revocation: an OCSP response file is labelled as a file" 11 -- \
    evaluate --anchors root.pem --intermediates int.pem --host app.internal --ocsp-response revoked.ocsp revoked.pem
has "revocation: revoked (OCSP response file) on 2025-01-01T00:00:00Z, reason keyCompromise"
lacks "stapled"
step "revocation: a CRL given as an OCSP response is named" 1 -- \
    evaluate --anchors root.pem --intermediates int.pem --ocsp-response int.crl.pem revoked.pem
has "a PEM X509 CRL block, not an OCSP response"
step "revocation: the responder is down: not checked, and why" 0 -- \
    evaluate --anchors root.pem --intermediates int.pem --host app.internal --network --revocation ocsp server.pem
has "revocation not checked (no CRL or OCSP given, and no usable answer was fetched)"
has "failed: connection refused"
# openssl ocsp has no option to bind one address; it is asked on 127.0.0.1 only.
openssl ocsp -index index.txt -port "$ocsp_port" -rsigner int.pem -rkey int.key -CA int.pem -ndays 1 -ignore_err \
    >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 100); do
    openssl ocsp -issuer int.pem -cert server.pem -url "http://127.0.0.1:$ocsp_port" -noverify >/dev/null 2>&1 && break
    sleep 0.1
done
step "revocation: the responder says good" 0 -- evaluate --anchors root.pem --intermediates int.pem --host app.internal --network server.pem
has "revocation: good (OCSP) until"
has "  fetched http://127.0.0.1:$ocsp_port/"
step "revocation: the responder says revoked, with the date and reason" 11 -- \
    evaluate --anchors root.pem --intermediates int.pem --host app.internal --network --json revoked.pem
has "\"revocationReason\": \"keyCompromise\""

# ---- Batch: 1,000 chains in one process ---------------------------------------------------------------------------
leaf=$(openssl x509 -in server.pem -outform DER | base64 -w0)
intermediate=$(base64 -w0 int.der)
for i in $(seq 1000); do
    host=app.internal
    if [ $((i % 10)) -eq 0 ]; then host=other.internal; fi
    printf '{"id": %d, "chain": ["%s", "%s"], "host": "%s"}\n' "$i" "$leaf" "$intermediate" "$host"
done >batch.ndjson
step "batch: 1,000 lines, every tenth for another host" 10 -- evaluate --anchors root.pem --batch batch.ndjson --jobs 2
lines=$(grep -c '"id"' <<<"$out")
untrusted=$(grep -c '"trusted":false' <<<"$out")
if [ "$lines" -eq 1000 ] && [ "$untrusted" -eq 100 ]; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "FAIL batch: $lines lines, $untrusted untrusted (expected 1000, 100)"; fi
step "batch: without --anchors, the system roots, said on each line" 10 "${system[@]}" SSL_CERT_FILE=root.pem -- \
    evaluate --batch batch.ndjson --jobs 2
has '"kind":"systemRoots"'

echo "stories: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
