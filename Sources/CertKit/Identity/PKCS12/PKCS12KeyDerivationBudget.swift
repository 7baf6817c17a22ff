/// The work a PKCS#12 file may ask of the library that opens it, checked before the library sees the file: every
/// key derivation's iteration count (the MAC's, and the PBKDF2 or PKCS#12-KDF count of every encrypted content and
/// shrouded key) is at most ``Limits/maxPKCS12Iterations``, and all of them together at most
/// ``Limits/maxPKCS12TotalIterations``. Neither OpenSSL 3.0 nor GnuTLS 3.7 bounds them: a 2.5 KB file whose MAC
/// asks for 2^31 − 1 iterations kept either busy for about 20 minutes before it could say the password was wrong.
///
/// ``check(pfx:)`` reads everything the file shows without the password (BER is accepted, as the libraries accept
/// it): the MAC, and the encryption parameters of every encryptedData content and of every shrouded key in the
/// clear contents. Shrouded keys inside an encrypted content are readable only once the library decrypted that
/// content (whose own count was checked): the backends hand their AlgorithmIdentifiers to
/// ``check(encryptionAlgorithm:)`` before the library derives a key for them. Whatever is not understood is
/// refused (an authSafe that is not id-data, a content type other than data or encryptedData, an encryption
/// scheme other than the PKCS#12 and PKCS#5 password-based ones, a PBES2 key derivation other than PBKDF2).
package struct PKCS12KeyDerivationBudget: Sendable {
    package let limits: Limits
    /// The iterations counted so far.
    package private(set) var total = 0

    package init(limits: Limits) { self.limits = limits }

    /// Checks what the PFX (DER or BER) shows without the password.
    package mutating func check(pfx: [UInt8]) throws(IdentityError) {
        do {
            try PKCS12StructureWalk.walk(pfx: pfx, budget: &self)
        } catch let error as IdentityError {
            throw error
        } catch {
            throw .malformed("the PKCS#12 structure: \(error)")
        }
    }

    /// Checks the DER AlgorithmIdentifier of a shrouded key (or an encrypted content) the file held encrypted.
    package mutating func check(encryptionAlgorithm der: [UInt8]) throws(IdentityError) {
        do {
            try PKCS12StructureWalk.reading(der) { reader in
                let node = try reader.read(DERTag.sequence, "AlgorithmIdentifier")
                try reader.expectEnd("AlgorithmIdentifier")
                try PKCS12StructureWalk.encryption(node, what: "a shrouded key", budget: &self)
            }
        } catch let error as IdentityError {
            throw error
        } catch {
            throw .malformed("the PKCS#12 structure: \(error)")
        }
    }

    /// Checks the encryption of an EncryptedPrivateKeyInfo (RFC 5958 §3: a shrouded key's bag value, DER) that the
    /// file held encrypted.
    package mutating func check(encryptedPrivateKeyInfo der: [UInt8], what: String = "a shrouded key") throws(IdentityError) {
        do {
            try PKCS12StructureWalk.reading(BERNormalizer.normalize(der)) { reader in
                var fields = try reader.read(DERTag.sequence, "EncryptedPrivateKeyInfo").children()
                try PKCS12StructureWalk.encryption(
                    fields.read(DERTag.sequence, "EncryptedPrivateKeyInfo algorithm"), what: what, budget: &self)
            }
        } catch let error as IdentityError {
            throw error
        } catch {
            throw .malformed("the PKCS#12 structure: \(error)")
        }
    }

    /// Counts `iterations` (the INTEGER node's contents) for `what`; throws past a bound.
    mutating func charge(_ node: DERNode, what: String) throws {
        let contents = try node.integerContents()
        guard contents[contents.startIndex] & 0x80 == 0, contents.contains(where: { $0 != 0 }) else {
            throw IdentityError.malformed("the iteration count of \(what) is not positive")
        }
        let significant = contents.drop { $0 == 0 }
        var count = Int.max
        if significant.count <= 7 {
            count = significant.reduce(0) { $0 << 8 | Int($1) }
        }
        try charge(count, what: what)
    }

    /// Counts `count` iterations for `what`; throws past a bound.
    mutating func charge(_ count: Int, what: String) throws(IdentityError) {
        let shown = count == .max ? "more than 2^56" : "\(count)"
        guard count <= limits.maxPKCS12Iterations else {
            throw .limitExceeded(
                "\(what) asks for \(shown) key-derivation iterations, more than \(limits.maxPKCS12Iterations) "
                    + "(Limits.maxPKCS12Iterations)")
        }
        let (sum, overflow) = total.addingReportingOverflow(count)
        total = overflow ? .max : sum
        guard total <= limits.maxPKCS12TotalIterations, !overflow else {
            throw .limitExceeded(
                "the PKCS#12 file asks for more than \(limits.maxPKCS12TotalIterations) key-derivation iterations in "
                    + "all (Limits.maxPKCS12TotalIterations)")
        }
    }
}
