import CLua
import CLuaShim

/// The part of the script host written in Lua: the sandbox's removals, `use`,
/// `countdown.on` and `countdown.formatter`. (`load`, `loadfile`, `dofile`,
/// `string.rep` and `require`'s searcher are C: Sources/CLuaShim/stdlib_*.c.)
///
/// It runs once, when the host is made, with private helpers as `...` (host
/// functions that scripts never see directly; built-in plugins get some of them).
enum HostPrelude {
    // Chunk names start with "=" rather than "@": they show as file:line in
    // tracebacks, and `--coverage` (which counts only "@" chunks, as files on
    // disk) still leaves the host's own code out. Each file is compiled at build
    // time (Plugins/LuaBytecodePlugin) into `HostBytecode`, under its chunk name.

    /// Lua/host_prelude.lua.
    static let chunkName = "=cdscript/host_prelude.lua"
    /// Lua/std_snapshot.lua: the library functions built-in plugins call, taken before any script runs.
    static let standardSnapshotChunkName = "=cdscript/std_snapshot.lua"
    /// Lua/json.lua: the JSON encoder built-in plugins get as `api.json`,
    /// loaded at its first call (`loadJSON`).
    static let jsonChunkName = "=cdscript/json.lua"
}

extension PluginBinding {
    func install() {
        let L = vm.state
        let base = L.top
        defer { L.setTop(base) }
        // The host's own setup runs without the script's limits, however small they are.
        let limits = cd_get_limits(L.raw)!
        let (cap, budget) = (limits.pointee.cap, limits.pointee.budget)
        (limits.pointee.cap, limits.pointee.budget) = (0, 0)
        defer { (limits.pointee.cap, limits.pointee.budget) = (cap, budget) }
        let helpers = L.top + 1
        L.pushTable(fields: 16)
        host.register([("hooks_changed", Self.hooksChanged), ("load_json", Self.loadJSON)], into: L)
        let installed = cd_stdlib_install(L.raw, vm.limits.sandbox ? 1 : 0, vm.limits.stringRepLimit)
        SetUpStep.check(installed == LUA_OK, "cdscript: the standard library replacements do not install")
        L.push(vm.limits.sandbox)
        L.setRawField(helpers, "sandbox")
        // What built-in plugins get as their second argument.
        L.pushTable(fields: 8)
        host.register([
            ("bell", Self.ringBell),
            ("spawn", Self.spawnCommand),
            ("which", Self.whichCommand),
            ("append_line", Self.appendLine),
            ("replace_file", Self.replaceFile),
            ("warn", Self.warnLine),
            ("wall_time", Self.wallTime),
            ("exited", Self.childExited),
        ], into: L)
        if L.load(bytecode: HostBytecode.std_snapshot, chunkName: HostPrelude.standardSnapshotChunkName) == LUA_OK, L.call(arguments: 0, results: 1) == LUA_OK {
            L.setRawField(-2, "std")
        } else {
            SetUpStep.failed("cdscript: the library snapshot does not load: \(L.string(at: -1) ?? "")")
        }
        // The prelude adds the host's countdown.on and countdown.formatter to it.
        L.pushValue(at: -1)
        L.setRawField(helpers, "plugin_api")
        // require's searcher hands built-in plugins these helpers (stdlib_searchers.c).
        L.pushTable(fields: Int32(BuiltinPlugins.sources.count))
        for (name, source) in BuiltinPlugins.sources {
            L.push(bytes: source)
            L.setRawField(-2, name)
        }
        SetUpStep.check(cd_stdlib_set_builtins(L.raw) == LUA_OK, "cdscript: the built-in plugins do not register")
        updateSearchFolders()

        guard L.load(bytecode: HostBytecode.host_prelude, chunkName: HostPrelude.chunkName) == LUA_OK else {
            SetUpStep.failed("cdscript: the host prelude does not compile: \(L.string(at: -1) ?? "")")
        }
        L.pushValue(at: helpers)
        L.pushRef(host.countdowns.tableRef)
        L.pushTable(array: 4)
        for i in 1...4 {
            L.pushTable()
            L.setRawItem(-2, i)
        }
        L.pushValue(at: -1)
        globalHooksRef = L.ref()
        L.pushTable(fields: 4)
        L.pushValue(at: -1)
        formattersRef = L.ref()
        let status = L.call(arguments: 4, results: 0)
        SetUpStep.check(status == LUA_OK, "cdscript: the host prelude failed: \(L.string(at: -1) ?? "")")
    }
}

extension PluginBinding {
    /// `H.load_json()`: Lua/json.lua loaded, not run (host_prelude.lua runs it
    /// with the library snapshot at `api.json`'s first call).
    static let loadJSON: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { _, L throws(APIError) in
            guard L.load(bytecode: HostBytecode.json, chunkName: HostPrelude.jsonChunkName) == LUA_OK else {
                throw APIError("cdscript: the JSON encoder does not load: \(L.string(at: -1) ?? "")")
            }
            return 1
        }
    }
}
