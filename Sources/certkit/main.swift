import CertKitCLI
import Foundation

let status = CertKitCommand.run(
    arguments: Array(CommandLine.arguments.dropFirst()),
    stdin: FileHandleSource(FileHandle.standardInput),
    stdout: FileHandleSink(FileHandle.standardOutput),
    stderr: FileHandleSink(FileHandle.standardError))
exit(status)
