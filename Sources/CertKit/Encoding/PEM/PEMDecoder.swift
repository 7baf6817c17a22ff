/// Reads PEM tolerantly: any number of blocks, any line width, CRLF, spaces and tabs inside the base64,
/// RFC 1421 header lines (`Proc-Type: ...`), and any text before, between and after blocks.
/// Broken blocks (no END line, mismatched END label, bad base64) are errors naming the block (labels quoted in
/// errors are clipped). Linear in the input; at most ``Limits/maxPEMBlocks`` blocks.
enum PEMDecoder {
    private static let beginMarker = Array("-----BEGIN ".utf8)
    private static let endMarker = Array("-----END ".utf8)
    private static let dashes = Array("-----".utf8)

    static func decode(_ text: [UInt8], limits: Limits) throws(CertificateDecodingError) -> [PEMBlock] {
        guard text.count <= limits.maxInputBytes else {
            throw .limit("input of \(text.count) bytes is larger than \(limits.maxInputBytes)", "maxInputBytes")
        }
        var blocks: [PEMBlock] = []
        var position = 0
        while let begin = find(beginMarker, in: text, from: position, to: text.count) {
            let number = blocks.count + 1
            guard number <= limits.maxPEMBlocks else {
                throw .limit("more than \(limits.maxPEMBlocks) PEM blocks", "maxPEMBlocks")
            }
            let labelStart = begin + beginMarker.count
            guard let labelEnd = findOnLine(dashes, in: text, from: labelStart) else {
                throw CertificateDecodingError(.malformedPEM, "PEM block \(number): malformed BEGIN line")
            }
            let label = String(decoding: text[labelStart..<labelEnd], as: UTF8.self)
            let bodyStart = labelEnd + dashes.count
            // One scan for the next dashes run: it must be this block's END, not another BEGIN.
            var end: Int?
            var search = bodyStart
            while let dashesAt = find(dashes, in: text, from: search, to: text.count) {
                if hasPrefix(endMarker, in: text, at: dashesAt) { end = dashesAt; break }
                if hasPrefix(beginMarker, in: text, at: dashesAt) {
                    throw CertificateDecodingError(.malformedPEM, "PEM block \(number) (\(MessageText.line(label))): missing END line before the next BEGIN")
                }
                search = dashesAt + 1
            }
            guard let end else {
                throw CertificateDecodingError(.malformedPEM, "PEM block \(number) (\(MessageText.line(label))): missing END line")
            }
            let endLabelStart = end + endMarker.count
            guard let endLabelEnd = findOnLine(dashes, in: text, from: endLabelStart) else {
                throw CertificateDecodingError(.malformedPEM, "PEM block \(number) (\(MessageText.line(label))): malformed END line")
            }
            let endLabel = String(decoding: text[endLabelStart..<endLabelEnd], as: UTF8.self)
            guard endLabel == label else {
                throw CertificateDecodingError(.malformedPEM, "PEM block \(number): BEGIN \(MessageText.line(label)) is closed by END \(MessageText.line(endLabel))")
            }
            guard let bytes = decodeBody(text, from: bodyStart, to: end) else {
                throw CertificateDecodingError(.malformedPEM, "PEM block \(number) (\(MessageText.line(label))): invalid base64")
            }
            blocks.append(PEMBlock(label: label, bytes: bytes))
            position = endLabelEnd + dashes.count
        }
        return blocks
    }

    /// Decodes a block body; on failure retries without leading RFC 1421 header lines.
    private static func decodeBody(_ text: [UInt8], from start: Int, to end: Int) -> [UInt8]? {
        if let bytes = Base64.decode(text, from: start, to: end) { return bytes }
        var index = start
        var sawHeader = false
        while index < end {
            var lineEnd = index
            while lineEnd < end && text[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            let line = text[index..<lineEnd]
            let next = min(lineEnd + 1, end)
            if line.contains(UInt8(ascii: ":")) {
                sawHeader = true
                index = next
            } else if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
                index = next
                if sawHeader { break }
            } else {
                break
            }
        }
        guard sawHeader else { return nil }
        return Base64.decode(text, from: index, to: end)
    }

    /// The index of the first occurrence of `pattern` in `text[from..<to]`.
    private static func find(_ pattern: [UInt8], in text: [UInt8], from: Int, to: Int) -> Int? {
        guard let first = pattern.first, from >= 0, to <= text.count, to - from >= pattern.count else { return nil }
        return text.withUnsafeBufferPointer { buffer -> Int? in
            var index = from
            let last = to - pattern.count
            while index <= last, let candidate = firstIndex(of: first, in: buffer, from: index, to: last + 1) {
                if hasPrefix(pattern, in: buffer, at: candidate) { return candidate }
                index = candidate + 1
            }
            return nil
        }
    }

    /// The first index of `byte` in `buffer[from..<to]`, eight bytes at a time (a block body is mostly base64
    /// with no dash in it, and every marker starts with one).
    static func firstIndex(of byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        guard let base = buffer.baseAddress, from >= 0, to <= buffer.count else { return nil }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let pattern = UInt64(byte) &* ones
        var index = from
        while to - index >= 8 {
            // A zero byte in word ^ pattern is an occurrence; the lowest flagged byte is exact (little-endian).
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) ^ pattern
            let found = (word &- ones) & ~word & (ones &* 0x80)
            if found != 0 { return index + found.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < to {
            if base[index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// True when `text[at...]` starts with `pattern`.
    private static func hasPrefix(_ pattern: [UInt8], in text: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        guard index >= 0, text.count - index >= pattern.count else { return false }
        for offset in 0..<pattern.count where text[index + offset] != pattern[offset] { return false }
        return true
    }

    private static func hasPrefix(_ pattern: [UInt8], in text: [UInt8], at index: Int) -> Bool {
        text.withUnsafeBufferPointer { hasPrefix(pattern, in: $0, at: index) }
    }

    /// The index of `pattern` (which holds no newline) between `from` and the end of that line: one forward scan that stops at the first
    /// newline (scanning to the line end first would make a file of many blocks on one line quadratic).
    private static func findOnLine(_ pattern: [UInt8], in text: [UInt8], from: Int) -> Int? {
        guard let first = pattern.first, from >= 0 else { return nil }
        return text.withUnsafeBufferPointer { buffer -> Int? in
            var index = from
            while index < buffer.count {
                let byte = buffer[index]
                if byte == UInt8(ascii: "\n") { return nil }
                if byte == first && hasPrefix(pattern, in: buffer, at: index) { return index }
                index += 1
            }
            return nil
        }
    }
}
