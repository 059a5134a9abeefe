/// The plugins shipped inside the binary, as Lua source: `bell`, `notify`,
/// `exec`, `log`, `formats`, and `timer_keys` (BuiltinPlugins/timer_keys.lua,
/// embedded as a resource). Each is loaded like a plugin file (a module that
/// returns a table with `setup(options)`), with its name and a table of host
/// helpers (`bell`, `spawn`, `which`, `append_line`, `warn`, `wall_time`, `json`)
/// as `...`. Loading has no effect; `use(name, options)` calls `setup`.
public enum BuiltinPlugins {
    public static let names = ["bell", "exec", "formats", "log", "notify", "timer_keys"]

    public static let sources: [String: String] = [
        "bell": bell, "notify": notify, "exec": exec, "log": log, "formats": formats,
        "timer_keys": common + String(decoding: PackageResources.timer_keys_lua, as: UTF8.self),
    ]

    /// The shared part: option checks and the per-countdown filter.
    static let common = #"""
local plugin, api = ...
-- Library functions as they were before the script ran (api.std), and the host's
-- own countdown.on and countdown.formatter: a script may replace string.gsub or
-- countdown.on, and plugin code must never call its version.
local std = api.std
local pairs, ipairs, type, tostring, error = std.pairs, std.ipairs, std.type, std.tostring, std.error
local sort, concat, gsub, format, floor = std.sort, std.concat, std.gsub, std.format, std.floor
local on, formatter = api.on, api.formatter
local function check_options(options, allowed)
  for k in pairs(options) do
    if not allowed[k] then
      local known = {}
      for name in pairs(allowed) do known[#known + 1] = name end
      sort(known)
      error(plugin .. ": unknown option '" .. tostring(k) .. "'; known: " .. concat(known, ", "), 3)
    end
  end
  if options.id ~= nil and type(options.id) ~= "string" then
    error(plugin .. ": 'id' must be a string (the countdown to follow), got " .. type(options.id), 3)
  end
end
local function follows(options, t)
  return options.id == nil or t.id == options.id
end
local function describe(t)
  return t.id and ('countdown "' .. t.id .. '"') or "a countdown"
end

"""#

    static let bell = common + #"""
local M = { description = "rings the terminal bell when a countdown finishes" }

--- use("bell", {id = "tea"}): rings at done (of every countdown, or only `id`):
--- through the view while it is open full screen, else BEL on a terminal stdout.
function M.setup(options)
  check_options(options, { id = true })
  local function ring(t)
    if follows(options, t) then api.bell() end
  end
  return { remove = on("done", ring), ring = ring }
end
return M
"""#

    static let notify = common + #"""
local M = { description = "shows a desktop notification (notify-send) when a countdown finishes" }

--- use("notify", {title = "Tea", message = "ready", id = "tea"})
function M.setup(options)
  check_options(options, { id = true, title = true, message = true, program = true })
  for _, key in ipairs({ "title", "message", "program" }) do
    if options[key] ~= nil and type(options[key]) ~= "string" then
      error("notify: '" .. key .. "' must be a string, got " .. type(options[key]), 2)
    end
  end
  local program = options.program or "notify-send"
  local function notify(t)
    if not follows(options, t) then return end
    local body = options.message or (describe(t) .. " finished")
    local path = api.which(program)
    if not path then
      api.warn("cdscript notify: no desktop notification for " .. describe(t) .. ": " .. program ..
        " is not installed (on Debian: apt install libnotify-bin)")
      return
    end
    local ok, err = api.spawn({ path, options.title or "cdscript", body }, plugin)
    if not ok then api.warn("cdscript notify: no desktop notification for " .. describe(t) .. ": " .. err) end
  end
  return { remove = on("done", notify), notify = notify }
end
return M
"""#

    static let exec = common + #"""
local M = { description = "runs a command (an argument list, never a shell) when a countdown finishes" }

--- use("exec", {command = {"paplay", "/usr/share/sounds/bell.oga"}, id = "tea"})
--- An argument "{id}" is replaced by the countdown's id.
function M.setup(options)
  check_options(options, { id = true, command = true })
  local command = options.command
  if type(command) ~= "table" or #command == 0 then
    error("exec: 'command' must be a non-empty list of strings, such as {\"echo\", \"done\"}, got " .. type(command), 2)
  end
  for i, argument in ipairs(command) do
    if type(argument) ~= "string" then error("exec: command[" .. i .. "] must be a string, got " .. type(argument), 2) end
  end
  local function run(t)
    if not follows(options, t) then return end
    local argv = {}
    for i, argument in ipairs(command) do argv[i] = (gsub(argument, "{id}", function() return t.id or "" end)) end
    local pid, err = api.spawn(argv, plugin)
    if not pid then api.warn("cdscript exec: not run for " .. describe(t) .. ": " .. err) end
  end
  return { remove = on("done", run), run = run }
end
return M
"""#

    static let log = common + #"""
local M = { description = "writes every event as a JSON line to a file" }

--- use("log", {path = "countdowns.jsonl", ticks = true})
--- Each line: {"event":"tick","id":"tea","remaining":12.5,"elapsed":47.5,"time":"2026-...Z"}
function M.setup(options)
  check_options(options, { id = true, path = true, ticks = true })
  if type(options.path) ~= "string" or options.path == "" then
    error("log: 'path' must be a file name, got " .. type(options.path), 2)
  end
  local warned = false
  local removers = {}
  for _, event in ipairs({ "start", "tick", "done", "cancel" }) do
    if event ~= "tick" or options.ticks ~= false then
      removers[#removers + 1] = on(event, function(t)
        if not follows(options, t) then return end
        local line = api.json({ event = event, id = t.id, remaining = t.remaining, elapsed = t.elapsed, time = api.wall_time() })
        local ok, err = api.append_line(options.path, line)
        if not ok and not warned then
          warned = true
          api.warn("cdscript log: " .. err)
        end
      end)
    end
  end
  return { remove = function() for _, remove in ipairs(removers) do remove() end end }
end
return M
"""#

    static let formats = common + #"""
local M = { description = "formatters: compact (1d 02:03:04.5), humanized (in 3 days), clock (02:03)" }

--- 1d 02:03:04.5; the day part only when there are days.
function M.compact(t)
  if t.days > 0 then
    return format("%dd %02d:%02d:%02d.%d", t.days, t.hours, t.minutes, t.seconds, t.tenths)
  end
  return format("%02d:%02d:%02d.%d", t.hours, t.minutes, t.seconds, t.tenths)
end

local UNITS = { { 86400, "day" }, { 3600, "hour" }, { 60, "minute" }, { 1, "second" } }
--- in 3 days / in 1 hour / in 5 minutes / in 10 seconds / now: the largest whole unit.
function M.humanized(t)
  local r = t.remaining
  if r <= 0 then return "now" end
  for _, unit in ipairs(UNITS) do
    if r >= unit[1] then
      local n = floor(r / unit[1])
      return "in " .. n .. " " .. unit[2] .. (n == 1 and "" or "s")
    end
  end
  return "in less than a second"
end

--- 02:03: whole minutes (past 59 when an hour or more is left) and seconds.
function M.clock(t)
  return format("%02d:%02d", floor(t.remaining // 60), t.seconds)
end

function M.setup(options)
  check_options(options, {})
  formatter("compact", M.compact)
  formatter("humanized", M.humanized)
  formatter("clock", M.clock)
  return M
end
return M
"""#
}
