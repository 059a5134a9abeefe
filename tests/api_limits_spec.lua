-- Issue 13's smaller things: countdown.now, range errors that name the real
-- bound, two colours, on_error's two arguments.

describe("countdown.now", function()
  it("is the wall clock in seconds since the epoch, with fractions; the virtual one here", function()
    clock.set_wall("2026-12-01T20:00:00+08:00")
    expect(countdown.now()).to_be_near(1796126400, 1e-6)
    clock.advance(0.25)
    expect(countdown.now()).to_be_near(1796126400.25, 1e-6)
    local seen
    countdown.start{ seconds = 2, on_tick = function() seen = countdown.now() end }
    expect(seen).to_be_near(1796126400.25, 1e-6)
    clock.advance(1)
    expect(seen).to_be_near(1796126401.25, 1e-6)
  end)
end)

describe("range errors", function()
  it("name the longest countdown for seconds and append", function()
    expect(function() countdown.start{ seconds = 3e9 } end)
      .to_throw("'seconds' must be at most 2305843009 seconds (about 73 years), got 3000000000")
    local h = countdown.start{ seconds = 1 }
    expect(function() h:append(1e12) end)
      .to_throw("append: 'seconds' must be at most 2305843009 seconds (about 73 years), got 1000000000000")
    expect(function() countdown.start{ seconds = 0 } end).to_throw("'seconds' must be a number of seconds > 0, got 0")
  end)

  it("name the longest interval for every", function()
    expect(function() countdown.start{ seconds = 1, every = 1e12 } end)
      .to_throw("'every' must be at most 2305843009 seconds (about 73 years), got 1000000000000")
    expect(function() countdown.start{ seconds = 1, every = 0.01 } end).to_throw("'every' must be at least 0.1 seconds")
  end)

  it("name the bound for countdown.format", function()
    expect(function() countdown.format(1e12, "{d}") end)
      .to_throw("seconds must be at most 2305843009 seconds (about 73 years) either way, got 1000000000000")
    expect(function() countdown.format(0/0, "{d}") end).to_throw("must be a finite number")
  end)
end)

describe("view styles", function()
  it("reject two colours, naming both", function()
    expect(function() view.label{ id = "a", text = "x", style = "red blue" } end)
      .to_throw("style 'red blue' has two colours, 'red' and 'blue'")
    view.label{ id = "b", text = "x", style = "red bold red" }
  end)
end)

describe("on_error as a function", function()
  it("gets the message and the traceback as two strings", function()
    local got = {}
    countdown.start{ seconds = 1,
      on_error = function(message, traceback) got[#got + 1] = { message, traceback } end,
      on_tick = function() error("kaput") end }
    expect(#got).to_be(1)
    expect(got[1][1]:match("kaput$")).to_be("kaput")
    expect(got[1][1]:find("stack traceback", 1, true)).to_be(nil)
    expect(got[1][2]:sub(1, 16)).to_be("stack traceback:")
  end)
end)
