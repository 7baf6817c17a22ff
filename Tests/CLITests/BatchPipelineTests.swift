@testable import CertKitCLI
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The batch pipeline's workers, in-process.
@Suite("batch pipeline workers")
struct BatchPipelineTests {
    /// Thread-local values set by workers, and thread-local destructors run.
    static let valuesSet = Atomic<Int>(0)
    static let destructorsRun = Atomic<Int>(0)

    @Test("run returns after every worker has exited, its thread-local destructors included")
    func workersJoined() throws {
        // OpenSSL frees a thread's error queue in such a destructor: a worker still exiting when the process ends
        // left it unreachable, and LeakSanitizer failed the run.
        var key = pthread_key_t()
        #expect(pthread_key_create(&key, { _ in BatchPipelineTests.destructorsRun.add(1, ordering: .sequentiallyConsistent) }) == 0)
        defer { pthread_key_delete(key) }
        let sharedKey = key
        for round in 0..<50 {
            let before = (Self.valuesSet.load(ordering: .sequentiallyConsistent),
                          Self.destructorsRun.load(ordering: .sequentiallyConsistent))
            let input = Array(String(repeating: "line\n", count: 40).utf8)
            var delivered = false
            var reader = BatchLineReader(maxLineBytes: 100) {
                defer { delivered = true }
                return delivered ? [] : input
            }
            let sink = MemorySink()
            let pipeline = BatchPipeline(jobs: 3, output: sink, progress: nil) { job in
                if pthread_getspecific(sharedKey) == nil {
                    _ = pthread_setspecific(sharedKey, UnsafeRawPointer(bitPattern: 1))
                    BatchPipelineTests.valuesSet.add(1, ordering: .sequentiallyConsistent)
                }
                return BatchOutcome(line: "\(job.number)\n", exitCode: .success)
            }
            let summary = try pipeline.run(&reader)
            #expect(summary.lines == 40)
            #expect(sink.text == (1...40).map { "\($0)\n" }.joined(), "round \(round): every line, in order")
            let set = Self.valuesSet.load(ordering: .sequentiallyConsistent) - before.0
            let run = Self.destructorsRun.load(ordering: .sequentiallyConsistent) - before.1
            #expect(set >= 1 && set <= 3)
            #expect(run == set, "round \(round): \(set) workers set a thread-local value, \(run) destructors ran")
        }
    }
}
