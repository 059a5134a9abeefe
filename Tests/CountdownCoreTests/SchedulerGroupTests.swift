import CountdownCore
import Testing

@Suite("Several schedulers on one virtual clock fire in time order, as the processes of one machine")
struct SchedulerGroupTests {
    final class Log: SchedulerDelegate {
        let name: String
        let sink: (String) -> Void
        init(_ name: String, _ sink: @escaping (String) -> Void) {
            self.name = name
            self.sink = sink
        }
        func countdownDidTick(_ tick: Tick) { sink("\(name)@\(Time.seconds(tick.instant))") }
        func countdownDidEnd(_ tick: Tick, reason: EndReason) { sink("\(name) end@\(Time.seconds(tick.instant))") }
    }

    static let second = Time.nanosecondsPerSecond

    @Test("advance interleaves the members' ticks by time; at one instant the first added fires first; a removed member waits")
    func interleaved() {
        let clock = VirtualClock()
        let a = Scheduler(clock: clock), b = Scheduler(clock: clock)
        var fired: [String] = []
        var settled = 0
        let la = Log("a") { fired.append($0) }, lb = Log("b") { fired.append($0) }
        a.delegate = la
        b.delegate = lb
        let group = SchedulerGroup(clock: clock, schedulers: [a, b])
        group.settle = { settled += 1 }
        a.announce(a.start(CountdownSpec(id: nil, deadline: .after(3 * Self.second), every: Self.second, wantsTicks: true)))
        b.announce(b.start(CountdownSpec(id: nil, deadline: .after(2 * Self.second), every: Self.second / 2, wantsTicks: true)))
        group.advance(to: 2 * Self.second)
        #expect(fired.filter { !$0.hasSuffix("@0.0") } == ["b@0.5", "a@1.0", "b@1.0", "b@1.5", "a@2.0", "b end@2.0"])
        #expect(clock.boot == 2 * Self.second)
        #expect(settled >= 6, "settle runs between steps: \(settled)")
        fired.removeAll()
        group.remove(a)
        group.advance(to: 5 * Self.second)
        #expect(fired.isEmpty, "a removed member fires nothing: \(fired)")
        group.add(a)
        group.runDue()
        // Noticed late, once: the end is the deadline's.
        #expect(fired == ["a end@3.0"])
    }

    @Test("next fires every member's ticks due at the earliest instant; runAll stops at its limit")
    func nextAndRunAll() throws {
        let clock = VirtualClock()
        let a = Scheduler(clock: clock), b = Scheduler(clock: clock)
        var fired: [String] = []
        let la = Log("a") { fired.append($0) }, lb = Log("b") { fired.append($0) }
        a.delegate = la
        b.delegate = lb
        let group = SchedulerGroup(clock: clock, schedulers: [a, b])
        a.announce(a.start(CountdownSpec(id: nil, deadline: .after(2 * Self.second), every: Self.second, wantsTicks: true)))
        b.announce(b.start(CountdownSpec(id: nil, deadline: .after(2 * Self.second), every: Self.second, wantsTicks: true)))
        group.advance(to: Self.second / 2)
        fired.removeAll()
        #expect(group.next() == Self.second)
        #expect(fired == ["a@1.0", "b@1.0"])
        try group.runAll(limit: 10)
        #expect(fired.suffix(2) == ["a end@2.0", "b end@2.0"])
        #expect(group.next() == nil)
        a.announce(a.start(CountdownSpec(id: nil, deadline: .after(100 * Self.second), every: Self.second, wantsTicks: true)))
        #expect(throws: RunAllLimitReached.self) { try group.runAll(limit: 5) }
    }
}
