import ArgumentParser
import CountdownCore
import Foundation

/// What `watch --bar` writes, in each bar's own protocol. Every update is one
/// line, written whole; the bar reads it as soon as it ends.
///
/// - waybar (`return-type: json`): one JSON object a line, `text`, `tooltip`,
///   `class` (an array: `running`, `critical`, `paused`, `finished`, or `idle`
///   when nothing is shown) and `percentage` (of the soonest countdown); waybar
///   reads `text` and `tooltip` as Pango markup, so they are escaped as markup.
/// - i3bar and swaybar: the header `{"version":1}`, then `[`, then one array of
///   blocks a line (`,` before each but the first): `full_text`, `short_text`,
///   `name` (`cdscript`), `instance` (the id), `color` while critical or
///   paused, `urgent` once finished.
/// - polybar (`tail = true`): the text alone, an empty line when nothing is shown
///   (polybar then hides the module), with no `%{` that polybar reads as a tag.
///
/// Escaping for each bar: `BarEscaping`, on the joined line.
enum BarProtocol: String, CaseIterable, ExpressibleByArgument {
    case waybar, i3bar, polybar

    /// i3bar's colours, readable on dark and light bars alike.
    static let criticalColour = "#FF5555"
    static let pausedColour = "#999999"

    /// What comes before the first update (i3bar's header and the infinite array's `[`).
    var preamble: String? {
        self == .i3bar ? "{\"version\":1}\n[\n" : nil
    }

    /// One update: the line that shows `countdowns` (soonest first). `first` says
    /// whether it is the first update (i3bar puts a comma before the others).
    func line(_ countdowns: [BarItem], separator: String, first: Bool) -> String {
        switch self {
        case .waybar: return Self.waybar(countdowns, separator: separator)
        case .i3bar: return (first ? "" : ",") + Self.i3bar(countdowns)
        case .polybar: return BarEscaping.polybar(countdowns.map(\.text).joined(separator: separator))
        }
    }

    private static func waybar(_ countdowns: [BarItem], separator: String) -> String {
        var classes: [String] = []
        for item in countdowns where !classes.contains(item.cssClass) { classes.append(item.cssClass) }
        if classes.isEmpty { classes = ["idle"] }
        let object: [String: Any] = [
            "text": BarEscaping.pango(countdowns.map(\.text).joined(separator: separator)),
            "tooltip": BarEscaping.pango(countdowns.map(\.tooltip).joined(separator: "\n")),
            "class": classes,
            "percentage": countdowns.first?.countdown.percent ?? 0,
        ]
        return json(object)
    }

    /// i3bar reads `full_text` as markup only when a block asks for it
    /// (`"markup": "pango"`), and these blocks never do: JSON's escapes are all.
    private static func i3bar(_ countdowns: [BarItem]) -> String {
        let blocks: [[String: Any]] = countdowns.map { item in
            var block: [String: Any] = [
                "full_text": item.text,
                "short_text": item.countdown.left,
                "name": "cdscript",
                "instance": item.countdown.id,
            ]
            switch item.cssClass {
            case "critical": block["color"] = criticalColour
            case "paused": block["color"] = pausedColour
            case "finished": block["urgent"] = true
            default: break
            }
            return block
        }
        return json(blocks)
    }

    private static func json(_ value: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes]) else { return "{}" }
        // One line, whatever an id holds: JSON escapes newlines; C1 controls and
        // bidi overrides are escaped as in `list --json`.
        return VisibleText.jsonEscapingControls(String(decoding: data, as: UTF8.self))
    }
}

/// One countdown as a bar shows it.
struct BarItem: Equatable {
    let countdown: ShownCountdown
    /// `--format` applied to it.
    let text: String
    /// The tooltip line: `tea: running, 4:05 left, ends 17:05:30`.
    let tooltip: String
    /// `running`, `critical` (running, within `--critical` of its end), `paused` or `finished`.
    let cssClass: String

    init(_ countdown: ShownCountdown, format: StatusFormat, critical: Nanoseconds, now: Nanoseconds) {
        self.countdown = countdown
        text = format.render(countdown, now: now)
        let id = VisibleText.escaped(countdown.id)
        switch countdown.state {
        case .running:
            cssClass = countdown.shownRemaining <= critical ? "critical" : "running"
            tooltip = "\(id): running, \(countdown.left) left, ends \(countdown.endText(today: now))"
        case .paused:
            cssClass = "paused"
            tooltip = "\(id): paused, \(countdown.left) left"
        case .finished:
            cssClass = "finished"
            tooltip = "\(id): finished at \(countdown.endText(today: now))"
        }
    }
}
