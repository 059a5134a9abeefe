import CountdownCore
import Foundation
import LuaHost
import TerminalView
import Testing
@testable import StoreViews

/// A moment of a timer: its length and how long it has run when read.
struct ClockMoment: CustomTestStringConvertible, Sendable {
    let spec: String
    let length: Double
    let elapsed: Double
    var testDescription: String { "a \(spec) s timer after \(elapsed) s" }
}

/// The built-in timer (BuiltinScripts/timer.lua, `--every 1 --overtime`) on a
/// virtual clock and terminal: the text of its clock element.
private final class TimerOnAVirtualClock {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/cdscript/BuiltinScripts/timer.lua")

    let clock = VirtualClock()
    let scheduler: Scheduler
    let host: LuaHost
    let view = ViewController(output: .screen(VirtualTerminal(columns: 60, rows: 12), colours: true))

    init(spec: String) throws {
        scheduler = Scheduler(clock: clock)
        host = LuaHost(scheduler: scheduler)
        host.installView(view)
        if let error = host.runScript(atPath: Self.script.path, arguments: [spec, "--every", "1", "--overtime"]) {
            throw error
        }
    }

    /// The clock's text `seconds` after the start.
    func clockText(after seconds: Double) -> String? {
        scheduler.advance(clock, to: clock.boot + Nanoseconds(seconds * 1e9))
        view.render()
        return view.element("clock")?.text
    }
}

/// What `cdscript status` and the bars show (`ShownCountdown.left`) is what the
/// timer's view shows at the same moment: the two are written in two languages
/// (Swift for a stored countdown read by another process, Lua in the view), so
/// this table holds them to one text.
@Suite("One clock text: status and the bars write the time as the timer's view does")
struct ClockTextTests {
    /// The longest a countdown may be (CountdownRange), in whole seconds.
    static let longest = Double(CountdownRange.longestDuration / Time.nanosecondsPerSecond)

    /// (length, elapsed) in seconds. Time left: seconds only, at the turn to
    /// minutes, hours and days, many days, the longest; then past the end
    /// (overtime): its first seconds, at the turn to minutes, hours and days.
    /// Whole-second lengths: the view ticks at whole seconds left, which is what
    /// `ShownCountdown` rounds up to (a 59.9 s timer's view ticks at 59.9 s left
    /// and shows 59, where status shows 1:00).
    static let lengthsAndElapsed: [(Double, Double)] = [
        (5, 0), (5, 4.5), (60, 0), (60, 0.1), (60, 1), (61, 0), (90, 30.2),
        (3_600, 0), (3_600, 0.5), (3_600, 1), (3_601, 0), (356_400, 0), (356_400, 1),
        (86_399, 0), (86_400, 0), (86_400, 1), (273_906, 0), (86_313_600, 2),
        (longest, 0), (longest, 1.5),
        (5, 6), (5, 7.9), (5, 64), (5, 65), (5, 66.5), (5, 3_604), (5, 3_605), (5, 90_066),
    ]

    static let moments: [ClockMoment] = lengthsAndElapsed.map { length, elapsed in
        let spec = length == length.rounded() ? String(Int64(length)) : String(length)
        return ClockMoment(spec: spec, length: length, elapsed: elapsed)
    }

    @Test("status's {left} is the timer view's clock at the same moment, before and past the end", arguments: moments)
    func sameText(moment: ClockMoment) throws {
        let timer = try TimerOnAVirtualClock(spec: moment.spec)
        let viewText = try #require(timer.clockText(after: moment.elapsed), "the timer drew no clock")
        let timeLeft = Nanoseconds((moment.length * 1e9).rounded()) - Nanoseconds((moment.elapsed * 1e9).rounded())
        let shown = ShownCountdown(id: "timer", state: timeLeft < 0 ? .overtime : .running, timeLeft: timeLeft,
                                   total: Nanoseconds(moment.length * 1e9), wallEnd: nil)
        #expect(shown.left == viewText)
    }
}
