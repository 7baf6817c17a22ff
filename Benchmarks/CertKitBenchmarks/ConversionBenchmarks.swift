import CBaselines
import CertKit
import Foundation

/// PEM → DER over a 1000-certificate bundle, per certificate.
struct ConversionBenchmarks {
    let measurement: Measurement
    let report: BenchmarkReport

    func run() {
        let (pem, count) = thousandCertificatePEM()
        let benchmark = "pem-to-der 1000 certs"
        let converted = pem.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cb_ossl_pem_to_der($0.baseAddress, $0.count) }
        }
        if converted != count { emit("  note: OpenSSL converted \(converted) of \(count) certificates") }
        let raw = report.add(BenchmarkRow(
            benchmark: benchmark, backend: "openssl", case: "raw C: PEM_read_bio_X509 + i2d_X509",
            nanosecondsPerOp: measurement.nanosecondsPerOperation(operationsPerCall: count) {
                _ = pem.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { cb_ossl_pem_to_der($0.baseAddress, $0.count) }
                }
            }))
        report.add(BenchmarkRow(
            benchmark: benchmark, backend: "certkit", case: "certkit: PEM.decode",
            nanosecondsPerOp: measurement.nanosecondsPerOperation(operationsPerCall: count) {
                _ = try? PEM.decode(pem)
            }), baseline: raw)
        report.add(BenchmarkRow(
            benchmark: benchmark, backend: "certkit", case: "certkit: CertificateBundle.decode",
            nanosecondsPerOp: measurement.nanosecondsPerOperation(operationsPerCall: count) {
                _ = try? CertificateBundle.decode(pem)
            }), baseline: raw)
    }

    /// `CertificateBundle.decode` of `bundle`, measured `runs` separate times (µs per certificate, one row each),
    /// to show the spread from run to run.
    func decodeRuns(_ bundle: (text: [UInt8], count: Int), runs: Int) -> [Double] {
        (1...runs).map { run in
            report.add(BenchmarkRow(
                benchmark: "bundle decode 1000 certs", backend: "certkit", case: "CertificateBundle.decode, run \(run)",
                nanosecondsPerOp: measurement.nanosecondsPerOperation(operationsPerCall: bundle.count) {
                    _ = try? CertificateBundle.decode(bundle.text)
                })).usPerOp
        }
    }
}

/// `--profile-bundle COUNT`: the bundle decode of the `bundle` benchmark in a loop, nothing else, for a profiler.
enum BundleProfileLoop {
    static func run(count: Int) -> Never {
        let bundle = thousandCertificatePEM()
        var decoded = 0
        for _ in 0..<count {
            decoded += (try? CertificateBundle.decode(bundle.text))?.certificates.count ?? 0
        }
        emit("\(decoded) certificates decoded")
        exit(0)
    }
}
