extension BundleDecoder {
    /// The certificate entries that did not parse, when skipping; otherwise each failure is rethrown.
    struct UndecodableList {
        let skipping: Bool
        var entries: [CertificateBundle.Undecodable] = []
        /// Certificate entries seen so far (decoded or not): the next entry's index.
        var seen = 0

        /// Counts one certificate entry and parses it with `parse`; a failure is listed (when skipping) or thrown.
        mutating func entry(
            _ parse: () throws(CertificateDecodingError) -> Certificate
        ) throws(CertificateDecodingError) -> Certificate? {
            let index = seen
            seen += 1
            do {
                return try parse()
            } catch {
                guard skipping else { throw error }
                entries.append(CertificateBundle.Undecodable(index: index, reason: error.message))
                return nil
            }
        }
    }
}
