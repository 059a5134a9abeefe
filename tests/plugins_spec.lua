-- Plugins and global hooks, driven by the virtual clock.

describe("use('formats')", function()
  it("registers compact, humanized and clock", function()
    use("formats")
    expect(countdown.format(93784.5, "compact")).to_equal("1d 02:03:04.5")
    expect(countdown.format(3 * 86400 + 7, "humanized")).to_equal("in 3 days")
    expect(countdown.format(125, "clock")).to_equal("02:05")
  end)
end)

describe("countdown.on", function()
  it("sees every countdown's start, ticks and end, until removed", function()
    local seen = spy()
    local remove = countdown.on("done", function(t) seen(t.id) end)
    countdown.start{ id = "a", seconds = 2 }
    countdown.start{ id = "b", seconds = 1 }
    clock.advance(2)
    expect(seen.calls).to_equal({ { "b" }, { "a" } })
    expect(remove()).to_be(true)
    countdown.start{ id = "c", seconds = 1 }
    clock.advance(1)
    expect(seen.count).to_be(2)
  end)

  it("gives tick hooks the ticks of countdowns without on_tick", function()
    local ticks = {}
    local remove = countdown.on("tick", function(t) ticks[#ticks + 1] = t.seconds end)
    countdown.start{ seconds = 3 }
    clock.run_all()
    remove()
    expect(ticks).to_equal({ 3, 2, 1 })
  end)
end)

describe("on_error", function()
  it("continue keeps a failing countdown running (each error is still reported)", function()
    local ticks, done = 0, false
    countdown.start{ seconds = 3, on_error = "continue", on_done = function() done = true end,
      on_tick = function(t) ticks = ticks + 1 if t.seconds < 3 then error("flaky") end end }
    expect(function() clock.advance(1) end).to_throw("flaky")
    expect(function() clock.advance(1) end).to_throw("flaky")
    clock.advance(1)
    expect(ticks).to_be(3)
    expect(done).to_be(true)
  end)

  it("a function takes the error instead of the report", function()
    local errors = {}
    countdown.start{ seconds = 2, on_error = function(e) errors[#errors + 1] = e:match("flaky") end,
      on_tick = function() error("flaky") end }
    clock.run_all()
    expect(errors).to_equal({ "flaky", "flaky" })
  end)
end)
