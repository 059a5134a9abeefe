import Foundation
import Testing

/// Every .lua file under Sources/ is compiled into the binary (SwiftPM resources),
/// so a syntax error in one would reach a user at run time; `luac5.4 -p` finds it here.
@Suite("The Lua files compiled into the binary")
struct EmbeddedLuaSyntaxTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    static func luaFiles() -> [String] {
        let root = sources.path
        let found = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return found.filter { $0.hasSuffix(".lua") }.sorted().map { root + "/" + $0 }
    }

    @Test("there are Lua files to check: the preludes, the test API, the built-in plugins and scripts")
    func filesFound() {
        let names = Set(Self.luaFiles().map { URL(fileURLWithPath: $0).lastPathComponent })
        for name in ["host_prelude.lua", "json.lua", "plugin_common.lua", "log.lua", "test_basics.lua", "test_running.lua", "timer.lua"] {
            #expect(names.contains(name), "\(name) is not under Sources/")
        }
    }

    @Test("each one compiles with luac5.4 -p", arguments: luaFiles())
    func compiles(path: String) throws {
        let luac = Process()
        luac.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        luac.arguments = ["luac5.4", "-p", path]
        let errors = Pipe()
        luac.standardError = errors
        try luac.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        luac.waitUntilExit()
        #expect(luac.terminationStatus == 0, "\(path) does not compile: \(message)")
    }
}
