-- What busted counts as a failure (an assertion that did not hold) and as an
-- error (anything else, luassert's own errors included).
describe("kinds", function()
  it("fails an assertion", function()
    assert.is_true(false)
  end)

  it("asks for an assertion luassert does not have", function()
    assert.is_no_such_thing(1)
  end)

  it("gives a matcher a bad argument", function()
    assert.has_error(1)
  end)

  it("fails with assert(false)", function()
    assert(false, "plain")
  end)

  it("raises", function()
    error("boom")
  end)
end)
