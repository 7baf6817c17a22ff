import Foundation

/// The time a bounded-work test allows: `seconds` on a plain build, times CERTKIT_SANITIZER_SLOWDOWN (which
/// Scripts/test.sh sets for the sanitizer passes, whose own cost is 5-15x). These tests prove that hostile input
/// ends in bounded work (the unbounded code took minutes); they measure no speed.
package func workBound(seconds: Double) -> Duration {
    let slowdown = ProcessInfo.processInfo.environment["CERTKIT_SANITIZER_SLOWDOWN"].flatMap(Double.init) ?? 1
    return .milliseconds(Int(seconds * max(1, slowdown) * 1000))
}
