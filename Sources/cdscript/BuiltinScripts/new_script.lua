-- __NAME__.lua: a countdown with a view, a formatter and a button.
--
--   cdscript __NAME__.lua          # three minutes
--   cdscript __NAME__.lua 4m30s    # any duration, or a clock time such as 20:00
--   cdscript test                  # tests/__NAME___spec.lua, on a virtual clock
--
-- Keys: s starts again when the time is up, Space pauses and resumes, q quits.
-- Every function used here is described in cdscript's annotation file, which
-- .luarc.json points your editor (lua-language-server) at.

local length = arg[1] or "3m"

-- A formatter: a name that works wherever a pattern does.
countdown.formatter("__NAME__", function(t)
  if t.hours > 0 then return countdown.format(t, "{h}:{mm}:{ss}") end
  return countdown.format(t, "{m}:{ss}")
end)

-- The view: elements are drawn top to bottom, in the order they are made.
view.title("__NAME__")
view.label{ id = "status", text = "Counting down", style = "bold" }
view.big{ id = "clock", text = "-:--" }
view.progress{ id = "progress", value = 0 }

local function start()
  view.set("again", { enabled = false })
  view.set("status", { text = "Counting down" })
  -- Strings with ':' or '-' are deadlines; anything else is a duration.
  local options = {
    id = "__NAME__",
    on_tick = function(t)
      view.set("clock", { text = countdown.format(t, "__NAME__") })
      view.set("progress", { value = t.progress })
    end,
    on_done = function(t, reason)
      view.set("clock", { text = countdown.format(t, "__NAME__") })
      if reason == "finished" then
        view.set("progress", { value = 1 })
        view.set("status", { text = "Time's up" })
        view.set("again", { enabled = true })
        view.bell()
      end
    end,
  }
  if length:find("[:%-]") then options.at = length else options.seconds = length end
  return countdown.start(options)
end

-- A button: pressed with its key while it is enabled.
view.button{ id = "again", label = "Start again", key = "s", enabled = false, on_press = start }

start()
