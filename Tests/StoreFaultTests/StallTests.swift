import Foundation
import Testing

extension StoreFaults {
    @Suite("SIGSTOP for 3 s, then SIGCONT", .serialized)
    struct StallTests {
        @Test("the next tick shows the true remaining time within 0.1 s and reports the missed ticks; on_done fires once")
        func stopAndContinue() throws {
            let dir = Scratch.directory("stall")
            let p = try LiveProcess(["--state-dir", dir, Scratch.script("""
                countdown.start{ id = "stall", seconds = 4.5, every = 0.1, persist = true,
                  on_tick = function(t) print(("tick %.3f %d"):format(t.remaining, t.missed)) end,
                  on_done = function(t, reason) print("done " .. reason .. " " .. t.missed) end }
                """)])
            let first = try #require(p.waitForLine { $0.hasPrefix("tick 4.500") })
            // Stop it 0.55 s in, for 3 s.
            Thread.sleep(forTimeInterval: max(0, first.at + 0.55 - Date().timeIntervalSince(p.started)))
            p.signal(SIGSTOP)
            // The last tick before the stop is the reference: by then the reader is warm.
            let reference = try #require(p.lines.last { $0.text.hasPrefix("tick ") })
            let referenceRemaining = try #require(Double(reference.text.split(separator: " ")[1]))
            Thread.sleep(forTimeInterval: 3)
            p.signal(SIGCONT)
            #expect(p.wait() == 0, "\(p.stderr)")

            let ticks = p.lines.filter { $0.text.hasPrefix("tick ") }
            let catchUp = try #require(ticks.first { !$0.text.hasSuffix(" 0") }, "no tick reported missed ticks")
            let fields = catchUp.text.split(separator: " ")
            let remaining = try #require(Double(fields[1]))
            let missed = try #require(Int(fields[2]))
            // The true remaining time when the line arrived, by the test's own clock.
            let expected = referenceRemaining - (catchUp.at - reference.at)
            #expect(abs(remaining - expected) < 0.1, "catch-up tick shows \(remaining), true remaining \(expected)")
            #expect((27...32).contains(missed), "missed \(missed) ticks in 3 s at 0.1 s")
            // No burst of stale ticks: after the catch-up, ticks keep their 0.1 s pace.
            let after = ticks.drop { $0.text != catchUp.text }.dropFirst()
            #expect(after.count <= Int((remaining / 0.1).rounded(.up)) + 1)
            let dones = p.lines.filter { $0.text.hasPrefix("done ") }
            #expect(dones.map(\.text) == ["done finished 0"])
            if let done = dones.first { #expect(abs(done.at - first.at - 4.5) < 0.2, "ended \(done.at - first.at) s after the start") }
            print("SIGSTOP 3 s: catch-up tick showed \(remaining) s, true \(String(format: "%.3f", expected)) s; \(missed) ticks missed")
        }
    }
}
