import CountdownCore
import Foundation

/// Ids that anyone who can write a shared store may store, each aimed at one
/// way a bar reads text as something else, and what each bar must show for
/// them: the id as `list` prints it, never markup, a tag, a format or a command.
enum HostileIDs {
    static let all: [String] = [
        "R&D sync",
        #"<span foreground="red">styled</span>"#,
        #"it's "quoted" & <b>unclosed"#,
        "%{A1:touch /tmp/cdscript-polybar-ran:}click%{A}",
        "%{F#ff0000}red",
        "#[fg=red,bg=yellow]restyled",
        "#{pane_current_path}#{host}",
        "#(echo tmux-ran)",
        "## and # alone",
        "50%",
        "\u{1B}[2J\u{1B}]52;c;cHduZWQ=\u{7}esc",
        "\u{9B}31mC1",
        "bidi\u{202E}txet",
        "two\nlines\r",
        String(repeating: "x&<#%{", count: 1_700),
    ]

    /// Seconds each is stored paused with: all different, so that every command
    /// shows them in this order (soonest end first) without naming them.
    static func seconds(_ index: Int) -> Int { 100 + index }

    /// Stores them all, paused, with `store` (`--state-dir DIR` or `--store URL ...`).
    static func seed(_ store: [String]) throws {
        let lines = all.enumerated().map { index, id in
            "countdown.start{ id = \(luaString(id)), seconds = \(seconds(index)), persist = true }:pause()"
        }
        let seeded = try LiveProcess.run(store + [Scratch.script(lines.joined(separator: "\n") + "\nos.exit(0)")])
        precondition(seeded.status == 0, "seeding the hostile ids failed: \(seeded.stderr)")
    }

    /// A Lua string literal holding exactly `text`: every byte as `\xHH`.
    static func luaString(_ text: String) -> String {
        "\"" + text.utf8.map { byte in "\\x" + String(byte, radix: 16).leftPadded(2) }.joined() + "\""
    }

    /// What `{id}` shows of each: control characters escaped, as `list` prints it.
    static var shown: [String] { all.map(VisibleText.escaped) }

    /// The time left of each, as the view shows it (`1:40`).
    static func left(_ index: Int) -> String {
        let s = seconds(index)
        return "\(s / 60):" + String(s % 60).leftPadded(2, with: "0")
    }

    /// Terminal controls a line must not hold raw: C0 but tab and newline, DEL, C1, bidi overrides.
    static func rawControls(_ text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter { value in
            (value < 0x20 && value != 0x0A && value != 0x09) || (0x7F...0x9F).contains(value)
                || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
        }
    }

    /// What polybar shows of a line: nil when it holds a `%{` (polybar reads a tag);
    /// else the line, with polybar's `% {` read back (no id here holds `% {` itself).
    static func polybarShows(_ line: String) -> String? {
        line.contains("%{") ? nil : line.replacingOccurrences(of: "% {", with: "%{")
    }

    /// What tmux shows of `#(...)`'s output, read as tmux 3.3a reads it (twice:
    /// a format, then drawn): a run of n `#` before `[` shows n/2 and its `[`
    /// literally when n is even; any other run shows n/4 when n is a multiple of 4.
    /// nil for any other run: tmux would read a style, a format or a command.
    static func tmuxShows(_ line: String) -> String? {
        var shown = ""
        var run = 0
        for c in line.unicodeScalars + [" "] {
            if c == "#" {
                run += 1
                continue
            }
            if run > 0 {
                let divisor = c == "[" ? 2 : 4
                guard run % divisor == 0 else { return nil }
                shown += String(repeating: "#", count: run / divisor)
                run = 0
            }
            shown.unicodeScalars.append(c)
        }
        return String(shown.dropLast())
    }

    /// Markup's five entities read back; nil when a `<`, a `>` or a `&` that starts
    /// no entity is left (the text would be markup, or invalid markup).
    static func entitiesRead(_ text: String) -> String? {
        guard !text.contains("<"), !text.contains(">") else { return nil }
        var out = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            rest = rest[amp...]
            guard let (entity, character) = [("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'")]
                .first(where: { rest.hasPrefix($0.0) }) else { return nil }
            out += character
            rest = rest.dropFirst(entity.count)
        }
        return out + rest
    }
}

extension String {
    func leftPadded(_ width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
