-- A stored overtime countdown (issue 37): a Pomodoro that runs past its end keeps
-- its +time when the app is killed and started again, and a second terminal
-- following it shows the same +time. tests/scripts/pomodoro.lua is the app.

local SCRIPT = "tests/scripts/pomodoro.lua"

describe("a stored overtime countdown", function()
  it("keeps its +time when the app is killed past its end and started again", function()
    local app = process.start(SCRIPT, "1")
    clock.advance(65)
    expect(app:printed()[1]).to_be("1:00")
    local printed = app:printed()
    expect({ printed[#printed - 5], printed[#printed] }).to_equal({ "end: finished", "+0:05" })
    expect(process.stored()).to_equal({
      { id = "pomodoro", state = "overtime", kind = "duration", remaining = 0, total = 60, every = 1, overtime = 5,
        deadline = "2027-01-01T00:01:00.000Z", actions = {} },
    })
    app:kill()
    clock.advance(10) -- nothing runs it for 10 s: it is 15 s past its end
    app:restart()
    expect(app:printed()).to_equal({ "+0:15" }) -- its end came before: no second "end"
    clock.advance(2)
    expect(app:printed()).to_equal({ "+0:15", "+0:16", "+0:17" })
    expect(app:countdown("pomodoro"):state()).to_be("running")
  end)

  it("shows the same +time in a second terminal that follows it, and both tick on", function()
    local app = process.start(SCRIPT, "1")
    clock.advance(30)
    local second = process.start(SCRIPT, "1") -- fetches the stored one
    local follower = process.follow("pomodoro")
    expect(second:printed()).to_equal({ "0:30" })
    clock.advance(40)
    for _, p in ipairs({ app, second }) do
      local printed = p:printed()
      expect({ printed[#printed - 10], printed[#printed] }).to_equal({ "end: finished", "+0:10" })
    end
    -- One end each, however many follow it.
    expect(#app:ends()).to_be(1)
    expect(#second:ends()).to_be(1)
    expect(#follower:ends()).to_be(1)
    expect(follower:countdown("pomodoro"):state()).to_be("running")
    -- Past the end nothing can be taken off; time added counts down again in all.
    local result, why = second:run("return countdown.get('pomodoro'):append(-5)")
    expect(result).to_be(nil)
    expect(why:find("past its end, in overtime", 1, true) ~= nil).to_be(true)
    follower:countdown("pomodoro"):append(30)
    expect(app:printed()[#app:printed()]).to_be("0:20")
    expect(second:printed()[#second:printed()]).to_be("0:20")
    expect(process.stored()[1].state).to_be("running")
  end)

  it("is not cleared as finished past its end: it goes when it is cancelled", function()
    local app = process.start(SCRIPT, "1")
    clock.advance(90)
    expect(#process.stored()).to_be(1)
    app:countdown("pomodoro"):cancel()
    expect(process.stored()).to_equal({})
    expect(#app:ends()).to_be(1) -- the cancel past the end only stops its ticks
  end)
end)
