import CountdownCore

/// The `--format` of `cdscript status` and `watch --bar`: text with placeholders
/// in braces, parsed once.
///
/// | placeholder | shows |
/// | --- | --- |
/// | `{id}` | the id (control characters escaped) |
/// | `{title}` | the title (`--title`, `title =`); the id when it has none |
/// | `{name}` | the id, then ` · ` and the title when it has one (a pomodoro's `pomo · work 2/4`) |
/// | `{left}` | the time left as the timer's view shows it: `4:05`, `1:02:03`, `45`; `+0:02` past the end in overtime |
/// | `{overtime}` | the time past the end, written as `{left}` writes the time left; `0` before it |
/// | `{state}` | `running`, `paused`, `overtime` or `finished` |
/// | `{icon}` | `⏲` running, `⏸` paused, `⏰` overtime, `⏹` finished |
/// | `{progress}` | percent done, a whole number 0-100 (100 once the end has come) |
/// | `{end}` | the end in local time, `17:05:30`, with the date when not today; `-` while paused |
/// | `{d}` `{hh}` `{mm}` `{ss}` ... | any token of `countdown.format`, on the time left |
///
/// `{{` and `}}` write a brace.
public struct StatusFormat: Equatable {
    enum Field: String, CaseIterable {
        case id, left, overtime, state, icon, progress, end, title, name
    }

    enum Piece: Equatable {
        case literal(String)
        case field(Field)
        /// One token of `countdown.format`.
        case pattern(FormatPattern)
    }

    let pieces: [Piece]

    /// What `status` and `--bar` show when no `--format` is given: the icon
    /// first, so that a paused countdown (`⏸`) never reads as a running one
    /// (`⏲`) in a bar that shows text alone (tmux, polybar, a prompt); the
    /// title after the id when there is one, so that a pomodoro's phase shows.
    public static let defaultText = "{icon} {name} {left}"

    /// Every placeholder, for messages and help.
    public static var placeholders: [String] {
        Field.allCases.map { "{\($0.rawValue)}" } + FormatPattern.tokens
    }

    public init(_ text: String) throws(StatusFormatError) {
        var pieces: [Piece] = []
        var literal = ""
        var scalars = Array(text.unicodeScalars)[...]
        func flush() {
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = ""
        }
        while let c = scalars.popFirst() {
            if c == "{" {
                if scalars.first == "{" {
                    scalars.removeFirst()
                    literal.unicodeScalars.append("{")
                    continue
                }
                guard let close = scalars.firstIndex(of: "}") else { throw .unclosed(text) }
                // One scalar at a time: the view's generic `append(contentsOf:)`
                // looked up its conformances at run time (0.24 million
                // instructions of every `status` call).
                var name = ""
                for scalar in scalars[..<close] { name.unicodeScalars.append(scalar) }
                scalars = scalars[scalars.index(after: close)...]
                flush()
                if let field = Field(rawValue: name) {
                    pieces.append(.field(field))
                } else if let pattern = try? FormatPattern("{\(name)}") {
                    pieces.append(.pattern(pattern))
                } else {
                    throw .unknown("{\(name)}")
                }
            } else if c == "}" {
                guard scalars.first == "}" else { throw .unmatched(text) }
                scalars.removeFirst()
                literal.unicodeScalars.append("}")
            } else {
                literal.unicodeScalars.append(c)
            }
        }
        flush()
        self.pieces = pieces
    }

    /// True when `{end}` is used (the only field that needs the local time zone).
    var usesEnd: Bool { pieces.contains(.field(.end)) }

    /// The text for one countdown; `now` is the wall clock (UTC ns), for `{end}`.
    func render(_ countdown: ShownCountdown, now: Nanoseconds) -> String {
        var text = ""
        for piece in pieces {
            switch piece {
            case .literal(let literal): text += literal
            case .field(.id): text += VisibleText.escaped(countdown.id)
            case .field(.title): text += VisibleText.escaped(countdown.title ?? countdown.id)
            case .field(.name):
                text += VisibleText.escaped(countdown.id)
                if let title = countdown.title, title != countdown.id { text += " · " + VisibleText.escaped(title) }
            case .field(.left): text += countdown.left
            case .field(.overtime): text += countdown.overtimeText
            case .field(.state): text += countdown.state.rawValue
            case .field(.icon): text += countdown.icon
            case .field(.progress): text += String(countdown.percent)
            case .field(.end): text += countdown.endText(today: now)
            case .pattern(let pattern): text += pattern.render(countdown.shownRemaining)
            }
        }
        return text
    }
}

public enum StatusFormatError: Error, CustomStringConvertible, Equatable {
    case unknown(String)
    case unclosed(String)
    case unmatched(String)

    public var description: String {
        switch self {
        case .unknown(let name):
            return "unknown placeholder \(name); use \(StatusFormat.placeholders.joined(separator: " ")), or {{ and }} for a brace"
        case .unclosed(let text):
            return "a '{' is not closed in \"\(VisibleText.escaped(text))\" (write {{ for a brace)"
        case .unmatched(let text):
            return "a '}' closes nothing in \"\(VisibleText.escaped(text))\" (write }} for a brace)"
        }
    }
}
