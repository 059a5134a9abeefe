import CLua
import CLuaShim

/// The part of the script host written in Lua: the sandbox's removals, `use`,
/// `countdown.on` and `countdown.formatter`. (`load`, `loadfile`, `dofile`,
/// `string.rep` and `require`'s searcher are C: Sources/CLuaShim/stdlib.c.)
///
/// It runs once, when the host is made, with private helpers as `...` (host
/// functions that scripts never see directly; built-in plugins get some of them).
enum HostPrelude {
    static let chunkName = "=[cdscript]"

    /// The library functions built-in plugins call, taken before any script runs.
    static let standardSnapshot = """
        return { pairs = pairs, ipairs = ipairs, type = type, tostring = tostring, error = error,
          sort = table.sort, concat = table.concat, gsub = string.gsub, format = string.format,
          floor = math.floor }
        """

    static let source = #"""
local H, countdown, hooks, formatters = ...
-- Captured now: a script may replace any library function later, and host code
-- must never call one of its choosing.
local type, error, tostring, pcall, require = type, error, tostring, pcall, require
local format, sub, gsub = string.format, string.sub, string.gsub
local sandbox = H.sandbox

local function describe(v)
  if type(v) == "string" then
    if #v > 40 then return format("%q", sub(v, 1, 40)) .. " (" .. #v .. " bytes)" end
    return format("%q", v)
  end
  return type(v)
end

-- load, loadfile, dofile, string.rep, package.searchpath, require's Lua
-- searcher (plugin folders, package.path, built-in plugins) and, under the
-- sandbox, os.getenv are C functions (Sources/CLuaShim/stdlib.c).
if sandbox then
  io, debug = nil, nil
  package.loaded.io, package.loaded.debug = nil, nil
  os.execute, os.exit, os.remove, os.rename, os.tmpname = nil, nil, nil, nil, nil
  package.loadlib = nil
  package.cpath = ""
end

local function strip_prelude(message)
  if type(message) ~= "string" then return tostring(message) end
  return (gsub(message, "^%[cdscript%]:%d+: ", ""))
end

function use(name, options)
  if type(name) ~= "string" then error("use: expected a plugin name (a string) as argument 1, got " .. describe(name), 2) end
  if #name > 200 or name == "" then error("use: a plugin name has 1 to 200 characters, got " .. describe(name), 2) end
  if options ~= nil and type(options) ~= "table" then
    error("use: options must be a table, got " .. describe(options), 2)
  end
  local ok, plugin = pcall(require, name)
  if not ok then error("use(\"" .. name .. "\"): " .. strip_prelude(plugin), 2) end
  local setup = type(plugin) == "function" and plugin or (type(plugin) == "table" and type(plugin.setup) == "function" and plugin.setup)
  if not setup then return plugin end
  local ok2, result = pcall(setup, options or {})
  if not ok2 then error("use(\"" .. name .. "\"): " .. strip_prelude(result), 2) end
  if result == nil then return plugin end
  return result
end

-- Global hooks. Each event's list is replaced, never changed in place, so that
-- adding or removing a hook while hooks run is safe.
local EVENTS = { start = 1, tick = 2, done = 3, cancel = 4 }

function countdown.on(event, fn)
  local index = type(event) == "string" and EVENTS[event]
  if not index then
    error("countdown.on: event must be \"start\", \"tick\", \"done\" or \"cancel\", got " .. describe(event), 2)
  end
  -- A callable table (a luassert spy, say) is a function here, as it is for on_tick.
  local mt = type(fn) == "table" and getmetatable(fn)
  if type(fn) ~= "function" and not (type(mt) == "table" and rawget(mt, "__call")) then
    error("countdown.on: expected a function as argument 2, got " .. describe(fn), 2)
  end
  local old, list = hooks[index], {}
  for i = 1, #old do list[i] = old[i] end
  list[#list + 1] = fn
  hooks[index] = list
  H.hooks_changed(index, #list)
  local removed = false
  return function()
    if removed then return false end
    removed = true
    local current, kept, dropped = hooks[index], {}, false
    for i = 1, #current do
      if not dropped and current[i] == fn then dropped = true else kept[#kept + 1] = current[i] end
    end
    hooks[index] = kept
    H.hooks_changed(index, #kept)
    return true
  end
end

function countdown.formatter(name, fn)
  if type(name) ~= "string" or name == "" then
    error("countdown.formatter: expected a name (a non-empty string) as argument 1, got " .. describe(name), 2)
  end
  if fn ~= nil and type(fn) ~= "function" then
    error("countdown.formatter: expected a function (or nil to remove it) as argument 2, got " .. describe(fn), 2)
  end
  formatters[name] = fn
end

-- Built-in plugins call these, never the fields of the script's countdown table.
H.plugin_api.on, H.plugin_api.formatter = countdown.on, countdown.formatter
"""#

    static let jsonSource = #"""
-- Taken when the host is made: a script's replacements never run in here.
local gsub, format, byte, concat, sort = string.gsub, string.format, string.byte, table.concat, table.sort
local type, tostring, pairs, ipairs, math_type, huge = type, tostring, pairs, ipairs, math.type, math.huge
local escapes = { ['"'] = '\\"', ['\\'] = '\\\\', ['\b'] = '\\b', ['\f'] = '\\f', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }
local function encode(v)
  local t = type(v)
  if t == "string" then
    return '"' .. gsub(v, '[%c"\\]', function(c) return escapes[c] or format("\\u%04x", byte(c)) end) .. '"'
  elseif t == "number" then
    if v ~= v or v == huge or v == -huge then return "null" end
    if math_type(v) == "integer" then return tostring(v) end
    return format("%.17g", v)
  elseif t == "boolean" then return tostring(v)
  elseif t == "nil" then return "null"
  elseif t == "table" then
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = tostring(k) end
    sort(keys)
    local parts = {}
    for _, k in ipairs(keys) do parts[#parts + 1] = encode(k) .. ":" .. encode(v[k]) end
    return "{" .. concat(parts, ",") .. "}"
  end
  return encode(tostring(v))
end
return encode
"""#
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
        if loadChunk(HostPrelude.standardSnapshot, name: "=[cdscript std]"), cd_pcall_traceback(L, 0, 1) == LUA_OK {
            L.setRawField(-2, "std")
        } else {
            preconditionFailure("cdscript: the library snapshot does not load: \(L.string(at: -1) ?? "")")
        }
        // The prelude adds the host's countdown.on and countdown.formatter to it.
        lua_pushvalue(L, -1)
        L.setRawField(helpers, "plugin_api")
        if loadChunk(HostPrelude.jsonSource, name: "=[cdscript json]"), cd_pcall_traceback(L, 0, 1) == LUA_OK {
            L.setRawField(-2, "json")
        } else {
            preconditionFailure("cdscript: the JSON encoder does not load: \(L.string(at: -1) ?? "")")
        }
        // require's searcher hands built-in plugins these helpers (stdlib.c).
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
