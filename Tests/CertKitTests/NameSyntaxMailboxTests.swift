@testable import CertKit
import Testing

/// rfc822Name validity (RFC 5280 §4.2.1.6: an RFC 5321 §4.1.2 Mailbox), the test behind
/// `rfc5280.name-constraints-valid-names` for email addresses.
@Suite("Name syntax: rfc822Name is a Mailbox")
struct NameSyntaxMailboxTests {
    @Test(arguments: [
        "x@allowed.example", "first.last@allowed.example", "a+tag@sub.allowed.example", "!#$%&'*+-/=?^_`{|}~@host",
        "\"x y\"@allowed.example", "\"a@b\"@allowed.example", "\"quote\\\"inside\"@allowed.example", "X@Allowed.Example",
    ])
    func mailboxes(_ address: String) {
        #expect(NameSyntax.isMailbox(address), "\(address)")
        #expect(NameSyntax.isValid(.email(address)), "\(address)")
    }

    @Test(arguments: [
        "x@evil.example@allowed.example", "@allowed.example", "x@", "x", "allowed.example", ".x@allowed.example",
        "x.@allowed.example", "x..y@allowed.example", "x y@allowed.example", "x@allowed.example.", "x@bad_host.example",
        "x@[192.0.2.1]", "\"\"@allowed.example", "\"open@allowed.example", "\"bad\\\u{1}\"@allowed.example",
        "x@-allowed.example", "x\u{0}@allowed.example", "ü@allowed.example", "",
    ])
    func notMailboxes(_ address: String) {
        #expect(!NameSyntax.isMailbox(address), "\(address)")
        #expect(!NameSyntax.isValid(.email(address)), "\(address)")
    }
}
