import Foundation
import Testing

extension StoreFaults {
    /// `cdscript run --watch`: the real binary reloads its script when it is saved.
    @Suite("cdscript run --watch reloads a saved script", .serialized)
    struct ScriptReloadTests {
        static func version(_ name: String, extra: String = "") -> String {
            """
            local prefix = "\(name)"
            countdown.formatter("clock", function(t) return prefix .. " " .. countdown.format(t, "{S}") end)
            countdown.start{ id = "tea", seconds = 60, persist = true, on_tick = function(t) print(countdown.format(t, "clock")) end }
            \(extra)
            """
        }

        /// Saves as an editor does: a new file renamed over the old one.
        static func save(_ source: String, to path: String) throws {
            try source.write(toFile: path, atomically: true, encoding: .utf8)
        }

        static func seconds(_ line: String?) -> Int? {
            line.flatMap { Int($0.split(separator: " ").last ?? "") }
        }

        @Test("a saved formatter shows at the next tick with the remaining time untouched; a broken save leaves the old version running until the next one")
        func reloadOnSave() throws {
            let dir = Scratch.directory("reload-store")
            let script = Scratch.script(Self.version("v1"))
            let run = try LiveProcess(["run", "--watch", "--plain", "--state-dir", dir, script])
            defer { run.signal(SIGKILL); run.wait() }
            #expect(run.waitForLine { $0 == "v1 58" } != nil, "\(run.texts) \(run.stderr)")
            let savedAt = Date().timeIntervalSince(run.started)
            try Self.save(Self.version("v2"), to: script)
            let first = try #require(run.waitForLine(timeout: 10) { $0.hasPrefix("v2 ") }, "\(run.texts) \(run.stderr)")
            let lastV1 = try #require(run.texts.last { $0.hasPrefix("v1 ") })
            // The same countdown, not a new one of 60 s: at most the second it was in.
            let (before, after) = (try #require(Self.seconds(lastV1)), try #require(Self.seconds(first.text)))
            #expect(after <= before && after >= before - 2, "\(lastV1) then \(first.text)")
            print("save to first tick of the new version: \(Int((first.at - savedAt) * 1000)) ms")
            #expect(first.at - savedAt < 5)
            // The store keeps the one countdown, its deadline unchanged by the reload.
            let listed = try LiveProcess.run(["status", "--state-dir", dir, "--format", "{S}", "tea"])
            #expect(Self.seconds("x " + (listed.lines.first ?? "")).map { $0 <= before && $0 >= before - 3 } == true, "\(listed.lines)")

            // A syntax error: said on stderr, and v2 ticks on.
            try Self.save("countdown.start{ id = 'tea', seconds = 60 ", to: script)
            let ticksBefore = run.texts.count
            #expect(run.waitForLine(timeout: 5) { _ in run.texts.count > ticksBefore + 1 } != nil)
            #expect(run.texts.dropFirst(ticksBefore).allSatisfy { $0.hasPrefix("v2 ") }, "\(run.texts)")

            // The next save that works is taken.
            try Self.save(Self.version("v3"), to: script)
            let third = try #require(run.waitForLine(timeout: 10) { $0.hasPrefix("v3 ") }, "\(run.texts)")
            #expect(Self.seconds(third.text).map { $0 < before } == true)
            run.signal(SIGTERM)
            #expect(run.wait() == 143, "\(run.stderr)")
            #expect(run.stderr.contains("the previous version runs on"), "\(run.stderr)")
            #expect(run.stderr.contains("expected"), "the syntax error's own message: \(run.stderr)")
        }

        @Test("after a reload, a signal stops the new version's Lua code at once, not through the watchdog")
        func signalReachesTheReloadedVersion() throws {
            let dir = Scratch.directory("reload-signal")
            let script = Scratch.script(Self.version("v1"))
            let run = try LiveProcess(["run", "--watch", "--plain", "--state-dir", dir, script])
            defer { run.signal(SIGKILL); run.wait() }
            #expect(run.waitForLine { $0 == "v1 58" } != nil, "\(run.texts) \(run.stderr)")
            // v2's second countdown ticks as it starts, in v2's main chunk, and its
            // hook never returns: only an interruption of v2's own Lua state ends it.
            try Self.save(Self.version("v2", extra: """
                countdown.start{ seconds = 60, every = 0.5, on_tick = function() while true do end end }
                """), to: script)
            #expect(run.waitForLine(timeout: 10) { $0.hasPrefix("v2 ") } != nil, "\(run.texts) \(run.stderr)")
            Thread.sleep(forTimeInterval: 0.6)
            run.signal(SIGTERM)
            #expect(run.wait() == 143, "\(run.stderr)")
            #expect(!run.stderr.contains("did not stop in time"), "\(run.stderr)")
            #expect(!run.stderr.contains("previous version runs on"), "an interruption is no failed reload: \(run.stderr)")
        }

        @Test("a module the script required from its folder is followed too: saving it reloads the script")
        func moduleSaved() throws {
            // package.path starts with the current folder, as in lua5.4; the
            // script adds its own folder, as scripts do.
            let script = Scratch.script("""
                package.path = arg[0]:match("(.*/)") .. "?.lua;" .. package.path
                local look = require("look")
                countdown.start{ id = "m", seconds = 60, on_tick = function(t) print(look.show(t)) end }
                """)
            let module = URL(fileURLWithPath: script).deletingLastPathComponent().appendingPathComponent("look.lua").path
            try Self.save(#"return { show = function(t) return "old " .. countdown.format(t, "{S}") end }"#, to: module)
            let run = try LiveProcess(["run", "--watch", "--plain", script])
            defer { run.signal(SIGKILL); run.wait() }
            #expect(run.waitForLine { $0 == "old 59" } != nil, "\(run.texts) \(run.stderr)")
            try Self.save(#"return { show = function(t) return "new " .. countdown.format(t, "{S}") end }"#, to: module)
            let first = run.waitForLine(timeout: 10) { $0.hasPrefix("new ") }
            #expect(first != nil, "\(run.texts) \(run.stderr)")
            #expect(Self.seconds(first?.text).map { $0 <= 59 && $0 >= 55 } == true)
        }
    }
}
