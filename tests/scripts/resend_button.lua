-- A "resend code" button without a terminal: disabled during a cooldown,
-- enabled at its end; pressing it (when enabled) starts the cooldown again.
-- Returns the button; its fields are what a view would draw.
--
-- Not a test file (no _spec/_test suffix): the specs load it with load_script.

local argument = ...
local cooldown = tonumber(argument) or 60

local button = { enabled = false, text = nil, sent = 1 }

local function start_cooldown()
  button.enabled = false
  button.handle = countdown.start{
    id = "sms-resend",
    seconds = cooldown,
    every = 1,
    on_tick = function(t)
      button.text = countdown.format(t, "Resend in {S}s")
    end,
    on_done = function(_, reason)
      if reason == "finished" then
        button.enabled = true
        button.text = "Resend code"
      end
    end,
  }
end

-- Returns true when the press sent a new code.
function button.press()
  if not button.enabled then return false end
  button.sent = button.sent + 1
  start_cooldown()
  return true
end

start_cooldown()
return button
