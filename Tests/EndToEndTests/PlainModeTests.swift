import Foundation
import Testing

@Suite("cdscript run without a terminal: one plain line per change of the view")
struct PlainModeTests {
    @Test("exact lines for a short scripted run: labels, big text, progress, buttons and print, in order, with no escape bytes")
    func exactLines() throws {
        let path = try BinaryRunner.script("""
            view.title("ignored without a terminal")
            view.label{ id = "heading", text = "Sale" }
            view.big{ id = "clock", text = "00:01" }
            view.progress{ id = "bar", value = 0 }
            view.button{ id = "buy", label = "Buy now", key = "b", enabled = false }
            print("printed")
            countdown.start{ seconds = 1, every = 0.5,
              on_tick = function(t)
                view.set("clock", { text = countdown.format(t, "{mm}:{ss}.{t}") })
                view.set("bar", { value = t.progress })
              end,
              on_done = function()
                view.set("heading", { text = "Sale over" })
                view.set("buy", { enabled = true })
                view.bell()
              end }
            """)
        let result = try BinaryRunner.run([path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == """
            heading: Sale
            clock: 00:01
            bar: 0%
            buy: [Buy now] disabled
            printed
            clock: 00:01.0
            clock: 00:00.5
            bar: 50%
            heading: Sale over
            buy: [Buy now] enabled

            """)
        #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{07}"))
        #expect(result.seconds > 0.9 && result.seconds < 3)
    }

    @Test("keys come from stdin one per line: r presses the enabled resend button; the run ends when stdin closes and nothing is active")
    func keysFromStdin() throws {
        let run = try InteractiveRun(["examples/sms_code.lua", "1"])
        try run.waitForLine("resend: [Resend code] enabled")
        run.send("r\n")
        try run.waitForLine("status: Resend in 1s", occurrence: 2)
        try run.waitForLine("resend: [Resend code] enabled", occurrence: 2)
        run.closeInput()
        let status = try run.wait()
        #expect(status == 0)
        #expect(run.lines == [
            "status: Resend in 1s",
            "resend: [Resend code] disabled",
            "status: Didn't get the code?",
            "resend: [Resend code] enabled",
            "resend: [Resend code] disabled",
            "status: Resend in 1s",
            "status: Didn't get the code?",
            "resend: [Resend code] enabled",
        ])
    }

    @Test("with a view open, the run waits for stdin after the last countdown; q closes the view")
    func waitsForInput() throws {
        let run = try InteractiveRun(["examples/sms_code.lua", "1"])
        try run.waitForLine("resend: [Resend code] enabled")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(run.isRunning)
        run.send("q\n")
        #expect(try run.wait() == 0)
    }

    @Test("--plain and --no-color are accepted before the script")
    func flags() throws {
        let path = try BinaryRunner.script("view.label{ id = 'a', text = 'x' }")
        let result = try BinaryRunner.run(["--plain", "--no-color", path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "a: x\n")
        let viaRun = try BinaryRunner.run(["run", "--plain", path])
        #expect(viaRun.stdout == "a: x\n")
    }

    @Test("a view error in the main chunk names the problem and exits 2")
    func viewError() throws {
        let path = try BinaryRunner.script("view.label{ id = 'a' }\nview.button{ id = 'a', label = 'A', key = 'r' }\n")
        let result = try BinaryRunner.run([path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("script.lua:2: view.button: duplicate id 'a': a label already has it"), "\(result.stderr)")
    }
}

/// The binary with a pipe for stdin, read line by line while it runs.
final class InteractiveRun: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let lock = NSLock()
    private var received = Data()

    init(_ arguments: [String]) throws {
        process.executableURL = BinaryRunner.binary
        process.arguments = arguments
        process.currentDirectoryURL = BinaryRunner.packageRoot
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        // Weak: a test that fails (a timeout thrown) drops the run while the pipe may
        // still call; an unowned reference then stopped the whole test process.
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            lock.lock()
            received.append(data)
            lock.unlock()
        }
        try process.run()
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    var isRunning: Bool { process.isRunning }

    /// Waits (polling) until `line` has appeared `occurrence` times.
    func waitForLine(_ line: String, occurrence: Int = 1, timeout: Double = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while lines.filter({ $0 == line }).count < occurrence {
            guard Date() < deadline else {
                throw TimedOut(what: "line \"\(line)\" #\(occurrence); got \(lines)")
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    func send(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    func wait(timeout: Double = 10) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            guard Date() < deadline else {
                process.terminate()
                throw TimedOut(what: "the end of the run")
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        process.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.05)
        output.fileHandleForReading.readabilityHandler = nil
        lock.lock()
        received.append(output.fileHandleForReading.readDataToEndOfFile())
        lock.unlock()
        return process.terminationStatus
    }
}

struct TimedOut: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}
