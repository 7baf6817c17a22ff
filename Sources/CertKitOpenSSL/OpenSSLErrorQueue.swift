import CertKit
internal import COpenSSL

/// The calling thread's OpenSSL error queue (thread-local in OpenSSL).
///
/// Every entry point of the backend empties the queue before it starts and after a failing call, so no message
/// from one call can show up in the error of a later one on the same thread.
enum OpenSSLErrorQueue {
    /// Empties the queue. An empty queue is left alone: `ERR_clear_error` resets every one of the queue's slots
    /// (hundreds of instructions, several times per verification), `ERR_peek_error` only looks at its ends.
    static func clear() {
        if ERR_peek_error() != 0 { ERR_clear_error() }
    }

    /// Drains the queue into a ``BackendError`` that starts with `context` and carries OpenSSL's reasons
    /// (`ERR_error_string_n`), oldest first, with `code` (``BackendError/Code/refusedInput`` when the failing call
    /// read bytes the core gave it). The queue is empty afterwards.
    static func error(_ context: String, code: BackendError.Code = .library) -> BackendError {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        ERR_clear_error()
        guard !reasons.isEmpty else { return BackendError(code, "\(context)") }
        return BackendError(code, "\(context): \(reasons.joined(separator: "; "))")
    }
}
