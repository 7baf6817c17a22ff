import Foundation

/// The one way certkit hashes an encoding (a certificate's, a CRL's or a name's DER, OID contents, a key): every
/// byte, in one pass, with the process's random `Hasher` seed. Hashing only some bytes (once: the length and the
/// last 16) let crafted inputs that share those bytes turn sets and caches quadratic, and with the random seed
/// collisions cannot be computed in advance. Values that are hashed often keep the result (``Certificate``
/// computes it once per certificate).
extension Hasher {
    /// Feeds every byte of `encoding`.
    mutating func combine(encoding: some ContiguousBytes) {
        encoding.withUnsafeBytes { combine(bytes: $0) }
    }

    /// The hash of every byte of `encoding`, alone.
    static func hash(encoding: some ContiguousBytes) -> Int {
        var hasher = Hasher()
        hasher.combine(encoding: encoding)
        return hasher.finalize()
    }
}

/// An encoding as a dictionary key: hashed by ``Swift/Hasher/combine(encoding:)`` (every byte, one pass; an
/// `[UInt8]` key would hash byte by byte), equal when the bytes are.
struct EncodingKey: Hashable, Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) { hasher.combine(encoding: bytes) }
}
