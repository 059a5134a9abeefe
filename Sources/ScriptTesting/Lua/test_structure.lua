-- `cdscript test`'s prelude, part 3 of 7: luassert's spies; busted's blocks, hooks and environments;
-- scripts and captured output.
-- spy, stub, mock, match: luassert's --------------------------------------

-- luassert's spies, plus what cdscript's own spies had: `s.count`, and
-- `s.calls[i]` as the list of arguments (luassert's `vals`/`refs` stay readable).
do
  local spy_mt = getmetatable(luassert_spy.new(function() end))
  -- Test files that share a Lua state (--no-auto-insulate) load this prelude
  -- once each: luassert's own __call is kept, so the wrapping is done once.
  local call = rawget(spy_mt, "__cdscript_luassert_call") or spy_mt.__call
  rawset(spy_mt, "__cdscript_luassert_call", call)
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
-- Set while a hook (setup, before_each, ...) or a finally function runs.
local hook_running, finally_running = false, false

local function get_env(el, key)
  if not el then return nil end
  return el.env and el.env[key] or get_env(el.parent, key) or _G[key]
end
local file_env = setmetatable({}, {
  __index = function(_, key)
    -- busted gives `finally` to tests only: a hook sees none.
    if key == "finally" and hook_running then return nil end
    return get_env(ctx, key)
  end,
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

-- busted's message for a block, test or hook declared inside a test or a hook.
local function not_while_running(what)
  if running or hook_running then error("'" .. what .. "' not supported inside current context block", 3) end
end

-- The names of the blocks around a test and its own, outermost first.
local function name_parts(b, name)
  local parts = { name }
  while b and b.name do
    table.insert(parts, 1, b.name)
    b = b.parent
  end
  return parts
end

-- The full name as cdscript shows it: "outer > inner > test".
local function full_name(b, name)
  return table.concat(name_parts(b, name), " > ")
end

-- busted's sugar: `describe "name" (function() ... end)`. A block or test given its
-- name alone returns the function that takes its body; one given only a function is
-- named after its kind, as busted names it.
local function add_block(kind, envmode)
  local function declare(name, fn, line)
    if type(fn) ~= "function" then error(kind .. ": expected a function after the name, got " .. type(fn), 3) end
    local b = { kind = kind, name = name, fn = fn, parent = block, children = {}, hooks = {}, envmode = envmode, line = line }
    block.children[#block.children + 1] = b
  end
  return function(name, fn)
    not_while_running(kind)
    if fn == nil and type(name) == "function" then name, fn = kind, name end
    wrap_file(2, fn)
    if type(name) ~= "string" then error(kind .. ": expected a name string, got " .. type(name), 2) end
    local line = caller_line()
    if fn == nil then
      return function(body)
        not_while_running(kind)
        wrap_file(2, body)
        declare(name, body, line)
      end
    end
    declare(name, fn, line)
  end
end

describe = add_block("describe")
context = add_block("context")
insulate = add_block("insulate", "insulate")
expose = add_block("expose", "expose")

-- A test given its name alone is declared when its body comes (`it "name" (function() end)`);
-- `it("name")` whose body never comes declares nothing, as busted drops it.
local function add_test(kind)
  local function declare(t, fn)
    if type(fn) ~= "function" then error(kind .. ": expected a function after the name, got " .. type(fn), 3) end
    t.fn, t.pending = fn, false
    declared = declared + 1
    local parent = t.parent
    parent.children[#parent.children + 1] = t
  end
  return function(name, fn)
    not_while_running(kind)
    if fn == nil and type(name) == "function" then name, fn = kind, name end
    wrap_file(2, fn)
    if type(name) ~= "string" then error(kind .. ": expected a name string, got " .. type(name), 2) end
    local t = { kind = "test", name = name, parent = block, pending = true, line = caller_line() }
    if fn == nil then
      return function(body)
        wrap_file(2, body)
        declare(t, body)
      end
    end
    declare(t, fn)
  end
end

it = add_test("it")
spec = add_test("spec")
test = add_test("test")

local Pending = {}

function pending(name)
  -- Inside a test, as busted: the test stops here and is reported as pending.
  if finally_running or hook_running then error("'pending' not supported inside current context block", 2) end
  if running then error(setmetatable({ message = name }, Pending), 2) end
  if type(name) ~= "string" then error("pending: expected a name string, got " .. type(name), 2) end
  wrap_file(2, nil)
  declared = declared + 1
  block.children[#block.children + 1] = { kind = "test", name = name, parent = block, pending = true, line = caller_line() }
end

local function add_hook(kind, alias)
  return function(fn)
    not_while_running(alias or kind)
    wrap_file(2, fn)
    if type(fn) ~= "function" then error(kind .. ": expected a function, got " .. type(fn), 2) end
    local list = block.hooks[kind]
    if not list then list = {} block.hooks[kind] = list end
    list[#list + 1] = { fn = fn, line = caller_line() }
    -- busted keeps hooks among a block's children: they take part in its shuffle.
    block.children[#block.children + 1] = { kind = "hook", hook = kind, parent = block, line = caller_line() }
  end
end

before_each = add_hook("before_each")
after_each = add_hook("after_each")
lazy_setup = add_hook("lazy_setup")
lazy_teardown = add_hook("lazy_teardown")
strict_setup = add_hook("strict_setup")
strict_teardown = add_hook("strict_teardown")
setup = add_hook("strict_setup", "setup")           -- as in busted 2
teardown = add_hook("strict_teardown", "teardown")

local finally_fns = nil
function finally(fn)
  if not running or not finally_fns then error("finally: only inside a test (it)", 2) end
  -- A callable table (a spy) will do, as under busted.
  local callable = type(fn) == "function" or (getmetatable(fn) or {}).__call ~= nil
  if not callable then error("finally: expected a function, got " .. type(fn), 2) end
  finally_fns[#finally_fns + 1] = type(fn) == "function" and fn or function() return fn() end
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
