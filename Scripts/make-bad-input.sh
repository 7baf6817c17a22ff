#!/usr/bin/env bash
# Generates Tests/Fixtures/bad-input/: malformed and unusual inputs for the CLI's bad-input table
# (Tests/CLITests/BadInputTests.swift). Built from Samples/server.pem with the openssl CLI and shell tools.
# The 50 MB random file, the directory, the unreadable file and the missing path are made at test time instead.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/Fixtures/bad-input
rm -rf "$out"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

openssl x509 -in Samples/server.pem -outform DER -out "$work/cert.der"
size=$(stat -c %s "$work/cert.der")
b64() { openssl base64 -A; }

# Empty and blank.
: > "$out/empty.pem"
printf '  \n\t\n\r\n   \n' > "$out/whitespace-only.pem"

# DER truncated at several lengths.
for n in 1 2 4 100 $((size / 2)) $((size - 1)); do
  head -c "$n" "$work/cert.der" > "$out/truncated-$n.der"
done
# DER with bytes after the certificate.
{ cat "$work/cert.der"; printf 'trailing garbage\0\0'; } > "$out/trailing-bytes.der"
# Wrong outer tag: SET (0x31) instead of SEQUENCE (0x30).
{ printf '\x31'; tail -c +2 "$work/cert.der"; } > "$out/wrong-outer-tag.der"
# BER indefinite length on the outer SEQUENCE (0x30 0x80 ... 0x00 0x00): not DER.
hdr=$(od -An -tu1 -j1 -N1 "$work/cert.der" | tr -d ' ')          # 0x82 = two length bytes follow
body_offset=$(( 2 + (hdr & 0x7f) ))
{ printf '\x30\x80'; tail -c +$((body_offset + 1)) "$work/cert.der"; printf '\x00\x00'; } > "$out/indefinite-length.der"
# Over-long length: the same length in 4 bytes (0x84 0x00 0x00 hi lo) instead of the minimal 2.
{ printf '\x30\x84\x00\x00'; dd if="$work/cert.der" bs=1 skip=2 count=2 status=none; tail -c +$((body_offset + 1)) "$work/cert.der"; } \
  > "$out/overlong-length.der"
# A length far beyond the data (and beyond any sane size).
{ printf '\x30\x84\xff\xff\xff\xff'; tail -c +$((body_offset + 1)) "$work/cert.der"; } > "$out/huge-length.der"
# Valid DER, but not a certificate (a PKCS#8 private key).
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/key.pem" 2>/dev/null
openssl pkey -in "$work/key.pem" -outform DER -out "$out/private-key.der"
# Zero bytes and binary noise.
head -c 1024 /dev/zero > "$out/zeros.bin"
openssl rand 4096 > "$out/binary-noise.bin"

# PEM problems.
cert_b64=$(b64 < "$work/cert.der")
pem_body() { printf '%s' "$cert_b64" | fold -w 64; echo; }
{ echo '-----BEGIN CERTIFICATE-----'; pem_body | sed '3s/^..../!!**/'; echo '-----END CERTIFICATE-----'; } > "$out/bad-base64.pem"
{ echo '-----BEGIN CERTIFICATE-----'; pem_body; } > "$out/missing-end.pem"
{ echo '-----BEGIN CERTIFICATE-----'; pem_body; echo '-----END PRIVATE KEY-----'; } > "$out/mismatched-labels.pem"
{ echo '-----BEGIN CERTIFICATE-----'; pem_body | sed -n 1,5p; echo '-----END CERTIFICATE-----'; } > "$out/truncated-base64.pem"
{ echo '-----BEGIN CERTIFICATE-----'; openssl rand 600 | b64 | fold -w 64; echo; echo '-----END CERTIFICATE-----'; } \
  > "$out/garbage-in-certificate-block.pem"
cp "$work/key.pem" "$out/private-key-only.pem"
{ cat "$work/key.pem"; openssl x509 -in Samples/server.pem; } > "$out/key-and-certificate.pem"
openssl req -new -key "$work/key.pem" -subj /CN=request.example -out "$out/certificate-request.pem"
printf 'This is a text file.\nIt mentions CERTIFICATE but holds none.\n' > "$out/plain-text.txt"

echo "wrote $(ls "$out" | wc -l) files to $out"
