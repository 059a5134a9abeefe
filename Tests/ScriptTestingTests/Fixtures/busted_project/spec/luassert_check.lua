-- luassert's assertions, spies, stubs, mocks and matchers, as busted provides them.
local mylib = require("mylib")

describe("assertions", function()
  it("same, equal, truthy, error", function()
    assert.are.same({ a = { 1, 2 } }, { a = { 1, 2 } })
    assert.are_not.equal({}, {})
    assert.is_falsy(nil)
    assert.has_error(function() error("x") end)
    assert.has_no.errors(function() end)
    assert.matches("^hel", mylib.greet("x"))
    assert(mylib.add(1, 2) == 3, "plain assert still works")
  end)

  it("a failing same", function()
    assert.are.same({ 1, 2 }, { 1, 3 })
  end)
end)

describe("spies and stubs", function()
  local target = { f = function() return 1 end }

  it("spy.on records calls and passes through", function()
    local s = spy.on(mylib, "greet")
    assert.are.equal("hello a", mylib.greet("a"))
    assert.spy(s).was.called(1)
    assert.spy(s).was.called_with("a")
    s:revert()
  end)

  it("spy.new with match", function()
    local s = spy.new(function() end)
    s(1, "two")
    assert.spy(s).was.called_with(match.is_number(), match._)
    assert.spy(s).was_not.called_with(2, match._)
  end)

  it("stub returns what it is told", function()
    stub(target, "f").returns(5)
    assert.are.equal(5, target.f())
    assert.stub(target.f).was.called()
  end)

  it("a stub from an earlier test is still there unless reverted", function()
    assert.are.equal(5, target.f())
    target.f:revert()
    assert.are.equal(1, target.f())
  end)

  it("mock wraps a table in spies", function()
    local m = mock({ go = function() return "went" end })
    assert.are.equal("went", m.go())
    assert.spy(m.go).was.called()
  end)

  it("a spy that is not called fails", function()
    local s = spy.new(function() end)
    assert.spy(s).was.called()
  end)
end)

insulate("insulate", function()
  _G.leaked = "inside"
  it("sees its own global", function() assert.are.equal("inside", leaked) end)
end)

describe("after insulate", function()
  it("the global is gone", function() assert.is_nil(rawget(_G, "leaked")) end)
end)

expose("expose", function()
  _G.shared = "exposed"
end)

describe("after expose", function()
  it("the global is still there", function() assert.are.equal("exposed", shared) end)
end)
