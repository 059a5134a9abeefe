-- What busted allows where: blocks, tests and hooks only where blocks are
-- declared, with busted's message; finally in tests only, taking a spy too.
describe("inside a test", function()
  it("refuses blocks, tests and hooks with busted's message", function()
    assert.has_error(describe, "'describe' not supported inside current context block")
    assert.has_error(it, "'it' not supported inside current context block")
    assert.has_error(setup, "'setup' not supported inside current context block")
    assert.has_error(strict_teardown, "'strict_teardown' not supported inside current context block")
    assert.has_error(randomize, "'randomize' not supported inside current context block")
  end)
  local after = spy.new(function() end)
  it("takes a spy as its finally", function() finally(after) end)
  it("called that spy", function() assert.spy(after).was_called(1) end)
  it("refuses pending in a finally", function()
    finally(function() assert.has_error(pending, "'pending' not supported inside current context block") end)
  end)
end)

describe("inside a hook", function()
  local checked = {}
  setup(function()
    checked.finally = finally
    checked.ok = pcall(describe, "x", function() end)
  end)
  it("had no finally and could not declare a block", function()
    assert.is_nil(checked.finally)
    assert.is_false(checked.ok)
  end)
end)
