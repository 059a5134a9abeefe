-- What runs in each of a test's other processes (process.start) before its script: the
-- process's ticks and ends are recorded for the test (p:ticks(), p:ends()), on the machine's
-- clock, which the script itself cannot move (the global `clock` goes; os.time and os.date
-- follow it, as in the test).
local now = clock.now
clock = nil
local ticks, ends = {}, {}

-- Countdowns without an id are recorded too, with id nil.
countdown.on("tick", function(t)
  ticks[#ticks + 1] = { id = t.id, remaining = t.remaining, missed = t.missed, time = now() }
end)
countdown.on("done", function(t)
  ends[#ends + 1] = { id = t.id, reason = "finished", time = now() }
end)
countdown.on("cancel", function(t)
  ends[#ends + 1] = { id = t.id, reason = "cancelled", time = now() }
end)

return { ticks = function() return ticks end, ends = function() return ends end }
