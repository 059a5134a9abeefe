import CLua
import CLuaShim

/// The part of the script host written in Lua: text-only `load`/`loadfile`/`dofile`,
/// the `string.rep` cap, the sandbox, the plugin searcher and `use`,
/// `countdown.on` and `countdown.formatter`.
///
/// It runs once, when the host is made, with private helpers as `...` (host
/// functions that scripts never see directly; built-in plugins get some of them).
enum HostPrelude {
    static let chunkName = "=[cdscript]"

    static let source = #"""
local H, countdown, hooks, formatters = ...
local type, select, error, tostring, ipairs, pairs = type, select, error, tostring, ipairs, pairs
local raw_load, raw_loadfile, string_rep, concat = load, loadfile, string.rep, table.concat
local sandbox = H.sandbox

local function describe(v)
  if type(v) == "string" then
    if #v > 40 then return ("%q"):format(v:sub(1, 40)) .. " (" .. #v .. " bytes)" end
    return ("%q"):format(v)
  end
  return type(v)
end

-- Precompiled bytecode is refused everywhere: crafted bytecode can crash the VM.
function load(chunk, chunkname, mode, ...)
  if select("#", ...) > 0 then return raw_load(chunk, chunkname, "t", (...)) end
  return raw_load(chunk, chunkname, "t")
end

local function check_path(fn, path)
  if not sandbox then return end
  if type(path) ~= "string" then
    error(fn .. ": expected a file name inside the script's folder, got " .. describe(path) .. " (--sandbox)", 3)
  end
  if not H.path_allowed(path) then
    error(fn .. ": '" .. path .. "' is outside the script's folder (--sandbox)", 3)
  end
end

function loadfile(filename, mode, ...)
  check_path("loadfile", filename)
  if select("#", ...) > 0 then return raw_loadfile(filename, "t", (...)) end
  return raw_loadfile(filename, "t")
end

function dofile(filename)
  check_path("dofile", filename)
  local chunk, err = raw_loadfile(filename, "t")
  if not chunk then error(err, 2) end
  return chunk()
end

-- A pathological string.rep runs in C, where the instruction budget cannot stop it.
local rep_limit = H.rep_limit
function string.rep(s, n, sep)
  local ts, tsep = type(s), type(sep)
  if type(n) == "number" and n > 0 and (ts == "string" or ts == "number") then
    local unit = #tostring(s) + ((tsep == "string" or tsep == "number") and #tostring(sep) or 0)
    if unit * n > rep_limit then
      error(("string.rep: the result would be %.0f bytes, more than the limit of %d"):format(unit * n, rep_limit), 2)
    end
  end
  return string_rep(s, n, sep)
end

if sandbox then
  io, debug = nil, nil
  package.loaded.io, package.loaded.debug = nil, nil
  os.execute, os.exit, os.remove, os.rename, os.tmpname = nil, nil, nil, nil, nil
  package.loadlib = nil
  package.cpath = ""
end

-- Modules: preloaded ones, then plugins on the plugin path and built-in plugins,
-- then package.path; all as source text. C modules only outside the sandbox.
local function plugin_searcher(name)
  if type(name) ~= "string" then return nil end
  local file = name:gsub("%.", "/")
  local tried = {}
  for _, dir in ipairs(H.plugin_dirs()) do
    for _, candidate in ipairs({ dir .. "/" .. file .. ".lua", dir .. "/" .. file .. "/init.lua" }) do
      if H.file_exists(candidate) then
        local chunk, err = H.load_text_file(candidate)
        if not chunk then error(("plugin '%s' failed to load: %s"):format(name, err), 0) end
        return chunk, candidate
      end
      tried[#tried + 1] = "\n\tno plugin file '" .. candidate .. "'"
    end
  end
  local source = H.builtin(name)
  if source then
    local chunk, err = raw_load(source, "=(built-in plugin " .. name .. ")", "t")
    if not chunk then error(("built-in plugin '%s' failed to load: %s"):format(name, err), 0) end
    local api = H.plugin_api
    return function() return chunk(name, api) end, "built-in:" .. name
  end
  tried[#tried + 1] = "\n\tno built-in plugin '" .. name .. "'"
  return concat(tried)
end

local function text_searcher(name)
  if type(name) ~= "string" then return nil end
  local path, err = package.searchpath(name, package.path)
  if not path then return "\n\t" .. err end
  if sandbox and not H.path_allowed(path) then
    return "\n\tfile '" .. path .. "' is outside the script's folder (--sandbox)"
  end
  local chunk, lerr = H.load_text_file(path)
  if not chunk then error(("error loading module '%s' from file '%s':\n\t%s"):format(name, path, lerr), 0) end
  return chunk, path
end

do
  local searchers = package.searchers
  local preload, c_searcher, croot_searcher = searchers[1], searchers[3], searchers[4]
  for i = #searchers, 1, -1 do searchers[i] = nil end
  searchers[1], searchers[2], searchers[3] = preload, plugin_searcher, text_searcher
  if not sandbox then searchers[4], searchers[5] = c_searcher, croot_searcher end
end

local function strip_prelude(message)
  if type(message) ~= "string" then return tostring(message) end
  return (message:gsub("^%[cdscript%]:%d+: ", ""))
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
"""#

    static let jsonSource = #"""
local escapes = { ['"'] = '\\"', ['\\'] = '\\\\', ['\b'] = '\\b', ['\f'] = '\\f', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }
local function encode(v)
  local t = type(v)
  if t == "string" then
    return '"' .. v:gsub('[%c"\\]', function(c) return escapes[c] or ("\\u%04x"):format(c:byte()) end) .. '"'
  elseif t == "number" then
    if v ~= v or v == math.huge or v == -math.huge then return "null" end
    if math.type(v) == "integer" then return tostring(v) end
    return ("%.17g"):format(v)
  elseif t == "boolean" then return tostring(v)
  elseif t == "nil" then return "null"
  elseif t == "table" then
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = tostring(k) end
    table.sort(keys)
    local parts = {}
    for _, k in ipairs(keys) do parts[#parts + 1] = encode(k) .. ":" .. encode(v[k]) end
    return "{" .. table.concat(parts, ",") .. "}"
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
        register([
            ("path_allowed", Self.pathAllowed),
            ("plugin_dirs", Self.pluginDirectories),
            ("file_exists", Self.fileExists),
            ("load_text_file", Self.loadTextFile),
            ("builtin", Self.builtinSource),
            ("hooks_changed", Self.hooksChanged),
        ], into: L)
        lua_pushboolean(L, vm.limits.sandbox ? 1 : 0)
        L.setRawField(helpers, "sandbox")
        lua_pushinteger(L, lua_Integer(vm.limits.stringRepLimit))
        L.setRawField(helpers, "rep_limit")
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
        if loadChunk(HostPrelude.jsonSource, name: "=[cdscript json]"), cd_pcall_traceback(L, 0, 1) == LUA_OK {
            L.setRawField(-2, "json")
        } else {
            preconditionFailure("cdscript: the JSON encoder does not load: \(L.string(at: -1) ?? "")")
        }
        L.setRawField(helpers, "plugin_api")

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
