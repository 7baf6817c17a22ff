import CertKit
internal import COpenSSL

/// The one way a DER encoding enters OpenSSL: a `d2i_*` function that must consume exactly all of the bytes.
/// Used by each handle that OpenSSL parses from DER (``OpenSSLCertificate``, ``OpenSSLCRL``,
/// ``OpenSSLPublicKey``), which then owns and frees the object.
enum OpenSSLDERDecoding {
    /// Decodes `der` with `d2i` (called `function` in messages); `free` releases an object that left trailing
    /// bytes.
    /// - Throws: ``BackendError`` with OpenSSL's reason, or naming the trailing bytes after `what`.
    static func decode(
        _ der: [UInt8], function: String, what: String,
        d2i: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, Int) -> OpaquePointer?, free: (OpaquePointer) -> Void
    ) throws(BackendError) -> OpaquePointer {
        var consumed = 0
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            let object = d2i(&cursor, buffer.count)
            if let cursor { consumed = cursor - base }
            return object
        }
        guard let parsed else {
            throw OpenSSLErrorQueue.error(der.isEmpty ? "\(function): empty input" : "\(function) failed", code: .refusedInput)
        }
        guard consumed == der.count else {
            free(parsed)
            OpenSSLErrorQueue.clear()
            throw BackendError(.refusedInput, "\(function): \(der.count - consumed) trailing bytes after \(what)")
        }
        return parsed
    }
}
