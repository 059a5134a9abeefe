-- `cdscript test`'s prelude, part 1 of 7 (TestPrelude.swift joins the parts into one chunk;
-- they share locals): arguments, module paths, luassert, how values and failures are shown.
local test_file, H = ...
local run_limited = H.run_limited
local test_dir = test_file:match("^(.*)/[^/]*$") or "."
local PRELUDE = "(cdscript test)"
local OUTPUT_LIMIT = H.output_limit or 65536

-- The folder the run starts in, where lua5.4's default path has it: last. ./src is not
-- added here: it is busted's default --lpath, which a given lpath replaces (and lpath
-- goes first, prelude_busted.lua), so that `require "mod"` finds the file busted finds.
do
  local parts = {}
  for _, p in ipairs({ "./?.lua", "./?/init.lua" }) do
    if not (";" .. package.path .. ";"):find(";" .. p .. ";", 1, true) then parts[#parts + 1] = p end
  end
  if #parts > 0 then package.path = package.path .. ";" .. table.concat(parts, ";") end
end

-- A real clock for the durations reports give (-o gtest): luasystem's, which busted
-- measures with, else the process's CPU time; taken before os.clock turns virtual.
local real_time = os.clock
do
  local found, system = pcall(require, "system")
  if found and type(system) == "table" and type(system.monotime) == "function" then real_time = system.monotime end
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
