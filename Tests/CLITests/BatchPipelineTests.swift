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

    /// A sink that counts its writes and can be read while workers write.
    final class CountingSink: ByteSink, @unchecked Sendable {
        private let lock = NSLock()
        private var written: [UInt8] = []
        private var writes = 0

        func write(_ bytes: [UInt8]) {
            lock.withLock {
                written.append(contentsOf: bytes)
                writes += 1
            }
        }

        var state: (text: String, writes: Int) {
            lock.withLock { (String(decoding: written, as: UTF8.self), writes) }
        }
    }

    @Test("lines that finish while more are queued are written together; every line in order")
    func heldWhileQueued() throws {
        let input = Array(String(repeating: "line\n", count: 40).utf8)
        var delivered = false
        var reader = BatchLineReader(maxLineBytes: 100) {
            defer { delivered = true }
            return delivered ? [] : input
        }
        let sink = CountingSink()
        let pipeline = BatchPipeline(jobs: 1, output: sink, progress: nil) { job in
            // The first line waits until the reader has filled the window: the lines after it are queued.
            if job.number == 1 { Thread.sleep(forTimeInterval: 0.2) }
            return BatchOutcome(line: "\(job.number)\n", exitCode: .success)
        }
        let summary = try pipeline.run(&reader)
        #expect(summary.lines == 40)
        let (text, writes) = sink.state
        #expect(text == (1...40).map { "\($0)\n" }.joined())
        #expect(writes < 30, "\(writes) writes for 40 lines")
    }

    @Test("a line with nothing queued after it is written before the next input line arrives")
    func writtenWhenNothingFollows() throws {
        let sink = CountingSink()
        var calls = 0
        var sawFirstOutput = false
        var reader = BatchLineReader(maxLineBytes: 100) {
            calls += 1
            switch calls {
            case 1: return Array("first\n".utf8)
            case 2:
                // The input pauses (an interactive client waiting for the answer): the answer must come.
                let deadline = Date().addingTimeInterval(20)
                while sink.state.text.isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
                sawFirstOutput = sink.state.text == "1\n"
                return Array("second\n".utf8)
            default: return []
            }
        }
        let pipeline = BatchPipeline(jobs: 2, output: sink, progress: nil) { job in
            BatchOutcome(line: "\(job.number)\n", exitCode: .success)
        }
        _ = try pipeline.run(&reader)
        #expect(sawFirstOutput)
        #expect(sink.state.text == "1\n2\n")
    }
}
