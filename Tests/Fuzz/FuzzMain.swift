// libFuzzer entry point over everything in certkit that takes bytes from outside. Built with -DFUZZING by
// Scripts/fuzz.sh; without that flag this is a plain executable that replays files through a target (for
// reproducing an artifact without the sanitizers). The file is always parsed as a library (SwiftPM sees
// `@main` and no main.swift), so it has no top-level code in either configuration.
import Foundation
#if FUZZING
import Glibc
#endif

#if FUZZING
/// The target chosen by CERTKIT_FUZZ_TARGET (see ``FuzzTarget``), read once.
let selectedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["CERTKIT_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(name: name) else {
        FileHandle.standardError.write(Data(
            "CERTKIT_FUZZ_TARGET must be one of: \(FuzzTarget.all.map(\.name).joined(separator: " "))\n".utf8))
        exit(2)
    }
    return target
}()

/// Feeds one input to the selected target; any crash, trap or sanitizer report is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    selectedTarget.run(Array(UnsafeBufferPointer(start: data, count: size)))
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
/// `CertKitFuzz TARGET FILE...` runs each file through the target once.
@main
enum CertKitFuzz {
    static func main() {
        #if FUZZING
        _ = selectedTarget
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) }
        exit(status)
        #else
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(name: name) else {
            print("usage: CertKitFuzz TARGET FILE...   (targets: \(FuzzTarget.all.map(\.name).joined(separator: " ")))")
            print("       Scripts/fuzz.sh builds the real fuzzer (libFuzzer + AddressSanitizer)")
            return
        }
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot read")
                continue
            }
            target.run([UInt8](data))
            print("\(path): ok")
        }
        #endif
    }
}
