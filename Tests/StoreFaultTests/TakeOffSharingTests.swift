import Foundation
import Testing

extension StoreFaults {
    /// Issue 29: time taken off a stored countdown in one process reaches every
    /// process that runs it; taking off all that is left ends it once, finished.
    @Suite("Taking time off a shared countdown (SQLite)", .serialized)
    struct TakeOffSharingTests {
        /// `a` runs "x" (paused or running); another process fetches it and
        /// takes off more than is left; `a` reports `done finished` once and exits 0.
        @Test("another process's h:append(-100) ends the countdown once, finished, in the process that runs it",
              arguments: [false, true])
        func takenDownToNothingElsewhere(paused: Bool) throws {
            let dir = Scratch.directory("takeoff")
            let a = try LiveProcess(["--state-dir", dir, Scratch.script("""
                local h = countdown.start{ id = "x", seconds = 60, persist = true,
                  on_tick = function(t) print(("tick %.3f"):format(t.remaining)) end,
                  on_done = function(t, why) print("done " .. why) end }
                \(paused ? "h:pause()" : "")
                """)])
            defer { a.signal(SIGKILL) }
            #expect(a.waitForLine { $0.hasPrefix("tick") } != nil, "\(a.stderr)")
            let b = try LiveProcess.run(["--state-dir", dir, Scratch.script("""
                local h = assert(countdown.fetch("x", { on_done = function(t, why) print("b done " .. why) end }))
                h:append(-100)
                print("b " .. h:state())
                """)])
            #expect(b.status == 0, "\(b.stderr)")
            #expect(b.lines == ["b done finished", "b finished"], "\(b.lines)")
            let taken = Date()
            #expect(a.wait(timeout: 10) == 0, "\(a.stderr)")
            #expect(a.texts.filter { $0.hasPrefix("done") } == ["done finished"], "\(a.texts)")
            let done = try #require(a.lines.first { $0.text.hasPrefix("done") })
            #expect(a.started.addingTimeInterval(done.at).timeIntervalSince(taken) < 2, "\(a.texts)")
            let listed = try LiveProcess.run(["list", "--state-dir", dir])
            #expect(listed.lines.contains { $0.contains("x") && $0.contains("finished") }, "\(listed.lines) \(listed.stderr)")
        }
    }
}
