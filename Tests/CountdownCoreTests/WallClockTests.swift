import CountdownCore
import Testing

@Suite("`at` countdowns follow the wall clock; duration countdowns ignore it")
struct WallClockTests {
    @Test("an `at` countdown's total and first tick are the wall time left, and ticks align to the deadline")
    func wallCountdownBasics() throws {
        let h = Harness()
        let w0 = h.clock.wallNow()
        let key = h.start(.wall(w0 + s(2.5)), every: 1)
        #expect(h.scheduler.total(key) == s(2.5))
        #expect(h.scheduler.wallDeadline(key) == w0 + s(2.5))
        try h.runAll()
        #expect(h.recorder.remainings(key) == [s(2.5), s(2), s(1)])
        #expect(h.recorder.ends(key).map(\.instant) == [s(2.5)])
    }

    @Test("a wall-clock jump forward shortens an `at` countdown, noticed at the next pass")
    func jumpForward() throws {
        let h = Harness()
        let w0 = h.clock.wallNow()
        let key = h.start(.wall(w0 + s(60)), every: 1)
        h.advance(to: 10)
        h.clock.setWall(h.clock.wallNow() + s(5))
        h.advance(to: 11)
        #expect(h.scheduler.remaining(key) == s(44))
        #expect(h.scheduler.wallDeadline(key) == w0 + s(60))
        #expect(h.recorder.ticks(key).last?.instant == s(11), "remaining 44 s is a whole multiple: a tick lands at 11 s")
        #expect(h.recorder.ticks(key).last?.remaining == s(44))
        try h.runAll()
        let after = h.recorder.ticks(key).filter { $0.instant >= s(11) }
        #expect(after.map(\.remaining) == (1...44).reversed().map { s(Double($0)) })
        #expect(h.recorder.ends(key).map(\.instant) == [s(55)])
    }

    @Test("a jump by a fraction of an interval re-phases the ticks onto the wall deadline")
    func jumpByFraction() throws {
        let h = Harness()
        let w0 = h.clock.wallNow()
        let key = h.start(.wall(w0 + s(20)), every: 1)
        h.advance(to: 5)
        h.clock.setWall(h.clock.wallNow() + s(2.3))
        h.scheduler.runDue()
        #expect(h.scheduler.remaining(key) == s(12.7))
        #expect(h.scheduler.nextDue() == s(5.7))
        try h.runAll()
        let after = h.recorder.ticks(key).filter { $0.instant > s(5) }
        #expect(after.first?.instant == s(5.7))
        #expect(after.allSatisfy { $0.remaining % s(1) == 0 })
        #expect(h.recorder.ends(key).map(\.instant) == [s(17.7)])
    }

    @Test("a wall-clock jump backward lengthens an `at` countdown")
    func jumpBackward() throws {
        let h = Harness()
        let w0 = h.clock.wallNow()
        let key = h.start(.wall(w0 + s(60)), every: 1)
        h.advance(to: 10)
        h.clock.setWall(h.clock.wallNow() - s(30))
        h.scheduler.runDue()
        #expect(h.scheduler.remaining(key) == s(80))
        #expect(try #require(h.scheduler.total(key)) >= s(80))
        try h.runAll()
        #expect(h.recorder.ends(key).map(\.instant) == [s(90)])
        #expect(h.recorder.ends(key).count == 1)
    }

    @Test("a jump past the deadline ends an `at` countdown once, at the pass that notices it")
    func jumpPastDeadline() {
        let h = Harness()
        let w0 = h.clock.wallNow()
        let key = h.start(.wall(w0 + s(60)), every: 1)
        h.advance(to: 10)
        h.clock.setWall(h.clock.wallNow() + s(3600))
        h.scheduler.runDue()
        let ends = h.recorder.ends(key)
        #expect(ends.map(\.kind) == [.end(.finished)])
        #expect(ends.first?.instant == s(10))
        #expect(ends.first?.remaining == 0)
        #expect(h.recorder.ticks(key).last?.instant == s(10))
        #expect(h.scheduler.nextDue() == nil)
    }

    @Test("a duration countdown does not move when the wall clock jumps")
    func durationIgnoresWall() throws {
        let h = Harness()
        let after = h.start(60, every: 1)
        h.advance(to: 10)
        h.clock.setWall(h.clock.wallNow() + s(3600))
        h.advance(to: 20)
        h.clock.setWall(h.clock.wallNow() - s(7200))
        h.scheduler.runDue()
        #expect(h.scheduler.remaining(after) == s(40))
        try h.runAll()
        #expect(h.recorder.remainings(after) == (1...60).reversed().map { s(Double($0)) })
        #expect(h.recorder.ends(after).map(\.instant) == [s(60)])
    }

    @Test("with both kinds running, only the `at` countdown follows a jump")
    func mixedKinds() throws {
        let h = Harness()
        let w0 = h.clock.wallNow()
        let wall = h.start(.wall(w0 + s(30)), every: 1)
        let duration = h.start(30, every: 1)
        h.advance(to: 5)
        h.clock.setWall(h.clock.wallNow() + s(10))
        h.advance(to: 6)
        #expect(h.scheduler.remaining(wall) == s(14))
        #expect(h.scheduler.remaining(duration) == s(24))
        try h.runAll()
        #expect(h.recorder.ends(wall).map(\.instant) == [s(20)])
        #expect(h.recorder.ends(duration).map(\.instant) == [s(30)])
    }

    @Test("a change within wallJumpTolerance (NTP slewing) moves nothing")
    func smallSlewIgnored() throws {
        let h = Harness()
        let w0 = h.clock.wallNow()
        let key = h.start(.wall(w0 + s(10)), every: 1)
        h.advance(to: 3)
        h.clock.setWall(h.clock.wallNow() + h.scheduler.wallJumpTolerance / 2)
        try h.runAll()
        #expect(h.recorder.remainings(key) == (1...10).reversed().map { s(Double($0)) })
        #expect(h.recorder.ends(key).map(\.instant) == [s(10)])
    }

    @Test("an end-only `at` countdown follows a jump at the next pass")
    func endOnlyFollowsJump() throws {
        let h = Harness()
        let w0 = h.clock.wallNow()
        let key = h.start(.wall(w0 + s(60)), every: 1, wantsTicks: false)
        #expect(h.scheduler.nextDue() == s(60))
        h.advance(to: 10)
        h.clock.setWall(h.clock.wallNow() + s(30))
        h.scheduler.runDue()
        #expect(h.scheduler.nextDue() == s(30))
        try h.runAll()
        #expect(h.recorder.ends(key).map(\.instant) == [s(30)])
    }

    @Test("an `at` countdown started after a jump uses the new wall time, and both follow later jumps")
    func startAfterJump() throws {
        let h = Harness()
        let w0 = h.clock.wallNow()
        let first = h.start(.wall(w0 + s(100)), every: 10)
        h.advance(to: 5)
        h.clock.setWall(h.clock.wallNow() + s(20)) // wall reads w0 + 25 at boot 5
        let second = h.start(.wall(w0 + s(100)), every: 10)
        #expect(h.scheduler.remaining(second) == s(75))
        h.scheduler.runDue()
        #expect(h.scheduler.remaining(first) == s(75))
        h.clock.setWall(h.clock.wallNow() - s(5))
        h.scheduler.runDue()
        #expect(h.scheduler.remaining(first) == s(80))
        #expect(h.scheduler.remaining(second) == s(80))
        try h.runAll()
        #expect(h.recorder.ends(first).map(\.instant) == [s(85)])
        #expect(h.recorder.ends(second).map(\.instant) == [s(85)])
    }

    @Test("a paused `at` countdown shows a frozen time through a jump; resumed, the true time to its unmoved deadline")
    func pausedIgnoresJump() throws {
        let h = Harness()
        let w0 = h.clock.wallNow()
        let key = h.start(.wall(w0 + s(60)), every: 1)
        h.advance(to: 10)
        h.scheduler.pause(key)
        h.clock.setWall(h.clock.wallNow() + s(20))
        h.advance(to: 15)
        h.scheduler.runDue()
        #expect(h.scheduler.remaining(key) == s(50))
        h.scheduler.resume(key)
        // The wall clock reads w0 + 35: 25 s are left to w0 + 60 (issue 13: the deadline never moves).
        #expect(h.scheduler.wallDeadline(key) == w0 + s(60))
        #expect(h.scheduler.remaining(key) == s(25))
        try h.runAll()
        #expect(h.recorder.ends(key).map(\.instant) == [s(40)])
    }

    @Test("an `at` countdown started from a late hook does not disturb other `at` countdowns")
    func wallStartInLateHook() throws {
        let h = Harness()
        let w0 = h.clock.wallNow()
        let existing = h.start(.wall(w0 + s(20)), every: 10)
        var lateKey: CountdownKey?
        h.recorder.onEnd = { _, reason in
            if reason == .finished && lateKey == nil {
                lateKey = h.start(.wall(w0 + s(50)), every: 1)
            }
        }
        h.start(2, every: 1)
        h.stall(for: 19) // the 2 s countdown's end hook runs late, at instant 2, while the clock reads 19
        let late = try #require(lateKey)
        #expect(h.recorder.ends(existing).isEmpty, "the existing `at` countdown must not end early")
        #expect(h.scheduler.remaining(existing) == s(1))
        #expect(h.recorder.ticks(late).first?.remaining == s(48), "first tick at its instant, 2 s")
        #expect(h.recorder.ticks(late).first?.total == s(48))
        #expect(h.scheduler.remaining(late) == s(31))
        try h.runAll()
        #expect(h.recorder.ends(existing).map(\.instant) == [s(20)])
        #expect(h.recorder.ends(late).map(\.instant) == [s(50)])
    }

    @Test("an `at` countdown resumed from a late hook follows a later jump exactly")
    func wallResumeInLateHook() throws {
        let h = Harness()
        let w0 = h.clock.wallNow()
        let wall = h.start(.wall(w0 + s(100)), every: 1)
        h.scheduler.pause(wall)
        h.recorder.onEnd = { _, reason in
            if reason == .finished { h.scheduler.resume(wall) }
        }
        h.start(2, every: 1)
        h.stall(for: 5) // resumed at instant 2 toward its unmoved deadline, w0 + 100: boot 100
        #expect(h.scheduler.remaining(wall) == s(95))
        h.clock.setWall(h.clock.wallNow() + s(10))
        h.scheduler.runDue()
        #expect(h.scheduler.remaining(wall) == s(85))
    }

    @Test("wallDeadline of a duration countdown read inside a late hook is its true wall deadline")
    func wallDeadlineInLateHook() {
        let h = Harness()
        let w0 = h.clock.wallNow()
        let long = h.start(10, every: 1)
        var seen: Nanoseconds?
        h.recorder.onEnd = { _, reason in
            if reason == .finished { seen = h.scheduler.wallDeadline(long) }
        }
        h.start(2, every: 1)
        h.stall(for: 5)
        #expect(seen == w0 + s(10))
        #expect(h.scheduler.wallDeadline(long) == w0 + s(10))
    }
}
