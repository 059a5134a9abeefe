/// What each bar reads in a line as something other than text, and how a line
/// is made plain text for it: one escaper per dialect, shared by `status` and
/// `watch --bar`. Ids (and titles) come from a shared store that anyone who can
/// write it fills, so none may style a bar, run a command from it or break it.
///
/// Each escaper takes the whole line once it is joined (ids, the `--format`'s
/// own text and the separator together): escaping the pieces one by one let
/// `run%`, an empty separator and `{A1:...:}` make a polybar tag between them.
/// So the format's text is text too: styling belongs in the bar's own
/// configuration, around what cdscript writes.
enum BarEscaping {
    /// Pango markup, which waybar reads in a custom module's `text` and
    /// `tooltip`: a bare `&` makes the whole module invalid markup and `<span>`
    /// styles the bar. The five characters markup gives meaning to become
    /// entities, which GMarkup (Pango's parser) reads back as themselves.
    static func pango(_ text: String) -> String {
        guard text.contains(where: { "&<>\"'".contains($0) }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }

    /// tmux reads what a `#(...)` command prints twice: it expands it as a
    /// format (`#{...}`, `#(...)`; `##` is a `#`, except that a run of `#` right
    /// before `[` is kept for the second reading), then draws it (`#[...]` is a
    /// style; a run of n `#` shows n/2, rounded up). So a run of k `#` is written
    /// 4k times (halved twice: k), or 2k times right before `[` (halved once,
    /// its `[` shown), and nothing after a `#` is ever read as one of those.
    /// Worked out and checked against tmux 3.3a (StatusBarTerminalTests).
    static func tmux(_ text: String) -> String {
        guard text.contains("#") else { return text }
        var out = String.UnicodeScalarView()
        var run = 0
        func endRun(before next: Unicode.Scalar?) {
            out.append(contentsOf: repeatElement("#", count: run * (next == "[" ? 2 : 4)))
            run = 0
        }
        for scalar in text.unicodeScalars {
            if scalar == "#" {
                run += 1
                continue
            }
            if run > 0 { endRun(before: scalar) }
            out.append(scalar)
        }
        if run > 0 { endRun(before: nil) }
        return String(out)
    }

    /// polybar reads `%{...}` in a script's output as a tag (colours, and
    /// `%{A1:command:}`, which runs the command on a click) and has no escape for
    /// it: `%{` is written `% {`, which can make no new `%{` of its own.
    static func polybar(_ text: String) -> String {
        text.contains("%{") ? text.replacing("%{", with: "% {") : text
    }
}
