-- A Pomodoro kept in the store that runs past its end into overtime: it prints
-- the time left, then "+m:ss" past the end. Started again (or in a second
-- terminal), it picks up the stored one and shows the same time.
--
-- Not a test file (no _spec/_test suffix): tests/overtime_store_spec.lua runs it
-- with process.start.

local minutes = tonumber((...)) or 25

local function show(t)
  if t.overtime > 0 then
    print(("+%d:%02d"):format(t.overtime // 60, t.overtime % 60))
  else
    print(("%d:%02d"):format(t.remaining // 60, t.remaining % 60))
  end
end

local hooks = {
  on_tick = show,
  on_done = function(_, reason) print("end: " .. reason) end,
}

local h = countdown.fetch("pomodoro", hooks)
if not h then
  h = countdown.start{ id = "pomodoro", seconds = minutes * 60, persist = true, overtime = true,
                       on_tick = hooks.on_tick, on_done = hooks.on_done }
end
return h
