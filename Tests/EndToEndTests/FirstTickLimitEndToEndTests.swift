import Foundation
import Testing

/// Issue 29: the CPU-time limit hit in the first tick, which runs inside
/// `countdown.start` in the main chunk, is that hook's error; the main chunk and
/// the other countdowns run on, and the run ends with 1 (a hook error), not 2.
@Suite("The CPU-time limit in a first tick: the real binary")
struct FirstTickLimitEndToEndTests {
    @Test("the issue's example: 'spin' stops, the main chunk and the healthy countdown run on; exit 1")
    func spinningFirstTick() throws {
        let script = try BinaryRunner.script(#"""
            countdown.start{ id = "spin", seconds = 3, on_tick = function() while true do end end }
            print("main chunk goes on")
            countdown.start{ id = "healthy", seconds = 1, on_done = function() print("healthy done") end }
            """#)
        let result = try BinaryRunner.run(["run", "--cpu-limit", "0.5", script], timeout: 30)
        #expect(result.status == 1, "\(result.status) \(result.stdout) \(result.stderr)")
        #expect(result.stdout == "main chunk goes on\nhealthy done\n", "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("cdscript: error in on_tick of countdown \"spin\""), "\(result.stderr)")
        #expect(result.stderr.contains("CPU time limit exceeded: more than 0.5 s in one callback"), "\(result.stderr)")
        #expect(!result.stderr.contains("cdscript: error: "), "the main chunk failed: \(result.stderr)")
    }
}
