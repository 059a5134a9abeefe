/// The Lua half of `cdscript test`: the globals a test file sees (`describe`,
/// `it`, `before_each`, `after_each`, `pending`, `expect`, `spy`, `load_script`,
/// `printed`) and the code that runs one collected test.
///
/// It runs before the test file, with the file's path as `...`, and returns the
/// table the Swift runner drives: `count()`, `run(i, filter)`. The `clock` table
/// is bound by the host (`LuaHost.installVirtualClockLibrary`), not here.
///
/// Messages never show addresses (`table: 0x...`), so that the same files always
/// give the same report.
enum TestPrelude {
    /// The chunk name; frames from it are left out of tracebacks.
    static let chunkName = "=(cdscript test)"
    static let sourceMarker = "(cdscript test)"

    static let source = #"""
local test_file, run_limited = ...
local test_dir = test_file:match("^(.*)/[^/]*$") or "."
local PRELUDE = "(cdscript test)"

local tests = {}
local root = { before = {}, after = {} }
local block = root
local running = nil
local output = nil

-- Rendering values -------------------------------------------------------

local show

local function show_key(k)
  if type(k) == "string" and k:match("^[%a_][%w_]*$") then return k end
  return "[" .. show(k, 0, {}) .. "]"
end

local function key_order(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta < tb end
  if ta == "number" or ta == "string" then return a < b end
  return false
end

local function show_number(n)
  if math.type(n) == "integer" then return tostring(n) end
  if n ~= n then return "nan" end
  if n == math.huge then return "inf" elseif n == -math.huge then return "-inf" end
  local short = string.format("%.14g", n)
  if tonumber(short) == n then return short end
  return string.format("%.17g", n)
end

show = function(v, depth, seen)
  depth, seen = depth or 0, seen or {}
  local t = type(v)
  if t == "string" then return (string.format("%q", v):gsub("\\\n", "\\n")) end
  if t == "number" then return show_number(v) end
  if t == "nil" or t == "boolean" then return tostring(v) end
  if t == "table" then
    local mt = getmetatable(v)
    if type(mt) == "table" and rawget(mt, "__tostring") then return tostring(v) end
    if seen[v] then return "<cycle>" end
    if depth >= 4 then return "{...}" end
    seen[v] = true
    local parts, n = {}, #v
    for i = 1, n do parts[#parts + 1] = show(v[i], depth + 1, seen) end
    local keys = {}
    for k in pairs(v) do
      if not (math.type(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
    end
    table.sort(keys, key_order)
    for _, k in ipairs(keys) do parts[#parts + 1] = show_key(k) .. " = " .. show(v[k], depth + 1, seen) end
    seen[v] = nil
    return "{" .. table.concat(parts, ", ") .. "}"
  end
  if t == "userdata" then
    local ok, text = pcall(tostring, v)
    if ok and type(text) == "string" and not text:match("^userdata: ") then return text end
    return "<userdata>"
  end
  return "<" .. t .. ">"
end

-- Failures ---------------------------------------------------------------

local Failure = {}
Failure.__index = Failure
Failure.__tostring = function(f) return f.message end

local function fail(message, expected, actual)
  error(setmetatable({ message = message, expected = expected, actual = actual }, Failure), 0)
end

local function deep_equal(a, b, seen)
  if rawequal(a, b) then return true end
  if type(a) ~= type(b) then return false end
  if type(a) == "number" then return a == b end
  if type(a) ~= "table" then return false end
  seen = seen or {}
  if seen[a] == b then return true end
  seen[a] = b
  for k, v in pairs(a) do
    if not deep_equal(v, rawget(b, k), seen) then return false end
  end
  for k in pairs(b) do
    if rawget(a, k) == nil then return false end
  end
  return true
end

local function matches(text, pattern)
  if text:find(pattern, 1, true) then return true end
  local ok, found = pcall(string.find, text, pattern)
  return ok and found ~= nil
end

local function error_text(e)
  if getmetatable(e) == Failure then return e.message end
  if type(e) == "string" then return e end
  return show(e)
end

-- expect -----------------------------------------------------------------

-- Each matcher returns: passed, what was expected (as text), the message for a
-- failure, the message for a failure when negated.
local matchers = {}

function matchers.to_be(actual, expected)
  return rawequal(actual, expected), show(expected),
    "expected " .. show(actual) .. " to be " .. show(expected),
    "expected " .. show(actual) .. " not to be " .. show(expected)
end

function matchers.to_equal(actual, expected)
  return deep_equal(actual, expected), show(expected),
    "expected values to be equal",
    "expected values to differ"
end

function matchers.to_be_near(actual, expected, tolerance)
  tolerance = tolerance or 1e-9
  if type(expected) ~= "number" or type(tolerance) ~= "number" then
    error("to_be_near: expected a number and a tolerance, got " .. type(expected) .. " and " .. type(tolerance), 3)
  end
  local near = type(actual) == "number" and math.abs(actual - expected) <= tolerance
  local want = show(expected) .. " +/- " .. show(tolerance)
  return near, want,
    "expected " .. show(actual) .. " to be within " .. show(tolerance) .. " of " .. show(expected),
    "expected " .. show(actual) .. " not to be within " .. show(tolerance) .. " of " .. show(expected)
end

function matchers.to_throw(fn, pattern)
  if type(fn) ~= "function" and not (getmetatable(fn) or {}).__call then
    error("to_throw: expect() needs a function here, got " .. type(fn), 3)
  end
  local ok, e = pcall(fn)
  local want = pattern and ("an error matching " .. show(pattern)) or "an error"
  if ok then
    return false, want, "expected the function to raise " .. want .. ", it returned", "expected the function not to raise an error"
  end
  local text = error_text(e)
  local passed = pattern == nil or matches(text, pattern)
  return passed, want,
    "expected the function to raise " .. want .. ", it raised: " .. text,
    "expected the function not to raise " .. want .. ", it raised: " .. text,
    text
end

local function expectation(actual, negated)
  local e = {}
  for name, matcher in pairs(matchers) do
    e[name] = function(...)
      local passed, want, message, negated_message, got = matcher(actual, ...)
      if negated then
        if passed then fail(negated_message, "not " .. want, got or show(actual)) end
      elseif not passed then
        fail(message, want, got or show(actual))
      end
    end
  end
  return e
end

function expect(actual)
  local e = expectation(actual, false)
  e.never = expectation(actual, true)
  return e
end

-- spy --------------------------------------------------------------------

local Spy = {}
Spy.__call = function(self, ...)
  self.count = self.count + 1
  self.calls[self.count] = { ... }
  if self.fn then return self.fn(...) end
end
Spy.__tostring = function(self) return "spy(" .. self.count .. " calls)" end

function spy(fn)
  if fn ~= nil and type(fn) ~= "function" and not (getmetatable(fn) or {}).__call then
    error("spy: expected a function or nothing, got " .. type(fn), 2)
  end
  return setmetatable({ calls = {}, count = 0, fn = fn }, Spy)
end

-- Structure --------------------------------------------------------------

local function caller_line()
  local info = debug.getinfo(3, "Sl")
  return info and info.currentline or 0
end

local function not_while_running(what)
  if running then error(what .. " cannot be called inside a test; call it at the top of the file or in a describe", 3) end
end

local function full_name(b, name)
  local parts = { name }
  while b and b.name do
    table.insert(parts, 1, b.name)
    b = b.parent
  end
  return table.concat(parts, " > ")
end

function describe(name, fn)
  not_while_running("describe")
  if type(name) ~= "string" then error("describe: expected a name string, got " .. type(name), 2) end
  if type(fn) ~= "function" then error("describe: expected a function after the name, got " .. type(fn), 2) end
  local outer = block
  block = { name = name, parent = outer, before = {}, after = {} }
  -- An error here stops the whole file (a load error), so `block` need not be
  -- restored on the way out, and the traceback reaches the failing line.
  fn()
  block = outer
end

function it(name, fn)
  not_while_running("it")
  if type(name) ~= "string" then error("it: expected a name string, got " .. type(name), 2) end
  if fn ~= nil and type(fn) ~= "function" then error("it: expected a function after the name, got " .. type(fn), 2) end
  tests[#tests + 1] = { name = full_name(block, name), fn = fn, block = block, pending = fn == nil, line = caller_line() }
end

function pending(name)
  not_while_running("pending")
  if type(name) ~= "string" then error("pending: expected a name string, got " .. type(name), 2) end
  tests[#tests + 1] = { name = full_name(block, name), block = block, pending = true, line = caller_line() }
end

function before_each(fn)
  not_while_running("before_each")
  if type(fn) ~= "function" then error("before_each: expected a function, got " .. type(fn), 2) end
  block.before[#block.before + 1] = fn
end

function after_each(fn)
  not_while_running("after_each")
  if type(fn) ~= "function" then error("after_each: expected a function, got " .. type(fn), 2) end
  block.after[#block.after + 1] = fn
end

-- Scripts and output -----------------------------------------------------

function load_script(path, ...)
  if type(path) ~= "string" then error("load_script: expected a path string, got " .. type(path), 2) end
  local resolved = path
  local f = io.open(path, "r")
  if f then
    f:close()
  elseif not path:match("^/") then
    resolved = test_dir .. "/" .. path
  end
  local chunk, message = loadfile(resolved, "t")
  if not chunk then error("load_script: " .. message, 2) end
  arg = { [0] = resolved, ... }
  return chunk(...)
end

print = function(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
  local line = table.concat(parts, "\t")
  if output then
    output[#output + 1] = line
  else
    io.stderr:write(line, "\n")
  end
end

-- Ending the process would end every other test file with it.
os.exit = function()
  error("os.exit is not available in tests (the test runner owns the process)", 2)
end

function printed()
  local copy = {}
  for i, line in ipairs(output or {}) do copy[i] = line end
  return copy
end

-- Running ----------------------------------------------------------------

-- The first frame of user code, not this prelude's nor C's: its level and `FILE:LINE`.
local function user_frame(level)
  while true do
    local info = debug.getinfo(level, "Sl")
    if not info then return nil end
    if info.what ~= "C" and info.short_src ~= PRELUDE and info.currentline and info.currentline > 0 then
      return level, info.short_src .. ":" .. info.currentline
    end
    level = level + 1
  end
end

local function handler(e)
  -- Level 1 is this handler; the traceback starts at the failing line of user code.
  local level, location = user_frame(2)
  local failure = { location = location, traceback = debug.traceback("", (level or 2) - 1) }
  if getmetatable(e) == Failure then
    failure.message, failure.expected, failure.actual = e.message, e.expected, e.actual
  else
    failure.message = error_text(e)
  end
  return failure
end

local function chain(b)
  local blocks = {}
  while b do
    table.insert(blocks, 1, b)
    b = b.parent
  end
  return blocks
end

local suite = {}

-- How Lua names the test file in messages and tracebacks: long paths are cut
-- to "...tail"; the runner puts the whole path back.
suite.short_src = load("return debug.getinfo(1, 'S').short_src", "@" .. test_file)()

function suite.count() return #tests end

-- Runs test `i` unless `filter` leaves it out (then returns nil).
function suite.run(i, filter)
  local t = tests[i]
  if filter and not matches(t.name, filter) then return nil end
  local result = { name = t.name, line = t.line }
  if t.pending then
    result.status = "skipped"
    return result
  end
  output = {}
  running = t
  local failure
  local blocks = chain(t.block)
  for _, b in ipairs(blocks) do
    for _, fn in ipairs(b.before) do
      if not failure then
        local ok, f = run_limited(fn, handler)
        if not ok then failure = f end
      end
    end
  end
  if not failure then
    local ok, f = run_limited(t.fn, handler)
    if not ok then failure = f end
  end
  for k = #blocks, 1, -1 do
    for _, fn in ipairs(blocks[k].after) do
      local ok, f = run_limited(fn, handler)
      if not ok and not failure then failure = f end
    end
  end
  running = nil
  result.output = table.concat(output, "\n")
  output = nil
  if failure then
    result.status = "failed"
    result.message = failure.message
    result.location = failure.location
    result.expected = failure.expected
    result.actual = failure.actual
    result.traceback = failure.traceback
  else
    result.status = "passed"
  end
  return result
end

return suite
"""#
}
