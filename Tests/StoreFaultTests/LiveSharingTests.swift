import Foundation
import Testing

/// A script that runs (or fetches) the stored countdown "x" and prints every event
/// with a timestamp-free, comparable line.
enum SharingScripts {
    /// Starts "x" with `seconds` (or fetches it when `fetch` is set) and prints
    /// `tick REMAINING`, `done REASON`.
    static func runner(start seconds: Double? = nil) -> String {
        let hooks = """
            on_tick = function(t) print(("tick %.3f"):format(t.remaining)) end,
            on_done = function(t, why) print("done " .. why) end
            """
        if let seconds {
            return Scratch.script("countdown.start{ id = \"x\", seconds = \(seconds), persist = true, \(hooks) }")
        }
        return Scratch.script("assert(countdown.fetch(\"x\", { \(hooks) }))")
    }

    static func remaining(_ line: String) -> Double? {
        line.hasPrefix("tick ") ? Double(line.dropFirst(5)) : nil
    }

    /// The remaining time `process` showed last (0 before its first tick): a change
    /// has reached it when a later tick shows more than this plus most of what was
    /// added, however long the test has run (a busy machine makes that minutes).
    static func lastShown(_ process: LiveProcess) -> Double {
        process.lines.lazy.compactMap { remaining($0.text) }.last ?? 0
    }
}

/// Helpers shared by the live-sharing tests (SQLite and Redis).
enum Live {
    /// Runs a command and returns (status, lines, stderr, the instant it ended).
    static func command(_ arguments: [String]) throws -> (status: Int32, lines: [String], stderr: String, ended: Date) {
        let r = try LiveProcess.run(arguments)
        return (r.status, r.lines, r.stderr, Date())
    }

    /// The first line after the first `count` that satisfies `match`, with its arrival instant.
    static func next(_ p: LiveProcess, after count: Int, timeout: Double = 3, _ match: (String) -> Bool) -> (text: String, at: Date)? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = p.lines.dropFirst(count).first(where: { match($0.text) }) {
                return (line.text, p.started.addingTimeInterval(line.at))
            }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return nil
    }

    /// Two processes run "x" from `store`; a third command appends, pauses,
    /// resumes and cancels it; both follow within 100 ms and end once.
    static func controlFromAThirdShell(store: [String]) throws {
        let a = try LiveProcess(store + [SharingScripts.runner(start: 30)])
        #expect(a.waitForLine { $0.hasPrefix("tick") } != nil, "\(a.stderr)")
        let b = try LiveProcess(store + [SharingScripts.runner()])
        #expect(b.waitForLine { $0.hasPrefix("tick") } != nil, "\(b.stderr)")
        defer { a.signal(SIGKILL); b.signal(SIGKILL) }

        // append: both tick at once with about 30 + 20 - elapsed left.
        var counts = (a.lines.count, b.lines.count)
        let shown = (SharingScripts.lastShown(a), SharingScripts.lastShown(b))
        let appended = try Live.command(["append", "x", "20"] + store)
        #expect(appended.status == 0, "\(appended.stderr)")
        #expect(appended.lines.first?.hasPrefix("x: running, 00:00:4") == true, "\(appended.lines)")
        var seen: [Double] = []
        for (p, count, before) in [(a, counts.0, shown.0), (b, counts.1, shown.1)] {
            let tick = try #require(next(p, after: count) { (SharingScripts.remaining($0) ?? 0) > before + 10 }, "\(p.texts)")
            #expect(tick.at.timeIntervalSince(appended.ended) < 0.1, "append reached the process \(tick.at.timeIntervalSince(appended.ended)) s after the command")
            seen.append(SharingScripts.remaining(tick.text)!)
        }
        #expect(abs(seen[0] - seen[1]) < 0.15, "both show the same remaining time: \(seen)")

        // pause: both tick at once with the frozen remaining time, then stay silent.
        counts = (a.lines.count, b.lines.count)
        let paused = try Live.command(["pause", "x"] + store)
        #expect(paused.status == 0, "\(paused.stderr)")
        var frozen: [Double] = []
        for (p, count) in [(a, counts.0), (b, counts.1)] {
            let tick = try #require(next(p, after: count) { SharingScripts.remaining($0).map { $0 != $0.rounded() } ?? false }, "\(p.texts)")
            #expect(tick.at.timeIntervalSince(paused.ended) < 0.1, "pause reached the process \(tick.at.timeIntervalSince(paused.ended)) s after the command")
            frozen.append(SharingScripts.remaining(tick.text)!)
        }
        #expect(frozen[0] == frozen[1], "the paused remaining time is the stored one in both: \(frozen)")
        counts = (a.lines.count, b.lines.count)
        Thread.sleep(forTimeInterval: 1.3)
        #expect(a.lines.count == counts.0 && b.lines.count == counts.1, "no tick while paused: \(a.texts.suffix(3)) \(b.texts.suffix(3))")
        let again = try Live.command(["pause", "x"] + store)
        #expect(again.status == 0)
        #expect(again.lines.first?.contains("already paused") == true)

        // resume: both tick at once with the frozen time, then on the alignment.
        counts = (a.lines.count, b.lines.count)
        let resumed = try Live.command(["resume", "x"] + store)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        for (p, count) in [(a, counts.0), (b, counts.1)] {
            let tick = try #require(next(p, after: count) { $0.hasPrefix("tick") }, "\(p.texts)")
            #expect(tick.at.timeIntervalSince(resumed.ended) < 0.1, "resume reached the process \(tick.at.timeIntervalSince(resumed.ended)) s after the command")
            // The true remaining time when the process applied it: the frozen time,
            // less the moment between the command's commit and this process's wake-up.
            let shown = SharingScripts.remaining(tick.text)!
            #expect(shown <= frozen[0] && shown > frozen[0] - 0.1, "resumed from the frozen time: \(shown) after \(frozen[0])")
        }

        // cancel: both end with on_done(t, "cancelled") and exit 0.
        counts = (a.lines.count, b.lines.count)
        let cancelled = try Live.command(["cancel", "x"] + store)
        #expect(cancelled.status == 0)
        for (p, count) in [(a, counts.0), (b, counts.1)] {
            let done = try #require(next(p, after: count) { $0.hasPrefix("done") }, "\(p.texts)")
            #expect(done.text == "done cancelled")
            #expect(done.at.timeIntervalSince(cancelled.ended) < 0.1, "cancel reached the process \(done.at.timeIntervalSince(cancelled.ended)) s after the command")
            #expect(p.wait(timeout: 5) == 0, "\(p.stderr)")
            #expect(p.texts.filter { $0.hasPrefix("done") }.count == 1)
        }
    }

}

extension StoreFaults {
    @Suite("One live truth: changes made anywhere reach every process (SQLite)", .serialized)
    struct LiveSharingTests {
        @Test("append, pause, resume and cancel from a third shell reach two running processes within 100 ms")
        func thirdShellControlsTwoProcesses() throws {
            try Live.controlFromAThirdShell(store: ["--state-dir", Scratch.directory("live")])
        }

        @Test("a process's own append is applied once; a countdown ends exactly once in every process")
        func ownChangesOnceAndOneEnd() throws {
            let dir = Scratch.directory("own")
            let a = try LiveProcess(["--state-dir", dir, Scratch.script("""
                local appended = false
                countdown.start{ id = "x", seconds = 3, persist = true,
                  on_tick = function(t)
                    print(("tick %.3f"):format(t.remaining))
                    if not appended and t.remaining <= 2 then appended = true; countdown.get("x"):append(2) end
                  end,
                  on_done = function(t, why) print("done " .. why) end }
                """)])
            #expect(a.waitForLine { $0.hasPrefix("tick") } != nil, "\(a.stderr)")
            let b = try LiveProcess(["--state-dir", dir, SharingScripts.runner()])
            let c = try LiveProcess(["--state-dir", dir, SharingScripts.runner()])
            defer { a.signal(SIGKILL); b.signal(SIGKILL); c.signal(SIGKILL) }
            for p in [a, b, c] {
                #expect(p.wait(timeout: 10) == 0, "\(p.stderr)")
                #expect(p.texts.filter { $0.hasPrefix("done") } == ["done finished"], "\(p.texts)")
            }
            // 3 s + 2 s appended once: each ends about 5 s after a started (7 s if applied twice).
            for p in [a, b, c] {
                let done = try #require(p.lines.first { $0.text.hasPrefix("done") })
                let end = p.started.addingTimeInterval(done.at).timeIntervalSince(a.started)
                #expect(abs(end - 5) < 0.4, "ended \(end) s after the start: \(p.texts)")
            }
        }

        @Test("a run waiting on a paused stored countdown makes no wake-ups, and still follows a resume")
        func idleWithAStoreWatched() throws {
            let dir = Scratch.directory("idle")
            let a = try LiveProcess(["--state-dir", dir, Scratch.script("""
                local h = countdown.start{ id = "x", seconds = 30, persist = true,
                  on_tick = function(t) print(("tick %.3f"):format(t.remaining)) end }
                h:pause()
                print("paused")
                """)])
            defer { a.signal(SIGKILL) }
            #expect(a.waitForLine { $0 == "paused" } != nil, "\(a.stderr)")
            Thread.sleep(forTimeInterval: 0.3)
            let before = try Self.contextSwitches(a.pid)
            Thread.sleep(forTimeInterval: 2)
            let after = try Self.contextSwitches(a.pid)
            #expect(after - before <= 1, "\(after - before) wake-ups in 2 s while idle")
            let count = a.lines.count
            #expect(try Live.command(["resume", "x", "--state-dir", dir]).status == 0)
            #expect(Live.next(a, after: count) { $0.hasPrefix("tick 30") || $0.hasPrefix("tick 29") } != nil, "\(a.texts)")
        }

        static func contextSwitches(_ pid: Int32) throws -> Int {
            // The main thread's voluntary switches: each wait in poll that returns is one.
            let status = try String(contentsOfFile: "/proc/\(pid)/task/\(pid)/status", encoding: .utf8)
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches") }!
            return Int(line.split(separator: "\t").last!.trimmingCharacters(in: .whitespaces))!
        }

        @Test("append, pause and resume: exit 7 for an unknown or finished id, 6 for an unusable store, 64 for bad seconds")
        func commandErrors() throws {
            let dir = Scratch.directory("errors")
            for args in [["append", "nope", "5"], ["pause", "nope"], ["resume", "nope"]] {
                let r = try Live.command(args + ["--state-dir", dir])
                #expect(r.status == 7, "\(args): \(r.stderr)")
                #expect(r.stderr.contains("no stored countdown has the id 'nope'"), "\(r.stderr)")
            }
            #expect(!FileManager.default.fileExists(atPath: dir + "/state.sqlite"), "a failed change creates no store")
            #expect(try LiveProcess.run(["--state-dir", dir, Scratch.script(#"countdown.start{ id = "gone", seconds = 0.1, persist = true }"#)]).status == 0)
            let finished = try Live.command(["append", "gone", "5", "--state-dir", dir])
            #expect(finished.status == 7)
            #expect(finished.stderr.contains("has finished"), "\(finished.stderr)")
            #expect(try Live.command(["append", "gone", "0", "--state-dir", dir]).status == 64)
            #expect(try Live.command(["append", "gone", "abc", "--state-dir", dir]).status == 64)

            let bad = Scratch.directory("bad-store")
            try Data("this is not a database, and it must stay as it is\n".utf8).write(to: URL(fileURLWithPath: bad + "/state.sqlite"))
            for args in [["append", "x", "5"], ["pause", "x"], ["resume", "x"]] {
                let r = try Live.command(args + ["--state-dir", bad])
                #expect(r.status == 6, "\(args): \(r.stderr)")
                #expect(r.stderr.contains("damaged or not a cdscript store"), "\(r.stderr)")
            }
        }

        @Test("the stored record changes by exactly the amount appended, and pause/resume keep the remaining time")
        func storedRecordChanges() throws {
            let dir = Scratch.directory("record")
            #expect(try LiveProcess.run(["--state-dir", dir, Scratch.script(#"countdown.start{ id = "y", seconds = 100, persist = true }; os.exit(0)"#)]).status == 0)
            #expect(try Live.command(["append", "y", "2.5", "--state-dir", dir]).status == 0)
            #expect(try StoreInspection.read(dir + "/state.sqlite").rows["y"] == .init(state: "running", total: 102_500_000_000))
            let paused = try Live.command(["pause", "y", "--state-dir", dir])
            #expect(paused.lines.first?.hasPrefix("y: paused, 00:01:42.") == true || paused.lines.first?.hasPrefix("y: paused, 00:01:41.") == true, "\(paused.lines)")
            #expect(try StoreInspection.read(dir + "/state.sqlite").rows["y"]?.state == "paused")
            #expect(try Live.command(["append", "y", "1", "--state-dir", dir]).status == 0)
            let resumed = try Live.command(["resume", "y", "--state-dir", dir])
            #expect(resumed.lines.first?.hasPrefix("y: running, 00:01:4") == true, "\(resumed.lines)")
            #expect(try StoreInspection.read(dir + "/state.sqlite").rows["y"] == .init(state: "running", total: 103_500_000_000))
        }

        @Test("watch shows stored countdowns as plain lines and follows changes made by other commands")
        func watchFollowsChanges() throws {
            let dir = Scratch.directory("watch")
            #expect(try LiveProcess.run(["--state-dir", dir, Scratch.script(#"countdown.start{ id = "w", seconds = 50, persist = true }; countdown.start{ id = "p", seconds = 70, persist = true }:pause(); os.exit(0)"#)]).status == 0)
            let watch = try LiveProcess(["watch", "--state-dir", dir])
            defer { watch.signal(SIGKILL) }
            #expect(watch.waitForLine { $0.hasPrefix("w: running  00:00:4") } != nil, "\(watch.texts) \(watch.stderr)")
            #expect(watch.waitForLine { $0.hasPrefix("p: paused  00:01:") } != nil, "\(watch.texts)")
            var count = watch.lines.count
            let appended = try Live.command(["append", "w", "100", "--state-dir", dir])
            let line = try #require(Live.next(watch, after: count) { $0.hasPrefix("w: running  00:02:") }, "\(watch.texts)")
            #expect(line.at.timeIntervalSince(appended.ended) < 0.1)
            count = watch.lines.count
            #expect(try Live.command(["cancel", "w", "--state-dir", dir]).status == 0)
            #expect(Live.next(watch, after: count) { $0 == "w: removed" } != nil, "\(watch.texts)")
            count = watch.lines.count
            #expect(try LiveProcess.run(["--state-dir", dir, Scratch.script(#"countdown.start{ id = "new", seconds = 0.5, persist = true }"#)]).status == 0)
            #expect(Live.next(watch, after: count) { $0 == "new: finished  00:00:00.0" } != nil, "\(watch.texts)")
            watch.signal(SIGINT)
            #expect(watch.wait() == 130)
        }
    }
}
