-- Lua's own clock functions follow the virtual clock in tests: os.time,
-- os.date (local formats are UTC in tests) and os.clock.

describe("os.time, os.date and os.clock in tests", function()
  it("start at the virtual wall clock: 2027-01-01T00:00:00Z", function()
    assert.are.equal(1798761600, os.time())
    assert.are.equal(clock.wall(), os.time())
    assert.are.equal("2027-01-01 00:00:00", os.date("!%Y-%m-%d %H:%M:%S"))
    assert.are.equal("2027-01-01 00:00:00", os.date("%Y-%m-%d %H:%M:%S"))
    assert.are.equal(2027, os.date("*t").year)
    assert.are.equal(0, os.date("!*t").hour)
  end)

  it("move with clock.advance and clock.set_wall", function()
    clock.advance(90)
    assert.are.equal(1798761600 + 90 + 0, os.time() - 0) -- the clock is not reset between tests of a file
    assert.are.equal("00:01:30", os.date("%H:%M:%S"))
    clock.set_wall("2026-12-01T19:59:50+08:00")
    assert.are.equal("2026-12-01 11:59:50", os.date("!%Y-%m-%d %H:%M:%S"))
    assert.are.equal(os.time(), math.floor(clock.wall()))
  end)

  it("os.date with a time formats that time", function()
    assert.are.equal("1970-01-01 00:00:00", os.date("!%Y-%m-%d %H:%M:%S", 0))
    assert.are.equal("2027-01-01", os.date("%Y-%m-%d", 1798761600))
  end)

  it("os.time with a table reads it as UTC and normalises it", function()
    assert.are.equal(1798761600, os.time{ year = 2027, month = 1, day = 1, hour = 0 })
    local t = { year = 2026, month = 13, day = 1, hour = 0 }
    assert.are.equal(1798761600, os.time(t))
    assert.are.same({ 2027, 1, 1 }, { t.year, t.month, t.day })
    assert.are.equal(1798761600 - 86400, os.time{ year = 2027, month = 1, day = 0, hour = 0 })
    assert.has_error(function() os.time{ year = 2027 } end, "field 'month' missing in date table")
  end)

  it("os.clock is the virtual boot clock", function()
    local start = os.clock()
    assert.are.equal(clock.now(), start)
    clock.advance(2.5)
    assert.are.equal(start + 2.5, os.clock())
  end)
end)
