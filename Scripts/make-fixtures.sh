#!/usr/bin/env bash
# Regenerates the conformance fixtures:
#   Tests/Fixtures/scenarios/<name>/*.pem   (certificates, CRLs, exceptions files)
#   Tests/Fixtures/scenarios.json           (inputs + expected results, see Tests/Fixtures/README.md)
# Certificates are made with the openssl CLI (`openssl ca` with a throwaway database, so every date is fixed).
# python3 (standard library only) lays out the scenario directories, re-signs the one certificate openssl
# cannot produce (a duplicate extension) and writes the JSON.
# Idempotent: deletes and regenerates everything. New keys on every run (the JSON never embeds key material
# except pins and the exceptions' leaf hash, which are recomputed from the new files).
set -euo pipefail

ROOT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FIX="$ROOT_DIR/Tests/Fixtures"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
K="$TMP/keys"; C="$TMP/certs"
mkdir -p "$K" "$C"

export CA_DIR="$TMP/db"
mkdir -p "$CA_DIR"; : > "$CA_DIR/index.txt"; echo 1000 > "$CA_DIR/serial"
# Defaults for the leaf extension section (overridden per certificate with VAR=... cert ...).
export SAN="DNS:leaf.example" EKU="serverAuth" KU="digitalSignature,keyEncipherment"

CA_START=20290101000000Z; CA_END=20400101000000Z
LEAF_START=20300101000000Z; LEAF_END=20310601000000Z

cat > "$TMP/ca.cnf" <<'CNF'
[ ca ]
default_ca = CA_default
[ CA_default ]
dir = $ENV::CA_DIR
database = $dir/index.txt
new_certs_dir = $dir
serial = $dir/serial
crlnumber = $dir/crlnumber
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
[ crl_ext ]
authorityKeyIdentifier = keyid:always
CNF

cat > "$TMP/ext.cnf" <<'CNF'
# ---- CA profiles ----
[ ca ]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ ca_pathlen0 ]
basicConstraints = critical,CA:TRUE,pathlen:0
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ ca_notca ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ ca_nobc ]
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ ca_nocertsign ]
basicConstraints = critical,CA:TRUE
keyUsage = critical,digitalSignature,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ ca_eku_client ]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
extendedKeyUsage = clientAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ ca_nc_dns_permitted ]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
nameConstraints = critical,permitted;DNS:.allowed.example
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ ca_nc_dns_excluded ]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
nameConstraints = critical,excluded;DNS:.bad.example
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ ca_nc_ip ]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
nameConstraints = critical,permitted;IP:10.0.0.0/255.0.0.0
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ ca_nc_email ]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
nameConstraints = critical,permitted;email:allowed.example
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ ca_nc_dirname ]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
nameConstraints = critical,permitted;dirName:nc_dir_allowed
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ nc_dir_allowed ]
O = Allowed
# ---- leaf profiles (SAN / EKU / KU come from the environment) ----
[ leaf ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,$ENV::KU
extendedKeyUsage = $ENV::EKU
subjectAltName = $ENV::SAN
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ leaf_nosan ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,$ENV::KU
extendedKeyUsage = $ENV::EKU
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ leaf_noaki ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,$ENV::KU
extendedKeyUsage = $ENV::EKU
subjectAltName = $ENV::SAN
subjectKeyIdentifier = hash
authorityKeyIdentifier = none
[ leaf_selfsigned ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,$ENV::KU
extendedKeyUsage = $ENV::EKU
subjectAltName = $ENV::SAN
subjectKeyIdentifier = hash
[ leaf_unknown_critical ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,$ENV::KU
extendedKeyUsage = $ENV::EKU
subjectAltName = $ENV::SAN
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
1.3.6.1.4.1.99999.1 = critical,DER:0500
# 2.5.29.98 is a placeholder: derpatch.py renames it to 2.5.29.19 (a second basicConstraints) and re-signs.
[ leaf_dup_placeholder ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,$ENV::KU
extendedKeyUsage = $ENV::EKU
subjectAltName = $ENV::SAN
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
2.5.29.98 = critical,DER:3000
# keyUsage whose value is a NULL instead of a BIT STRING (non-critical, so only "malformed", not "unknown critical")
[ leaf_malformed ]
basicConstraints = critical,CA:FALSE
2.5.29.15 = DER:0500
extendedKeyUsage = $ENV::EKU
subjectAltName = $ENV::SAN
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
CNF

# key NAME TYPE   (TYPE: rsa2048 rsa1024 rsa512 p256 p224) -> $K/NAME.key + $K/NAME.csr
key() {
  local name=$1 type=$2
  case $type in
    rsa*) openssl genpkey -algorithm RSA -pkeyopt "rsa_keygen_bits:${type#rsa}" -out "$K/$name.key" 2>/dev/null ;;
    p256) openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$K/$name.key" ;;
    p224) openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-224 -out "$K/$name.key" ;;
  esac
  openssl req -new -config "$TMP/ca.cnf" -key "$K/$name.key" -subj "/CN=$name" -out "$K/$name.csr"
}

declare -A KEYOF
# cert ID KEY SUBJECT EXT START END ISSUER_ID|self [MD]
#   EXT "none" makes a v1 certificate (no extensions at all).
cert() {
  local id=$1 k=$2 subj=$3 ext=$4 start=$5 end=$6 issuer=$7 md=${8:-sha256}
  local signer=(-selfsign -keyfile "$K/$k.key")
  if [ "$issuer" != self ]; then signer=(-cert "$C/$issuer.pem" -keyfile "$K/${KEYOF[$issuer]}.key"); fi
  local exts=(-extfile "$TMP/ext.cnf" -extensions "$ext")
  if [ "$ext" = none ]; then exts=(); fi
  openssl ca -batch -notext -config "$TMP/ca.cnf" "${signer[@]}" -md "$md" \
    -in "$K/$k.csr" -subj "$subj" -preserveDN -startdate "$start" -enddate "$end" "${exts[@]}" \
    -out "$C/$id.pem" 2>"$TMP/ca.log" || { echo "cert $id failed:" >&2; cat "$TMP/ca.log" >&2; exit 1; }
  KEYOF[$id]=$k
}
ca()   { cert "$1" "$2" "$3" "${4:-ca}" "${5:-$CA_START}" "${6:-$CA_END}" "$7" "${8:-sha256}"; }
leaf() { cert "$1" "$2" "$3" "${4:-leaf}" "${5:-$LEAF_START}" "${6:-$LEAF_END}" "$7" "${8:-sha256}"; }

# crl ID ISSUER_ID "SERIAL_HEX..."   (revocation date 2030-04-15, thisUpdate 2030-05-01, nextUpdate 2030-07-01)
crl() {
  local id=$1 issuer=$2 serials=$3
  local d="$TMP/crl-$id"; mkdir -p "$d"; : > "$d/index.txt"; echo 1000 > "$d/serial"; echo 01 > "$d/crlnumber"
  for s in $serials; do printf 'R\t310601000000Z\t300415000000Z\t%s\tunknown\t/CN=revoked\n' "$s" >> "$d/index.txt"; done
  CA_DIR="$d" openssl ca -batch -config "$TMP/ca.cnf" -gencrl -cert "$C/$issuer.pem" -keyfile "$K/${KEYOF[$issuer]}.key" \
    -md sha256 -crl_lastupdate 20300501000000Z -crl_nextupdate 20300701000000Z -crlexts crl_ext \
    -out "$C/$id.crl.pem" 2>"$TMP/ca.log" || { cat "$TMP/ca.log" >&2; exit 1; }
}
serial() { openssl x509 -in "$C/$1.pem" -noout -serial | sed 's/^serial=//'; }

cat > "$TMP/derpatch.py" <<'PY'
import sys, subprocess, base64

def pem2der(path):
    b64 = "".join(l.strip() for l in open(path) if l.strip() and not l.startswith("-----"))
    return bytearray(base64.b64decode(b64))

def der2pem(der, path):
    b = base64.b64encode(bytes(der)).decode()
    with open(path, "w") as f:
        f.write("-----BEGIN CERTIFICATE-----\n")
        for i in range(0, len(b), 64):
            f.write(b[i:i + 64] + "\n")
        f.write("-----END CERTIFICATE-----\n")

def tlv(buf, off):
    """returns (header_len, content_len) of the DER element at off"""
    n = buf[off + 1]
    if n < 0x80:
        return 2, n
    k = n & 0x7f
    return 2 + k, int.from_bytes(buf[off + 2:off + 2 + k], "big")

mode, src, dst = sys.argv[1:4]
der = pem2der(src)
if mode == "flip":
    # The signature BIT STRING is the last element of the certificate: flip its last byte.
    der[-1] ^= 0x01
elif mode == "dup":
    key, md = sys.argv[4], sys.argv[5]
    old, new = bytes.fromhex("0603551d62"), bytes.fromhex("0603551d13")   # OID 2.5.29.98 -> 2.5.29.19
    assert der.count(old) == 1, "placeholder OID not found exactly once"
    der = bytearray(bytes(der).replace(old, new))
    h, _ = tlv(der, 0)
    th, tl = tlv(der, h)
    tbs = bytes(der[h:h + th + tl])
    sig = subprocess.run(["openssl", "dgst", "-" + md, "-sign", key], input=tbs, capture_output=True, check=True).stdout
    # RSA PKCS#1 v1.5 signatures have a fixed length, so the certificate layout is unchanged.
    assert der[-len(sig) - 1] == 0 and len(sig) == 256, "expected an RSA-2048 signature at the end"
    der[-len(sig):] = sig
else:
    sys.exit("unknown mode " + mode)
der2pem(der, dst)
PY

echo "make-fixtures: keys" >&2
for k in rsa-root rsa-int rsa-int2 rsa-leaf rsa-int-alt rsa-other-root rsa-root-b rsa-unrelated \
         rsa-old-root rsa-new-root rsa-ca-a rsa-ca-b rsa-root-c rsa-anchor-int rsa-issuing rsa-bridge; do
  key "$k" rsa2048
done
key rsa-1024 rsa1024
key rsa-512 rsa512
for k in ec-root ec-int ec-int2 ec-leaf ec-mesh-orphan; do key "$k" p256; done
key ec-p224 p224

echo "make-fixtures: certificates" >&2
# --- base 3-level PKIs ---
ca   root-rsa  rsa-root "/CN=Root RSA" ca "" "" self
ca   int-rsa   rsa-int  "/CN=Int RSA"  ca "" "" root-rsa
leaf leaf-rsa  rsa-leaf "/CN=leaf.example" leaf "" "" int-rsa
ca   root-ec   ec-root  "/CN=Root EC"  ca "" "" self
ca   int-ec    ec-int   "/CN=Int EC"   ca "" "" root-ec
KU=digitalSignature leaf leaf-ec ec-leaf "/CN=leaf.example" leaf "" "" int-ec
# --- 4-level PKIs: root -> Int L1 -> Int L2 -> leaf ---
ca   int1-rsa  rsa-int  "/CN=Int L1 RSA" ca "" "" root-rsa
ca   int2-rsa  rsa-int2 "/CN=Int L2 RSA" ca "" "" int1-rsa
leaf leaf4-rsa rsa-leaf "/CN=leaf.example" leaf "" "" int2-rsa
ca   int1-ec   ec-int   "/CN=Int L1 EC" ca "" "" root-ec
ca   int2-ec   ec-int2  "/CN=Int L2 EC" ca "" "" int1-ec
KU=digitalSignature leaf leaf4-ec ec-leaf "/CN=leaf.example" leaf "" "" int2-ec
# Int L1 with pathlen:0 (same subject and key as int1-rsa, so int2-rsa chains to it too)
ca   int1-pathlen0-rsa rsa-int "/CN=Int L1 RSA" ca_pathlen0 "" "" root-rsa
# --- self-signed leaves (CA:FALSE) ---
leaf leaf-selfsigned-rsa rsa-leaf "/CN=leaf.example" leaf_selfsigned "" "" self
KU=digitalSignature leaf leaf-selfsigned-ec ec-leaf "/CN=leaf.example" leaf_selfsigned "" "" self
# --- validity ---
leaf leaf-expired-rsa rsa-leaf "/CN=leaf.example" leaf 20280101000000Z 20290601000000Z int-rsa
KU=digitalSignature leaf leaf-expired-ec ec-leaf "/CN=leaf.example" leaf 20280101000000Z 20290601000000Z int-ec
leaf leaf-notyetvalid-rsa rsa-leaf "/CN=leaf.example" leaf 20310101000000Z 20320101000000Z int-rsa
ca   int-expired-rsa  rsa-int  "/CN=Int RSA"  ca 20250101000000Z 20300301000000Z root-rsa
ca   root-expired-rsa rsa-root "/CN=Root RSA" ca 20200101000000Z 20300301000000Z self
leaf leaf-825-rsa rsa-leaf "/CN=leaf.example" leaf 20300101000000Z 20330101000000Z int-rsa
# --- names ---
SAN="DNS:*.example.com" leaf leaf-wildcard-rsa rsa-leaf "/CN=*.example.com" leaf "" "" int-rsa
SAN="DNS:f*.example.com" leaf leaf-partialwildcard-rsa rsa-leaf "/CN=f*.example.com" leaf "" "" int-rsa
SAN="DNS:leaf.example,IP:192.0.2.10" leaf leaf-ip-rsa rsa-leaf "/CN=leaf.example" leaf "" "" int-rsa
leaf leaf-cnonly-rsa rsa-leaf "/CN=leaf.example" leaf_nosan "" "" int-rsa
SAN="DNS:leaf.other.example" leaf leaf-other-rsa rsa-leaf "/CN=leaf.other.example" leaf "" "" int-rsa
SAN="DNS:leaf.bad.example" leaf leaf-bad-rsa rsa-leaf "/CN=leaf.bad.example" leaf "" "" int-rsa
SAN="DNS:leaf.example,IP:192.0.2.1" leaf leaf-ipnc-rsa rsa-leaf "/CN=leaf.example" leaf "" "" int-rsa
SAN="DNS:leaf.example,email:x@other.example" leaf leaf-email-rsa rsa-leaf "/CN=leaf.example" leaf "" "" int-rsa
leaf leaf-dirname-rsa rsa-leaf "/O=Other/CN=leaf.example" leaf "" "" int-rsa
# --- other roots / CA variants (same subject "CN=Int RSA" and key as int-rsa unless stated) ---
ca   other-root-rsa rsa-other-root "/CN=Other Root RSA" ca "" "" self
ca   root-b-rsa     rsa-root-b     "/CN=Root B RSA" ca "" "" self
ca   unrelated-rsa  rsa-unrelated  "/CN=Unrelated CA" ca "" "" self
ca   int-notca-rsa      rsa-int "/CN=Int RSA" ca_notca "" "" root-rsa
ca   int-nobc-rsa       rsa-int "/CN=Int RSA" ca_nobc "" "" root-rsa
cert int-v1-rsa         rsa-int "/CN=Int RSA" none $CA_START $CA_END root-rsa
ca   int-nocertsign-rsa rsa-int "/CN=Int RSA" ca_nocertsign "" "" root-rsa
ca   int-ekuclient-rsa  rsa-int "/CN=Int RSA" ca_eku_client "" "" root-rsa
ca   int-nc-dnsperm-rsa rsa-int "/CN=Int RSA" ca_nc_dns_permitted "" "" root-rsa
ca   int-nc-dnsexcl-rsa rsa-int "/CN=Int RSA" ca_nc_dns_excluded "" "" root-rsa
ca   int-nc-ip-rsa      rsa-int "/CN=Int RSA" ca_nc_ip "" "" root-rsa
ca   int-nc-email-rsa   rsa-int "/CN=Int RSA" ca_nc_email "" "" root-rsa
ca   int-nc-dirname-rsa rsa-int "/CN=Int RSA" ca_nc_dirname "" "" root-rsa
ca   int-via-b-rsa        rsa-int "/CN=Int RSA" ca "" "" root-b-rsa
ca   int-notca-via-b-rsa  rsa-int "/CN=Int RSA" ca_notca "" "" root-b-rsa
ca   int-alt-rsa          rsa-int-alt "/CN=Int RSA" ca "" "" root-rsa
# --- usage / extensions ---
EKU=clientAuth leaf leaf-ekuclient-rsa rsa-leaf "/CN=leaf.example" leaf "" "" int-rsa
leaf leaf-unknowncrit-rsa rsa-leaf "/CN=leaf.example" leaf_unknown_critical "" "" int-rsa
leaf leaf-dupplaceholder-rsa rsa-leaf "/CN=leaf.example" leaf_dup_placeholder "" "" int-rsa
python3 "$TMP/derpatch.py" dup "$C/leaf-dupplaceholder-rsa.pem" "$C/leaf-dupext-rsa.pem" "$K/rsa-int.key" sha256
leaf leaf-malformed-rsa rsa-leaf "/CN=leaf.example" leaf_malformed "" "" int-rsa
leaf leaf-noaki-rsa rsa-leaf "/CN=leaf.example" leaf_noaki "" "" int-rsa
# --- signatures, digests, key sizes ---
python3 "$TMP/derpatch.py" flip "$C/leaf-rsa.pem" "$C/leaf-badsig-rsa.pem"
python3 "$TMP/derpatch.py" flip "$C/leaf-ec.pem"  "$C/leaf-badsig-ec.pem"
python3 "$TMP/derpatch.py" flip "$C/int-rsa.pem"  "$C/int-badsig-rsa.pem"
leaf leaf-sha1-rsa rsa-leaf "/CN=leaf.example" leaf "" "" int-rsa sha1
KU=digitalSignature leaf leaf-sha1-ec ec-leaf "/CN=leaf.example" leaf "" "" int-ec sha1
leaf leaf-md5-rsa  rsa-leaf "/CN=leaf.example" leaf "" "" int-rsa md5
leaf leaf-rsa1024  rsa-1024 "/CN=leaf.example" leaf "" "" int-rsa
leaf leaf-rsa512   rsa-512  "/CN=leaf.example" leaf "" "" int-rsa
KU=digitalSignature leaf leaf-p224 ec-p224 "/CN=leaf.example" leaf "" "" int-ec
# --- CRLs ---
crl int-revokes-leaf   int-rsa       "$(serial leaf-rsa)"
crl int-empty          int-rsa       ""
crl unrelated-lists-leaf unrelated-rsa "$(serial leaf-rsa)"

echo "make-fixtures: path-building PKIs" >&2
# Let's Encrypt 2021 style: New Root self-signed (anchor) + New Root cross-signed by Old Root (expired 2029-12-31)
ca   old-root       rsa-old-root "/CN=Old Root" ca 20090101000000Z 20291231235959Z self
ca   new-root       rsa-new-root "/CN=New Root" ca "" "" self
ca   new-root-cross rsa-new-root "/CN=New Root" ca 20290101000000Z 20350101000000Z old-root
ca   le-int         rsa-int      "/CN=LE Int"   ca "" "" new-root
leaf leaf-le        rsa-leaf     "/CN=leaf.example" leaf "" "" le-int
# Cross-sign loop: CA A <-> CA B, and CA A cross-signed by Root C (the anchor)
ca   ca-a-self   rsa-ca-a   "/CN=CA A" ca "" "" self
ca   ca-b-self   rsa-ca-b   "/CN=CA B" ca "" "" self
ca   root-c      rsa-root-c "/CN=Root C" ca "" "" self
ca   ca-a-by-b   rsa-ca-a   "/CN=CA A" ca "" "" ca-b-self
ca   ca-b-by-a   rsa-ca-b   "/CN=CA B" ca "" "" ca-a-self
ca   ca-a-by-c   rsa-ca-a   "/CN=CA A" ca "" "" root-c
leaf leaf-loop   rsa-leaf   "/CN=leaf.example" leaf "" "" ca-a-self
# Intermediate anchor reachable by two paths, one through an expired certificate
ca   anchor-int          rsa-anchor-int "/CN=Anchor Int"  ca "" "" root-rsa
ca   bridge              rsa-bridge     "/CN=Bridge CA"   ca "" "" anchor-int
ca   issuing-expired     rsa-issuing    "/CN=Issuing CA"  ca 20250101000000Z 20290601000000Z anchor-int
ca   issuing-via-bridge  rsa-issuing    "/CN=Issuing CA"  ca "" "" bridge
leaf leaf-issuing        rsa-leaf       "/CN=leaf.example" leaf "" "" issuing-via-bridge

echo "make-fixtures: 200 distractors" >&2
: > "$C/distractors.pem"
for i in $(seq -w 1 200); do
  openssl req -new -config "$TMP/ca.cnf" -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout "$K/d.key" -subj "/CN=d" -out "$K/d.csr" 2>/dev/null
  openssl ca -batch -notext -config "$TMP/ca.cnf" -selfsign -keyfile "$K/d.key" -in "$K/d.csr" \
    -subj "/CN=Distractor $i" -preserveDN -startdate $CA_START -enddate $CA_END \
    -extfile "$TMP/ext.cnf" -extensions ca -out "$K/d.pem" 2>/dev/null
  cat "$K/d.pem" >> "$C/distractors.pem"
done

echo "make-fixtures: mesh of 50 'CN=Mesh CA'" >&2
MESH=50
for i in $(seq 0 $((MESH - 1))); do
  openssl req -new -config "$TMP/ca.cnf" -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout "$K/mesh-$i.key" -subj "/CN=d" -out "$K/mesh-$i.csr" 2>/dev/null
  ca "mesh-self-$i" "mesh-$i" "/CN=Mesh CA" ca "" "" self     # signing handle only, never published
done
: > "$C/mesh.pem"
for i in $(seq 0 $((MESH - 1))); do
  for step in 1 7 19; do
    j=$(( (i + step) % MESH ))
    ca "mesh-$i-by-$j" "mesh-$i" "/CN=Mesh CA" ca "" "" "mesh-self-$j"
    cat "$C/mesh-$i-by-$j.pem" >> "$C/mesh.pem"
  done
done
ca   mesh-orphan-self ec-mesh-orphan "/CN=Mesh CA" ca "" "" self    # not published
KU=digitalSignature leaf leaf-mesh ec-leaf "/CN=leaf.example" leaf "" "" mesh-orphan-self

cat > "$TMP/scenarios.py" <<'PY'
# Lays out Tests/Fixtures/scenarios/<name>/ and writes Tests/Fixtures/scenarios.json.
# argv: <dir with generated certs> <Tests/Fixtures>
import base64, calendar, hashlib, json, os, shutil, subprocess, sys, tempfile, time

CERTS, FIX = sys.argv[1:3]
SCEN = os.path.join(FIX, "scenarios")
shutil.rmtree(SCEN, ignore_errors=True)
os.makedirs(SCEN)
DATE = "2030-06-01T00:00:00Z"


def openssl(*args, data=None):
    return subprocess.run(["openssl", *args], input=data, capture_output=True, check=True).stdout


def src(cid):
    return os.path.join(CERTS, cid + ".pem")


def pem(cid):
    with open(src(cid)) as f:
        return f.read()


_subjects = {}


def subject(cid):
    if cid not in _subjects:
        out = openssl("x509", "-in", src(cid), "-noout", "-subject", "-nameopt", "RFC2253").decode().strip()
        _subjects[cid] = out[len("subject="):]
    return _subjects[cid]


def leaf_sha256(cid):
    return hashlib.sha256(openssl("x509", "-in", src(cid), "-outform", "DER")).hexdigest()


def spki_pin(cid):
    pub = openssl("x509", "-in", src(cid), "-noout", "-pubkey")
    der = openssl("pkey", "-pubin", "-outform", "DER", data=pub)
    return "sha256/" + base64.b64encode(hashlib.sha256(der).digest()).decode()


# ---- expected-result derivation (Docs/TrustModel.md + the fixture brief) ----
GROUPS = [  # priority, highest first; within a group the order below breaks ties at the same index
    ["Revocation"],
    ["KeySize", "WeakKeySize"],
    ["SignatureHashAlgorithms", "WeakSignature"],
    ["UsageConstraints"],
    ["LeafSPKISHA256"],
    ["AnchorTrusted", "MissingIntermediate", "Signature"],
    ["KeyUsage", "ExtendedKeyUsage", "BasicConstraints", "BasicConstraintsCA", "BasicConstraintsPathLen",
     "CriticalExtensions", "DuplicateExtension", "MalformedExtension", "ChainLength"],
    ["SSLHostname", "NameConstraints"],
    ["TemporalValidity", "ValidityPeriodMaximums"],
]
RANK = {c: (g, i) for g, group in enumerate(GROUPS) for i, c in enumerate(group)}
ERROR = {
    "TemporalValidity": "errSecCertificateExpired",
    "SSLHostname": "errSecHostNameMismatch",
    "AnchorTrusted": "errSecNotTrusted",
    "MissingIntermediate": "errSecCreateChainFailed",
    "Signature": "errSecCreateChainFailed",
    "BasicConstraints": "errSecNoBasicConstraints",
    "BasicConstraintsCA": "errSecNoBasicConstraintsCA",
    "BasicConstraintsPathLen": "errSecPathLengthConstraintExceeded",
    "ChainLength": "errSecPathLengthConstraintExceeded",
    "KeyUsage": "errSecInvalidKeyUsageForPolicy",
    "ExtendedKeyUsage": "errSecInvalidExtendedKeyUsage",
    "NameConstraints": "errSecInvalidName",
    "CriticalExtensions": "errSecUnknownCriticalExtensionFlag",
    "DuplicateExtension": "errSecCertificateDuplicateExtension",
    "MalformedExtension": "errSecUnknownCertExtension",
    "SignatureHashAlgorithms": "errSecInvalidDigestAlgorithm",
    "WeakSignature": "errSecInvalidDigestAlgorithm",
    "KeySize": "errSecUnsupportedKeySize",
    "WeakKeySize": "errSecUnsupportedKeySize",
    "Revocation": "errSecCertificateRevoked",
    "UsageConstraints": "errSecTrustSettingDeny",
    "LeafSPKISHA256": "errSSLATSCertificateTrustViolation",
    "ValidityPeriodMaximums": "errSecCertificateValidityPeriodTooLong",
}
FATAL = {"WeakSignature", "WeakKeySize", "Revocation"}


def derive(checks):
    failures = [(RANK[c], idx, c) for idx, cs in checks.items() for c in cs]
    if not failures:
        return "unspecified", None
    names = {c for _, _, c in failures}
    if names & FATAL:
        result = "fatalTrustFailure"
    elif "UsageConstraints" in names:
        result = "deny"
    else:
        result = "recoverableTrustFailure"
    (g, i), idx, c = min(failures, key=lambda f: (f[0][0], f[1], f[0][1]))
    return result, ERROR[c]


ALL = []
SANITY = []  # (scenario name, openssl verify should succeed?)


def scenario(name, description, chain, anchors=("root-rsa",), intermediates=(), crls=(), alwaysTrust=(),
             distrust=(), pins=(), exceptions=None, policy="ssl-server", host="leaf.example", ip=None,
             email=None, profile="apple", maxDepth=None, verifyDate=DATE, checks=None, result=None,
             error=Ellipsis, built=None, openssl_ok=None):
    assert name not in {s["name"] for s in ALL}, name
    d = os.path.join(SCEN, name)
    os.makedirs(d)

    def write(fname, ids):
        with open(os.path.join(d, fname), "w") as f:
            f.write("".join(pem(i) for i in ids))
        return f"{name}/{fname}"

    checks = {str(k): list(v) for k, v in (checks or {}).items()}
    for cs in checks.values():
        for c in cs:
            assert c in RANK, c
    r, e = derive(checks)
    exp = {
        "result": result or r,
        "error": e if error is Ellipsis else error,
        "checks": checks,
    }
    if built is not None:
        exp["chainSubjects"] = [subject(b) for b in built]
    exc_path = None
    if exceptions is not None:
        exc_leaf, exc_checks = exceptions
        with open(os.path.join(d, "exceptions.json"), "w") as f:
            json.dump({"version": 1, "leafSHA256": leaf_sha256(exc_leaf), "checks": list(exc_checks)}, f, indent=2)
            f.write("\n")
        exc_path = f"{name}/exceptions.json"
    ALL.append({
        "name": name,
        "description": description,
        "chain": write("chain.pem", chain),
        "anchors": [write(f"{a}.pem", [a]) for a in anchors],
        "intermediates": [write("intermediates.pem", intermediates)] if intermediates else [],
        "crls": [write(f"{c}.pem", [c]) for c in crls],
        "alwaysTrust": [write(f"{a}.pem", [a]) for a in alwaysTrust],
        "distrust": [write(f"{a}.pem", [a]) for a in distrust],
        "pins": [p if p.startswith("sha256/") else spki_pin(p) for p in pins],
        "exceptions": exc_path,
        "policy": policy,
        "host": host,
        "ip": ip,
        "email": email,
        "profile": profile,
        "maxDepth": maxDepth,
        "verifyDate": verifyDate,
        "expected": exp,
        "backendDifferences": {},
    })
    if openssl_ok is not None:
        SANITY.append((name, openssl_ok))


RSA = ["leaf-rsa", "int-rsa", "root-rsa"]
EC = ["leaf-ec", "int-ec", "root-ec"]
RSA4 = ["leaf4-rsa", "int2-rsa", "int1-rsa", "root-rsa"]
EC4 = ["leaf4-ec", "int2-ec", "int1-ec", "root-ec"]

# ---------------------------------------------------------------- basics
scenario("valid-chain-rsa", "leaf -> intermediate -> root (RSA-2048); root is the only anchor",
         ["leaf-rsa", "int-rsa"], built=RSA, openssl_ok=True)
scenario("valid-chain-ec", "leaf -> intermediate -> root (P-256 ECDSA); root is the only anchor",
         ["leaf-ec", "int-ec"], anchors=["root-ec"], built=EC, openssl_ok=True)
scenario("intermediates-out-of-order-rsa",
         "4-level chain root -> Int L1 -> Int L2 -> leaf, presented as leaf, Int L1, Int L2 (intermediates reversed)",
         ["leaf4-rsa", "int1-rsa", "int2-rsa"], built=RSA4, openssl_ok=True)
scenario("intermediates-out-of-order-ec", "P-256 variant of intermediates-out-of-order-rsa",
         ["leaf4-ec", "int1-ec", "int2-ec"], anchors=["root-ec"], built=EC4, openssl_ok=True)
scenario("leaf-anchor-self-signed-rsa", "self-signed CA:FALSE leaf that is itself the only anchor",
         ["leaf-selfsigned-rsa"], anchors=["leaf-selfsigned-rsa"], built=["leaf-selfsigned-rsa"], openssl_ok=True)
scenario("leaf-anchor-self-signed-ec", "P-256 self-signed CA:FALSE leaf that is itself the only anchor",
         ["leaf-selfsigned-ec"], anchors=["leaf-selfsigned-ec"], built=["leaf-selfsigned-ec"], openssl_ok=True)
scenario("leaf-anchor-ca-issued-rsa",
         "CA-issued leaf (sent with its intermediate) whose only anchor is the leaf itself: the chain stops at the leaf",
         ["leaf-rsa", "int-rsa"], anchors=["leaf-rsa"], built=["leaf-rsa"], openssl_ok=True)
scenario("intermediate-anchor-rsa", "the intermediate (not self-signed) is the only anchor",
         ["leaf-rsa", "int-rsa"], anchors=["int-rsa"], built=["leaf-rsa", "int-rsa"], openssl_ok=True)
scenario("intermediate-anchor-ec", "P-256: the intermediate (not self-signed) is the only anchor",
         ["leaf-ec", "int-ec"], anchors=["int-ec"], built=["leaf-ec", "int-ec"], openssl_ok=True)

# ---------------------------------------------------------------- validity
scenario("expired-leaf-rsa", "leaf valid 2028-01-01 .. 2029-06-01, verified at 2030-06-01",
         ["leaf-expired-rsa", "int-rsa"], checks={0: ["TemporalValidity"]},
         built=["leaf-expired-rsa", "int-rsa", "root-rsa"], openssl_ok=False)
scenario("expired-leaf-ec", "P-256 leaf valid 2028-01-01 .. 2029-06-01, verified at 2030-06-01",
         ["leaf-expired-ec", "int-ec"], anchors=["root-ec"], checks={0: ["TemporalValidity"]},
         built=["leaf-expired-ec", "int-ec", "root-ec"], openssl_ok=False)
scenario("not-yet-valid-leaf-rsa",
         "leaf valid 2031-01-01 .. 2032-01-01, verified at 2030-06-01 (Apple reports not-yet-valid as errSecCertificateExpired)",
         ["leaf-notyetvalid-rsa", "int-rsa"], checks={0: ["TemporalValidity"]},
         built=["leaf-notyetvalid-rsa", "int-rsa", "root-rsa"], openssl_ok=False)
scenario("expired-intermediate-rsa", "intermediate valid 2025-01-01 .. 2030-03-01 (same subject and key as Int RSA)",
         ["leaf-rsa", "int-expired-rsa"], checks={1: ["TemporalValidity"]},
         built=["leaf-rsa", "int-expired-rsa", "root-rsa"], openssl_ok=False)
scenario("expired-anchor-rsa",
         "the anchor (Root RSA, same key, valid 2020-01-01 .. 2030-03-01) is expired at the verify date",
         ["leaf-rsa", "int-rsa"], anchors=["root-expired-rsa"], checks={2: ["TemporalValidity"]},
         built=["leaf-rsa", "int-rsa", "root-expired-rsa"])
scenario("validity-825-days-apple",
         "leaf valid 2030-01-01 .. 2033-01-01 (1096 days) under the Apple profile: 825-day rule",
         ["leaf-825-rsa", "int-rsa"], checks={0: ["ValidityPeriodMaximums"]},
         built=["leaf-825-rsa", "int-rsa", "root-rsa"])
scenario("validity-825-days-rfc5280", "the same 1096-day leaf under the rfc5280 profile: no 825-day rule",
         ["leaf-825-rsa", "int-rsa"], profile="rfc5280", built=["leaf-825-rsa", "int-rsa", "root-rsa"])

# ---------------------------------------------------------------- host names
scenario("wrong-host-rsa", "valid chain for leaf.example, evaluated for other.example",
         ["leaf-rsa", "int-rsa"], host="other.example", checks={0: ["SSLHostname"]}, built=RSA)
scenario("wrong-host-ec", "P-256 valid chain for leaf.example, evaluated for other.example",
         ["leaf-ec", "int-ec"], anchors=["root-ec"], host="other.example", checks={0: ["SSLHostname"]}, built=EC)
scenario("host-case-insensitive", "host name comparison ignores ASCII case (LEAF.Example vs leaf.example)",
         ["leaf-rsa", "int-rsa"], host="LEAF.Example", built=RSA)
scenario("wildcard-match", "SAN *.example.com matches www.example.com",
         ["leaf-wildcard-rsa", "int-rsa"], host="www.example.com", built=["leaf-wildcard-rsa", "int-rsa", "root-rsa"])
scenario("wildcard-two-labels", "SAN *.example.com does not match a.b.example.com (wildcard covers one label)",
         ["leaf-wildcard-rsa", "int-rsa"], host="a.b.example.com", checks={0: ["SSLHostname"]},
         built=["leaf-wildcard-rsa", "int-rsa", "root-rsa"])
scenario("wildcard-partial", "partial-label wildcard SAN f*.example.com does not match foo.example.com",
         ["leaf-partialwildcard-rsa", "int-rsa"], host="foo.example.com", checks={0: ["SSLHostname"]},
         built=["leaf-partialwildcard-rsa", "int-rsa", "root-rsa"])
scenario("ip-san-match", "SAN IP:192.0.2.10 matches ip 192.0.2.10",
         ["leaf-ip-rsa", "int-rsa"], host=None, ip="192.0.2.10", built=["leaf-ip-rsa", "int-rsa", "root-rsa"])
scenario("ip-san-mismatch", "SAN IP:192.0.2.10 does not match ip 192.0.2.11",
         ["leaf-ip-rsa", "int-rsa"], host=None, ip="192.0.2.11", checks={0: ["SSLHostname"]},
         built=["leaf-ip-rsa", "int-rsa", "root-rsa"])
scenario("cn-only-leaf", "leaf with CN=leaf.example and no SAN: the SSL policy matches names from the SAN only",
         ["leaf-cnonly-rsa", "int-rsa"], checks={0: ["SSLHostname"]}, built=["leaf-cnonly-rsa", "int-rsa", "root-rsa"])

# ---------------------------------------------------------------- anchors / missing issuer
scenario("untrusted-root", "the chain (root included) ends in Root RSA, but the only anchor is Other Root RSA",
         ["leaf-rsa", "int-rsa", "root-rsa"], anchors=["other-root-rsa"], checks={2: ["AnchorTrusted"]},
         built=RSA, openssl_ok=False)
scenario("missing-intermediate", "chain is the leaf only; the anchor is the root; the intermediate is nowhere",
         ["leaf-rsa"], checks={0: ["MissingIntermediate"]}, built=["leaf-rsa"], openssl_ok=False)

# ---------------------------------------------------------------- basic constraints / usage
scenario("intermediate-not-ca", "intermediate with basicConstraints CA:FALSE (keyCertSign set) used as issuer",
         ["leaf-rsa", "int-notca-rsa"], checks={1: ["BasicConstraintsCA"]},
         built=["leaf-rsa", "int-notca-rsa", "root-rsa"], openssl_ok=False)
scenario("intermediate-no-basic-constraints", "v3 intermediate without a basicConstraints extension",
         ["leaf-rsa", "int-nobc-rsa"], checks={1: ["BasicConstraints"]},
         built=["leaf-rsa", "int-nobc-rsa", "root-rsa"], openssl_ok=False)
scenario("intermediate-v1", "X.509 v1 intermediate (no extensions at all)",
         ["leaf-rsa", "int-v1-rsa"], checks={1: ["BasicConstraints"]},
         built=["leaf-rsa", "int-v1-rsa", "root-rsa"], openssl_ok=False)
scenario("path-length-exceeded",
         "root -> Int L1 (pathlen:0) -> Int L2 -> leaf: Int L1 (index 2) is followed by one CA too many",
         ["leaf4-rsa", "int2-rsa", "int1-pathlen0-rsa"], checks={2: ["BasicConstraintsPathLen"]},
         built=["leaf4-rsa", "int2-rsa", "int1-pathlen0-rsa", "root-rsa"], openssl_ok=False)
scenario("ca-key-usage-no-certsign", "intermediate keyUsage digitalSignature+cRLSign, no keyCertSign",
         ["leaf-rsa", "int-nocertsign-rsa"], checks={1: ["KeyUsage"]},
         built=["leaf-rsa", "int-nocertsign-rsa", "root-rsa"], openssl_ok=False)
scenario("leaf-eku-client-only", "leaf EKU clientAuth only, evaluated with the ssl-server policy",
         ["leaf-ekuclient-rsa", "int-rsa"], checks={0: ["ExtendedKeyUsage"]},
         built=["leaf-ekuclient-rsa", "int-rsa", "root-rsa"])
scenario("intermediate-eku-client-only", "intermediate EKU clientAuth only (excludes serverAuth), ssl-server policy",
         ["leaf-rsa", "int-ekuclient-rsa"], checks={1: ["ExtendedKeyUsage"]},
         built=["leaf-rsa", "int-ekuclient-rsa", "root-rsa"])
scenario("ssl-client-valid", "clientAuth leaf under the ssl-client policy",
         ["leaf-ekuclient-rsa", "int-rsa"], policy="ssl-client", host=None,
         built=["leaf-ekuclient-rsa", "int-rsa", "root-rsa"])
scenario("ssl-client-server-only-leaf", "serverAuth-only leaf under the ssl-client policy",
         ["leaf-rsa", "int-rsa"], policy="ssl-client", host=None, checks={0: ["ExtendedKeyUsage"]}, built=RSA)
scenario("max-depth-exceeded",
         "4-certificate chain (leaf, 2 intermediates, root) with maxDepth 1: maxDepth counts intermediates "
         "(OpenSSL's verify_depth meaning), 2 > 1",
         ["leaf4-rsa", "int1-rsa", "int2-rsa"], maxDepth=1, checks={0: ["ChainLength"]})
scenario("max-depth-ok", "the same 4-certificate chain with maxDepth 2: exactly at the limit (2 intermediates)",
         ["leaf4-rsa", "int1-rsa", "int2-rsa"], maxDepth=2, built=RSA4)

# ---------------------------------------------------------------- name constraints (on the intermediate)
scenario("name-constraints-dns-permitted",
         "intermediate permits DNS .allowed.example; leaf SAN leaf.other.example",
         ["leaf-other-rsa", "int-nc-dnsperm-rsa"], host="leaf.other.example", checks={0: ["NameConstraints"]},
         built=["leaf-other-rsa", "int-nc-dnsperm-rsa", "root-rsa"], openssl_ok=False)
scenario("name-constraints-dns-excluded", "intermediate excludes DNS .bad.example; leaf SAN leaf.bad.example",
         ["leaf-bad-rsa", "int-nc-dnsexcl-rsa"], host="leaf.bad.example", checks={0: ["NameConstraints"]},
         built=["leaf-bad-rsa", "int-nc-dnsexcl-rsa", "root-rsa"], openssl_ok=False)
scenario("name-constraints-not-violated", "intermediate excludes DNS .bad.example; leaf SAN leaf.example is fine",
         ["leaf-rsa", "int-nc-dnsexcl-rsa"], built=["leaf-rsa", "int-nc-dnsexcl-rsa", "root-rsa"], openssl_ok=True)
scenario("name-constraints-ip", "intermediate permits IP 10.0.0.0/8; leaf SAN IP 192.0.2.1 (and DNS leaf.example)",
         ["leaf-ipnc-rsa", "int-nc-ip-rsa"], host=None, ip="192.0.2.1", checks={0: ["NameConstraints"]},
         built=["leaf-ipnc-rsa", "int-nc-ip-rsa", "root-rsa"], openssl_ok=False)
scenario("name-constraints-email",
         "intermediate permits rfc822Name allowed.example (RFC 5280 form for any mailbox at that host); "
         "leaf SAN email x@other.example; basic policy",
         ["leaf-email-rsa", "int-nc-email-rsa"], policy="basic", host=None, checks={0: ["NameConstraints"]},
         built=["leaf-email-rsa", "int-nc-email-rsa", "root-rsa"], openssl_ok=False)
scenario("name-constraints-dirname", "intermediate permits directoryName O=Allowed; leaf subject O=Other, CN=leaf.example; basic policy",
         ["leaf-dirname-rsa", "int-nc-dirname-rsa"], policy="basic", host=None, checks={0: ["NameConstraints"]},
         built=["leaf-dirname-rsa", "int-nc-dirname-rsa", "root-rsa"], openssl_ok=False)

# ---------------------------------------------------------------- extensions
scenario("unknown-critical-extension", "leaf carries 1.3.6.1.4.1.99999.1 (critical, NULL value)",
         ["leaf-unknowncrit-rsa", "int-rsa"], checks={0: ["CriticalExtensions"]},
         built=["leaf-unknowncrit-rsa", "int-rsa", "root-rsa"], openssl_ok=False)
scenario("duplicate-extension", "leaf carries basicConstraints twice (both critical CA:FALSE); signature is valid",
         ["leaf-dupext-rsa", "int-rsa"], checks={0: ["DuplicateExtension"]},
         built=["leaf-dupext-rsa", "int-rsa", "root-rsa"])
scenario("malformed-extension",
         "leaf keyUsage (non-critical) holds a NULL instead of a BIT STRING (engineers may adjust the expected checks)",
         ["leaf-malformed-rsa", "int-rsa"], checks={0: ["MalformedExtension"]},
         built=["leaf-malformed-rsa", "int-rsa", "root-rsa"])

# ---------------------------------------------------------------- signatures, digests, key sizes
scenario("bad-signature-leaf-rsa", "copy of the valid leaf with the last byte of its signature flipped",
         ["leaf-badsig-rsa", "int-rsa"], checks={0: ["MissingIntermediate", "Signature"]},
         built=["leaf-badsig-rsa"], openssl_ok=False)
scenario("bad-signature-leaf-ec", "P-256: copy of the valid leaf with the last byte of its ECDSA signature flipped",
         ["leaf-badsig-ec", "int-ec"], anchors=["root-ec"], checks={0: ["MissingIntermediate", "Signature"]},
         built=["leaf-badsig-ec"], openssl_ok=False)
scenario("bad-signature-intermediate", "copy of the valid intermediate with the last byte of its signature flipped",
         ["leaf-rsa", "int-badsig-rsa"], checks={1: ["MissingIntermediate", "Signature"]},
         built=["leaf-rsa", "int-badsig-rsa"], openssl_ok=False)
scenario("sha1-leaf-rsa", "leaf signed with sha1WithRSAEncryption under ssl-server",
         ["leaf-sha1-rsa", "int-rsa"], checks={0: ["SignatureHashAlgorithms"]},
         built=["leaf-sha1-rsa", "int-rsa", "root-rsa"])
scenario("sha1-leaf-ec", "leaf signed with ecdsa-with-SHA1 under ssl-server",
         ["leaf-sha1-ec", "int-ec"], anchors=["root-ec"], checks={0: ["SignatureHashAlgorithms"]},
         built=["leaf-sha1-ec", "int-ec", "root-ec"])
scenario("sha1-leaf-basic", "the SHA-1 leaf under the basic policy: allowed",
         ["leaf-sha1-rsa", "int-rsa"], policy="basic", host=None, built=["leaf-sha1-rsa", "int-rsa", "root-rsa"])
scenario("md5-leaf", "leaf signed with md5WithRSAEncryption, basic policy: WeakSignature is fatal",
         ["leaf-md5-rsa", "int-rsa"], policy="basic", host=None, checks={0: ["WeakSignature"]},
         built=["leaf-md5-rsa", "int-rsa", "root-rsa"])
scenario("md5-leaf-ssl",
         "the MD5 leaf under ssl-server: fatal WeakSignature only (the fatal floor supersedes the recoverable "
         "SSL hash rule for the same signature)",
         ["leaf-md5-rsa", "int-rsa"], checks={0: ["WeakSignature"]},
         built=["leaf-md5-rsa", "int-rsa", "root-rsa"])
scenario("rsa1024-leaf", "RSA-1024 leaf under ssl-server: KeySize (recoverable)",
         ["leaf-rsa1024", "int-rsa"], checks={0: ["KeySize"]}, built=["leaf-rsa1024", "int-rsa", "root-rsa"])
scenario("rsa1024-leaf-basic", "RSA-1024 leaf under the basic policy: allowed",
         ["leaf-rsa1024", "int-rsa"], policy="basic", host=None, built=["leaf-rsa1024", "int-rsa", "root-rsa"])
scenario("ec-p224-leaf", "P-224 ECDSA leaf under ssl-server: KeySize (EC < 256)",
         ["leaf-p224", "int-ec"], anchors=["root-ec"], checks={0: ["KeySize"]}, built=["leaf-p224", "int-ec", "root-ec"])
scenario("rsa512-leaf", "RSA-512 leaf, basic policy: WeakKeySize is fatal",
         ["leaf-rsa512", "int-rsa"], policy="basic", host=None, checks={0: ["WeakKeySize"]},
         built=["leaf-rsa512", "int-rsa", "root-rsa"], openssl_ok=False)
scenario("rsa512-leaf-ssl", "the RSA-512 leaf under ssl-server: fatal WeakKeySize only (it supersedes the SSL KeySize floor)",
         ["leaf-rsa512", "int-rsa"], checks={0: ["WeakKeySize"]},
         built=["leaf-rsa512", "int-rsa", "root-rsa"])

# ---------------------------------------------------------------- revocation
scenario("revoked-leaf", "CRL from Int RSA (thisUpdate 2030-05-01, nextUpdate 2030-07-01) lists the leaf's serial",
         ["leaf-rsa", "int-rsa"], crls=["int-revokes-leaf.crl"], checks={0: ["Revocation"]}, built=RSA,
         openssl_ok=False)
scenario("crl-not-listing-leaf", "CRL from Int RSA (same dates) that revokes nothing",
         ["leaf-rsa", "int-rsa"], crls=["int-empty.crl"], built=RSA, openssl_ok=True)
scenario("crl-other-issuer", "CRL signed by an unrelated CA listing the leaf's serial number: no effect",
         ["leaf-rsa", "int-rsa"], crls=["unrelated-lists-leaf.crl"], built=RSA)

# ---------------------------------------------------------------- trust settings
scenario("always-trust-root", "no anchors; Root RSA has an always-trust setting",
         ["leaf-rsa", "int-rsa"], anchors=[], alwaysTrust=["root-rsa"], result="proceed", built=RSA)
scenario("distrusted-intermediate", "valid chain, but the intermediate has a distrust setting",
         ["leaf-rsa", "int-rsa"], distrust=["int-rsa"], checks={1: ["UsageConstraints"]}, built=RSA)

# ---------------------------------------------------------------- exceptions
scenario("exceptions-applied",
         "wrong host (other.example) with exceptions {SSLHostname} saved for this leaf: proceed "
         "(checks left empty: the exception covers the failure)",
         ["leaf-rsa", "int-rsa"], host="other.example", exceptions=("leaf-rsa", ["SSLHostname"]),
         result="proceed", built=RSA)
scenario("exceptions-new-failure",
         "same leaf and exceptions file, verified at 2031-07-01 after the leaf expired: a new failure voids the exceptions",
         ["leaf-rsa", "int-rsa"], host="other.example", exceptions=("leaf-rsa", ["SSLHostname"]),
         verifyDate="2031-07-01T00:00:00Z", checks={0: ["SSLHostname", "TemporalValidity"]}, built=RSA)
scenario("exceptions-other-leaf", "wrong host with exceptions saved for a different leaf (the P-256 leaf): not applied",
         ["leaf-rsa", "int-rsa"], host="other.example", exceptions=("leaf-ec", ["SSLHostname"]),
         checks={0: ["SSLHostname"]}, built=RSA)
scenario("exceptions-do-not-cover-revocation",
         "revoked leaf with exceptions {Revocation} for this leaf: exceptions never cover fatal failures",
         ["leaf-rsa", "int-rsa"], crls=["int-revokes-leaf.crl"], exceptions=("leaf-rsa", ["Revocation"]),
         checks={0: ["Revocation"]}, built=RSA)

# ---------------------------------------------------------------- pins
scenario("pin-match-intermediate", "pin = SHA-256 of the intermediate's SPKI",
         ["leaf-rsa", "int-rsa"], pins=["int-rsa"], built=RSA)
scenario("pin-match-leaf", "pin = SHA-256 of the leaf's SPKI",
         ["leaf-rsa", "int-rsa"], pins=["leaf-rsa"], built=RSA)
scenario("pin-mismatch", "a pin that matches no certificate in the chain (reported on the leaf)",
         ["leaf-rsa", "int-rsa"],
         pins=["sha256/" + base64.b64encode(hashlib.sha256(b"certkit: no such key").digest()).decode()],
         checks={0: ["LeafSPKISHA256"]}, built=RSA)

# ---------------------------------------------------------------- chain building
LE = ["leaf-le", "le-int", "new-root"]
scenario("cross-signed-root-new-anchor",
         "Let's Encrypt 2021: sent leaf, LE Int, New Root cross-signed by Old Root (expired 2029-12-31); "
         "the only anchor is the self-signed New Root, so the path must end there",
         ["leaf-le", "le-int", "new-root-cross"], anchors=["new-root"], built=LE, openssl_ok=True)
scenario("cross-signed-root-both-anchors",
         "as cross-signed-root-new-anchor, with the expired Old Root also an anchor: prefer the valid path to New Root",
         ["leaf-le", "le-int", "new-root-cross"], anchors=["new-root", "old-root"], built=LE)
scenario("cross-signed-root-old-anchor-only",
         "as cross-signed-root-new-anchor, but the only anchor is the expired Old Root: the path goes through the cross-sign",
         ["leaf-le", "le-int", "new-root-cross"], anchors=["old-root"], checks={3: ["TemporalValidity"]},
         built=["leaf-le", "le-int", "new-root-cross", "old-root"])
scenario("same-subject-two-keys",
         "two intermediates named CN=Int RSA with different keys, the wrong one first; AKI points at the right one",
         ["leaf-rsa", "int-alt-rsa", "int-rsa"], built=RSA, openssl_ok=True)
scenario("same-subject-two-keys-no-aki",
         "as same-subject-two-keys, but the leaf has no AKI: only the signature tells the intermediates apart",
         ["leaf-noaki-rsa", "int-alt-rsa", "int-rsa"], built=["leaf-noaki-rsa", "int-rsa", "root-rsa"])
scenario("cross-sign-loop",
         "CA A signed by CA B and CA B signed by CA A (both sent); CA A is also cross-signed by Root C (only in the "
         "intermediates pool), and Root C is the anchor",
         ["leaf-loop", "ca-a-by-b", "ca-b-by-a"], anchors=["root-c"], intermediates=["ca-a-by-c"],
         built=["leaf-loop", "ca-a-by-c", "root-c"], openssl_ok=True)
scenario("two-paths-one-expired",
         "anchor is the intermediate Anchor Int; Issuing CA is sent twice: issued by Anchor Int but expired "
         "(sent first), and issued by Bridge CA (issued by Anchor Int), valid; the valid, longer path wins",
         ["leaf-issuing", "issuing-expired", "issuing-via-bridge", "bridge"], anchors=["anchor-int"],
         built=["leaf-issuing", "issuing-via-bridge", "bridge", "anchor-int"])
scenario("distractor-pool",
         "chain is the leaf only; the intermediates pool holds 200 unrelated self-signed P-256 certificates "
         "followed by the needed Int RSA (last)",
         ["leaf-rsa"], intermediates=["distractors", "int-rsa"], built=RSA, openssl_ok=True)
scenario("chain-reverse-order",
         "4-level chain presented as leaf, root, Int L1, Int L2 (everything after the leaf reversed, root included)",
         ["leaf4-rsa", "root-rsa", "int1-rsa", "int2-rsa"], built=RSA4, openssl_ok=True)
scenario("intermediate-only-in-pool", "chain is the leaf only; the intermediate is given only in intermediates",
         ["leaf-rsa"], intermediates=["int-rsa"], built=RSA, openssl_ok=True)
scenario("branches-name-constraints",
         "two CN=Int RSA issuers with the same key: one (from Root RSA, sent first) permits only .allowed.example, "
         "the other is issued by Root B RSA; both roots are anchors; the valid branch via Root B RSA is chosen",
         ["leaf-rsa", "int-nc-dnsperm-rsa", "int-via-b-rsa"], anchors=["root-rsa", "root-b-rsa"],
         built=["leaf-rsa", "int-via-b-rsa", "root-b-rsa"])
scenario("branches-eku",
         "two CN=Int RSA issuers with the same key: one (from Root RSA, sent first) has EKU clientAuth only, "
         "the other is issued by Root B RSA; both roots are anchors; the valid branch via Root B RSA is chosen",
         ["leaf-rsa", "int-ekuclient-rsa", "int-via-b-rsa"], anchors=["root-rsa", "root-b-rsa"],
         built=["leaf-rsa", "int-via-b-rsa", "root-b-rsa"])
scenario("no-valid-branch",
         "two CN=Int RSA issuers with the same key: one from Root B RSA with CA:FALSE (sent first), one from Root RSA "
         "expired; both roots are anchors; no path is valid, the best failure (expired intermediate) is reported",
         ["leaf-rsa", "int-notca-via-b-rsa", "int-expired-rsa"], anchors=["root-rsa", "root-b-rsa"],
         checks={1: ["TemporalValidity"]}, built=["leaf-rsa", "int-expired-rsa", "root-rsa"], openssl_ok=False)
scenario("mesh-no-path",
         "P-256 mesh: 50 CAs all named CN=Mesh CA with different keys, each cross-signed by 3 others (150 certificates "
         "in the pool); the leaf is issued by a CN=Mesh CA key that is not in the mesh; the anchor is an unrelated root",
         ["leaf-mesh"], anchors=["other-root-rsa"], intermediates=["mesh"], checks={0: ["MissingIntermediate"]},
         built=["leaf-mesh"], openssl_ok=False)

with open(os.path.join(FIX, "scenarios.json"), "w") as f:
    json.dump(ALL, f, indent=2)
    f.write("\n")

# Keep the scenario index at the end of Tests/Fixtures/README.md in sync.
readme = os.path.join(FIX, "README.md")
if os.path.exists(readme):
    text = open(readme).read()
    marker = "## Scenario index\n"
    if marker in text:
        rows = ["| name | policy | result | error | checks |", "|---|---|---|---|---|"]
        for s in ALL:
            e = s["expected"]
            c = "; ".join(f"{k}: {', '.join(v)}" for k, v in e["checks"].items())
            rows.append(f"| `{s['name']}` | {s['policy']} | {e['result']} | {e['error'] or ''} | {c} |")
        start = text.index(marker) + len(marker)
        # The index ends at the next "## " heading (the scenario sets' sections follow it); keep the rest.
        following = text.find("\n## ", start)
        rest = text[following:] if following >= 0 else ""
        with open(readme, "w") as f:
            f.write(text[:start] + "\n" + "\n".join(rows) + "\n" + rest)


# ---------------------------------------------------------------- sanity: is the PKI what we think it is?
def epoch(iso):
    return str(calendar.timegm(time.strptime(iso, "%Y-%m-%dT%H:%M:%SZ")))


def split_pem(text):
    out, cur = [], None
    for line in text.splitlines(keepends=True):
        if line.startswith("-----BEGIN"):
            cur = [line]
        elif cur is not None:
            cur.append(line)
            if line.startswith("-----END"):
                out.append("".join(cur))
                cur = None
    return out


bad = 0
with tempfile.TemporaryDirectory() as t:
    for name, want_ok in SANITY:
        s = next(x for x in ALL if x["name"] == name)
        rd = lambda p: open(os.path.join(SCEN, p)).read()
        chain = split_pem(rd(s["chain"]))
        anchors = "".join(rd(p) for p in s["anchors"] + s["alwaysTrust"])
        untrusted = "".join(chain[1:]) + "".join(rd(p) for p in s["intermediates"])
        files = {"leaf": chain[0], "anchors": anchors, "untrusted": untrusted or chain[0]}
        for k, v in files.items():
            with open(os.path.join(t, k), "w") as f:
                f.write(v)
        args = ["openssl", "verify", "-attime", epoch(s["verifyDate"]), "-partial_chain", "-auth_level", "1",
                "-CAfile", os.path.join(t, "anchors"), "-untrusted", os.path.join(t, "untrusted")]
        if s["host"]:
            args += ["-verify_hostname", s["host"]]
        if s["ip"]:
            args += ["-verify_ip", s["ip"]]
        if s["crls"]:
            args += ["-crl_check"] + [a for c in s["crls"] for a in ("-CRLfile", os.path.join(SCEN, c))]
        p = subprocess.run(args + [os.path.join(t, "leaf")], capture_output=True, text=True)
        ok = p.returncode == 0
        msg = [l for l in (p.stdout + p.stderr).splitlines() if l.startswith("error") or "OK" in l]
        flag = "ok " if ok == want_ok else "BAD"
        if ok != want_ok:
            bad += 1
        print(f"  sanity {flag} {name:38s} openssl verify {'OK' if ok else 'fails'}: {msg[0] if msg else ''}",
              file=sys.stderr)
print(f"make-fixtures: {len(ALL)} scenarios, {len(SANITY)} openssl sanity checks, {bad} unexpected",
      file=sys.stderr)
sys.exit(1 if bad else 0)
PY

echo "make-fixtures: scenarios" >&2
python3 "$TMP/scenarios.py" "$C" "$FIX"
