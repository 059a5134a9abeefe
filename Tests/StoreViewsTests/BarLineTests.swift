import CountdownCore
import Foundation
import Testing
@testable import StoreViews

private let s = Time.nanosecondsPerSecond

/// A countdown of `seconds` stored at boot time 100 s, wall time 1_000_000 s.
private func record(_ id: String, seconds: Int64, overtime: Bool = false) -> StoredCountdown {
    StoredCountdown(id: id, state: .running, kind: .duration, wallDeadline: (1_000_000 + seconds) * s, every: s,
                    total: seconds * s, bootID: "A", bootDeadline: (100 + seconds) * s, updatedAt: 1_000_000 * s, overtime: overtime)
}

/// `offset` nanoseconds after the records above were stored.
private func after(_ offset: Nanoseconds) -> StoreInstant {
    StoreInstant(boot: 100 * s + offset, wall: 1_000_000 * s + offset, bootID: "A")
}

private func waybarObject(_ items: [BarItem]) throws -> [String: Any] {
    let line = BarProtocol.waybar.line(items, separator: "  ", first: true)
    return try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
}

@Suite("What status and the bars show of one countdown")
struct ShownCountdownTests {
    @Test("an overtime countdown 2.9 s past its end is overtime, 100 %, +0:02 in {left} (as the view counts up) and 2 in {overtime} (whole seconds past it)")
    func overtimePastItsEnd() throws {
        let shown = ShownCountdown(record("pomodoro", seconds: 60, overtime: true), at: after(62_900_000_000))
        #expect(shown.state == .overtime)
        #expect(shown.pastEnd == 2_900_000_000)
        #expect(shown.percent == 100)
        let format = try StatusFormat("{state}|{left}|{overtime}|{progress}|{icon}")
        #expect(format.render(shown, now: 0) == "overtime|+0:02|2|100|⏰")
        let long = ShownCountdown(record("exam", seconds: 60, overtime: true), at: after(60 * s + 125 * s + 500_000_000))
        #expect(format.render(long, now: 0) == "overtime|+2:05|2:05|100|⏰")
    }

    @Test("before its end an overtime countdown is running, and {overtime} is 0")
    func overtimeBeforeItsEnd() throws {
        let shown = ShownCountdown(record("pomodoro", seconds: 60, overtime: true), at: after(15 * s))
        #expect(try StatusFormat("{state} {left} {overtime} {progress}").render(shown, now: 0) == "running 45 0 25")
    }

    @Test("the default text tells paused from running without colour: ⏸ and ⏲")
    func defaultTextMarksPaused() throws {
        var held = record("held", seconds: 90)
        _ = held.pause(at: after(0))
        let format = try StatusFormat(StatusFormat.defaultText)
        #expect(format.render(ShownCountdown(held, at: after(5 * s)), now: 0) == "⏸ held 1:30")
        #expect(format.render(ShownCountdown(record("tea", seconds: 300), at: after(0)), now: 0) == "⏲ tea 5:00")
    }

    @Test("the default text puts the title after the id (a pomodoro's phase); untitled, or titled as its id, it shows the id alone")
    func defaultTextShowsTitle() throws {
        let format = try StatusFormat(StatusFormat.defaultText)
        var pomo = record("pomo", seconds: 1500)
        pomo.title = "work 2/4"
        #expect(format.render(ShownCountdown(pomo, at: after(0)), now: 0) == "⏲ pomo · work 2/4 25:00")
        var tea = record("tea", seconds: 300)
        tea.title = "tea"
        #expect(format.render(ShownCountdown(tea, at: after(0)), now: 0) == "⏲ tea 5:00")
        #expect(try StatusFormat("{name}").render(ShownCountdown(record("x", seconds: 5), at: after(0)), now: 0) == "x")
    }

    @Test("overtime countdowns come first (their end has come), then running, paused, finished")
    func order() {
        let now = after(70 * s)
        var paused = record("p", seconds: 100)
        _ = paused.pause(at: after(0))
        let all = [record("f", seconds: 10), paused, record("r", seconds: 500), record("o", seconds: 60, overtime: true)]
            .map { ShownCountdown($0, at: now) }
        #expect(all.sorted(by: ShownCountdown.soonestFirst).map(\.id) == ["o", "r", "p", "f"])
    }
}

@Suite("The lines the bars read")
struct BarLineTests {
    @Test("waybar: class lists critical beside running, alt is the soonest one's state, the tooltip holds the end")
    func waybarFields() throws {
        let now = after(250 * s)
        let items = [ShownCountdown(record("tea", seconds: 300), at: now)]
            .map { BarItem($0, format: try! StatusFormat("{id} {left}"), critical: 60 * s, now: now.wall) }
        let object = try waybarObject(items)
        #expect(object["class"] as? [String] == ["running", "critical"])
        #expect(object["alt"] as? String == "running")
        #expect(object["text"] as? String == "tea 50")
        let end = ShownCountdown(record("tea", seconds: 300), at: now).endText(today: now.wall)
        #expect(object["tooltip"] as? String == "tea: running, 50 left, ends \(end)")
        #expect(object["percentage"] as? Int == 83)
        let idle = try waybarObject([])
        #expect(idle["alt"] as? String == "idle" && idle["class"] as? [String] == ["idle"])
    }

    @Test("an overtime countdown has its own waybar class and alt and i3bar colour, and is neither urgent nor critical")
    func overtimeInTheBars() throws {
        let now = after(63 * s)
        let item = BarItem(ShownCountdown(record("pomodoro", seconds: 60, overtime: true), at: now),
                           format: try StatusFormat(StatusFormat.defaultText), critical: 60 * s, now: now.wall)
        let object = try waybarObject([item])
        #expect(object["class"] as? [String] == ["overtime"])
        #expect(object["alt"] as? String == "overtime")
        #expect(object["percentage"] as? Int == 100)
        #expect(object["text"] as? String == "⏰ pomodoro +0:03")
        #expect((object["tooltip"] as? String)?.hasPrefix("pomodoro: overtime, +0:03 past its end at ") == true, "\(object)")
        let line = BarProtocol.i3bar.line([item], separator: "  ", first: true)
        let blocks = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]])
        #expect(blocks.first?["color"] as? String == BarProtocol.overtimeColour)
        #expect(blocks.first?["urgent"] == nil)
        #expect(BarProtocol.polybar.line([item], separator: "  ", first: true) == "⏰ pomodoro +0:03")
    }

    @Test("i3bar's header asks for click events, and every block is named so that a click names its countdown")
    func i3barHeader() throws {
        let header = try #require(BarProtocol.i3bar.preamble?.split(separator: "\n").first)
        let object = try #require(JSONSerialization.jsonObject(with: Data(header.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        #expect(object["click_events"] as? Bool == true)
    }
}
