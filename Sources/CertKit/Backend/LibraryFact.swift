/// One thing a library's own path verifier said, as a neutral value: what it reported and where, in its own
/// words. Backends turn their C constants into these (an `X509_V_ERR_*` code and its depth, a `GNUTLS_CERT_*`
/// bit) and judge nothing; the core alone decides what each fact means (`LibraryVerdictInterpretation`).
/// Used only by the audit mode (``TrustEvaluator/Configuration/libraryAudit``).
package struct LibraryFact: Sendable, Hashable {
    /// What the library reported, named by its meaning in the library (not by a core check).
    package enum Status: String, Sendable, Hashable, CaseIterable {
        /// The certificate is past its notAfter (OpenSSL `CERT_HAS_EXPIRED`, GnuTLS `EXPIRED`).
        case expired
        /// The certificate is before its notBefore, or a validity field is unreadable.
        case notYetValid
        /// A signature did not verify, or its algorithm is unsupported or inconsistent.
        case signatureFailure
        /// The key of the certificate at ``LibraryFact/index`` could not be read, so the signature it makes (on the
        /// certificate below) was not verified.
        case issuerKeyUnusable
        /// A certificate used as an issuer is not a CA (basicConstraints, cA, keyCertSign).
        case notACA
        /// A pathLenConstraint is exceeded.
        case pathLengthExceeded
        /// An issuer's keyUsage lacks keyCertSign.
        case keyUsageNoCertSign
        /// An extension the library cannot decode or finds repeated.
        case invalidExtension
        /// A critical extension the library does not handle.
        case unhandledCriticalExtension
        /// A name is outside a permitted or inside an excluded subtree, or a constraint's form is unsupported.
        case nameConstraintViolation
        /// GnuTLS `SIGNER_CONSTRAINTS_FAILURE`: pathLen, keyCertSign or name constraints, without saying which.
        case signerConstraints
        /// The certificate is revoked by a CRL the core validated.
        case revoked
        /// The chain is longer than the library's depth limit.
        case chainTooLong
        /// The library found no issuer (or a self-signed certificate it does not trust) for some certificate.
        case noIssuer
        /// The library refuses a CRL the core validated.
        case crlRefused
        /// The library had no CRL for a certificate (certkit checks revocation only against the CRLs it is given).
        case noCRL
        /// A key below the library's security level.
        case keyTooSmall
        /// An elliptic-curve key with explicit parameters.
        case explicitECParameters
        /// A digest below the library's security level.
        case digestTooWeak
        /// GnuTLS `INSECURE_ALGORITHM`: a weak algorithm or key.
        case insecureAlgorithm
        /// GnuTLS `INVALID` with no other bit: it could not judge the path (an algorithm it does not know).
        case bareInvalid
        /// The library refused to import the certificate at ``LibraryFact/index``.
        case importRefused
        /// The library verified a chain other than the candidate path.
        case otherChain
        /// A status of a feature certkit never asks the library for (purposes, hosts, DANE, OCSP, Suite B, ...).
        case notRequested
        /// The library failed (out of memory, internal error).
        case libraryFailure
        /// A code or bit the backend has no name for.
        case unknown
    }

    /// What the library reported.
    package var status: Status
    /// The certificate the library names (path index, 0 = leaf, as the library's depth); nil when it does not say.
    package var index: Int?
    /// The library's own words, e.g. `certificate has expired (X509_V_ERR 10)`.
    package var words: String

    /// Creates a fact.
    package init(_ status: Status, index: Int? = nil, words: String) {
        self.status = status
        self.index = index
        self.words = words
    }
}
