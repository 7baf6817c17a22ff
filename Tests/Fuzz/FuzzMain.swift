// libFuzzer entry point over certkit's decoders. Built with -DFUZZING by Scripts/fuzz.sh; without that flag
// this is a plain executable that prints how to run the fuzzer. The file is always parsed as a library
// (SwiftPM sees `@main`), so it has no top-level code in either configuration.
import CertKit
#if FUZZING
import Glibc
#endif

#if FUZZING
/// Feeds one input to every decoder; any crash, trap or sanitizer report is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let blocks = try? PEM.decode(bytes) {
        for block in blocks { _ = PEM.encode(block.bytes, label: block.label) }
    }
    if let bundle = try? CertificateBundle.decode(bytes) {
        for certificate in bundle.certificates {
            _ = certificate.description
            _ = certificate.issuer.description
            _ = certificate.isSelfIssued
            _ = certificate.extensions.subjectAlternativeNames?.map(\.description)
            _ = certificate.extensions.nameConstraints?.permitted.map(\.description)
        }
    }
    if let certificate = try? Certificate(derEncoded: bytes) {
        _ = certificate.subject.description
        _ = certificate.extensions.subjectAlternativeNames?.map(\.description)
    }
    if let crl = try? CertificateRevocationList(derEncoded: bytes) {
        _ = crl.issuer.description
    }
    _ = Base64.decode(String(decoding: bytes, as: UTF8.self))
    if size <= 64 { _ = PeerName.parse(String(decoding: bytes, as: UTF8.self)).description }
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

#endif

/// The entry point. With FUZZING it hands control to libFuzzer (which parses the command line); without it,
/// it explains how to build the real fuzzer.
@main
enum CertKitFuzz {
    static func main() {
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) }
        exit(status)
        #else
        print("usage: Scripts/fuzz.sh [SECONDS]  (builds CertKitFuzz with -DFUZZING and libFuzzer, then runs it)")
        #endif
    }
}
