-- A flash-sale label counting down to a deadline, to a tenth of a second.
--
--   cdscript examples/flash_sale.lua                              # a 5 s demo sale
--   cdscript examples/flash_sale.lua 2026-12-01T20:00:00+08:00    # a real deadline
--   cdscript examples/flash_sale.lua 20:00                        # today (or tomorrow) at 20:00

local deadline = arg[1]

local options = {
  id = "flash-sale",
  every = 0.1,
  on_tick = function(t)
    -- Days only when there are any; hours, minutes, seconds and tenths always.
    local pattern = t.days > 0 and "{d}d {hh}:{mm}:{ss}.{t}" or "{hh}:{mm}:{ss}.{t}"
    print("Sale ends in " .. countdown.format(t, pattern))
  end,
  on_done = function(_, reason)
    if reason == "finished" then
      print("The sale has ended.")
    else
      print("The sale was called off.")
    end
  end,
}

if deadline then
  options.at = deadline
else
  options.seconds = 5
end

return countdown.start(options)
