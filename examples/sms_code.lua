-- A "resend code" button that stays disabled during a cooldown and enables
-- itself when the cooldown ends; pressing r starts the cooldown again.
--
--   cdscript examples/sms_code.lua        # the usual 60 s cooldown
--   cdscript examples/sms_code.lua 5      # a short one
--
-- Keys: r resends (when enabled), q quits.

local cooldown = tonumber(arg[1]) or 60

local function waiting_text(seconds)
  return countdown.format(seconds, "Resend in {S}s")
end

local start_cooldown

view.title("Verification code")
view.label{ id = "status", text = waiting_text(cooldown) }
view.button{
  id = "resend", label = "Resend code", key = "r", enabled = false,
  on_press = function() start_cooldown() end,
}

function start_cooldown()
  view.set("resend", { enabled = false })
  countdown.start{
    id = "sms-resend",
    seconds = cooldown,
    every = 1,
    on_tick = function(t)
      view.set("status", { text = waiting_text(t.remaining) })
    end,
    on_done = function(_, reason)
      if reason == "finished" then
        view.set("status", { text = "Didn't get the code?" })
        view.set("resend", { enabled = true })
      end
    end,
  }
end

start_cooldown()
