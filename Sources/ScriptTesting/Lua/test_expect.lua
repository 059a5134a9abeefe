-- `cdscript test`'s prelude, part 2 of 7: `expect(...)` and its matchers (failure messages, snapshots).
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
