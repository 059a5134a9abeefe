import ArgumentParser

/// Positional values that may be negative numbers (`append ID -30`, `timer -5`).
/// swift-argument-parser reads `-30` as an option; such positionals are declared
/// `.allUnrecognized`, and this tells an unknown option from a value in them.
enum CommandArguments {
    /// Throws for an unknown option among `values`, or for more than one value.
    static func checkValues(_ values: [String], names: String) throws {
        if let option = values.first(where: { $0.hasPrefix("-") && Double($0) == nil && $0 != "-" }) {
            throw ValidationError("Unknown option '\(option)'")
        }
        if values.count > 1 {
            throw ValidationError("Unexpected argument '\(values[1])': give one \(names)")
        }
    }
}
