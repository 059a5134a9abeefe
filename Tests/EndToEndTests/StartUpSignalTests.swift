import Foundation
import Testing

/// A signal can come at any moment of a run's start, while the host is still
/// setting up its Lua state (a user's Ctrl-C right after Enter, a supervisor's
/// SIGTERM): the run ends as that signal ends a run, never in a trap.
@Suite("A signal during start-up")
struct StartUpSignalTests {
    @Test("Ctrl-C or SIGTERM at any moment of the first 80 ms ends the run with 128 + the signal (or the signal itself, before its handler is in place), never a crash",
          arguments: [SIGINT, SIGTERM])
    func signalAtStart(signal: Int32) throws {
        let script = try BinaryRunner.script(#"countdown.start{ seconds = 30 }"#)
        var seen: [String: Int] = [:]
        for attempt in 0..<24 {
            let process = Process()
            process.executableURL = BinaryRunner.binary
            process.arguments = [script]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            // Spread over the start: from before main runs to well into the set-up.
            usleep(useconds_t(attempt * 80_000 / 24))
            kill(process.processIdentifier, signal)
            let deadline = Date().addingTimeInterval(20)
            while process.isRunning && Date() < deadline { usleep(5_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let ending = process.terminationReason == .exit
                ? "exit \(process.terminationStatus)" : "signal \(process.terminationStatus)"
            seen[ending, default: 0] += 1
            let expected = process.terminationReason == .exit ? 128 + signal : signal
            #expect(process.terminationStatus == expected, "attempt \(attempt) after \(attempt * 80 / 24) ms: \(ending)")
        }
        #expect(seen["exit \(128 + signal)", default: 0] > 0, "no run got as far as its handlers: \(seen)")
    }
}
