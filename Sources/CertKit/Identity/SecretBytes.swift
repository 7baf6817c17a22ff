#if canImport(Glibc)
import Glibc
#endif

/// Bytes of key material — a password, a private key file, a decrypted key — that certkit overwrites with zeros
/// (`explicit_bzero`, which the compiler may not remove) when the last reference goes away.
///
/// The bytes live in one buffer this object allocates and never hands out: they are reached only through
/// ``withUnsafeBytes(_:)`` and ``withCString(_:)`` (a NUL follows them), so no Swift array or string copy of them
/// is made by the type itself. What it cannot cover: a `String` or `[UInt8]` a caller built the bytes from (use
/// ``init(copying:)`` and then let go of the original, or clear it), copies a C library makes inside its own
/// memory (OpenSSL and GnuTLS clear their key structures when freed), registers and stack spills, and swapped-out
/// pages (the buffer is not locked in memory).
public final class SecretBytes {
    private let buffer: UnsafeMutableRawBufferPointer
    /// The number of secret bytes (the buffer holds one more: a NUL).
    public let count: Int

    /// Copies `bytes` into a new zeroed-on-release buffer.
    public convenience init(copying bytes: some Collection<UInt8>) {
        self.init(count: bytes.count) { buffer in _ = buffer.initializeMemory(as: UInt8.self, from: bytes) }
    }

    /// A buffer of `count` bytes, zero-filled, that `fill` writes the secret into.
    package init<E: Error>(count: Int, fill: (UnsafeMutableRawBufferPointer) throws(E) -> Void) throws(E) {
        buffer = .allocate(byteCount: count + 1, alignment: 1)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        self.count = count
        try fill(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]))
    }

    deinit {
        wipe()
        buffer.deallocate()
    }

    /// True when there are no secret bytes.
    public var isEmpty: Bool { count == 0 }

    /// Calls `body` with the bytes; `body` must not keep the pointer or copy the bytes into Swift values.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }

    /// Calls `body` with the bytes as a NUL-terminated C string (for a password; an interior NUL ends it).
    public func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        try body(buffer.baseAddress!.assumingMemoryBound(to: CChar.self))
    }

    /// True when `prefix` occurs in the bytes (e.g. `-----BEGIN` to tell PEM from DER without a `String` copy).
    package func contains(_ pattern: String) -> Bool {
        let needle = Array(pattern.utf8)
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        return withUnsafeBytes { bytes in
            (0...(bytes.count - needle.count)).contains { start in
                needle.indices.allSatisfy { bytes[start + $0] == needle[$0] }
            }
        }
    }

    /// The first line (up to the first CR or LF), as new secret bytes.
    package func firstLine() -> SecretBytes {
        withUnsafeBytes { bytes in
            let end = bytes.firstIndex { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") } ?? bytes.count
            return SecretBytes(copying: UnsafeRawBufferPointer(rebasing: bytes[0..<end]))
        }
    }

    /// The bytes as one PEM block under `label` (`PRIVATE KEY`), as new secret bytes; no other copy of the bytes
    /// or of their base64 text is made.
    package func pemEncoded(label: String) -> SecretBytes {
        withUnsafeBytes { bytes in
            SecretBytes(count: PEMEncoder.encodedCount(bytes.count, label: label)) { out in
                _ = PEMEncoder.encode(
                    bytes.assumingMemoryBound(to: UInt8.self), label: label, into: out.assumingMemoryBound(to: UInt8.self))
            }
        }
    }

    /// `self` followed by `other`, as new secret bytes.
    package func appending(_ other: SecretBytes) -> SecretBytes {
        SecretBytes(count: count + other.count) { out in
            withUnsafeBytes { out.copyMemory(from: $0) }
            other.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: out[count...]).copyMemory(from: $0) }
        }
    }

    /// Overwrites the bytes with zeros now (also done on release).
    package func wipe() {
        explicit_bzero(buffer.baseAddress!, buffer.count)
    }
}

extension SecretBytes: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `<n secret bytes>`: never the bytes.
    public var description: String { "<\(count) secret bytes>" }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror with the count only.
    public var customMirror: Mirror { Mirror(self, children: ["count": count], displayStyle: .class) }
}
