#!/usr/bin/env bash
# Regenerates the demo PKI in Samples/ with the openssl CLI.
# Every certificate has fixed dates (not relative to "now"):
#   - everything except expired.pem: 2019-06-01 .. 2046-01-01
#     (notBefore before 2019-07-01, so Apple's 825-day rule for leaves does not apply)
#   - expired.pem: 2019-01-01 .. 2020-01-01
# RSA 2048 + SHA-256 everywhere. Keys are committed on purpose: this is a demo.
# Usage: Scripts/make-samples.sh   (from anywhere; writes <repo>/Samples)
set -euo pipefail

ROOT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT_DIR/Samples"
START=20190601000000Z
END=20460101000000Z

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
export CA_DIR="$TMP/db"
mkdir -p "$CA_DIR"
: > "$CA_DIR/index.txt"
echo 1000 > "$CA_DIR/serial"

cat > "$TMP/ca.cnf" <<'CNF'
[ ca ]
default_ca = CA_default
[ CA_default ]
dir = $ENV::CA_DIR
database = $dir/index.txt
new_certs_dir = $dir
serial = $dir/serial
default_md = sha256
policy = policy_any
unique_subject = no
copy_extensions = none
email_in_dn = no
[ policy_any ]
commonName = optional
[ req ]
distinguished_name = dn
[ dn ]

[ root_ext ]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash

[ int_ext ]
basicConstraints = critical,CA:TRUE,pathlen:0
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always

[ server_ext ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature,keyEncipherment
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
subjectAltName = DNS:localhost,IP:127.0.0.1

[ selfsigned_ext ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature,keyEncipherment
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
subjectAltName = DNS:localhost,IP:127.0.0.1

[ wronghost_ext ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature,keyEncipherment
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
subjectAltName = DNS:wrong.example
CNF

# key NAME -> $OUT/NAME.key (RSA 2048) and a throwaway CSR in $TMP
key() {
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$OUT/$1.key" 2>/dev/null
  openssl req -new -config "$TMP/ca.cnf" -key "$OUT/$1.key" -subj "/CN=$1" -out "$TMP/$1.csr"
}

# issue NAME SUBJECT EXT START END ISSUER|self
issue() {
  local name=$1 subj=$2 ext=$3 start=$4 end=$5 issuer=$6
  local signer=(-selfsign -keyfile "$OUT/$name.key")
  if [ "$issuer" != self ]; then signer=(-cert "$OUT/$issuer.pem" -keyfile "$OUT/$issuer.key"); fi
  openssl ca -batch -notext -config "$TMP/ca.cnf" "${signer[@]}" -md sha256 \
    -in "$TMP/$name.csr" -subj "$subj" -preserveDN \
    -startdate "$start" -enddate "$end" -extensions "$ext" \
    -out "$OUT/$name.pem" 2>"$TMP/ca.log" || { cat "$TMP/ca.log" >&2; exit 1; }
}

rm -rf "$OUT"/*.pem "$OUT"/*.key
mkdir -p "$OUT"

for k in root-ca intermediate-ca server self-signed expired wrong-host; do key "$k"; done

issue root-ca         "/CN=certkit Demo Root CA"         root_ext       $START $END self
issue intermediate-ca "/CN=certkit Demo Intermediate CA" int_ext        $START $END root-ca
issue server          "/CN=localhost"                    server_ext     $START $END intermediate-ca
issue self-signed     "/CN=localhost"                    selfsigned_ext $START $END self
issue expired         "/CN=localhost"                    server_ext     20190101000000Z 20200101000000Z intermediate-ca
issue wrong-host      "/CN=wrong.example"                wronghost_ext  $START $END intermediate-ca

cat "$OUT/server.pem" "$OUT/intermediate-ca.pem" > "$OUT/server-chain.pem"

# bundle.pem: root + intermediate + server, with the text `openssl s_client -showcerts` prints around blocks.
{
  echo "CONNECTED(00000003)"
  echo "---"
  echo "Certificate chain"
  i=0
  for c in root-ca intermediate-ca server; do
    f="$OUT/$c.pem"
    echo " $i s:$(openssl x509 -in "$f" -noout -subject -nameopt oneline | sed 's/^subject=//')"
    echo "   i:$(openssl x509 -in "$f" -noout -issuer -nameopt oneline | sed 's/^issuer=//')"
    echo "   a:PKEY: rsaEncryption, 2048 (bit); sigalg: RSA-SHA256"
    echo "   v:NotBefore: $(openssl x509 -in "$f" -noout -startdate | sed 's/^notBefore=//'); NotAfter: $(openssl x509 -in "$f" -noout -enddate | sed 's/^notAfter=//')"
    cat "$f"
    i=$((i + 1))
  done
  echo "---"
  echo "Server certificate"
  echo "subject=CN = localhost"
  echo "---"
} > "$OUT/bundle.pem"

# Sanity checks (at a fixed date inside the validity window).
AT=$(date -u -d 2030-06-01 +%s)
openssl verify -attime "$AT" -CAfile "$OUT/root-ca.pem" -untrusted "$OUT/intermediate-ca.pem" \
  -purpose sslserver -verify_hostname localhost "$OUT/server.pem" >/dev/null
openssl verify -attime "$AT" -partial_chain -CAfile "$OUT/self-signed.pem" "$OUT/self-signed.pem" >/dev/null
if openssl verify -attime "$AT" -CAfile "$OUT/root-ca.pem" -untrusted "$OUT/intermediate-ca.pem" "$OUT/expired.pem" >/dev/null 2>&1; then
  echo "make-samples: expired.pem unexpectedly verifies" >&2; exit 1
fi
if openssl verify -attime "$AT" -CAfile "$OUT/root-ca.pem" -untrusted "$OUT/intermediate-ca.pem" \
     -verify_hostname localhost "$OUT/wrong-host.pem" >/dev/null 2>&1; then
  echo "make-samples: wrong-host.pem unexpectedly matches localhost" >&2; exit 1
fi
echo "make-samples: wrote $(ls "$OUT"/*.pem | wc -l) PEM files to $OUT"
