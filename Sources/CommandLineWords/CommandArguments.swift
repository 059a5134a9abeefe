import ArgumentParser
import CountdownCore

/// Positional values that may be negative numbers (`append ID -30`, `append ID -5m`).
/// swift-argument-parser reads `-30` as an option; such positionals are declared
/// `.allUnrecognized`, and this tells an unknown option from a value in them.
/// `--` ends the options: every word after it is a value (`append ID -- -1`).
public enum CommandArguments {
    /// The values among `words` (what an `.allUnrecognized` positional holds),
    /// without the `--` that ends the options.
    public static func values(_ words: [String]) -> [String] {
        guard let end = words.firstIndex(of: "--") else { return words }
        return Array(words[..<end] + words[(end + 1)...])
    }

    /// Throws for an unknown option among `words` before `--`, or for other than
    /// exactly one value; `missing` says what to give when there is none.
    public static func checkValues(_ words: [String], names: String, missing: String) throws {
        let options = words.firstIndex(of: "--").map { Array(words[..<$0]) } ?? words
        if let option = options.first(where: { isOption($0) }) {
            throw ValidationError("Unknown option '\(option)'")
        }
        let values = values(words)
        if values.isEmpty { throw ValidationError(missing) }
        if values.count > 1 {
            throw ValidationError("Unexpected argument '\(values[1])': give one \(names)")
        }
    }

    /// True for a word that is an option's name rather than a value: not `-`,
    /// not a number, not a negative duration (`-5m`).
    static func isOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word != "-", Double(word) == nil else { return false }
        return (try? DeadlineParser.parseSignedDuration(word)) == nil
    }
}

/// An option or argument that takes a duration (`--every 0.5`, `--critical 1m`,
/// `--quit-after 10s`, `append ID -5m`): read in the one grammar and range of
/// `DurationRange`, and refused when parsed with the range it must be in.
public enum DurationArgument {
    /// `text` as nanoseconds, or a usage error (exit 64) naming `name` and the range.
    public static func read(_ text: String, as name: String, in range: DurationRange) throws -> Nanoseconds {
        do {
            return try range.read(text)
        } catch {
            throw ValidationError("\(name) \(error)")
        }
    }
}
