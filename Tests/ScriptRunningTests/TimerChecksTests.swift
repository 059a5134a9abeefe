import CommandEnding
import CountdownCore
import Foundation
import Testing
@testable import ScriptRunning

/// 2027-01-01T00:00:00Z, the wall time of every check below.
private var clock: VirtualClock { VirtualClock(wall: 1_798_761_600 * Time.nanosecondsPerSecond) }
private let utc = TimeZone(identifier: "UTC")!

@Suite("cdscript timer's SPEC is a duration longer than 0 or a time still to come")
struct TimerSpecChecksTests {
    @Test("a duration and a date to come are read")
    func accepted() throws {
        #expect(try TimerChecks.spec("25m", clock: clock, zone: utc) == .duration(25 * 60 * Time.nanosecondsPerSecond))
        guard case .deadline = try TimerChecks.spec("2027-01-01T00:00:10Z", clock: clock, zone: utc) else {
            Issue.record("a date ten seconds away is a deadline")
            return
        }
    }

    @Test("each refusal says what was given and why")
    func refusals() {
        #expect(throws: UsageError("SPEC: a timer counts down a duration longer than 0, got \"-5\" (to take time off a stored countdown: cdscript append ID -30)")) {
            try TimerChecks.spec("-5", clock: clock, zone: utc)
        }
        #expect(throws: UsageError("SPEC: the duration must be longer than 0, got \"0\"")) {
            try TimerChecks.spec("0", clock: clock, zone: utc)
        }
        #expect(throws: UsageError("SPEC: 2026-12-31T23:00:00Z is in the past")) {
            try TimerChecks.spec("2026-12-31T23:00:00Z", clock: clock, zone: utc)
        }
        #expect(throws: UsageError.self) { try TimerChecks.spec("soon", clock: clock, zone: utc) }
    }
}

@Suite("A pomodoro's --then and --rounds are checked as timer.lua checks them")
struct TimerRoundsChecksTests {
    let work = TimerSpec.duration(25 * 60 * Time.nanosecondsPerSecond)

    @Test("without either, nothing is asked of the other options")
    func neither() throws {
        try TimerChecks.rounds(work, spec: "25m", then: nil, rounds: nil, overtime: true, id: nil, title: nil)
    }

    @Test("--then and --rounds go together, with a whole number of rounds from 1")
    func together() {
        #expect(throws: UsageError.self) { try TimerChecks.rounds(work, spec: "25m", then: "5m", rounds: nil, overtime: false, id: nil, title: nil) }
        #expect(throws: UsageError("--rounds must be a whole number, 1 or more, got \"0\"")) {
            try TimerChecks.rounds(work, spec: "25m", then: "5m", rounds: "0", overtime: false, id: nil, title: nil)
        }
        #expect(throws: UsageError("--overtime with --rounds: each phase ends on time and the next one begins")) {
            try TimerChecks.rounds(work, spec: "25m", then: "5m", rounds: "4", overtime: true, id: nil, title: nil)
        }
    }

    @Test("rounds need a duration, not a clock time")
    func durationOnly() {
        #expect(throws: UsageError("--rounds needs a duration SPEC (25m), not a clock time or date, got \"20:00\"")) {
            try TimerChecks.rounds(.deadline(0), spec: "20:00", then: "5m", rounds: "4", overtime: false, id: nil, title: nil)
        }
    }

    @Test("each phase's stored title is TITLE · NAME N/N")
    func phaseTitles() {
        #expect(TimerChecks.phaseTitle("Tea", name: "work", round: 2, rounds: 4) == "Tea · work 2/4")
        #expect(TimerChecks.phaseTitle(nil, name: "break", round: 1, rounds: 1) == "break 1/1")
    }
}

@Suite("termdown's short options get a pointer to cdscript timer's")
struct TermdownHabitsTests {
    @Test("-T and a glued value name --title")
    func pointer() {
        #expect(throws: UsageError("-T is termdown's option; cdscript timer's is --title TEXT")) { try TimerChecks.termdownHabits(["25m", "-TTea"]) }
    }

    @Test("after -- every word is a value")
    func afterDoubleDash() throws {
        try TimerChecks.termdownHabits(["--", "-T"])
    }
}

@Suite("--exec's program is looked up when the options are read")
struct ExecProgramChecksTests {
    @Test("a program on PATH passes")
    func found() throws {
        try TimerChecks.program("sh")
    }

    @Test("a missing program is 127, a file that cannot run 126, as a shell says")
    func statuses() throws {
        let plain = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-program-\(UUID().uuidString)").path
        try "text".write(toFile: plain, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: plain) }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: plain)
        #expect(throws: CommandExit(.commandNotFound)) { try TimerChecks.program("/no/such/program") }
        #expect(throws: CommandExit(.commandNotExecutable)) { try TimerChecks.program(plain) }
    }
}
