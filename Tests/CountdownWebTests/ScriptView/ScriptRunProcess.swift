import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The real `cdscript` binary running a script with `--serve` on a free port,
/// its standard output gathered as it arrives. Tests stop it in a defer
/// (`stop()`: SIGTERM, then SIGKILL if it does not end), so that a failing test
/// leaves no server behind.
final class ScriptRunProcess: @unchecked Sendable {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `CDSCRIPT_BIN` (set by scripts/test), else the debug build in the package.
    static var binary: String {
        ProcessInfo.processInfo.environment["CDSCRIPT_BIN"] ?? packageRoot.appendingPathComponent(".build/debug/cdscript").path
    }

    static var unavailable: String? {
        FileManager.default.isExecutableFile(atPath: binary) ? nil : "no cdscript binary at \(binary) (build it, or set CDSCRIPT_BIN)"
    }

    let process = Process()
    let stateDir: String
    private let lock = NSLock()
    private var output = Data()
    private var errors = Data()

    /// Runs `cdscript run --serve 127.0.0.1:0 ARGUMENTS` in a fresh state folder.
    init(_ arguments: [String]) throws {
        stateDir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-view-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: stateDir, withIntermediateDirectories: true)
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["run", "--state-dir", stateDir, "--serve", "127.0.0.1:0", "--token-file", stateDir + "/token"] + arguments
        process.currentDirectoryURL = Self.packageRoot
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            self.lock.withLock { self.output.append(data) }
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            self.lock.withLock { self.errors.append(data) }
        }
        try process.run()
    }

    var stdout: String { lock.withLock { String(decoding: output, as: UTF8.self) } }
    var stderr: String { lock.withLock { String(decoding: errors, as: UTF8.self) } }

    /// The page's address from the line the run says it on (nil if it never does within `timeout` seconds).
    func pageURL(timeout: Double = 30) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix("serving the view at http://") }) {
                return String(line.dropFirst("serving the view at ".count).prefix { $0 != " " })
            }
            if !process.isRunning { return nil }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }

    var token: String? {
        (try? String(contentsOfFile: stateDir + "/token", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Ends the run (SIGTERM, SIGKILL after 5 s) and removes its state folder; its exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: stateDir)
        return process.terminationStatus
    }
}
