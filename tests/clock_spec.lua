-- The virtual clock of `cdscript test` itself.

describe("clock", function()
  it("moves only when a test moves it", function()
    local t0 = clock.now()
    local h = countdown.start{ seconds = 60 }
    expect(clock.now()).to_be(t0)
    expect(h:remaining()).to_be(60)
    expect(clock.advance(1.5)).to_be(t0 + 1.5)
    expect(clock.now()).to_be(t0 + 1.5)
  end)

  it("reads a tick's own instant while its hook runs", function()
    local t0 = clock.now()
    local instants = {}
    countdown.start{ seconds = 1, every = 0.25, on_tick = function() instants[#instants + 1] = clock.now() - t0 end }
    clock.advance(10)
    expect(instants).to_equal({ 0, 0.25, 0.5, 0.75 })
    expect(clock.now() - t0).to_be(10)
  end)

  it("next() moves to the next tick and returns the new time, nil when idle", function()
    local t0 = clock.now()
    countdown.start{ seconds = 2, on_tick = function() end }
    expect(clock.next()).to_be(t0 + 1)
    expect(clock.next()).to_be(t0 + 2)
    expect(clock.next()).to_be(nil)
    expect(clock.now()).to_be(t0 + 2)
  end)

  it("next() goes straight to the end of a countdown without a tick hook", function()
    local t0 = clock.now()
    countdown.start{ seconds = 2 }
    expect(clock.next()).to_be(t0 + 2)
  end)

  it("run_all() runs until no countdown is left", function()
    local done = spy()
    countdown.start{ seconds = 3600, on_done = done }
    countdown.start{ seconds = 5, on_done = done }
    clock.run_all()
    expect(done.count).to_be(2)
    expect(#countdown.list()).to_be(0)
  end)

  it("run_all() fails loudly at its limit", function()
    local h
    h = countdown.start{ seconds = 1, on_done = function() h:append(1) end }
    expect(function() clock.run_all{ limit = 50 } end).to_throw("run_all stopped after 50 ticks")
    expect(h:state()).to_be("running")
  end)

  it("run_all() rejects a bad limit", function()
    expect(function() clock.run_all{ limit = 0 } end).to_throw("'limit' must be a whole number >= 1")
    expect(function() clock.run_all{ limt = 5 } end).to_throw("did you mean 'limit'")
  end)

  it("rejects time running backwards or bad numbers", function()
    expect(function() clock.advance(-1) end).to_throw("seconds must be a finite number >= 0")
    expect(function() clock.advance("soon") end).to_throw("expected a number of seconds")
    expect(function() clock.stall(0 / 0) end).to_throw("clock.stall")
    expect(function() clock.set_wall("tomorrow") end).to_throw("clock.set_wall")
  end)

  it("set_wall() sets the wall clock, which moves on with time", function()
    clock.set_wall("2026-12-01T12:00:00Z")
    expect(clock.wall()).to_be(1796126400)
    clock.advance(90)
    expect(clock.wall()).to_be(1796126400 + 90)
    clock.set_wall(0)
    expect(clock.wall()).to_be(0)
  end)

  it("raises an error of a hook in the test that moved the clock", function()
    local other = spy()
    countdown.start{ id = "bad", seconds = 5, on_tick = function(t) if t.remaining <= 3 then error("hook broke") end end }
    countdown.start{ id = "good", seconds = 5, on_tick = other }
    expect(function() clock.advance(3) end).to_throw("error in on_tick of countdown \"bad\": .*hook broke")
    -- the broken countdown stopped; the other one ran on
    expect(countdown.get("bad")).to_be(nil)
    expect(other.count).to_be(4) -- at 5, 4, 3 and 2 s left
    clock.advance(2)
    expect(other.count).to_be(5)
  end)

  for _, call in ipairs({ "advance(1)", "next()", "run_all()", "stall(1)", "set_wall(0)" }) do
    it("refuses clock." .. call .. " from inside a hook: only the test moves the clock", function()
      local move = load("clock." .. call)
      countdown.start{ seconds = 5, on_tick = function(t) if t.remaining == 4 then move() end end }
      expect(function() clock.advance(5) end).to_throw("cannot be called while a hook runs")
    end)
  end
end)
