-- h:pause() and h:resume(): the remaining time freezes and continues.

describe("pause and resume", function()
  it("freeze the remaining time while paused", function()
    local h = countdown.start{ seconds = 10 }
    clock.advance(3)
    expect(h:pause()).to_be(true)
    clock.advance(100)
    expect(h:state()).to_be("paused")
    expect(h:remaining()).to_be_near(7, 1e-9)
    expect(h:resume()).to_be(true)
    clock.advance(6.9)
    expect(h:state()).to_be("running")
    clock.advance(0.1)
    expect(h:state()).to_be("finished")
  end)

  it("send no ticks while paused", function()
    local ticks = spy()
    local h = countdown.start{ seconds = 10, on_tick = ticks }
    clock.advance(2)
    h:pause()
    local count = ticks.count
    clock.advance(30)
    expect(ticks.count).to_be(count)
  end)

  it("keep the tick alignment: paused 2.5 s before the end, ticks at 2 and 1", function()
    local seen = {}
    local started = clock.now()
    local h = countdown.start{ seconds = 5, on_tick = function(t) seen[#seen + 1] = t.remaining end }
    clock.advance(2.5)
    h:pause()
    clock.advance(7)
    h:resume()
    clock.run_all()
    -- pause and resume each call on_tick at once with the frozen 2.5 s.
    expect(seen).to_equal({ 5, 4, 3, 2.5, 2.5, 2, 1 })
    expect(clock.now() - started).to_be_near(2.5 + 7 + 2.5, 1e-9)
  end)

  it("change nothing when repeated", function()
    local h = countdown.start{ seconds = 10 }
    expect(h:resume()).to_be(false)
    expect(h:pause()).to_be(true)
    expect(h:pause()).to_be(false)
    clock.advance(5)
    expect(h:resume()).to_be(true)
    expect(h:resume()).to_be(false)
    expect(h:remaining()).to_be_near(10, 1e-9)
  end)

  it("can be done from hooks", function()
    local h
    h = countdown.start{ seconds = 5, on_tick = function(t) if t.remaining == 3 then h:pause() end end }
    clock.advance(10)
    expect(h:state()).to_be("paused")
    expect(h:remaining()).to_be(3)
  end)
end)
