import CertKit

/// Certificates (or other encodings) flattened for the C baselines: one buffer of concatenated bytes and the lengths.
struct DERList {
    let bytes: [UInt8]
    let lengths: [Int]

    init(_ certificates: [Certificate]) { self.init(bytes: certificates.map(\.derEncoded)) }

    init(bytes pieces: [[UInt8]]) {
        bytes = pieces.flatMap { $0 }
        lengths = pieces.map(\.count)
    }

    var count: Int { lengths.count }

    /// Calls `body` with C views of the buffer and the lengths.
    func withPointers<R>(_ body: (UnsafePointer<UInt8>, UnsafePointer<Int>, Int) -> R) -> R {
        bytes.withUnsafeBufferPointer { buffer in
            lengths.withUnsafeBufferPointer { sizes in body(buffer.baseAddress!, sizes.baseAddress!, sizes.count) }
        }
    }
}
