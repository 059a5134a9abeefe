/// A shell-style pattern over countdown ids (`cdscript cancel --match 'exam-*'`):
/// `*` any run of characters (`/` included: ids are not paths), `?` one character,
/// `[abc]`, `[a-z]` and `[!abc]` one of a set, `\x` the character x itself.
/// Characters are Unicode scalars, so `?` matches `é` whole.
public struct IDPattern: Sendable {
    private enum Piece: Sendable {
        case literal(Unicode.Scalar)
        case any
        case run
        case set([ClosedRange<Unicode.Scalar>], negated: Bool)
    }

    private let pieces: [Piece]
    /// The pattern as written.
    public let text: String

    /// Reads `text`; throws, with the reason, when a `[` is not closed, a range runs
    /// backwards or a `\` ends it.
    public init(_ text: String) throws(IDPatternError) {
        var pieces: [Piece] = []
        var scalars = Array(text.unicodeScalars)[...]
        while let c = scalars.popFirst() {
            switch c {
            case "*": if case .run? = pieces.last {} else { pieces.append(.run) }
            case "?": pieces.append(.any)
            case "\\":
                // As fnmatch(3): a backslash that ends the pattern escapes nothing.
                guard let next = scalars.popFirst() else { throw IDPatternError(pattern: text, reason: "a \\ at the end escapes nothing") }
                pieces.append(.literal(next))
            case "[": pieces.append(try Self.set(&scalars, in: text))
            default: pieces.append(.literal(c))
            }
        }
        self.pieces = pieces
        self.text = text
    }

    /// `[...]` after its `[`: the set, and `scalars` past its `]`.
    private static func set(_ scalars: inout ArraySlice<Unicode.Scalar>, in text: String) throws(IDPatternError) -> Piece {
        let negated = scalars.first == "!" || scalars.first == "^"
        if negated { scalars.removeFirst() }
        var ranges: [ClosedRange<Unicode.Scalar>] = []
        var first = true
        while let c = scalars.popFirst() {
            // A `]` first in the set is a member, as in the shell.
            if c == "]" && !first { return .set(ranges, negated: negated) }
            first = false
            // POSIX's [:class:], [.symbol.] and [=class=]: not read here, and refused
            // rather than taken as plain characters (fnmatch would read them).
            if c == "[", let next = scalars.first, next == ":" || next == "." || next == "=" {
                throw IDPatternError(pattern: text, reason: "[\(next) ... \(next)] inside a set is not supported; escape the [ as \\[")
            }
            let low = c == "\\" ? (scalars.popFirst() ?? "\\") : c
            if scalars.first == "-", scalars.dropFirst().first.map({ $0 != "]" }) == true {
                scalars.removeFirst()
                var high = scalars.removeFirst()
                if high == "\\" { high = scalars.popFirst() ?? "\\" }
                guard low <= high else { throw IDPatternError(pattern: text, reason: "the range \(low)-\(high) runs backwards") }
                ranges.append(low...high)
            } else {
                ranges.append(low...low)
            }
        }
        throw IDPatternError(pattern: text, reason: "a [ is not closed by ]")
    }

    /// True when `id` matches the whole pattern.
    public func matches(_ id: String) -> Bool {
        let text = Array(id.unicodeScalars)
        // Iterative matching with one backtrack point for the last `*`: linear in
        // practice, and never exponential on hostile patterns such as `*a*a*a*b`.
        var p = 0, t = 0
        var star: (piece: Int, text: Int)?
        while t < text.count {
            if p < pieces.count, Self.accepts(pieces[p], text[t]) {
                p += 1; t += 1
            } else if p < pieces.count, case .run = pieces[p] {
                star = (p, t); p += 1
            } else if let last = star {
                star = (last.piece, last.text + 1)
                p = last.piece + 1; t = last.text + 1
            } else {
                return false
            }
        }
        while p < pieces.count, case .run = pieces[p] { p += 1 }
        return p == pieces.count
    }

    private static func accepts(_ piece: Piece, _ c: Unicode.Scalar) -> Bool {
        switch piece {
        case .literal(let l): return l == c
        case .any: return true
        case .run: return false
        case .set(let ranges, let negated): return ranges.contains { $0.contains(c) } != negated
        }
    }
}

/// Why a text is not an id pattern.
public struct IDPatternError: Error, CustomStringConvertible, Sendable {
    public var pattern: String
    public var reason: String
    public var description: String { "the pattern \(pattern.debugDescription) is not valid: \(reason)" }
}
