import CLua
import CLuaShim
import CountdownCore
import Foundation
import LuaHost
import Testing

/// Collects what a host reports; a class so the host's closures do not retain the bed.
final class Reports {
    var errors: [String] = []
    var notices: [String] = []
}

/// A `LuaHost` with the given limits on a `VirtualClock`, whose `print` appends
/// to the global table `log` and whose reports are collected.
final class HostBed {
    static let prelude = """
        log = {}
        function print(...)
          local parts = {}
          for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
          log[#log + 1] = table.concat(parts, " ")
        end
        """

    let clock = VirtualClock(boot: 0, wall: 1_798_761_600 * Time.nanosecondsPerSecond)
    let scheduler: Scheduler
    let host: LuaHost
    let reports = Reports()

    init(limits: ScriptLimits = .none, pluginPath: [String] = [], scriptDirectory: String? = nil) {
        scheduler = Scheduler(clock: clock)
        host = LuaHost(scheduler: scheduler, limits: limits)
        host.plugins.path = pluginPath.map { PluginDirectory(path: $0, origin: "test") }
        let reports = self.reports
        host.reportError = { reports.errors.append($0) }
        host.plugins.reportNotice = { reports.notices.append($0) }
        let failure = host.runScript(source: Data(Self.prelude.utf8), chunkName: "=prelude", arguments: ["prelude"])
        precondition(failure == nil, "prelude failed: \(failure!.message)")
    }

    var L: LuaState { host.vm.state }
    var top: Int32 { host.vm.top }
    var errors: [String] { reports.errors }

    /// Runs `source` as the script "test".
    @discardableResult
    func run(_ source: String) -> ScriptFailure? {
        host.runScript(source: Data(source.utf8), chunkName: "=test", arguments: ["test.lua"])
    }

    /// Runs a script file (so that its folder is the script's folder).
    @discardableResult
    func runFile(_ path: String) -> ScriptFailure? {
        host.runScript(atPath: path)
    }

    func mustRun(_ source: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if let failure = run(source) {
            Issue.record("script failed (\(failure.kind)): \(failure.message)", sourceLocation: sourceLocation)
        }
    }

    /// The lines `print` has written so far.
    var lines: [String] {
        let top = L.top
        defer { L.setTop(top) }
        guard lua_getglobal(L.raw, "log") == LUA_TTABLE else { return [] }
        var out: [String] = []
        let count = L.rawLength(at: -1)
        guard count > 0 else { return [] }
        for i in 1...count {
            L.rawItem(-1, i)
            var length = 0
            if let p = cd_to_string(L.raw, -1, &length) {
                out.append(p.withMemoryRebound(to: UInt8.self, capacity: length) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                })
            }
            L.pop(1)
        }
        return out
    }

    func advance(to seconds: Double) {
        scheduler.advance(clock, to: Nanoseconds((seconds * 1e9).rounded()))
    }
}

/// A fresh temporary folder, with a short name: Lua shortens file names in
/// messages to 60 characters.
func temporaryFolder() throws -> String {
    let url = URL(fileURLWithPath: "/tmp/cdp-" + UUID().uuidString.prefix(8))
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
}

func write(_ text: String, to path: String) throws {
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
}
