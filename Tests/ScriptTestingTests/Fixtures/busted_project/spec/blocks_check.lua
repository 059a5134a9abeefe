-- busted's blocks and hooks: what runs, and in which order. Runs unchanged
-- under `busted` (Lua 5.4) and `cdscript test`; the Swift test compares.
local log = {}
local function note(what) return function() log[#log + 1] = what end end

describe("order", function()
  log[#log + 1] = "describe body"
  setup(note("setup"))
  lazy_setup(note("lazy_setup"))
  before_each(note("before_each"))
  after_each(note("after_each"))
  teardown(note("teardown"))
  lazy_teardown(note("lazy_teardown"))

  it("first", function()
    log[#log + 1] = "first"
    finally(note("finally"))
  end)

  context("inner", function()
    log[#log + 1] = "inner body"
    before_each(note("inner before_each"))
    after_each(note("inner after_each"))
    spec("second", function() log[#log + 1] = "second" end)
  end)

  test("third fails after its hooks ran", function()
    log[#log + 1] = "third"
    assert.are.equal(1, 2)
  end)
end)

describe("checked after the blocks above ended", function()
  it("saw every hook in busted's order", function()
    assert.are.same({
      "describe body", "setup",
      "lazy_setup", "before_each", "first", "finally", "after_each",
      "inner body", "before_each", "inner before_each", "second", "inner after_each", "after_each",
      "before_each", "third", "after_each",
      "lazy_teardown", "teardown",
    }, log)
  end)
end)

describe("lazy_setup", function()
  local ran = false
  lazy_setup(function() ran = true end)
  pending("waits for a test that runs")
  it("is not run by a pending test", function() end)
end)

describe("errors", function()
  it("an error in a test fails it", function() error("boom") end)
  it("a failing assert fails it", function() assert.is_true(false) end)
  it("a passing test between them passes", function() assert.is_truthy(1) end)
  pending("a pending test is neither")
end)

describe("#fast tagged", function()
  it("runs with --tags=fast", function() assert.is.equal(2, 1 + 1) end)
  it("this one is #slow too", function() assert.is.equal(2, 1 + 1) end)
end)
