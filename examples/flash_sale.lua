-- A flash sale counting down to a deadline in big digits, to a tenth of a second,
-- with a progress bar, a window title, and the bell when it ends.
--
--   cdscript examples/flash_sale.lua                              # a 5 s demo sale
--   cdscript examples/flash_sale.lua 2026-12-01T20:00:00+08:00    # a real deadline
--   cdscript examples/flash_sale.lua 20:00                        # today (or tomorrow) at 20:00
--
-- Keys (the built-in timer_keys plugin, as `cdscript timer` has them): + and -
-- add and take off 10 s, e shows the end as a clock time, q quits. A deadline
-- does not pause or start again: Space and r say so (they act on the 5 s demo
-- only).

local deadline = arg[1]

local function clock_text(t)
  -- Days only when there are any; hours, minutes, seconds and tenths always.
  local pattern = t.days > 0 and "{d}d {hh}:{mm}:{ss}.{t}" or "{hh}:{mm}:{ss}.{t}"
  return countdown.format(t, pattern)
end

view.title("Flash sale")
view.label{ id = "heading", text = "The sale ends in", style = "bold yellow" }
view.big{ id = "clock", text = "--:--:--.-" }
view.progress{ id = "elapsed", value = 0 }

local options = {
  id = "flash-sale",
  every = 0.1,
  on_tick = function(t)
    view.set("clock", { text = clock_text(t) })
    view.set("elapsed", { value = t.progress })
  end,
  on_done = function(t, reason)
    view.set("clock", { text = clock_text(t) })
    view.set("elapsed", { value = 1 })
    if reason == "finished" then
      view.set("heading", { text = "The sale has ended.", style = "bold red" })
      view.bell()
    else
      view.set("heading", { text = "The sale was called off.", style = "bold red" })
    end
  end,
}

if deadline then
  options.at = deadline
else
  options.seconds = 5
end

-- countdown.start, with the timer's keys acting on this countdown.
return use("timer_keys").start(options)
