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
local test_file, H = ...
local run_limited = H.run_limited
local test_dir = test_file:match("^(.*)/[^/]*$") or "."
local PRELUDE = "(cdscript test)"
local OUTPUT_LIMIT = H.output_limit or 65536

-- busted's module paths: the folder the run starts in, and ./src.
do
  local extra = { "./?.lua", "./?/init.lua", "./src/?.lua", "./src/?/?.lua", "./src/?/init.lua" }
  local parts = {}
  for _, p in ipairs(extra) do
    if not (";" .. package.path .. ";"):find(";" .. p .. ";", 1, true) then parts[#parts + 1] = p end
  end
  if #parts > 0 then package.path = table.concat(parts, ";") .. ";" .. package.path end
end

-- luassert: the assertions, spies, stubs, mocks and matchers of busted.
local found, luassert = pcall(require, "luassert")
if not found then
  error("cdscript test needs luassert, the assertion library of busted, and cannot load it " ..
    "(on Debian: apt install lua-luassert; or put it on LUA_PATH_5_4):\n" .. tostring(luassert), 0)
end
local luassert_spy, luassert_stub = require("luassert.spy"), require("luassert.stub")
local luassert_mock, luassert_match = require("luassert.mock"), require("luassert.match")

local root = { children = {}, hooks = {}, kind = "file" }
local block = root      -- the block whose body is running (where declarations go)
local running = nil     -- the test running, if any
local output = nil
local output_size = 0
local declared = 0      -- tests declared so far (describe bodies run as the file runs)

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

-- The path to the first place where two tables differ: `[2].name`, and both values there.
local function path_step(k)
  if type(k) == "string" and k:match("^[%a_][%w_]*$") then return "." .. k end
  return "[" .. show(k, 0, {}) .. "]"
end

local function first_difference(expected, actual, path, seen)
  if deep_equal(expected, actual) then return nil end
  if type(expected) ~= "table" or type(actual) ~= "table" then return path, expected, actual end
  seen = seen or {}
  if seen[expected] then return nil end
  seen[expected] = true
  local keys = {}
  for k in pairs(expected) do keys[#keys + 1] = k end
  for k in pairs(actual) do if rawget(expected, k) == nil then keys[#keys + 1] = k end end
  table.sort(keys, key_order)
  for _, k in ipairs(keys) do
    local p, e, a = first_difference(rawget(expected, k), rawget(actual, k), path .. path_step(k), seen)
    if p then return p, e, a end
  end
  return path, expected, actual
end

local function difference_text(expected, actual)
  local path, e, a = first_difference(expected, actual, "")
  if not path or path == "" then return "" end
  if path:sub(1, 1) == "." then path = path:sub(2) end
  return "\nat " .. path .. ": expected " .. show(e) .. ", got " .. show(a)
end

-- Two multi-line strings as lines: "  " same, "- " expected, "+ " actual.
local function split_lines(text)
  local lines = {}
  for line in (text .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = line end
  return lines
end

local function line_diff(expected, actual)
  local e, a = split_lines(expected), split_lines(actual)
  local out, first = {}, nil
  for i = 1, math.max(#e, #a) do
    if e[i] == a[i] then
      out[#out + 1] = "  " .. e[i]
    else
      first = first or i
      if e[i] then out[#out + 1] = "- " .. e[i] end
      if a[i] then out[#out + 1] = "+ " .. a[i] end
    end
  end
  return "line " .. (first or 1) .. " differs (- expected, + actual):\n" .. table.concat(out, "\n")
end

local function multiline(expected, actual)
  return type(expected) == "string" and type(actual) == "string" and (expected:find("\n", 1, true) or actual:find("\n", 1, true))
end

-- A failed comparison of multi-line strings says it as lines; expected and actual are in the message.
local function compare_failure(actual, expected, message)
  if multiline(expected, actual) then
    return "expected strings to be equal: " .. line_diff(expected, actual), false
  end
  return message, true
end

function matchers.to_be(actual, expected)
  local passed = rawequal(actual, expected)
  local message = "expected " .. show(actual) .. " to be " .. show(expected)
  if not passed and type(actual) == "table" and type(expected) == "table" and deep_equal(actual, expected) then
    message = message .. ": the tables are equal but not the same table (to_equal compares contents)"
  end
  local text, keep = compare_failure(actual, expected, message)
  return passed, keep and show(expected) or nil,
    text,
    "expected " .. show(actual) .. " not to be " .. show(expected),
    not keep and "" or nil
end

function matchers.to_equal(actual, expected)
  local text, keep = compare_failure(actual, expected, "expected values to be equal" .. difference_text(expected, actual))
  return deep_equal(actual, expected), keep and show(expected) or nil,
    text,
    "expected values to differ",
    not keep and "" or nil
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
    return false, want, "expected the function to raise " .. want .. ", nothing was raised", "expected the function not to raise an error"
  end
  local text = error_text(e)
  local passed = pattern == nil or matches(text, pattern)
  return passed, want,
    "expected the function to raise " .. want .. ", it raised: " .. text,
    "expected the function not to raise " .. want .. ", it raised: " .. text,
    text
end

-- Snapshots: __snapshots__/FILE.snap beside the test file, one entry per
-- to_match_snapshot call, keyed by the test's full name and the call's number.
local snapshots = { path = test_dir .. "/__snapshots__/" .. (test_file:match("([^/]*)$")):gsub("%.lua$", "") .. ".snap" }
local snapshot_count = 0

local function snapshot_entries()
  if snapshots.entries then return snapshots.entries end
  local entries, order = {}, {}
  local f = io.open(snapshots.path, "rb")
  if f then
    local text = f:read("a")
    f:close()
    local at = 1
    while at <= #text do
      local header_end = text:find("\n", at, true)
      if not header_end then break end
      local key, size = text:sub(at, header_end - 1):match("^== (.-) %((%d+) bytes%)$")
      if not key then break end
      size = tonumber(size)
      entries[key] = text:sub(header_end + 1, header_end + size)
      order[#order + 1] = key
      at = header_end + size + 2
    end
  end
  snapshots.entries, snapshots.order = entries, order
  return entries
end

local function save_snapshots()
  if not snapshots.dirty then return end
  local dir = snapshots.path:match("^(.*)/[^/]*$")
  local made, why = H.make_directory(dir)
  if not made then error("to_match_snapshot: cannot create " .. dir .. ": " .. tostring(why), 0) end
  local f, err = io.open(snapshots.path, "wb")
  if not f then error("to_match_snapshot: cannot write " .. snapshots.path .. ": " .. tostring(err), 0) end
  for _, key in ipairs(snapshots.order) do
    local value = snapshots.entries[key]
    f:write("== ", key, " (", #value, " bytes)\n", value, "\n")
  end
  f:close()
  snapshots.dirty = false
end

function matchers.to_match_snapshot(actual)
  if not running then error("to_match_snapshot: only inside a test", 3) end
  snapshot_count = snapshot_count + 1
  local key = running.full_name:gsub("\n", " ") .. " #" .. snapshot_count
  local text = type(actual) == "string" and actual or show(actual)
  local entries = snapshot_entries()
  local stored = entries[key]
  if stored == nil or (H.update_snapshots and stored ~= text) then
    if stored == nil then snapshots.order[#snapshots.order + 1] = key end
    entries[key] = text
    snapshots.dirty = true
    save_snapshots()
    return true, "", "", "to_match_snapshot cannot be negated"
  end
  if stored == text then return true, "", "", "to_match_snapshot cannot be negated" end
  local message
  if multiline(stored, text) then
    message = "expected the snapshot " .. key .. " in " .. snapshots.path .. " (--update-snapshots rewrites it): " .. line_diff(stored, text)
    return false, nil, message, "", ""
  end
  message = "expected the snapshot " .. key .. " in " .. snapshots.path .. " (--update-snapshots rewrites it)"
  return false, show(stored), message, "", show(text)
end

local function expectation(actual, negated)
  local e = {}
  for name, matcher in pairs(matchers) do
    e[name] = function(...)
      local passed, want, message, negated_message, got = matcher(actual, ...)
      if negated then
        if passed then fail(negated_message, "not " .. (want or show(actual)), got or show(actual)) end
      elseif not passed then
        -- An empty `got` (and no `want`): the message holds both already.
        if got == "" then fail(message) end
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

-- spy, stub, mock, match: luassert's --------------------------------------

-- luassert's spies, plus what cdscript's own spies had: `s.count`, and
-- `s.calls[i]` as the list of arguments (luassert's `vals`/`refs` stay readable).
do
  local spy_mt = getmetatable(luassert_spy.new(function() end))
  local call = spy_mt.__call
  local entry_fields = function(entry) return { vals = entry.vals, refs = entry.refs } end
  spy_mt.__call = function(self, ...)
    local calls = rawget(self, "calls")
    local n = #calls + 1
    local function reshape(...)
      local entry = rawget(self, "calls") == calls and calls[n]
      if type(entry) == "table" and getmetatable(entry) == nil and entry.vals then
        local args = {}
        for i = 1, entry.vals.n or #entry.vals do args[i] = entry.vals[i] end
        calls[n] = setmetatable(args, { __index = entry_fields(entry) })
      end
      return ...
    end
    return reshape(call(self, ...))
  end
  spy_mt.__index = function(self, key)
    if key == "count" then return #rawget(self, "calls") end
  end
  spy_mt.__tostring = function(self) return "spy(" .. #rawget(self, "calls") .. " calls)" end
end

assert, spy, stub, mock, match = luassert, luassert_spy, luassert_stub, luassert_mock, luassert_match

-- Structure --------------------------------------------------------------

-- busted's environments: the test file's globals live in the block (or test)
-- running when they are set, and are read through its parents, then _G. A
-- global set in one describe is not seen by the next; one set in a test is gone
-- after it. Hooks write into the block that declared them; expose's body into
-- the block around its parent (busted's unwrap).
local ctx = root
local function get_env(el, key)
  if not el then return nil end
  return el.env and el.env[key] or get_env(el.parent, key) or _G[key]
end
local file_env = setmetatable({}, {
  __index = function(_, key) return get_env(ctx, key) end,
  __newindex = function(_, key, value)
    local el = ctx.write_to or ctx
    if not el.env then el.env = {} end
    el.env[key] = value
  end,
})

-- The test file's main chunk gets file_env as its _ENV (its own upvalue, as
-- busted's setfenv does) at its first declaration, and so does the function
-- given to it (made just before); closures made from then on share it.
local function set_env(f)
  if type(f) ~= "function" then return end
  local up = 0
  repeat
    up = up + 1
    local name, value = debug.getupvalue(f, up)
    if name == "_ENV" then
      if value == _G then debug.upvaluejoin(f, up, function() return file_env end, 1) end
      return
    end
  until name == nil
end

local wrapped = false
local function wrap_file(level, fn)
  if wrapped then return end
  wrapped = true
  local info = debug.getinfo(level + 1, "fS")
  if not info or info.what ~= "main" or info.source ~= "@" .. test_file then return end
  set_env(info.func)
  set_env(fn)
end

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

local function add_block(kind, envmode)
  return function(name, fn)
    not_while_running(kind)
    wrap_file(2, fn)
    if type(name) ~= "string" then error(kind .. ": expected a name string, got " .. type(name), 2) end
    if type(fn) ~= "function" then error(kind .. ": expected a function after the name, got " .. type(fn), 2) end
    local b = { kind = kind, name = name, fn = fn, parent = block, children = {}, hooks = {}, envmode = envmode, line = caller_line() }
    block.children[#block.children + 1] = b
  end
end

describe = add_block("describe")
context = add_block("context")
insulate = add_block("insulate", "insulate")
expose = add_block("expose", "expose")

local function add_test(kind)
  return function(name, fn)
    not_while_running(kind)
    wrap_file(2, fn)
    if type(name) ~= "string" then error(kind .. ": expected a name string, got " .. type(name), 2) end
    if fn ~= nil and type(fn) ~= "function" then error(kind .. ": expected a function after the name, got " .. type(fn), 2) end
    declared = declared + 1
    block.children[#block.children + 1] = { kind = "test", name = name, fn = fn, parent = block, pending = fn == nil, line = caller_line() }
  end
end

it = add_test("it")
spec = add_test("spec")
test = add_test("test")

local Pending = {}

function pending(name)
  -- Inside a test, as busted: the test stops here and is reported as pending.
  if running then error(setmetatable({ message = name }, Pending), 2) end
  if type(name) ~= "string" then error("pending: expected a name string, got " .. type(name), 2) end
  wrap_file(2, nil)
  declared = declared + 1
  block.children[#block.children + 1] = { kind = "test", name = name, parent = block, pending = true, line = caller_line() }
end

local function add_hook(kind)
  return function(fn)
    not_while_running(kind)
    wrap_file(2, fn)
    if type(fn) ~= "function" then error(kind .. ": expected a function, got " .. type(fn), 2) end
    local list = block.hooks[kind]
    if not list then list = {} block.hooks[kind] = list end
    list[#list + 1] = { fn = fn, line = caller_line() }
  end
end

before_each = add_hook("before_each")
after_each = add_hook("after_each")
lazy_setup = add_hook("lazy_setup")
lazy_teardown = add_hook("lazy_teardown")
strict_setup = add_hook("strict_setup")
strict_teardown = add_hook("strict_teardown")
setup = strict_setup        -- as in busted 2
teardown = strict_teardown

local finally_fns = nil
function finally(fn)
  if not running or not finally_fns then error("finally: only inside a test (it)", 2) end
  if type(fn) ~= "function" then error("finally: expected a function, got " .. type(fn), 2) end
  finally_fns[#finally_fns + 1] = fn
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

-- What a test prints is kept (up to OUTPUT_LIMIT bytes) for its report.
print = function(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
  local line = table.concat(parts, "\t")
  if output then
    if output_size > OUTPUT_LIMIT then return end
    output_size = output_size + #line + 1
    if output_size > OUTPUT_LIMIT then
      output[#output + 1] = line:sub(1, math.max(0, #line - (output_size - OUTPUT_LIMIT)))
      output[#output + 1] = "... (output cut at " .. OUTPUT_LIMIT .. " bytes)"
    else
      output[#output + 1] = line
    end
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

-- Hermetic time: Lua's own clock functions follow the virtual clock, in UTC.
do
  local clock_now, clock_wall = clock.now, clock.wall
  local real_date, floor = os.date, math.floor

  local function days_from_civil(y, m, d)
    y = m <= 2 and y - 1 or y
    local era = (y >= 0 and y or y - 399) // 400
    local yoe = y - era * 400
    local doy = (153 * (m + (m > 2 and -3 or 9)) + 2) // 5 + d - 1
    local doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468
  end

  local function field(t, key, default)
    local v = t[key]
    if v == nil then
      if default == nil then error("field '" .. key .. "' missing in date table", 3) end
      return default
    end
    if math.type(v) ~= "integer" then
      local n = math.tointeger(v)
      if not n then error("field '" .. key .. "' is not an integer", 3) end
      v = n
    end
    return v
  end

  os.time = function(t)
    if t == nil then return floor(clock_wall()) end
    if type(t) ~= "table" then error("bad argument #1 to 'time' (table expected, got " .. type(t) .. ")", 2) end
    local year, month = field(t, "year"), field(t, "month")
    local day = field(t, "day")
    local hour, min, sec = field(t, "hour", 12), field(t, "min", 0), field(t, "sec", 0)
    year = year + (month - 1) // 12
    month = (month - 1) % 12 + 1
    local seconds = (days_from_civil(year, month, 1) + day - 1) * 86400 + hour * 3600 + min * 60 + sec
    -- os.time normalises the table's fields, as C's mktime does.
    local n = os.date("!*t", seconds)
    for k, v in pairs(n) do t[k] = v end
    return seconds
  end

  -- Tests run in UTC: a format without "!" is read as UTC too.
  os.date = function(format, time)
    format = format == nil and "%c" or format
    if type(format) ~= "string" then error("bad argument #1 to 'date' (string expected, got " .. type(format) .. ")", 2) end
    if time == nil then time = floor(clock_wall()) end
    if format:sub(1, 1) ~= "!" then format = "!" .. format end
    return real_date(format, time)
  end

  os.clock = function() return clock_now() end
end

-- Plugins act on nothing real in tests: what they did is recorded instead.
function plugin_calls(name)
  if name ~= nil and type(name) ~= "string" then error("plugin_calls: expected a plugin name or nothing, got " .. type(name), 2) end
  return H.plugin_calls(name)
end

-- Running ----------------------------------------------------------------

-- The first frame of user code, not this prelude's, luassert's nor C's: its level and `FILE:LINE`.
local function user_frame(level)
  while true do
    local info = debug.getinfo(level, "Sl")
    if not info then return nil end
    if info.what ~= "C" and info.short_src ~= PRELUDE and info.currentline and info.currentline > 0
      and not info.source:find("/luassert/", 1, true) and not info.source:find("/say/", 1, true) then
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
  elseif getmetatable(e) == Pending then
    failure.pending, failure.message = true, tostring(e.message)
  else
    failure.message = error_text(e)
  end
  return failure
end

-- Calls fn with el as the running context (where its globals go).
local function call(fn, el)
  local outer = ctx
  ctx = el or ctx
  local ok, failure = run_limited(fn, handler)
  ctx = outer
  if ok then return nil end
  if type(failure) ~= "table" then failure = { message = error_text(failure) } end
  return failure
end

local options = {}
local results = {}

-- busted's tags: words after "#" anywhere in the full name.
local function has_tag(name, tags)
  for tag in name:gmatch("#([%w_%-]+)") do
    if tags[tag] then return true end
  end
  return false
end

-- The filter sees the name as cdscript shows it ("a > b") and as busted does ("a b").
local function selected(name)
  if options.filter and not matches(name, options.filter)
    and not matches((name:gsub(" > ", " ")), options.filter) then return false end
  if options.filter_out and (matches(name, options.filter_out) or matches((name:gsub(" > ", " ")), options.filter_out)) then return false end
  if options.exclude_tags and has_tag(name, options.exclude_tags) then return false end
  if options.tags and next(options.tags) and not has_tag(name, options.tags) then return false end
  return true
end

local function record(result, failure)
  if failure then
    result.status = "failed"
    result.message = failure.message
    result.location = failure.location
    result.expected = failure.expected
    result.actual = failure.actual
    result.traceback = failure.traceback
  end
  results[#results + 1] = result
end

-- An error outside a test (a describe's body, setup, teardown) counts as a failure of its block.
local function block_failure(b, what, failure)
  local name = b.name and full_name(b.parent, b.name) or test_file
  record({ name = name .. " (" .. what .. ")", line = b.line or 0, status = "failed" }, failure)
end

-- Runs the functions of hook list `kind` of block `b` in order; the first failure.
local function run_hooks(b, kind)
  local first
  for _, hook in ipairs(b.hooks[kind] or {}) do
    local failure = call(hook.fn, b)
    if failure and not first then first = failure end
  end
  return first
end

-- lazy_setup of the block and its parents, each once, outermost first (busted's execAllOnce).
local function lazy_setup(b)
  if b.parent then
    local ok = lazy_setup(b.parent)
    if not ok then return false end
  end
  if b.lazy_ok ~= nil then return b.lazy_ok end
  b.lazy_ok = true
  for _, hook in ipairs(b.hooks.lazy_setup or {}) do
    local failure = call(hook.fn, b)
    if failure then
      b.lazy_ok = false
      block_failure(b, "lazy_setup", failure)
    end
  end
  return b.lazy_ok
end

-- Globals and loaded modules, for insulate (busted's save/restore).
local function save_globals()
  local g, loaded = {}, {}
  for k, v in next, _G do g[k] = v end
  for k, v in pairs(package.loaded) do loaded[k] = v end
  return { g = g, mt = getmetatable(_G), loaded = loaded }
end

local function restore_globals(state)
  setmetatable(_G, state.mt)
  for k in next, _G do rawset(_G, k, state.g[k]) end
  for k, v in next, state.g do if rawget(_G, k) == nil then rawset(_G, k, v) end end
  for k in pairs(package.loaded) do package.loaded[k] = state.loaded[k] end
  for k, v in pairs(state.loaded) do package.loaded[k] = v end
end

-- Plugins that a test or block loaded with `use` are forgotten after it, so
-- that the next one loads them afresh (their hooks go with H.restore). Other
-- modules stay loaded, as under busted.
local used = {}
do
  local host_use = use
  use = function(name, ...)
    if type(name) == "string" and package.loaded[name] == nil then used[#used + 1] = name end
    return host_use(name, ...)
  end
end

local function used_mark() return #used end

local function forget_plugins(mark)
  for i = #used, mark + 1, -1 do
    package.loaded[used[i]] = nil
    used[i] = nil
  end
end

local run_block

local function run_test(t)
  local name = full_name(t.parent, t.name)
  if not selected(name) then return end
  local result = { name = name, line = t.line }
  if t.pending then
    result.status = "skipped"
    results[#results + 1] = result
    return
  end
  if not lazy_setup(t.parent) then return end
  local registrations, plugins = H.save(), used_mark()
  H.test_begin()
  output, output_size = {}, 0
  running = t
  t.full_name = name
  finally_fns = {}
  snapshot_count = 0
  local failure
  -- before_each, outermost block first; a failing level stops the inner ones
  -- and after_each runs from that level outwards (busted's execAll/dexecAll).
  local chain = {}
  local b = t.parent
  while b do table.insert(chain, 1, b) b = b.parent end
  local last = #chain
  for i, level in ipairs(chain) do
    local f = run_hooks(level, "before_each")
    if f then failure = f last = i break end
  end
  if not failure then
    t.env = {}
    failure = call(t.fn, t)
    for _, fn in ipairs(finally_fns) do
      local f = call(fn, t)
      if f and not failure then failure = f end
    end
  end
  for i = last, 1, -1 do
    local f = run_hooks(chain[i], "after_each")
    if f and not failure then failure = f end
  end
  running, finally_fns = nil, nil
  result.output = table.concat(output, "\n")
  output = nil
  result.hook_errors = H.test_end()
  forget_plugins(plugins)
  H.restore(registrations)
  result.status = "passed"
  if failure and failure.pending then
    result.status = "skipped"
    failure = nil
  end
  record(result, failure)
end

-- Hook errors the host reported while a block's own code ran (a countdown that
-- a setup started, whose first tick raised) fail the block too.
local function with_hook_errors(failure)
  local errors = H.hook_errors()
  if #errors == 0 then return failure end
  local text = table.concat(errors, "\n")
  if failure then
    failure.message = failure.message .. "\n" .. text
    return failure
  end
  return { message = text }
end

-- Runs a block as busted does: its body (collecting children), strict_setup,
-- its children in order, lazy_teardown (when lazy_setup ran), strict_teardown.
run_block = function(b)
  local globals = b.envmode == "insulate" and save_globals() or nil
  local registrations, plugins = H.save(), used_mark()
  local ok = true
  if b.fn then
    local outer = block
    block = b
    if b.envmode == "expose" then b.write_to = (b.parent and b.parent.parent) or root end
    local failure = with_hook_errors(call(b.fn, b))
    b.write_to = nil
    block = outer
    if failure then
      ok = false
      block_failure(b, b.kind, failure)
    end
  end
  if ok then
    local failure = with_hook_errors(run_hooks(b, "strict_setup"))
    if failure then
      block_failure(b, "setup", failure)
    else
      for _, child in ipairs(b.children) do
        if child.kind == "test" then run_test(child) else run_block(child) end
      end
    end
    if b.lazy_ok ~= nil then
      local f = with_hook_errors(run_hooks(b, "lazy_teardown"))
      if f then block_failure(b, "lazy_teardown", f) end
      b.lazy_ok = nil
    end
    local f = with_hook_errors(run_hooks(b, "strict_teardown"))
    if f then block_failure(b, "teardown", f) end
  end
  if b.envmode ~= "expose" then
    forget_plugins(plugins)
    H.restore(registrations)
  end
  if globals then restore_globals(globals) end
end

local suite = {}

-- How Lua names the test file in messages and tracebacks: long paths are cut
-- to "...tail"; the runner puts the whole path back.
suite.short_src = load("return debug.getinfo(1, 'S').short_src", "@" .. test_file)()

-- Runs every test of the file; returns the results in the order they ran.
-- opts: filter (text or Lua pattern), tags and exclude_tags (sets of names).
function suite.run(opts)
  options = opts or {}
  results = {}
  run_block(root)
  results.declared = declared
  return results
end

return suite
"""#
}
