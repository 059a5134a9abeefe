-- Put before every built-in plugin's code (BuiltinPlugins.swift): option checks and the per-countdown filter.
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
