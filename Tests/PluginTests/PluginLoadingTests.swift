import CountdownCore
import Foundation
import LuaHost
import Testing

@Suite("Plugins: found on the plugin path, loaded with use or require")
struct PluginLoadingTests {
    @Test("use finds NAME.lua and NAME/init.lua on the path, calls setup with the options and returns its result")
    func useFindsPlugins() throws {
        let dir = try temporaryFolder()
        try write("""
            local M = { description = "greets" }
            function M.setup(options) return "hello " .. options.who end
            return M
            """, to: dir + "/greet.lua")
        try write("return function(options) return 'folder plugin ' .. tostring(options.n) end", to: dir + "/folder/init.lua")
        let bed = HostBed(pluginPath: [dir])
        bed.mustRun("""
            print(use("greet", { who = "you" }))
            print(use("folder", { n = 3 }))
            print(require("greet").description, require("greet") == require("greet"))
            """)
        #expect(bed.lines == ["hello you", "folder plugin 3", "greets true"])
    }

    @Test("the first folder on the path wins, and a file replaces a built-in plugin of the same name")
    func searchOrder() throws {
        let first = try temporaryFolder(), second = try temporaryFolder()
        try write("return { setup = function() return 'first' end }", to: first + "/p.lua")
        try write("return { setup = function() return 'second' end }", to: second + "/p.lua")
        try write("return { setup = function() return 'my bell' end }", to: second + "/bell.lua")
        let bed = HostBed(pluginPath: [first, second])
        bed.mustRun("print(use('p'), use('bell'))")
        #expect(bed.lines == ["first my bell"])
        let listing = PluginPath.listing([PluginDirectory(path: first, origin: "a"), PluginDirectory(path: second, origin: "b")])
        #expect(listing.filter { $0.name == "p" }.map(\.shadowed) == [false, true])
        #expect(listing.first { $0.name == "bell" && $0.origin == "built-in" }?.shadowed == true)
    }

    @Test("require: plugin folders, then built-in plugins, then package.path; one searcher for all three")
    func requireOrder() throws {
        let plugins = try temporaryFolder(), modules = try temporaryFolder()
        try write("return 'plugin folder'", to: plugins + "/both.lua")
        try write("return 'package.path'", to: modules + "/both.lua")
        try write("return 'package.path'", to: modules + "/log.lua")
        try write("return 'package.path'", to: modules + "/only.lua")
        let bed = HostBed(pluginPath: [plugins])
        bed.mustRun("""
            package.path = "\(modules)/?.lua"
            print(require("both"), type(require("log").setup), require("only"), #package.searchers)
            """)
        #expect(bed.lines == ["plugin folder function package.path 4"])
    }

    @Test("a plugin with a syntax error is named with its file and line")
    func syntaxErrorNamesFileAndLine() throws {
        let dir = try temporaryFolder()
        try write("local x = 1\nlocal = 2\n", to: dir + "/broken.lua")
        let bed = HostBed(pluginPath: [dir])
        let failure = bed.run("use('broken')")
        #expect(failure?.message.contains("test:1: use(\"broken\"): error loading module 'broken' from file '\(dir)/broken.lua':\n\t\(dir)/broken.lua:2:") == true, "\(failure?.message ?? "")")
        let loaded = bed.host.plugins.loadPlugin(named: "broken")
        #expect(loaded.failureMessage?.contains("\(dir)/broken.lua:2:") == true, "\(loaded)")
    }

    @Test("a plugin that raises while loading or in setup is named with its file and line")
    func runtimeErrorNamesFileAndLine() throws {
        let dir = try temporaryFolder()
        try write("local M = {}\nerror('cannot start')\nreturn M\n", to: dir + "/raises.lua")
        try write("return { setup = function(o)\n  error('bad options')\nend }\n", to: dir + "/badsetup.lua")
        let bed = HostBed(pluginPath: [dir])
        let loading = bed.run("use('raises')")
        #expect(loading?.message.contains("\(dir)/raises.lua:2: cannot start") == true, "\(loading?.message ?? "")")
        let setup = bed.run("use('badsetup')")
        #expect(setup?.message.contains("\(dir)/badsetup.lua:2: bad options") == true, "\(setup?.message ?? "")")
    }

    @Test("a missing plugin lists where it was looked for")
    func missingPlugin() throws {
        let dir = try temporaryFolder()
        let bed = HostBed(pluginPath: [dir])
        let failure = bed.run("use('nowhere')")
        #expect(failure?.message.contains("module 'nowhere' not found") == true)
        // As Lua words it: one line per file tried; Lua's own lines first (as
        // lua5.4 gives them), the plugin folder's last.
        #expect(failure?.message.contains("module 'nowhere' not found:\n\tno field package.preload['nowhere']\n\tno file '") == true, "\(failure?.message ?? "")")
        let message = failure?.message ?? ""
        #expect(message.contains("\n\tno file '\(dir)/nowhere.lua'\n\tno file '\(dir)/nowhere/init.lua'"), "\(message)")
        #expect(!message.contains("preload['nowhere']\n\tno file '\(dir)"), "\(message)")
        #expect(failure?.message.contains("\n\n") == false)
        #expect(bed.run("use(42)")?.message.contains("use: expected a plugin name (a string) as argument 1, got number") == true)
        #expect(bed.run("use('bell', 'loud')")?.message.contains("use: options must be a table, got \"loud\"") == true)
    }

    @Test("the plugin path: ./plugins, the config folder, --plugin-path, then CDSCRIPT_PLUGIN_PATH")
    func standardPath() {
        let dirs = PluginPath.standard(extra: ["extra"], environment: { ["HOME": "/home/u", "CDSCRIPT_PLUGIN_PATH": "/a:/b"][$0] }, workingDirectory: "/work")
        #expect(dirs.map(\.path) == ["/work/plugins", "/home/u/.config/cdscript/plugins", "/work/extra", "/a", "/b"])
        #expect(dirs.map(\.origin) == ["./plugins", "config", "--plugin-path", "CDSCRIPT_PLUGIN_PATH", "CDSCRIPT_PLUGIN_PATH"])
        let xdg = PluginPath.standard(environment: { ["XDG_CONFIG_HOME": "/x"][$0] }, workingDirectory: "/w")
        #expect(xdg.map(\.path) == ["/w/plugins", "/x/cdscript/plugins"])
    }

    @Test("every built-in plugin loads and describes itself")
    func builtinsLoad() {
        let bed = HostBed()
        for name in BuiltinPlugins.names {
            let result = bed.host.plugins.loadPlugin(named: name)
            #expect(result.description?.isEmpty == false, "\(name): \(result)")
        }
    }
}

extension Result where Success == String?, Failure == ScriptFailure {
    var failureMessage: String? {
        if case .failure(let failure) = self { return failure.message }
        return nil
    }
    var description: String? {
        if case .success(let text) = self { return text }
        return nil
    }
}
