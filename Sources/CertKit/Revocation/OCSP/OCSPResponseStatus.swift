/// OCSPResponseStatus (RFC 6960 §4.2.1). Only ``successful`` carries an answer; every other status is no answer.
public enum OCSPResponseStatus: Int, Sendable, Hashable, CustomStringConvertible {
    /// The response has valid confirmations.
    case successful = 0
    /// Illegal confirmation request.
    case malformedRequest = 1
    /// Internal error in the issuer.
    case internalError = 2
    /// Try again later.
    case tryLater = 3
    /// Must sign the request.
    case sigRequired = 5
    /// Request unauthorized.
    case unauthorized = 6

    public var description: String {
        switch self {
        case .successful: "successful"
        case .malformedRequest: "malformedRequest"
        case .internalError: "internalError"
        case .tryLater: "tryLater"
        case .sigRequired: "sigRequired"
        case .unauthorized: "unauthorized"
        }
    }
}
