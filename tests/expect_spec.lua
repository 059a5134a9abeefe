-- The assertions of `cdscript test` itself: each passes when it should and
-- fails (raises) with a message that says why when it should not.

describe("expect", function()
  it("to_be compares raw values", function()
    expect(1).to_be(1)
    expect("a").to_be("a")
    expect(nil).to_be(nil)
    local t = {}
    expect(t).to_be(t)
    expect(function() expect({}).to_be({}) end).to_throw("expected {} to be {}")
    expect(function() expect(1).to_be(2) end).to_throw("expected 1 to be 2")
  end)

  it("to_equal compares tables deeply", function()
    expect({ 1, { a = "x" }, n = 2 }).to_equal({ 1, { a = "x" }, n = 2 })
    expect(function() expect({ 1, 2 }).to_equal({ 1, 2, 3 }) end).to_throw("expected values to be equal")
    expect(function() expect({ a = 1 }).to_equal({ a = 1, b = 2 }) end).to_throw()
  end)

  it("to_be_near allows a tolerance", function()
    expect(0.1 + 0.2).to_be_near(0.3, 1e-12)
    expect(function() expect(1.5).to_be_near(1, 0.1) end).to_throw("expected 1.5 to be within 0.1 of 1")
  end)

  it("to_throw matches the message as plain text or a Lua pattern", function()
    expect(function() error("no such item: 42") end).to_throw("no such item: 42")
    expect(function() error("no such item: 42") end).to_throw("item: %d+")
    expect(function() expect(function() end).to_throw() end).to_throw("expected the function to raise an error")
    expect(function() expect(function() error("x") end).to_throw("y") end).to_throw("it raised: .*x")
  end)

  it("never negates", function()
    expect(1).never.to_be(2)
    expect({ 1 }).never.to_equal({ 2 })
    expect(function() end).never.to_throw()
    expect(function() expect(1).never.to_be(1) end).to_throw("expected 1 not to be 1")
  end)

  it("shows values without addresses", function()
    expect(function() expect(print).to_be(1) end).to_throw("expected <function> to be 1")
    expect(function() expect({ b = 1, a = { 2 } }).to_be(1) end).to_throw("{a = {2}, b = 1}", nil)
  end)
end)

describe("spy", function()
  it("records calls and passes them through", function()
    local s = spy(function(a, b) return a + b end)
    expect(s(1, 2)).to_be(3)
    expect(s(0.5, 0.25)).to_be(0.75)
    expect(s.count).to_be(2)
    expect(s.calls).to_equal({ { 1, 2 }, { 0.5, 0.25 } })
    local bare = spy()
    expect(bare("x")).to_be(nil)
    expect(bare.calls).to_equal({ { "x" } })
  end)

  it("works as a hook", function()
    local ticks = spy()
    countdown.start{ seconds = 2, on_tick = ticks }
    clock.advance(2)
    expect(ticks.count).to_be(2)
    expect(ticks.calls[2][1].remaining).to_be(1)
  end)
end)

describe("printed", function()
  it("holds the lines this test printed", function()
    print("one", 2)
    print()
    expect(printed()).to_equal({ "one\t2", "" })
  end)

  it("starts empty in every test", function()
    expect(printed()).to_equal({})
  end)
end)

describe("hooks of a describe", function()
  local log = {}
  before_each(function() log[#log + 1] = "before" end)
  after_each(function() log[#log + 1] = "after" end)

  describe("nested", function()
    before_each(function() log[#log + 1] = "inner before" end)
    after_each(function() log[#log + 1] = "inner after" end)

    it("run outer to inner before, inner to outer after", function()
      expect(log).to_equal({ "before", "inner before" })
    end)
  end)

  it("ran around the previous test", function()
    expect(log).to_equal({ "before", "inner before", "inner after", "after", "before" })
  end)
end)

describe("countdowns left running by a test", function()
  it("start here", function()
    countdown.start{ id = "leftover", seconds = 1000, on_done = function() error("must not run") end }
  end)

  it("are stopped before the next test, without hooks", function()
    expect(countdown.get("leftover")).to_be(nil)
    expect(countdown.list()).to_equal({})
  end)
end)

describe("the test runner's process", function()
  it("cannot be ended by a test", function()
    expect(function() os.exit(0) end).to_throw("os.exit is not available in tests")
  end)
end)
