-- Part of the test prelude chunk (TestPrelude.swift puts it between the
-- structure and the running code, so it sees their locals: H, block, root,
-- running, test_file). What busted gives a spec beyond its blocks: module
-- paths from -m/--lpath and --cpath, `arg`, `require("busted")` with its
-- events, `randomize()`, and the --helper script and -e statements, run
-- before the test file as busted runs them before its tests.

-- Module paths: --lpath and --cpath go first, as busted puts them.
-- Once for the files that share a state (--no-auto-insulate).
if H.first_in_state then
  if H.lpath and H.lpath ~= "" then package.path = (H.lpath .. ";" .. package.path):gsub(";;", ";") end
  if H.cpath and H.cpath ~= "" then package.cpath = (H.cpath .. ";" .. package.cpath):gsub(";;", ";") end
end

-- Under -c, luacov's runner module as specs test for it (`if package.loaded["luacov.runner"]
-- then lua = lua .. " -lluacov" end`): cdscript counts lines itself, and cdscript-lua's
-- -lluacov adds a subprocess's counts to the run's (SubprocessCoverage.swift). Its
-- functions are luacov's that helpers call; counting goes on whatever they are asked.
if H.coverage and package.loaded["luacov.runner"] == nil then
  local function nothing() end
  package.loaded["luacov.runner"] = {
    initialized = true,
    configuration = { statsfile = "luacov.stats.out", reportfile = "luacov.report.out" },
    init = nothing, pause = nothing, resume = nothing, save_stats = nothing, shutdown = nothing,
  }
end

-- arg as busted's: the interpreter at -1 and at 0 (cdscript-lua, which is lua5.4),
-- the command line after `test`. The host sets `arg` to the file's own just
-- before the file's main chunk; the runner puts busted's back when the file's
-- blocks run (suite.run), so describe bodies, hooks and tests see busted's.
local busted_arg = { [-1] = H.interpreter, [0] = H.interpreter }
for i, v in ipairs(H.arguments or {}) do busted_arg[i] = v end
arg = busted_arg

-- Events: busted's publish/subscribe (Lua/busted_mediator.lua).
local mediator = H.new_mediator()
local subscribe, unsubscribe, publish = mediator.subscribe, mediator.unsubscribe, mediator.publish

-- What a subscriber gets for a block or test: busted's element fields.
local function element_of(node)
  if not node then return nil end
  if not node.element then
    -- busted's aliases keep the descriptor of what they alias: a context is a describe.
    local aliases = { context = "describe", insulate = "describe", expose = "describe", setup = "strict_setup", teardown = "strict_teardown" }
    local descriptor = node.hook or (node.kind == "test" and (node.pending and "pending" or "it")) or node.kind
    descriptor = aliases[descriptor] or descriptor
    node.element = {
      name = node.name or test_file,
      descriptor = descriptor,
      attributes = {},
      trace = { short_src = test_file, source = "@" .. test_file, currentline = node.line or 0, what = "Lua" },
      node = node,
    }
  end
  return node.element
end

local function emit(names, node, ...)
  if not mediator.listened() then return end
  local ok, err = pcall(publish, names, element_of(node), element_of(node and node.parent), ...)
  if not ok then error(err, 0) end
end

-- busted's randomize([seed]) in a describe: its tests (and blocks) run in a
-- shuffled order; with --shuffle-tests every block is.
function randomize(...)
  if running or hook_running then error("'randomize' not supported inside current context block", 2) end
  local on = select("#", ...) == 0 or (...)
  block.randomize = on and true or false
  if on then block.randomseed = tonumber((select(1, ...))) or tonumber((select(2, ...))) end
end

-- require("busted"): the running busted's API, not an uninitialised module.
do
  local api = {
    version = "2.1.1",
    publish = publish,
    subscribe = subscribe,
    unsubscribe = unsubscribe,
    fail = function(message, level)
      error(setmetatable({ message = tostring(message) }, Failure), (level or 1) + 1)
    end,
    gettime = function() return clock.wall() end,
    monotime = function() return clock.now() end,
    sleep = function() end,
    parent = function(element) return element and element.node and element_of(element.node.parent) end,
    children = function(element)
      local out = {}
      for _, child in ipairs(element and element.node and element.node.children or {}) do out[#out + 1] = element_of(child) end
      return out
    end,
    bindfenv = function() end,
  }
  local exported = { "describe", "context", "insulate", "expose", "it", "spec", "test", "pending",
    "before_each", "after_each", "setup", "teardown", "lazy_setup", "lazy_teardown", "strict_setup",
    "strict_teardown", "finally", "randomize", "assert", "spy", "mock", "stub", "match" }
  local module = setmetatable({}, {
    __index = function(_, key)
      if api[key] ~= nil then return api[key] end
      for _, name in ipairs(exported) do
        if name == key then return _G[key] end
      end
    end,
    -- Read-only, as busted's module is.
    __newindex = function() error("Attempt to modify busted", 2) end,
  })
  package.loaded.busted = module
end

-- --coverage is counted in C, on every thread (CLuaShim's coverage.c; the
-- runner starts it): no Lua hook here, so that tests see debug.gethook as
-- they would without it.

-- --helper and -e run in the file's state before the file, as busted runs
-- them before its tests; an error in one is the file's load error.
-- Files that share a state (--no-auto-insulate) run them once, as busted does.
for _, statement in ipairs(H.first_in_state and H.statements or {}) do
  local chunk, err = load(statement, "=(command line)", "t")
  if not chunk then error("-e: " .. err, 0) end
  local ok, failure = pcall(chunk)
  if not ok then error("-e: " .. tostring(failure), 0) end
end
if H.first_in_state and H.helper and H.helper ~= "" then
  local chunk, err = loadfile(H.helper, "t")
  if not chunk then error("--helper " .. H.helper .. ": " .. err, 0) end
  local ok, failure = pcall(chunk, table.unpack(H.helper_arguments or {}))
  if not ok then error("--helper " .. H.helper .. ": " .. tostring(failure), 0) end
end

