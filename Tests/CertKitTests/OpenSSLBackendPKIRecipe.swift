import CertKit
import CertKitTestSupport
import Foundation

/// A small PKI made with the openssl CLI (a ``TestPKI``), once per test process, with fixed validity dates
/// (2020-01-01 … 2039-12-31 unless a certificate says otherwise) so tests can verify at fixed dates.
extension TestPKI {
    /// The shared instance; generated on first use.
    static let openSSLBackend: Result<TestPKI, any Error> = Result {
        let pki = try TestPKI(prefix: "certkit-openssl-tests")
        try pki.runScript(openSSLBackendScript)
        return pki
    }

    /// The DER bytes of `name.der` (a certificate) or `name.crl.der`.
    func der(_ name: String) throws -> [UInt8] { try bytes("\(name).der") }

    /// The certificate `name`, parsed by the core.
    func certificate(_ name: String) throws -> Certificate {
        try Certificate(derEncoded: der(name))
    }

    /// The CRL issued by `issuer`, parsed by the core.
    func crl(issuedBy issuer: String) throws -> CertificateRevocationList {
        try CertificateRevocationList(derEncoded: der("\(issuer).crl"))
    }

    /// The generator: EC P-256 keys (RSA for the MD5/SHA-1/small-key leaves), `openssl ca` for fixed dates and
    /// chosen serials, two CRLs.
    private static let openSSLBackendScript = #"""
set -e
cat > ca.cnf <<'CNF'
[ ca ]
default_ca = CA_default
[ CA_default ]
database = $ENV::DB/index.txt
serial = $ENV::DB/serial
new_certs_dir = $ENV::DB
default_md = sha256
policy = policy_any
unique_subject = no
email_in_dn = no
copy_extensions = none
[ policy_any ]
commonName = supplied
organizationName = optional
CNF
cat > ext.cnf <<'CNF'
[ root ]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[ root_pl0 ]
basicConstraints = critical,CA:TRUE,pathlen:0
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[ int ]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ int_noca ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ int_nokcs ]
basicConstraints = critical,CA:TRUE
keyUsage = critical,digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ leaf ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:leaf.example
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ leaf_crit ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
subjectAltName = DNS:crit.example
1.3.6.1.4.1.55555.1 = critical,DER:05:00
[ int_nc ]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
nameConstraints = critical,permitted;DNS:allowed.example
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ selfleaf ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
subjectAltName = DNS:self.example
subjectKeyIdentifier = hash
CNF
RSABITS=; MD=sha256
key() {
  if [ -n "$RSABITS" ]; then openssl genpkey -algorithm RSA -pkeyopt "rsa_keygen_bits:$RSABITS" -out "$1.key"
  else openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1.key"; fi
}
# issue NAME SUBJECT ISSUER EXT START END SERIAL [KEY]
issue() {
  name=$1; subject=$2; issuer=$3; ext=$4; start=$5; end=$6; serial=$7; keyname=${8:-$1}
  [ -f "$keyname.key" ] || key "$keyname"
  openssl req -new -key "$keyname.key" -subj "$subject" -out "$name.csr"
  export DB="db-$issuer"; mkdir -p "$DB"; touch "$DB/index.txt"; echo "$serial" > "$DB/serial"
  if [ "$issuer" = "$name" ]; then signer="-selfsign -keyfile $keyname.key"; else signer="-cert $issuer.pem -keyfile $issuer.key"; fi
  openssl ca -batch -config ca.cnf $signer -in "$name.csr" -out "$name.pem" -notext -preserveDN -md "$MD" \
    -startdate "$start" -enddate "$end" -extfile ext.cnf -extensions "$ext" 2>/dev/null
  openssl x509 -in "$name.pem" -outform DER -out "$name.der"
}
crl() { # crl ISSUER REVOKED...
  issuer=$1; shift; export DB="db-$issuer"
  for r in "$@"; do openssl ca -config ca.cnf -revoke "$r.pem" -cert "$issuer.pem" -keyfile "$issuer.key" 2>/dev/null; done
  openssl ca -config ca.cnf -gencrl -cert "$issuer.pem" -keyfile "$issuer.key" \
    -crl_lastupdate 200101000000Z -crl_nextupdate 391231000000Z -out "$issuer.crl.pem" 2>/dev/null
  openssl crl -in "$issuer.crl.pem" -outform DER -out "$issuer.crl.der"
}
V0=200101000000Z; V1=391231000000Z
issue root "/CN=Test Root/O=certkit" root root $V0 $V1 01
issue root-expired "/CN=Test Root/O=certkit" root-expired root $V0 250101000000Z 02 root
# An impostor: Test Root's name and key identifier, another key.
printf '[ root_twin ]\nbasicConstraints = critical,CA:TRUE\nkeyUsage = critical,keyCertSign,cRLSign\nsubjectKeyIdentifier = %s\n' \
  "$(openssl x509 -in root.pem -noout -ext subjectKeyIdentifier | tail -1 | tr -d ' ')" >> ext.cnf
issue root-twin "/CN=Test Root/O=certkit" root-twin root_twin $V0 $V1 03
issue int "/CN=Test Intermediate/O=certkit" root int $V0 $V1 10
issue leaf "/CN=leaf.example/O=certkit" int leaf $V0 $V1 1000
issue leaf-expired "/CN=expired.example" int leaf $V0 250101000000Z 1002
issue leaf-future "/CN=future.example" int leaf 350101000000Z $V1 1003
issue leaf-revoked "/CN=revoked.example" int leaf $V0 $V1 1001
issue int-noca "/CN=Not A CA" root int_noca $V0 $V1 11
issue leaf-noca "/CN=under-noca.example" int-noca leaf $V0 $V1 2000
issue int-nokcs "/CN=No CertSign" root int_nokcs $V0 $V1 12
issue leaf-nokcs "/CN=under-nokcs.example" int-nokcs leaf $V0 $V1 2001
issue root-pl0 "/CN=Root PathLen 0" root-pl0 root_pl0 $V0 $V1 01
issue int-pl "/CN=Intermediate Under PL0" root-pl0 int $V0 $V1 13
issue leaf-pl "/CN=pl.example" int-pl leaf $V0 $V1 2002
issue leaf-crit "/CN=crit.example" int leaf_crit $V0 $V1 1004
issue int-nc "/CN=Constrained Intermediate" root int_nc $V0 $V1 14
issue leaf-nc "/CN=leaf.example" int-nc leaf $V0 $V1 2003
issue self-leaf "/CN=self.example" self-leaf selfleaf $V0 $V1 05
issue unknown-root "/CN=Unknown Root" unknown-root root $V0 $V1 01
issue unknown-int "/CN=Unknown Intermediate" unknown-root int $V0 $V1 1001
issue unknown-leaf "/CN=unknown.example" unknown-int leaf $V0 $V1 3000
RSABITS=2048; issue rsa-root "/CN=RSA Root" rsa-root root $V0 $V1 01
RSABITS=1024; MD=md5; issue leaf-md5 "/CN=md5.example" rsa-root leaf $V0 $V1 4000
MD=sha1; issue leaf-sha1 "/CN=sha1.example" rsa-root leaf $V0 $V1 4001
RSABITS=512; MD=sha256; issue leaf-rsa512 "/CN=small.example" rsa-root leaf $V0 $V1 4002
RSABITS=
crl int leaf-revoked
crl unknown-root unknown-int
"""#
}
