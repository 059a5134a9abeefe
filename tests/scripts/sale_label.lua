-- A flash-sale label counting down to a deadline (or a 5 s demo), to a tenth
-- of a second, without a terminal. Returns the label; `label.text` is what a
-- view would show, `label.handle` the countdown.
--
-- Not a test file (no _spec/_test suffix): the specs load it with load_script.

local deadline = ...

local label = { text = nil, ended = nil }

local options = {
  id = "flash-sale",
  every = 0.1,
  on_tick = function(t)
    -- Days only when there are any; hours, minutes, seconds and tenths always.
    local pattern = t.days > 0 and "{d}d {hh}:{mm}:{ss}.{t}" or "{hh}:{mm}:{ss}.{t}"
    label.text = countdown.format(t, pattern)
  end,
  on_done = function(_, reason)
    label.ended = reason
    label.text = reason == "finished" and "The sale has ended." or "The sale was called off."
  end,
}

if deadline then
  options.at = deadline
else
  options.seconds = 5
end

label.handle = countdown.start(options)
return label
