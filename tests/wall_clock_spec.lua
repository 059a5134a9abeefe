-- A jump of the wall clock leaves duration countdowns alone; `at` countdowns
-- follow it.

describe("a wall-clock jump", function()
  it("does not move a duration countdown", function()
    clock.set_wall("2026-12-01T12:00:00Z")
    local h = countdown.start{ seconds = 60 }
    clock.advance(10)
    clock.set_wall("2026-12-01T15:00:00Z") -- three hours ahead
    expect(h:remaining()).to_be_near(50, 1e-9)
    clock.set_wall("2026-12-01T09:00:00Z") -- and back
    expect(h:remaining()).to_be_near(50, 1e-9)
    clock.advance(50)
    expect(h:state()).to_be("finished")
  end)

  it("moves an `at` countdown with it", function()
    clock.set_wall("2026-12-01T19:59:00+08:00")
    local h = countdown.start{ at = "2026-12-01T20:00:00+08:00" }
    expect(h:remaining()).to_be_near(60, 1e-9)
    clock.set_wall("2026-12-01T19:59:30+08:00")
    expect(h:remaining()).to_be_near(30, 1e-9)
    clock.set_wall("2026-12-01T19:58:00+08:00")
    expect(h:remaining()).to_be_near(120, 1e-9)
    clock.advance(119)
    expect(h:state()).to_be("running")
    clock.advance(1)
    expect(h:state()).to_be("finished")
  end)

  it("past an `at` deadline ends that countdown at once, and only that one", function()
    clock.set_wall("2026-12-01T19:00:00+08:00")
    local done = spy()
    local sale = countdown.start{ at = "2026-12-01T20:00:00+08:00", on_done = done }
    local timer = countdown.start{ seconds = 600 }
    clock.set_wall("2026-12-01T20:00:05+08:00")
    expect(done.count).to_be(1)
    expect(done.calls[1][2]).to_be("finished")
    expect(sale:state()).to_be("finished")
    expect(timer:state()).to_be("running")
    expect(timer:remaining()).to_be_near(600, 1e-9)
  end)

  it("keeps one clock for both: ticks of the duration countdown stay on time", function()
    clock.set_wall("2026-12-01T12:00:00Z")
    local seen = {}
    countdown.start{ seconds = 3, on_tick = function(t) seen[#seen + 1] = t.remaining end }
    clock.advance(1)
    clock.set_wall("2026-12-02T12:00:00Z")
    clock.run_all()
    expect(seen).to_equal({ 3, 2, 1 })
  end)

  it("reads clock times like \"20:00\" in UTC, on the virtual wall clock", function()
    clock.set_wall("2026-12-01T19:00:00Z")
    local h = countdown.start{ at = "20:00" }
    expect(h:remaining()).to_be_near(3600, 1e-9)
  end)
end)
