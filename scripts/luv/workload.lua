-- The whole workload of `cdscript run` on
--   for i = 1, N do countdown.start{ seconds = 1, every = 0.1, on_tick = f } end
-- done with luv: N repeating 100 ms timers, each calling a trivial Lua callback
-- and closing itself after its tenth call (the countdown's end), then the process
-- exits. scripts/bench measures the process's CPU from start to exit.
local uv = require("luv")
local n = tonumber(arg[1]) or 100000

local function f() end
for i = 1, n do
  local timer = uv.new_timer()
  local ticks = 0
  timer:start(100, 100, function()
    f()
    ticks = ticks + 1
    if ticks == 10 then timer:close() end
  end)
end
uv.run()
