import CountdownCore
import Testing

private let s = Time.nanosecondsPerSecond

/// A countdown stored at boot time 100 s, wall time 1_000_000 s, in boot "A".
private func stored(_ seconds: Int64, kind: StoredCountdown.Kind = .duration) -> StoredCountdown {
    StoredCountdown(id: "x", state: .running, kind: kind, wallDeadline: (1_000_000 + seconds) * s,
                    every: s, total: seconds * s, bootID: "A", bootDeadline: (100 + seconds) * s, updatedAt: 1_000_000 * s)
}

private func at(boot: Int64, wall: Int64, bootID: String? = "A") -> StoreInstant {
    StoreInstant(boot: boot * s, wall: wall * s, bootID: bootID)
}

@Suite("A stored countdown resumes with the time that passed")
struct StoredCountdownResumptionTests {
    @Test("within the same boot a duration countdown uses the boot clock, whatever the wall clock says")
    func sameBootIgnoresWallClock() {
        let c = stored(60)
        // 20 s later on the boot clock; the wall clock was set back an hour meanwhile.
        let now = at(boot: 120, wall: 1_000_020 - 3600)
        #expect(c.remaining(at: now) == 40 * s)
        #expect(c.resumption(at: now) == .running(.boot(160 * s), remaining: 40 * s))
    }

    @Test("after a reboot a duration countdown falls back to the wall clock")
    func rebootUsesWallClock() {
        let c = stored(60)
        let now = at(boot: 5, wall: 1_000_030, bootID: "B")
        #expect(c.remaining(at: now) == 30 * s)
        #expect(c.resumption(at: now) == .running(.after(30 * s), remaining: 30 * s))
    }

    @Test("an unknown boot id on either side means the wall clock")
    func unknownBootUsesWallClock() {
        let c = stored(60)
        #expect(c.remaining(at: at(boot: 150, wall: 1_000_010, bootID: nil)) == 50 * s)
    }

    @Test("an at countdown always follows the wall clock, even in the same boot")
    func wallCountdownFollowsWallClock() {
        let c = stored(60, kind: .wall)
        let now = at(boot: 110, wall: 1_000_050)
        #expect(c.remaining(at: now) == 10 * s)
        #expect(c.resumption(at: now) == .running(.wall(1_000_060 * s), remaining: 10 * s))
    }

    @Test("one whose end passed while nothing ran is finished")
    func endedMeanwhile() {
        let c = stored(60)
        let now = at(boot: 160, wall: 1_000_060)
        #expect(c.effectiveState(at: now) == .finished)
        #expect(c.resumption(at: now) == .finished)
        #expect(c.remaining(at: now) == 0)
    }

    @Test("a paused one resumes paused with its frozen remaining time, however long ago")
    func pausedStaysPaused() {
        var c = stored(60)
        let changed1 = c.pause(at: at(boot: 110, wall: 1_000_010))
        #expect(changed1)
        let later = at(boot: 99_999, wall: 9_000_000, bootID: "C")
        #expect(c.resumption(at: later) == .paused(remaining: 50 * s))
        #expect(c.effectiveState(at: later) == .paused)
    }
}

@Suite("Changes apply to the stored record, so changes from several processes add up")
struct StoredCountdownChangeTests {
    @Test("append moves both deadlines and the length")
    func appendMovesEverything() {
        var c = stored(60)
        let changed2 = c.append(10 * s, at: at(boot: 110, wall: 1_000_010))
        #expect(changed2)
        #expect(c.wallDeadline == 1_000_070 * s)
        #expect(c.bootDeadline == 170 * s)
        #expect(c.total == 70 * s)
        // Two appends from two processes add up.
        let changed3 = c.append(5 * s, at: at(boot: 111, wall: 1_000_011))
        #expect(changed3)
        #expect(c.remaining(at: at(boot: 120, wall: 1_000_020)) == 55 * s)
    }

    @Test("append on a paused countdown adds to its frozen time")
    func appendWhilePaused() {
        var c = stored(60)
        c.pause(at: at(boot: 130, wall: 1_000_030))
        c.append(15 * s, at: at(boot: 140, wall: 1_000_040))
        #expect(c.pausedRemaining == 45 * s)
        #expect(c.total == 75 * s)
    }

    @Test("append does nothing to a finished countdown")
    func appendFinished() {
        var c = stored(60)
        let changed4 = c.append(10 * s, at: at(boot: 200, wall: 1_000_100))
        #expect(!changed4)
        #expect(c == stored(60))
    }

    @Test("pause then resume keeps the remaining time, on fresh deadlines in the current boot")
    func pauseResume() {
        var c = stored(60)
        let changed5 = c.pause(at: at(boot: 110, wall: 1_000_010))
        #expect(changed5)
        let changed6 = c.pause(at: at(boot: 111, wall: 1_000_011))
        #expect(!changed6)
        #expect(c.state == .paused)
        let changed7 = c.resume(at: at(boot: 7, wall: 2_000_000, bootID: "B"))
        #expect(changed7)
        let changed8 = c.resume(at: at(boot: 8, wall: 2_000_001, bootID: "B"))
        #expect(!changed8)
        #expect(c.state == .running)
        #expect(c.bootID == "B")
        #expect(c.bootDeadline == 57 * s)
        #expect(c.wallDeadline == 2_000_050 * s)
        #expect(c.pausedRemaining == nil)
    }

    @Test("finish marks it finished only when its end has come")
    func finishOnlyAtTheEnd() {
        var c = stored(60)
        let changed9 = c.finish(at: at(boot: 150, wall: 1_000_050))
        #expect(!changed9)
        #expect(c.state == .running)
        // Another process appended 10 s: this process's copy ending at 60 s must not finish it.
        c.append(10 * s, at: at(boot: 150, wall: 1_000_050))
        let changed10 = c.finish(at: at(boot: 160, wall: 1_000_060))
        #expect(!changed10)
        let changed11 = c.finish(at: at(boot: 170, wall: 1_000_070))
        #expect(changed11)
        #expect(c.state == .finished)
        let changed12 = c.finish(at: at(boot: 171, wall: 1_000_071))
        #expect(!changed12)
    }

    @Test("the wall-clock deadline shown for a running duration countdown follows the boot clock in the same boot")
    func shownDeadline() {
        let c = stored(60)
        #expect(c.wallDeadline(at: at(boot: 120, wall: 1_000_020 - 3600)) == (1_000_060 - 3600) * s)
        #expect(c.wallDeadline(at: at(boot: 1, wall: 1_000_001, bootID: "B")) == 1_000_060 * s)
    }
}

@Suite("The in-memory store")
struct InMemoryCountdownStoreTests {
    @Test("saves, loads, lists by id, modifies in place and deletes")
    func roundTrip() throws {
        let store = InMemoryCountdownStore()
        var b = stored(60)
        b.id = "b"
        try store.save(b)
        try store.save(stored(30))
        #expect(try store.list().map(\.id) == ["b", "x"])
        #expect(try store.load(id: "b") == b)
        let appended = try store.modify(id: "b") { $0?.append(s, at: at(boot: 101, wall: 1_000_001)) ?? false }
        #expect(appended)
        #expect(try store.load(id: "b")?.total == 61 * s)
        #expect(try store.delete(id: "b"))
        #expect(try !store.delete(id: "b"))
        try store.modify(id: "x") { $0 = nil }
        #expect(try store.list().isEmpty)
    }
}

@Suite("A stored `at` countdown keeps its deadline through pause and resume (issue 13)")
struct StoredWallPauseTests {
    @Test("resuming a paused `at` countdown leaves its deadline where it was; a duration one moves")
    func resumeKeepsWallDeadline() {
        var wall = stored(60, kind: .wall)
        wall.pause(at: at(boot: 110, wall: 1_000_010))
        #expect(wall.remaining(at: at(boot: 130, wall: 1_000_030)) == 50 * s)
        wall.resume(at: at(boot: 130, wall: 1_000_030))
        #expect(wall.wallDeadline == 1_000_060 * s)
        #expect(wall.remaining(at: at(boot: 130, wall: 1_000_030)) == 30 * s)

        var duration = stored(60)
        duration.pause(at: at(boot: 110, wall: 1_000_010))
        duration.resume(at: at(boot: 130, wall: 1_000_030))
        #expect(duration.wallDeadline == 1_000_080 * s)
    }

    @Test("appending to a paused `at` countdown moves its deadline by the amount")
    func appendWhilePaused() {
        var wall = stored(60, kind: .wall)
        wall.pause(at: at(boot: 110, wall: 1_000_010))
        let appended = wall.append(15 * s, at: at(boot: 120, wall: 1_000_020))
        #expect(appended)
        wall.resume(at: at(boot: 130, wall: 1_000_030))
        #expect(wall.wallDeadline == 1_000_075 * s)
        #expect(wall.remaining(at: at(boot: 130, wall: 1_000_030)) == 45 * s)
    }
}

@Suite("What every reader shows of a stored countdown at one instant")
struct StoredCountdownShownStateTests {
    @Test("an overtime countdown is running before its end, overtime past it (with the time past it), and paused when paused past it")
    func overtimeIsItsOwnState() {
        var c = stored(60)
        c.overtime = true
        #expect(c.shownState(at: at(boot: 150, wall: 1_000_050)) == .running)
        let past = at(boot: 163, wall: 1_000_063)
        #expect(c.shownState(at: past) == .overtime)
        #expect(c.listedState(at: past) == "overtime")
        #expect(c.timePastEnd(at: past) == 3 * s)
        let paused = c.pause(at: past)
        #expect(paused)
        #expect(c.shownState(at: at(boot: 170, wall: 1_000_070)) == .paused)
    }

    @Test("a countdown without overtime is finished past its end, even when no process saw it end")
    func plainCountdownFinishes() {
        let c = stored(60)
        #expect(c.shownState(at: at(boot: 163, wall: 1_000_063)) == .finished)
        #expect(c.shownState(at: at(boot: 130, wall: 1_000_030)) == .running)
    }
}
