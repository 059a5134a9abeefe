-- cdscript timer: a countdown without a script of your own.
--
--   cdscript timer 25m --title Tea            # the built-in copy of this file
--   cdscript timer --eject > mytimer.lua      # this file, to make it your own
--   cdscript mytimer.lua 25m --title Tea      # your copy, with the same arguments
--
-- SPEC is seconds (90), a duration (25m, 1h30m, 2d4h, 1m30.5s), a clock time
-- (20:00, its next occurrence) or an ISO 8601 date (2026-12-01T20:00:00+08:00).
-- Options (the same for the built-in timer and for this file):
--   --title TEXT       shown above the digits and in the window title
--   --every DURATION   time between redraws (default 0.1, tenths shown; 1 for plain lines)
--   --critical DURATION  the last DURATION (30, 1m) in the warning style (red, bold)
--   --text TEXT        at the end, TEXT in big letters
--   --blink            at the end, flash the digits
--   --wait             at the end, stay until a key (default: end at the deadline;
--                      5 s later with --text or --blink, to show them)
--   --quit-after DURATION  at the end, end the run DURATION later (0, or 0.1 s and longer),
--                      with --overtime too (counting up until then)
--   --overtime         past the end, count up in the warning style (+0:12)
--   --no-window-title  leave the window title alone
--   --no-bell          no bell at the end
--   --outfile PATH     keep PATH holding the time shown, replaced whole on every change
--                      (for OBS's text source; termdown's -o)
--   --plain            print lines instead of drawing the screen (also when stdout is no terminal)
--   --no-color         draw without colours
--   --id ID            keep the timer in the store: `cdscript list` shows it, and
--                      running the same command again continues it
--   --exec PROGRAM ARGS...   runs PROGRAM (no shell) when the time is up; with --id, once
--                      per end however many terminals follow the timer ({token}: the claim's token);
--                      PROGRAM is looked up on PATH at the start
--   --exec-shell LINE  as --exec, with a shell line (/bin/sh -c LINE): pipes, redirections
--   --then DURATION --rounds N   a pomodoro: SPEC of work, then DURATION of break, N rounds
--                      ("work 1/4", "break 1/4", ..., "work 4/4": no break after the last
--                      work); a bell (and --exec) at every phase's end; with --id each
--                      phase is stored with its name as the title (`cdscript status` shows it)
-- Options of cdscript itself (--speed, --state-dir, --store, limits) go before
-- the script's name: cdscript --speed 60 mytimer.lua 25m.
-- Keys (the built-in plugin timer_keys): + and - add and take off 10 s, r
-- restarts, e shows the end as a clock time, Space pauses and resumes, q quits.

local usage = "usage: timer SPEC [--title TEXT] [--every DURATION] [--critical DURATION] [--text TEXT] [--blink] [--wait]"
  .. " [--quit-after DURATION] [--overtime] [--no-window-title] [--no-bell] [--outfile PATH] [--plain] [--no-color] [--id ID]"
  .. " [--then DURATION --rounds N] [--exec-shell LINE] [--exec PROGRAM ARGS...]"

-- Reading the arguments ------------------------------------------------------

local VALUES = { ["--title"] = "title", ["--every"] = "every", ["--id"] = "id", ["--critical"] = "critical",
  ["--text"] = "text", ["--quit-after"] = "quit_after", ["--outfile"] = "outfile", ["--then"] = "then_",
  ["--rounds"] = "rounds" }
local FLAGS = { ["--plain"] = "plain", ["--no-color"] = "no_color", ["--blink"] = "blink", ["--wait"] = "wait",
  ["--overtime"] = "overtime", ["--no-window-title"] = "no_window_title", ["--no-bell"] = "no_bell" }
-- Every option of `cdscript run` the timer does not take itself (a test holds
-- this list to `cdscript run --help`): given after the script's name, it is
-- pointed before it.
local HOST = { ["--speed"] = true, ["--state-dir"] = true, ["--store"] = true, ["--budget"] = true,
  ["--memory-limit"] = true, ["--cpu-limit"] = true, ["--sandbox"] = true, ["--allow-store"] = true,
  ["--plugin-path"] = true, ["--coverage"] = true, ["--watch"] = true, ["-e"] = true,
  ["--redis-cacert"] = true, ["--redis-cacert-dir"] = true, ["--redis-cert"] = true, ["--redis-key"] = true,
  ["--redis-sni"] = true, ["--redis-insecure"] = true, ["--redis-wait"] = true, ["--redis-wait-timeout"] = true,
  ["--serve"] = true, ["--token-file"] = true, ["--allow-host"] = true }

-- A duration in the grammar of countdown.duration (90, 1.5, 25m, 1h30m), at
-- least `least` seconds; countdown.start checks the longest.
local function seconds_option(name, value, least)
  local ok, n = pcall(countdown.duration, value)
  if not ok or n < least then
    error(name .. " must be a duration of at least " .. least .. " s (such as 90, 1.5, 25m, 1h30m), got \"" .. value .. "\"", 0)
  end
  return n
end

local args = { ... }
local o = {}
local spec, command
local i = 1
while i <= #args do
  local a = args[i]
  local name, inline = a:match("^(%-%-[%w-]+)=(.*)$")
  name = name or a
  if name == "--exec" then
    -- Everything after --exec is the command and its own arguments.
    if command then error("--exec and --exec-shell: give one of them", 0) end
    command = table.move(args, i + 1, #args, 1, {})
    if #command == 0 then error("--exec needs a program to run: --exec PROGRAM [ARGS...]\n" .. usage, 0) end
    break
  elseif name == "--exec-shell" then
    -- A shell line, said so: run by /bin/sh -c, where --exec runs no shell.
    local line = inline or args[i + 1]
    if line == nil or not line:find("%S") then error("--exec-shell needs a line to run\n" .. usage, 0) end
    if command then error("--exec and --exec-shell: give one of them", 0) end
    command = { "/bin/sh", "-c", line }
    i = i + (inline and 1 or 2)
  elseif VALUES[name] then
    local value = inline or args[i + 1]
    if value == nil then error(name .. " needs a value\n" .. usage, 0) end
    o[VALUES[name]] = value
    i = i + (inline and 1 or 2)
  elseif FLAGS[name] and not inline then
    o[FLAGS[name]] = true
    i = i + 1
  elseif HOST[name] then
    error(name .. " is an option of cdscript itself: give it before the script's name (cdscript " .. name .. " ... SCRIPT SPEC)", 0)
  elseif spec == nil and not (a:match("^%-") and not tonumber(a)) then
    spec = a
    i = i + 1
  else
    error("unexpected argument '" .. a .. "'\n" .. usage, 0)
  end
end
if not spec then error("give the time to count down, such as 25m or 20:00\n" .. usage, 0) end
if tonumber(spec) and tonumber(spec) <= 0 then error("a timer counts down a duration longer than 0, got " .. spec, 0) end

if o.plain or o.no_color then
  view.configure{ plain = o.plain or nil, color = not o.no_color }
end
local plain = view.plain()
-- Tenths move ten lines a second; printed lines come once a second unless asked.
-- The shortest `every` (0.1 s: tenths) is the host's, as countdown.start holds it.
local shortest = countdown.shortest_every
local every = o.every and seconds_option("--every", o.every, shortest) or (plain and 1 or shortest)
local critical = o.critical and seconds_option("--critical", o.critical, 0)
local quit_after = o.quit_after and seconds_option("--quit-after", o.quit_after, 0)
if quit_after and quit_after > 0 and quit_after < shortest then
  error("--quit-after must be 0 or at least " .. shortest .. " s, got \"" .. o.quit_after .. "\"", 0)
end
if o.id == "" then error("--id must not be empty", 0) end
if o.outfile == "" then error("--outfile must name a file", 0) end
-- A pomodoro: SPEC, then --then, for --rounds rounds (the sequence plugin).
local rounds
if o.rounds or o.then_ then
  if not (o.rounds and o.then_) then
    error("--then and --rounds go together: --then DURATION --rounds N (a pomodoro: cdscript timer 25m --then 5m --rounds 4)", 0)
  end
  rounds = math.tointeger(tonumber(o.rounds))
  if not rounds or rounds < 1 then error("--rounds must be a whole number, 1 or more, got \"" .. o.rounds .. "\"", 0) end
  seconds_option("--then", o.then_, shortest)
  if spec:find(":") or spec:find("%d%-") then
    error("--rounds needs a duration SPEC (25m), not a clock time or date, got \"" .. spec .. "\"", 0)
  end
  if o.overtime then error("--overtime with --rounds: each phase ends on time and the next one begins", 0) end
end
local title, id = o.title, o.id

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

local WARNING = "bold red"
-- How long the end stays on the screen with --text or --blink (ten flashes).
local HOLD_SHOWN = 5

-- The window title: the time left as the digits show it, then the title.
local function show_in_title(text)
  if o.no_window_title then return end
  view.title(title and (text .. " · " .. title) or text)
end

-- The countdown ----------------------------------------------------------------

-- Time past the end, as the clock shows time left: +0:12.3, +1:02:03.
local function overtime_text(seconds)
  if seconds >= 86400 then return "+" .. countdown.format(seconds, "{d}d {hh}:{mm}:{ss}") end
  if seconds >= 3600 then return "+" .. countdown.format(seconds, "{h}:{mm}:{ss}") end
  return "+" .. countdown.format(seconds, "{m}:{ss}" .. (every < 1 and ".{t}" or ""))
end

-- --outfile: the same text as the digits, in a file another program reads.
local outfile = o.outfile and use("outfile", { path = o.outfile })

-- The first tick (inside countdown.start) creates the elements with their first
-- values; later ticks change them. (Elements are drawn in the order they are made.)
local shown = false
local ended = false
-- The line under the clock at the end ("Time's up"), made once, then changed.
local function status(text)
  if pcall(view.get, "status") then return view.set("status", { text = text }) end
  view.label{ id = "status", text = text, style = "bold yellow" }
end
-- --overtime with --quit-after: the run ends that long after the end, counting up
-- until then (--quit-after counts from the end, overtime or not). Armed once.
local quitting = false
local function quit_after_overtime()
  if not quit_after or quitting then return end
  quitting = true
  if quit_after == 0 then return view.close() end
  countdown.start{ seconds = math.max(quit_after, shortest), every = 86400, on_done = function() view.close() end }
end

local function on_tick(t)
  -- --overtime: time added past the end (+) counts down again, and ends again.
  if ended and o.overtime and t.overtime == 0 and t.remaining > 0 then
    ended = false
    status("")
  end
  local text, style, past_unheard_end
  if t.overtime > 0 then
    -- --overtime: past the end the clock counts up, in the warning style. A stored
    -- timer picked up past its end (a restart, a follower) hears no end: say it here.
    text, style = overtime_text(t.overtime), WARNING
    if not ended then ended, past_unheard_end = true, true end
  else
    text = clock_text(t)
    style = critical and t.remaining <= critical and WARNING or ""
  end
  show_in_title(text)
  if outfile then outfile.write(text) end
  if not shown then
    shown = true
    if title then view.label{ id = "title", text = title, style = "bold" } end
    view.big{ id = "clock", text = text, style = style }
    view.progress{ id = "progress", value = t.progress }
  else
    view.set("clock", { text = text, style = style })
    view.set("progress", { value = t.progress })
  end
  if past_unheard_end then
    status("Time's up")
    quit_after_overtime()
  end
end

local keys = use("timer_keys")

-- With --exec and --id, the end's action (set below, once the options are read);
-- declared here, before the_end, which waits for it (a later `local` would leave
-- the_end reading a global that is never set, and the run would end at once).
local end_action

-- At the end: what stays on the screen, and for how long.
local function the_end()
  if o.text then view.big{ id = "text", text = o.text, style = "bold yellow" } end
  view.label{ id = "status", text = o.wait and "Time's up — press a key" or "Time's up", style = "bold yellow" }
  if o.blink and not plain then
    -- Ten flashes of the digits (and the text), then they stay.
    local clock_style = view.get("clock").style or ""
    local flashes = 0
    local function flash(inverse)
      view.set("clock", { style = inverse and clock_style .. " inverse" or clock_style })
      if o.text then view.set("text", { style = inverse and "bold yellow inverse" or "bold yellow" }) end
    end
    countdown.start{ seconds = HOLD_SHOWN, every = 0.5,
      on_tick = function() flashes = flashes + 1; flash(flashes % 2 == 1) end,
      on_done = function() flash(false) end }
  end
  if o.wait then
    -- Any key ends the run; the timer's own keys have nothing left to act on.
    keys.unbind()
    view.on_key("any", function() view.close() end)
  end
  if quit_after or not o.wait then
    -- The run ends at the deadline (exit 0), as `cdscript timer 3 && next` expects,
    -- unless --quit-after holds it, or --text or --blink have something to show:
    -- then the screen stays while the digits flash. --exec's program runs on its own,
    -- but with --id the run stays until the end's command has run, here or in
    -- another process that follows the timer (it runs once per end).
    local hold = quit_after or ((o.text or o.blink) and not plain and HOLD_SHOWN or 0)
    local function close()
      if countdown.end_actions() == 0 then return view.close() end
      status("Time's up — running the end's command")
      countdown.start{ seconds = 0.2, every = 0.2, on_done = close }
    end
    -- The end's action is handed over after on_done returns: not closed before it.
    if hold == 0 and not end_action then return view.close() end
    hold = math.max(hold, shortest)
    countdown.start{ seconds = hold, every = hold, on_done = close }
  end
end

local function on_done(t, reason, phase)
  on_tick(t)
  if reason ~= "finished" then return view.close() end
  view.set("progress", { value = 1 })
  if not o.no_bell then view.bell() end
  -- A pomodoro's phase: the next one begins (the sequence starts it).
  if phase and not phase.last then return end
  -- An overtime countdown ends again after + gave it more time: the screen stays.
  if ended then return end
  ended = true
  if o.overtime then
    -- It ticks on past the end (t.overtime), until q or --quit-after.
    status("Time's up")
    return quit_after_overtime()
  end
  the_end()
end

if command and id then
  -- Kept in the store: the command runs once per end, however many terminals
  -- follow the timer (an end action, claimed in the store).
  end_action = use("exec", { command = command, id = id, once = true }).action
elseif command then
  -- The built-in exec plugin: an argument list, never a shell.
  use("exec", { command = command, id = "timer" })
end

-- A timer with an id continues from the store when there is one to continue.
-- An overtime timer is kept too (a restart or a follower shows the same +time), but
-- its end takes no claim in the store: --exec could not run once per end.
if o.overtime and id and command then
  error("--exec with --overtime and --id: the end of an overtime timer is not claimed in the store, so its command could not run once per end; drop --overtime or --exec", 0)
end
local options = { id = id or "timer", every = every, on_tick = on_tick, on_done = on_done, persist = id ~= nil,
  title = id and title or nil,
  overtime = o.overtime or nil, on_end_action = end_action }
if spec:find("[:%-]") then
  options.at = spec
else
  options.seconds = spec
end
if rounds then
  -- Each phase is a countdown of its own under one id, named on the screen (and,
  -- with --id, in the store): "work 2/4". Its end rings, and runs --exec, as a
  -- timer's end does; a stored phase is continued where it is.
  local sequence = use("sequence", { id = id or "timer", persist = id ~= nil, rounds = rounds, every = every,
    phases = { { name = "work", seconds = spec }, { name = "break", seconds = o.then_ } }, title = title,
    keys = keys, on_end_action = end_action,
    on_tick = function(t) on_tick(t) end,
    on_done = on_done,
    on_phase = function(phase)
      title = phase.title
      if shown then
        if pcall(view.get, "title") then view.set("title", { text = title }) end
        view.set("progress", { value = 0 })
      end
    end })
  return sequence.start()
end
if id then
  local stored = countdown.fetch(id, keys.wrap{ every = every, on_tick = on_tick, on_done = on_done, on_end_action = end_action })
  if stored then return keys.follow(stored, options) end
end
keys.start(options)
