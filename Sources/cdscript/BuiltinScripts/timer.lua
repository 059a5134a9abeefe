-- cdscript timer: a countdown without a script of your own.
--
--   cdscript timer 25m --title Tea            # the built-in copy of this file
--   cdscript timer --eject > mytimer.lua      # this file, to make it your own
--   cdscript mytimer.lua 25m --title Tea      # your copy, with the same arguments
--
-- SPEC is seconds (90), a duration (25m, 1h30m, 2d4h, 1m30.5s), a clock time
-- (20:00, its next occurrence) or an ISO 8601 date (2026-12-01T20:00:00+08:00).
-- Options:
--   --title TEXT       shown above the digits and as the window title
--   --every SECONDS    time between redraws (default 0.1: tenths are shown)
--   --id ID            keep the timer in the store: `cdscript list` shows it, and
--                      running the same command again continues it
--   --exec PROGRAM ARGS...   runs PROGRAM (no shell) when the time is up
-- Keys: Space pauses and resumes, q quits.

local usage = "usage: timer SPEC [--title TEXT] [--every SECONDS] [--id ID] [--exec PROGRAM ARGS...]"

-- Reading the arguments ------------------------------------------------------

local args = { ... }
local spec, title, id, command
local every = 0.1
local i = 1
while i <= #args do
  local a = args[i]
  if a == "--exec" then
    -- Everything after --exec is the command and its own arguments.
    command = table.move(args, i + 1, #args, 1, {})
    if #command == 0 then error("--exec needs a program to run\n" .. usage, 0) end
    break
  elseif a == "--title" or a == "--every" or a == "--id" then
    local value = args[i + 1]
    if value == nil then error(a .. " needs a value\n" .. usage, 0) end
    if a == "--title" then
      title = value
    elseif a == "--id" then
      id = value
    else
      every = tonumber(value)
      if not every or every < 0.1 then error("--every must be a number of seconds >= 0.1, got " .. value, 0) end
    end
    i = i + 2
  elseif spec == nil then
    spec = a
    i = i + 1
  else
    error("unexpected argument '" .. a .. "'\n" .. usage, 0)
  end
end
if not spec then error("give the time to count down, such as 25m or 20:00\n" .. usage, 0) end

-- What the clock shows ------------------------------------------------------

-- Days only while there are any; tenths only under an hour, and only when the
-- view is redrawn often enough for them to move.
local function clock_text(t)
  if t.days > 0 then return countdown.format(t, "{d}d {hh}:{mm}:{ss}") end
  if t.hours > 0 then return countdown.format(t, "{h}:{mm}:{ss}") end
  local tenths = every < 1 and ".{t}" or ""
  if t.minutes > 0 then return countdown.format(t, "{m}:{ss}" .. tenths) end
  return countdown.format(t, "{s}" .. tenths)
end

view.title(title or "cdscript timer")

-- The countdown ----------------------------------------------------------------

-- The first tick (inside countdown.start) creates the elements with their first
-- values; later ticks change them. (Elements are drawn in the order they are made.)
local shown = false
local function on_tick(t)
  if not shown then
    shown = true
    if title then view.label{ id = "title", text = title, style = "bold" } end
    view.big{ id = "clock", text = clock_text(t) }
    view.progress{ id = "progress", value = t.progress }
  else
    view.set("clock", { text = clock_text(t) })
    view.set("progress", { value = t.progress })
  end
end

local function on_done(t, reason)
  on_tick(t)
  if reason ~= "finished" then return view.close() end
  view.set("progress", { value = 1 })
  view.label{ id = "status", text = "Time's up", style = "bold yellow" }
  view.bell()
  -- A closed view is not drawn again: leave the last frame (and the bell) on the
  -- screen for a second, then end the run (exit 0). --exec's program runs on its own.
  countdown.start{ seconds = 1, on_done = function() view.close() end }
end

if command then
  -- The built-in exec plugin: an argument list, never a shell.
  use("exec", { command = command, id = id or "timer" })
end

-- A timer with an id continues from the store when there is one to continue.
if id and countdown.fetch(id, { every = every, on_tick = on_tick, on_done = on_done }) then
  return
end

-- Dates and clock times hold ':' or '-'; durations never do.
local options = { id = id or "timer", every = every, on_tick = on_tick, on_done = on_done, persist = id ~= nil }
if spec:find("[:%-]") then
  options.at = spec
else
  options.seconds = spec
end
countdown.start(options)
