import CLua
import CLuaShim

/// The part of the script host written in Lua: the sandbox's removals, `use`,
/// `countdown.on` and `countdown.formatter`. (`load`, `loadfile`, `dofile`,
/// `string.rep` and `require`'s searcher are C: Sources/CLuaShim/stdlib_*.c.)
///
/// It runs once, when the host is made, with private helpers as `...` (host
/// functions that scripts never see directly; built-in plugins get some of them).
enum HostPrelude {
    /// Lua/host_prelude.lua. Chunk names start with "=" rather than "@": they
    /// show as file:line in tracebacks, and `--coverage` (which counts only "@"
    /// chunks, as files on disk) still leaves the host's own code out.
    static let chunkName = "=cdscript/host_prelude.lua"
    static let source = String(decoding: PackageResources.host_prelude_lua, as: UTF8.self)

    /// Lua/std_snapshot.lua: the library functions built-in plugins call, taken before any script runs.
    static let standardSnapshotChunkName = "=cdscript/std_snapshot.lua"
    static let standardSnapshot = String(decoding: PackageResources.std_snapshot_lua, as: UTF8.self)

    /// Lua/json.lua: the JSON encoder built-in plugins get as `api.json`.
    static let jsonChunkName = "=cdscript/json.lua"
    static let jsonSource = String(decoding: PackageResources.json_lua, as: UTF8.self)
}

extension LuaHost {
    func installHostPrelude() {
        let L = vm.state
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        // The host's own setup runs without the script's limits, however small they are.
        let limits = cd_get_limits(L)!
        let (cap, budget) = (limits.pointee.cap, limits.pointee.budget)
        (limits.pointee.cap, limits.pointee.budget) = (0, 0)
        defer { (limits.pointee.cap, limits.pointee.budget) = (cap, budget) }
        let helpers = lua_gettop(L) + 1
        lua_createtable(L, 0, 16)
        register([("hooks_changed", Self.hooksChanged)], into: L)
        let installed = cd_stdlib_install(L, vm.limits.sandbox ? 1 : 0, vm.limits.stringRepLimit)
        precondition(installed == LUA_OK, "cdscript: the standard library replacements do not install")
        lua_pushboolean(L, vm.limits.sandbox ? 1 : 0)
        L.setRawField(helpers, "sandbox")
        // What built-in plugins get as their second argument.
        lua_createtable(L, 0, 8)
        register([
            ("bell", Self.ringBell),
            ("spawn", Self.spawnCommand),
            ("which", Self.whichCommand),
            ("append_line", Self.appendLine),
            ("warn", Self.warnLine),
            ("wall_time", Self.wallTime),
        ], into: L)
        if loadChunk(HostPrelude.standardSnapshot, name: HostPrelude.standardSnapshotChunkName), cd_pcall_traceback(L, 0, 1) == LUA_OK {
            L.setRawField(-2, "std")
        } else {
            preconditionFailure("cdscript: the library snapshot does not load: \(L.string(at: -1) ?? "")")
        }
        // The prelude adds the host's countdown.on and countdown.formatter to it.
        lua_pushvalue(L, -1)
        L.setRawField(helpers, "plugin_api")
        if loadChunk(HostPrelude.jsonSource, name: HostPrelude.jsonChunkName), cd_pcall_traceback(L, 0, 1) == LUA_OK {
            L.setRawField(-2, "json")
        } else {
            preconditionFailure("cdscript: the JSON encoder does not load: \(L.string(at: -1) ?? "")")
        }
        // require's searcher hands built-in plugins these helpers (stdlib_searchers.c).
        lua_createtable(L, 0, Int32(BuiltinPlugins.sources.count))
        for (name, source) in BuiltinPlugins.sources {
            L.push(source)
            L.setRawField(-2, name)
        }
        precondition(cd_stdlib_set_builtins(L) == LUA_OK, "cdscript: the built-in plugins do not register")
        updateSearchFolders()

        guard loadChunk(HostPrelude.source, name: HostPrelude.chunkName) else {
            preconditionFailure("cdscript: the host prelude does not compile: \(L.string(at: -1) ?? "")")
        }
        lua_pushvalue(L, helpers)
        cd_push_ref(L, countdownTableRef)
        lua_createtable(L, 4, 0)
        for i in 1...4 {
            lua_createtable(L, 0, 0)
            lua_rawseti(L, -2, lua_Integer(i))
        }
        lua_pushvalue(L, -1)
        globalHooksRef = cd_ref(L)
        lua_createtable(L, 0, 4)
        lua_pushvalue(L, -1)
        formattersRef = cd_ref(L)
        let status = cd_pcall_traceback(L, 4, 0)
        precondition(status == LUA_OK, "cdscript: the host prelude failed: \(L.string(at: -1) ?? "")")
    }

    /// Loads source text; the chunk or the message is on top.
    func loadChunk(_ source: String, name: String) -> Bool {
        var text = source
        return text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                cd_load_text(vm.state, chars.baseAddress, chars.count, name) == LUA_OK
            }
        }
    }
}
