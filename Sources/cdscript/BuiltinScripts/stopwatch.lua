-- cdscript stopwatch: counts up from zero, with laps.
--
--   cdscript stopwatch --title Run             # the built-in copy of this file
--   cdscript stopwatch --eject > mywatch.lua   # this file, to make it your own
--   cdscript mywatch.lua --title Run           # your copy, with the same arguments
--
-- Options:
--   --title TEXT       shown above the digits and in the window title
--   --every DURATION   time between redraws (default 0.1, tenths shown; 1 for plain lines)
--   --quit-after DURATION  end the run DURATION after the start, as q does
--   --no-window-title  leave the window title alone
--   --laps-file PATH   add each lap to PATH as it is taken, a CSV line (lap, lap
--                      seconds, total seconds), so a closed window keeps them
--   --plain            print lines instead of drawing the screen (also when stdout is no terminal)
--   --no-color         draw without colours
-- Options of cdscript itself (--speed, --state-dir, --store, limits) go before
-- the script's name: cdscript --speed 60 mywatch.lua.
-- Keys: Space pauses and resumes, l records a lap (its time and the split),
-- r resets to zero, q ends. At the end, however it comes (q, Ctrl-C, a signal),
-- the laps, a summary (count, fastest, slowest, mean) and the total are printed
-- on stdout.

local usage = "usage: stopwatch [--title TEXT] [--every DURATION] [--quit-after DURATION] [--no-window-title] [--laps-file PATH]"
  .. " [--plain] [--no-color]"

-- Every option of `cdscript run` the stopwatch does not take itself (a test holds
-- this list to `cdscript run --help`): given after the script's name, it is
-- pointed before it.
local HOST = { ["--speed"] = true, ["--state-dir"] = true, ["--store"] = true, ["--budget"] = true,
  ["--memory-limit"] = true, ["--cpu-limit"] = true, ["--sandbox"] = true, ["--allow-store"] = true,
  ["--plugin-path"] = true, ["--coverage"] = true, ["--watch"] = true, ["-e"] = true,
  ["--redis-cacert"] = true, ["--redis-cacert-dir"] = true, ["--redis-cert"] = true, ["--redis-key"] = true,
  ["--redis-sni"] = true, ["--redis-insecure"] = true, ["--redis-wait"] = true, ["--redis-wait-timeout"] = true,
  ["--serve"] = true, ["--token-file"] = true, ["--allow-host"] = true }

local args = { ... }
local o = {}
local i = 1
while i <= #args do
  local a = args[i]
  local name, inline = a:match("^(%-%-[%w-]+)=(.*)$")
  name = name or a
  if name == "--title" or name == "--every" or name == "--quit-after" or name == "--laps-file" then
    local value = inline or args[i + 1]
    if value == nil then error(name .. " needs a value\n" .. usage, 0) end
    o[name:sub(3)] = value
    i = i + (inline and 1 or 2)
  elseif (name == "--plain" or name == "--no-color" or name == "--no-window-title") and not inline then
    o[name:sub(3)] = true
    i = i + 1
  elseif HOST[name] then
    error(name .. " is an option of cdscript itself: give it before the script's name (cdscript " .. name .. " ... SCRIPT)", 0)
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
  local ok, n = pcall(countdown.duration, o.every)
  if not ok or n < 0.1 then
    error("--every must be a duration of at least 0.1 s (such as 0.5, 1, 1m), got \"" .. o.every .. "\"", 0)
  end
  every = n
end
local title = o.title
local quit_after
if o["quit-after"] then
  local ok, n = pcall(countdown.duration, o["quit-after"])
  if not ok or n < 0 or (n > 0 and n < 0.1) then
    error("--quit-after must be 0 or a duration of at least 0.1 s (such as 90, 1.5, 25m), got \"" .. o["quit-after"] .. "\"", 0)
  end
  quit_after = n
end

if o["laps-file"] == "" then error("--laps-file must name a file", 0) end
-- --laps-file: each lap a CSV line, added as it is taken; a header first when the
-- file is new or empty (earlier runs' laps in it stay).
local laps_file = o["laps-file"] and use("outfile", { path = o["laps-file"] })
if laps_file then
  local existing = io and io.open(o["laps-file"], "r")
  local empty = not existing or existing:seek("end") == 0
  if existing then existing:close() end
  if empty then laps_file.append("lap,lap_seconds,total_seconds") end
end

-- Elapsed time as the digits show it: 12.3, 1:02.3, 1:02:03.
local function clock_text(seconds)
  if seconds >= 86400 then return countdown.format(seconds, "{d}d {hh}:{mm}:{ss}") end
  if seconds >= 3600 then return countdown.format(seconds, "{h}:{mm}:{ss}") end
  local tenths = every < 1 and ".{t}" or ""
  if seconds >= 60 then return countdown.format(seconds, "{m}:{ss}" .. tenths) end
  return countdown.format(seconds, "{s}" .. tenths)
end

-- Laps are always written with tenths: they are read afterwards. Plain Lua,
-- no cdscript function: the laps are printed from a finalizer too, when the
-- run is over and those can no longer be called.
local function lap_text(seconds)
  local tenths = math.floor(seconds * 10 + 1e-6)
  local t, s, m, h = tenths % 10, tenths // 10 % 60, tenths // 600 % 60, tenths // 36000
  if h > 0 then return string.format("%d:%02d:%02d.%d", h, m, s, t) end
  return string.format("%d:%02d.%d", tenths // 600, s, t)
end

-- The stopwatch is a countdown that will not end in a lifetime.
local LONG = 50 * 365 * 86400
-- The screen shows the latest laps; all of them are printed at the end.
local SHOWN = 10
local watch
-- Each lap's split (time since the start), one number a lap: laps are cheap to
-- keep, so that memory runs out late; the lines are made only when printed.
local splits = {}
local fastest, slowest, sum = nil, nil, 0
-- Room set aside so that, when --memory-limit is met, the clock still ticks and
-- the laps can still be printed: freed then, and no more laps are taken.
local reserve = string.rep(" ", 256 * 1024)
local full = false

-- The time shown last: what the laps' total is when the run ends by a signal.
local last_elapsed = 0
local function elapsed()
  last_elapsed = watch and (LONG - watch:remaining()) or 0
  return last_elapsed
end

local function show(seconds)
  local text = clock_text(seconds)
  if not o["no-window-title"] then view.title(title and (text .. " · " .. title) or text) end
  view.set("clock", { text = text })
end

local function start()
  watch = countdown.start{ id = "stopwatch", seconds = LONG, every = every,
    on_tick = function(t) last_elapsed = t.elapsed; show(t.elapsed) end }
end

if title then view.label{ id = "title", text = title, style = "bold" } end
view.big{ id = "clock", text = clock_text(0) }
start()

local function lap_of(n)
  return splits[n] - (splits[n - 1] or 0)
end

local function lap_line(n)
  return string.format("lap %d  %s  %s", n, lap_text(lap_of(n)), lap_text(splits[n]))
end

local paused_note = false
local function note(text)
  if not paused_note then
    paused_note = true
    view.label{ id = "note", text = text, style = "bold inverse" }
  else
    view.set("note", { text = text })
  end
end

-- The latest laps on the screen: lines lap1..lap10 filled in turn, then moved
-- up; printed lines get one line per lap.
local lap_labels = 0
local function show_laps()
  local n = #splits
  if plain then
    if lap_labels == 0 then lap_labels = 1; view.label{ id = "lap", text = lap_line(n) }
    else view.set("lap", { text = lap_line(n) }) end
    return
  end
  local first = math.max(1, n - SHOWN + 1)
  for k = 1, math.min(n, SHOWN) do
    local id = "lap" .. k
    if k > lap_labels then
      lap_labels = k
      view.label{ id = id, text = lap_line(first + k - 1) }
    else
      view.set(id, { text = lap_line(first + k - 1) })
    end
  end
end

local function record_lap()
  local split = elapsed()
  splits[#splits + 1] = split
  show_laps()
  local lap = lap_of(#splits)
  fastest = (fastest and fastest <= lap) and fastest or lap
  slowest = (slowest and slowest >= lap) and slowest or lap
  sum = sum + lap
  if laps_file then laps_file.append(string.format("%d,%.1f,%.1f", #splits, lap, split)) end
end

local function lap_key()
  if full then return note("memory limit reached: " .. #splits .. " laps kept, no more are taken") end
  local count = #splits
  local ok, err = pcall(record_lap)
  if not ok then
    if not tostring(err):find("not enough memory", 1, true) then error(err, 0) end
    -- The lap that did not fit is not kept; the ones before it all are.
    splits[count + 1] = nil
    full = true
    reserve = nil
    collectgarbage()
    note("memory limit reached (--memory-limit): " .. count .. " laps kept, no more are taken")
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

local function reset_key()
  watch:cancel()
  if paused_note then note(plain and "reset" or "") end
  -- Elements stay; the laps' lines are emptied and used again.
  if plain then
    if lap_labels > 0 then view.set("lap", { text = "" }) end
  else
    for k = 1, lap_labels do view.set("lap" .. k, { text = "" }) end
  end
  splits, fastest, slowest, sum = {}, nil, nil, 0
  start()
  show(0)
end

-- With Caps Lock on, L and R do what l and r do.
view.on_key("l", lap_key)
view.on_key("L", lap_key)
view.on_key("r", reset_key)
view.on_key("R", reset_key)

-- The laps, their summary and the total, on stdout: once, on whatever path the
-- run ends (q, --quit-after, Ctrl-C, SIGTERM, SIGHUP: the state's finalizers run
-- on each of them).
local printed = false
local function print_laps(total)
  if printed then return end
  printed = true
  for n = 1, #splits do print(lap_line(n)) end
  if #splits > 0 then
    print(string.format("laps %d  fastest %s  slowest %s  mean %s", #splits, lap_text(fastest), lap_text(slowest),
      lap_text(sum / #splits)))
  end
  print("total  " .. lap_text(total))
end
-- Kept in a local of the main chunk's closures: collected only when the state closes.
local at_exit = setmetatable({}, { __gc = function() print_laps(last_elapsed) end })

local function finish()
  print_laps(elapsed())
  watch:cancel()
  view.close()
end
view.on_key("q", function()
  local _ = at_exit
  finish()
end)

if quit_after then
  -- As the timer's --quit-after: the run ends that much later, laps printed.
  if quit_after == 0 then return finish() end
  countdown.start{ seconds = quit_after, every = quit_after, on_done = finish }
end
