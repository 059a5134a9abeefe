-- A "resend code" button that stays disabled during a cooldown and enables
-- itself when the cooldown ends.
--
--   cdscript examples/sms_code.lua        # the usual 60 s cooldown
--   cdscript examples/sms_code.lua 5      # a short one

local cooldown = tonumber(arg[1]) or 60

local function show(enabled, text)
  print(("[%s] %s"):format(enabled and "Resend code" or "  disabled ", text))
end

return countdown.start{
  id = "sms-resend",
  seconds = cooldown,
  every = 1,
  on_tick = function(t)
    show(false, countdown.format(t, "Resend in {S}s"))
  end,
  on_done = function(_, reason)
    if reason == "finished" then show(true, "enabled") end
  end,
}
