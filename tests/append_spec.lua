-- h:append(seconds): more time for a running countdown, a restart for an ended one.

describe("append", function()
  it("moves the deadline of a running countdown later", function()
    local h = countdown.start{ seconds = 5 }
    clock.advance(2)
    expect(h:append(10)).to_be(h)
    expect(h:remaining()).to_be_near(13, 1e-9)
    clock.advance(12.9)
    expect(h:state()).to_be("running")
    clock.advance(0.1)
    expect(h:state()).to_be("finished")
  end)

  it("keeps the tick phase when whole intervals are appended", function()
    local seen = {}
    local h = countdown.start{ seconds = 3, on_tick = function(t) seen[#seen + 1] = t.remaining end }
    clock.advance(1)
    h:append(2) -- 4 s left now, still on whole seconds: on_tick shows 4 at once
    clock.run_all()
    expect(seen).to_equal({ 3, 2, 4, 3, 2, 1 })
  end)

  it("restarts a finished countdown with the same id, hooks and interval", function()
    local ticks, done = spy(), spy()
    local h = countdown.start{ id = "cooldown", seconds = 2, every = 0.5, on_tick = ticks, on_done = done }
    clock.advance(2)
    expect(done.count).to_be(1)
    expect(h:state()).to_be("finished")
    expect(countdown.get("cooldown")).to_be(nil)

    h:append(3)
    expect(h:state()).to_be("running")
    expect(h:remaining()).to_be(3)
    expect(countdown.get("cooldown")).to_be(h)
    expect(ticks.calls[#ticks.calls][1].remaining).to_be(3)

    local before = ticks.count
    clock.advance(3)
    expect(ticks.count - before).to_be(5) -- 2.5, 2, 1.5, 1, 0.5
    expect(done.count).to_be(2)
    expect(done.calls[2][2]).to_be("finished")
  end)

  it("restarts a cancelled countdown too", function()
    local done = spy()
    local h = countdown.start{ seconds = 10, on_done = done }
    h:cancel()
    h:append(1)
    expect(h:state()).to_be("running")
    clock.advance(1)
    expect(done.count).to_be(2)
    expect(done.calls[1][2]).to_be("cancelled")
    expect(done.calls[2][2]).to_be("finished")
  end)

  it("can restart its own countdown from on_done", function()
    local rounds, h = 0, nil
    local started = clock.now()
    h = countdown.start{
      id = "loop",
      seconds = 1,
      on_done = function()
        rounds = rounds + 1
        if rounds < 3 then h:append(1) end
      end,
    }
    clock.run_all()
    expect(rounds).to_be(3)
    expect(clock.now() - started).to_be(3)
  end)
end)
