-- A stall (the process stopped, the machine asleep): one catch-up tick with the
-- true remaining time and `missed`, never a burst; on_done exactly once.

describe("after a stall", function()
  it("fires one catch-up tick with the true remaining time and the ticks missed", function()
    local ticks = spy()
    countdown.start{ seconds = 10, on_tick = ticks }
    clock.advance(2) -- ticks at 10, 9, 8
    expect(ticks.count).to_be(3)
    clock.stall(5) -- the ticks due at 3, 4, 5, 6 and 7 s come late
    expect(ticks.count).to_be(4)
    local t = ticks.calls[4][1]
    expect(t.remaining).to_be_near(3, 1e-9)
    expect(t.missed).to_be(4)
    clock.advance(1)
    expect(ticks.calls[5][1].remaining).to_be_near(2, 1e-9)
    expect(ticks.calls[5][1].missed).to_be(0)
  end)

  it("ends exactly once when the deadline passed during the stall", function()
    local ticks, done = spy(), spy()
    countdown.start{ seconds = 10, on_tick = ticks, on_done = done }
    clock.advance(2)
    clock.stall(60)
    expect(ticks.count).to_be(3)
    expect(done.count).to_be(1)
    expect(done.calls[1][2]).to_be("finished")
    expect(done.calls[1][1].remaining).to_be(0)
    expect(done.calls[1][1].missed).to_be(7)
    clock.advance(60)
    expect(done.count).to_be(1)
  end)

  it("keeps counting through the stall: durations are boot time", function()
    local h = countdown.start{ seconds = 30 }
    clock.stall(10)
    expect(h:remaining()).to_be_near(20, 1e-9)
  end)

  it("leaves a stall shorter than an interval alone", function()
    local ticks = spy()
    countdown.start{ seconds = 5, on_tick = ticks }
    clock.stall(0.5)
    expect(ticks.count).to_be(1)
    clock.advance(0.5)
    expect(ticks.count).to_be(2)
    expect(ticks.calls[2][1].missed).to_be(0)
  end)
end)
