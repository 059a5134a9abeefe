-- The same work as `cdbench dispatch --real`, with luv: N repeating 100 ms
-- timers, each calling a trivial Lua callback, for S seconds of real time.
-- Prints one JSON line: ticks fired and CPU nanoseconds per tick.
local uv = require("luv")
local n, seconds = tonumber(arg[1]) or 100000, tonumber(arg[2]) or 2

local ticks = 0
local function on_tick() ticks = ticks + 1 end

local timers = {}
for i = 1, n do
  local timer = uv.new_timer()
  -- Every timer starts in this one loop iteration, from its cached time, so each
  -- period's fires come due together (cdbench dispatch starts its countdowns the same way).
  timer:start(100, 100, on_tick)
  timers[i] = timer
end

local function cpu_ns()
  local usage = uv.getrusage()
  return (usage.utime.sec + usage.stime.sec) * 1e9 + (usage.utime.usec + usage.stime.usec) * 1e3
end

local stop = uv.new_timer()
local cpu_before = cpu_ns()
stop:start(math.floor(seconds * 1000), 0, function()
  for _, timer in ipairs(timers) do timer:stop(); timer:close() end
  stop:close()
end)
uv.run()
local cpu = cpu_ns() - cpu_before
print(string.format('{"bench": "luv_dispatch", "countdowns": %d, "seconds": %.3f, "ticks": %d, "expected_ticks": %d, "cpu_ns": %d, "ns_per_tick": %.3f}',
  n, seconds, ticks, math.floor(n * seconds * 10), cpu, cpu / math.max(1, ticks)))
