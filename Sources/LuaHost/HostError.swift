/// An error raised by a host function: the message a script sees, prefixed by
/// Lua with the calling line.
struct APIError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// A failure of script code, as the command line reports it.
public struct ScriptFailure: Error, CustomStringConvertible {
    public enum Kind: Sendable {
        /// The file could not be read.
        case unreadable
        /// The file is not valid Lua.
        case syntax
        /// The main chunk raised an error.
        case runtime
    }

    public let kind: Kind
    /// The message, with `FILE:LINE:` where Lua knows it, and a traceback for runtime errors.
    public let message: String

    public var description: String { message }
}

extension APIError {
    /// A countdown whose id found no memory in the id table (ids.c).
    static func noMemoryForID(_ function: String) -> APIError {
        APIError("\(function): not enough memory to keep the countdown's id")
    }
}
