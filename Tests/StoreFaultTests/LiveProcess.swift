import Foundation

/// The real `cdscript` binary, started as a user would start it, with every line
/// of its output timestamped on arrival so tests can compare it with real time.
final class LiveProcess: @unchecked Sendable {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `CDSCRIPT_BIN` (set by scripts/test), else the debug build in the package.
    static var binary: String {
        ProcessInfo.processInfo.environment["CDSCRIPT_BIN"] ?? packageRoot.appendingPathComponent(".build/debug/cdscript").path
    }

    struct Line {
        let text: String
        /// Seconds since the process was started.
        let at: Double
    }

    let process = Process()
    let started: Date
    private let lock = NSLock()
    private var outLines: [Line] = []
    private var errData = Data()
    private let readers = DispatchGroup()

    /// `launcher`: a command that runs the binary (`["/usr/bin/faketime", "-f", "+7s"]`), if any;
    /// `executable`: another copy of the binary to run.
    init(_ arguments: [String], environment: [String: String] = [:], launcher: [String] = [], executable: String? = nil) throws {
        let binary = executable ?? Self.binary
        process.executableURL = URL(fileURLWithPath: launcher.first ?? binary)
        process.arguments = launcher.isEmpty ? arguments : Array(launcher.dropFirst()) + [binary] + arguments
        process.currentDirectoryURL = Self.packageRoot
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "CDSCRIPT_STATE_DIR")
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        started = Date()
        try process.run()
        let start = started
        // Dedicated threads, not the shared dispatch pool: with several processes
        // running, a pool worker may start late and misdate the lines.
        readers.enter()
        Thread.detachNewThread { [self] in
            var pending = Data()
            let handle = out.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                let now = Date().timeIntervalSince(start)
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let text = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    lock.withLock { outLines.append(Line(text: text, at: now)) }
                }
            }
            readers.leave()
        }
        readers.enter()
        Thread.detachNewThread { [self] in
            let data = err.fileHandleForReading.readDataToEndOfFile()
            lock.withLock { errData = data }
            readers.leave()
        }
    }

    var pid: Int32 { process.processIdentifier }
    var lines: [Line] { lock.withLock { outLines } }
    var texts: [String] { lines.map(\.text) }
    var stderr: String { lock.withLock { String(decoding: errData, as: UTF8.self) } }

    func signal(_ signal: Int32) { kill(pid, signal) }

    /// Waits until the process ends (sending SIGKILL after `timeout`) and its
    /// output is read; returns its exit status.
    @discardableResult
    func wait(timeout: Double = 20) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
        readers.wait()
        return process.terminationStatus
    }

    /// Waits until a line satisfying `match` has arrived; nil after `timeout`.
    func waitForLine(timeout: Double = 10, _ match: (String) -> Bool) -> Line? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = lines.first(where: { match($0.text) }) { return line }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return nil
    }

    /// Runs to the end and returns (status, stdout lines, stderr).
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 20) throws -> (status: Int32, lines: [String], stderr: String) {
        let p = try LiveProcess(arguments, environment: environment)
        let status = p.wait(timeout: timeout)
        return (status, p.texts, p.stderr)
    }
}

enum Scratch {
    /// A new empty directory.
    static func directory(_ name: String = "dir") -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-fault-\(name)-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// Writes a script and returns its path.
    static func script(_ source: String) -> String {
        let path = directory("script") + "/script.lua"
        try! source.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
