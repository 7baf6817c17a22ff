import CertKit

/// How every command prints a distinguished name (`inspect`, `evaluate`, `trust list`/`show`/`remove`/`export`):
/// its RFC 4514 string, as ``DistinguishedName/description`` makes it. That string is already safe to print — a
/// control character is written as an RFC 4514 hex escape (ESC as `\1B`), by the ``DisplayText`` rule — so it is
/// never passed through ``DisplayText/escaped(_:)`` again: that would double every backslash (`\\1B`), and the
/// same certificate would read differently in `inspect` and in `trust list`.
enum NameText {
    /// The name as every command prints it, in text and in JSON.
    static func display(_ name: DistinguishedName) -> String { name.description }
}
