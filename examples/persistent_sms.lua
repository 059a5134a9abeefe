-- A "resend code" cooldown that survives the program being killed: the
-- countdown is stored, and a new run picks it up where it stands.
--
--   cdscript examples/persistent_sms.lua        # starts a 60 s cooldown
--   (Ctrl-C or kill -9 it after a while, then start it again: it continues)
--   cdscript examples/persistent_sms.lua 10     # a 10 s cooldown when none is stored
--
-- The store is $XDG_STATE_HOME/cdscript/state.sqlite (or --state-dir DIR);
-- `cdscript list` shows it, `cdscript cancel sms-resend` forgets it.

local cooldown = tonumber(arg[1]) or 60

local function show(enabled, text)
  print(("[%s] %s"):format(enabled and "Resend code" or "  disabled ", text))
end

local hooks = {
  on_tick = function(t)
    -- Whole seconds rounded up: a cooldown picked up at 51.2 s shows 52, then 51 on the next tick.
    local seconds = math.ceil(t.remaining - 1e-9)
    show(false, ("Resend in %ds"):format(seconds) .. (t.missed > 0 and (" (%d ticks missed)"):format(t.missed) or ""))
  end,
  on_done = function(_, reason)
    if reason == "finished" then show(true, "enabled") end
  end,
}

local h, why = countdown.fetch("sms-resend", hooks)
if h then
  print(("continuing the stored cooldown: %.1f s left"):format(h:remaining()))
  return h
end
if why == "finished" then
  show(true, "enabled (the stored cooldown ended while nothing ran)")
  return
end
-- "unknown" (never started) or "unavailable" (no usable store): start afresh.
return countdown.start{
  id = "sms-resend", seconds = cooldown, every = 1, persist = true,
  on_tick = hooks.on_tick, on_done = hooks.on_done,
}
