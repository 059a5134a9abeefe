-- examples/persistent_sms.lua, a resend cooldown kept in the store, as its users meet it: the
-- app killed mid-cooldown and started again, the machine rebooted, the app stopped (Ctrl-Z)
-- and continued, a second terminal following and changing the same cooldown. process.start
-- runs the example as a process of its own (its own Lua state) on the test's clock and store.

local SCRIPT = "examples/persistent_sms.lua"

describe("examples/persistent_sms.lua", function()
  it("goes on where it stood when killed mid-cooldown and started again", function()
    local app = process.start(SCRIPT, "60")
    expect(app:printed()).to_equal({ "[  disabled ] Resend in 60s" })
    clock.advance(12.3)
    app:kill()
    clock.advance(5) -- nothing runs it for 5 s; the store keeps it
    app:restart()
    expect(app:printed()).to_equal({
      "[  disabled ] Resend in 43s",
      "continuing the stored cooldown: 42.7 s left",
    })
    expect(app:countdown("sms-resend"):remaining()).to_be_near(42.7, 0.05)
    clock.advance(0.7)
    expect(app:printed()[3]).to_be("[  disabled ] Resend in 42s")
    clock.advance(42)
    expect(app:printed()[#app:printed()]).to_be("[Resend code] enabled")
    expect(#app:ends()).to_be(1)
  end)

  it("does not start the cooldown afresh when killed again and again", function()
    local app = process.start(SCRIPT, "60")
    for _ = 1, 5 do
      clock.advance(7.1)
      app:restart()
    end
    expect(app:countdown("sms-resend"):remaining()).to_be_near(60 - 5 * 7.1, 0.05)
    expect(app:printed()[2]).to_be("continuing the stored cooldown: 24.5 s left")
  end)

  it("enables the button when the cooldown ended while nothing ran", function()
    local app = process.start(SCRIPT, "60")
    clock.advance(30)
    app:kill()
    clock.advance(31)
    app:restart()
    expect(app:printed()).to_equal({ "[Resend code] enabled (the stored cooldown ended while nothing ran)" })
    expect(process.stored()[1].state).to_be("finished")
  end)

  it("goes on by the wall clock after a reboot", function()
    local app = process.start(SCRIPT, "60")
    clock.advance(20)
    process.reboot(25.5) -- down for 25.5 s: a new boot, the wall clock moved on
    expect(app:state()).to_be("killed")
    app:restart()
    expect(app:printed()[2]).to_be("continuing the stored cooldown: 14.5 s left")
    expect(app:countdown("sms-resend"):remaining()).to_be_near(14.5, 0.05)
  end)

  it("catches up in one tick after being stopped and continued", function()
    local app = process.start(SCRIPT, "60")
    clock.advance(2.5)
    app:suspend()
    clock.advance(10)
    expect(app:printed()[#app:printed()]).to_be("[  disabled ] Resend in 58s")
    app:resume()
    expect(app:printed()[#app:printed()]).to_be("[  disabled ] Resend in 48s (9 ticks missed)")
    expect(app:countdown("sms-resend"):remaining()).to_be_near(47.5, 0.05)
  end)

  it("follows what a second terminal does to the same cooldown", function()
    local start = clock.now() -- the clock goes on from the tests before
    local app = process.start(SCRIPT, "60")
    clock.advance(10)
    local other = process.follow("sms-resend")
    expect(other:countdown("sms-resend"):remaining()).to_be_near(50, 0.05)
    other:countdown("sms-resend"):append(30)
    expect(app:countdown("sms-resend"):remaining()).to_be_near(80, 0.05)
    expect(app:printed()[#app:printed()]).to_be("[  disabled ] Resend in 80s")
    other:countdown("sms-resend"):pause()
    clock.advance(100)
    expect(app:countdown("sms-resend"):state()).to_be("paused")
    expect(app:countdown("sms-resend"):remaining()).to_be_near(80, 0.05)
    other:countdown("sms-resend"):resume()
    clock.advance(80)
    -- Both ended once, at the same instant.
    expect(app:ends()).to_equal({ { id = "sms-resend", reason = "finished", time = start + 190 } })
    expect(other:ends()).to_equal({ { id = "sms-resend", reason = "finished", time = start + 190 } })
    expect(app:printed()[#app:printed()]).to_be("[Resend code] enabled")
  end)

  it("ends in every process when another cancels it", function()
    local start = clock.now()
    local app = process.start(SCRIPT, "60")
    local other = process.follow("sms-resend")
    clock.advance(3)
    expect(#other:ticks()).to_be(4) -- at 60, 59, 58 and 57 s left
    app:countdown("sms-resend"):cancel()
    expect(other:ends()).to_equal({ { id = "sms-resend", reason = "cancelled", time = start + 3 } })
    expect(process.stored()).to_equal({})
  end)
end)
