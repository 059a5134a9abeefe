-- (The shared part of the built-in plugins comes before this: `plugin`, `api`,
-- check_options, and the library functions as they were before the script ran.)
local M = { description = "timer keys: + and - add and take off 10 s, r restarts, e shows the end, Space pauses, q quits" }

-- Taken now: a script may replace these globals later.
local view, countdown, date = view, countdown, os.date
local abs = math.abs

--- local keys = use("timer_keys", {step = 10})
--- keys.start(options)   -- countdown.start(options), and the keys act on it:
---   +  adds `step` seconds (10)      -  takes `step` seconds off
---   r  starts it again from its original length (the same options)
---   e  shows or hides the end as a clock time ("ends 17:42:05"; the date too when not today)
---   E and R (Caps Lock on) do what e and r do; Q quits as q does (termdown's key)
---   Space pauses and resumes it      q quits (the view's own key)
--- A key that does nothing now says so on a line of its own (`note`), until
--- the next key or a few seconds later. The end time shows in `ends`.
function M.setup(options)
  check_options(options, { step = true, note = true, ends = true, note_seconds = true })
  local step = options.step or 10
  if type(step) ~= "number" or step <= 0 then
    error("timer_keys: 'step' must be a number of seconds above 0, got " .. tostring(step), 3)
  end
  local note_id, ends_id = options.note or "note", options.ends or "ends"
  local note_seconds = options.note_seconds or 3
  local keys = {}
  local current, restart_with, fixed
  local restarting = false
  local shown_note, note_until = false, nil
  local showing_end = false
  -- The end on the wall clock, as the last tick saw it: inside a tick the time
  -- and the remaining time are read at the same instant (in a key's handler the
  -- clock has moved on since the remaining time was, by a lot under --speed).
  local ends_at

  local function label(id, text, style)
    if pcall(view.get, id) then
      view.set(id, { text = text, style = style or "" })
    else
      view.label{ id = id, text = text, style = style }
    end
  end

  --- Says what a key did not do (or did), briefly.
  function keys.note(text, style)
    shown_note = true
    note_until = countdown.now() + note_seconds
    label(note_id, text, style or "yellow")
  end

  -- On the full screen a note goes away; printed lines stay as they are.
  local function clear_note(now)
    if shown_note and note_until and now >= note_until and not view.plain() then
      note_until = nil
      label(note_id, "")
    end
  end

  -- On the countdown's own clock (fast under --speed): the time of day with
  -- seconds, and the date too when that is not today.
  local function end_text()
    if not current or current:state() == "finished" or current:state() == "cancelled" then return "ended" end
    if current:state() == "paused" then return "ends when resumed" end
    local now = countdown.now()
    local at = math.floor((ends_at or now + current:remaining()) + 0.5)
    if date("%Y-%m-%d", at) == date("%Y-%m-%d", math.floor(now)) then return "ends " .. date("%H:%M:%S", at) end
    return "ends " .. date("%a %Y-%m-%d %H:%M:%S", at)
  end

  local function show_end()
    if showing_end then label(ends_id, end_text(), "dim") end
  end

  local function active()
    if not current then
      keys.note("no countdown to act on")
      return false
    end
    local state = current:state()
    if state ~= "running" and state ~= "paused" then
      keys.note("the countdown has ended")
      return false
    end
    return true
  end

  --- countdown.start's options with on_tick and on_done wrapped for the keys
  --- (notes go away on a tick; `r`'s cancel is not an end the script sees).
  function keys.wrap(start_options)
    local wrapped = {}
    for k, v in pairs(start_options) do wrapped[k] = v end
    local on_tick, on_done = start_options.on_tick, start_options.on_done
    wrapped.on_tick = function(t)
      ends_at = countdown.now() + t.remaining
      clear_note(countdown.now())
      if on_tick then return on_tick(t) end
    end
    wrapped.on_done = function(t, reason)
      if restarting then return end
      if on_done then return on_done(t, reason) end
    end
    return wrapped
  end

  --- Makes the keys act on `handle`, which `r` starts again with `start_options`.
  function keys.follow(handle, start_options)
    current = handle
    fixed = start_options.at ~= nil
    restart_with = keys.wrap(start_options)
    return handle
  end

  --- countdown.start(start_options), and the keys act on the countdown.
  function keys.start(start_options)
    return keys.follow(countdown.start(keys.wrap(start_options)), start_options)
  end

  --- The handle the keys act on.
  function keys.handle() return current end

  local function add(seconds)
    if not active() then return end
    if seconds < 0 and current:remaining() <= -seconds then
      keys.note("less than " .. step .. " s left: nothing taken off")
      return
    end
    -- Past the longest a countdown can be, append refuses: say so, briefly.
    local ok, err = pcall(current.append, current, seconds)
    if not ok then
      local why = tostring(err):match("append: (.*)") or tostring(err)
      return keys.note("cannot add " .. step .. " s: " .. why)
    end
    show_end()
  end

  keys.actions = {
    ["+"] = function() add(step) end,
    ["-"] = function() add(-step) end,
    ["r"] = function()
      if not current then return keys.note("no countdown to restart") end
      if fixed then return keys.note("cannot restart a fixed deadline") end
      if not active() then return end
      if restart_with.persist then
        -- A stored countdown is replaced under its id, not cancelled: every
        -- process that follows it takes the new length (a cancel would end it there).
        current = countdown.start(restart_with)
      else
        restarting = true
        current:cancel()
        restarting = false
        current = countdown.start(restart_with)
      end
      if shown_note then label(note_id, view.plain() and "restarted" or "") end
      note_until = nil
      show_end()
    end,
    ["e"] = function()
      showing_end = not showing_end
      label(ends_id, showing_end and end_text() or "", "dim")
    end,
    ["space"] = function()
      if not active() then return end
      if fixed then return keys.note("cannot pause a fixed deadline") end
      if current:state() == "paused" then
        current:resume()
        label(note_id, view.plain() and "resumed" or "")
        note_until = nil
      else
        current:pause()
        shown_note = true
        note_until = nil
        label(note_id, "paused — Space to resume", "bold inverse")
      end
      show_end()
    end,
  }
  for key, action in pairs(keys.actions) do view.on_key(key, action) end
  -- With Caps Lock on: E and R do what e and r do; Q quits as q does (termdown's quit key).
  for key, action in pairs(keys.actions) do
    if key:match("^%l$") then view.on_key(key:upper(), action) end
  end
  view.on_key("Q", function() view.press("q") end)

  --- Removes every key binding made here (when the countdown's end leaves nothing to act on).
  function keys.unbind()
    for key in pairs(keys.actions) do
      view.on_key(key, nil)
      if key:match("^%l$") then view.on_key(key:upper(), nil) end
    end
    view.on_key("Q", nil)
  end
  return keys
end
return M
