-- The nearest luv operation to each of `cdbench ops`, repeated N times from Lua:
--   start       uv.new_timer() + timer:start(1000, 100, f)  (countdown.start{ seconds = 1, every = 0.1, on_tick = f })
--   start_id    the same, kept in a table by id, stopping the timer it replaces
--               (countdown.start with an id replaces the countdown running under it)
--   fetch       the same as start (what fetch does beyond reading its store)
--   append      timer:start(60000 + 1000, 100, f) on a running timer: re-armed later
--   cancel      timer:close() (stops it and frees it)
--   cancel_all  closing every timer from a list; per timer
-- Prints one JSON line with CPU nanoseconds per operation.
local uv = require("luv")
local op, n = arg[1] or "start", tonumber(arg[2]) or 100000

local function cpu_ns()
  local usage = uv.getrusage()
  return (usage.utime.sec + usage.stime.sec) * 1e9 + (usage.utime.usec + usage.stime.usec) * 1e3
end

local function f() end
local timers, ids = {}, {}
if op == "start_id" then
  for i = 1, n do ids[i] = "c" .. i end
elseif op == "append" or op == "cancel" or op == "cancel_all" then
  for i = 1, n do
    local timer = uv.new_timer()
    timer:start(60000, 100, f)
    timers[i] = timer
  end
end

local bodies = {
  start = function()
    local new_timer = uv.new_timer
    for i = 1, n do
      local timer = new_timer()
      timer:start(1000, 100, f)
      timers[i] = timer
    end
  end,
  start_id = function()
    local new_timer, by_id = uv.new_timer, {}
    for i = 1, n do
      local id = ids[i]
      local old = by_id[id]
      if old then old:close() end
      local timer = new_timer()
      timer:start(1000, 100, f)
      by_id[id] = timer
    end
    timers = by_id
  end,
  append = function()
    for i = 1, n do timers[i]:start(61000, 100, f) end
  end,
  cancel = function()
    for i = 1, n do timers[i]:close() end
  end,
  cancel_all = function()
    for _, timer in ipairs(timers) do timer:close() end
  end,
}
bodies.fetch = bodies.start
local body = assert(bodies[op], "unknown operation " .. op)

collectgarbage()
local before = cpu_ns()
body()
local cpu = cpu_ns() - before
print(string.format('{"bench": "luv_ops", "op": "%s", "count": %d, "cpu_ns": %d, "ns_per_operation": %.3f}', op, n, cpu, cpu / n))

-- Let libuv finish the closes before Lua frees the handles (a third argument
-- "keep" skips this, for instruction counts of `start` alone under callgrind).
if arg[3] == "keep" then os.exit(0, false) end
for _, timer in pairs(timers) do
  if not timer:is_closing() then timer:close() end
end
uv.run()
