-- `cdscript test`'s prelude, part 7 of 7 (part 6 is prelude_busted.lua): running the blocks and
-- tests as busted does, with isolation between tests.
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

-- The two functions of luassert that raise an assertion's failure: `assert(v, msg)`
-- and the call of an assertion (`assert.is_true(v)`). busted makes `error` in these
-- two, and only these, its `fail`; an error raised elsewhere in luassert (an unknown
-- assertion's, a matcher's bad argument) stays an error.
local assertion_raisers = {}
do
  local top = getmetatable(luassert)
  local chain = getmetatable(luassert.is_true)
  if top and top.__call then assertion_raisers[top.__call] = true end
  if chain and chain.__call then assertion_raisers[chain.__call] = true end
end

-- Whether `error` was called by one of those: an assertion that failed.
local function raised_by_assertion()
  local raiser = debug.getinfo(3, "S")
  if not raiser or raiser.what ~= "C" then return false end
  local caller = debug.getinfo(4, "f")
  return caller ~= nil and assertion_raisers[caller.func] == true
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
    -- As busted counts it: a test that raises outside an assertion is an error, not a failure.
    failure.is_error = not raised_by_assertion()
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
local any_failed = false   -- for --no-keep-going: after the first failure or error, nothing more runs

-- busted's tags: words after "#" anywhere in the full name.
local function has_tag(name, tags)
  for tag in name:gmatch("#([%w_%-]+)") do
    if tags[tag] then return true end
  end
  return false
end

-- The filter sees the name as cdscript shows it ("a > b") and as busted does ("a b").
-- Several filters (--filter repeated): a name matching any one is in.
local function matches_any(name, patterns)
  local spaced = name:gsub(" > ", " ")
  for _, p in ipairs(patterns) do
    if matches(name, p) or matches(spaced, p) then return true end
  end
  return false
end

local function selected(name)
  if options.filter and not matches_any(name, options.filter) then return false end
  if options.filter_out and matches_any(name, options.filter_out) then return false end
  if options.exclude_tags and has_tag(name, options.exclude_tags) then return false end
  if options.tags and next(options.tags) and not has_tag(name, options.tags) then return false end
  return true
end

-- A block busted's --filter-out or --exclude-tags leaves out with all it holds.
local function left_out_block(parent, b)
  if options.filter_out and matches_any(full_name(parent, b.name), options.filter_out) then return true end
  return options.exclude_tags ~= nil and has_tag(b.name, options.exclude_tags)
end

local function record(result, failure)
  if failure then
    result.status = "failed"
    result.is_error = failure.is_error or nil
    -- busted reports a failing before_each or after_each as an error of the hook.
    result.descriptor = failure.hook or result.descriptor
    any_failed = true
    result.message = failure.message
    result.location = failure.location
    result.expected = failure.expected
    result.actual = failure.actual
    result.traceback = failure.traceback
  end
  results[#results + 1] = result
end

-- An error outside a test (a describe's body, setup, teardown) counts as a failure of its block.
-- It is an error, as busted counts it: only an `it` can fail.
local function block_failure(b, what, failure)
  local name = b.name and full_name(b.parent, b.name) or test_file
  failure.is_error = true
  record({ name = name .. " (" .. what .. ")", names = b.name and name_parts(b.parent, b.name) or nil,
    descriptor = what, line = b.line or 0, status = "failed" }, failure)
end

-- Runs the functions of hook list `kind` of block `b` in order; the first failure.
local function run_hooks(b, kind)
  local first
  for _, hook in ipairs(b.hooks[kind] or {}) do
    hook_running = true
    local failure = call(hook.fn, b)
    hook_running = false
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
    hook_running = true
    local failure = call(hook.fn, b)
    hook_running = false
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
  -- The host's own `use`, kept for the next test files of a shared state (--no-auto-insulate).
  local registry = debug.getregistry()
  registry["cdscript.test.use"] = registry["cdscript.test.use"] or use
  local host_use = registry["cdscript.test.use"]
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
  if any_failed and options.stop_on_failure then return end
  local result = { name = name, names = name_parts(t.parent, t.name), line = t.line,
    descriptor = t.pending and "pending" or "it" }
  if t.pending or options.list then
    result.status = t.pending and "skipped" or "listed"
    emit({ "test", "start" }, t)
    emit({ "test", "end" }, t, t.pending and "pending" or "success")
    results[#results + 1] = result
    return
  end
  if not lazy_setup(t.parent) then return end
  local started = real_time()
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
    if f then f.hook = "before_each" failure = f last = i break end
  end
  -- Only the test itself can fail; what its hooks raise is an error (busted's rule).
  if failure then failure.is_error = true end
  if not failure then
    t.env = {}
    emit({ "test", "start" }, t)
    failure = call(t.fn, t)
    for _, fn in ipairs(finally_fns) do
      finally_running = true
      local f = call(fn, t)
      finally_running = false
      if f and not failure then f.is_error = true failure = f end
    end
  end
  for i = last, 1, -1 do
    local f = run_hooks(chain[i], "after_each")
    if f and not failure then f.is_error = true f.hook = "after_each" failure = f end
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
  result.duration = real_time() - started
  record(result, failure)
  if failure then
    local file, line = (failure.location or ""):match("^(.*):(%d+)$")
    emit({ failure.is_error and "error" or "failure", "it" }, t, failure.message,
      { short_src = file or test_file, currentline = tonumber(line) or t.line, traceback = failure.traceback, message = failure.message })
  end
  emit({ "test", "end" }, t, result.status == "skipped" and "pending"
    or (failure and (failure.is_error and "error" or "failure")) or "success")
end

-- busted's order of a block's children: sorted by name with --sort, else
-- shuffled with busted's algorithm and seed (so the same seed gives the same
-- order as under busted) with --shuffle-tests or randomize().
local function ordered(b)
  if options.sort then
    table.sort(b.children, function(x, y)
      if x.name and y.name then return x.name < y.name end
      return y.name ~= nil
    end)
  elseif b.randomize or (b.randomize == nil and options.shuffle) then
    local seed = b.randomseed or options.seed
    if seed then math.randomseed(seed) end
    -- busted's filters act when a block or test is declared: what they leave
    -- out is not among the children it shuffles.
    local t = {}
    for _, child in ipairs(b.children) do
      if child.kind == "hook" or (child.kind == "test" and selected(full_name(b, child.name)))
        or (child.kind ~= "test" and not left_out_block(b, child)) then
        t[#t + 1] = child
      end
    end
    b.children = busted_shuffle(t)
  end
  return b.children
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
-- busted's states: one per running block, an insulate's saved globals or false.
-- When an expose ends, the block around it saves its state again, so what the
-- expose wrote to _G and package.loaded outlives an insulate around it.
local states = {}

run_block = function(b)
  states[#states + 1] = b.envmode == "insulate" and save_globals() or false
  local registrations, plugins = H.save(), used_mark()
  local ok = true
  if b.fn then
    local outer = block
    block = b
    -- Globals an expose sets go to the block around its parent (busted's
    -- unwrap), or to _G when its parent is the file: the next blocks see them.
    if b.envmode == "expose" then b.write_to = (b.parent and b.parent.parent) or { env = _G } end
    local failure = with_hook_errors(call(b.fn, b))
    b.write_to = nil
    block = outer
    if failure then
      ok = false
      block_failure(b, b.kind, failure)
    end
  end
  if ok and options.list then
    for _, child in ipairs(ordered(b)) do
      if child.kind == "test" then run_test(child) elseif child.kind ~= "hook" then run_block(child) end
    end
  elseif ok and not (any_failed and options.stop_on_failure) then
    emit({ b.kind == "file" and "file" or "describe", "start" }, b)
    local failure = with_hook_errors(run_hooks(b, "strict_setup"))
    if failure then
      block_failure(b, "setup", failure)
    else
      for _, child in ipairs(ordered(b)) do
        if child.kind == "test" then run_test(child) elseif child.kind ~= "hook" then run_block(child) end
      end
    end
    if b.lazy_ok ~= nil then
      local f = with_hook_errors(run_hooks(b, "lazy_teardown"))
      if f then block_failure(b, "lazy_teardown", f) end
      b.lazy_ok = nil
    end
    local f = with_hook_errors(run_hooks(b, "strict_teardown"))
    if f then block_failure(b, "teardown", f) end
    emit({ b.kind == "file" and "file" or "describe", "end" }, b)
  end
  if b.envmode ~= "expose" then
    forget_plugins(plugins)
    H.restore(registrations)
  end
  local globals = table.remove(states)
  if b.envmode == "expose" and #states > 0 then states[#states] = states[#states] and save_globals() end
  if globals then restore_globals(globals) end
end

local suite = {}

-- How Lua names the test file in messages and tracebacks: long paths are cut
-- to "...tail"; the runner puts the whole path back.
suite.short_src = load("return debug.getinfo(1, 'S').short_src", "@" .. test_file)()

-- The test file's main chunk, before it runs: its globals go to the file's environment.
suite.set_env = set_env

-- Runs every test of the file; returns the results in the order they ran.
-- opts: filter (text or Lua pattern), tags and exclude_tags (sets of names),
-- sort, shuffle and seed (the order), stop_on_failure (--no-keep-going), list
-- (declare and name the tests without running them: status "listed").
function suite.run(opts)
  options = opts or {}
  results = {}
  any_failed = false
  rawset(_G, "arg", busted_arg)
  run_block(root)
  results.declared = declared
  return results
end

return suite
