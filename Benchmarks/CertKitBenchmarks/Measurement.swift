import Dispatch
import Foundation
import Glibc

/// How long and how often each case is measured.
struct MeasurementSettings: Sendable {
    /// Repetitions per case; the median is reported.
    var repetitions = 15
    /// The least wall time of one repetition, in nanoseconds.
    var minimumRepetitionNanoseconds: UInt64 = 50_000_000
    /// When true (`--cpu-time`), one-caller cases are timed with the calling thread's CPU clock instead of the
    /// wall clock, so that other work on a shared machine does not inflate them (multi-caller cases stay wall).
    var threadCPUTime = false
}

/// Times closures: calibrates the iteration count so one repetition lasts at least the minimum, then reports
/// the median time per operation over the repetitions.
struct Measurement {
    let settings: MeasurementSettings

    /// Monotonic nanoseconds.
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Nanoseconds on the clock one-caller cases are timed with (wall, or this thread's CPU time).
    func clock() -> UInt64 {
        guard settings.threadCPUTime else { return Self.now() }
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Median nanoseconds per operation of `body`, which performs `operationsPerCall` operations per call.
    func nanosecondsPerOperation(operationsPerCall: Int = 1, _ body: () -> Void) -> Double {
        body() // warm-up: first-use costs (prepared stores, lazy statics) are not measured
        let iterations = calibrate(body)
        var samples: [Double] = []
        for _ in 0..<settings.repetitions {
            let start = clock()
            for _ in 0..<iterations { body() }
            let elapsed = clock() - start
            samples.append(Double(elapsed) / Double(iterations * operationsPerCall))
        }
        return Self.median(samples)
    }

    /// Median nanoseconds per operation for a batch body that runs `count` operations and returns how many it ran
    /// (used by the concurrency benchmarks, where one call spreads work over threads).
    func nanosecondsPerOperation(batch body: (Int) -> Int) -> Double {
        _ = body(1)
        var count = 1
        while true {
            let start = Self.now()
            _ = body(count)
            let elapsed = Self.now() - start
            if elapsed >= settings.minimumRepetitionNanoseconds || count >= 1 << 24 { break }
            count = elapsed == 0 ? count * 16 : max(count * 2, Int(Double(count) * 1.2 * Double(settings.minimumRepetitionNanoseconds) / Double(elapsed)))
        }
        var samples: [Double] = []
        for _ in 0..<settings.repetitions {
            let start = Self.now()
            let done = body(count)
            samples.append(Double(Self.now() - start) / Double(max(done, 1)))
        }
        return Self.median(samples)
    }

    /// Wall nanoseconds per operation when `callers` threads (1 MiB stacks) share the operations.
    func wallNanosecondsPerOperation(callers: Int, _ operation: @escaping @Sendable () -> Void) -> Double {
        nanosecondsPerOperation { count in
            let perThread = max(1, count / callers)
            let group = DispatchGroup()
            for _ in 0..<callers {
                group.enter()
                let thread = Thread {
                    for _ in 0..<perThread { operation() }
                    group.leave()
                }
                thread.stackSize = 1 << 20
                thread.start()
            }
            group.wait()
            return perThread * callers
        }
    }

    private func calibrate(_ body: () -> Void) -> Int {
        var iterations = 1
        while true {
            let start = clock()
            for _ in 0..<iterations { body() }
            let elapsed = clock() - start
            if elapsed >= settings.minimumRepetitionNanoseconds || iterations >= 1 << 24 { return iterations }
            iterations = elapsed == 0 ? iterations * 16
                : max(iterations * 2, Int(Double(iterations) * 1.2 * Double(settings.minimumRepetitionNanoseconds) / Double(elapsed)))
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
