-- What a test registers with the host does not reach the next test: global
-- hooks, formatters, plugins loaded with `use` (and their hooks), the view and
-- its key bindings, countdowns. The tests run in order; each even one checks
-- that what the one before it left is gone. Assertions are luassert's.

describe("isolation between tests", function()
  local fired = 0

  it("1: registers a done hook, a formatter, a plugin and a button", function()
    countdown.on("done", function() fired = fired + 1 end)
    countdown.formatter("mine", function() return "from mine" end)
    use("formats")
    use("bell")
    view.button{ id = "go", label = "Go", key = "g", on_press = function() fired = fired + 100 end }
    assert.are.equal("from mine", countdown.format(5, "mine"))
    assert.are.equal("00:05", countdown.format(5, "clock"))
    countdown.start{ seconds = 1 }
    clock.advance(1)
    assert.are.equal(1, fired)
    assert.are.equal(1, #plugin_calls("bell"))
  end)

  it("2: none of them is left", function()
    countdown.start{ seconds = 1 }
    clock.advance(1)
    assert.are.equal(1, fired) -- the done hook of test 1 did not fire
    assert.are.equal(0, #plugin_calls("bell")) -- nor the bell plugin's
    assert.are.equal("mine", countdown.format(5, "mine")) -- a pattern again, not the formatter
    assert.are_not.equal("00:05", countdown.format(5, "clock"))
    assert.is_false(view.press("g"))
    assert.are.equal(1, fired)
    assert.is_nil(package.loaded.formats)
  end)

  describe("a block's setup", function()
    setup(function() countdown.formatter("block", function() return "from setup" end) end)

    it("3: registers for every test of the block", function()
      assert.are.equal("from setup", countdown.format(1, "block"))
    end)

    it("4: still there for the next test of the block", function()
      assert.are.equal("from setup", countdown.format(1, "block"))
    end)
  end)

  it("5: and gone after the block", function()
    assert.are_not.equal("from setup", countdown.format(1, "block"))
  end)
end)

describe("luassert spies as hooks", function()
  it("count ticks, ends and global events", function()
    local s = spy.new(function() end)
    local seen = spy.new(function() end)
    local remove = countdown.on("done", seen)
    countdown.start{ seconds = 2, on_tick = s, on_done = s }
    clock.advance(2)
    assert.spy(s).was.called(3)
    assert.spy(seen).was.called(1)
    remove()
  end)
end)
