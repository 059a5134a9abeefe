import CountdownCore
import FoundationEssentials

/// What `watch --bar` writes, in each bar's own protocol. Every update is one
/// line, written whole; the bar reads it as soon as it ends.
///
/// - waybar (`return-type: json`): one JSON object a line, `text`, `tooltip`
///   (a line per countdown, with its end in local time), `class` (an array of
///   what the countdowns are: `running`, `critical` beside `running`, `paused`,
///   `overtime`, `finished`, or `idle` when nothing is shown), `alt` (the
///   soonest countdown's state, or `idle`, for `format-icons`) and `percentage`
///   (of the soonest countdown); waybar reads `text` and `tooltip` as Pango
///   markup, so they are escaped as markup.
/// - i3bar and swaybar: the header `{"click_events":true,"version":1}`, then
///   `[`, then one array of blocks a line (`,` before each but the first):
///   `full_text`, `short_text`, `name` (`cdscript`), `instance` (the id), `color`
///   while critical, paused or in overtime, `urgent` once finished. The bar's
///   clicks come back on standard input (`BarClicks`).
/// - polybar (`tail = true`): the text alone, an empty line when nothing is shown
///   (polybar then hides the module), with no `%{` that polybar reads as a tag.
///
/// Escaping for each bar: `BarEscaping`, on the joined line.
public enum BarProtocol: String, CaseIterable, Sendable {
    case waybar, i3bar, polybar

    /// i3bar's colours, readable on dark and light bars alike.
    static let criticalColour = "#FF5555"
    static let pausedColour = "#999999"
    static let overtimeColour = "#FFB86C"
    /// The `name` of every i3bar block this bar writes (clicks name it back).
    static let blockName = "cdscript"

    /// What comes before the first update (i3bar's header, which asks for click
    /// events, and the infinite array's `[`).
    public var preamble: String? {
        self == .i3bar ? "{\"click_events\":true,\"version\":1}\n[\n" : nil
    }

    /// One update: the line that shows `countdowns` (soonest first) and, when
    /// `more` is above 0, how many others there are (`+N` after the separator; in
    /// i3bar a block of its own, with no instance, which no click acts on).
    /// `first` says whether it is the first update (i3bar puts a comma before the others).
    func line(_ countdowns: [BarItem], separator: String, first: Bool, more: Int = 0) -> String {
        switch self {
        case .waybar: return Self.waybar(countdowns, separator: separator, more: more)
        case .i3bar: return (first ? "" : ",") + Self.i3bar(countdowns, more: more)
        case .polybar: return BarEscaping.polybar(Self.text(countdowns, separator: separator, more: more))
        }
    }

    /// The countdowns' texts joined, and `+N` for the others.
    private static func text(_ countdowns: [BarItem], separator: String, more: Int) -> String {
        let texts = countdowns.map(\.text) + (more > 0 ? ["+\(more)"] : [])
        return texts.joined(separator: separator)
    }

    private static func waybar(_ countdowns: [BarItem], separator: String, more: Int) -> String {
        var classes: [String] = []
        for item in countdowns {
            for name in item.classes where !classes.contains(name) { classes.append(name) }
        }
        if classes.isEmpty { classes = ["idle"] }
        let object: [String: JSONValue] = [
            "text": .string(BarEscaping.pango(text(countdowns, separator: separator, more: more))),
            "tooltip": .string(BarEscaping.pango((countdowns.map(\.tooltip) + (more > 0 ? ["+\(more) more"] : [])).joined(separator: "\n"))),
            "class": .array(classes.map { .string($0) }),
            "alt": .string(countdowns.first?.countdown.state.rawValue ?? "idle"),
            "percentage": .int(countdowns.first?.countdown.percent ?? 0),
        ]
        return json(.object(object))
    }

    /// i3bar reads `full_text` as markup only when a block asks for it
    /// (`"markup": "pango"`), and these blocks never do: JSON's escapes are all.
    private static func i3bar(_ countdowns: [BarItem], more: Int) -> String {
        var blocks: [JSONValue] = countdowns.map { item in
            var block: [String: JSONValue] = [
                "full_text": .string(item.text),
                "short_text": .string(item.countdown.left),
                "name": .string(blockName),
                "instance": .string(item.countdown.id),
            ]
            switch item.countdown.state {
            case .running where item.isCritical: block["color"] = .string(criticalColour)
            case .paused: block["color"] = .string(pausedColour)
            case .overtime: block["color"] = .string(overtimeColour)
            case .finished: block["urgent"] = .bool(true)
            case .running: break
            }
            return .object(block)
        }
        if more > 0 { blocks.append(.object(["full_text": .string("+\(more)"), "name": .string(blockName)])) }
        return json(.array(blocks))
    }

    private static func json(_ value: JSONValue) -> String {
        // One line, whatever an id holds: JSON escapes newlines; C1 controls and
        // bidi overrides are escaped as in `list --json`.
        return VisibleText.jsonEscapingControls(value.text())
    }
}

/// One countdown as a bar shows it.
struct BarItem: Equatable {
    let countdown: ShownCountdown
    /// `--format` applied to it.
    let text: String
    /// The tooltip line, with the end in local time: `tea: running, 4:05 left,
    /// ends 17:05:30`, `tea: overtime, +2 past its end at 17:05:30`.
    let tooltip: String
    /// Running, within `--critical` of its end.
    let isCritical: Bool

    /// waybar's classes for it: its state, and `critical` beside `running`.
    var classes: [String] {
        isCritical ? ["running", "critical"] : [countdown.state.rawValue]
    }

    init(_ countdown: ShownCountdown, format: StatusFormat, critical: Nanoseconds, now: Nanoseconds) {
        self.countdown = countdown
        text = format.render(countdown, now: now)
        isCritical = countdown.state == .running && countdown.shownRemaining <= critical
        let id = VisibleText.escaped(countdown.id)
        switch countdown.state {
        case .running:
            tooltip = "\(id): running, \(countdown.left) left, ends \(countdown.endText(today: now))"
        case .paused:
            tooltip = "\(id): paused, \(countdown.left) \(countdown.isPastEnd ? "past its end" : "left")"
        case .overtime:
            tooltip = "\(id): overtime, \(countdown.left) past its end at \(countdown.endText(today: now))"
        case .finished:
            tooltip = "\(id): finished at \(countdown.endText(today: now))"
        }
    }
}
