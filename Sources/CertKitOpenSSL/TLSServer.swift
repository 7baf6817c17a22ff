import CertKit
package import CertKitSockets
internal import COpenSSL
internal import COpenSSLShims
internal import Glibc

/// A loopback TLS server on OpenSSL that requires a client certificate and lets certkit decide on it (package
/// access: the `ClientTrustServer` sample and its tests). OpenSSL's own verification is replaced entirely
/// (`SSL_CTX_set_cert_verify_callback`): the callback hands the presented chain, leaf first, to the
/// ``ClientCertificateDecision`` — typically ``ClientTrust`` — and a refusal ends the handshake with a
/// bad_certificate alert.
package final class OpenSSLClientCertificateServer: ClientCertificateServer {
    private let context: TLSServerContextHandle

    /// Serves with `identity` (the server's certificate, chain and key); `decide` judges each client's chain.
    package init(identity: Identity, decide: @escaping ([[UInt8]]) -> Bool) throws(TLSConnectError) {
        context = try TLSServerContextHandle(identity: identity, decide: decide)
    }

    package var decision: ClientCertificateDecision { context.decision }

    package func serve(_ socket: TCPConnection, until deadline: ContinuousClock.Instant, reply: [UInt8])
        throws(TLSConnectError)
    {
        let session = try TLSServerSessionHandle(context: context, socket: socket)
        // OpenSSL writes with write(2): a client that reset the connection must not end the process with SIGPIPE.
        try BrokenPipeGuard.run { () throws(TLSConnectError) in
            try session.handshake(until: deadline)
            // The client may already have gone (it has its verdict); that does not undo the handshake.
            try? session.write(reply, until: deadline)
            session.shutdown()
        }
    }
}

/// Owns one server `SSL_CTX` (TLS 1.2 and 1.3) that requires a client certificate and delegates its verification
/// to a ``ClientCertificateDecision``; frees it exactly once in `deinit` (the decision lives as long as this
/// object, which the context's callback argument points to).
final class TLSServerContextHandle {
    /// The `SSL_CTX *`; valid for the lifetime of this object.
    let handle: OpaquePointer
    let decision: ClientCertificateDecision

    init(identity: Identity, decide: @escaping ([[UInt8]]) -> Bool) throws(TLSConnectError) {
        OpenSSLErrorQueue.clear()
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw .handshake(OpenSSLErrorQueue.error("SSL_CTX_new failed").message)
        }
        handle = context
        decision = ClientCertificateDecision(decide: decide)
        try TLSContextHandle.use(identity, in: context)
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nil)
        SSL_CTX_set_cert_verify_callback(context, { storeContext, argument in
            guard let storeContext, let argument else { return 0 }
            let decision = Unmanaged<ClientCertificateDecision>.fromOpaque(argument).takeUnretainedValue()
            var chain: [[UInt8]] = []
            if let untrusted = X509_STORE_CTX_get0_untrusted(storeContext) {
                // The stack OpenSSL builds from the client's Certificate message: leaf first.
                for index in 0..<certkit_sk_X509_num(untrusted) {
                    if let certificate = certkit_sk_X509_value(untrusted, index) {
                        chain.append(OpenSSLX509DER.encode(certificate))
                    }
                }
            }
            guard decision.judge(chain) else {
                X509_STORE_CTX_set_error(storeContext, X509_V_ERR_CERT_REJECTED)
                return 0
            }
            return 1
        }, Unmanaged.passUnretained(decision).toOpaque())
    }

    deinit { SSL_CTX_free(handle) }
}

/// Owns one server `SSL` over an accepted socket; frees it exactly once in `deinit`.
final class TLSServerSessionHandle {
    let handle: OpaquePointer
    private let context: TLSServerContextHandle
    private let socket: TCPConnection

    init(context: TLSServerContextHandle, socket: TCPConnection) throws(TLSConnectError) {
        OpenSSLErrorQueue.clear()
        guard let session = SSL_new(context.handle) else {
            throw .handshake(OpenSSLErrorQueue.error("SSL_new failed").message)
        }
        handle = session
        self.context = context
        self.socket = socket
        guard SSL_set_fd(session, socket.descriptor) == 1 else {
            throw .handshake(OpenSSLErrorQueue.error("SSL_set_fd failed").message)
        }
    }

    deinit { SSL_free(handle) }

    func handshake(until deadline: ContinuousClock.Instant) throws(TLSConnectError) {
        try retry(until: deadline) { SSL_accept(handle) }
    }

    func write(_ bytes: [UInt8], until deadline: ContinuousClock.Instant) throws(TLSConnectError) {
        guard !bytes.isEmpty else { return }
        try retry(until: deadline) { bytes.withUnsafeBytes { SSL_write(handle, $0.baseAddress, Int32($0.count)) } }
    }

    func shutdown() {
        _ = SSL_shutdown(handle)
        OpenSSLErrorQueue.clear()
    }

    private func retry(until deadline: ContinuousClock.Instant, _ call: () -> Int32) throws(TLSConnectError) {
        while true {
            OpenSSLErrorQueue.clear()
            let status = call()
            if status > 0 { return }
            switch SSL_get_error(handle, status) {
            case SSL_ERROR_WANT_READ: try socket.wait(forWriting: false, until: deadline)
            case SSL_ERROR_WANT_WRITE: try socket.wait(forWriting: true, until: deadline)
            default: throw .handshake(OpenSSLErrorQueue.error("SSL_accept").message)
            }
        }
    }
}
