import Foundation

/// Runs the real `cdscript` binary, as a user would.
struct BinaryRunner {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        let seconds: Double
        var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty } }
    }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `CDSCRIPT_BIN` (set by scripts/test), else the debug build in the package.
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["CDSCRIPT_BIN"] {
            return URL(fileURLWithPath: path)
        }
        return packageRoot.appendingPathComponent(".build/debug/cdscript")
    }

    /// Writes `source` to a temporary script file and returns its path.
    static func script(_ source: String, name: String = "script.lua") throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try source.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Runs the binary and waits; `signal` is sent after `signalAfter` seconds.
    /// `directory` is the working directory (default: the package root); `environment`
    /// entries are added to this process's; `executable` replaces the binary.
    /// With `signalWhen`, the signal goes as soon as what the binary printed so far
    /// satisfies it (or at `timeout`), not after a guessed time.
    static func run(_ arguments: [String], signal: Int32? = nil, signalAfter: Double = 0.5, timeout: Double = 20,
                    in directory: URL? = nil, environment: [String: String] = [:], executable: URL? = nil,
                    stdinPath: String? = nil, signalWhen: (@Sendable (String) -> Bool)? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable ?? binary
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? packageRoot
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdinPath.flatMap { FileHandle(forReadingAtPath: $0) } ?? FileHandle.nullDevice
        let started = Date()
        try process.run()
        // Read both pipes concurrently so a chatty child never blocks on a full pipe.
        nonisolated(unsafe) var outData = Data(), errData = Data()
        let outLock = NSLock()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            // Read as it comes, so that `signalWhen` sees the output so far.
            while true {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                outLock.withLock { outData.append(chunk) }
            }
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        if let signal, let signalWhen {
            let giveUp = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < giveUp
                    && !signalWhen(outLock.withLock { String(decoding: outData, as: UTF8.self) }) {
                Thread.sleep(forTimeInterval: 0.01)
            }
            kill(process.processIdentifier, signal)
        } else if let signal {
            Thread.sleep(forTimeInterval: signalAfter)
            kill(process.processIdentifier, signal)
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        group.wait()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self),
            seconds: Date().timeIntervalSince(started))
    }
}
