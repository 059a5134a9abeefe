-- Thousands of flash-sale items, each with its own countdown, all driven by the
-- one shared scheduler (no timer per item). A summary prints every second.
--
--   cdscript examples/many.lua            # 5000 items ending within 5 s
--   cdscript examples/many.lua 100000 3   # 100000 items ending within 3 s

local items = tonumber(arg[1]) or 5000
local longest = tonumber(arg[2]) or 5

local sold_out, ticks = 0, 0

for i = 1, items do
  countdown.start{
    id = "item-" .. i,
    -- Spread the deadlines over (0, longest], in tenths.
    seconds = (i % (longest * 10) + 1) / 10,
    every = 0.1,
    on_tick = function() ticks = ticks + 1 end,
    on_done = function() sold_out = sold_out + 1 end,
  }
end

countdown.start{
  id = "summary",
  seconds = longest,
  every = 1,
  on_tick = function(t)
    print(("%3.0fs left: %d of %d items open, %d ticks so far")
      :format(t.remaining, items - sold_out, items, ticks))
  end,
  on_done = function()
    print(("all %d items closed after %d ticks"):format(items, ticks))
  end,
}
