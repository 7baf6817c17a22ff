import Foundation

/// Where a command writes bytes (standard output, standard error, or memory in tests).
public protocol ByteSink: AnyObject {
    /// Writes `bytes` as they are.
    func write(_ bytes: [UInt8])
}

extension ByteSink {
    /// Writes `text` as UTF-8.
    func write(_ text: String) { write(Array(text.utf8)) }
}

/// Where a command reads standard input from.
public protocol ByteSource: AnyObject {
    /// Reads everything up to `limit` bytes; returns at most `limit + 1` bytes so callers can tell it was larger.
    func readAll(limit: Int) throws -> [UInt8]
    /// Reads the next bytes, at most `count`; an empty result means the end of the input (`--batch` streams).
    func read(upToCount count: Int) throws -> [UInt8]
}

/// A sink over a `FileHandle` (the process's standard output or error).
public final class FileHandleSink: ByteSink {
    private let handle: FileHandle

    /// Creates a sink writing to `handle`.
    public init(_ handle: FileHandle) { self.handle = handle }

    public func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        try? handle.write(contentsOf: Data(bytes))
    }

    /// True when this sink writes to a terminal (lint colours its table only then).
    var isTerminal: Bool { isatty(handle.fileDescriptor) == 1 }

    /// The width of the terminal this sink writes to, or nil when it is not a terminal.
    var terminalColumns: Int? {
        let descriptor = handle.fileDescriptor
        guard isatty(descriptor) == 1 else { return nil }
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}

/// A source over a `FileHandle` (the process's standard input).
public final class FileHandleSource: ByteSource {
    private let handle: FileHandle

    /// Creates a source reading from `handle`.
    public init(_ handle: FileHandle) { self.handle = handle }

    public func readAll(limit: Int) throws -> [UInt8] {
        var bytes = [UInt8]()
        while bytes.count <= limit {
            guard let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty else { break }
            bytes.append(contentsOf: chunk)
        }
        return Array(bytes.prefix(limit + 1))
    }

    public func read(upToCount count: Int) throws -> [UInt8] {
        guard let chunk = try handle.read(upToCount: count) else { return [] }
        return Array(chunk)
    }
}

/// A sink that collects everything written, for tests.
public final class MemorySink: ByteSink {
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty sink.
    public init() {}

    /// What was written, decoded as UTF-8.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public func write(_ bytes: [UInt8]) { self.bytes.append(contentsOf: bytes) }
}

/// A source of fixed bytes, for tests.
public final class MemorySource: ByteSource {
    private let bytes: [UInt8]
    private var position = 0

    /// Creates a source that yields `bytes`.
    public init(_ bytes: [UInt8] = []) { self.bytes = bytes }

    public func readAll(limit: Int) throws -> [UInt8] { Array(bytes.prefix(limit + 1)) }

    public func read(upToCount count: Int) throws -> [UInt8] {
        let end = min(bytes.count, position + max(0, count))
        defer { position = end }
        return Array(bytes[position..<end])
    }
}
