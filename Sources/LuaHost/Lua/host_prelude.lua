-- The host's own Lua (HostPrelude.swift loads it once, when the host is made).
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
-- sandbox, os.getenv are C functions (Sources/CLuaShim/stdlib_*.c).
if sandbox then
  io, debug = nil, nil
  package.loaded.io, package.loaded.debug = nil, nil
  os.execute, os.exit, os.remove, os.rename, os.tmpname = nil, nil, nil, nil, nil
  package.loadlib = nil
  package.cpath = ""
end

local function strip_prelude(message)
  if type(message) ~= "string" then return tostring(message) end
  return (gsub(message, "^cdscript/host_prelude%.lua:%d+: ", ""))
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

-- api.json compiles Lua/json.lua at its first call, so that a run that writes
-- no JSON does not pay for compiling it (a tenth of every start), and hands it
-- the library functions taken before any script ran.
local load_json, plugin_std, json_encode = H.load_json, H.plugin_api.std, nil
H.plugin_api.json = function(value)
  if not json_encode then json_encode = load_json()(plugin_std) end
  return json_encode(value)
end
