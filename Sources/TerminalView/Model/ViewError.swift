/// A mistake in a script's use of the view: unknown or duplicate ids, keys bound
/// twice, wrong field types. The message names the problem; the Lua binding
/// prefixes the function and Lua the calling line.
public struct ViewError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
