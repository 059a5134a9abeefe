-- cdscript stopwatch: counts up from zero, with laps.
--
--   cdscript stopwatch --title Run             # the built-in copy of this file
--   cdscript stopwatch --eject > mywatch.lua   # this file, to make it your own
--   cdscript mywatch.lua --title Run           # your copy, with the same arguments
--
-- Options:
--   --title TEXT       shown above the digits and in the window title
--   --every SECONDS    time between redraws (default 0.1, tenths shown; 1 for plain lines)
--   --no-window-title  leave the window title alone
--   --plain            print lines instead of drawing the screen (also when stdout is no terminal)
--   --no-color         draw without colours
-- Keys: Space pauses and resumes, l records a lap (its time and the split),
-- r resets to zero, q ends and prints the laps on stdout.

local usage = "usage: stopwatch [--title TEXT] [--every SECONDS] [--no-window-title] [--plain] [--no-color]"

local args = { ... }
local o = {}
local i = 1
while i <= #args do
  local a = args[i]
  local name, inline = a:match("^(%-%-[%w-]+)=(.*)$")
  name = name or a
  if name == "--title" or name == "--every" then
    local value = inline or args[i + 1]
    if value == nil then error(name .. " needs a value\n" .. usage, 0) end
    o[name:sub(3)] = value
    i = i + (inline and 1 or 2)
  elseif (name == "--plain" or name == "--no-color" or name == "--no-window-title") and not inline then
    o[name:sub(3)] = true
    i = i + 1
  else
    error("unexpected argument '" .. a .. "'\n" .. usage, 0)
  end
end

if o.plain or o["no-color"] then
  view.configure{ plain = o.plain or nil, color = not o["no-color"] }
end
local plain = view.plain()
local every = plain and 1 or 0.1
if o.every then
  every = tonumber(o.every)
  if not every or every < 0.1 or every == math.huge then
    error("--every must be a number of seconds, at least 0.1, got " .. o.every, 0)
  end
end
local title = o.title

-- Elapsed time as the digits show it: 12.3, 1:02.3, 1:02:03.
local function clock_text(seconds)
  if seconds >= 86400 then return countdown.format(seconds, "{d}d {hh}:{mm}:{ss}") end
  if seconds >= 3600 then return countdown.format(seconds, "{h}:{mm}:{ss}") end
  local tenths = every < 1 and ".{t}" or ""
  if seconds >= 60 then return countdown.format(seconds, "{m}:{ss}" .. tenths) end
  return countdown.format(seconds, "{s}" .. tenths)
end

-- Laps are always written with tenths: they are read afterwards.
local function lap_text(seconds)
  if seconds >= 3600 then return countdown.format(seconds, "{h}:{mm}:{ss}.{t}") end
  return countdown.format(seconds, "{m}:{ss}.{t}")
end

-- The stopwatch is a countdown that will not end in a lifetime.
local LONG = 50 * 365 * 86400
local watch
local laps = {}
local lap_labels = 0

local function elapsed()
  return watch and (LONG - watch:remaining()) or 0
end

local function show(seconds)
  local text = clock_text(seconds)
  if not o["no-window-title"] then view.title(title and (text .. " · " .. title) or text) end
  view.set("clock", { text = text })
end

local function start()
  watch = countdown.start{ id = "stopwatch", seconds = LONG, every = every,
    on_tick = function(t) show(t.elapsed) end }
end

if title then view.label{ id = "title", text = title, style = "bold" } end
view.big{ id = "clock", text = clock_text(0) }
start()

local function lap_line(n)
  local lap = laps[n]
  return string.format("lap %d  %s  %s", n, lap_text(lap.lap), lap_text(lap.split))
end

view.on_key("l", function()
  local split = elapsed()
  local previous = laps[#laps]
  laps[#laps + 1] = { split = split, lap = split - (previous and previous.split or 0) }
  local n = #laps
  local id = "lap" .. n
  if n <= lap_labels then
    view.set(id, { text = lap_line(n) })
  else
    lap_labels = n
    view.label{ id = id, text = lap_line(n) }
  end
end)

local paused_note = false
local function note(text)
  if not paused_note then
    paused_note = true
    view.label{ id = "note", text = text, style = "bold inverse" }
  else
    view.set("note", { text = text })
  end
end

view.on_key("space", function()
  if watch:state() == "paused" then
    watch:resume()
    note(plain and "resumed" or "")
  else
    watch:pause()
    note("paused — Space to resume")
  end
end)

view.on_key("r", function()
  watch:cancel()
  if paused_note then note(plain and "reset" or "") end
  -- Elements stay; the laps' lines are emptied and used again.
  for n = 1, #laps do view.set("lap" .. n, { text = "" }) end
  laps = {}
  start()
  show(0)
end)

view.on_key("q", function()
  local total = elapsed()
  watch:cancel()
  for n = 1, #laps do print(lap_line(n)) end
  print("total  " .. lap_text(total))
  view.close()
end)
