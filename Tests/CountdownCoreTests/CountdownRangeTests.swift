import CountdownCore
import Foundation
import Testing

private let s = Time.nanosecondsPerSecond

/// Mutating calls cannot sit inside #expect.
private func did(_ change: () -> Bool) -> Bool { change() }
private let longest = CountdownRange.longestDuration
/// 2026-11-25, as a wall-clock reading.
private let wallNow: Nanoseconds = 1_795_000_000 * s
private let now = StoreInstant(boot: 1_000 * s, wall: wallNow, bootID: "A")

/// A countdown started at `now` with `length` to go.
private func running(_ length: Nanoseconds, kind: StoredCountdown.Kind = .duration) -> StoredCountdown {
    StoredCountdown(id: "x", state: .running, kind: kind, wallDeadline: wallNow + length, every: s, total: length,
                    bootID: "A", bootDeadline: kind == .duration ? now.boot + length : nil, updatedAt: wallNow)
}

@Suite("One range for every countdown: what is accepted can be stored and read back")
struct CountdownRangeTests {
    @Test("the bounds: 2^61 - 1 ns for durations, 2^62 - 1 ns for instants, named as messages say")
    func bounds() {
        #expect(longest == Time.maximumDuration)
        #expect(CountdownRange.longestText == "2305843009 seconds (about 73 years)")
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        let latest = Date(timeIntervalSince1970: Double(CountdownRange.latestInstant / s))
        #expect(formatter.string(from: latest) == CountdownRange.latestInstantText)
        // From any present before 2043, the longest countdown ends inside the range.
        #expect(wallNow + longest < CountdownRange.latestInstant)
    }

    @Test("the extremes pass the check: longest length, latest deadline, longest pause and interval")
    func extremesPass() throws {
        try CountdownRange.check(running(longest))
        var latest = running(s, kind: .wall)
        latest.wallDeadline = CountdownRange.latestInstant
        try CountdownRange.check(latest)
        var paused = running(longest)
        #expect(did { paused.pause(at: now) })
        #expect(paused.pausedRemaining == longest)
        paused.every = longest
        try CountdownRange.check(paused)
    }

    @Test("one past a bound fails, naming the field and the bound", arguments: [
        ("wall_deadline", "2116-02-20"), ("total", "2305843009 seconds"), ("paused_remaining", "2305843009 seconds"),
        ("every", "less than 1000000"), ("boot_deadline", "2116-02-20"), ("updated_at", "2116-02-20"), ("negative total", "less than 0"),
    ])
    func onePastFails(field: String, bound: String) {
        var c = running(60 * s)
        switch field {
        case "wall_deadline": c.wallDeadline = CountdownRange.latestInstant + 1
        case "total": c.total = longest + 1
        case "paused_remaining": c.state = .paused; c.pausedRemaining = longest + 1
        case "every": c.every = CountdownRange.shortestEvery - 1
        case "boot_deadline": c.bootDeadline = Int64.max
        case "updated_at": c.updatedAt = Int64.min
        default: c.total = -1
        }
        #expect {
            try CountdownRange.check(c)
        } throws: { error in
            let e = error as? StoredValueError
            return e?.field == field.replacingOccurrences(of: "negative ", with: "")
                && (e.map { "\($0)".contains(bound) || (bound == "2116-02-20" && "\($0)".contains("1823-11-12")) } ?? false)
        }
    }

    @Test("a paused record without its remaining time fails")
    func pausedNeedsRemaining() {
        var c = running(60 * s)
        c.state = .paused
        #expect(throws: StoredValueError.self) { try CountdownRange.check(c) }
    }
}

@Suite("append stays inside the range; taking time off stops at 0")
struct StoredAppendRangeTests {
    @Test("appends adding up to the longest length are accepted; one nanosecond more is refused, naming the bound, and changes nothing")
    func appendsUpToTheBound() throws {
        var c = running(60 * s)
        let step = longest / 4
        for _ in 0..<3 { #expect(did { c.append(step, at: now) }) }
        let rest = longest - c.total
        #expect(c.appendRefusal(rest, at: now) == nil)
        #expect(did { c.append(rest, at: now) })
        #expect(c.total == longest)
        #expect(c.remaining(at: now) == longest)
        try CountdownRange.check(c)

        let before = c
        let why = try #require(c.appendRefusal(1, at: now))
        #expect(why.contains(CountdownRange.longestText))
        #expect(!did { c.append(1, at: now) })
        #expect(c == before)
    }

    @Test("the longest countdown from now stores; its deadline is far inside the latest instant")
    func longestFromNow() throws {
        let c = running(longest)
        try CountdownRange.check(c)
        #expect(c.appendRefusal(1, at: now)?.contains("longer than") == true)
    }

    @Test("an `at` deadline near the latest instant refuses an append past it, naming the instant")
    func latestInstant() throws {
        var c = running(s, kind: .wall)
        c.wallDeadline = CountdownRange.latestInstant - s
        c.total = s
        let later = StoreInstant(boot: now.boot, wall: CountdownRange.latestInstant - 2 * s, bootID: "A")
        #expect(c.appendRefusal(s, at: later) == nil)
        let why = try #require(c.appendRefusal(2 * s, at: later))
        #expect(why.contains(CountdownRange.latestInstantText))
        #expect(!did { c.append(2 * s, at: later) })
    }

    @Test("an amount beyond the longest duration either way is refused, never a trap", arguments: [Int64.max, Int64.min, longest + 1, -longest - 1])
    func hugeAmounts(amount: Nanoseconds) {
        var c = running(60 * s)
        let before = c
        #expect(c.appendRefusal(amount, at: now) != nil)
        #expect(!did { c.append(amount, at: now) })
        #expect(c == before)
    }

    @Test("a negative append takes time off a running countdown; past its remaining time it ends now, its length what ran")
    func negativeRunning() throws {
        var c = running(60 * s)
        let later = StoreInstant(boot: now.boot + 10 * s, wall: wallNow + 10 * s, bootID: "A")
        #expect(c.appendRefusal(-20 * s, at: later) == nil)
        #expect(did { c.append(-20 * s, at: later) })
        #expect(c.remaining(at: later) == 30 * s)
        #expect(c.total == 40 * s)
        #expect(did { c.append(-1_000 * s, at: later) })
        #expect(c.remaining(at: later) == 0)
        #expect(c.effectiveState(at: later) == .finished)
        #expect(c.total == 10 * s)
        try CountdownRange.check(c)
        // Nothing more to take.
        #expect(!did { c.append(-s, at: later) })
    }

    @Test("a negative append on a paused countdown stops at 0 and finishes it; an `at` one's deadline moves by what was taken")
    func negativePaused() throws {
        for kind in StoredCountdown.Kind.allCases {
            var c = running(60 * s, kind: kind)
            let later = StoreInstant(boot: now.boot + 10 * s, wall: wallNow + 10 * s, bootID: "A")
            #expect(did { c.pause(at: later) })
            let deadline = c.wallDeadline
            #expect(did { c.append(-80 * s, at: later) })
            #expect(c.state == .finished && c.remaining(at: later) == 0)
            #expect(c.total == 10 * s)
            if kind == .wall { #expect(c.wallDeadline == deadline - 50 * s) }
            try CountdownRange.check(c)
        }
    }
}

@Suite("An unreadable record is named so that it can be removed")
struct UnreadableCountdownTests {
    @Test("the message names id, place and problem, and the shell command that removes it; never to move the file away")
    func message() {
        let bad = UnreadableCountdown(id: "it's", location: "/s/state.sqlite", problem: "column total = -5: less than 0 (nanoseconds)")
        let text = "\(bad)"
        #expect(text.hasPrefix("the countdown 'it's' in /s/state.sqlite cannot be read (column total = -5"))
        #expect(text.contains(#"`cdscript cancel 'it'\''s'` removes it, as does `cdscript clear`"#))
        #expect(!text.contains("move it away"))
    }

    @Test("an id no command line can name (control characters, or not text) is left to clear; it is shown escaped")
    func unnameable() {
        let control = UnreadableCountdown(id: "a\u{1B}[2J", location: "x", problem: "p")
        #expect(control.shownID == #"'a\e[2J'"#)
        #expect(control.removal == "`cdscript clear` removes it")
        let blob = UnreadableCountdown(id: "x'0102'", idIsText: false, location: "x", problem: "p")
        #expect(blob.shownID == "x'0102'")
        #expect(blob.removal == "`cdscript clear` removes it")
    }
}
