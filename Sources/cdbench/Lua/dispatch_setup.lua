-- cdbench dispatch: starts `...` countdowns ticking every 0.1 s with a
-- trivial on_tick, all from one hook so that they share one phase.
local n = ...
local function on_tick(t) end
countdown.start{ seconds = 1, on_tick = function()
  for i = 1, tonumber(n) do
    countdown.start{ seconds = 1e6, every = 0.1, on_tick = on_tick }
  end
end }:cancel()
