import CountdownCore
@testable import CountdownWeb
import Testing

@Suite("What the pages are told: the change tracker, on a virtual clock")
struct CountdownChangeTrackerTests {
    let now = StoreInstant(boot: 5_000 * Time.nanosecondsPerSecond, wall: 1_800_000_000 * Time.nanosecondsPerSecond, bootID: "b")

    static func advance(_ now: inout StoreInstant, _ seconds: Int64) {
        now.boot += seconds * Time.nanosecondsPerSecond
        now.wall += seconds * Time.nanosecondsPerSecond
    }

    @Test("A first read tells each countdown as new; reading the same again tells nothing")
    func firstReadIsNew() {
        var tracker = CountdownChangeTracker()
        let records = [running("a", seconds: 60, at: now), running("b", seconds: 30, at: now)]
        #expect(tracker.replaceAll(with: records, at: now).map(\.kind) == [.new, .new])
        #expect(tracker.replaceAll(with: records, at: now).isEmpty)
        #expect(tracker.countdowns.map(\.id) == ["a", "b"])
    }

    @Test("Each kind of change is named: append, pause, resume, cancel")
    func kinds() {
        var now = self.now
        func advance(_ seconds: Int64) { Self.advance(&now, seconds) }
        var tracker = CountdownChangeTracker()
        var tea = running("tea", seconds: 60, at: now)
        _ = tracker.update(id: "tea", to: tea, at: now)
        _ = tea.append(30 * Time.nanosecondsPerSecond, at: now)
        #expect(tracker.update(id: "tea", to: tea, at: now)?.kind == .append)
        advance(10)
        _ = tea.pause(at: now)
        #expect(tracker.update(id: "tea", to: tea, at: now)?.kind == .pause)
        _ = tea.append(5 * Time.nanosecondsPerSecond, at: now)
        #expect(tracker.update(id: "tea", to: tea, at: now)?.kind == .append)
        _ = tea.resume(at: now)
        #expect(tracker.update(id: "tea", to: tea, at: now)?.kind == .resume)
        #expect(tracker.update(id: "tea", to: nil, at: now)?.kind == .cancel)
        #expect(tracker.update(id: "tea", to: nil, at: now) == nil)
    }

    @Test("Time alone ends a countdown, or puts an overtime one into overtime, once; the next boundary is the soonest end")
    func timeAlone() {
        var now = self.now
        func advance(_ seconds: Int64) { Self.advance(&now, seconds) }
        var tracker = CountdownChangeTracker()
        _ = tracker.replaceAll(with: [running("egg", seconds: 5, at: now), running("talk", seconds: 8, at: now, overtime: true),
                                      running("long", seconds: 100, at: now)], at: now)
        #expect(tracker.nextBoundary(at: now) == 5 * Time.nanosecondsPerSecond)
        advance(4)
        #expect(tracker.advance(to: now).isEmpty)
        advance(1)
        #expect(tracker.advance(to: now).map { "\($0.kind) \($0.id)" } == ["end egg"])
        #expect(tracker.nextBoundary(at: now) == 3 * Time.nanosecondsPerSecond)
        advance(3)
        #expect(tracker.advance(to: now).map { "\($0.kind) \($0.id)" } == ["overtime talk"])
        #expect(tracker.advance(to: now).isEmpty)
        #expect(tracker.nextBoundary(at: now) == 92 * Time.nanosecondsPerSecond)
    }

    @Test("A countdown that disappears from a whole read is cancelled")
    func disappearing() {
        var tracker = CountdownChangeTracker()
        _ = tracker.replaceAll(with: [running("a", seconds: 60, at: now), running("b", seconds: 60, at: now)], at: now)
        let events = tracker.replaceAll(with: [running("b", seconds: 60, at: now)], at: now)
        #expect(events.map { "\($0.kind) \($0.id)" } == ["cancel a"])
    }

    @Test("Ids that differ only in Unicode normal form are two countdowns")
    func idsAreBytes() {
        var tracker = CountdownChangeTracker()
        let events = tracker.replaceAll(with: [running("caf\u{E9}", seconds: 60, at: now), running("cafe\u{301}", seconds: 60, at: now)], at: now)
        #expect(events.count == 2)
    }
}
