-- A luv repeat timer: lateness of each fire against the ideal absolute schedule.
local uv = require("luv")
local count, period_ms = tonumber(arg[1]) or 1000, tonumber(arg[2]) or 10
local period = period_ms * 1e6

local lateness = {}
local start = uv.hrtime()
local timer = uv.new_timer()
timer:start(period_ms, period_ms, function()
  local k = #lateness + 1
  lateness[k] = uv.hrtime() - (start + k * period)
  if k == count then timer:stop(); timer:close() end
end)
uv.run()

local last = lateness[#lateness]
table.sort(lateness)
local function pct(p) return lateness[math.max(1, math.min(#lateness, math.floor((#lateness - 1) * p + 0.5) + 1))] end
print(string.format('{"bench": "luv_accuracy", "ticks": %d, "period_ms": %d, "p50_us": %.3f, "p99_us": %.3f, "max_us": %.3f, "last_tick_drift_us": %.3f}',
  #lateness, period_ms, pct(0.5) / 1e3, pct(0.99) / 1e3, lateness[#lateness] / 1e3, last / 1e3))
