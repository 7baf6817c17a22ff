import Foundation

extension PKCS12KeyDerivationBudget {
    /// Checks the key derivation of an encrypted PKCS#8 key file (`--key`), as a PKCS#12 file's shrouded keys are
    /// checked (the same schemes, the same ``Limits/maxPKCS12Iterations``), before the library derives a key: every
    /// `ENCRYPTED PRIVATE KEY` PEM block, or a DER EncryptedPrivateKeyInfo. Only encrypted keys are copied out of
    /// `key` (their bytes are ciphertext); an unencrypted key is recognized in place and left alone, and so is the
    /// legacy PEM encryption (`Proc-Type: 4,ENCRYPTED`: one MD5 round, no count).
    ///
    /// An `ENCRYPTED PRIVATE KEY` block that carries PEM headers (`Proc-Type`/`DEK-Info`: the legacy encryption
    /// wrapped around an encrypted PKCS#8 key) or whose base64 does not decode is refused: its inner key derivation
    /// could not be read, so it could not be bounded, before the library ran it.
    package mutating func check(privateKeyFile key: SecretBytes) throws(IdentityError) {
        let encrypted: [[UInt8]]? = key.withUnsafeBytes { bytes in Self.encryptedKeyInfos(bytes) }
        guard let encrypted else {
            throw .malformed(
                "an ENCRYPTED PRIVATE KEY block with PEM headers (legacy encryption around it) or broken base64: its "
                    + "key derivation cannot be bounded before the library runs it")
        }
        for info in encrypted {
            try check(encryptedPrivateKeyInfo: info, what: "the encrypted private key")
        }
    }

    /// The DER of every EncryptedPrivateKeyInfo in `bytes` (PEM blocks, or the whole input when it is DER); nil
    /// when an `ENCRYPTED PRIVATE KEY` block has PEM headers or base64 that does not decode (nothing can be read
    /// from it before the library runs its key derivation).
    private static func encryptedKeyInfos(_ bytes: UnsafeRawBufferPointer) -> [[UInt8]]? {
        let begin = Array("-----BEGIN ENCRYPTED PRIVATE KEY-----".utf8)
        let end = Array("-----END ENCRYPTED PRIVATE KEY-----".utf8)
        var found: [[UInt8]] = []
        var position = 0
        while let start = firstIndex(of: begin, in: bytes, from: position) {
            let body = start + begin.count
            guard let stop = firstIndex(of: end, in: bytes, from: body) else { break }
            let text = Data(bytes[body..<stop])
            // A header line ("Proc-Type: 4,ENCRYPTED", "DEK-Info: ...") has a colon, which base64 never does.
            guard !text.contains(UInt8(ascii: ":")),
                  let der = Data(base64Encoded: text, options: .ignoreUnknownCharacters)
            else { return nil }
            found.append(Array(der))
            position = stop + end.count
        }
        if found.isEmpty, isEncryptedKeyInfoDER(bytes) { found.append(Array(bytes)) }
        return found
    }

    /// True when `bytes` begin as a DER EncryptedPrivateKeyInfo (SEQUENCE { SEQUENCE algorithm, ... }) rather
    /// than a PrivateKeyInfo (SEQUENCE { INTEGER version, ... }), read in place.
    private static func isEncryptedKeyInfoDER(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 4, bytes[0] == DERTag.sequence else { return false }
        let first = bytes[1]
        let header = first < 0x80 ? 2 : 2 + Int(first & 0x7F)
        return header < bytes.count && bytes[header] == DERTag.sequence
    }

    private static func firstIndex(of pattern: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard pattern.count <= bytes.count, start <= bytes.count - pattern.count else { return nil }
        for index in start...(bytes.count - pattern.count) where bytes[index] == pattern[0] {
            if bytes[index..<index + pattern.count].elementsEqual(pattern) { return index }
        }
        return nil
    }
}
