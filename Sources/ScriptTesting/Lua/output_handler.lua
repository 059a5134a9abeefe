-- Runs one of busted's output handlers written in Lua (`-o FILE.lua` or `-o
-- MODULE`) in a state of its own, for `cdscript test` (LuaOutputHandler.swift).
-- The handler sees what it sees under busted: `require("busted")` with
-- subscribe/publish, parent and the clock functions, and busted's events for
-- each test, built from the results of the files cdscript ran.
-- `...`: the handler's name, its options (busted's: verbose, suppressPending,
-- deferPrint, language, arguments = -Xoutput), and the mediator maker.
-- Returns { file = function(report), finish = function() }.
local name, options, new_mediator = ...

local mediator = new_mediator()
local parents = setmetatable({}, { __mode = "k" })
local has_system, system = pcall(require, "system")
local gettime = has_system and system.gettime or os.time
local monotime = has_system and system.monotime or os.clock

local busted = {
  version = "2.1.1",
  subscribe = mediator.subscribe,
  unsubscribe = mediator.unsubscribe,
  publish = mediator.publish,
  parent = function(element) return parents[element] end,
  gettime = gettime,
  monotime = monotime,
  sleep = has_system and system.sleep or function() end,
}
busted.api = busted
package.loaded.busted = busted

-- busted's loader: a .lua file by path, else busted.outputHandlers.NAME, else the module NAME.
local handler
local ok, err = pcall(function()
  if name:match("%.lua$") then
    handler = dofile(name)
  else
    handler = require("busted.outputHandlers." .. name)
  end
end)
if not ok and tostring(err):match("module '.-' not found:") then
  ok, err = pcall(function() handler = require(name) end)
end
if not ok then error("cannot load the output handler " .. name .. ": " .. tostring(err), 0) end
if type(handler) ~= "function" then
  error("the output handler " .. name .. " returns a " .. type(handler) .. ", not busted's function(options)", 0)
end
local instance = handler(options)
if type(instance) == "table" and type(instance.subscribe) == "function" then instance:subscribe(options) end

local suite = { descriptor = "suite", name = "suite", attributes = {} }
local started = false

local function start(element, parent)
  element.starttick, element.starttime = monotime(), gettime()
  parents[element] = parent
end

local function finish(element)
  element.endtick, element.endtime = monotime(), gettime()
  element.duration = element.endtick - (element.starttick or element.endtick)
end

local function trace_of(file, line, message, traceback)
  return { short_src = file, source = "@" .. file, currentline = line, what = "Lua", message = message,
    traceback = traceback and ("\n" .. traceback .. "\n") or nil }
end

local driver = {}

-- One file's results, as busted's events: file start, describe start/end
-- around their tests, test start, failure or error, test end, file end.
function driver.file(report)
  if not started then
    started = true
    start(suite, nil)
    busted.publish({ "suite", "start" }, suite, 1, 1)
  end
  local file = { descriptor = "file", name = report.path, attributes = {} }
  start(file, suite)
  busted.publish({ "file", "start" }, file)
  if report.load_error then
    busted.publish({ "error", "file" }, file, suite, report.load_error, trace_of(report.path, 0, report.load_error))
  end
  local open = {}   -- the describes around the current test, outermost first
  local function close_to(depth)
    for i = #open, depth + 1, -1 do
      finish(open[i].element)
      busted.publish({ "describe", "end" }, open[i].element, parents[open[i].element])
      open[i] = nil
    end
  end
  for _, r in ipairs(report.results) do
    local names = r.names
    local blocks = #names - 1
    local same = 0
    while same < #open and same < blocks and open[same + 1].name == names[same + 1] do same = same + 1 end
    close_to(same)
    for i = same + 1, blocks do
      local parent = i == 1 and file or open[i - 1].element
      local element = { descriptor = "describe", name = names[i], attributes = {}, trace = trace_of(report.path, r.line, names[i]) }
      start(element, parent)
      busted.publish({ "describe", "start" }, element, parent)
      open[i] = { name = names[i], element = element }
    end
    local parent = blocks > 0 and open[blocks].element or file
    if r.descriptor ~= "it" and r.descriptor ~= "pending" then
      -- A hook, setup, teardown or block body that raised: an error of that part.
      if r.descriptor == "before_each" or r.descriptor == "after_each" then
        -- names end with the test's; the hook belongs to the block around it.
      elseif #names > 0 then
        close_to(#names - 1)
        parent = #names > 1 and open[#names - 1] and open[#names - 1].element or file
      end
      local part = { descriptor = r.descriptor, name = r.descriptor, attributes = {} }
      parents[part] = parent
      busted.publish({ "error", r.descriptor }, part, parent, r.message,
        trace_of(r.file or report.path, r.failure_line or r.line, r.message, r.traceback))
      goto next_result
    end
    do
    local element = { descriptor = r.descriptor == "pending" and "pending" or "it", name = names[#names], attributes = {},
      trace = trace_of(report.path, r.line, names[#names]) }
    start(element, parent)
    busted.publish({ "test", "start" }, element, parent)
    local status = "success"
    if r.status == "skipped" then
      status = "pending"
    elseif r.status == "failed" then
      status = r.is_error and "error" or "failure"
      local trace = trace_of(r.file or report.path, r.failure_line or r.line, r.message, r.traceback)
      busted.publish({ status, "it" }, element, parent, r.message, trace)
    end
    finish(element)
    busted.publish({ "test", "end" }, element, parent, status)
    end
    ::next_result::
  end
  close_to(0)
  finish(file)
  busted.publish({ "file", "end" }, file)
end

function driver.finish()
  if not started then
    start(suite, nil)
    busted.publish({ "suite", "start" }, suite, 1, 1)
  end
  finish(suite)
  busted.publish({ "suite", "end" }, suite, 1, 1)
  busted.publish({ "exit" })
  io.stdout:flush()
end

return driver
