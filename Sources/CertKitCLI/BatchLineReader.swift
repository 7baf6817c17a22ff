import Foundation

/// Splits a byte stream into lines as it is read, never holding more than one chunk and one line (at most
/// `maxLineBytes`): a longer line is reported by its length and its bytes are skipped. A line that lies within
/// one chunk is a slice of it (no copy; the chunk is freed with its last line, so a worker thread frees one
/// buffer per chunk, not one per line); a line across chunks is copied.
struct BatchLineReader {
    /// One line of the input.
    enum Line: Sendable {
        /// The line's bytes, without the newline (and without a `\r` before it).
        case text(ArraySlice<UInt8>)
        /// A line longer than the cap: its length in bytes.
        case tooLong(Int)
    }

    /// Reads the next chunk; an empty chunk is the end of the input.
    private let readChunk: () throws -> [UInt8]
    private let maxLineBytes: Int
    private var chunk: [UInt8] = []
    private var position = 0
    private var current: [UInt8] = []
    /// The length of the line being skipped, or nil when the current line is within the cap.
    private var skipping: Int?
    private var ended = false

    /// The number of the last line returned (1 for the first).
    private(set) var lineNumber = 0
    /// Bytes of input consumed by the lines returned so far.
    private(set) var bytesConsumed = 0

    /// The chunk size used to read.
    static let chunkSize = 1 << 16

    init(maxLineBytes: Int, readChunk: @escaping () throws -> [UInt8]) {
        self.maxLineBytes = maxLineBytes
        self.readChunk = readChunk
    }

    /// The next line, or nil at the end of the input.
    mutating func next() throws -> Line? {
        while true {
            if position == chunk.count {
                if ended { return nil }
                chunk = try readChunk()
                position = 0
                if chunk.isEmpty {
                    ended = true
                    // A last line without a newline.
                    if let length = skipping { return finish(.tooLong(length), consumed: length) }
                    if !current.isEmpty { return finish(.text(current[...]), consumed: current.count) }
                    return nil
                }
            }
            let newline = chunk.withUnsafeBufferPointer { buffer -> Int? in
                let start = buffer.baseAddress! + position
                guard let found = memchr(start, 0x0A, buffer.count - position) else { return nil }
                return position + (UnsafeRawPointer(found) - UnsafeRawPointer(start))
            }
            let end = newline ?? chunk.count
            let piece = end - position
            if newline != nil, current.isEmpty, skipping == nil, piece <= maxLineBytes {
                // The whole line is in this chunk: a slice.
                var line = chunk[position..<end]
                position = end + 1
                if line.last == 0x0D { line = line.dropLast() }
                return finish(.text(line), consumed: piece + 1)
            }
            if let length = skipping {
                skipping = length + piece
            } else if current.count + piece > maxLineBytes {
                skipping = current.count + piece
                current = []
            } else {
                current.append(contentsOf: chunk[position..<end])
            }
            position = end
            guard newline != nil else { continue }
            position += 1
            if let length = skipping {
                return finish(.tooLong(length), consumed: length + 1)
            }
            let consumed = current.count + 1
            if current.last == 0x0D { current.removeLast() }
            return finish(.text(current[...]), consumed: consumed)
        }
    }

    private mutating func finish(_ line: Line, consumed: Int) -> Line {
        lineNumber += 1
        bytesConsumed += consumed
        current = []
        skipping = nil
        return line
    }
}
