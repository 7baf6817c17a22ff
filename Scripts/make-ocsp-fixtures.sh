#!/usr/bin/env bash
# Generates Tests/Fixtures/ocsp: a small PKI and OCSP responses made by `openssl ocsp` (good, revoked, unknown,
# signed by a rogue key under the CA's name, by a delegated responder with and without the OCSPSigning EKU, by
# one that is a CA and by one with an unknown critical extension, a stale one) plus a CRL, for the OCSP tests (Tests/CLITests/OCSPTests.swift). `openssl ocsp` stamps thisUpdate
# with the current time, so the script records a verify date one day later in verify-date.txt and one after
# the responses' nextUpdate (30 days) in late-date.txt; the stale response has a nextUpdate one minute after thisUpdate.
#   Scripts/make-ocsp-fixtures.sh      # ~2 s; needs the openssl CLI (3.0+)
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/Fixtures/ocsp
rm -rf "$out"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1.key" 2>/dev/null; }
cat > ext.cnf <<'CNF'
[ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[leaf]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth, clientAuth
subjectAltName = DNS:leaf.example
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[responder]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = OCSPSigning
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[responder_ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, digitalSignature, keyCertSign
extendedKeyUsage = OCSPSigning
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[responder_critical]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = OCSPSigning
1.3.6.1.4.1.55555.1 = critical, ASN1:NULL
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[responder_no_eku]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
CNF

# The CA, and a rogue CA with the same name and another key.
for name in ca rogue; do
    key "$name"
    openssl req -new -x509 -key "$name.key" -subj "/CN=OCSP Test CA" -days 3650 -sha256 \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" -out "$name.pem"
done

serial=1000
issue() {  # issue NAME SUBJECT EXTENSIONS
    key "$1"
    openssl req -new -key "$1.key" -subj "$2" -out "$1.csr"
    serial=$((serial + 1))
    # 398 days: under Apple's 825-day limit for TLS leaves, so connect's ssl-server policy passes.
    openssl x509 -req -in "$1.csr" -CA ca.pem -CAkey ca.key -set_serial "$serial" -days 398 -sha256 \
        -extfile ext.cnf -extensions "$3" -out "$1.pem" 2>/dev/null
}
issue leaf-good "/CN=leaf.example" leaf
issue leaf-revoked "/CN=leaf.example" leaf
issue leaf-unknown "/CN=leaf.example" leaf
issue responder "/CN=OCSP Responder" responder
issue responder-no-eku "/CN=OCSP Responder" responder_no_eku
issue responder-ca "/CN=OCSP Responder" responder_ca
issue responder-critical "/CN=OCSP Responder" responder_critical

# The index openssl ocsp and openssl ca read: good is valid, revoked is revoked; unknown is not listed.
entry() {  # entry STATUS REVOKED-AT CERT
    local hex expiry subject
    hex=$(openssl x509 -in "$3" -noout -serial | cut -d= -f2)
    expiry=$(date -u -d "$(openssl x509 -in "$3" -noout -enddate | cut -d= -f2)" +%y%m%d%H%M%SZ)
    subject=$(openssl x509 -in "$3" -noout -subject -nameopt compat | sed 's/^subject=//')
    printf '%s\t%s\t%s\t%s\tunknown\t%s\n' "$1" "$expiry" "$2" "$hex" "$subject"
}
revoked_at=$(date -u -d '-1 hour' +%y%m%d%H%M%SZ)
{ entry V "" leaf-good.pem; entry R "$revoked_at" leaf-revoked.pem; } > index.txt

# openssl ocsp builds a request for CERT, then answers it from the index as SIGNER would.
respond() {  # respond OUT CERT SIGNER-CERT SIGNER-KEY [extra openssl ocsp options]
    local outname=$1 cert=$2 signer=$3 signerkey=$4
    shift 4
    openssl ocsp -issuer ca.pem -cert "$cert" -no_nonce -reqout req.der >/dev/null
    openssl ocsp -index index.txt -CA ca.pem -rsigner "$signer" -rkey "$signerkey" -reqin req.der \
        -respout "$outname" "$@" >/dev/null 2>&1
}
respond good.der leaf-good.pem ca.pem ca.key -ndays 30
openssl ocsp -issuer ca.pem -sha256 -cert leaf-good.pem -no_nonce -reqout req256.der >/dev/null
openssl ocsp -index index.txt -CA ca.pem -rsigner ca.pem -rkey ca.key -reqin req256.der -respout good-sha256.der \
    -ndays 30 >/dev/null 2>&1
respond revoked.der leaf-revoked.pem ca.pem ca.key -ndays 30
respond unknown.der leaf-unknown.pem ca.pem ca.key -ndays 30
respond wrong-key.der leaf-good.pem rogue.pem rogue.key -ndays 30
respond delegated.der leaf-good.pem responder.pem responder.key -ndays 30
respond delegated-no-eku.der leaf-good.pem responder-no-eku.pem responder-no-eku.key -ndays 30
respond delegated-ca.der leaf-good.pem responder-ca.pem responder-ca.key -ndays 30
respond delegated-critical.der leaf-good.pem responder-critical.pem responder-critical.key -ndays 30
respond delegated-revoked.der leaf-revoked.pem responder.pem responder.key -ndays 30
respond stale.der leaf-good.pem ca.pem ca.key -nmin 1

# A CRL of the CA that lists leaf-revoked.
mkdir -p db
cp index.txt db/index.txt
cat > ca.cnf <<CNF
[ca]
default_ca = test
[test]
database = db/index.txt
crlnumber = db/crlnumber
default_md = sha256
default_crl_days = 30
crl_extensions = crl_ext
[crl_ext]
authorityKeyIdentifier = keyid
CNF
echo 01 > db/crlnumber
openssl ca -config ca.cnf -gencrl -keyfile ca.key -cert ca.pem -out crl.pem 2>/dev/null

date -u -d '+1 day' +%Y-%m-%dT%H:%M:%SZ > verify-date.txt
date -u -d '+60 days' +%Y-%m-%dT%H:%M:%SZ > late-date.txt  # after the 30-day responses' nextUpdate
cp ca.pem rogue.pem leaf-good.pem leaf-good.key leaf-revoked.pem leaf-revoked.key leaf-unknown.pem responder.pem responder-no-eku.pem crl.pem \
    ./*.der verify-date.txt late-date.txt "$OLDPWD/$out/"
rm -f "$OLDPWD/$out/req.der" "$OLDPWD/$out/req256.der"
echo "wrote $(ls "$OLDPWD/$out" | wc -l) files to $out"
