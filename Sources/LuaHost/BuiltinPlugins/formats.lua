local M = { description = "formatters: compact (1d 02:03:04.5), humanized (in 3 days), clock (02:03)" }

--- 1d 02:03:04.5; the day part only when there are days.
function M.compact(t)
  if t.days > 0 then
    return format("%dd %02d:%02d:%02d.%d", t.days, t.hours, t.minutes, t.seconds, t.tenths)
  end
  return format("%02d:%02d:%02d.%d", t.hours, t.minutes, t.seconds, t.tenths)
end

local UNITS = { { 86400, "day" }, { 3600, "hour" }, { 60, "minute" }, { 1, "second" } }
--- in 3 days / in 1 hour / in 5 minutes / in 10 seconds / now: the largest whole unit.
function M.humanized(t)
  local r = t.remaining
  if r <= 0 then return "now" end
  for _, unit in ipairs(UNITS) do
    if r >= unit[1] then
      local n = floor(r / unit[1])
      return "in " .. n .. " " .. unit[2] .. (n == 1 and "" or "s")
    end
  end
  return "in less than a second"
end

--- 02:03: whole minutes (past 59 when an hour or more is left) and seconds.
function M.clock(t)
  return format("%02d:%02d", floor(t.remaining // 60), t.seconds)
end

function M.setup(options)
  check_options(options, {})
  formatter("compact", M.compact)
  formatter("humanized", M.humanized)
  formatter("clock", M.clock)
  return M
end
return M
