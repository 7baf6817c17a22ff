/// ResponderID (RFC 6960 §4.2.1): the signer named by its subject or by the SHA-1 of its public key's bits.
package enum OCSPResponderID: Sendable, Hashable {
    /// byName: the signer's subject.
    case byName(DistinguishedName)
    /// byKey: SHA-1 of the signer's subjectPublicKey BIT STRING value.
    case byKeyHash([UInt8])
}
