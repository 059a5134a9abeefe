-- `cdscript test`'s prelude, part 4 of 7: hermetic time; os.time, os.date and os.clock follow the
-- virtual clock, in UTC.
-- Hermetic time: Lua's own clock functions follow the virtual clock, in UTC.
do
  local clock_now, clock_wall = clock.now, clock.wall
  -- Lua's own os.date, kept for the next test files of a shared state (--no-auto-insulate).
  local registry = debug.getregistry()
  registry["cdscript.test.os_date"] = registry["cdscript.test.os_date"] or os.date
  local real_date, floor = registry["cdscript.test.os_date"], math.floor

  local function days_from_civil(y, m, d)
    y = m <= 2 and y - 1 or y
    local era = (y >= 0 and y or y - 399) // 400
    local yoe = y - era * 400
    local doy = (153 * (m + (m > 2 and -3 or 9)) + 2) // 5 + d - 1
    local doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468
  end

  local function field(t, key, default)
    local v = t[key]
    if v == nil then
      if default == nil then error("field '" .. key .. "' missing in date table", 3) end
      return default
    end
    if math.type(v) ~= "integer" then
      local n = math.tointeger(v)
      if not n then error("field '" .. key .. "' is not an integer", 3) end
      v = n
    end
    return v
  end

  os.time = function(t)
    if t == nil then return floor(clock_wall()) end
    if type(t) ~= "table" then error("bad argument #1 to 'time' (table expected, got " .. type(t) .. ")", 2) end
    local year, month = field(t, "year"), field(t, "month")
    local day = field(t, "day")
    local hour, min, sec = field(t, "hour", 12), field(t, "min", 0), field(t, "sec", 0)
    year = year + (month - 1) // 12
    month = (month - 1) % 12 + 1
    local seconds = (days_from_civil(year, month, 1) + day - 1) * 86400 + hour * 3600 + min * 60 + sec
    -- os.time normalises the table's fields, as C's mktime does.
    local n = os.date("!*t", seconds)
    for k, v in pairs(n) do t[k] = v end
    return seconds
  end

  -- Tests run in UTC: a format without "!" is read as UTC too.
  os.date = function(format, time)
    format = format == nil and "%c" or format
    if type(format) ~= "string" then error("bad argument #1 to 'date' (string expected, got " .. type(format) .. ")", 2) end
    if time == nil then time = floor(clock_wall()) end
    if format:sub(1, 1) ~= "!" then format = "!" .. format end
    return real_date(format, time)
  end

  os.clock = function() return clock_now() end
end
