import CountdownCore
import Testing
@testable import StoreViews

private let s = Time.nanosecondsPerSecond

/// A bar without ids, on a virtual clock: the countdowns given, the lines it
/// would write (each a change), and the scheduler's wake-ups.
final class VirtualBar {
    let clock = VirtualClock(boot: 100 * s, wall: 1_000_000 * s)
    let scheduler: Scheduler
    let lead: BarLead
    let format: StatusFormat
    private(set) var lines: [String] = []
    private(set) var wakeUps = 0

    init(format: String = "{id} {left}") throws {
        scheduler = Scheduler(clock: clock)
        let clock = clock
        lead = BarLead(scheduler: scheduler, now: { StoreInstant(boot: clock.boot, wall: clock.wallNow(), bootID: "A") })
        scheduler.delegate = lead
        self.format = try StatusFormat(format)
    }

    var now: StoreInstant { StoreInstant(boot: clock.boot, wall: clock.wallNow(), bootID: "A") }

    /// A running countdown stored now, ending `left` from now.
    func running(_ id: String, left: Nanoseconds, overtime: Bool = false) -> StoredCountdown {
        StoredCountdown(id: id, state: .running, kind: .duration, wallDeadline: clock.wallNow() + left, every: s,
                        total: left, bootID: "A", bootDeadline: clock.boot + left, updatedAt: clock.wallNow(), overtime: overtime)
    }

    /// Takes in the whole listing, as a bar's first read does, and writes the line.
    func read(_ records: [StoredCountdown]) {
        lead.beginPass()
        for record in records { lead.take(CountdownID(record.id), record, at: now) }
        lead.endPass()
        lead.settle(at: now)
        write()
    }

    /// Writes the line for now, unless it repeats the last one (as BarWatch.write does).
    func write() {
        let line = BarProtocol.polybar.line(lead.items(format: format, critical: 0, now: clock.wallNow()), separator: "  ",
                                            first: lines.isEmpty, more: lead.others)
        if line != lines.last { lines.append(line) }
    }

    /// Runs the scheduler as the run loop does, pass by pass, until `end` (boot clock).
    func run(until end: Nanoseconds) {
        while let due = scheduler.nextDue(), due <= end {
            clock.set(boot: max(due, clock.boot))
            wakeUps += 1
            scheduler.runDue()
            write()
        }
        clock.set(boot: end)
    }
}

@Suite("A bar without ids writes a line for the countdown it shows first, not for every countdown")
struct BarLeadTests {
    /// `n` countdowns ending an hour from now at `n` different fractions of a second.
    static func spread(_ bar: VirtualBar, _ n: Int) -> [StoredCountdown] {
        (0..<n).map { i in bar.running("c\(i)", left: 3_600 * s + Int64(i) * (s / Int64(n))) }
    }

    @Test("100 and 10,000 countdowns ending at different fractions of a second: one line and one wake-up a virtual second, as with one countdown", arguments: [1, 100, 10_000])
    func lineRate(n: Int) throws {
        let bar = try VirtualBar()
        bar.read(Self.spread(bar, n))
        #expect(bar.lines.first == (n == 1 ? "c0 1:00:00" : "c0 1:00:00  +\(n - 1)"))
        let start = bar.clock.boot
        bar.run(until: start + 60 * s)
        // The first line, then one a second as the lead's time moves on (60 of them).
        #expect(bar.lines.count <= 61, "\(bar.lines.count) lines in 60 virtual seconds")
        #expect(bar.lines.count >= 60)
        #expect(bar.wakeUps <= 61, "\(bar.wakeUps) wake-ups in 60 virtual seconds")
        #expect(bar.lines.last == (n == 1 ? "c0 59:00" : "c0 59:00  +\(n - 1)"))
        #expect(bar.scheduler.activeCount == 1, "only the lead is on the scheduler")
    }

    @Test("as each lead ends it stays counted, finished, and the next one leads: a line for each end and each second shown")
    func leadsEnd() throws {
        let bar = try VirtualBar(format: "{state} {id} {left}")
        bar.read([bar.running("a", left: 2 * s + s / 2), bar.running("b", left: 4 * s), bar.running("c", left: 10 * s)])
        bar.run(until: bar.clock.boot + 5 * s)
        #expect(bar.lines == [
            "running a 3  +2", "running a 2  +2", "running a 1  +2",
            "running b 2  +2", "running b 1  +2",
            "running c 6  +2", "running c 5  +2",
        ])
        #expect(bar.lead.count == 3)
    }

    @Test("an overtime lead counts up past its end and stays first; a countdown first seen finished is not followed")
    func overtimeStays() throws {
        let bar = try VirtualBar(format: "{state} {id} {left}")
        var done = bar.running("done", left: s)
        done.state = .finished
        bar.read([bar.running("pomodoro", left: 2 * s, overtime: true), bar.running("tea", left: 3 * s), done])
        bar.run(until: bar.clock.boot + 6 * s)
        #expect(bar.lines.first == "running pomodoro 2  +1")
        #expect(bar.lines.last == "overtime pomodoro +0:04  +1")
        #expect(!bar.lines.contains { $0.contains("tea") })
        #expect(bar.lead.count == 2)
    }

    @Test("a change to one countdown (paused, removed) moves the lead without a pass over the others")
    func changesMoveTheLead() throws {
        let bar = try VirtualBar(format: "{state} {id} {left}")
        let records = Self.spread(bar, 10_000)
        bar.read(records)
        var paused = records[0]
        let didPause = paused.pause(at: bar.now)
        #expect(didPause)
        let before = bar.lead.entriesVisited
        bar.lead.take("c0", paused, at: bar.now)
        bar.lead.settle(at: bar.now)
        bar.write()
        #expect(bar.lines.last == "running c1 1:00:01  +9999")
        bar.lead.take("c1", nil, at: bar.now)
        bar.lead.settle(at: bar.now)
        bar.write()
        #expect(bar.lines.last == "running c2 1:00:01  +9998")
        #expect(bar.lead.entriesVisited - before <= 8, "\(bar.lead.entriesVisited - before) entries looked at")
    }
}
