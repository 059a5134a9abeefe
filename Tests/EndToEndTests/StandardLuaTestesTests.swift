import Foundation
import Testing

/// What Lua 5.4's own test suite (testes/db.lua and testes/attrib.lua) checks
/// of debug.sethook's registry table and of a failed require's message, run
/// under `lua5.4` and `cdscript run` side by side.
@Suite("Standard Lua: what testes/db.lua and attrib.lua check, cdscript run against lua5.4")
struct StandardLuaTestesTests {
    /// Runs `source` with both in a fresh folder, with a configuration folder
    /// of its own (so no plugin folder of the user's is on the plugin path).
    func sideBySide(_ source: String, setUp: (URL) throws -> Void = { _ in }) throws -> (lua: BinaryRunner.Result, cdscript: BinaryRunner.Result) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-testes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try source.write(to: dir.appendingPathComponent("side.lua"), atomically: true, encoding: .utf8)
        try setUp(dir)
        let environment = ["XDG_CONFIG_HOME": dir.appendingPathComponent("config").path, "CDSCRIPT_PLUGIN_PATH": ""]
        let lua = try BinaryRunner.run(["side.lua"], in: dir, environment: environment, executable: URL(fileURLWithPath: StandardLuaTests.lua))
        let cdscript = try BinaryRunner.run(["run", "side.lua"], in: dir, environment: environment)
        return (lua, cdscript)
    }

    @Test("debug.sethook keeps registry._HOOKKEY as Lua's does: weak keys, thread -> hook, cleared by sethook()")
    func hookKey() throws {
        let out = try sideBySide("""
            local function hook() end
            debug.sethook(hook, "l")
            local t = debug.getregistry()._HOOKKEY
            print(type(t), getmetatable(t) == t, getmetatable(t).__mode)
            -- db.lua: "hook table has weak keys"
            assert(getmetatable(debug.getregistry()._HOOKKEY).__mode == 'k')
            print(t[coroutine.running()] == hook, debug.gethook() == hook)
            debug.sethook()
            print(t[coroutine.running()], debug.gethook())
            local co = coroutine.create(function() return 1 end)
            debug.sethook(co, hook, "c", 3)
            print(t[co] == hook, select(2, debug.gethook(co)), select(3, debug.gethook(co)))
            debug.sethook(co)
            print(t[co])
            debug.sethook(hook, "")
            print(t[coroutine.running()] == hook)
            debug.sethook()
            """)
        #expect(out.cdscript.status == 0, "\(out.cdscript.stderr)")
        #expect(out.lua.status == 0, "\(out.lua.stderr)")
        #expect(out.cdscript.stdout == out.lua.stdout)
        #expect(out.cdscript.stdout.hasPrefix("table\ttrue\tk\ntrue\ttrue\nnil\tnil\n"), "\(out.cdscript.stdout)")
    }

    /// attrib.lua's "testing 'require' message", word for word.
    static let requireMessage = """
        package.path = "?.lua;?/?"
        package.cpath = "?.so;?/init"
        local st, msg = pcall(require, 'XXX')
        local expected = [[module 'XXX' not found:
        \tno field package.preload['XXX']
        \tno file 'XXX.lua'
        \tno file 'XXX/XXX'
        \tno file 'XXX.so'
        \tno file 'XXX/init']]
        print(st, msg == expected)
        print(msg)
        local oldpath = package.path
        package.path = {}
        local s, err = pcall(require, "no-such-file")
        print(s, not not string.find(err, "package.path"))
        package.path = oldpath
        """

    @Test("a failed require's message is lua5.4's, word for word (attrib.lua), without plugin folders")
    func requireMessageAsLua() throws {
        let out = try sideBySide(Self.requireMessage)
        #expect(out.cdscript.status == 0, "\(out.cdscript.stderr)")
        #expect(out.cdscript.stdout == out.lua.stdout)
        #expect(out.cdscript.stdout.hasPrefix("false\ttrue\n"), "\(out.cdscript.stdout)")
    }

    @Test("with a plugin folder, the message begins as lua5.4's and names the folder's files last")
    func pluginFoldersLast() throws {
        let out = try sideBySide(Self.requireMessage) { dir in
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("plugins"), withIntermediateDirectories: true)
        }
        #expect(out.cdscript.status == 0, "\(out.cdscript.stderr)")
        let lua = out.lua.lines, cdscript = out.cdscript.lines
        // lua5.4: "false true", then the message's 6 lines, then "false true".
        #expect(cdscript.count == lua.count + 2, "\(cdscript)")
        #expect(Array(cdscript.prefix(7)).dropFirst() == Array(lua.prefix(7)).dropFirst(), "\(cdscript)")
        #expect(cdscript[7].hasPrefix("\tno file '") && cdscript[7].hasSuffix("/plugins/XXX.lua'"), "\(cdscript)")
        #expect(cdscript[8].hasSuffix("/plugins/XXX/init.lua'"), "\(cdscript)")
    }
}
