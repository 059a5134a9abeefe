/// A parsed countdown format such as `"{d}d {hh}:{mm}:{ss}.{t}"`.
///
/// Tokens: `{d}` days; `{h}`/`{hh}` hours 0-23; `{H}` total hours; `{m}`/`{mm}`
/// minutes 0-59; `{M}` total minutes; `{s}`/`{ss}` seconds 0-59; `{S}` total
/// seconds; `{t}` tenths. `{{` and `}}` write a literal brace.
public struct FormatPattern: Sendable, Equatable {
    enum Piece: Equatable, Sendable {
        case literal(String)
        case token(Token)
    }

    enum Token: String, CaseIterable, Sendable {
        case d, h, hh, H, m, mm, M, s, ss, S, t
    }

    let pieces: [Piece]

    /// Every token a pattern may use, for error messages and docs.
    public static let tokens = Token.allCases.map { "{\($0.rawValue)}" }

    public init(_ pattern: String) throws(FormatPatternError) {
        var pieces: [Piece] = []
        var literal = ""
        var iterator = Array(pattern.unicodeScalars)[...]
        var offset = 0
        func flush() {
            if !literal.isEmpty { pieces.append(.literal(literal)); literal = "" }
        }
        while let c = iterator.popFirst() {
            offset += 1
            switch c {
            case "{":
                if iterator.first == "{" {
                    iterator.removeFirst(); offset += 1
                    literal.unicodeScalars.append("{")
                    continue
                }
                let start = offset
                var name = String.UnicodeScalarView()
                var closed = false
                while let n = iterator.popFirst() {
                    offset += 1
                    if n == "}" { closed = true; break }
                    if n == "{" { break }
                    name.append(n)
                }
                guard closed else { throw .unclosedBrace(position: start) }
                let tokenName = String(name)
                guard let token = Token(rawValue: tokenName) else {
                    throw .unknownToken("{\(tokenName)}")
                }
                flush()
                pieces.append(.token(token))
            case "}":
                if iterator.first == "}" { iterator.removeFirst(); offset += 1 }
                else { throw .unmatchedClosingBrace(position: offset) }
                literal.unicodeScalars.append("}")
            default:
                literal.unicodeScalars.append(c)
            }
        }
        flush()
        self.pieces = pieces
    }

    /// Renders a duration; negative durations render as zero.
    public func render(_ duration: Nanoseconds) -> String {
        let b = TimeBreakdown(duration)
        var out = ""
        for piece in pieces {
            switch piece {
            case .literal(let text): out += text
            case .token(let token):
                switch token {
                case .d: out += String(b.days)
                case .h: out += String(b.hours)
                case .hh: out += Self.twoDigits(b.hours)
                case .H: out += String(b.totalHours)
                case .m: out += String(b.minutes)
                case .mm: out += Self.twoDigits(b.minutes)
                case .M: out += String(b.totalMinutes)
                case .s: out += String(b.seconds)
                case .ss: out += Self.twoDigits(b.seconds)
                case .S: out += String(b.totalSeconds)
                case .t: out += String(b.tenths)
                }
            }
        }
        return out
    }

    private static func twoDigits(_ v: Int64) -> String {
        v < 10 ? "0\(v)" : String(v)
    }
}

public enum FormatPatternError: Error, Equatable, CustomStringConvertible {
    case unknownToken(String)
    case unclosedBrace(position: Int)
    case unmatchedClosingBrace(position: Int)

    public var description: String {
        switch self {
        case .unknownToken(let token):
            return "unknown format token \(token) (known: \(FormatPattern.tokens.joined(separator: " ")))"
        case .unclosedBrace(let position):
            return "unclosed '{' at character \(position) of the pattern (write '{{' for a literal brace)"
        case .unmatchedClosingBrace(let position):
            return "unmatched '}' at character \(position) of the pattern (write '}}' for a literal brace)"
        }
    }
}
